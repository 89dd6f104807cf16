import { describe, expect, test } from 'vitest';
import { createCborCodec } from '../../../src/codecs/cbor/index.js';
import { createMsgpackCodec } from '../../../src/codecs/msgpack/index.js';
import { type Schema, t } from '../../../src/schema/index.js';
import { keyedRow, keyedRowFields } from '../../fixtures/either-rows.js';
import { codeAndPathOf } from '../../support/code-of.js';
import { eachCodecMode } from '../../support/either-codec.js';

const Row = t.object('Row', {
  ...keyedRowFields,
  maybe: t.optional(t.either([t.bool(), t.string()])),
  none: t.nullable(t.either([t.bool(), t.string()])),
});

const row = {
  ...keyedRow,
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

const formats = [
  [
    'msgpack',
    (schema: Schema | undefined, compile = true) => createMsgpackCodec<unknown>({ schema, compile }),
  ],
  ['cbor', (schema: Schema | undefined, compile = true) => createCborCodec<unknown>({ schema, compile })],
] as const;

describe.each(formats)('%s carries t.either', (_name, make) => {
  const plain = make(undefined);
  eachCodecMode(
    'the shared either tests and',
    (compile) => make(Row, compile),
    [row, other],
    (codec, compile) => {
      test('the bytes are the value as itself: no tag, the schemaless bytes of the same value', () => {
        // The schemaless writer writes a float64 that holds an integer as an integer; keep to fractions.
        const value = { ...other, shape: { x: 1.5, y: 2.5 } };
        expect(codec.encode(value)).toEqual(plain.encode(value));
        const back = plain.decode(codec.encode(row)) as Record<string, unknown>;
        expect(back.id).toBe('ab12');
        expect(back.shape).toEqual({ r: 2, label: 'o' });
      });

      test('the reader picks the branch by the wire type, and refuses an item of no branch', () => {
        const base = plain.decode(codec.encode(row)) as Record<string, unknown>;
        const decode = (key: string, value: unknown) => codec.decode(plain.encode({ ...base, [key]: value }));
        expect((decode('id', 42) as { id: unknown }).id).toBe(42);
        expect((decode('big', 12) as { big: unknown }).big).toBe(12n);
        expect((decode('shape', { y: 1, x: 2 }) as { shape: unknown }).shape).toEqual({ x: 2, y: 1 });
        expect(codeAndPathOf(() => decode('id', null))).toBe('WK_DECODE_SCHEMA_MISMATCH@id');
        expect(codeAndPathOf(() => decode('id', 1.5))).toBe('WK_DECODE_SCHEMA_MISMATCH@id');
        expect(codeAndPathOf(() => decode('id', [1]))).toBe('WK_DECODE_SCHEMA_MISMATCH@id');
        expect(codeAndPathOf(() => decode('blob', 'text'))).toBe('WK_DECODE_SCHEMA_MISMATCH@blob');
        expect(codeAndPathOf(() => decode('shape', { q: 1 }))).toBe('WK_DECODE_SCHEMA_MISMATCH@shape');
        expect(codeAndPathOf(() => decode('shape', { x: 1 }))).toBe('WK_DECODE_SCHEMA_MISMATCH@shape');
        expect(codeAndPathOf(() => decode('many', [new Uint8Array(1)]))).toBe(
          'WK_DECODE_SCHEMA_MISMATCH@many.0',
        );
      });

      test('NaN beside a text branch is refused both ways, as validate() refuses it', () => {
        const loose = make(t.object('Loose', { v: t.either([t.string(), t.float64()]) }), compile);
        expect(codeAndPathOf(() => loose.encode({ v: Number.NaN }))).toBe('WK_VALIDATION_FAILED@v');
        expect(codeAndPathOf(() => loose.decode(plain.encode({ v: Number.NaN })))).toBe(
          'WK_DECODE_SCHEMA_MISMATCH@v',
        );
        const floats = make(t.object('Floats', { v: t.either([t.float64(), t.bool()]) }), compile);
        expect(floats.decode(floats.encode({ v: Number.NaN }))).toEqual({ v: Number.NaN });
      });

      test('the root may be an either, and an either may hold a list of eithers', () => {
        const root = make(t.either([t.string(), t.array(t.either([t.float64(), t.bool()]))]), compile);
        expect(root.decode(root.encode('x'))).toBe('x');
        expect(root.decode(root.encode([1.5, true]))).toEqual([1.5, true]);
        expect(codeAndPathOf(() => root.decode(plain.encode({ a: 1 })))).toBe('WK_DECODE_SCHEMA_MISMATCH@');
      });
    },
  );

  test('the generated and the interpreted codecs write the same bytes', () => {
    for (const value of [row, other])
      expect(make(Row, true).encode(value)).toEqual(make(Row, false).encode(value));
  });
});
