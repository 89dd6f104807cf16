/**
 * Protobuf's primitives (varints, zigzag, fixed-width floats, length-delimited strings and nested
 * messages) on the shared byte buffer (core/byte-writer.ts), which one writer keeps between encodes;
 * `finish()` hands out the bytes written as a view into its slab.
 */
import { ByteWriter, varintSize } from '../../core/byte-writer.js';

export class ProtobufWriter extends ByteWriter {
  /** Nesting of messages being written, bounded by `maxDepth` (see message.ts); each encode sets it to 0. */
  depth = 0;
  readonly maxDepth: number;

  constructor(maxDepth: number) {
    super();
    this.maxDepth = maxDepth;
  }

  /** An unsigned varint of a non-negative integer below 2^53. */
  varint(value: number): void {
    this.ensure(10);
    const buf = this.buf;
    let pos = this.pos;
    while (value > 0x7fffffff) {
      buf[pos++] = (value % 128) | 0x80;
      value = Math.floor(value / 128);
    }
    while (value > 0x7f) {
      buf[pos++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    buf[pos++] = value;
    this.pos = pos;
  }

  /** A 64-bit varint from its unsigned 32-bit halves. */
  varint64(lo: number, hi: number): void {
    this.ensure(10);
    const buf = this.buf;
    let pos = this.pos;
    while (hi !== 0) {
      buf[pos++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    while (lo > 0x7f) {
      buf[pos++] = (lo & 0x7f) | 0x80;
      lo >>>= 7;
    }
    buf[pos++] = lo;
    this.pos = pos;
  }

  /** A signed integer (|value| < 2^53) as a two's-complement 64-bit varint (proto's int64). */
  int64(value: number): void {
    if (value >= 0) {
      this.varint(value);
      return;
    }
    const hi = Math.floor(value / 4294967296);
    this.varint64((value - hi * 4294967296) >>> 0, hi >>> 0);
  }

  /** A signed integer (|value| < 2^53) zigzag-encoded (proto's sint64). */
  zigzag64(value: number): void {
    if (value < 4503599627370496 && value > -4503599627370496) {
      this.varint(value >= 0 ? value * 2 : -value * 2 - 1);
      return;
    }
    const hi = Math.floor(value / 4294967296);
    const lo = value - hi * 4294967296;
    const sign = hi >> 31;
    this.varint64(((lo << 1) ^ sign) >>> 0, (((hi << 1) | (lo >>> 31)) ^ sign) >>> 0);
  }

  float(value: number): void {
    this.ensure(4);
    this.view.setFloat32(this.pos, value, true);
    this.pos += 4;
  }

  /** The low 32 bits of an integer as four little-endian bytes (fixed32 and sfixed32). */
  fixed32(value: number): void {
    this.ensure(4);
    this.view.setUint32(this.pos, value >>> 0, true);
    this.pos += 4;
  }

  double(value: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, value, true);
    this.pos += 8;
  }

  bytes(value: Uint8Array): void {
    this.varint(value.length);
    this.raw(value);
  }

  /**
   * A length-prefixed UTF-8 string. The prefix is sized for the longest possible encoding (3 bytes
   * per UTF-16 unit) and the text moved back in the rare case it turns out shorter.
   */
  string(value: string): void {
    const units = value.length;
    const prefix = varintSize(units * 3);
    this.ensure(prefix + units * 3);
    const start = this.pos + prefix;
    const length = this.utf8At(value, start) - start;
    const actual = varintSize(length);
    if (actual < prefix) this.buf.copyWithin(this.pos + actual, start, start + length);
    this.pos = this.put(this.pos, length) + length;
  }

  /**
   * Reserves a one-byte length prefix for a nested message; `end` fills it in. The mark counts from
   * the output's start, since growing the buffer moves the output to the front of a new one.
   */
  begin(): number {
    this.ensure(1);
    return this.pos++ - this.start;
  }

  /** Writes the length of what followed `begin`, moving it along when the length needs more bytes. */
  end(mark: number): void {
    const start = this.start + mark;
    const length = this.pos - start - 1;
    if (length < 0x80) {
      this.buf[start] = length;
      return;
    }
    const size = varintSize(length);
    this.ensure(size - 1);
    // `ensure` may have moved the output: the prefix is found from the output's start again.
    const at = this.start + mark;
    this.buf.copyWithin(at + size, at + 1, this.pos);
    this.put(at, length);
    this.pos += size - 1;
  }

  /** Writes a varint at `pos` into room already made; returns the position after it. */
  private put(pos: number, value: number): number {
    const buf = this.buf;
    while (value > 0x7f) {
      buf[pos++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    buf[pos++] = value;
    return pos;
  }
}
