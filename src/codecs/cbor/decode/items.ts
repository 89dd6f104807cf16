/**
 * CBOR items that the scanner checks beyond their head: arguments, strings (definite and chunked,
 * with UTF-8 and unsafe keys), simple values and floats, and the content of each tag it reads
 * (RFC 8949 §3.4); and the number helpers the scanner, the source and the reader share.
 */
import { WirekitError } from '../../../errors/index.js';
import { parseIsoTime } from '../../../util/iso-time.js';
import { cost, stringCost } from '../../core/budget.js';
import { malformed, tooLong } from '../../core/errors.js';
import { decodeUtf8 } from '../../core/utf8.js';
import { checkKey } from '../../keyed/decode/keys.js';
import { KeyedScanItems, type KeyedScanOptions } from '../../keyed/decode/scan-items.js';
import { isUtf8 } from '../../keyed/decode/utf8-check.js';
import { maxBignumBytes } from '../bignum.js';

export type CborScanOptions = KeyedScanOptions;

const maxDateMillis = 8.64e15;

export abstract class CborItems extends KeyedScanItems<CborScanOptions> {
  /** The first bytes of a chunked key, gathered to compare with the unsafe keys. */
  private readonly keyBytes = new Uint8Array(11);
  /** A chunked string, which cbor-x refuses. */
  chunkedString = false;
  /** Tag 1 holding a 64-bit integer form, which cbor-x cannot multiply (it reads a bigint). */
  wideEpoch = false;
  /** Scratch results of `argument`: the value and where the item's content starts. */
  protected value = 0;
  protected next = 0;
  private readonly scratch = new DataView(new ArrayBuffer(8));

  /**
   * Reads the argument of the head at `pos` into `value` (exact below 2^53, else a larger number)
   * and where the content starts into `next`. Returns -1 when cut; throws on reserved forms.
   */
  protected argument(bytes: Uint8Array, pos: number, end: number): number {
    const info = (bytes[pos] as number) & 0x1f;
    if (info < 24) {
      this.value = info;
      this.next = pos + 1;
      return 0;
    }
    if (info > 27) throw malformed(pos, `additional information ${info} is reserved or not allowed here`);
    const width = 1 << (info - 24);
    if (pos + 1 + width > end) return this.ended(end);
    this.value = readUint(bytes, pos + 1, width);
    this.next = pos + 1 + width;
    return 0;
  }

  /** A byte or text string, definite or chunked; returns where it ends, or -1 when cut. */
  protected string(bytes: Uint8Array, pos: number, end: number, textKey: boolean): number {
    const head = bytes[pos] as number;
    const text = head >> 5 === 3;
    const limit = text ? this.limits.maxStringBytes : this.limits.maxBytesLength;
    if ((head & 0x1f) !== 31) {
      if (this.argument(bytes, pos, end) < 0) return -1;
      const length = this.value;
      const start = this.next;
      if (length > limit) throw tooLong(pos, length, limit, text ? 'string' : 'byte string');
      if (length > end - start) return this.ended(end);
      if (text) this.checkText(bytes, start, start + length, textKey);
      this.charged += text ? stringCost(length) : cost.bytes + length;
      return start + length;
    }
    // Chunked: definite strings of the same major type until a break (RFC 8949 §3.2.3).
    this.chunkedString = true;
    let at = pos + 1;
    let total = 0;
    for (;;) {
      if (at >= end) return this.ended(end);
      const chunk = bytes[at] as number;
      if (chunk === 0xff) break;
      if (chunk >> 5 !== head >> 5 || (chunk & 0x1f) === 31)
        throw malformed(at, 'a chunk of another type in a chunked string');
      if (this.argument(bytes, at, end) < 0) return -1;
      const length = this.value;
      const start = this.next;
      if (length > end - start) return this.ended(end);
      if (text && this.options.utf8 && !isUtf8(bytes, start, start + length)) {
        throw malformed(start, 'a string is not valid UTF-8');
      }
      if (textKey)
        for (let i = 0; i < length && total + i < 11; i++)
          this.keyBytes[total + i] = bytes[start + i] as number;
      total += length;
      if (total > limit) throw tooLong(pos, total, limit, text ? 'string' : 'byte string');
      at = start + length;
    }
    if (textKey && this.options.unsafeKeys && total <= 11) checkKey(this.keyBytes, 0, total);
    this.charged += text ? stringCost(total) : cost.bytes + total;
    return at + 1;
  }

  /** Simple values and floats (major type 7). */
  protected scalar(bytes: Uint8Array, pos: number, end: number): number {
    const head = bytes[pos] as number;
    if (head < 0x40) {
      // Major types 0 and 1: integers.
      if (this.argument(bytes, pos, end) < 0) return -1;
      return this.next;
    }
    if (head >= 0xf4 && head <= 0xf7) return pos + 1;
    if (head >= 0xf9 && head <= 0xfb) {
      const next = pos + 1 + (1 << (head - 0xf8));
      return next > end ? this.ended(end) : next;
    }
    if (head === 0xf8) {
      if (pos + 1 >= end) return this.ended(end);
      if ((bytes[pos + 1] as number) < 32) throw malformed(pos, 'a two-byte simple value below 32');
      throw unknownSimple(pos, bytes[pos + 1] as number);
    }
    if (head < 0xf4) throw unknownSimple(pos, head & 0x1f);
    throw malformed(pos, `0x${head.toString(16)} is reserved in CBOR`);
  }

  /** A tag's content, checked as RFC 8949 §3.4 defines it for each tag read; returns where it ends. */
  protected tag(bytes: Uint8Array, number: number, tagAt: number, at: number, end: number): number {
    if (at >= end) return this.ended(end);
    const content = bytes[at] as number;
    switch (number) {
      case 0: {
        if (content >> 5 !== 3 || (content & 0x1f) === 31)
          throw malformed(at, 'tag 0 needs a definite text string');
        const stop = this.string(bytes, at, end, false);
        if (stop < 0) return stop;
        // Rare enough to decode: cbor-x would turn any text into a Date, even an invalid one.
        if (parseIsoTime(decodeUtf8(bytes, stop - this.value, stop)) === undefined) {
          throw malformed(at, 'tag 0 holds text that is not an RFC 3339 date-time');
        }
        this.charged += cost.date;
        return stop;
      }
      case 1:
        this.charged += cost.date;
        return this.epoch(bytes, at, end);
      case 2:
      case 3:
        this.charged += cost.bigint;
        return this.bignum(bytes, at, end);
      case 4: {
        if (content !== 0x82) throw malformed(at, 'tag 4 needs an array of two items');
        if (at + 1 >= end) return this.ended(end);
        if ((bytes[at + 1] as number) >= 0x40)
          throw malformed(at + 1, 'a decimal fraction exponent must be an integer');
        if (this.argument(bytes, at + 1, end) < 0) return -1;
        if (!libraryReadsInt64(bytes, at + 1)) this.wideInteger = true;
        const mantissa = this.next;
        if (mantissa >= end) return this.ended(end);
        const head = bytes[mantissa] as number;
        if (head < 0x40) {
          if (this.argument(bytes, mantissa, end) < 0) return -1;
          if (!libraryReadsInt64(bytes, mantissa)) this.wideInteger = true;
          return this.next;
        }
        if (head !== 0xc2 && head !== 0xc3) {
          throw malformed(mantissa, 'a decimal fraction mantissa must be an integer or a bignum');
        }
        return this.bignum(bytes, mantissa + 1, end);
      }
      default:
        throw new WirekitError(
          'WK_DECODE_UNKNOWN_EXTENSION',
          `tag ${number} is not one wirekit reads (0–4 and 55799) (at byte ${tagAt}).`,
          { offset: tagAt },
        );
    }
  }

  /** A bignum's content: a definite byte string of at most maxBignumBytes. */
  private bignum(bytes: Uint8Array, at: number, end: number): number {
    if (at >= end) return this.ended(end);
    const content = bytes[at] as number;
    if (content >> 5 !== 2 || (content & 0x1f) === 31)
      throw malformed(at, 'a bignum needs a definite byte string');
    if (this.argument(bytes, at, end) < 0) return -1;
    if (this.value > maxBignumBytes) throw bignumTooLong(at, this.value);
    const limit = this.limits.maxBytesLength;
    if (this.value > limit) throw tooLong(at, this.value, limit, 'byte string');
    return this.next + this.value > end ? this.ended(end) : this.next + this.value;
  }

  /** Tag 1's content: an integer or a float, within the range of a Date. */
  private epoch(bytes: Uint8Array, at: number, end: number): number {
    const head = bytes[at] as number;
    let seconds: number;
    let stop: number;
    if (head < 0x40) {
      if (this.argument(bytes, at, end) < 0) return -1;
      if ((head & 0x1f) === 27) this.wideEpoch = true;
      seconds = head < 0x20 ? this.value : -1 - this.value;
      stop = this.next;
    } else if (head >= 0xf9 && head <= 0xfb) {
      stop = at + 1 + (1 << (head - 0xf8));
      if (stop > end) return this.ended(end);
      seconds = readFloat(bytes, at, this.scratch);
    } else throw malformed(at, 'tag 1 needs a number');
    if (!(Math.abs(Math.round(seconds * 1000)) <= maxDateMillis)) {
      throw malformed(at, 'tag 1 holds an instant beyond the range of a Date');
    }
    return stop;
  }
}

/**
 * Whether cbor-x, with `int64AsNumber`, reads the integer whose head is at `at` (its argument
 * already found complete) exactly: it sums a 64-bit argument's halves as a float, which is exact
 * for safe integers only. Major type 1 of 2^53 - 1 is -2^53, past the safe range.
 */
export function libraryReadsInt64(bytes: Uint8Array, at: number): boolean {
  const head = bytes[at] as number;
  if ((head & 0x1f) !== 27) return true;
  const high = readUint(bytes, at + 1, 4);
  if (high !== 0x1f_ffff) return high < 0x1f_ffff;
  return head < 0x20 || readUint(bytes, at + 5, 4) !== 0xffff_ffff;
}

function readUint(bytes: Uint8Array, at: number, width: number): number {
  if (width === 1) return bytes[at] as number;
  if (width === 2) return ((bytes[at] as number) << 8) | (bytes[at + 1] as number);
  const high =
    (bytes[at] as number) * 0x100_0000 +
    (((bytes[at + 1] as number) << 16) | ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number));
  return width === 4 ? high : high * 0x1_0000_0000 + readUint(bytes, at + 4, 4);
}

/** The float (half, single or double) whose head byte is at `at`, read through an 8-byte scratch view. */
function readFloat(bytes: Uint8Array, at: number, scratch: DataView): number {
  const head = bytes[at] as number;
  if (head === 0xf9) return halfToNumber(((bytes[at + 1] as number) << 8) | (bytes[at + 2] as number));
  const width = head === 0xfa ? 4 : 8;
  for (let i = 0; i < width; i++) scratch.setUint8(i, bytes[at + 1 + i] as number);
  return width === 4 ? scratch.getFloat32(0) : scratch.getFloat64(0);
}

/** IEEE 754 half precision (RFC 8949 Appendix D). */
export function halfToNumber(half: number): number {
  const exponent = (half >> 10) & 0x1f;
  const fraction = half & 0x3ff;
  const sign = half & 0x8000 ? -1 : 1;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 31) return fraction === 0 ? sign * Number.POSITIVE_INFINITY : Number.NaN;
  return sign * (1024 + fraction) * 2 ** (exponent - 25);
}

function unknownSimple(offset: number, value: number): WirekitError {
  return new WirekitError(
    'WK_DECODE_UNKNOWN_EXTENSION',
    `simple value ${value} has no JavaScript value (at byte ${offset}).`,
    { offset },
  );
}

function bignumTooLong(offset: number, length: number): WirekitError {
  return new WirekitError(
    'WK_LIMIT_LENGTH',
    `a bignum of ${length} bytes exceeds wirekit's ${maxBignumBytes}-byte limit, at byte ${offset}.`,
    { offset },
  );
}

/** What a head byte starts, for mismatch messages. */
export function typeName(head: number): string {
  switch (head >> 5) {
    case 0:
    case 1:
      return 'an integer';
    case 2:
      return 'a byte string';
    case 3:
      return 'a string';
    case 4:
      return 'an array';
    case 5:
      return 'a map';
    case 6:
      return 'a tag';
  }
  if (head === 0xf4 || head === 0xf5) return 'a boolean';
  if (head === 0xf6) return 'null';
  if (head === 0xf7) return 'undefined';
  if (head >= 0xf9 && head <= 0xfb) return 'a float';
  if (head === 0xff) return 'a break';
  return 'a simple value';
}
