/**
 * Arrow's Interval types as wirekit reads them: one value shape for all three units, an object
 * `{ months, days, nanoseconds }` (Arrow's most general interval, MONTH_DAY_NANO; the others are
 * it with parts left at zero, a DAY_TIME's milliseconds counted in nanoseconds). wirekit has no
 * interval kind, so with a schema an Interval column reads into an object of exactly those three
 * integer fields, which is also what other formats carry for such a value.
 *
 * Both readers read an Interval column through the Struct column it is viewed as here: Int32
 * months and days and Int64 nanoseconds, sharing the interval's validity, so every check and
 * conversion of integers (ranges with a schema, numbers or bigints without) applies unchanged.
 */
import { type Data, Field, Int32, Int64, type Interval, IntervalUnit, Struct, Type } from 'apache-arrow';
import { newData } from './data.js';

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

/** An Interval column as the Struct column of its months, days and nanoseconds (copies). */
export function intervalAsStruct(data: Data): Data<Struct> {
  const length = data.length;
  const words = data.values as Int32Array;
  const months = new Int32Array(length);
  const days = new Int32Array(length);
  const nanoseconds = new BigInt64Array(length);
  switch ((data.type as Interval).unit) {
    case IntervalUnit.YEAR_MONTH:
      months.set(words.subarray(0, length));
      break;
    case IntervalUnit.DAY_TIME:
      for (let i = 0; i < length; i++) {
        days[i] = words[2 * i] as number;
        nanoseconds[i] = BigInt(words[2 * i + 1] as number) * 1_000_000n;
      }
      break;
    default: {
      // Each value is 16 bytes, in native order after load.ts: two int32s, then an int64.
      const wide = new BigInt64Array(words.buffer.slice(words.byteOffset, words.byteOffset + 16 * length));
      for (let i = 0; i < length; i++) {
        months[i] = words[4 * i] as number;
        days[i] = words[4 * i + 1] as number;
        nanoseconds[i] = wide[2 * i + 1] as bigint;
      }
    }
  }
  const validity = { nullCount: data.nullCount, nullBitmap: data.nullBitmap };
  const column = (field: Field, values: Int32Array | BigInt64Array) =>
    newData(field.type, length, validity, { values });
  const children = [
    column(intervalFields[0] as Field, months),
    column(intervalFields[1] as Field, days),
    column(intervalFields[2] as Field, nanoseconds),
  ];
  return newData(intervalStruct, length, validity, {}, children) as Data<Struct>;
}
