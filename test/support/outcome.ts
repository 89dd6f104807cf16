/**
 * What a call did, as data: its value, or its error's code, message and path. Differential tests
 * compare two implementations' outcomes with `toStrictEqual`, errors included.
 */
export type Outcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly code: unknown; readonly message: string; readonly path: unknown };

export function outcome(body: () => unknown): Outcome {
  try {
    return { ok: true, value: body() };
  } catch (error) {
    const { code, path } = error as { code?: unknown; path?: unknown };
    return { ok: false, code, message: (error as Error).message, path };
  }
}
