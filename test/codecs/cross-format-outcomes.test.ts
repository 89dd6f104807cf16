/**
 * One schema, one meaning, in every format (docs/values.md). The same good and bad values, kind by
 * kind, go to `validate` and to all seven encoders, compiled and interpreted, and every one must give
 * the same outcome: accepted, with the same value read back after a round trip, or refused with the
 * same code at the same path. With `validate: true` every encoder refuses with `validate`'s own
 * issues. Where a wire can carry a value the reader's schema refuses (a writer with a wider schema,
 * or hand-built bytes), every decoder that can be sent it refuses it alike. A key the reader's
 * schema does not name, under each `unknownKeys` value, has its own family beside this file
 * (cross-format-unknown-keys.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type Codec, type FormatName, formatNames } from '../../src/codecs/core/codec.js';
import { createCodec } from '../../src/codecs/registry.js';
import {
  type ErrorCode,
  type IssueCode,
  isWirekitError,
  type Path,
  type Schema,
  t,
  ValidationError,
  validate,
} from '../../src/index.js';

/** What every path must do with a case's value. */
type Expected =
  /** Accepted; `back` is the value read back where it is not the value itself (the same in every format). */
  | { readonly accept: true; readonly back?: unknown }
  /**
   * Refused: `validate` reports `issue` first, at `at` (below the row's field `v`), and every encoder
   * refuses with `code` (WK_VALIDATION_FAILED unless said) at the same path. `at: 'anywhere'` for a
   * value too deep to write, whose path is where each format's count of levels runs out.
   */
  | { readonly refuse: IssueCode; readonly at?: Path | 'anywhere'; readonly code?: ErrorCode }
  /**
   * Accepted by `validate` (the schema allows it) but carried by no wirekit format: every encoder
   * refuses it with WK_ENCODE_UNSUPPORTED at `unsupported`, since no wirekit decoder would read it back.
   */
  | { readonly unsupported: Path; readonly why: string };

interface Case {
  readonly label: string;
  readonly schema: Schema;
  readonly value: unknown;
  readonly expect: Expected;
  /** Formats that read an accepted value back in another spelling, and why (docs/survival.md). */
  readonly readsAs?: Partial<Record<FormatName, unknown>>;
  /**
   * Formats that cannot carry this valid value, and why: they refuse it with WK_ENCODE_UNSUPPORTED
   * at `v` (the value is not invalid, so not WK_VALIDATION_FAILED), and only they.
   */
  readonly unsupportedIn?: Partial<Record<FormatName, string>>;
  /** Formats that cannot take the schema at all, and why: the case does not apply to them. */
  readonly notFor?: Partial<Record<FormatName, string>>;
  /** The value has keys its object schema lacks: `validate` reports them, encoders drop them. */
  readonly unknownKeys?: boolean;
}

const accept = (back?: unknown): Expected => (back === undefined ? { accept: true } : { accept: true, back });
const refuse = (issue: IssueCode, at: Path | 'anywhere' = [], code?: ErrorCode): Expected =>
  code === undefined ? { refuse: issue, at } : { refuse: issue, at, code };

/** Avro and Arrow store a decimal with precision and scale as its scaled integer: it reads back with `scale` digits. */
const scaled = (text: string): Partial<Record<FormatName, unknown>> => ({ avro: text, arrow: text });

const Color = t.enum('Color', ['red', 'green']);
const Point = t.object('Point', { a: t.int32(), b: t.optional(t.string()) });
const Inherited = t.object('Inherited', { valueOf: t.optional(t.int32()), toString: t.int32() });
const Circle = t.object('Circle', { kind: t.literal('circle'), r: t.float64() });
const Rect = t.object('Rect', { kind: t.literal('rect'), w: t.float64() });
const Shape = t.union('Shape', 'kind', [Circle, Rect]);
interface Tree {
  n: number;
  kids: Tree[];
}
const Tree: Schema = t.object('Tree', { n: t.int32(), kids: t.array(t.lazy(() => Tree)) });
const noRecursion = { arrow: 'Arrow has no recursive types (WK_EXPORT_UNSUPPORTED when the codec is made)' };

const Id = t.either([t.string({ maxLength: 4 }), t.uint16(), t.bool()]);
const Place = t.either([
  t.object('Spot', { lat: t.float64(), lon: t.float64() }),
  t.object('Named', { name: t.string(), near: t.optional(t.string()) }),
]);

/** An integer branch beside a float branch, and text. */
const Reading = t.either([t.int16(), t.float64(), t.string()]);

const money = t.decimal({ precision: 5, scale: 2 });
const percent = t.int32({ min: 0, max: 100 });
const large = t.uint32({ min: 3e9 });
const ratio = t.float64({ min: 0, max: 1 });
/** `exclusiveMinimum: 0` as the JSON Schema importer writes it: the least positive double. */
const positive = t.float64({ min: Number.MIN_VALUE });
const half = t.float32({ max: 0.5 });
const word = t.string({ minLength: 2, maxLength: 3, pattern: '^[a-z]+$' });
const cyclic: Tree = { n: 1, kids: [] };
cyclic.kids.push(cyclic);

class Held {
  a = 1;
}

const cases: readonly Case[] = [
  // bool
  { label: 'bool true', schema: t.bool(), value: true, expect: accept() },
  { label: 'bool given 1', schema: t.bool(), value: 1, expect: refuse('expected_type') },
  { label: 'bool given "true"', schema: t.bool(), value: 'true', expect: refuse('expected_type') },
  // 32-bit and smaller integers
  { label: 'int8 127', schema: t.int8(), value: 127, expect: accept() },
  { label: 'int8 -128', schema: t.int8(), value: -128, expect: accept() },
  { label: 'int8 128', schema: t.int8(), value: 128, expect: refuse('out_of_range') },
  { label: 'int8 1.5', schema: t.int8(), value: 1.5, expect: refuse('not_integer') },
  { label: 'int8 NaN', schema: t.int8(), value: Number.NaN, expect: refuse('not_integer') },
  { label: 'int8 -0', schema: t.int8(), value: -0, expect: accept(0) },
  { label: 'int8 given "5"', schema: t.int8(), value: '5', expect: refuse('expected_type') },
  { label: 'int8 given 5n', schema: t.int8(), value: 5n, expect: refuse('expected_type') },
  { label: 'int32 0..100, 100', schema: percent, value: 100, expect: accept() },
  { label: 'int32 0..100, 0', schema: percent, value: 0, expect: accept() },
  { label: 'int32 0..100, 101', schema: percent, value: 101, expect: refuse('out_of_range') },
  { label: 'int32 0..100, -1', schema: percent, value: -1, expect: refuse('out_of_range') },
  { label: 'uint32 from 3e9, 3e9', schema: large, value: 3e9, expect: accept() },
  { label: 'uint32 from 3e9, 2e9', schema: large, value: 2e9, expect: refuse('out_of_range') },
  { label: 'int8 from 1, 0', schema: t.int8({ min: 1 }), value: 0, expect: refuse('out_of_range') },
  { label: 'uint8 255', schema: t.uint8(), value: 255, expect: accept() },
  { label: 'uint8 -1', schema: t.uint8(), value: -1, expect: refuse('out_of_range') },
  { label: 'int16 -32768', schema: t.int16(), value: -32_768, expect: accept() },
  { label: 'uint16 65536', schema: t.uint16(), value: 65_536, expect: refuse('out_of_range') },
  { label: 'int32 2^31-1', schema: t.int32(), value: 2 ** 31 - 1, expect: accept() },
  { label: 'int32 2^31', schema: t.int32(), value: 2 ** 31, expect: refuse('out_of_range') },
  { label: 'uint32 2^32-1', schema: t.uint32(), value: 2 ** 32 - 1, expect: accept() },
  { label: 'uint32 2^32', schema: t.uint32(), value: 2 ** 32, expect: refuse('out_of_range') },
  // 64-bit integers, as bigint (the default) and as number
  { label: 'int64 2^63-1', schema: t.int64(), value: 2n ** 63n - 1n, expect: accept() },
  { label: 'int64 -2^63', schema: t.int64(), value: -(2n ** 63n), expect: accept() },
  { label: 'int64 2^63', schema: t.int64(), value: 2n ** 63n, expect: refuse('out_of_range') },
  { label: 'int64 given the number 5', schema: t.int64(), value: 5, expect: refuse('expected_type') },
  { label: 'int64 given "5"', schema: t.int64(), value: '5', expect: refuse('expected_type') },
  {
    label: 'uint64 2^64-1',
    schema: t.uint64(),
    value: 2n ** 64n - 1n,
    expect: accept(),
    unsupportedIn: { avro: 'Avro’s only 64-bit integer is a signed long' },
  },
  { label: 'uint64 -1n', schema: t.uint64(), value: -1n, expect: refuse('out_of_range') },
  { label: 'uint64 2^64', schema: t.uint64(), value: 2n ** 64n, expect: refuse('out_of_range') },
  {
    label: "int64 as: 'number' 2^53-1",
    schema: t.int64({ as: 'number' }),
    value: 2 ** 53 - 1,
    expect: accept(),
  },
  {
    label: "int64 as: 'number' 2^53",
    schema: t.int64({ as: 'number' }),
    value: 2 ** 53,
    expect: refuse('out_of_range'),
  },
  {
    label: "int64 as: 'number' 1.5",
    schema: t.int64({ as: 'number' }),
    value: 1.5,
    expect: refuse('not_integer'),
  },
  {
    label: "int64 as: 'number' given 5n",
    schema: t.int64({ as: 'number' }),
    value: 5n,
    expect: refuse('expected_type'),
  },
  {
    label: "uint64 as: 'number' -1",
    schema: t.uint64({ as: 'number' }),
    value: -1,
    expect: refuse('out_of_range'),
  },
  // floats
  { label: 'float64 NaN', schema: t.float64(), value: Number.NaN, expect: accept() },
  { label: 'float64 -0', schema: t.float64(), value: -0, expect: accept() },
  { label: 'float64 -Infinity', schema: t.float64(), value: -Infinity, expect: accept() },
  { label: 'float64 given 1n', schema: t.float64(), value: 1n, expect: refuse('expected_type') },
  { label: 'float64 0..1, 1', schema: ratio, value: 1, expect: accept() },
  { label: 'float64 0..1, 0', schema: ratio, value: 0, expect: accept() },
  { label: 'float64 0..1, 0.5', schema: ratio, value: 0.5, expect: accept() },
  {
    label: 'float64 0..1, next double past 1',
    schema: ratio,
    value: 1 + Number.EPSILON,
    expect: refuse('out_of_range'),
  },
  { label: 'float64 0..1, -5e-324', schema: ratio, value: -Number.MIN_VALUE, expect: refuse('out_of_range') },
  { label: 'float64 0..1, NaN', schema: ratio, value: Number.NaN, expect: refuse('out_of_range') },
  { label: 'float64 0..1, Infinity', schema: ratio, value: Infinity, expect: refuse('out_of_range') },
  { label: 'float64 above 0, 5e-324', schema: positive, value: Number.MIN_VALUE, expect: accept() },
  { label: 'float64 above 0, 0', schema: positive, value: 0, expect: refuse('out_of_range') },
  { label: 'float32 to 0.5, 0.5', schema: half, value: 0.5, expect: accept() },
  { label: 'float32 to 0.5, -1e30', schema: half, value: -1e30, expect: accept(Math.fround(-1e30)) },
  { label: 'float32 to 0.5, 0.5000001', schema: half, value: 0.5000001, expect: refuse('out_of_range') },
  { label: 'float32 to 0.5, NaN', schema: half, value: Number.NaN, expect: refuse('out_of_range') },
  { label: 'float32 1.1', schema: t.float32(), value: 1.1, expect: accept(Math.fround(1.1)) },
  { label: 'float32 Infinity', schema: t.float32(), value: Infinity, expect: accept() },
  { label: 'float32 1e39', schema: t.float32(), value: 1e39, expect: refuse('out_of_range') },
  { label: 'float32 given "1"', schema: t.float32(), value: '1', expect: refuse('expected_type') },
  // decimals
  { label: 'decimal(5,2) "123.45"', schema: money, value: '123.45', expect: accept() },
  {
    label: 'decimal(5,2) "1.5"',
    schema: money,
    value: '1.5',
    expect: accept(),
    readsAs: scaled('1.50'),
  },
  { label: 'decimal(5,2) "-0"', schema: money, value: '-0', expect: accept(), readsAs: scaled('0.00') },
  { label: 'decimal(5,2) "19.999"', schema: money, value: '19.999', expect: refuse('precision_loss') },
  { label: 'decimal(5,2) "1234.5"', schema: money, value: '1234.5', expect: refuse('out_of_range') },
  { label: 'decimal(5,2) "1e3"', schema: money, value: '1e3', expect: refuse('invalid_decimal') },
  { label: 'decimal(5,2) "+1"', schema: money, value: '+1', expect: refuse('invalid_decimal') },
  { label: 'decimal(5,2) "01.5"', schema: money, value: '01.5', expect: refuse('invalid_decimal') },
  { label: 'decimal(5,2) given 1.5', schema: money, value: 1.5, expect: refuse('expected_type') },
  {
    label: 'decimal() 31 digits',
    schema: t.decimal(),
    value: '-12345678901234567890.12345678901',
    expect: accept(),
  },
  { label: 'decimal() "1."', schema: t.decimal(), value: '1.', expect: refuse('invalid_decimal') },
  {
    label: 'decimal(scale 2) "1.234"',
    schema: t.decimal({ scale: 2 }),
    value: '1.234',
    expect: refuse('precision_loss'),
  },
  {
    label: 'decimal(precision 3) "1234"',
    schema: t.decimal({ precision: 3 }),
    value: '1234',
    expect: refuse('out_of_range'),
  },
  // strings
  { label: 'string "ab" in 2..3 of [a-z]', schema: word, value: 'ab', expect: accept() },
  { label: 'string "abcd" past maxLength 3', schema: word, value: 'abcd', expect: refuse('too_long') },
  { label: 'string "a" below minLength 2', schema: word, value: 'a', expect: refuse('too_short') },
  { label: 'string "AB" against ^[a-z]+$', schema: word, value: 'AB', expect: refuse('pattern_mismatch') },
  {
    label: 'string of 2 astral characters, maxLength 2 (code points)',
    schema: t.string({ maxLength: 2 }),
    value: '😀😀',
    expect: accept(),
  },
  {
    label: 'string of 3 astral characters, maxLength 2',
    schema: t.string({ maxLength: 2 }),
    value: '😀😀😀',
    expect: refuse('too_long'),
  },
  {
    label: 'string empty, minLength 1',
    schema: t.string({ minLength: 1 }),
    value: '',
    expect: refuse('too_short'),
  },
  {
    label: 'string with a lone surrogate',
    schema: t.string(),
    value: 'a\ud800b',
    expect: refuse('not_well_formed', [], 'WK_ENCODE_UNSUPPORTED'),
  },
  { label: 'string given 5', schema: t.string(), value: 5, expect: refuse('expected_type') },
  // bytes
  {
    label: 'bytes of 2, maxLength 2',
    schema: t.bytes({ maxLength: 2 }),
    value: Uint8Array.of(1, 2),
    expect: accept(),
  },
  {
    label: 'bytes of 3, maxLength 2',
    schema: t.bytes({ maxLength: 2 }),
    value: Uint8Array.of(1, 2, 3),
    expect: refuse('too_long'),
  },
  {
    label: 'bytes of 4, size 4 (an Avro fixed)',
    schema: t.bytes({ size: 4, avro: { name: 'Quad' } }),
    value: Uint8Array.of(1, 2, 3, 4),
    expect: accept(),
  },
  {
    label: 'bytes of 3, size 4',
    schema: t.bytes({ size: 4 }),
    value: Uint8Array.of(1, 2, 3),
    expect: refuse('too_short'),
  },
  {
    label: 'bytes of 5, size 4',
    schema: t.bytes({ size: 4 }),
    value: Uint8Array.of(1, 2, 3, 4, 5),
    expect: refuse('too_long'),
  },
  {
    label: 'decimal in an Avro fixed of 3 bytes',
    schema: t.decimal({ precision: 6, scale: 2, avro: { name: 'Money', size: 3 } }),
    value: '-9999.99',
    expect: accept(),
    readsAs: scaled('-9999.99'),
  },
  {
    label: 'bytes as a Buffer',
    schema: t.bytes(),
    value: Buffer.from([1, 2]),
    expect: accept(Uint8Array.of(1, 2)),
  },
  {
    label: 'bytes as a view into a larger buffer',
    schema: t.bytes(),
    value: new Uint8Array(Uint8Array.of(9, 1, 2, 9).buffer, 1, 2),
    expect: accept(Uint8Array.of(1, 2)),
  },
  { label: 'bytes given an array', schema: t.bytes(), value: [1, 2], expect: refuse('expected_type') },
  {
    label: 'bytes given an ArrayBuffer',
    schema: t.bytes(),
    value: new ArrayBuffer(2),
    expect: refuse('expected_type'),
  },
  // timestamps
  {
    label: 'timestamp(s) on a whole second',
    schema: t.timestamp({ precision: 's' }),
    value: new Date(2000),
    expect: accept(),
  },
  {
    label: 'timestamp(s) with milliseconds',
    schema: t.timestamp({ precision: 's' }),
    value: new Date(1500),
    expect: refuse('precision_loss'),
  },
  { label: 'timestamp(ms) 1500 ms', schema: t.timestamp(), value: new Date(1500), expect: accept() },
  {
    label: 'timestamp(ms) the last Date',
    schema: t.timestamp(),
    value: new Date(8.64e15),
    expect: accept(),
  },
  {
    label: 'timestamp(ms) the first Date',
    schema: t.timestamp(),
    value: new Date(-8.64e15),
    expect: accept(),
  },
  {
    label: 'timestamp(ms) with milliseconds past 2^42 seconds (year -138,989)',
    schema: t.timestamp(),
    value: new Date(Date.parse('-138989-04-29T04:57:09.739Z')),
    expect: accept(),
    unsupportedIn: { cbor: 'tag 1 holds seconds as a float64, which has no room left for the milliseconds' },
  },
  {
    label: 'timestamp(us) the last Date',
    schema: t.timestamp({ precision: 'us' }),
    value: new Date(8.64e15),
    expect: accept(),
  },
  {
    label: 'timestamp(ns) the last whole millisecond below 2^63 ns',
    schema: t.timestamp({ precision: 'ns' }),
    value: new Date(9_223_372_036_854),
    expect: accept(),
  },
  {
    label: 'timestamp(ns) past 2^63 ns',
    schema: t.timestamp({ precision: 'ns' }),
    value: new Date(9_223_372_036_855),
    expect: refuse('out_of_range'),
  },
  {
    label: 'timestamp(ns) before -2^63 ns',
    schema: t.timestamp({ precision: 'ns' }),
    value: new Date(-9_223_372_036_855),
    expect: refuse('out_of_range'),
  },
  {
    label: 'timestamp(ns) the last Date',
    schema: t.timestamp({ precision: 'ns' }),
    value: new Date(8.64e15),
    expect: refuse('out_of_range'),
  },
  {
    label: "timestamp(us) range '0001-9999' its first instant",
    schema: t.timestamp({ precision: 'us', range: '0001-9999' }),
    value: new Date('0001-01-01T00:00:00.000Z'),
    expect: accept(),
  },
  {
    label: "timestamp(us) range '0001-9999' its last millisecond",
    schema: t.timestamp({ precision: 'us', range: '0001-9999' }),
    value: new Date('9999-12-31T23:59:59.999Z'),
    expect: accept(),
  },
  {
    label: "timestamp(us) range '0001-9999' a millisecond before",
    schema: t.timestamp({ precision: 'us', range: '0001-9999' }),
    value: new Date(Date.parse('0001-01-01T00:00:00.000Z') - 1),
    expect: refuse('out_of_range'),
  },
  {
    label: "timestamp(ms) range '0001-9999' a millisecond after",
    schema: t.timestamp({ range: '0001-9999' }),
    value: new Date('+010000-01-01T00:00:00.000Z'),
    expect: refuse('out_of_range'),
  },
  {
    label: 'timestamp invalid Date',
    schema: t.timestamp(),
    value: new Date(Number.NaN),
    expect: refuse('invalid_date'),
  },
  { label: 'timestamp given a number', schema: t.timestamp(), value: 1500, expect: refuse('expected_type') },
  {
    label: 'timestamp given ISO text',
    schema: t.timestamp(),
    value: '1970-01-01T00:00:01.500Z',
    expect: refuse('expected_type'),
  },
  // enums and literals
  { label: 'enum member', schema: Color, value: 'green', expect: accept() },
  { label: 'enum non-member', schema: Color, value: 'blue', expect: refuse('not_a_member') },
  { label: 'enum inherited name', schema: Color, value: 'toString', expect: refuse('not_a_member') },
  { label: 'enum given an index', schema: Color, value: 0, expect: refuse('expected_type') },
  { label: 'literal "v1"', schema: t.literal('v1'), value: 'v1', expect: accept() },
  {
    label: 'literal "v1" given "v2"',
    schema: t.literal('v1'),
    value: 'v2',
    expect: refuse('literal_mismatch'),
  },
  {
    label: 'literal "v1" absent',
    schema: t.literal('v1'),
    value: undefined,
    expect: refuse('missing_field'),
  },
  { label: 'literal 1 given 2', schema: t.literal(1), value: 2, expect: refuse('literal_mismatch') },
  {
    label: 'literal true given false',
    schema: t.literal(true),
    value: false,
    expect: refuse('literal_mismatch'),
  },
  // objects
  { label: 'object', schema: Point, value: { a: 1, b: 'x' }, expect: accept() },
  { label: 'object, optional absent', schema: Point, value: { a: 1 }, expect: accept() },
  {
    label: 'object, optional undefined',
    schema: Point,
    value: { a: 1, b: undefined },
    expect: accept({ a: 1 }),
  },
  {
    label: 'object, optional null',
    schema: Point,
    value: { a: 1, b: null },
    expect: refuse('expected_type', ['b']),
  },
  {
    label: 'object, required missing',
    schema: Point,
    value: { b: 'x' },
    expect: refuse('missing_field', ['a']),
  },
  {
    label: 'object with an unknown key (dropped; validate: true refuses it)',
    schema: Point,
    value: { a: 1, c: 2 },
    expect: accept({ a: 1 }),
    unknownKeys: true,
  },
  {
    label: 'object as a class instance',
    schema: Point,
    value: new Held(),
    expect: accept({ a: 1 }),
  },
  {
    label: 'object whose field is inherited from its prototype',
    schema: Point,
    value: Object.create({ a: 1 }),
    expect: accept({ a: 1 }),
  },
  { label: 'object given an array', schema: Point, value: [1], expect: refuse('expected_type') },
  { label: 'object given null', schema: Point, value: null, expect: refuse('expected_type') },
  { label: 'object given a Map', schema: Point, value: new Map([['a', 1]]), expect: refuse('expected_type') },
  { label: 'object given a Date', schema: Point, value: new Date(0), expect: refuse('expected_type') },
  {
    label: 'object given a Uint8Array',
    schema: Point,
    value: Uint8Array.of(1),
    expect: refuse('expected_type'),
  },
  {
    label: 'object with fields named like inherited members',
    schema: Inherited,
    value: { toString: 1 },
    expect: accept(),
  },
  {
    label: 'object lacking a field named like an inherited member',
    schema: Inherited,
    value: {},
    expect: refuse('missing_field', ['toString']),
  },
  // arrays
  {
    label: 'array in 1..2 items',
    schema: t.array(t.int32(), { minItems: 1, maxItems: 2 }),
    value: [1, 2],
    expect: accept(),
  },
  {
    label: 'array below minItems',
    schema: t.array(t.int32(), { minItems: 1, maxItems: 2 }),
    value: [],
    expect: refuse('too_short'),
  },
  {
    label: 'array past maxItems',
    schema: t.array(t.int32(), { minItems: 1, maxItems: 2 }),
    value: [1, 2, 3],
    expect: refuse('too_long'),
  },
  {
    label: 'array past maxItems, in a field of strings',
    schema: t.array(t.string(), { maxItems: 1 }),
    value: ['a', 'b'],
    expect: refuse('too_long'),
  },
  {
    label: 'array past maxItems, of objects',
    schema: t.array(Point, { maxItems: 1 }),
    value: [{ a: 1 }, { a: 2 }],
    expect: refuse('too_long'),
  },
  {
    label: 'array with a bad item',
    schema: t.array(t.int32()),
    value: [1, 'x'],
    expect: refuse('expected_type', [1]),
  },
  {
    label: 'array with a hole',
    schema: t.array(t.int32()),
    // [1, <hole>, 3]
    value: Object.assign(new Array(3), { 0: 1, 2: 3 }),
    expect: refuse('expected_type', [1]),
  },
  {
    label: 'array given an array-like',
    schema: t.array(t.int32()),
    value: { 0: 1, length: 1 },
    expect: refuse('expected_type'),
  },
  {
    label: 'array given an Int32Array',
    schema: t.array(t.int32()),
    value: Int32Array.of(1),
    expect: refuse('expected_type'),
  },
  {
    label: 'array of nullable items',
    schema: t.array(t.nullable(t.int32())),
    value: [1, null],
    expect: accept(),
  },
  {
    label: 'array of optional items',
    schema: t.array(t.optional(t.int32())),
    value: [1, undefined],
    expect: accept(),
  },
  {
    label: 'array of optional nullable items',
    schema: t.array(t.optional(t.nullable(t.int32()))),
    value: [1, undefined, null],
    expect: accept(),
    // One null on the wire for both: CBOR has an undefined of its own; Protocol Buffers and
    // FlatBuffers read it as absent (as for a field), the others as null.
    readsAs: {
      json: [1, null, null],
      msgpack: [1, null, null],
      protobuf: [1, undefined, undefined],
      avro: [1, null, null],
      flatbuffers: [1, undefined, undefined],
      arrow: [1, null, null],
    },
  },
  // maps
  {
    label: 'map, string keys',
    schema: t.map(t.string({ maxLength: 2 }), t.int32()),
    value: { ab: 1 },
    expect: accept(),
  },
  {
    label: 'map, a key past maxLength',
    schema: t.map(t.string({ maxLength: 2 }), t.int32()),
    value: { abc: 1 },
    expect: refuse('too_long', ['abc']),
  },
  {
    label: 'map, a key against a pattern',
    schema: t.map(t.string({ pattern: '^[a-z]+$' }), t.int32()),
    value: { ok: 1, 'Not ok': 2 },
    expect: refuse('pattern_mismatch', ['Not ok']),
  },
  {
    label: 'map, a key no wirekit decoder reads back',
    schema: t.map(t.string(), t.int32()),
    value: { count: 1, constructor: 2 },
    // No format carries it (decoders refuse __proto__, constructor, prototype keys), and validate
    // reports it: a value with such a key is what a merge by assignment turns into pollution.
    expect: refuse('unsafe_key', ['constructor'], 'WK_ENCODE_UNSUPPORTED'),
  },
  {
    label: 'map, a bad value',
    schema: t.map(t.string(), t.int32()),
    value: { a: 'x' },
    expect: refuse('expected_type', ['a']),
  },
  {
    label: 'map, an undefined value',
    schema: t.map(t.string(), t.int32()),
    value: { a: undefined },
    expect: refuse('expected_type', ['a']),
  },
  {
    label: 'map with string keys given a Map',
    schema: t.map(t.string(), t.int32()),
    value: new Map([['a', 1]]),
    expect: refuse('expected_type'),
  },
  {
    label: 'map, int32 keys',
    schema: t.map(t.int32(), t.string()),
    value: new Map([
      [-1, 'a'],
      [7, 'b'],
    ]),
    expect: accept(),
  },
  {
    label: 'map, an int32 key given as text',
    schema: t.map(t.int32(), t.string()),
    value: new Map([['1', 'a']]),
    expect: refuse('expected_type', ['1']),
  },
  {
    label: 'map, an int32 key 1.5',
    schema: t.map(t.int32(), t.string()),
    value: new Map([[1.5, 'a']]),
    expect: refuse('not_integer', ['1.5']),
  },
  {
    label: 'map, an int32 key 2^31',
    schema: t.map(t.int32(), t.string()),
    value: new Map([[2 ** 31, 'a']]),
    expect: refuse('out_of_range', ['2147483648']),
  },
  {
    label: 'map with int keys given an object',
    schema: t.map(t.int32(), t.string()),
    value: { 1: 'a' },
    expect: refuse('expected_type'),
  },
  {
    label: 'map, int64 keys',
    schema: t.map(t.int64(), t.string()),
    value: new Map([[1n, 'a']]),
    expect: accept(),
  },
  {
    label: 'map, an int64 key given as a number',
    schema: t.map(t.int64(), t.string()),
    value: new Map([[1, 'a']]),
    expect: refuse('expected_type', ['1']),
  },
  {
    label: 'map, a uint8 key 256',
    schema: t.map(t.uint8(), t.string()),
    value: new Map([[256, 'a']]),
    expect: refuse('out_of_range', ['256']),
  },
  // optional and nullable
  { label: 'optional absent', schema: t.optional(t.int32()), value: undefined, expect: accept() },
  {
    label: 'optional given null',
    schema: t.optional(t.int32()),
    value: null,
    expect: refuse('expected_type'),
  },
  { label: 'nullable null', schema: t.nullable(t.int32()), value: null, expect: accept() },
  {
    label: 'nullable absent',
    schema: t.nullable(t.int32()),
    value: undefined,
    expect: refuse('missing_field'),
  },
  {
    label: 'nullable string past maxLength',
    schema: t.nullable(t.string({ maxLength: 1 })),
    value: 'ab',
    expect: refuse('too_long'),
  },
  {
    label: 'optional(nullable) null',
    schema: t.optional(t.nullable(t.int32())),
    value: null,
    expect: accept(),
    // One notion of absence on the wire (proto3 presence, an absent slot): null reads back absent.
    readsAs: { protobuf: undefined, flatbuffers: undefined },
  },
  // tagged unions
  { label: 'union variant', schema: Shape, value: { kind: 'circle', r: 1 }, expect: accept() },
  {
    label: 'union, unknown tag',
    schema: Shape,
    value: { kind: 'tri', r: 1 },
    expect: refuse('unknown_variant', ['kind']),
  },
  { label: 'union, no tag', schema: Shape, value: { r: 1 }, expect: refuse('unknown_variant', ['kind']) },
  {
    label: 'union, inherited tag',
    schema: Shape,
    value: { kind: 'toString' },
    expect: refuse('unknown_variant', ['kind']),
  },
  {
    label: 'union, variant field missing',
    schema: Shape,
    value: { kind: 'circle' },
    expect: refuse('missing_field', ['r']),
  },
  {
    label: "union, another variant's field (dropped; validate: true refuses it)",
    schema: Shape,
    value: { kind: 'circle', r: 1, w: 2 },
    expect: accept({ kind: 'circle', r: 1 }),
    unknownKeys: true,
  },
  { label: 'union given a string', schema: Shape, value: 'circle', expect: refuse('expected_type') },
  { label: 'union given an array', schema: Shape, value: [], expect: refuse('expected_type') },
  // untagged unions: the value's class, and an object's keys, choose the branch
  { label: 'either, text branch', schema: Id, value: 'ab', expect: accept() },
  { label: 'either, number branch', schema: Id, value: 7, expect: accept() },
  { label: 'either, boolean branch', schema: Id, value: false, expect: accept() },
  {
    label: 'either, a branch refuses',
    schema: Id,
    value: 'abcde',
    expect: refuse('too_long'),
  },
  {
    label: 'either, no branch (null)',
    schema: Id,
    value: null,
    expect: refuse('expected_type'),
  },
  {
    label: 'either, no branch (bigint)',
    schema: Id,
    value: 1n,
    expect: refuse('expected_type'),
  },
  {
    label: 'either, object by keys',
    schema: Place,
    value: { name: 'x' },
    expect: accept(),
  },
  {
    label: 'either, keys of no branch',
    schema: Place,
    value: { lat: 1 },
    expect: refuse('unknown_variant'),
  },
  {
    label: "either, the chosen branch's field wrong",
    schema: Place,
    value: { lat: 1, lon: 'e' },
    expect: refuse('expected_type', ['lon']),
  },
  // an integer branch beside a float branch: the number's value picks (either.ts, branchOfNumber)
  {
    label: 'either, an integer to the int branch',
    schema: Reading,
    value: 3,
    expect: accept(),
  },
  {
    label: 'either, a fraction to the float branch',
    schema: Reading,
    value: 2.5,
    expect: accept(),
  },
  {
    label: 'either, an integer past the int range to the float branch',
    schema: Reading,
    value: 40_000,
    expect: accept(),
  },
  {
    label: 'either, -0 to the int branch',
    schema: Reading,
    value: -0,
    expect: accept(0),
  },
  {
    label: 'either, NaN to the float branch',
    schema: t.either([t.int16(), t.float64()]),
    value: Number.NaN,
    expect: accept(),
  },
  {
    label: 'either, a bigint beside int and float',
    schema: Reading,
    value: 3n,
    expect: refuse('expected_type'),
  },
  {
    label: 'either, NaN beside a text branch',
    schema: t.either([t.string(), t.float64()]),
    value: Number.NaN,
    expect: refuse('expected_type'),
  },
  {
    label: 'either, nullable, null',
    schema: t.nullable(Id),
    value: null,
    expect: accept(),
  },
  {
    label: 'either, nullable, a value',
    schema: t.nullable(Id),
    value: 'cd',
    expect: accept(),
  },
  {
    label: 'either, in an array',
    schema: t.array(Id),
    value: [true, 'x', 3],
    expect: accept(),
  },
  {
    label: 'either, bytes, array and object branches',
    schema: t.array(t.either([t.bytes(), t.array(t.int32()), t.object('Pair', { a: t.int32() })])),
    value: [new Uint8Array([1, 2]), [4, 5], { a: 6 }],
    expect: accept(),
  },
  // recursion
  {
    label: 'recursive value',
    schema: Tree,
    value: { n: 1, kids: [{ n: 2, kids: [] }] },
    expect: accept(),
    notFor: noRecursion,
  },
  {
    label: 'recursive value, a bad leaf',
    schema: Tree,
    value: { n: 1, kids: [{ n: 'x', kids: [] }] },
    expect: refuse('expected_type', ['kids', 0, 'n']),
    notFor: noRecursion,
  },
  {
    label: 'cyclic value',
    schema: Tree,
    value: cyclic,
    expect: refuse('too_deep', 'anywhere', 'WK_LIMIT_DEPTH'),
    notFor: noRecursion,
  },
  // json (its NaN, depth and unsafe keys are the hardening issue's; only a plain value here)
  { label: 'json value', schema: t.json(), value: { a: [1, 'x', null, true] }, expect: accept() },
  // A json value declared as Protocol Buffers' Value, Struct or ListValue (JsonSchema.proto)
  {
    label: "json proto 'value' holding each JSON kind",
    schema: t.json({ proto: 'value' }),
    value: [null, 0, -1.5, '', 'x', true, false, {}, [], { a: [{}] }],
    expect: accept(),
  },
  {
    label: "json proto 'value' holding null",
    schema: t.json({ proto: 'value' }),
    value: null,
    expect: accept(),
  },
  {
    label: "json proto 'struct' holding an object",
    schema: t.json({ proto: 'struct' }),
    value: { b: 1, a: { c: [null] }, '': 'empty key' },
    expect: accept(),
  },
  {
    label: "json proto 'struct' given an array",
    schema: t.json({ proto: 'struct' }),
    value: [1],
    expect: refuse('expected_type'),
  },
  {
    label: "json proto 'struct' given null",
    schema: t.json({ proto: 'struct' }),
    value: null,
    expect: refuse('expected_type'),
  },
  {
    label: "json proto 'list' holding an array",
    schema: t.json({ proto: 'list' }),
    value: [1, 'a', [], {}],
    expect: accept(),
  },
  {
    label: "json proto 'list' given an object",
    schema: t.json({ proto: 'list' }),
    value: { a: 1 },
    expect: refuse('expected_type'),
  },
  {
    label: "json proto 'value' given a bigint",
    schema: t.json({ proto: 'value' }),
    value: 1n,
    expect: refuse('expected_type'),
  },
  {
    label: "json proto 'value' given an infinity",
    schema: t.json({ proto: 'value' }),
    value: Number.POSITIVE_INFINITY,
    expect: refuse('expected_type'),
  },
  ...nullObjectCases(),
];

/**
 * A null or absent object whose fields carry constraints is a valid value in every position: the
 * constraints hold for the values an object holds, not for an object that is not there (Arrow, which
 * keeps child slots under a null, fills them with placeholders and must not check those). Generated
 * over the constraint kinds × the positions an object can be null or absent in; each pair also gets
 * the object present with a bad value, refused at its path, so the constraint is still checked.
 */
function nullObjectCases(): Case[] {
  const Tagged = t.union('Tagged', 'kind', [
    t.object('TaggedA', { kind: t.literal('a'), s: t.string({ minLength: 2 }) }),
    t.object('TaggedB', { kind: t.literal('b') }),
  ]);
  const kinds = [
    { label: 'minLength', schema: t.string({ minLength: 2 }), bad: 'a', issue: 'too_short', at: [] },
    { label: 'pattern', schema: t.string({ pattern: '^a' }), bad: 'b', issue: 'pattern_mismatch', at: [] },
    { label: 'minItems', schema: t.array(t.int32(), { minItems: 1 }), bad: [], issue: 'too_short', at: [] },
    {
      label: 'a union variant’s minLength',
      schema: Tagged,
      bad: { kind: 'a', s: 'a' },
      issue: 'too_short',
      at: ['s'],
    },
  ] as const;
  type Position = {
    readonly label: string;
    readonly schema: (held: Schema) => Schema;
    readonly value: unknown;
    readonly readsAs?: Case['readsAs'];
    /** The position holding the object present, and the path of the object in it. */
    readonly present: (object: unknown) => unknown;
    readonly at: Path;
  };
  const absentInTagFormats = { protobuf: undefined, flatbuffers: undefined };
  const positions: Position[] = [
    { label: 'nullable, null', schema: (o) => t.nullable(o), value: null, present: (o) => o, at: [] },
    { label: 'optional, absent', schema: (o) => t.optional(o), value: undefined, present: (o) => o, at: [] },
    {
      label: 'optional(nullable), null',
      schema: (o) => t.optional(t.nullable(o)),
      value: null,
      readsAs: absentInTagFormats,
      present: (o) => o,
      at: [],
    },
    {
      label: 'a list item, nullable',
      schema: (o) => t.array(t.nullable(o)),
      value: [null, null],
      present: (o) => [null, o],
      at: [1],
    },
    {
      label: 'a map value, nullable',
      schema: (o) => t.map(t.string(), t.nullable(o)),
      value: { k: null },
      present: (o) => ({ k: o }),
      at: ['k'],
    },
    {
      label: 'a required field of a null object',
      schema: (o) => t.nullable(t.object('Outer', { o })),
      value: null,
      present: (o) => ({ o }),
      at: ['o'],
    },
    {
      label: 'an optional field of a null object',
      schema: (o) => t.nullable(t.object('Outer', { n: t.int32(), o: t.optional(o) })),
      value: null,
      present: (o) => ({ n: 1, o }),
      at: ['o'],
    },
    {
      label: 'a list item of a null object',
      schema: (o) => t.nullable(t.object('Outer', { list: t.array(o) })),
      value: null,
      present: (o) => ({ list: [o] }),
      at: ['list', 0],
    },
    {
      label: 'a variant of a null union',
      schema: (o) =>
        t.nullable(
          t.union('Holder', 'kind', [
            t.object('HolderA', { kind: t.literal('a'), o }),
            t.object('HolderB', { kind: t.literal('b') }),
          ]),
        ),
      value: null,
      present: (o) => ({ kind: 'a', o }),
      at: ['o'],
    },
    {
      label: 'a nullable field of a union variant',
      schema: (o) =>
        t.union('Holder', 'kind', [
          t.object('HolderA', { kind: t.literal('a'), o: t.nullable(o) }),
          t.object('HolderB', { kind: t.literal('b') }),
        ]),
      value: { kind: 'a', o: null },
      present: (o) => ({ kind: 'a', o }),
      at: ['o'],
    },
  ];
  return kinds.flatMap((kind) =>
    positions.flatMap((position): Case[] => {
      const schema = position.schema(t.object('Held', { c: kind.schema }));
      const label = `an object with a ${kind.label} field, ${position.label}`;
      return [
        {
          label,
          schema,
          value: position.value,
          expect: accept(),
          ...(position.readsAs === undefined ? {} : { readsAs: position.readsAs }),
        },
        {
          label: `${label}; present with a bad value`,
          schema,
          value: position.present({ c: kind.bad }),
          expect: refuse(kind.issue, [...position.at, 'c', ...kind.at]),
        },
      ];
    }),
  );
}

const row = (schema: Schema) => t.object('Row', { v: schema });

/** A json value `levels` arrays deep. */
function nestedJson(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

/** What one encode (and, when it succeeds, decode) did. */
type Outcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly code: string; readonly path: unknown; readonly message: string };

/** Codecs of `row(schema)` per format and path, made once per schema (compiling one costs a `new Function`). */
const codecs = new WeakMap<Schema, Map<string, Codec<unknown>>>();

function codecOf(format: FormatName, compile: boolean, schema: Schema): Codec<unknown> {
  let byPath = codecs.get(schema);
  if (byPath === undefined) {
    byPath = new Map();
    codecs.set(schema, byPath);
  }
  const key = `${format} ${compile}`;
  let codec = byPath.get(key);
  if (codec === undefined) {
    codec = createCodec(format, { schema: row(schema), compile });
    expect(codec.compiled ?? false, key).toBe(compile);
    byPath.set(key, codec);
  }
  return codec;
}

function roundTrip(format: FormatName, compile: boolean, schema: Schema, value: unknown): Outcome {
  const codec = codecOf(format, compile, schema);
  const input = format === 'arrow' ? [{ v: value }] : { v: value };
  let bytes: Uint8Array;
  try {
    bytes = codec.encode(input as never);
  } catch (error) {
    // Anything but a WirekitError (a TypeError, a RangeError) is a crash: fail with it.
    if (!isWirekitError(error)) throw error;
    // Arrow encodes a table: its paths start at the row.
    const path = format === 'arrow' && error.path?.[0] === 0 ? error.path.slice(1) : error.path;
    return { ok: false, code: error.code, path, message: error.message };
  }
  const decoded = codec.decode(bytes) as Record<string, unknown> | Record<string, unknown>[];
  return { ok: true, value: format === 'arrow' ? (decoded as unknown[])[0] : decoded };
}

const paths = formatNames.flatMap((format) => [true, false].map((compile) => ({ format, compile })));
const pathName = ({ format, compile }: (typeof paths)[number]) =>
  `${format}${compile ? '' : ' (interpreted)'}`;

/** A refusal as the test compares it: code and path, and for a constraint its message without the path. */
function refusalOf(result: Outcome, compareMessage: boolean, comparePath: boolean): unknown {
  if (result.ok) return result;
  return {
    code: result.code,
    ...(comparePath ? { path: result.path } : {}),
    ...(compareMessage ? { message: leafMessage(result.message) } : {}),
  };
}

describe('encoding: one outcome per value in every format, compiled and interpreted, and validate()', () => {
  test.each(cases.map((c) => [c.label, c] as const))('%s', (_label, c) => {
    const issues = validate(row(c.schema), { v: c.value }, { unknownKeys: 'ignore' });
    if ('accept' in c.expect || 'unsupported' in c.expect) expect(issues).toEqual([]);
    else {
      expect(issues[0]?.code).toBe(c.expect.refuse);
      if (c.expect.at !== 'anywhere') expect(issues[0]?.path).toEqual(['v', ...(c.expect.at ?? [])]);
    }
    const expected = c.expect;
    // Soft assertions: a failure shows every format that disagrees, not only the first.
    const got: Record<string, unknown> = {};
    const want: Record<string, unknown> = {};
    for (const path of paths) {
      const name = pathName(path);
      const why = c.notFor?.[path.format];
      if (why !== undefined) {
        expect(() => createCodec(path.format, { schema: row(c.schema) }), why).toThrow();
        continue;
      }
      const result = roundTrip(path.format, path.compile, c.schema, c.value);
      if (c.unsupportedIn?.[path.format] !== undefined) {
        got[name] = refusalOf(result, false, true);
        want[name] = { code: 'WK_ENCODE_UNSUPPORTED', path: ['v'] };
        continue;
      }
      if ('accept' in expected) {
        const back = path.format in (c.readsAs ?? {}) ? c.readsAs?.[path.format] : (expected.back ?? c.value);
        got[name] = result;
        want[name] = { ok: true, value: back === undefined ? {} : { v: back } };
        continue;
      }
      if ('unsupported' in expected) {
        got[name] = refusalOf(result, false, true);
        want[name] = { code: 'WK_ENCODE_UNSUPPORTED', path: ['v', ...expected.unsupported] };
        continue;
      }
      // A constraint's message comes from the one rule every format and validate share.
      const first = issues[0];
      const compareMessage = first !== undefined && ruleIssues.has(first.code);
      const comparePath = expected.at !== 'anywhere';
      got[name] = refusalOf(result, compareMessage, comparePath);
      want[name] = {
        code: expected.code ?? 'WK_VALIDATION_FAILED',
        ...(comparePath ? { path: ['v', ...((expected.at as Path | undefined) ?? [])] } : {}),
        ...(compareMessage ? { message: leafMessage(first.message) } : {}),
      };
    }
    for (const name of Object.keys(want)) expect.soft(got[name], name).toStrictEqual(want[name]);
  });

  test.each(cases.filter((c) => 'refuse' in c.expect || c.unknownKeys).map((c) => [c.label, c] as const))(
    'validate: true refuses %s with validate()’s issues',
    (_label, c) => {
      const issues = validate(row(c.schema), { v: c.value });
      expect(issues.length).toBeGreaterThan(0);
      for (const path of paths) {
        if (c.notFor?.[path.format] !== undefined) continue;
        const codec = createCodec(path.format, {
          schema: row(c.schema),
          compile: path.compile,
          validate: true,
        });
        const input = path.format === 'arrow' ? [{ v: c.value }] : { v: c.value };
        let thrown: unknown;
        try {
          codec.encode(input as never);
        } catch (error) {
          thrown = error;
        }
        expect(thrown, pathName(path)).toBeInstanceOf(ValidationError);
        const got = (thrown as ValidationError).issues.map((issue) => ({
          ...issue,
          // Arrow validates the table: its paths start at the row.
          path: path.format === 'arrow' ? issue.path.slice(1) : issue.path,
          message: leafMessage(issue.message),
        }));
        expect(got, pathName(path)).toEqual(
          issues.map((issue) => ({ ...issue, message: leafMessage(issue.message) })),
        );
      }
    },
  );
});

/** The issues that constraints (value-rules) raise, whose message is the same in every format. */
const ruleIssues = new Set<IssueCode>([
  'too_short',
  'too_long',
  'pattern_mismatch',
  'precision_loss',
  'invalid_decimal',
]);

/** A message without the path in front of it ("v.a: at most …" → "at most …"). */
function leafMessage(message: string): string {
  const colon = message.indexOf(': ');
  return colon === -1 ? message : message.slice(colon + 2);
}

/** A value the reader's schema refuses, written with a wider schema: what every decoder is sent. */
interface DecodeCase {
  readonly label: string;
  readonly writer: Schema;
  readonly reader: Schema;
  readonly value: unknown;
  /** Formats whose wire cannot carry the value for the reader (the bytes mean another value), and why. */
  readonly cannotCarry?: Partial<Record<FormatName, string>>;
}

/** The unit of a fixed-width count is the schema's, not the wire's: the bytes are another instant. */
const countUnit = 'the count of units is stored without its unit: the reader reads another, valid, instant';
/** Protocol Buffers writes a plain json value as JSON text, a declared one as a Struct or ListValue message. */
const jsonText = 'JSON text in a string field is not the Struct or ListValue message the reader declares';
/** A float32 is 4 bytes: no value outside its range fits, and a double is another wire type. */
const fourBytes = 'a float32 slot holds 4 bytes: the writer’s 8-byte double is not a float32 on this wire';
/** Avro and Arrow store decimal(p,s) as the scaled integer: the scale is the schema’s, not the bytes’. */
const scaledInteger =
  'a decimal with precision and scale is a scaled integer: the reader reads the bytes as its own';

const decodeCases: readonly DecodeCase[] = [
  { label: 'a string past maxLength', writer: t.string(), reader: t.string({ maxLength: 3 }), value: 'abcd' },
  { label: 'a string below minLength', writer: t.string(), reader: t.string({ minLength: 3 }), value: 'ab' },
  {
    label: 'a string against a pattern',
    writer: t.string(),
    reader: t.string({ pattern: '^a' }),
    value: 'b',
  },
  {
    label: 'bytes past maxLength',
    writer: t.bytes(),
    reader: t.bytes({ maxLength: 1 }),
    value: Uint8Array.of(1, 2),
  },
  {
    label: 'an array past maxItems',
    writer: t.array(t.int32()),
    reader: t.array(t.int32(), { maxItems: 1 }),
    value: [1, 2],
  },
  {
    label: 'an array of strings below minItems',
    writer: t.array(t.string()),
    reader: t.array(t.string(), { minItems: 3 }),
    value: ['a', 'b'],
  },
  {
    label: 'an array of objects past maxItems',
    writer: t.array(Point),
    reader: t.array(Point, { maxItems: 1 }),
    value: [{ a: 1 }, { a: 2 }],
  },
  {
    label: 'a decimal past its scale',
    writer: t.decimal(),
    reader: money,
    value: '19.999',
    cannotCarry: { avro: scaledInteger, arrow: scaledInteger },
  },
  {
    label: 'a decimal past its precision',
    writer: t.decimal(),
    reader: money,
    value: '1234.5',
    cannotCarry: { avro: scaledInteger, arrow: scaledInteger },
  },
  {
    label: 'a decimal with only a scale, past it',
    writer: t.decimal(),
    reader: t.decimal({ scale: 2 }),
    value: '1.234',
  },
  {
    label: 'a float32 past its range',
    writer: t.float64(),
    reader: t.float32(),
    value: 1e39,
    cannotCarry: { protobuf: fourBytes, avro: fourBytes, flatbuffers: fourBytes, arrow: fourBytes },
  },
  { label: 'a float64 past its max', writer: t.float64(), reader: ratio, value: 1.5 },
  { label: 'a float64 below its min', writer: t.float64(), reader: ratio, value: -0.5 },
  { label: 'a NaN where a float64 is bounded', writer: t.float64(), reader: ratio, value: Number.NaN },
  { label: 'a float64 of 0 where min is 5e-324', writer: t.float64(), reader: positive, value: 0 },
  { label: 'a float32 past its max', writer: t.float32(), reader: half, value: 1 },
  {
    label: 'milliseconds in a seconds timestamp',
    writer: t.timestamp(),
    reader: t.timestamp({ precision: 's' }),
    value: new Date(1500),
    cannotCarry: { flatbuffers: countUnit },
  },
  {
    label: 'a nanoseconds timestamp past 2^63 ns',
    writer: t.timestamp(),
    reader: t.timestamp({ precision: 'ns' }),
    value: new Date(8e15),
    cannotCarry: { avro: countUnit, flatbuffers: countUnit },
  },
  {
    label: "an array where the reader's json declares a Struct",
    writer: t.json(),
    reader: t.json({ proto: 'struct' }),
    value: [1],
    cannotCarry: { protobuf: jsonText },
  },
  {
    label: "an object where the reader's json declares a ListValue",
    writer: t.json(),
    reader: t.json({ proto: 'list' }),
    value: { a: 1 },
    cannotCarry: { protobuf: jsonText },
  },
  {
    label: "a timestamp past the years of range '0001-9999'",
    writer: t.timestamp({ precision: 'us' }),
    reader: t.timestamp({ precision: 'us', range: '0001-9999' }),
    value: new Date('+010000-01-01T00:00:00.000Z'),
  },
  {
    label: "a timestamp before the years of range '0001-9999'",
    writer: t.timestamp(),
    reader: t.timestamp({ range: '0001-9999' }),
    value: new Date('-000001-12-31T23:59:59.999Z'),
  },
  {
    label: 'a map key past maxLength',
    writer: t.map(t.string(), t.int32()),
    reader: t.map(t.string({ maxLength: 1 }), t.int32()),
    value: { ab: 1 },
  },
  { label: 'an int32 past its max', writer: t.int32(), reader: percent, value: 101 },
  { label: 'an int32 below its min', writer: t.int32(), reader: percent, value: -1 },
  { label: 'a uint32 below its min', writer: t.uint32(), reader: large, value: 2e9 },
  { label: 'an int8 of 0 where min is 1', writer: t.int8(), reader: t.int8({ min: 1 }), value: 0 },
  {
    label: 'a nullable string past maxLength',
    writer: t.nullable(t.string()),
    reader: t.nullable(t.string({ maxLength: 1 })),
    value: 'ab',
  },
];

type Decoded = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly code: string };

function decodeWide(format: FormatName, compile: boolean, c: DecodeCase): Decoded {
  const writer = createCodec(format, { schema: row(c.writer), compile });
  const reader = createCodec(format, { schema: row(c.reader), compile });
  const bytes = writer.encode((format === 'arrow' ? [{ v: c.value }] : { v: c.value }) as never);
  try {
    const decoded = reader.decode(bytes);
    return { ok: true, value: format === 'arrow' ? (decoded as unknown as unknown[])[0] : decoded };
  } catch (error) {
    if (!isWirekitError(error)) throw error;
    // Decoders that track paths (JSON, MessagePack, CBOR; Arrow from the row) must point at the
    // value; the others give offsets.
    if (error.path !== undefined && error.code === 'WK_DECODE_SCHEMA_MISMATCH') {
      const path = format === 'arrow' ? error.path.slice(0, 2) : error.path.slice(0, 1);
      expect(path, `${format} path`).toEqual(format === 'arrow' ? [0, 'v'] : ['v']);
    }
    return { ok: false, code: error.code };
  }
}

describe('decoding: what a reader’s schema refuses, every decoder refuses where its wire carries it', () => {
  test.each(decodeCases.map((c) => [c.label, c] as const))('%s', (_label, c) => {
    // The value is one the reader's schema refuses, so its encoders refuse it too.
    expect(validate(row(c.reader), { v: c.value }).length).toBeGreaterThan(0);
    for (const path of paths) {
      const name = pathName(path);
      const result = decodeWide(path.format, path.compile, c);
      if (c.cannotCarry?.[path.format] === undefined) {
        expect.soft(result, name).toStrictEqual({ ok: false, code: 'WK_DECODE_SCHEMA_MISMATCH' });
      } else if (result.ok) {
        // The bytes are another value of the reader's kind: it must be one validate accepts.
        expect
          .soft(validate(row(c.reader), result.value), `${name}: ${c.cannotCarry[path.format]}`)
          .toEqual([]);
      }
    }
  });

  test('JSON text that holds what the JSON writer refuses is refused when read', () => {
    const texts: [Schema, string][] = [
      [t.string(), '{"v":"a\\ud800b"}'],
      [t.map(t.string(), t.int32()), '{"v":{"\\udc00":1}}'],
      [t.float32(), '{"v":1e39}'],
      [t.decimal({ precision: 5, scale: 2 }), '{"v":"19.999"}'],
      [t.decimal({ precision: 5, scale: 2 }), '{"v":19.999}'],
      [t.timestamp({ precision: 's' }), '{"v":"1970-01-01T00:00:01.500Z"}'],
      [t.timestamp({ precision: 'ns' }), '{"v":"+275760-09-13T00:00:00.000Z"}'],
      [t.array(t.int8(), { maxItems: 1 }), '{"v":[1,2]}'],
    ];
    for (const [schema, text] of texts) {
      for (const compile of [true, false]) {
        const codec = createCodec('json', { schema: row(schema), compile });
        let thrown: unknown;
        try {
          codec.decode(new TextEncoder().encode(text));
        } catch (error) {
          thrown = error;
        }
        expect(thrown, `${text} compile: ${compile}`).toMatchObject({ code: 'WK_DECODE_SCHEMA_MISMATCH' });
        expect((thrown as { path: Path }).path[0], text).toBe('v');
      }
    }
    // A surrogate pair, escaped, is a character like any other.
    expect(
      createCodec('json', { schema: row(t.string()) }).decode(
        new TextEncoder().encode('{"v":"\\ud83d\\ude00"}'),
      ),
    ).toEqual({ v: '😀' });
  });
});

/**
 * The same promise on random values of the constrained kinds, near their bounds: every path either
 * accepts a value and reads back the same one (in Avro's and Arrow's spelling for a scaled
 * decimal), or refuses it at `v` with one code: WK_VALIDATION_FAILED exactly when `validate`
 * reports a problem beyond a lone surrogate, WK_ENCODE_UNSUPPORTED for a lone surrogate alone.
 */
describe('property: random values near the bounds of each constrained kind', () => {
  /** A decimal with precision and scale as Avro and Arrow read it back: exactly `scale` digits, no "-0". */
  const scaledSpelling = (text: string, scale: number): string => {
    const [whole = '', fraction = ''] = text.replace('-', '').split('.');
    const digits = `${whole}.${fraction.padEnd(scale, '0')}`.replace(/\.$/, '');
    return text.startsWith('-') && /[1-9]/.test(digits) ? `-${digits}` : digits;
  };

  function expectOneOutcome(schema: Schema, value: unknown, back: (format: FormatName) => unknown): void {
    const issues = validate(row(schema), { v: value });
    const beyond = issues.find((issue) => issue.code !== 'not_well_formed');
    for (const path of paths) {
      const result = roundTrip(path.format, path.compile, schema, value);
      const name = pathName(path);
      if (issues.length === 0) {
        expect(result, name).toStrictEqual({ ok: true, value: { v: back(path.format) } });
      } else {
        expect(refusalOf(result, false, true), name).toStrictEqual({
          code: beyond !== undefined ? 'WK_VALIDATION_FAILED' : 'WK_ENCODE_UNSUPPORTED',
          path: (beyond ?? issues[0])?.path,
        });
      }
    }
  }

  const strings = [
    t.string({ minLength: 1, maxLength: 3 }),
    t.string({ maxLength: 2, pattern: '^[a-c]*$' }),
    t.string({ minLength: 2 }),
  ];
  test('strings against lengths (in code points) and patterns', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: strings.length - 1 }),
        fc.string({ unit: fc.constantFrom('a', 'b', 'z', 'é', '😀', '\ud800', '\udc00'), maxLength: 5 }),
        (which, text) => expectOneOutcome(strings[which] as Schema, text, () => text),
      ),
      { numRuns: 150 },
    );
  });

  const decimals = [money, t.decimal({ scale: 1 }), t.decimal({ precision: 3 }), t.decimal()];
  test('decimals against spelling, scale and precision', () => {
    const digits = (max: number) => fc.string({ unit: fc.constantFrom('0', '1', '9'), maxLength: max });
    fc.assert(
      fc.property(
        fc.nat({ max: decimals.length - 1 }),
        fc.constantFrom('', '-', '+'),
        digits(5),
        fc.option(digits(4), { nil: undefined }),
        (which, sign, whole, fraction) => {
          const schema = decimals[which] as Extract<Schema, { kind: 'decimal' }>;
          const text = `${sign}${whole}${fraction === undefined ? '' : `.${fraction}`}`;
          const native = schema.precision !== undefined && schema.scale !== undefined;
          expectOneOutcome(schema, text, (format) =>
            native && (format === 'avro' || format === 'arrow')
              ? scaledSpelling(text, schema.scale ?? 0)
              : text,
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  const precisions = ['s', 'ms', 'us', 'ns'] as const;
  test('timestamps against the range and unit of their precision', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...precisions),
        fc.oneof(
          // Within 2^42 s of the epoch, where CBOR's float seconds keep milliseconds (see the table).
          fc.date({ min: new Date(-(2 ** 42) * 1000), max: new Date(2 ** 42 * 1000) }),
          fc.date({ noInvalidDate: false }).filter((date) => !(Math.abs(date.getTime()) >= 2 ** 42 * 1000)),
          fc.integer({ min: -3000, max: 3000 }).map((ms) => new Date(ms)),
          fc
            .constantFrom(9_223_372_036_854, 9_223_372_036_855, -9_223_372_036_855, 8.64e15, -8.64e15)
            .map((ms) => new Date(ms)),
        ),
        (precision, date) =>
          expectOneOutcome(t.timestamp({ precision }), date, () => new Date(date.getTime())),
      ),
      { numRuns: 150 },
    );
  });

  const numbers = [
    t.int8(),
    t.uint16(),
    t.int32(),
    t.uint32(),
    t.float32(),
    t.int64({ as: 'number' }),
    t.uint64(),
  ];
  test('numbers against the ranges and JavaScript types of their kinds', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: numbers.length - 1 }),
        fc.oneof(
          fc.integer(),
          fc.double(),
          fc.float(),
          fc.bigInt({ min: -(2n ** 65n), max: 2n ** 65n }),
          fc.constantFrom(-0, 2 ** 53, 2 ** 32, -(2 ** 31) - 1, 3.5e38, 3.41e38, 1e39),
        ),
        (which, n) => {
          const schema = numbers[which] as Schema;
          const back = () => (schema.kind === 'float32' ? Math.fround(n as number) : n === 0 ? 0 : n);
          // Avro's long is signed: a valid uint64 past 2^63-1 is the one value it cannot carry.
          if (schema.kind === 'uint64' && typeof n === 'bigint' && n >= 2n ** 63n && n < 2n ** 64n) return;
          expectOneOutcome(schema, n, back);
        },
      ),
      { numRuns: 150 },
    );
  });

  const arrays = [t.array(t.int8(), { minItems: 1, maxItems: 3 }), t.array(t.string(), { maxItems: 2 })];
  test('arrays against their item counts and items', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: arrays.length - 1 }),
        fc.array(fc.oneof(fc.integer({ min: -130, max: 130 }), fc.constantFrom('x', '')), { maxLength: 5 }),
        (which, items) => expectOneOutcome(arrays[which] as Schema, items, () => items),
      ),
      { numRuns: 150 },
    );
  });
});

describe("a json value past the codecs' maxDepth (100) but within validate's (256)", () => {
  // validate accepts it; every encoder, compiled or not, refuses it alike rather than writing what
  // every decoder with the same limits would refuse.
  test('validate accepts it', () => {
    expect(validate(row(t.json()), { v: nestedJson(150) })).toEqual([]);
  });

  test.each(paths)('$format refuses it with WK_LIMIT_DEPTH', (path) => {
    const outcome = roundTrip(path.format, path.compile, t.json(), nestedJson(150));
    expect(outcome.ok, pathName(path)).toBe(false);
    expect(outcome.ok ? undefined : outcome.code, pathName(path)).toBe('WK_LIMIT_DEPTH');
  });
});
