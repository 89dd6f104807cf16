/**
 * Arrow compiled against its interpreter: the same bytes from encode and the same rows (or the same
 * error: code, message and path) from decode, on every kind the generated code reads or writes
 * inline, on the kinds it hands to the interpreter, with nulls where the schema allows them, across
 * batch boundaries, on mutated and truncated bytes, and for wrong rows.
 */
import {
  dictionary,
  float64,
  int32,
  list,
  TimeUnit,
  tableFromArrays,
  tableToIPC,
  timestamp,
  utf8,
} from '@uwdata/flechette';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compileArrow } from '../../../src/codecs/arrow/compiled.js';
import { createArrowCodec } from '../../../src/codecs/arrow/index.js';
import { buildRootPlan } from '../../../src/codecs/arrow/plan.js';
import { Record8, records } from '../../../src/lab/datasets/records.js';
import { Reading, timeseries } from '../../../src/lab/datasets/timeseries.js';
import { User, users } from '../../../src/lab/datasets/users.js';
import { type ObjectSchema, type Schema, t } from '../../../src/schema/index.js';
import { Shape } from '../../fixtures/every-kind.js';
import { expectSameOutcomeOnMutations, outcome } from '../../support/outcome.js';
import { chunked, collect, readAll } from '../../support/streams.js';

const show = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));

const Inner = t.object('Inner', { a: t.uint16(), b: t.string() });

/** Every leaf the generated code handles inline, nullable and optional variants, and the rest. */
const Edge = t.object('Edge', {
  flag: t.bool(),
  i8: t.int8(),
  u16: t.uint16(),
  i32: t.int32(),
  u32: t.uint32(),
  f64: t.float64(),
  text: t.string(),
  color: t.enum('Hue', ['red', 'green', 'blue']),
  when: t.timestamp(),
  micros: t.timestamp({ precision: 'us' }),
  nanos: t.timestamp({ precision: 'ns' }),
  maybeFlag: t.optional(t.bool()),
  nullInt: t.nullable(t.int32()),
  maybeF64: t.optional(t.float64()),
  nullText: t.nullable(t.string()),
  both: t.optional(t.nullable(t.string())),
  maybeColor: t.optional(t.enum('Tone', ['light', 'dark'])),
  nullWhen: t.nullable(t.timestamp()),
  lit: t.literal('v1'),
  words: t.array(t.string()),
  maybeWords: t.array(t.nullable(t.string())),
  nullList: t.nullable(t.array(t.timestamp())),
  flags: t.array(t.bool()),
  // Handed to the interpreter's column writers and readers:
  f32: t.float32(),
  sec: t.timestamp({ precision: 's' }),
  i64: t.int64(),
  i64n: t.int64({ as: 'number' }),
  price: t.decimal({ precision: 12, scale: 2 }),
  blob: t.bytes(),
  any: t.json(),
  list: t.array(t.uint32()),
  inner: Inner,
  maybeInner: t.optional(Inner),
  dict: t.map(t.string(), t.float64()),
  shape: Shape,
});

const edgeRow = (i: number, over: Record<string, unknown> = {}): Record<string, unknown> => ({
  flag: i % 2 === 0,
  i8: -128 + i,
  u16: 65_535 - i,
  i32: i % 3 === 0 ? -(2 ** 31) : 2 ** 31 - 1 - i,
  u32: 4_000_000_000 + i,
  f64: [1.5, -0, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_VALUE][i % 5],
  text: ['', 'a', 'héllo 🚀', 'an ascii string past sixteen bytes', '\u0000\uffff'][i % 5],
  color: ['red', 'green', 'blue'][i % 3],
  when: new Date(1_700_000_000_123 + i),
  micros: new Date(-1_000_000_001 - i),
  nanos: new Date(i),
  nullInt: i % 4 === 0 ? null : i,
  nullText: i % 3 === 0 ? null : `text ${i}`,
  nullWhen: i % 2 === 0 ? null : new Date(i * 1000),
  lit: 'v1',
  words: Array.from({ length: i % 5 }, (_, j) => (j % 2 === 0 ? `w${j}` : 'a word past twelve bytes')),
  maybeWords: i % 3 === 0 ? [] : ['x', null, 'yz'],
  nullList: i % 4 === 1 ? null : [new Date(i), new Date(-i * 1000)],
  flags: [true, false, i % 2 === 0],
  f32: 0.5,
  sec: new Date(-86_400_000),
  i64: -(2n ** 63n) + BigInt(i),
  i64n: Number.MAX_SAFE_INTEGER - i,
  price: '-1234567890.12',
  blob: new Uint8Array([0, i, 255]),
  any: { a: [i, 'two', null, true] },
  list: Array.from({ length: i % 4 }, (_, j) => j),
  inner: { a: i, b: `inner ${i}` },
  dict: { x: i },
  shape: i % 2 === 0 ? { kind: 'circle', radius: i } : { kind: 'rect', width: 1, height: 2 },
  // Arrow keeps one null for optional(nullable): absent reads back as null (docs/survival.md).
  both: i % 3 === 0 ? null : 'both',
  ...(i % 2 === 1 ? { maybeFlag: i % 3 === 0, maybeF64: i / 3 } : {}),
  ...(i % 3 === 1 ? { maybeColor: 'dark', maybeInner: { a: 1, b: '' } } : {}),
  ...over,
});

const edgeRows = Array.from({ length: 11 }, (_, i) => edgeRow(i));

/** Rows with one wrong value each, to compare the errors of both paths. */
const wrongRows: Record<string, unknown>[] = [
  { flag: 'yes' },
  { flag: undefined },
  { i8: 128 },
  { u16: -1 },
  { i32: 1.5 },
  { u32: '1' },
  { f64: '1' },
  { f64: null },
  { text: 5 },
  { text: 'lone \ud800 surrogate' },
  { color: 'mauve' },
  { color: null },
  { when: 'today' },
  { when: new Date(Number.NaN) },
  { nanos: new Date(8.64e15) },
  { maybeFlag: null },
  { nullInt: undefined },
  { nullInt: 2 ** 31 },
  { maybeColor: 'grey' },
  { lit: 'v2' },
  { words: ['a', 1] },
  { words: ['a', null] },
  { nullList: [new Date(0), null] },
  { flags: [1] },
  { f32: 1e40 },
  { i64: 1 },
  { list: [1, -1] },
  { inner: null },
  { shape: { kind: 'hexagon' } },
].map((over) => edgeRow(4, over));

const cases: [string, ObjectSchema, Record<string, unknown>[]][] = [
  ['Edge', Edge, edgeRows],
  ['Edge, more rows than a batch', Edge, Array.from({ length: 40 }, (_, i) => edgeRow(i))],
  ['Reading (timeseries)', Reading, timeseries(300, 5) as unknown as Record<string, unknown>[]],
  ['Record8', Record8, records(50, 3) as unknown as Record<string, unknown>[]],
  ['User', User, users(50, 3) as unknown as Record<string, unknown>[]],
];

describe.each(cases)('arrow: compiled against the interpreter: %s', (_, schema, rows) => {
  // Small batches, so that rows cross batch boundaries and batches start mid-array.
  const compiled = createArrowCodec({ schema, batchSize: 4 });
  const interpreted = createArrowCodec({ schema, batchSize: 4, compile: false });

  test('the compiled path is the one that runs, and the interpreter is not compiled', () => {
    expect(compiled.compiled).toBe(true);
    expect(interpreted.compiled).toBe(false);
  });

  test('valid rows are written by the generated writer itself (it declines a batch by throwing)', () => {
    const unit = compileArrow(buildRootPlan(schema).struct);
    expect(unit).toBeDefined();
    expect(() => unit?.columns(rows, 0, rows.length)).not.toThrow();
  });

  test('same bytes, same rows', () => {
    for (const slice of [rows, rows.slice(0, 1), rows.slice(3), []]) {
      const bytes = compiled.encode(slice);
      expect(Buffer.from(bytes).equals(Buffer.from(interpreted.encode(slice)))).toBe(true);
      const decoded = compiled.decode(bytes);
      expect(decoded).toStrictEqual(interpreted.decode(bytes));
      expect(decoded).toStrictEqual(slice);
    }
  });

  test('same outcome on every mutation of the bytes', () => {
    const sample = interpreted.encode(rows.slice(0, 6)).slice();
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
        (edits) => {
          const mutated = sample.slice();
          for (const [position, value] of edits) mutated[position % mutated.length] = value;
          expect(outcome(() => compiled.decode(mutated))).toStrictEqual(
            outcome(() => interpreted.decode(mutated)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  test('same outcome on truncations', () => {
    const bytes = interpreted.encode(rows.slice(0, 5)).slice();
    for (let cut = 0; cut < bytes.length; cut += 7) {
      const part = bytes.subarray(0, cut);
      expect(outcome(() => compiled.decode(part))).toStrictEqual(outcome(() => interpreted.decode(part)));
    }
  });

  test('streams decode to the same rows', async () => {
    const bytes = await readAll(compiled.encodeStream(rows));
    expect(Buffer.from(bytes).equals(Buffer.from(await readAll(interpreted.encodeStream(rows))))).toBe(true);
    const expected = await collect(interpreted.decodeStream(chunked(bytes, [7, 100])));
    expect(await collect(compiled.decodeStream(chunked(bytes, [7, 100])))).toStrictEqual(expected);
  });
});

describe('arrow: compiled errors', () => {
  const compiled = createArrowCodec({ schema: Edge, batchSize: 4 });
  const interpreted = createArrowCodec({ schema: Edge, batchSize: 4, compile: false });

  test('wrong rows fail with the same code, message and path, in any batch position', () => {
    for (const wrong of wrongRows) {
      for (const at of [0, 5, 10]) {
        const input = edgeRows.map((row, i) => (i === at ? wrong : row));
        const a = outcome(() => compiled.encode(input));
        expect(a.ok, show(wrong)).toBe(false);
        expect(a, show(wrong)).toStrictEqual(outcome(() => interpreted.encode(input)));
      }
    }
  });

  test('rows that are no objects fail the same way', () => {
    for (const wrong of [null, undefined, 'row', 7]) {
      const input = [edgeRows[0], wrong, edgeRows[1]];
      const a = outcome(() => compiled.encode(input as never));
      expect(a.ok).toBe(false);
      expect(a).toStrictEqual(outcome(() => interpreted.encode(input as never)));
    }
  });

  test('a batch with two bad values reports the interpreter’s first error', () => {
    // The writer knows members the readers do not. Row 0 has an unknown `b`, row 1 an unknown
    // `a`: the interpreter reads column `a` first and meets row 1's; a row-wise reader would
    // meet row 0's `b` first. The compiled reader leaves a failing batch to the interpreter.
    const field = (name: string, members: string[]) => t.enum(name, members);
    const writer = createArrowCodec({
      schema: t.object('Pair', { a: field('A', ['x', 'y', 'z']), b: field('B', ['p', 'q', 'r']) }),
    });
    const reader = t.object('Pair', { a: field('A', ['x', 'y']), b: field('B', ['p', 'q']) });
    const bytes = writer.encode([
      { a: 'x', b: 'r' },
      { a: 'z', b: 'p' },
    ]);
    const expected = outcome(() => createArrowCodec({ schema: reader, compile: false }).decode(bytes));
    expect(expected).toMatchObject({ ok: false, message: expect.stringContaining('x, y') });
    expect(outcome(() => createArrowCodec({ schema: reader }).decode(bytes))).toStrictEqual(expected);
  });

  test('a null in a column the reader’s schema holds non-null is refused, kind by kind', () => {
    // A writer that allows nulls, a reader that does not: Arrow accepts the schema (a nullable
    // field may hold no null), so the null is only found in the values.
    const kinds: [string, Schema, unknown][] = [
      ['bool', t.bool(), true],
      ['int32', t.int32(), 1],
      ['float64', t.float64(), 1.5],
      ['int64', t.int64(), 1n],
      ['string', t.string(), 'x'],
      ['enum', t.enum('E', ['a', 'b']), 'a'],
      ['timestamp', t.timestamp(), new Date(0)],
      ['list item', t.array(t.string()), ['x']],
      ['list', t.array(t.int32()), [1]],
    ];
    for (const [label, kind, value] of kinds) {
      const nullable = label === 'list item' ? t.array(t.nullable(t.string())) : t.nullable(kind);
      const writer = createArrowCodec({ schema: t.object('Row', { id: t.int32(), v: nullable }) });
      const bytes = writer.encode([
        { id: 1, v: value },
        { id: 2, v: label === 'list item' ? ['x', null] : null },
      ]);
      const reader = t.object('Row', { id: t.int32(), v: kind });
      const expected = outcome(() => createArrowCodec({ schema: reader, compile: false }).decode(bytes));
      expect(expected.ok, label).toBe(false);
      expect(
        outcome(() => createArrowCodec({ schema: reader }).decode(bytes)),
        label,
      ).toStrictEqual(expected);
    }
  });

  test('a failed encode leaves the next one whole', () => {
    expect(outcome(() => compiled.encode([edgeRow(1, { text: 1 })])).ok).toBe(false);
    expect(Buffer.from(compiled.encode(edgeRows)).equals(Buffer.from(interpreted.encode(edgeRows)))).toBe(
      true,
    );
  });
});

describe('arrow: compiled against the interpreter on a peer’s physical types', () => {
  // flechette writes the columns in other widths, units and encodings than wirekit would (its
  // timestamps take milliseconds, written here in nanoseconds): the
  // compiled codec leaves such batches to the interpreter, so values and errors must be its own.
  const Peer = t.object('Peer', {
    small: t.uint8(),
    big: t.int64(),
    when: t.timestamp({ precision: 'ms' }),
    name: t.string(),
    color: t.enum('Color', ['red', 'green']),
    ratio: t.float32(),
    tags: t.array(t.nullable(t.string())),
  });
  const columns = (small: number[], when: number[], ratio: number[]) =>
    tableToIPC(
      tableFromArrays(
        {
          small,
          big: [1, -2, 3],
          when,
          name: ['a', 'b', 'a'],
          color: ['red', 'green', 'red'],
          ratio,
          tags: [['x'], [], [null]],
        },
        {
          types: {
            small: int32(),
            big: int32(),
            when: timestamp(TimeUnit.NANOSECOND),
            name: dictionary(utf8()),
            color: utf8(),
            ratio: float64(),
            tags: list(utf8()),
          },
        },
      ),
      { format: 'stream' },
    ) as Uint8Array;
  const good = columns([0, 255, 7], [0, 1, -5], [0.5, -2, 1.5]);
  const bad = [
    columns([0, 256, 7], [0, 1, -5], [0.5, -2, 1.5]),
    columns([0, 255, 7], [0, 1.5, -5], [0.5, -2, 1.5]),
    columns([0, 255, 7], [0, 1, -5], [0.5, -2, 0.1]),
  ];
  const compiled = createArrowCodec({ schema: Peer });
  const interpreted = createArrowCodec({ schema: Peer, compile: false });

  test('values where they fit', () => {
    const rows = interpreted.decode(good);
    expect(rows).toStrictEqual([
      { small: 0, big: 1n, when: new Date(0), name: 'a', color: 'red', ratio: 0.5, tags: ['x'] },
      { small: 255, big: -2n, when: new Date(1), name: 'b', color: 'green', ratio: -2, tags: [] },
      { small: 7, big: 3n, when: new Date(-5), name: 'a', color: 'red', ratio: 1.5, tags: [null] },
    ]);
    expect(compiled.decode(good)).toStrictEqual(rows);
  });

  test('the same error, with its row and column, where a value does not fit', () => {
    const messages = bad.map((bytes) => {
      const expected = outcome(() => interpreted.decode(bytes));
      expect(outcome(() => compiled.decode(bytes))).toStrictEqual(expected);
      return (expected as { message: string }).message;
    });
    expect(messages[0]).toMatch(/^\[1\]\.small: 256 is outside uint8/);
    expect(messages[1]).toMatch(/^\[1\]\.when: a timestamp in ns holds a part finer/);
    expect(messages[2]).toMatch(/^\[2\]\.ratio: 0\.1 is not exactly a float32/);
    // The format is the error's `format`, no longer a prefix of its message, compiled or not.
    for (const bytes of bad) {
      for (const codec of [compiled, interpreted]) {
        expect(() => codec.decode(bytes)).toThrow(expect.objectContaining({ format: 'arrow' }));
      }
    }
  });

  test('the same outcome on every mutation of a peer’s bytes', () => {
    expectSameOutcomeOnMutations(
      [good, ...bad],
      (bytes) => compiled.decode(bytes),
      (bytes) => interpreted.decode(bytes),
    );
  });
});
