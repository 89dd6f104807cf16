/**
 * Arrow's Interval types as wirekit reads them: one value shape for all three units, an object
 * `{ months, days, nanoseconds }` (Arrow's most general interval, MONTH_DAY_NANO; the others are
 * it with parts left at zero, a DAY_TIME's milliseconds counted in nanoseconds). wirekit has no
 * interval kind, so with a schema an Interval column reads into an object of exactly those three
 * integer fields, which is also what other formats carry for such a value.
 *
 * The column reader reads an Interval column through the Struct column it is converted to here: Int32
 * months and days and Int64 nanoseconds, sharing the interval's validity, so every check and
 * conversion of integers (ranges with a schema, numbers or bigints without) applies unchanged.
 */
import { type Data, Field, Int32, Int64, type Interval, IntervalUnit, Struct, Type } from 'apache-arrow';
import { type NullInfo, newData } from '../data.js';
import { ValueFault } from './fault.js';

export const intervalFieldNames = ['months', 'days', 'nanoseconds'] as const;

/** The fields an Interval column is read as. */
export const intervalFields: readonly Field[] = [
  new Field('months', new Int32(), false),
  new Field('days', new Int32(), false),
  new Field('nanoseconds', new Int64(), false),
];

const intervalStruct = new Struct([...intervalFields]);

export function isInterval(data: Data): boolean {
  return data.typeId === Type.Interval;
}

type Reader<P, C> = (plan: P, data: Data, start: number, count: number, ctx: C) => unknown[];

/**
 * Entries [start, start + count) of an Interval column, read by `read` (a struct reader) as the
 * Struct column of their parts. Only that range is converted, so a reader that reads entries one
 * at a time (a union's) does linear work; a fault's index is turned back into the column's.
 */
export function readIntervals<P, C>(
  read: Reader<P, C>,
  plan: P,
  data: Data,
  start: number,
  count: number,
  ctx: C,
): unknown[] {
  try {
    return read(plan, intervalsAsStruct(data, start, count), 0, count, ctx);
  } catch (error) {
    if (!(error instanceof ValueFault)) throw error;
    throw new ValueFault(error.index + start, error.message, error.path);
  }
}

/** Entries [start, start + count) of an Interval column as a Struct column of their parts (copies). */
function intervalsAsStruct(data: Data, start: number, count: number): Data<Struct> {
  const words = data.values as Int32Array;
  const months = new Int32Array(count);
  const days = new Int32Array(count);
  const nanoseconds = new BigInt64Array(count);
  switch ((data.type as Interval).unit) {
    case IntervalUnit.YEAR_MONTH:
      months.set(words.subarray(start, start + count));
      break;
    case IntervalUnit.DAY_TIME:
      for (let k = 0; k < count; k++) {
        days[k] = words[2 * (start + k)] as number;
        nanoseconds[k] = BigInt(words[2 * (start + k) + 1] as number) * 1_000_000n;
      }
      break;
    default: {
      // Each value is 16 bytes, in native order after load.ts: two int32s, then an int64.
      const view = new DataView(words.buffer, words.byteOffset + 16 * start, 16 * count);
      for (let k = 0; k < count; k++) {
        months[k] = view.getInt32(16 * k, true);
        days[k] = view.getInt32(16 * k + 4, true);
        nanoseconds[k] = view.getBigInt64(16 * k + 8, true);
      }
    }
  }
  const validity = validityOf(data, start, count);
  const column = (field: Field, values: Int32Array | BigInt64Array) =>
    newData(field.type, count, validity, { values });
  const children = [
    column(intervalFields[0] as Field, months),
    column(intervalFields[1] as Field, days),
    column(intervalFields[2] as Field, nanoseconds),
  ];
  return newData(intervalStruct, count, validity, {}, children) as Data<Struct>;
}

/** The validity of entries [start, start + count), its bits moved to start at bit 0. */
function validityOf(data: Data, start: number, count: number): NullInfo {
  if (data.nullCount === 0) return { nullCount: 0 };
  const source = data.nullBitmap as Uint8Array;
  const nullBitmap = new Uint8Array((count + 7) >> 3);
  let nullCount = 0;
  for (let k = 0; k < count; k++) {
    const i = start + k;
    if ((((source[i >> 3] as number) >> (i & 7)) & 1) === 1)
      nullBitmap[k >> 3] = (nullBitmap[k >> 3] as number) | (1 << (k & 7));
    else nullCount++;
  }
  return { nullCount, nullBitmap };
}
