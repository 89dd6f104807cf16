/**
 * A growable byte buffer with protobuf's primitives. One writer serves many encodes (the buffer is
 * kept between calls), and `finish()` copies out exactly the bytes written.
 */
import { WirekitError } from '../../errors/index.js';

const textEncoder = new TextEncoder();

/** Strings up to this many UTF-16 units are encoded by hand: faster than a TextEncoder call. */
const shortString = 64;
/** A buffer that grew beyond this is dropped after the encode, so one huge value does not pin memory. */
const keepLimit = 1024 * 1024;

export function varintSize(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 128);
    size++;
  }
  return size;
}

export class Writer {
  buf: Uint8Array;
  pos = 0;
  /** Nesting of messages being written, bounded by `maxDepth` (see encode.ts). */
  depth = 0;
  readonly maxDepth: number;
  private view: DataView;

  constructor(maxDepth: number, size = 256) {
    this.maxDepth = maxDepth;
    this.buf = new Uint8Array(size);
    this.view = new DataView(this.buf.buffer);
  }

  /** Makes room for `n` more bytes. */
  ensure(n: number): void {
    if (this.pos + n > this.buf.length) this.grow(n);
  }

  private grow(n: number): void {
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  /** The bytes written, copied out; the writer is then empty and ready for the next value. */
  finish(): Uint8Array {
    const out = this.buf.slice(0, this.pos);
    this.reset();
    return out;
  }

  reset(): void {
    this.pos = 0;
    this.depth = 0;
    if (this.buf.length > keepLimit) {
      this.buf = new Uint8Array(256);
      this.view = new DataView(this.buf.buffer);
    }
  }

  byte(value: number): void {
    this.ensure(1);
    this.buf[this.pos++] = value;
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

  double(value: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, value, true);
    this.pos += 8;
  }

  bytes(value: Uint8Array): void {
    this.varint(value.length);
    this.ensure(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
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
    const length = units <= shortString ? this.utf8(value, start) : this.utf8Long(value, start);
    const actual = varintSize(length);
    if (actual < prefix) this.buf.copyWithin(this.pos + actual, start, start + length);
    this.pos = this.put(this.pos, length) + length;
  }

  private utf8(value: string, start: number): number {
    const buf = this.buf;
    let pos = start;
    for (let i = 0; i < value.length; i++) {
      let code = value.charCodeAt(i);
      if (code < 0x80) {
        buf[pos++] = code;
      } else if (code < 0x800) {
        buf[pos++] = 0xc0 | (code >> 6);
        buf[pos++] = 0x80 | (code & 0x3f);
      } else if (code < 0xd800 || code >= 0xe000) {
        buf[pos++] = 0xe0 | (code >> 12);
        buf[pos++] = 0x80 | ((code >> 6) & 0x3f);
        buf[pos++] = 0x80 | (code & 0x3f);
      } else {
        const next = i + 1 < value.length ? value.charCodeAt(i + 1) : 0;
        if (code > 0xdbff || next < 0xdc00 || next > 0xdfff) throw loneSurrogate();
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i++;
        buf[pos++] = 0xf0 | (code >> 18);
        buf[pos++] = 0x80 | ((code >> 12) & 0x3f);
        buf[pos++] = 0x80 | ((code >> 6) & 0x3f);
        buf[pos++] = 0x80 | (code & 0x3f);
      }
    }
    return pos - start;
  }

  private utf8Long(value: string, start: number): number {
    if (!value.isWellFormed()) throw loneSurrogate();
    return textEncoder.encodeInto(value, this.buf.subarray(start)).written;
  }

  /** Reserves a one-byte length prefix for a nested message; `end` fills it in. */
  begin(): number {
    this.ensure(1);
    return this.pos++;
  }

  /** Writes the length of what followed `begin`, moving it along when the length needs more bytes. */
  end(start: number): void {
    const length = this.pos - start - 1;
    if (length < 0x80) {
      this.buf[start] = length;
      return;
    }
    const size = varintSize(length);
    this.ensure(size - 1);
    this.buf.copyWithin(start + size, start + 1, this.pos);
    this.put(start, length);
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

function loneSurrogate(): WirekitError {
  return new WirekitError(
    'WK_ENCODE_UNSUPPORTED',
    'a string holds a lone surrogate, which UTF-8 cannot carry.',
    { path: [] },
  );
}
