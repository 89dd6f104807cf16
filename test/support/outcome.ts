import fc from 'fast-check';
import { expect } from 'vitest';

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

/**
 * Property test of two decoders on mutated input: random samples, up to four bytes overwritten and
 * up to three cut from the end, and the two outcomes must be equal (values, or code, message and
 * path). The differential tests of compiled codecs against their interpreters share it.
 */
export function expectSameOutcomeOnMutations(
  samples: readonly Uint8Array[],
  decode: (bytes: Uint8Array) => unknown,
  reference: (bytes: Uint8Array) => unknown,
  numRuns = 300,
): void {
  // Copies: an encoder may hand out a view of a buffer it writes into again.
  const copies = samples.map((sample) => sample.slice());
  fc.assert(
    fc.property(
      fc.nat({ max: copies.length - 1 }),
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
      fc.nat(),
      (which, edits, cut) => {
        const sample = copies[which] as Uint8Array;
        const mutated = sample.slice(0, Math.max(1, sample.length - (cut % 4)));
        for (const [position, value] of edits) mutated[position % mutated.length] = value;
        expect(outcome(() => decode(mutated))).toStrictEqual(outcome(() => reference(mutated)));
      },
    ),
    { numRuns },
  );
}
