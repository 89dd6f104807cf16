/**
 * What a compatibility rule reports when it is broken, and the one line it becomes. The rules of
 * every schema type (Avro, Protobuf, wirekit's value rules) report findings of one shape, so the
 * registry answers them alike; the lines follow Confluent's verbose answer
 * (`{errorType:'…', description:'…', additionalInfo:'…'}`), which is what people and tools that
 * know Confluent's registry look for.
 *
 * A rule compares a reader with a writer, but a person reads "the new schema" and "the old one":
 * which of them is the reader depends on the level (BACKWARD reads old data with the new schema,
 * FORWARD the other way), so a finding's description is written once per level, from its roles.
 */

/** Which of the two schemas plays reader and which writer, in the words a description uses. */
export interface Roles {
  readonly reader: 'new' | 'old';
  readonly writer: 'new' | 'old';
}

/** The roles of BACKWARD (the new schema reads old data) and of FORWARD (the old reads new data). */
export const backwardRoles: Roles = { reader: 'new', writer: 'old' };
export const forwardRoles: Roles = { reader: 'old', writer: 'new' };

/** One broken rule, as a rule module reports it. */
export interface Finding {
  /** A stable name for the rule (Confluent's where it has one: TYPE_MISMATCH, FIELD_KIND_CHANGED…). */
  readonly errorType: string;
  /** Where in the schema: `/fields/2/type` for Avro, `#/Order/3` for Protobuf, `$.lines[].qty` for wirekit. */
  readonly path: string;
  /** What was expected and found, when there is something short to say. */
  readonly additionalInfo?: string;
  /**
   * The description for people, with the roles and the path filled in. The path is an argument
   * (not captured) so that a rule can report paths relative to the pair it checks, and its caller
   * put its own path in front: a pair checked once answers for every place it is met.
   */
  readonly describe: (roles: Roles, path: string) => string;
}

/** A finding with its description written out: what `compatibilityReport` returns. */
export interface CompatibilityIssue {
  /** Which rules found it: the Avro or Protobuf rules (of the schema or of a wirekit schema's export), or wirekit's value rules. */
  readonly rules: 'avro' | 'protobuf' | 'wirekit';
  readonly errorType: string;
  readonly path: string;
  readonly description: string;
  readonly additionalInfo?: string;
}

/** The finding with its description for these roles. */
export function issueOf(
  rules: CompatibilityIssue['rules'],
  finding: Finding,
  roles: Roles,
): CompatibilityIssue {
  return {
    rules,
    errorType: finding.errorType,
    path: finding.path,
    description: finding.describe(roles, finding.path),
    ...(finding.additionalInfo === undefined ? {} : { additionalInfo: finding.additionalInfo }),
  };
}

/** Confluent's line for one broken rule. Quotes inside the parts are left as they are, as Confluent does. */
export function issueLine(issue: CompatibilityIssue): string {
  const info = issue.additionalInfo === undefined ? '' : `, additionalInfo:'${issue.additionalInfo}'`;
  return `{errorType:'${issue.errorType}', description:'${issue.description}'${info}}`;
}

/** Drops findings repeated at the same path (a named type met twice reports its problems once). */
export function distinct(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((finding) => {
    const key = `${finding.errorType}\u0000${finding.path}\u0000${finding.additionalInfo ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
