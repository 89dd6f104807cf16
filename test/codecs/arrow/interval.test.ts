/**
 * Arrow's Interval types (YEAR_MONTH, DAY_TIME, MONTH_DAY_NANO), as pyarrow, DuckDB and Flight
 * servers send them. Every unit reads as one shape, `{ months, days, nanoseconds }` (a DAY_TIME's
 * milliseconds in nanoseconds); with a schema, into an object of exactly those three integer
 * fields, each value checked against its field's kind. apache-arrow's writer makes all three units,
 * pyarrow the third.
 */
import {
  DenseUnion,
  Field,
  Int32,
  IntervalDayTime,
  IntervalMonthDayNano,
  IntervalYearMonth,
  makeData,
  makeVector,
  Table,
  Type,
  tableToIPC,
} from 'apache-arrow';
import { beforeAll, describe, expect, test } from 'vitest';
import { createArrowCodec } from '../../../src/codecs/arrow/index.js';
import { createCodec } from '../../../src/codecs/registry.js';
import { t } from '../../../src/index.js';
import { codeOf } from '../../support/code-of.js';
import { outcome } from '../../support/outcome.js';
import { noPyarrowVariants, pyarrowVariants } from '../../support/pyarrow-ipc.js';
import { has } from '../../support/tools.js';

const usable = has('venv:pyarrow');
let variant = noPyarrowVariants;
beforeAll(() => {
  if (usable) variant = pyarrowVariants();
});

/** Rows 0..2: id, and one interval of each unit; row 1's intervals are null. */
function intervals(): Uint8Array {
  const valid = Uint8Array.of(0b101);
  const ym = makeData({
    type: new IntervalYearMonth(),
    length: 3,
    nullCount: 1,
    nullBitmap: valid,
    data: Int32Array.of(14, 0, -250),
  });
  const dt = makeData({
    type: new IntervalDayTime(),
    length: 3,
    nullCount: 1,
    nullBitmap: valid,
    data: Int32Array.of(2, 3_600_000, 0, 0, -1, -86_399_999),
  });
  const mdnWords = new Int32Array(12);
  const mdnView = new DataView(mdnWords.buffer);
  [
    [1, 2, 3n],
    [0, 0, 0n],
    [-7, 31, -(2n ** 62n)],
  ].forEach(([months, days, nanos], i) => {
    mdnView.setInt32(16 * i, months as number, true);
    mdnView.setInt32(16 * i + 4, days as number, true);
    mdnView.setBigInt64(16 * i + 8, nanos as bigint, true);
  });
  const mdn = makeData({
    type: new IntervalMonthDayNano(),
    length: 3,
    nullCount: 1,
    nullBitmap: valid,
    data: mdnWords,
  });
  const id = makeData({ type: new Int32(), length: 3, data: Int32Array.of(1, 2, 3) });
  const table = new Table({
    id: makeVector(id),
    ym: makeVector(ym),
    dt: makeVector(dt),
    mdn: makeVector(mdn),
  });
  return tableToIPC(table, 'stream');
}

const span = (months: number, days: number, nanoseconds: number | bigint) => ({ months, days, nanoseconds });

describe('intervals without a schema', () => {
  test('every unit as { months, days, nanoseconds }; nulls as null', () => {
    expect(createArrowCodec().decode(intervals())).toStrictEqual([
      { id: 1, ym: span(14, 0, 0), dt: span(0, 2, 3_600_000_000_000), mdn: span(1, 2, 3) },
      { id: 2, ym: null, dt: null, mdn: null },
      {
        id: 3,
        ym: span(-250, 0, 0),
        dt: span(0, -1, -86_399_999_000_000),
        // Past 2^53 a count stays exact, as a bigint (the integer rule of schemaless reads).
        mdn: span(-7, 31, -(2n ** 62n)),
      },
    ]);
  });

  test.skipIf(!usable)('month_day_nano intervals from pyarrow', () => {
    const rows = createArrowCodec().decode(variant('kinds.plain.arrows'));
    expect(rows.map((row) => (row as { mdn: unknown }).mdn)).toStrictEqual([
      span(1, 2, 3),
      null,
      span(-1, -30, -(2n ** 62n)),
      span(0, 0, 0),
      span(2 ** 31 - 1, -(2 ** 31), 2n ** 63n - 1n),
      span(12, 0, 1_000_000),
    ]);
  });

  test('an interval is an object: it counts toward maxDepth', () => {
    const shallow = createArrowCodec({ limits: { maxDepth: 2 } });
    expect(codeOf(() => shallow.decode(intervals()))).toBe('WK_LIMIT_DEPTH');
  });

  test('a union read one entry at a time converts one interval at a time (linear work)', () => {
    const count = 40_000;
    const spans = makeData({
      type: new IntervalYearMonth(),
      length: count,
      data: new Int32Array(count).fill(3),
    });
    const union = makeData({
      type: new DenseUnion([0], [new Field('span', spans.type, true)]),
      length: count,
      typeIds: new Int8Array(count),
      valueOffsets: Int32Array.from({ length: count }, (_, i) => i),
      children: [spans],
    });
    const bytes = tableToIPC(new Table({ u: makeVector(union) }), 'stream');
    const started = performance.now();
    const rows = createArrowCodec().decode(bytes);
    // Converting the whole column for each entry took minutes here; one at a time, milliseconds.
    expect(performance.now() - started).toBeLessThan(5000);
    expect(rows[count - 1]).toStrictEqual({ u: span(3, 0, 0) });
  });

  test('decodeTable keeps the Interval columns as they are', () => {
    const table = createArrowCodec().decodeTable(intervals());
    expect(table.getChild('dt')?.type.typeId).toBe(Type.Interval);
    expect(Array.from(table.getChild('dt')?.get(0) as Int32Array)).toEqual([2, 3_600_000]);
  });
});

const Span = t.object('Span', { months: t.int32(), days: t.int32(), nanoseconds: t.int64() });
const Row = t.object('Row', {
  id: t.int32(),
  ym: t.nullable(Span),
  dt: t.nullable(Span),
  mdn: t.nullable(Span),
});

describe('intervals with a schema: an object of months, days and nanoseconds', () => {
  test('read by the compiled and the interpreted reader alike, as the same object in JSON', () => {
    const expected = [
      { id: 1, ym: span(14, 0, 0n), dt: span(0, 2, 3_600_000_000_000n), mdn: span(1, 2, 3n) },
      { id: 2, ym: null, dt: null, mdn: null },
      {
        id: 3,
        ym: span(-250, 0, 0n),
        dt: span(0, -1, -86_399_999_000_000n),
        mdn: span(-7, 31, -(2n ** 62n)),
      },
    ];
    for (const compile of [true, false])
      expect(createArrowCodec({ schema: Row, compile }).decode(intervals())).toStrictEqual(expected);
    // One schema means the same everywhere: JSON carries the same value.
    const json = createCodec('json', { schema: Row });
    expect(json.decode(json.encode(expected[2] as never))).toStrictEqual(expected[2]);
  });

  test('each part must fit its field: a narrower kind refuses what it cannot hold, with the path', () => {
    const Narrow = t.object('Narrow', {
      id: t.int32(),
      ym: t.nullable(t.object('Small', { months: t.int8(), days: t.int8(), nanoseconds: t.int64() })),
      dt: t.nullable(Span),
      mdn: t.nullable(Span),
    });
    expect(outcome(() => createArrowCodec({ schema: Narrow }).decode(intervals()))).toMatchObject({
      ok: false,
      code: 'WK_DECODE_SCHEMA_MISMATCH',
      path: [2, 'ym', 'months'],
    });
    const AsNumber = t.object('AsNumber', {
      id: t.int32(),
      ym: t.nullable(Span),
      dt: t.nullable(Span),
      mdn: t.nullable(
        t.object('N', { months: t.int32(), days: t.int32(), nanoseconds: t.int64({ as: 'number' }) }),
      ),
    });
    expect(outcome(() => createArrowCodec({ schema: AsNumber }).decode(intervals()))).toMatchObject({
      ok: false,
      code: 'WK_DECODE_SCHEMA_MISMATCH',
      path: [2, 'mdn', 'nanoseconds'],
    });
  });

  test('another object, or a null where the schema allows none, is a mismatch', () => {
    const Other = t.object('Other', {
      id: t.int32(),
      ym: t.nullable(t.object('Months', { months: t.int32() })),
      dt: t.nullable(Span),
      mdn: t.nullable(Span),
    });
    expect(codeOf(() => createArrowCodec({ schema: Other }).decode(intervals()))).toBe(
      'WK_DECODE_SCHEMA_MISMATCH',
    );
    const Required = t.object('Required', { id: t.int32(), ym: Span, dt: Span, mdn: Span });
    expect(outcome(() => createArrowCodec({ schema: Required }).decode(intervals()))).toMatchObject({
      ok: false,
      code: 'WK_DECODE_SCHEMA_MISMATCH',
      path: [1, 'ym'],
    });
  });
});
