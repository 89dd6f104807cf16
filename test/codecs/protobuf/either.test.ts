import { expect, test } from 'vitest';
import { createProtobufCodec } from '../../../src/codecs/protobuf/index.js';
import { toProto } from '../../../src/schema/export/proto.js';
import { type Schema, t } from '../../../src/schema/index.js';
import { keyedRow, keyedRowFields } from '../../fixtures/either-rows.js';
import { codeAndPathOf } from '../../support/code-of.js';
import { eachCodecMode } from '../../support/either-codec.js';

const Row = t.object('Row', {
  ...keyedRowFields,
  byKey: t.map(t.string(), t.either([t.literal('auto'), t.int32()])),
  maybe: t.optional(t.either([t.bool(), t.string()])),
  none: t.nullable(t.either([t.bool(), t.string()])),
});

const row = {
  ...keyedRow,
  byKey: { a: 'auto', b: 0 },
  none: null,
};
const other = {
  id: 0,
  big: false,
  when: -0.5,
  blob: [9, 0],
  shape: { x: 1, y: 2 },
  many: [],
  byKey: {},
  maybe: '',
  none: true,
};

const bytes = (...values: number[]) => new Uint8Array(values);

eachCodecMode(
  'Protocol Buffers carries t.either',
  (compile) => createProtobufCodec<unknown>({ schema: Row, compile }),
  [row, other],
  (codec, compile) => {
    test("a branch holding proto3's default is still written: a oneof member has presence", () => {
      const Id = t.object('Id', { id: t.either([t.string(), t.uint32()]) });
      const ids = createProtobufCodec<unknown>({ schema: Id, compile });
      // id = 1 (LEN) holding the oneof's field 2 (varint) = 0, and field 1 (LEN) = "".
      expect(ids.encode({ id: 0 })).toEqual(bytes(0x0a, 0x02, 0x10, 0x00));
      expect(ids.encode({ id: '' })).toEqual(bytes(0x0a, 0x02, 0x0a, 0x00));
      expect(ids.decode(bytes(0x0a, 0x02, 0x10, 0x00))).toEqual({ id: 0 });
    });

    test('a message with no branch set, or no message, is refused; the last branch on the wire wins', () => {
      const Id = t.object('Id', { id: t.either([t.string(), t.uint32()]) });
      const ids = createProtobufCodec<unknown>({ schema: Id, compile });
      expect(codeAndPathOf(() => ids.decode(bytes(0x0a, 0x00)))).toBe('WK_DECODE_SCHEMA_MISMATCH@');
      expect(codeAndPathOf(() => ids.decode(bytes()))).toBe('WK_DECODE_SCHEMA_MISMATCH@');
      // Only an unknown field (3) inside: still no branch.
      expect(codeAndPathOf(() => ids.decode(bytes(0x0a, 0x02, 0x18, 0x01)))).toBe(
        'WK_DECODE_SCHEMA_MISMATCH@',
      );
      expect(ids.decode(bytes(0x0a, 0x05, 0x0a, 0x01, 0x61, 0x10, 0x07))).toEqual({ id: 7 });
      // Two occurrences of the field merge as messages do: the later branch replaces the earlier.
      expect(ids.decode(bytes(0x0a, 0x02, 0x10, 0x07, 0x0a, 0x03, 0x0a, 0x01, 0x62))).toEqual({ id: 'b' });
    });

    test('a map value of no branch is refused at its key', () => {
      expect(codeAndPathOf(() => codec.encode({ ...row, byKey: { a: 'manual' } }))).toBe(
        'WK_VALIDATION_FAILED@byKey.a',
      );
    });

    test('NaN beside a text branch is refused both ways; without one it travels', () => {
      const Loose = t.object('Loose', { v: t.either([t.string(), t.float64()]) });
      const loose = createProtobufCodec<unknown>({ schema: Loose, compile });
      expect(codeAndPathOf(() => loose.encode({ v: Number.NaN }))).toBe('WK_VALIDATION_FAILED@v');
      // v { float64_value (2, fixed64) = NaN }
      const nan = bytes(0x0a, 0x09, 0x11, 0, 0, 0, 0, 0, 0, 0xf8, 0x7f);
      expect(codeAndPathOf(() => loose.decode(nan))).toBe('WK_DECODE_SCHEMA_MISMATCH@');
      const Floats = t.object('Floats', { v: t.either([t.float64(), t.bool()]) });
      const floats = createProtobufCodec<unknown>({ schema: Floats, compile });
      expect(floats.decode(floats.encode({ v: Number.NaN }))).toEqual({ v: Number.NaN });
    });
  },
);

test('the root may be an either; its message sits in the root wrapper', () => {
  const schema: Schema = t.either([t.string(), t.array(t.either([t.float64(), t.bool()]))]);
  const codec = createProtobufCodec<unknown>({ schema });
  expect(codec.decode(codec.encode('x'))).toBe('x');
  expect(codec.decode(codec.encode([1.5, true]))).toEqual([1.5, true]);
  expect(codec.decode(codec.encode([]))).toEqual([]);
  expect(toProto(schema)).toContain('message Root {\n  Root_Value_Either value = 1;\n}');
});

test('toProto: one message per either, named after its field, its branches numbered in order', () => {
  const text = toProto(Row);
  expect(text).toContain('  Row_Id_Either id = 1;\n');
  expect(text).toContain('  repeated Row_Many_Either many = 6;\n');
  expect(text).toContain('  map<string, Row_ByKey_Either> byKey = 7;\n');
  expect(text).toContain('  optional Row_Maybe_Either maybe = 8;\n');
  expect(text).toContain(
    'message Row_Id_Either {\n  oneof value {\n    string string_value = 1;\n    uint32 uint32_value = 2;\n  }\n}',
  );
  expect(text).toContain(
    '  oneof value {\n    bytes bytes_value = 1;\n    Row_Blob_Either_List array_value = 2;\n  }',
  );
  expect(text).toContain('message Row_Blob_Either_List {\n  repeated uint32 items = 1;\n}');
  expect(text).toContain('    Point point = 1;\n    Circle circle = 2;\n    string decimal_value = 3;\n');
  expect(text).toContain('    string literal_value = 1; // always "auto"\n    sint32 int32_value = 2;\n');
  // A generated name another type has taken moves aside; a branch named like the oneof too.
  const Value = t.object('Value', { a: t.int32() });
  const Clash = t.object('Row_Id_Either', { a: t.int32() });
  const taken = toProto(t.object('Row', { id: t.either([Value, t.string()]), clash: Clash }));
  expect(taken).toContain('message Row_Id_Either {\n  sint32 a = 1;');
  expect(taken).toContain('  Row_Id_Either2 id = 1;\n');
  expect(taken).toContain('message Row_Id_Either2 {\n  oneof value {\n    Value value_2 = 1;');
});
