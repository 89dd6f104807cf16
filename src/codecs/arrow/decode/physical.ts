/**
 * Values of checked Data (see load.ts) as they are stored, whatever the physical type among those
 * that mean the same kind of value: integers of any width and signedness, floats of any precision,
 * timestamps of any unit and dates, decimals of any width and scale, text and bytes with 32- or
 * 64-bit offsets or as views, fixed-size binary, dictionary-encoded values. The schema's leaves
 * (scalars.ts, when a peer wrote a compatible type) and the leaves read without a schema
 * (stored.ts) read through these, so that a value means the same either way.
 */
import { type Data, type Dictionary, Type } from 'apache-arrow';
import { asciiText, isAscii, utf8Text } from '../../../util/node-runtime.js';
import { fault } from './fault.js';
import { narrowOffsets } from './load.js';

export type TimeUnitName = 's' | 'ms' | 'us' | 'ns';
export const unitNames: readonly TimeUnitName[] = ['s', 'ms', 'us', 'ns'];

interface IntType {
  readonly bitWidth: number;
  readonly isSigned: boolean;
}

/** The width and signedness of an Int column (or of a dictionary's indices). */
export function intTypeOf(data: Data): IntType {
  return data.type as unknown as IntType;
}

const two32 = 4_294_967_296;

/**
 * Entry i of an integer column as a number when it is a safe integer, else as a bigint: the rule
 * that never loses a digit. 64-bit values below 2^53 are read as two halves, without a BigInt.
 */
export function integerReader(data: Data): (i: number) => number | bigint {
  const { bitWidth, isSigned } = intTypeOf(data);
  if (bitWidth < 64) {
    const values = data.values as ArrayLike<number>;
    return (i) => values[i] as number;
  }
  const values = data.values as BigInt64Array | BigUint64Array;
  const words = new Int32Array(values.buffer, values.byteOffset, 2 * data.length);
  return (i) => {
    const high = words[2 * i + 1] as number;
    const low = (words[2 * i] as number) >>> 0;
    if (isSigned ? high >= -0x200000 && high < 0x200000 : high >= 0 && high < 0x200000) {
      const value = high * two32 + low;
      // -2^53 fits a double exactly, yet is no safe integer: its neighbours do not.
      if (value !== -9_007_199_254_740_992) return value;
    }
    return values[i] as bigint;
  };
}

/** A float16 (IEEE 754 binary16) from its 16 bits. */
export function halfToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 31) return fraction === 0 ? sign * Number.POSITIVE_INFINITY : Number.NaN;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/** Entry i of a Float16, Float32 or Float64 column, as a number (every one is exact). */
export function floatReader(data: Data): (i: number) => number {
  const values = data.values as ArrayLike<number>;
  if ((data.type as unknown as { precision: number }).precision === 0)
    return (i) => halfToNumber(values[i] as number);
  return (i) => values[i] as number;
}

/** The unit and stored count of a temporal column: dates count days (Date32) or milliseconds. */
interface Counts {
  /** 0 s, 1 ms, 2 us, 3 ns. */
  readonly unit: number;
  readonly count: (i: number) => bigint;
}

function countsOf(data: Data): Counts {
  const values = data.values as ArrayLike<number | bigint>;
  if (data.typeId === Type.Date) {
    if ((data.type as unknown as { unit: number }).unit === 0)
      return { unit: 0, count: (i) => BigInt(values[i] as number) * 86_400n };
    return { unit: 1, count: (i) => values[i] as bigint };
  }
  const unit = (data.type as unknown as { unit: number }).unit;
  if (data.typeId === Type.Time && unit < 2) return { unit, count: (i) => BigInt(values[i] as number) };
  return { unit, count: (i) => values[i] as bigint };
}

const powersOf1000 = [1n, 1000n, 1_000_000n, 1_000_000_000n];

/**
 * Entry i of a Timestamp or Date column as a Date, for a schema (or default) of unit `unit`: a
 * stored value with a non-zero part finer than `unit` is refused (a schema's unit is what its
 * values hold), then sub-millisecond parts are rounded toward the past, since a Date holds
 * milliseconds.
 */
export function dateReader(data: Data, unit: TimeUnitName): (i: number) => Date {
  const { unit: stored, count } = countsOf(data);
  const wanted = unitNames.indexOf(unit);
  const finer = stored > wanted ? (powersOf1000[stored - wanted] as bigint) : 1n;
  const toMillis = stored > 1 ? (powersOf1000[stored - 1] as bigint) : 1n;
  const scale = stored === 0 ? 1000 : 1;
  return (i) => {
    const value = count(i);
    if (finer !== 1n && value % finer !== 0n)
      fault(i, `a timestamp in ${unitNames[stored]} holds a part finer than the schema's unit (${unit})`);
    let millis: number;
    if (toMillis === 1n) millis = Number(value) * scale;
    else {
      let quotient = value / toMillis;
      if (value % toMillis !== 0n && value < 0n) quotient -= 1n;
      millis = Number(quotient);
    }
    if (!(Math.abs(millis) <= 8.64e15)) fault(i, 'a timestamp is outside the range of Date');
    return new Date(millis);
  };
}

/** The unit a Timestamp or Date column is stored in, by name. */
export function storedUnit(data: Data): TimeUnitName {
  return unitNames[countsOf(data).unit] as TimeUnitName;
}

/** Entry i of a Time32 or Time64 column as "HH:MM:SS" with as many fraction digits as its unit has. */
export function timeOfDayReader(data: Data): (i: number) => string {
  const { unit, count } = countsOf(data);
  const perSecond = powersOf1000[unit] as bigint;
  return (i) => {
    const value = count(i);
    if (value < 0n || value >= 86_400n * perSecond) fault(i, 'a time of day is outside 00:00 to 24:00');
    const seconds = Number(value / perSecond);
    const two = (n: number) => String(n).padStart(2, '0');
    const text = `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
    if (unit === 0) return text;
    return `${text}.${String(value % perSecond).padStart(3 * unit, '0')}`;
  };
}

/** Entry i of a Duration column as a count of its unit: a number when safe, else a bigint. */
export function durationReader(data: Data): (i: number) => number | bigint {
  const values = data.values as BigInt64Array;
  return (i) => {
    const value = values[i] as bigint;
    return value >= -9_007_199_254_740_991n && value <= 9_007_199_254_740_991n ? Number(value) : value;
  };
}

interface DecimalType {
  readonly precision: number;
  readonly scale: number;
  readonly bitWidth: number;
}

export function decimalTypeOf(data: Data): DecimalType {
  return data.type as unknown as DecimalType;
}

/** Entry i of a Decimal column of any width: its unscaled integer. */
export function unscaledReader(data: Data): (i: number) => bigint {
  const { bitWidth } = decimalTypeOf(data);
  const values = data.values as Uint32Array;
  if (bitWidth === 32) {
    const signed = new Int32Array(values.buffer, values.byteOffset, values.length);
    return (i) => BigInt(signed[i] as number);
  }
  // load.ts aligns decimal words to 4 bytes; 64-bit views need 8.
  const big =
    values.byteOffset % 8 === 0
      ? new BigUint64Array(values.buffer, values.byteOffset, values.length >> 1)
      : new BigUint64Array(values.slice().buffer);
  const words = bitWidth / 64;
  const bits = BigInt(bitWidth);
  return (i) => {
    let unscaled = 0n;
    for (let w = words - 1; w >= 0; w--) unscaled = (unscaled << 64n) | (big[i * words + w] as bigint);
    return BigInt.asIntN(Number(bits), unscaled);
  };
}

/** The text of unscaled × 10^-scale: no exponent, exactly `scale` fraction digits (none if negative). */
export function decimalText(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n;
  const magnitude = negative ? -unscaled : unscaled;
  let text: string;
  if (scale <= 0) text = (magnitude * 10n ** BigInt(-scale)).toString();
  else {
    const digits = magnitude.toString().padStart(scale + 1, '0');
    text = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  }
  return negative ? `-${text}` : text;
}

/** Offsets of a variable-size column (or the bounds of each fixed-size list) as 32-bit values. */
export function offsetsOf(data: Data): Int32Array {
  if (data.typeId === Type.FixedSizeList) {
    const size = (data.type as unknown as { listSize: number }).listSize;
    const out = new Int32Array(data.length + 1);
    for (let i = 1; i <= data.length; i++) out[i] = i * size;
    return out;
  }
  return narrowOffsets(data.valueOffsets as Int32Array | BigInt64Array);
}

/** The entries of a dictionary-encoded column as numbers (64-bit indices were checked in range). */
export function indicesOf(data: Data): ArrayLike<number> {
  const values = data.values as ArrayLike<number> | BigInt64Array | BigUint64Array;
  if (!(values instanceof BigInt64Array || values instanceof BigUint64Array)) return values;
  return Float64Array.from(values, (index) => Number(index));
}

/**
 * Entry i of a Utf8 or LargeUtf8 column (UTF-8 checked in load.ts). An all-ASCII run is decoded
 * once and sliced, several times faster than a decode per value; slices of 13 characters or more
 * share that string in V8, so a kept value keeps its batch's text alive, as a view of the input
 * would.
 */
export function plainStringReader(data: Data, start: number, count: number): (i: number) => string {
  if (data.typeId === Type.Utf8View) {
    const value = viewReader(data);
    return (i) => {
      const bytes = value(i);
      return utf8Text(bytes, 0, bytes.length);
    };
  }
  const bytes = data.values as Uint8Array;
  const offsets = data.typeId === Type.Utf8 ? (data.valueOffsets as Int32Array) : offsetsOf(data);
  const from = offsets[start] as number;
  const to = offsets[start + count] as number;
  if (isAscii(bytes.subarray(from, to))) {
    const all = asciiText(bytes, from, to);
    return (i) => all.slice((offsets[i] as number) - from, (offsets[i + 1] as number) - from);
  }
  return (i) => utf8Text(bytes, offsets[i] as number, offsets[i + 1] as number);
}

/**
 * Entry i of a column of values looked up in a dictionary: `decoded` holds the dictionary's values
 * (an entry a reader refuses is undefined, and is refused only where a row uses it).
 */
export function dictionaryReader<T>(
  data: Data,
  decoded: readonly (T | undefined)[],
  refuse: (i: number) => never,
): (i: number) => T {
  const indices = indicesOf(data);
  return (i) => {
    const value = decoded[indices[i] as number];
    return value === undefined ? refuse(i) : value;
  };
}

/** The dictionary id of a dictionary-encoded column. */
export function dictionaryId(data: Data): number {
  return (data.type as Dictionary).id;
}

/** Entry i of a Utf8View or BinaryView column, as a view of its bytes (checked in load.ts). */
function viewReader(data: Data): (i: number) => Uint8Array {
  const views = data.values as Uint8Array;
  const words = new DataView(views.buffer, views.byteOffset, views.byteLength);
  const buffers = data.variadicBuffers;
  return (i) => {
    const size = words.getInt32(16 * i, true);
    if (size <= 12) return views.subarray(16 * i + 4, 16 * i + 4 + size);
    const offset = words.getInt32(16 * i + 12, true);
    return (buffers[words.getInt32(16 * i + 8, true)] as Uint8Array).subarray(offset, offset + size);
  };
}

/** Entry i of a Binary, LargeBinary, BinaryView or FixedSizeBinary column, as a copy. */
export function bytesReader(data: Data): (i: number) => Uint8Array {
  if (data.typeId === Type.BinaryView) {
    const value = viewReader(data);
    return (i) => value(i).slice();
  }
  const bytes = data.values as Uint8Array;
  // A copy: a view would keep the whole input alive and let callers write into it.
  if (data.typeId === Type.FixedSizeBinary) {
    const width = (data.type as unknown as { byteWidth: number }).byteWidth;
    return (i) => bytes.slice(i * width, (i + 1) * width);
  }
  const offsets = data.typeId === Type.Binary ? (data.valueOffsets as Int32Array) : offsetsOf(data);
  return (i) => bytes.slice(offsets[i], offsets[i + 1]);
}
