/**
 * CBOR's bytes for each primitive (RFC 8949), in preferred serialization (§4.1): integers, lengths
 * and counts take their shortest form, and floats the shortest of half, single and double that
 * holds the value exactly (preferred-float.ts), whatever width the schema names: a float64 field
 * holding 1.5 is `f93e00`, 3 bytes instead of 9. The value read back is the same number.
 */

import { KeyedWriter } from '../../keyed/encode/writer.js';
import { unsupported } from '../../keyed/failures.js';
import type { WireEmitter } from '../../keyed/wire.js';
import { maxBignumBytes } from '../bignum.js';
import { halfBits } from './preferred-float.js';

const two32 = 0x1_0000_0000;
const max64 = 0xffff_ffff_ffff_ffffn;
/** Decimal digits that surely fit maxBignumBytes (2,400 digits take under 1,000 bytes). */
const maxBignumDigits = 2400;

export class CborEmitter extends KeyedWriter implements WireEmitter {
  /** A head: the major type (0–7, shifted into the top 3 bits) and its argument, shortest form. */
  private head(major: number, value: number): void {
    if (value < 24) this.byte(major | value);
    else if (value < 0x100) this.byte2(major | 24, value);
    else if (value < 0x10000) this.byteUint16(major | 25, value);
    else if (value < two32) this.byteUint32(major | 26, value);
    else this.byteUint64(major | 27, value);
  }

  nil(): void {
    this.byte(0xf6);
  }

  undef(): void {
    this.byte(0xf7);
  }

  bool(value: boolean): void {
    this.byte(value ? 0xf5 : 0xf4);
  }

  int(value: number): void {
    if (value >= 0) this.head(0x00, value);
    else this.head(0x20, -1 - value);
  }

  bigint(value: bigint): void {
    if (value >= 0n) {
      if (value < 0x1_0000_0000n) this.head(0x00, Number(value));
      else this.byteUint64(0x1b, value);
    } else {
      const argument = -1n - value;
      if (argument < 0x1_0000_0000n) this.head(0x20, Number(argument));
      else this.byteUint64(0x3b, argument);
    }
  }

  /**
   * Major type 0 or 1 in its shortest form (the same bytes as the number of that value, where one
   * exists) from -2^64 to 2^64 - 1, a bignum beyond: preferred serialization (RFC 8949 §3.4.3).
   */
  anyBigint(value: bigint): void {
    if (value <= max64 && value >= -1n - max64) this.bigint(value);
    else this.bignum(value);
  }

  /** Tag 2 or 3 with the magnitude's big-endian bytes (RFC 8949 §3.4.3). */
  bignum(value: bigint): void {
    const negative = value < 0n;
    let magnitude = negative ? -1n - value : value;
    const digits: number[] = [];
    while (magnitude > 0n) {
      digits.push(Number(magnitude & 0xffn));
      magnitude >>= 8n;
    }
    if (digits.length > maxBignumBytes) {
      throw unsupported(
        `a bignum of ${digits.length} bytes is longer than wirekit reads (${maxBignumBytes}).`,
      );
    }
    this.byte(negative ? 0xc3 : 0xc2);
    this.head(0x40, digits.length);
    this.raw(Uint8Array.from(digits.reverse()));
  }

  /** A float32 field's value, rounded to single, then half if that holds it exactly. */
  float32(value: number): void {
    const single = Math.fround(value);
    const half = halfBits(single);
    if (half >= 0) this.byteUint16(0xf9, half);
    else this.byteFloat32(0xfa, single);
  }

  /**
   * A number in the shortest float that holds it. Most doubles that are not integers (0.1, a
   * measurement, a ratio) fail the first test, one `Math.fround`, and go out as before.
   */
  float64(value: number): void {
    if (Math.fround(value) !== value && !Number.isNaN(value)) this.byteFloat64(0xfb, value);
    else this.narrowFloat(value);
  }

  /** A number a single holds (or NaN): as a half when one holds it too. Out of line: the rare case. */
  private narrowFloat(value: number): void {
    const half = halfBits(value);
    if (half >= 0) this.byteUint16(0xf9, half);
    else this.byteFloat32(0xfa, value);
  }

  protected readonly shortTextHead = 0x60;
  protected readonly shortText = 24;

  protected textHeaderSize(length: number): number {
    return length < 24 ? 1 : length < 0x100 ? 2 : length < 0x10000 ? 3 : length < two32 ? 5 : 9;
  }

  protected textHeader(length: number): void {
    this.head(0x60, length);
  }

  bytes(value: Uint8Array): void {
    this.head(0x40, value.length);
    this.raw(value);
  }

  /**
   * Tag 1 (seconds since the epoch): an integer for whole seconds, else a float (a double unless a
   * narrower one holds it exactly, such as 0.5 s), which gives the milliseconds back exactly
   * (rounded to the nearest millisecond) below 2^42 seconds, about the year 141,000; the few later
   * instants that would come back a millisecond off are refused.
   */
  timestamp(millis: number): void {
    this.byte(0xc1);
    if (millis % 1000 === 0) {
      this.int(millis / 1000);
      return;
    }
    const seconds = millis / 1000;
    if (Math.round(seconds * 1000) !== millis) {
      throw unsupported(
        `${new Date(millis).toISOString()} has milliseconds that CBOR's float seconds cannot hold.`,
      );
    }
    this.float64(seconds);
  }

  /**
   * Tag 4, the decimal fraction [exponent, mantissa] (RFC 8949 §3.4.4), with the exponent given by
   * the digits after the point, so that "12.50" reads back as "12.50". A negative zero ("-0.00")
   * has no integer mantissa and goes out as its text, as does a mantissa of over 2,400 digits.
   */
  decimal(text: string): void {
    if (text.length <= 17 && this.shortDecimal(text)) return;
    const negative = text.charCodeAt(0) === 45;
    const body = negative ? text.slice(1) : text;
    const point = body.indexOf('.');
    const digits = point < 0 ? body : body.slice(0, point) + body.slice(point + 1);
    // Readers bound bignums (wirekit at maxBignumBytes), so very long mantissas go out as text too.
    if ((negative && /^0*$/.test(digits)) || digits.length > maxBignumDigits) {
      this.text(text);
      return;
    }
    this.byte2(0xc4, 0x82);
    this.int(point < 0 ? 0 : point + 1 - body.length);
    if (digits.length <= 15) {
      const mantissa = Number(digits);
      this.int(negative ? -mantissa : mantissa);
      return;
    }
    const mantissa = negative ? -BigInt(digits) : BigInt(digits);
    if (mantissa <= max64 && mantissa >= -1n - max64) this.bigint(mantissa);
    else this.bignum(mantissa);
  }

  /**
   * `decimal` for a text of at most 15 digits and no other characters than a leading '-' and one
   * point, which is nearly every amount: the same bytes, with the mantissa summed from the
   * characters instead of cut out as strings and parsed (7.7 % of a document's encode, most of it
   * the slices and the zero test's regex). Anything else, or a negative zero, is left to `decimal`.
   */
  private shortDecimal(text: string): boolean {
    const length = text.length;
    const negative = text.charCodeAt(0) === 45;
    let point = -1;
    let mantissa = 0;
    for (let i = negative ? 1 : 0; i < length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 48 && c <= 57) mantissa = mantissa * 10 + (c - 48);
      else if (c === 46 && point < 0) point = i;
      else return false;
    }
    const digits = length - (negative ? 1 : 0) - (point < 0 ? 0 : 1);
    if (digits === 0 || digits > 15 || (negative && mantissa === 0)) return false;
    this.byte2(0xc4, 0x82);
    this.int(point < 0 ? 0 : point + 1 - length);
    this.int(negative ? -mantissa : mantissa);
    return true;
  }

  /**
   * Hot: the compiled encoder's decimal, its spelling and bounds checked (as `decimalFits` checks
   * them) in the scan that sums its mantissa, where a refusal test and `shortDecimal` each went over
   * it (10 % of a document's encode). The bytes are `shortDecimal`'s; what it leaves, and a text
   * out of bounds, gives false with nothing written.
   */
  decimalWithin(text: string, integerDigits: number, fractionDigits: number): boolean {
    const length = text.length;
    if (length > 17) return false;
    const negative = text.charCodeAt(0) === 45;
    let at = negative ? 1 : 0;
    const first = text.charCodeAt(at);
    if (!(first >= 48 && first <= 57)) return false;
    let mantissa = first - 48;
    let integer = 1;
    at++;
    if (first !== 48) {
      for (; at < length; at++) {
        const c = text.charCodeAt(at);
        if (!(c >= 48 && c <= 57)) break;
        mantissa = mantissa * 10 + (c - 48);
        integer++;
      }
    }
    let fraction = 0;
    if (at < length) {
      if (text.charCodeAt(at) !== 46) return false;
      for (at++; at < length; at++) {
        const c = text.charCodeAt(at);
        if (!(c >= 48 && c <= 57)) return false;
        mantissa = mantissa * 10 + (c - 48);
        fraction++;
      }
      if (fraction === 0) return false;
    }
    // A lone leading zero is not an integer digit to the bounds, but is one of the mantissa's.
    if ((first === 48 ? 0 : integer) > integerDigits || fraction > fractionDigits) return false;
    if (integer + fraction > 15 || (negative && mantissa === 0)) return false;
    this.byte2(0xc4, 0x82);
    this.int(fraction === 0 ? 0 : -fraction);
    this.int(negative ? -mantissa : mantissa);
    return true;
  }

  arrayHeader(count: number): void {
    this.head(0x80, count);
  }

  mapHeader(count: number): void {
    this.head(0xa0, count);
  }
}
