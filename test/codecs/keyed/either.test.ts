/**
 * MessagePack and CBOR carry t.either as the value itself: the writer writes the branch the value's
 * class (and an object's keys) choose, the reader the branch the wire type it meets names, generated
 * and interpreted alike. The Python peers are in either-python.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createCborCodec } from '../../../src/codecs/cbor/index.js';
import type { Codec } from '../../../src/codecs/core/codec.js';
import { createMsgpackCodec } from '../../../src/codecs/msgpack/index.js';
import { isWirekitError } from '../../../src/errors/index.js';
import { type Schema, t } from '../../../src/schema/index.js';

const Point = t.object('Point', { x: t.float64(), y: t.float64() });
const Circle = t.object('Circle', { r: t.float64(), label: t.optional(t.string()) });
const Row = t.object('Row', {
  id: t.either([t.string({ maxLength: 8 }), t.uint32()]),
  big: t.either([t.int64(), t.bool()]),
  when: t.either([t.timestamp(), t.float64()]),
  blob: t.either([t.bytes(), t.array(t.uint8())]),
  shape: t.either([Point, Circle, t.decimal()]),
  many: t.array(t.either([t.string(), t.float64(), t.map(t.string(), t.bool())])),
  maybe: t.optional(t.either([t.bool(), t.string()])),
  none: t.nullable(t.either([t.bool(), t.string()])),
});

const row = {
  id: 'ab12',
  big: 9_007_199_254_740_993n,
  when: new Date(Date.UTC(2024, 1, 29, 12, 0, 0, 5)),
  blob: new Uint8Array([1, 2, 3]),
  shape: { r: 2, label: 'o' },
  many: ['a', 1.5, { on: true }],
  none: null,
};
const other = {
  id: 7,
  big: false,
  when: -0.5,
  blob: [9],
  shape: { x: 1, y: 2 },
  many: [],
  maybe: 'yes',
  none: true,
};

/** The code and path of the WirekitError `body` throws; a crash fails the test. */
function failure(body: () => unknown): string {
  try {
    body();
  } catch (error) {
    if (isWirekitError(error)) return `${error.code}@${(error.path ?? []).join('.')}`;
    throw error;
  }
  return 'no error';
}

const formats = [
  [
    'msgpack',
    (schema: Schema | undefined, compile = true) => createMsgpackCodec<unknown>({ schema, compile }),
  ],
  ['cbor', (schema: Schema | undefined, compile = true) => createCborCodec<unknown>({ schema, compile })],
] as const;

describe.each(formats)('%s carries t.either', (_name, make) => {
  const plain = make(undefined);
  describe.each([true, false])('compile: %s', (compile) => {
    const codec: Codec<unknown> = make(Row, compile);

    test('every branch round-trips as itself', () => {
      expect(codec.compiled).toBe(compile);
      expect(codec.decode(codec.encode(row))).toEqual(row);
      expect(codec.decode(codec.encode(other))).toEqual(other);
      expect(codec.decode(codec.encode({ ...row, shape: '12.50' }))).toEqual({ ...row, shape: '12.50' });
    });

    test('the bytes are the value as itself: no tag, the schemaless bytes of the same value', () => {
      // The schemaless writer writes a float64 that holds an integer as an integer; keep to fractions.
      const value = { ...other, shape: { x: 1.5, y: 2.5 } };
      expect(codec.encode(value)).toEqual(plain.encode(value));
      const back = plain.decode(codec.encode(row)) as Record<string, unknown>;
      expect(back.id).toBe('ab12');
      expect(back.shape).toEqual({ r: 2, label: 'o' });
    });

    test('a value of no branch, or breaking its branch, is refused at its path', () => {
      expect(failure(() => codec.encode({ ...row, id: true }))).toBe('WK_VALIDATION_FAILED@id');
      expect(failure(() => codec.encode({ ...row, id: 'far too long' }))).toBe('WK_VALIDATION_FAILED@id');
      expect(failure(() => codec.encode({ ...row, many: ['a', null] }))).toBe('WK_VALIDATION_FAILED@many.1');
      expect(failure(() => codec.encode({ ...row, shape: { z: 1 } }))).toBe('WK_VALIDATION_FAILED@shape');
    });

    test('the reader picks the branch by the wire type, and refuses an item of no branch', () => {
      const base = plain.decode(codec.encode(row)) as Record<string, unknown>;
      const decode = (key: string, value: unknown) => codec.decode(plain.encode({ ...base, [key]: value }));
      expect((decode('id', 42) as { id: unknown }).id).toBe(42);
      expect((decode('big', 12) as { big: unknown }).big).toBe(12n);
      expect((decode('shape', { y: 1, x: 2 }) as { shape: unknown }).shape).toEqual({ x: 2, y: 1 });
      expect(failure(() => decode('id', null))).toBe('WK_DECODE_SCHEMA_MISMATCH@id');
      expect(failure(() => decode('id', 1.5))).toBe('WK_DECODE_SCHEMA_MISMATCH@id');
      expect(failure(() => decode('id', [1]))).toBe('WK_DECODE_SCHEMA_MISMATCH@id');
      expect(failure(() => decode('blob', 'text'))).toBe('WK_DECODE_SCHEMA_MISMATCH@blob');
      expect(failure(() => decode('shape', { q: 1 }))).toBe('WK_DECODE_SCHEMA_MISMATCH@shape');
      expect(failure(() => decode('shape', { x: 1 }))).toBe('WK_DECODE_SCHEMA_MISMATCH@shape');
      expect(failure(() => decode('many', [new Uint8Array(1)]))).toBe('WK_DECODE_SCHEMA_MISMATCH@many.0');
    });

    test('NaN beside a text branch is refused both ways, as validate() refuses it', () => {
      const loose = make(t.object('Loose', { v: t.either([t.string(), t.float64()]) }), compile);
      expect(failure(() => loose.encode({ v: Number.NaN }))).toBe('WK_VALIDATION_FAILED@v');
      expect(failure(() => loose.decode(plain.encode({ v: Number.NaN })))).toBe(
        'WK_DECODE_SCHEMA_MISMATCH@v',
      );
      const floats = make(t.object('Floats', { v: t.either([t.float64(), t.bool()]) }), compile);
      expect(floats.decode(floats.encode({ v: Number.NaN }))).toEqual({ v: Number.NaN });
    });

    test('the root may be an either, and an either may hold a list of eithers', () => {
      const root = make(t.either([t.string(), t.array(t.either([t.float64(), t.bool()]))]), compile);
      expect(root.decode(root.encode('x'))).toBe('x');
      expect(root.decode(root.encode([1.5, true]))).toEqual([1.5, true]);
      expect(failure(() => root.decode(plain.encode({ a: 1 })))).toBe('WK_DECODE_SCHEMA_MISMATCH@');
    });

    test('bytes from anywhere end in a value or a WirekitError, never a crash', () => {
      const good = codec.encode(row);
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: good.length - 1 }),
          fc.integer({ min: 0, max: 255 }),
          (at, byte) => {
            const bytes = good.slice();
            bytes[at] = byte;
            failure(() => codec.decode(bytes));
            failure(() => codec.decode(bytes.subarray(0, at)));
          },
        ),
        { numRuns: 300 },
      );
    });
  });

  test('the generated and the interpreted codecs write the same bytes', () => {
    for (const value of [row, other])
      expect(make(Row, true).encode(value)).toEqual(make(Row, false).encode(value));
  });
});
