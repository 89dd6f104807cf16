/**
 * A field that is not there, where the format's default for it breaks the schema's own rule: a
 * string with a minLength, a byte string of a fixed size, an integer or a float whose bounds leave
 * out 0. Protocol Buffers (binary, and ProtoJSON) and FlatBuffers read an absent field as their
 * default ('', empty, 0); JSON, MessagePack and CBOR name every field and refuse its absence. One
 * schema means the same in every format, so every reader refuses it, with the same code, compiled
 * and interpreted. Avro and Arrow cannot express the absence: a record holds every field in order
 * and a column every row. A default the rule accepts still reads as the default.
 */
import { describe, expect, test } from 'vitest';
import { createCodec } from '../../src/codecs/index.js';
import { createProtoJsonCodec } from '../../src/codecs/protobuf/index.js';
import { type Schema, t } from '../../src/schema/index.js';
import { outcome } from '../support/outcome.js';

/** Each value kind whose format default its rule refuses, with what that default is. */
const refusedDefaults: [string, Schema][] = [
  ['a string of at least 1 character', t.string({ minLength: 1 })],
  ['a string matching a pattern', t.string({ pattern: '^[a-z]+$' })],
  ['a byte string of 4 bytes', t.bytes({ size: 4 })],
  ['an int32 from 1', t.int32({ min: 1 })],
  ['a uint8 from 1', t.uint8({ min: 1 })],
  ['an int16 up to -1', t.int16({ max: -1 })],
  ['a float64 from 0.5', t.float64({ min: 0.5 })],
];

const utf8 = (text: string) => new TextEncoder().encode(text);

/** An object of one field `f`, and the bytes each format reads as that object with `f` absent. */
function absentIn(value: Schema) {
  const schema = t.object('R', { f: value });
  // FlatBuffers: a table without the field, as a writer of the same table with `f` optional leaves it.
  const flatbuffers = createCodec('flatbuffers', { schema: t.object('R', { f: t.optional(value) }) }).encode(
    {},
  );
  return {
    schema,
    readers: [
      ['protobuf', new Uint8Array(0)],
      ['json', utf8('{}')],
      ['msgpack', new Uint8Array([0x80])],
      ['cbor', new Uint8Array([0xa0])],
      ['flatbuffers', flatbuffers],
    ] as const,
  };
}

describe.each(refusedDefaults)('absent: %s', (_, value) => {
  const { schema, readers } = absentIn(value);

  test.each(readers)('%s refuses it, compiled and interpreted', (format, bytes) => {
    for (const compile of [true, false]) {
      const result = outcome(() => createCodec(format, { schema, compile }).decode(bytes));
      expect(result, `${format}, compile: ${compile}`).toMatchObject({
        ok: false,
        code: 'WK_DECODE_SCHEMA_MISMATCH',
      });
    }
  });

  test('ProtoJSON refuses it, left out and as null (which reads as the default)', () => {
    const codec = createProtoJsonCodec({ schema });
    for (const text of ['{}', '{"f":null}']) {
      expect(outcome(() => codec.decode(utf8(text)))).toMatchObject({
        ok: false,
        code: 'WK_DECODE_SCHEMA_MISMATCH',
        path: ['f'],
      });
    }
  });

  test('Protocol Buffers refuses it inside a map entry without its value, and inside an absent message', () => {
    const Holder = t.object('Holder', {
      m: t.map(t.string(), value),
      inner: t.object('Inner', { f: value }),
    });
    for (const compile of [true, false]) {
      const codec = createCodec('protobuf', { schema: Holder, compile });
      // m: one entry, key "k", no value.
      const entry = new Uint8Array([0x0a, 0x03, 0x0a, 0x01, 0x6b]);
      expect(outcome(() => codec.decode(entry))).toMatchObject({
        ok: false,
        code: 'WK_DECODE_SCHEMA_MISMATCH',
      });
      expect(outcome(() => codec.decode(new Uint8Array(0)))).toMatchObject({
        ok: false,
        code: 'WK_DECODE_SCHEMA_MISMATCH',
      });
    }
  });
});

describe('defaults the rule accepts still read as the default', () => {
  const accepted: [string, Schema, unknown][] = [
    ['a string of at most 3 characters', t.string({ maxLength: 3 }), ''],
    ['a decimal of precision 4 and scale 2', t.decimal({ precision: 4, scale: 2 }), '0'],
    ['an int32 from -5 to 5', t.int32({ min: -5, max: 5 }), 0],
    ['a byte string of at most 2 bytes', t.bytes({ maxLength: 2 }), new Uint8Array(0)],
  ];
  test.each(accepted)('%s', (_, value, expected) => {
    const schema = t.object('R', { f: value });
    for (const compile of [true, false]) {
      expect(createCodec('protobuf', { schema, compile }).decode(new Uint8Array(0))).toStrictEqual({
        f: expected,
      });
    }
    expect(createProtoJsonCodec({ schema }).decode(utf8('{}'))).toStrictEqual({ f: expected });
  });
});
