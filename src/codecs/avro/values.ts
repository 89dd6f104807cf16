/**
 * Conversions between wirekit values and Avro's logical types: decimals as unscaled two's-complement
 * integers, timestamps as counts of a unit, `json` values as JSON text.
 */
import { decimalDigits } from '../../schema/decimal.js';
import { checkParsedJson } from '../../schema/json-kind.js';
import { cost } from '../core/budget.js';
import { malformed, tooManyElements } from '../core/errors.js';
import type { AvroReader } from './decode/reader.js';
import type { AvroWriter } from './encode/writer.js';

/**
 * The unscaled integer of `text` at `scale`: "-12.5" at scale 2 is -1250. Undefined when the text is
 * not a wirekit decimal, has more decimals than the scale, or more digits than the precision. A
 * Number up to 2^53 (exactly), a bigint past it.
 */
export function unscaledOf(text: string, scale: number, precision: number): number | bigint | undefined {
  const fast = safeUnscaledOf(text, scale, precision);
  if (fast !== undefined) return fast;
  const digits = decimalDigits(text);
  if (digits === undefined || digits.fraction > scale || digits.integer > precision - scale) return undefined;
  const negative = text.charCodeAt(0) === 45;
  const point = text.indexOf('.');
  const whole = text.slice(negative ? 1 : 0, point === -1 ? text.length : point);
  const fraction = point === -1 ? '' : text.slice(point + 1);
  const unscaled = whole + fraction.padEnd(scale, '0');
  if (unscaled.length <= 15) {
    const n = Number(unscaled);
    return negative ? -n : n;
  }
  const n = BigInt(unscaled);
  return negative ? -n : n;
}

/**
 * `unscaledOf` in one pass for the common decimal, whose unscaled integer is a safe integer:
 * spelling, scale and precision checked while the digits are summed, with no substring, regular
 * expression or BigInt. Undefined whenever it cannot answer, for `unscaledOf`'s full path to decide
 * (it also refuses what this refuses). Money columns made this 18 % of encoding an order document.
 *
 * Exact: while the true value is at most 2^53 - 1, every partial sum and product is an integer
 * below it, so exact; once a true partial value reaches 2^53, rounding (monotonic) keeps the
 * computed one at 2^53 or above through every later step, and the final test sends it on to BigInt.
 */
function safeUnscaledOf(text: string, scale: number, precision: number): number | undefined {
  const length = text.length;
  const negative = text.charCodeAt(0) === 45;
  let at = negative ? 1 : 0;
  const first = text.charCodeAt(at);
  // 16 digits and a point at most: 2^53 has 16 digits.
  if (!(first >= 0x30 && first <= 0x39) || length - at > 17) return undefined;
  let n = first - 0x30;
  let integer = first === 0x30 ? 0 : 1;
  at++;
  if (first !== 0x30) {
    for (; at < length; at++) {
      const code = text.charCodeAt(at);
      if (!(code >= 0x30 && code <= 0x39)) break;
      n = n * 10 + (code - 0x30);
      integer++;
    }
  }
  let fraction = 0;
  if (at < length) {
    if (text.charCodeAt(at) !== 0x2e) return undefined;
    for (at++; at < length; at++) {
      const code = text.charCodeAt(at);
      if (!(code >= 0x30 && code <= 0x39)) return undefined;
      n = n * 10 + (code - 0x30);
      fraction++;
    }
    if (fraction === 0) return undefined;
  }
  if (fraction > scale || integer > precision - scale || integer + scale > 16) return undefined;
  for (let i = fraction; i < scale; i++) n *= 10;
  if (n > Number.MAX_SAFE_INTEGER) return undefined;
  return negative ? -n : n;
}

/**
 * Writes `text` as Avro decimal bytes (`size` < 0) or as a `fixed` of `size` bytes, and says so,
 * when its unscaled integer is a safe integer and within the scale and precision; false, having
 * written nothing, for anything else (a refusal, a wider value), which the interpreter then writes
 * or refuses. The compiled encoder's decimal: one scan of the text and the bytes by arithmetic,
 * where a refusal test, a parse and a write each went over it (and a fixed always took BigInt).
 */
export function writeDecimal(
  writer: AvroWriter,
  text: string,
  scale: number,
  precision: number,
  size: number,
): boolean {
  const unscaled = safeUnscaledOf(text, scale, precision);
  if (unscaled === undefined) return false;
  if (size < 0) writeUnscaled(writer, unscaled);
  else writeUnscaledFixed(writer, unscaled, size);
  return true;
}

/** Writes an unscaled integer as Avro decimal bytes: the shortest big-endian two's complement. */
export function writeUnscaled(writer: AvroWriter, value: number | bigint): void {
  if (typeof value === 'number') {
    if (value >= -0x8000_0000 && value <= 0x7fff_ffff) {
      // A 32-bit value (most amounts): its length by comparison and its bytes by shifts.
      const length =
        value >= -0x80 && value <= 0x7f
          ? 1
          : value >= -0x8000 && value <= 0x7fff
            ? 2
            : value >= -0x80_0000 && value <= 0x7f_ffff
              ? 3
              : 4;
      writer.writeLong(length);
      writer.ensure(length);
      const buf = writer.buf;
      const pos = writer.pos;
      for (let i = length - 1, shift = 0; i >= 0; i--, shift += 8) buf[pos + i] = (value >> shift) & 0xff;
      writer.pos = pos + length;
      return;
    }
    // A safe integer past 32 bits: a negative value's bytes are those of -value - 1, each inverted
    // (two's complement without adding 2^(8 × length), which a double cannot hold exactly).
    const magnitude = value < 0 ? -value - 1 : value;
    let length = 5;
    while (magnitude >= 2 ** (8 * length - 1)) length++;
    writer.writeLong(length);
    writeSafeBytes(writer, value, length);
    return;
  }
  const magnitude = value < 0n ? -value - 1n : value;
  // One sign bit beyond the magnitude's bits decides the length.
  const length = Math.floor(magnitude.toString(2).length / 8) + 1;
  const hex = BigInt.asUintN(8 * length, value)
    .toString(16)
    .padStart(length * 2, '0');
  writer.writeLong(length);
  writer.ensure(length);
  for (let i = 0; i < length; i++)
    writer.buf[writer.pos + i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  writer.pos += length;
}

/**
 * A safe integer as `length` bytes of big-endian two's complement, sign-extended: a negative value
 * as the bytes of -value - 1 inverted, so nothing exceeds 2^53 (value + 2^56 did, and lost its low
 * bits: "-9999999999999.99" went out as -10000000000000.00).
 */
function writeSafeBytes(writer: AvroWriter, value: number, length: number): void {
  writer.ensure(length);
  const buf = writer.buf;
  const pos = writer.pos;
  const negative = value < 0;
  let rest = negative ? -value - 1 : value;
  for (let i = length - 1; i >= 0; i--) {
    const byte = rest % 256;
    buf[pos + i] = negative ? 255 - byte : byte;
    rest = (rest - byte) / 256;
  }
  writer.pos = pos + length;
}

/**
 * An unscaled decimal as a `fixed` of `size` bytes: big-endian two's complement, sign-extended to
 * the size. The decimal's precision fits the size (the schema builder checks it), so it never overflows.
 */
export function writeUnscaledFixed(writer: AvroWriter, value: number | bigint, size: number): void {
  if (typeof value === 'number') {
    writeSafeBytes(writer, value, size);
    return;
  }
  let rest = BigInt.asUintN(8 * size, value);
  writer.ensure(size);
  for (let i = size - 1; i >= 0; i--) {
    writer.buf[writer.pos + i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  writer.pos += size;
}

/**
 * The decimal text of two's-complement bytes at `scale`, with exactly `scale` decimals (Avro keeps
 * the unscaled value only, so "1.5" at scale 2 reads back as "1.50"). Undefined when the value has
 * more digits than `precision`.
 */
export function decimalText(
  bytes: Uint8Array,
  start: number,
  end: number,
  scale: number,
  precision: number,
): string | undefined {
  const length = end - start;
  let digits: string;
  let negative: boolean;
  if (length === 0) {
    digits = '0';
    negative = false;
  } else if (length <= 6) {
    let n = 0;
    for (let i = start; i < end; i++) n = n * 256 + (bytes[i] as number);
    if ((bytes[start] as number) >= 0x80) n -= 2 ** (8 * length);
    negative = n < 0;
    digits = String(negative ? -n : n);
  } else {
    let hex = '';
    for (let i = start; i < end; i++) hex += (bytes[i] as number).toString(16).padStart(2, '0');
    const n = BigInt.asIntN(8 * length, BigInt(`0x${hex}`));
    negative = n < 0n;
    digits = (negative ? -n : n).toString();
  }
  if (digits.length > precision && digits !== '0') return undefined;
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0');
    digits = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  }
  return negative ? `-${digits}` : digits;
}

/** Bytes a decimal of `precision` digits can need, with one spare for writers that pad a sign byte. */
export function decimalByteLimit(precision: number): number {
  return Math.ceil((precision * Math.log2(10) + 1) / 8) + 1;
}

/** `date` as a count of units (1, 1000 or 1e6 per millisecond); undefined when it cannot be stored. */
export function timestampCount(date: unknown, perMilli: number): number | bigint | undefined {
  if (!(date instanceof Date)) return undefined;
  const millis = date.getTime();
  if (Number.isNaN(millis)) return undefined;
  if (perMilli === 1) return millis;
  const count = millis * perMilli;
  if (Math.abs(count) < 2 ** 52) return count;
  const big = BigInt(millis) * BigInt(perMilli);
  return big >= -(2n ** 63n) && big < 2n ** 63n ? big : undefined;
}

/** Reads a long count of units as a Date, rounding sub-millisecond parts down (toward the past). */
export function readTimestamp(reader: AvroReader, perMilli: number): Date {
  const at = reader.pos;
  const count = reader.readLong();
  let millis: number;
  if (!Number.isNaN(count)) {
    millis = perMilli === 1 ? count : Math.floor(count / perMilli);
  } else {
    const divisor = BigInt(perMilli);
    const wide = reader.wide;
    let quotient = wide / divisor;
    if (wide % divisor !== 0n && wide < 0n) quotient -= 1n;
    millis = Number(quotient);
  }
  if (!(Math.abs(millis) <= 8.64e15)) throw malformed(at, 'a timestamp is beyond the range of a Date');
  reader.budget.charge(cost.date, at);
  return new Date(millis);
}

/**
 * Parses JSON text of a `json` value and holds it to the same limits as the rest of the value:
 * depth, element count, and no key that could reach a prototype.
 */
export function parseJsonValue(reader: AvroReader, text: string, at: number): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw malformed(at, 'a json value is not valid JSON text');
  }
  const { limits } = reader;
  const count = (items: number): void => {
    reader.elements += items;
    if (reader.elements > limits.maxElements) throw tooManyElements(at, limits);
  };
  checkParsedJson(value, { depth: reader.depth, maxDepth: limits.maxDepth, count }, at);
  return value;
}
