/**
 * A broken promise inside wirekit itself: a plan that disagrees with the schema it was made from, a
 * case the callers are known never to reach. No input or option of the caller's can cause one, so it
 * carries no error code to branch on (codes are for what callers can get wrong and fix); it is a
 * plain Error whose message asks for a report.
 */
export class WirekitBug extends Error {
  override readonly name = 'WirekitBug';

  constructor(what: string) {
    super(
      `wirekit bug: ${what}. This is a fault in wirekit, not in your input; please report it with the schema and value that led here.`,
    );
  }
}
