/**
 * The tests every format's codec of t.either passes on a row of `keyedRowFields`
 * (test/fixtures/either-rows.ts), registered inside the format's own describe block, once per
 * codec mode: the values round-trip, a value of no branch is refused at its path, and changed or
 * cut bytes end in a value or a WirekitError.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Codec } from '../../src/codecs/index.js';
import { codeAndPathOf } from './code-of.js';

/**
 * A describe block per codec mode, generated (`compile: true`) then interpreted, each with the
 * shared tests of `values` (the first a row of `keyedRowFields`) before what `body` adds.
 */
export function eachCodecMode(
  title: string,
  make: (compile: boolean) => Codec<unknown>,
  values: readonly [Record<string, unknown>, ...unknown[]],
  body: (codec: Codec<unknown>, compile: boolean) => void = () => {},
): void {
  describe.each([true, false])(`${title} (compile: %s)`, (compile) => {
    const codec = make(compile);
    const [row] = values;

    test('every branch round-trips as itself', () => {
      expect(codec.compiled).toBe(compile);
      for (const value of values) expect(codec.decode(codec.encode(value))).toEqual(value);
      expect(codec.decode(codec.encode({ ...row, shape: '12.50' }))).toEqual({ ...row, shape: '12.50' });
    });

    test('a value of no branch, or breaking its branch, is refused at its path', () => {
      const refusal = (value: unknown) => codeAndPathOf(() => codec.encode(value));
      expect(refusal({ ...row, id: true })).toBe('WK_VALIDATION_FAILED@id');
      expect(refusal({ ...row, id: 'far too long' })).toBe('WK_VALIDATION_FAILED@id');
      expect(refusal({ ...row, many: ['a', null] })).toBe('WK_VALIDATION_FAILED@many.1');
      expect(refusal({ ...row, shape: { z: 1 } })).toBe('WK_VALIDATION_FAILED@shape');
    });

    test('bytes from anywhere end in a value or a WirekitError, never a crash', () => {
      const good = codec.encode(row);
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: good.length - 1 }),
          fc.integer({ min: 0, max: 255 }),
          (at, byte) => {
            const changed = good.slice();
            changed[at] = byte;
            codeAndPathOf(() => codec.decode(changed));
            codeAndPathOf(() => codec.decode(changed.subarray(0, at)));
          },
        ),
        { numRuns: 300 },
      );
    });

    body(codec, compile);
  });
}
