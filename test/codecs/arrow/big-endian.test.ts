/**
 * Arrow IPC from big-endian writers (Schema.fbs endianness Big: Arrow C++ on s390x, say), whose
 * bodies hold every value wider than a byte reversed. No writer here makes them, so the tests
 * rewrite little-endian streams from pyarrow and apache-arrow (test/support/arrow-ipc-rewrite.ts),
 * and pyarrow, which reads big-endian input by swapping it, vouches for each rewrite: its reading
 * of the big-endian bytes, written back plainly, must read as the original.
 */
import { IntervalDayTime, IntervalYearMonth, makeData, makeVector, Table, tableToIPC } from 'apache-arrow';
import { beforeAll, describe, expect, test } from 'vitest';
import { createArrowCodec } from '../../../src/codecs/arrow/index.js';
import { t } from '../../../src/index.js';
import { compressBodies, streamToFile, toBigEndian } from '../../support/arrow-ipc-rewrite.js';
import {
  noPyarrowVariants,
  pyarrowRewrite,
  pyarrowVariants,
  VariantOrders,
} from '../../support/pyarrow-ipc.js';
import { chunked, collect } from '../../support/streams.js';
import { has } from '../../support/tools.js';

const usable = has('venv:pyarrow');
let variant = noPyarrowVariants;
beforeAll(() => {
  if (usable) variant = pyarrowVariants();
});

const schemaless = createArrowCodec();

/** Intervals of the two units pyarrow cannot make, from apache-arrow's writer. */
function intervalStream(): Uint8Array {
  const yearMonth = makeData({ type: new IntervalYearMonth(), length: 3, data: Int32Array.of(14, -1, 0) });
  const dayTime = makeData({
    type: new IntervalDayTime(),
    length: 3,
    nullCount: 1,
    nullBitmap: Uint8Array.of(0b101),
    data: Int32Array.of(2, 3_600_000, 9, 9, -1, -86_399_999),
  });
  const table = new Table({ ym: makeVector(yearMonth), dt: makeVector(dayTime) });
  return tableToIPC(table, 'stream');
}

describe.skipIf(!usable)('big-endian streams and files read as their little-endian originals', () => {
  test('pyarrow reads each big-endian rewrite as the original (so the rewrites are right)', () => {
    for (const original of [
      variant('swappable.plain.arrows'),
      variant('orders.plain.arrows'),
      intervalStream(),
    ]) {
      const big = toBigEndian(original);
      expect(Buffer.from(big).equals(original)).toBe(false);
      expect(schemaless.decode(pyarrowRewrite(big))).toStrictEqual(schemaless.decode(original));
      expect(schemaless.decode(pyarrowRewrite(streamToFile(big)))).toStrictEqual(schemaless.decode(original));
    }
  });

  test('every kind of column pyarrow can swap, as a stream and as a file, without a schema', () => {
    const original = variant('swappable.plain.arrows');
    const rows = schemaless.decode(original);
    expect(rows).toHaveLength(6);
    expect(schemaless.decode(toBigEndian(original))).toStrictEqual(rows);
    expect(schemaless.decode(streamToFile(toBigEndian(original)))).toStrictEqual(rows);
  });

  test('with a schema: the compiled and the interpreted reader, and decodeTable', () => {
    const original = variant('orders.plain.arrows');
    const big = toBigEndian(original);
    for (const compile of [true, false]) {
      const codec = createArrowCodec({ schema: VariantOrders, compile });
      expect(codec.decode(big)).toStrictEqual(codec.decode(original));
    }
    const table = createArrowCodec({ schema: VariantOrders }).decodeTable(big);
    expect(table.getChild('id')?.toArray()).toEqual(BigInt64Array.of(1n, 2n, 3n, 4n, 5n));
  });

  test('compressed big-endian bodies: inflated, then swapped', () => {
    const original = variant('swappable.plain.arrows');
    for (const codec of ['lz4', 'zstd'] as const) {
      const bytes = compressBodies(toBigEndian(original), codec);
      expect(schemaless.decode(pyarrowRewrite(bytes))).toStrictEqual(schemaless.decode(original));
      expect(schemaless.decode(bytes)).toStrictEqual(schemaless.decode(original));
    }
  });

  test('read as the bytes arrive, one at a time', async () => {
    const original = variant('swappable.plain.arrows');
    const rows = await collect(schemaless.decodeStream(chunked(toBigEndian(original), [1])));
    expect(rows).toStrictEqual(schemaless.decode(original));
  });
});

describe('big-endian columns pyarrow cannot swap', () => {
  test('intervals of every unit', () => {
    const original = intervalStream();
    const rows = schemaless.decode(toBigEndian(original));
    expect(rows).toStrictEqual(schemaless.decode(original));
    expect(rows[1]).toStrictEqual({ ym: { months: -1, days: 0, nanoseconds: 0 }, dt: null });
  });

  test.skipIf(!usable)(
    'string and binary views (pyarrow refuses to swap them; wirekit swaps the view integers)',
    () => {
      const original = variant('kinds.plain.arrows');
      expect(schemaless.decode(toBigEndian(original))).toStrictEqual(schemaless.decode(original));
    },
  );

  test('a big-endian schema field is no longer refused', () => {
    const Row = t.object('Row', { n: t.int32(), s: t.string() });
    const codec = createArrowCodec({ schema: Row });
    const rows = [
      { n: 1, s: 'a' },
      { n: -2, s: 'bé' },
      { n: 0x01020304, s: '' },
    ];
    const big = toBigEndian(codec.encode(rows));
    expect(codec.decode(big)).toEqual(rows);
  });
});
