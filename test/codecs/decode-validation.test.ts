/**
 * Decoding by schema refuses values the schema's types cannot hold, in every format and on both
 * paths (compiled and interpreter): an enum string or index that is no member, another value where
 * a literal stands, a 64-bit integer outside its kind or, with `as: 'number'`, past the safe
 * integers, an integer map key outside its kind. The hostile bytes are real: a writer with a wider
 * schema encodes the value, and a reader with the narrower one decodes them.
 *
 * Where a format's wire cannot carry the value at all (the same bits are a valid value of the
 * reader's kind), the case says why, and the test holds the weaker promise every decoder makes: a
 * typed error, or a value that `validate` accepts against the reader's schema.
 */
import { describe, expect, test } from 'vitest';
import { type FormatName, formatNames } from '../../src/codecs/core/codec.js';
import { createCodec } from '../../src/codecs/registry.js';
import { type ErrorCode, isWirekitError, type Schema, t, validate } from '../../src/index.js';

interface Case {
  readonly label: string;
  /** The schema the bytes are written with, and the value written. */
  readonly writer: Schema;
  readonly value: unknown;
  /** The schema they are read with: it cannot hold `value`. */
  readonly reader: Schema;
  /** Formats whose wire cannot carry `value` for `reader`, and why. */
  readonly cannotCarry?: Partial<Record<FormatName, string>>;
  /** The code where it is not WK_DECODE_SCHEMA_MISMATCH. */
  readonly codes?: Partial<Record<FormatName, ErrorCode>>;
}

const Wide = t.enum('Color', ['red', 'green', 'blue']);
const Narrow = t.enum('Color', ['red', 'green']);

/** Fixed-width formats: a 64-bit slot read as the other signedness holds other, valid, bits. */
const sameBits = 'the 8 bytes are a valid value of the other signedness';
/** Protocol Buffers writes int64 zigzag (sint64) and uint64 plain: both are varints. */
const zigzag = 'int64 is a zigzag varint, uint64 a plain one: the varint is a valid value of either';

const cases: readonly Case[] = [
  { label: 'an enum string or index past the members', writer: Wide, value: 'blue', reader: Narrow },
  {
    label: 'an enum member in an array, past the members',
    writer: t.array(Wide),
    value: ['red', 'blue'],
    reader: t.array(Narrow),
  },
  {
    label: 'a nullable enum past the members',
    writer: t.nullable(Wide),
    value: 'blue',
    reader: t.nullable(Narrow),
  },
  {
    label: 'an enum map value past the members',
    writer: t.map(t.string(), Wide),
    value: { a: 'blue' },
    reader: t.map(t.string(), Narrow),
  },
  {
    label: 'another value where a literal field stands',
    writer: t.string(),
    value: 'v2',
    reader: t.literal('v1'),
    cannotCarry: {
      protobuf: 'a literal field is not stored: the string is an unknown field, the literal is filled in',
      flatbuffers: 'a literal field is not stored: the string is an unused slot, the literal is filled in',
      arrow:
        'a literal field is not stored: the string is a column the schema does not name, the literal is filled in',
    },
    // The literal takes no bytes, so the string's bytes are left over.
    codes: { avro: 'WK_DECODE_TRAILING' },
  },
  {
    label: 'another value where an array of literals stands',
    writer: t.array(t.float64()),
    value: [1, 2],
    reader: t.array(t.literal(1)),
  },
  {
    label: 'a negative uint64',
    writer: t.int64(),
    value: -1n,
    reader: t.uint64(),
    cannotCarry: { protobuf: zigzag, flatbuffers: sameBits },
  },
  {
    label: 'a negative uint64 as a number',
    writer: t.int64({ as: 'number' }),
    value: -1,
    reader: t.uint64({ as: 'number' }),
    cannotCarry: { protobuf: zigzag },
  },
  {
    label: 'an int64 past 2^63-1',
    writer: t.uint64(),
    value: 2n ** 64n - 1n,
    reader: t.int64(),
    cannotCarry: {
      protobuf: zigzag,
      avro: 'a long is signed 64-bit: the writer refuses uint64 values past 2^63-1',
      flatbuffers: sameBits,
    },
  },
  {
    label: "an int64 past the safe integers with as: 'number'",
    writer: t.int64(),
    value: 2n ** 60n,
    reader: t.int64({ as: 'number' }),
  },
  {
    label: "a uint64 past the safe integers with as: 'number'",
    writer: t.uint64(),
    value: 2n ** 53n,
    reader: t.uint64({ as: 'number' }),
  },
  {
    label: 'a negative uint8 map key',
    writer: t.map(t.int32(), t.string()),
    value: new Map([[-1, 'a']]),
    reader: t.map(t.uint8(), t.string()),
    cannotCarry: {
      protobuf: 'int32 is a zigzag varint, uint8 a plain one: the varint is a valid uint8',
      flatbuffers: 'a fixed-width key: its low byte is a valid uint8',
    },
  },
  {
    label: 'an int32 map key past 2^31',
    writer: t.map(t.int64(), t.string()),
    value: new Map([[2n ** 40n, 'a']]),
    reader: t.map(t.int32(), t.string()),
    cannotCarry: {
      protobuf: 'Protocol Buffers reads a wider varint into int32 by truncation, as its spec says',
      flatbuffers: 'a fixed-width key: its low 4 bytes are a valid int32',
    },
    // An Avro int is a varint of at most 32 bits: a longer one is malformed for the reader.
    codes: { avro: 'WK_DECODE_MALFORMED' },
  },
  {
    label: 'a uint64 map key below zero',
    writer: t.map(t.int64(), t.string()),
    value: new Map([[-5n, 'a']]),
    reader: t.map(t.uint64(), t.string()),
    cannotCarry: { protobuf: zigzag, flatbuffers: sameBits },
  },
];

/** Each case's value in a field `v` of an object (Arrow: a one-row batch of them). */
const row = (schema: Schema) => t.object('Row', { v: schema });
const wrap = (format: FormatName, value: unknown) => (format === 'arrow' ? [{ v: value }] : { v: value });

type Result = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly code: string };

function decodeHostile(format: FormatName, compile: boolean, c: Case): Result {
  const writer = createCodec(format, { schema: row(c.writer), compile });
  const reader = createCodec(format, { schema: row(c.reader), compile });
  expect(reader.compiled ?? false).toBe(compile);
  const bytes = writer.encode(wrap(format, c.value) as never);
  try {
    return { ok: true, value: reader.decode(bytes) };
  } catch (error) {
    // Anything but a WirekitError (a RangeError, a TypeError) is a crash: fail the test with it.
    if (!isWirekitError(error)) throw error;
    return { ok: false, code: error.code };
  }
}

describe.each(formatNames.map((format) => [format]))('%s decoding', (format) => {
  for (const c of cases) {
    const reason = c.cannotCarry?.[format];
    if (reason === undefined) {
      test(`refuses ${c.label}, compiled and interpreted`, () => {
        const code = c.codes?.[format] ?? 'WK_DECODE_SCHEMA_MISMATCH';
        for (const compile of [true, false])
          expect(decodeHostile(format, compile, c), `compile: ${compile}`).toStrictEqual({ ok: false, code });
      });
    } else {
      test(`${c.label}: the wire cannot carry it (${reason}); a typed error or a valid value`, () => {
        for (const compile of [true, false]) {
          let result: Result;
          try {
            result = decodeHostile(format, compile, c);
          } catch (error) {
            // The writer may refuse the value outright (it cannot carry it): then there are no
            // hostile bytes to read.
            if (isWirekitError(error) && error.code === 'WK_ENCODE_UNSUPPORTED') continue;
            throw error;
          }
          if (!result.ok) continue;
          const rows = format === 'arrow' ? (result.value as unknown[]) : [result.value];
          for (const decoded of rows) expect(validate(row(c.reader), decoded)).toStrictEqual([]);
        }
      });
    }
  }
});
