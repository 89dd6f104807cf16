/**
 * A cursor over untrusted Avro bytes. Every read checks the bytes left before it touches them, and
 * every length or count is checked against the limits before anything is allocated for it. One
 * reader serves one decoded value (its depth and element count are per value), or the values of a
 * container block; what they cost the heap is charged to its `budget` (core/budget.ts).
 */

import { AllocationBudget, cost, stringCost } from '../../core/budget.js';
import { bufferView } from '../../core/buffer-view.js';
import { malformed, mismatch, tooDeep, tooLong, tooManyElements, truncated } from '../../core/errors.js';
import type { DecodeLimits } from '../../core/limits.js';
import { TextReader } from '../../core/utf8.js';

export class AvroReader {
  readonly bytes: Uint8Array;
  /** Made on the first float read: most values have none, and a DataView per decode shows in profiles. */
  private dataView: DataView | undefined;
  pos: number;
  readonly end: number;
  readonly limits: DecodeLimits;
  depth = 0;
  elements = 0;
  /** The value of the last long that `readLong` could not return exactly (it returned NaN). */
  wide = 0n;
  /** The input's strings, read through one TextReader (short ASCII strings cut from windows). */
  readonly text: TextReader;
  /**
   * What the values read so far cost the heap, charged before each thing is made: per value in a
   * stream (the caller gives each value a fresh one), per input where all values are held at once.
   */
  budget: AllocationBudget;

  constructor(bytes: Uint8Array, limits: DecodeLimits, start = 0, end = bytes.length) {
    // A Buffer's slice() is a view, not a copy: read through a plain Uint8Array so copies are copies.
    this.bytes =
      bytes.constructor === Uint8Array
        ? bytes
        : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = start;
    this.end = end;
    this.limits = limits;
    this.text = new TextReader(this.bytes);
    this.budget = new AllocationBudget(limits.maxAllocatedBytes);
  }

  /** A DataView of the input's whole buffer (core/buffer-view.ts): positions add `bytes.byteOffset`. */
  private get view(): DataView {
    if (this.dataView === undefined) this.dataView = bufferView(this.bytes.buffer);
    return this.dataView;
  }

  /** Starts a new top-level value: limits count per value. */
  startValue(): void {
    this.depth = 0;
    this.elements = 0;
  }

  enter(): void {
    if (++this.depth > this.limits.maxDepth) throw tooDeep(this.pos, this.limits);
  }

  leave(): void {
    this.depth--;
  }

  /** Counts `count` array items or map entries against maxElements. */
  addElements(count: number): void {
    this.elements += count;
    if (this.elements > this.limits.maxElements) throw tooManyElements(this.pos, this.limits);
  }

  /** Fails unless `count` items of at least `size` bytes each can fit in the bytes left. */
  checkFits(count: number, size: number): void {
    if (size > 0 && count * size > this.end - this.pos) throw truncated(this.end, 'an array or map');
  }

  readBool(): boolean {
    if (this.pos >= this.end) throw truncated(this.pos, 'a boolean');
    const byte = this.bytes[this.pos] as number;
    if (byte > 1) throw malformed(this.pos, `a boolean byte is ${byte}, not 0 or 1`);
    this.pos++;
    return byte === 1;
  }

  /** An Avro int: a zigzag varint that must fit 32 bits. One- and two-byte varints are read inline. */
  readInt(): number {
    const bytes = this.bytes;
    const pos = this.pos;
    if (pos + 2 <= this.end) {
      const first = bytes[pos] as number;
      if (first < 0x80) {
        this.pos = pos + 1;
        return (first >>> 1) ^ -(first & 1);
      }
      const second = bytes[pos + 1] as number;
      if (second < 0x80) {
        this.pos = pos + 2;
        const z = (first & 0x7f) | (second << 7);
        return (z >>> 1) ^ -(z & 1);
      }
    }
    return this.readIntChecked();
  }

  /**
   * `readInt` past two bytes: unrolled while five bytes are left (ids and counts of 3-4 bytes are
   * common; the loop's float arithmetic cost a fifth of a tiny message's decode), byte by byte
   * near the input's end, where each byte's presence is checked.
   */
  private readIntChecked(): number {
    const bytes = this.bytes;
    let pos = this.pos;
    if (pos + 5 <= this.end) {
      // Each byte's low 7 bits at its place; the varint ends at the first byte below 0x80.
      let byte = bytes[pos] as number;
      let z = byte & 0x7f;
      let length = 1;
      if (byte >= 0x80) {
        byte = bytes[pos + 1] as number;
        z |= (byte & 0x7f) << 7;
        length = 2;
        if (byte >= 0x80) {
          byte = bytes[pos + 2] as number;
          z |= (byte & 0x7f) << 14;
          length = 3;
          if (byte >= 0x80) {
            byte = bytes[pos + 3] as number;
            z |= (byte & 0x7f) << 21;
            length = 4;
            if (byte >= 0x80) {
              byte = bytes[pos + 4] as number;
              if (byte > 0x0f) throw malformed(pos, 'an int varint exceeds 32 bits');
              // The fifth byte holds bits 28-31; >>> 0 keeps the zigzag value unsigned.
              z = (z | (byte << 28)) >>> 0;
              length = 5;
            }
          }
        }
      }
      this.pos = pos + length;
      return (z >>> 1) ^ -(z & 1);
    }
    let z = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (pos >= this.end) throw truncated(pos, 'an int');
      const byte = bytes[pos++] as number;
      if (shift === 28 && byte > 0x0f) throw malformed(this.pos, 'an int varint exceeds 32 bits');
      z += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) {
        this.pos = pos;
        return (z >>> 1) ^ -(z & 1);
      }
    }
    throw malformed(this.pos, 'an int varint is longer than 5 bytes');
  }

  /** An int within `min`..`max` (the schema's integer kind); outside, a mismatch at its start. */
  readIntIn(min: number, max: number): number {
    const at = this.pos;
    const n = this.readInt();
    if (n < min || n > max) throw mismatch(at, `${n} is outside ${min}..${max}`);
    return n;
  }

  /**
   * An Avro long as a number: exact for values within ±(2^53 − 1). Beyond that it returns NaN and
   * leaves the exact value in `wide`, so the common case never touches a bigint. With 7 bytes left,
   * varints of up to 4 bytes are read in 32-bit arithmetic and up to 7 bytes (49 bits, still exact
   * in a double) without a bounds check per byte; near the end, byte by byte.
   */
  readLong(): number {
    const bytes = this.bytes;
    const pos = this.pos;
    if (pos + 7 > this.end) return this.readLongChecked();
    let byte = bytes[pos] as number;
    if (byte < 0x80) {
      this.pos = pos + 1;
      return (byte >>> 1) ^ -(byte & 1);
    }
    let z = byte & 0x7f;
    byte = bytes[pos + 1] as number;
    z |= (byte & 0x7f) << 7;
    if (byte < 0x80) {
      this.pos = pos + 2;
      return (z >>> 1) ^ -(z & 1);
    }
    byte = bytes[pos + 2] as number;
    z |= (byte & 0x7f) << 14;
    if (byte < 0x80) {
      this.pos = pos + 3;
      return (z >>> 1) ^ -(z & 1);
    }
    byte = bytes[pos + 3] as number;
    z |= (byte & 0x7f) << 21;
    if (byte < 0x80) {
      this.pos = pos + 4;
      return (z >>> 1) ^ -(z & 1);
    }
    // Past 28 bits, in doubles.
    let wide = z;
    byte = bytes[pos + 4] as number;
    wide += (byte & 0x7f) * 0x10000000;
    if (byte < 0x80) {
      this.pos = pos + 5;
      return wide % 2 === 0 ? wide / 2 : -(wide + 1) / 2;
    }
    byte = bytes[pos + 5] as number;
    wide += (byte & 0x7f) * 0x800000000;
    if (byte < 0x80) {
      this.pos = pos + 6;
      return wide % 2 === 0 ? wide / 2 : -(wide + 1) / 2;
    }
    byte = bytes[pos + 6] as number;
    wide += (byte & 0x7f) * 0x40000000000;
    if (byte < 0x80) {
      this.pos = pos + 7;
      return wide % 2 === 0 ? wide / 2 : -(wide + 1) / 2;
    }
    // An eighth byte: 16-digit ids (a zigzag of 50-56 bits), common in public APIs' payloads, took
    // the BigInt path below. The sum is exact where it is under 2^53, or even (a non-negative long)
    // and under 2^54; then the value is a safe integer or the slow path says what it is.
    if (pos + 8 <= this.end) {
      byte = bytes[pos + 7] as number;
      if (byte < 0x80) {
        const z = wide + byte * 0x2000000000000;
        const even = wide % 2 === 0;
        if (z <= Number.MAX_SAFE_INTEGER || (even && z < 0x40000000000000)) {
          const value = even ? z / 2 : -(z + 1) / 2;
          if (value <= Number.MAX_SAFE_INTEGER && value >= -Number.MAX_SAFE_INTEGER) {
            this.pos = pos + 8;
            return value;
          }
        }
      }
    }
    return this.readLongSlow();
  }

  /** `readLong` near the end of the input: each byte's presence checked. */
  private readLongChecked(): number {
    const bytes = this.bytes;
    let pos = this.pos;
    if (pos >= this.end) throw truncated(pos, 'a long');
    let byte = bytes[pos++] as number;
    if (byte < 0x80) {
      this.pos = pos;
      return (byte >>> 1) ^ -(byte & 1);
    }
    let z = byte & 0x7f;
    // Seven bytes hold 49 bits: still exact as a double, and cheaper than a bigint.
    for (let shift = 7; shift < 49; shift += 7) {
      if (pos >= this.end) throw truncated(pos, 'a long');
      byte = bytes[pos++] as number;
      z += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) {
        this.pos = pos;
        return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
      }
    }
    return this.readLongSlow();
  }

  /** A long that must be a safe integer (the schema's `as: 'number'`). */
  readSafeLong(): number {
    const at = this.pos;
    const n = this.readLong();
    if (Number.isNaN(n))
      throw mismatch(at, `${this.wide} is beyond a safe integer (the schema says as: 'number')`);
    return n;
  }

  /** A long within 0..2^32−1 (the schema's uint32), or within the schema's narrower bounds. */
  readUint32(min: number, max: number): number {
    const at = this.pos;
    const n = this.readLong();
    if (n >= min && n <= max) return n;
    throw mismatch(at, `${Number.isNaN(n) ? this.wide : n} is outside uint32 ${min}..${max}`);
  }

  private readLongSlow(): number {
    const start = this.pos;
    let pos = start;
    let z = 0n;
    for (let i = 0; i < 10; i++) {
      if (pos >= this.end) throw truncated(pos, 'a long');
      const byte = this.bytes[pos++] as number;
      if (i === 9 && byte > 1) throw malformed(start, 'a long varint exceeds 64 bits');
      z |= BigInt(byte & 0x7f) << BigInt(7 * i);
      if (byte < 0x80) {
        this.pos = pos;
        const value = BigInt.asIntN(64, (z >> 1n) ^ -(z & 1n));
        if (value >= -0x1fffffffffffffn && value <= 0x1fffffffffffffn) return Number(value);
        this.wide = value;
        return Number.NaN;
      }
    }
    throw malformed(start, 'a long varint is longer than 10 bytes');
  }

  readLongBig(): bigint {
    const n = this.readLong();
    return Number.isNaN(n) ? this.wide : BigInt(n);
  }

  /** A block count of an array or map: its absolute value, with the byte size after a negative one skipped. */
  readBlockCount(): number {
    const at = this.pos;
    let count = this.readLong();
    if (count >= 0) return count;
    if (Number.isNaN(count)) throw tooManyElements(at, this.limits);
    count = -count;
    const size = this.readLong();
    if (!(size >= 0)) throw malformed(at, 'a block size is negative');
    return count;
  }

  /** A length prefix, checked against `limit` and the bytes left; returns the start of the bytes. */
  readLength(limit: number, what: 'string' | 'byte string'): number {
    const at = this.pos;
    const length = this.readLong();
    if (Number.isNaN(length) && this.wide > 0n) throw tooLong(at, Number(this.wide), limit, what);
    if (!(length >= 0)) throw malformed(at, `a ${what} length is negative`);
    if (length > limit) throw tooLong(at, length, limit, what);
    if (length > this.end - this.pos) throw truncated(this.end, `a ${what}`);
    const start = this.pos;
    this.pos = start + length;
    return start;
  }

  readFloat(): number {
    if (this.pos + 4 > this.end) throw truncated(this.pos, 'a float');
    const value = this.view.getFloat32(this.bytes.byteOffset + this.pos, true);
    this.pos += 4;
    return value;
  }

  readDouble(): number {
    if (this.pos + 8 > this.end) throw truncated(this.pos, 'a double');
    const value = this.view.getFloat64(this.bytes.byteOffset + this.pos, true);
    this.pos += 8;
    return value;
  }

  /**
   * A string, with the common one-byte length prefix read inline (other lengths and every error go
   * through `readLength`), and the text read by the input's TextReader.
   */
  readString(): string {
    const bytes = this.bytes;
    const pos = this.pos;
    const end = this.end;
    let start: number;
    const first = pos < end ? (bytes[pos] as number) : 0x80;
    const length = first >>> 1;
    if (first < 0x80 && (first & 1) === 0 && length <= this.limits.maxStringBytes && length < end - pos) {
      start = pos + 1;
      this.pos = start + length;
    } else {
      start = this.readLength(this.limits.maxStringBytes, 'string');
    }
    this.budget.charge(stringCost(this.pos - start), start);
    return this.text.read(start, this.pos);
  }

  /** A copy, so that the value outlives (and cannot alias) the input buffer. */
  readBytes(): Uint8Array {
    const start = this.readLength(this.limits.maxBytesLength, 'byte string');
    this.budget.charge(cost.bytes + this.pos - start, start);
    return this.bytes.slice(start, this.pos);
  }

  readFixed(size: number): Uint8Array {
    if (size > this.limits.maxBytesLength)
      throw tooLong(this.pos, size, this.limits.maxBytesLength, 'byte string');
    if (this.pos + size > this.end) throw truncated(this.pos, 'a fixed');
    this.budget.charge(cost.bytes + size, this.pos);
    const start = this.pos;
    this.pos += size;
    return this.bytes.slice(start, this.pos);
  }

  skip(size: number): void {
    if (size > this.end - this.pos) throw truncated(this.end, 'a value');
    this.pos += size;
  }

  /** A union branch index, checked against the number of branches. */
  readBranch(count: number): number {
    const at = this.pos;
    const index = this.readLong();
    if (!(index >= 0 && index < count)) throw mismatch(at, `union branch ${index} does not exist`);
    return index;
  }
}
