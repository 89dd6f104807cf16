/**
 * Reads CBOR primitives for the schema decoder, checking as it goes: every length against the
 * remaining input and the limits before anything is allocated, strings as strict UTF-8, and
 * major types against what the schema expects. Tag 55799 (self-described CBOR) is skipped wherever
 * it appears; definite and chunked (indefinite-length) strings, arrays and maps are all read. What
 * each read will cost the heap is charged to the decode's budget (core/budget.ts) here, so the compiled
 * and the interpreted decoders, which both read through a source, charge alike.
 */
import { WirekitError } from '../../../errors/index.js';
import { parseIsoTime } from '../../../util/iso-time.js';
import { cost, stringCost } from '../../core/budget.js';
import { malformed, tooDeep, tooLong, tooManyElements, truncated } from '../../core/errors.js';
import type { DecodeLimits } from '../../core/limits.js';
import { decodeUtf8 } from '../../core/utf8.js';
import {
  readBigUint64,
  readFloat32,
  readFloat64,
  readUint16,
  readUint32,
} from '../../keyed/decode/big-endian.js';
import { measuringScan } from '../../keyed/decode/scan-items.js';
import { KeyedSource } from '../../keyed/decode/source.js';
import { schemaMismatch } from '../../keyed/failures.js';
import { ItemKind, type WireSource } from '../../keyed/wire.js';
import { maxBignumBytes } from '../bignum.js';
import { decimalText } from './decimal.js';
import { halfToNumber, typeName } from './items.js';
import { CborScanner } from './scan.js';

const two32 = 0x1_0000_0000;
const maxDateMillis = 8.64e15;

export class CborSource extends KeyedSource implements WireSource {
  constructor(limits: DecodeLimits) {
    super(limits, new CborScanner(limits, measuringScan), typeName);
  }

  /** The head byte of the next item, past any self-describe tags; the input must not end here. */
  private head(): number {
    const input = this.input;
    for (;;) {
      if (this.pos >= this.end) throw truncated(this.pos);
      const head = input[this.pos] as number;
      if (head !== 0xd9 || input[this.pos + 1] !== 0xd9 || input[this.pos + 2] !== 0xf7) return head;
      this.pos += 3;
    }
  }

  /**
   * Reads the argument of the head at `pos` (exact below 2^53) and moves past the head. Chunked
   * items (additional information 31) give -1.
   */
  private argument(): number {
    const head = this.input[this.pos] as number;
    const info = head & 0x1f;
    if (info < 24) {
      this.pos++;
      return info;
    }
    if (info === 31) {
      this.pos++;
      return -1;
    }
    if (info > 27) throw malformed(this.pos, `additional information ${info} is reserved`);
    const width = 1 << (info - 24);
    this.need(1 + width);
    const at = this.pos + 1;
    this.pos += 1 + width;
    if (width === 1) return this.input[at] as number;
    if (width === 2) return readUint16(this.input, at);
    if (width === 4) return readUint32(this.input, at);
    return readUint32(this.input, at) * two32 + readUint32(this.input, at + 4);
  }

  nullish(): number {
    if (this.pos >= this.end) return 0;
    const head = this.head();
    if (head !== 0xf6 && head !== 0xf7) return 0;
    this.pos++;
    return head === 0xf6 ? 1 : 2;
  }

  bool(): boolean {
    const head = this.head();
    if (head !== 0xf4 && head !== 0xf5) throw this.wrongType('a boolean');
    this.pos++;
    return head === 0xf5;
  }

  integer(): number | bigint {
    const head = this.head();
    const major = head >> 5;
    if (major > 1) {
      if (head === 0xc2 || head === 0xc3) return this.bignum();
      throw this.wrongType('an integer');
    }
    if ((head & 0x1f) === 27) {
      this.need(9);
      const at = this.pos + 1;
      this.pos += 9;
      const high = readUint32(this.input, at);
      if (high <= 0x1f_ffff) {
        const small = high * two32 + readUint32(this.input, at + 4);
        if (major === 0) return small;
        if (small < Number.MAX_SAFE_INTEGER) return -1 - small;
      }
      const big = readBigUint64(this.input, at);
      return major === 0 ? big : -1n - big;
    }
    const at = this.pos;
    const value = this.argument();
    if (value < 0) throw malformed(at, 'an integer cannot be chunked');
    return major === 0 ? value : -1 - value;
  }

  /** Tag 2 or 3: a non-negative bignum n, or -1 - n. */
  private bignum(): number | bigint {
    const negative = this.input[this.pos] === 0xc3;
    this.pos++;
    const at = this.pos;
    if (this.pos >= this.end) throw truncated(this.pos);
    if ((this.input[this.pos] as number) >> 5 !== 2) throw schemaMismatch(at, 'a bignum needs a byte string');
    const length = this.argument();
    if (length < 0) throw malformed(at, 'a bignum needs a definite byte string');
    if (length > maxBignumBytes) {
      throw new WirekitError(
        'WK_LIMIT_LENGTH',
        `a bignum of ${length} bytes exceeds ${maxBignumBytes} (at byte ${at}).`,
        {
          offset: at,
        },
      );
    }
    const limit = this.limits.maxBytesLength;
    if (length > limit) throw tooLong(at, length, limit, 'byte string');
    this.need(length);
    let value = 0n;
    for (let i = 0; i < length; i++) value = (value << 8n) | BigInt(this.input[this.pos + i] as number);
    this.pos += length;
    if (negative) value = -1n - value;
    return value >= -0x1f_ffff_ffff_ffffn && value <= 0x1f_ffff_ffff_ffffn ? Number(value) : value;
  }

  float(): number {
    const head = this.head();
    if (head >= 0xf9 && head <= 0xfb) {
      const at = this.pos + 1;
      if (head === 0xf9) {
        this.need(3);
        this.pos += 3;
        return halfToNumber(readUint16(this.input, at));
      }
      if (head === 0xfa) {
        this.need(5);
        this.pos += 5;
        return readFloat32(this.input, at);
      }
      this.need(9);
      this.pos += 9;
      return readFloat64(this.input, at);
    }
    if (head >> 5 > 1 && head !== 0xc2 && head !== 0xc3) throw this.wrongType('a number');
    return Number(this.integer());
  }

  /**
   * Reads a string of major type `major` (2 or 3): definite strings are left in place and give
   * [start, end); chunked ones are gathered into a new array. Returns the bytes holding it.
   */
  private stringBytes(major: number, limited = true): Uint8Array {
    const head = this.head();
    if (head >> 5 !== major) throw this.wrongType(major === 3 ? 'a string' : 'a byte string');
    const at = this.pos;
    const text = major === 3;
    const limit = !limited
      ? Number.POSITIVE_INFINITY
      : text
        ? this.limits.maxStringBytes
        : this.limits.maxBytesLength;
    const length = this.argument();
    if (length >= 0) {
      if (length > limit) throw tooLong(at, length, limit, text ? 'string' : 'byte string');
      this.need(length);
      this.spanStart = this.pos;
      this.pos += length;
      this.spanEnd = this.pos;
      return this.input;
    }
    // Chunked: measure the chunks first, so the copy is allocated once, at its checked size.
    const first = this.pos;
    let total = 0;
    for (;;) {
      if (this.pos >= this.end) throw truncated(this.pos);
      const chunk = this.input[this.pos] as number;
      if (chunk === 0xff) break;
      if (chunk >> 5 !== major) throw malformed(this.pos, 'a chunk of another type in a chunked string');
      const size = this.argument();
      if (size < 0) throw malformed(this.pos - 1, 'a chunk cannot itself be chunked');
      total += size;
      if (total > limit) throw tooLong(at, total, limit, text ? 'string' : 'byte string');
      this.need(size);
      if (text) decodeUtf8(this.input, this.pos, this.pos + size); // each chunk must be UTF-8 by itself
      this.pos += size;
    }
    const out = new Uint8Array(total);
    let filled = 0;
    this.pos = first;
    while (this.input[this.pos] !== 0xff) {
      const size = this.argument();
      out.set(this.input.subarray(this.pos, this.pos + size), filled);
      filled += size;
      this.pos += size;
    }
    this.pos++;
    this.spanStart = 0;
    this.spanEnd = total;
    return out;
  }

  string(): string {
    const at = this.pos;
    const bytes = this.stringBytes(3);
    this.budget.charge(stringCost(this.spanEnd - this.spanStart), at);
    // An indefinite-length string's chunks are joined into bytes of their own.
    return bytes === this.input
      ? this.text.read(this.spanStart, this.spanEnd)
      : decodeUtf8(bytes, this.spanStart, this.spanEnd);
  }

  span(): void {
    this.spanBytes = this.stringBytes(3);
  }

  nameSpan(): void {
    this.spanBytes = this.stringBytes(3, false);
  }

  bytes(): Uint8Array {
    const at = this.pos;
    const bytes = this.stringBytes(2);
    this.budget.charge(cost.bytes + this.spanEnd - this.spanStart, at);
    return bytes === this.input ? bytes.slice(this.spanStart, this.spanEnd) : bytes;
  }

  /** Tag 1 (seconds, integer or float) or tag 0 (RFC 3339 text). */
  timestamp(): number {
    const head = this.head();
    const at = this.pos;
    if (head >> 5 !== 6) throw this.wrongType('a timestamp (tag 0 or 1)');
    const tag = this.argument();
    let millis: number;
    if (tag === 1) {
      const content = this.head();
      if (content >= 0xf9 && content <= 0xfb) millis = Math.round(this.float() * 1000);
      else {
        const seconds = this.integer();
        millis = typeof seconds === 'number' ? seconds * 1000 : Number.NaN;
      }
    } else if (tag === 0) {
      const date = parseIsoTime(this.string());
      millis = date === undefined ? Number.NaN : date.getTime();
    } else {
      this.pos = at;
      throw this.wrongType('a timestamp (tag 0 or 1)');
    }
    if (!(Math.abs(millis) <= maxDateMillis)) throw schemaMismatch(at, 'a timestamp that is no valid Date');
    this.budget.charge(cost.date, at);
    return millis;
  }

  /** Tag 4 [exponent, mantissa], or the decimal's text. */
  decimal(): string {
    const head = this.head();
    const at = this.pos;
    if (head >> 5 === 3) return this.decimalText();
    if (head !== 0xc4) throw this.wrongType('a decimal (tag 4 or text)');
    this.pos++;
    if (this.pos >= this.end) throw truncated(this.pos);
    if (this.input[this.pos] !== 0x82) throw schemaMismatch(this.pos, 'tag 4 needs an array of two integers');
    this.pos++;
    const exponent = this.integer();
    const mantissa = this.integer();
    const digits = typeof exponent === 'number' ? Math.abs(exponent) : Number.POSITIVE_INFINITY;
    if (digits > this.limits.maxStringBytes) throw tooLong(at, digits, this.limits.maxStringBytes, 'string');
    const text = decimalText(exponent as number, mantissa);
    this.budget.charge(stringCost(text.length), at);
    return text;
  }

  /**
   * A container's header: `items` is its items (a map's keys and values both count), `base` what
   * the container itself costs, `elements` what it counts against maxElements. Charged once the
   * items are known to fit the input (every item takes at least one byte); an indefinite
   * container's items are charged as `more` (or `moreFields`) finds them.
   */
  private container(
    at: number,
    level: number,
    count: number,
    items: number,
    base: number,
    elements = count,
  ): number {
    if (level > this.limits.maxDepth) throw tooDeep(at, this.limits);
    if (count < 0) {
      this.budget.charge(base, at);
      return -1;
    }
    this.elements += elements;
    if (this.elements > this.limits.maxElements) throw tooManyElements(at, this.limits);
    if (items > this.end - this.pos) throw truncated(this.end);
    this.budget.charge(base + items * cost.slot, at);
    return count;
  }

  arrayStart(level: number): number {
    const head = this.head();
    if (head >> 5 !== 4) throw this.wrongType('an array');
    const at = this.pos;
    const count = this.argument();
    return this.container(at, level, count, count, cost.array);
  }

  protected mapHeader(level: number, entriesCount: boolean): number {
    const head = this.head();
    if (head >> 5 !== 5) throw this.wrongType('a map');
    const at = this.pos;
    const count = this.argument();
    return this.container(at, level, count, count * 2, cost.object, entriesCount ? count : 0);
  }

  more(): boolean {
    return this.another(true);
  }

  moreFields(): boolean {
    return this.another(false);
  }

  private another(counted: boolean): boolean {
    if (this.pos >= this.end) throw truncated(this.pos);
    if (this.input[this.pos] === 0xff) {
      this.pos++;
      return false;
    }
    if (counted && ++this.elements > this.limits.maxElements) throw tooManyElements(this.pos, this.limits);
    // Whether the container is an array or a map is the caller's to know: charged as a map entry.
    this.budget.charge(2 * cost.slot, this.pos);
    return true;
  }

  peek(): number {
    const head = this.head();
    const major = head >> 5;
    if (major <= 1) return ItemKind.integer;
    if (major === 3) return ItemKind.string;
    if (major === 4) return ItemKind.array;
    if (major === 5) return ItemKind.map;
    if (head === 0xf6) return ItemKind.null;
    if (head === 0xf4 || head === 0xf5) return ItemKind.bool;
    if (head >= 0xf9 && head <= 0xfb) return ItemKind.float;
    return ItemKind.other;
  }
}
