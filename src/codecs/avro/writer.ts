/**
 * A growable byte buffer with Avro's primitive encodings. One writer is reused across encodes (the
 * codec hands out an exact-size copy at the end), so steady-state encoding allocates only its output.
 */
import { WirekitError } from '../../errors/index.js';
import { checkWellFormed } from '../core/utf8.js';

const encoder = new TextEncoder();

/** Zigzag values below this fit a double exactly after doubling, so the number path stays exact. */
const NUMBER_PATH_LIMIT = 2 ** 52;

/** Buffers that grew past this are dropped after use, so one huge value does not pin its memory. */
const KEEP_LIMIT = 1024 * 1024;

/** The slab `take()` hands out views of, and the free space below which a new slab starts. */
const SLAB_SIZE = 16 * 1024;
const SLAB_MIN_FREE = 1024;

export class AvroWriter {
  buf: Uint8Array;
  view: DataView;
  /** Where the value being written starts; earlier bytes of a slab belong to values already taken. */
  start = 0;
  pos = 0;

  constructor(size = 256) {
    this.buf = new Uint8Array(size);
    this.view = new DataView(this.buf.buffer);
  }

  /** Empties the writer; a buffer that grew very large is replaced by a small one. */
  reset(): void {
    this.start = 0;
    this.pos = 0;
    if (this.buf.length > KEEP_LIMIT) this.replace(256);
  }

  /** An exact-size copy of what was written. */
  finish(): Uint8Array {
    return this.buf.slice(this.start, this.pos);
  }

  /**
   * Starts a value that `take()` will hand out. Values are written one after another into a slab
   * (as Node's Buffer pool does), because copying each out costs an allocation that, for outputs
   * over 64 bytes, takes longer than encoding them.
   */
  begin(): void {
    // A transferred slab is detached (length 0); a huge one would be pinned by tiny outputs.
    if (this.buf.length - this.pos < SLAB_MIN_FREE || this.buf.length > KEEP_LIMIT) this.replace(SLAB_SIZE);
    this.start = this.pos;
  }

  /** The value written since `begin()`, as a view into the slab (no copy). */
  take(): Uint8Array {
    const out = this.buf.subarray(this.start, this.pos);
    this.start = this.pos;
    return out;
  }

  private replace(size: number): void {
    this.buf = new Uint8Array(size);
    this.view = new DataView(this.buf.buffer);
    this.start = 0;
    this.pos = 0;
  }

  /** Makes room for `extra` more bytes, moving the value being written to the front of a new buffer. */
  ensure(extra: number): void {
    const needed = this.pos - this.start + extra;
    if (this.pos + extra <= this.buf.length) return;
    let size = Math.max(256, this.buf.length);
    while (size < needed * 2) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(this.start, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
    this.pos -= this.start;
    this.start = 0;
  }

  writeBool(value: boolean): void {
    this.ensure(1);
    this.buf[this.pos++] = value ? 1 : 0;
  }

  /** An Avro int: zigzag, then a varint of at most 5 bytes. `value` must be a 32-bit integer. */
  writeInt(value: number): void {
    this.ensure(5);
    let z = ((value << 1) ^ (value >> 31)) >>> 0;
    const buf = this.buf;
    let pos = this.pos;
    while (z > 0x7f) {
      buf[pos++] = (z & 0x7f) | 0x80;
      z >>>= 7;
    }
    buf[pos++] = z;
    this.pos = pos;
  }

  /** An Avro long from a safe integer. */
  writeLong(value: number): void {
    if (value >= -0x40000000 && value < 0x40000000) {
      this.writeInt(value);
      return;
    }
    if (value <= -NUMBER_PATH_LIMIT || value >= NUMBER_PATH_LIMIT) {
      this.writeLongBig(BigInt(value));
      return;
    }
    this.ensure(10);
    let z = value >= 0 ? value * 2 : -value * 2 - 1;
    const buf = this.buf;
    let pos = this.pos;
    while (z > 0x7f) {
      buf[pos++] = (z % 128) | 0x80;
      z = Math.floor(z / 128);
    }
    buf[pos++] = z;
    this.pos = pos;
  }

  /** An Avro long from a bigint in the signed 64-bit range (callers check the range). */
  writeLongBig(value: bigint): void {
    if (value > -0x40000000n && value < 0x40000000n) {
      this.writeInt(Number(value));
      return;
    }
    const z = BigInt.asUintN(64, (value << 1n) ^ (value >> 63n));
    let lo = Number(z & 0xffffffffn);
    let hi = Number(z >> 32n);
    this.ensure(10);
    const buf = this.buf;
    let pos = this.pos;
    // 7 bits at a time across the two 32-bit halves, so no bigint arithmetic runs per byte.
    while (hi > 0 || lo > 0x7f) {
      buf[pos++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    buf[pos++] = lo;
    this.pos = pos;
  }

  writeFloat(value: number): void {
    this.ensure(4);
    this.view.setFloat32(this.pos, value, true);
    this.pos += 4;
  }

  writeDouble(value: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, value, true);
    this.pos += 8;
  }

  writeBytes(bytes: Uint8Array): void {
    this.writeLong(bytes.length);
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** Appends raw bytes with no length prefix (fixed types, container headers). */
  writeRaw(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  writeString(text: string): void {
    const length = text.length;
    if (length < 64) {
      this.writeShortString(text, length);
      return;
    }
    checkWellFormed(text);
    // Reserve the widest prefix the UTF-8 length could need, encode, then close any gap.
    const most = length * 3;
    this.ensure(most + 10);
    const reserved = varintSize(most * 2);
    const start = this.pos + reserved;
    const { written } = encoder.encodeInto(text, this.buf.subarray(start));
    const needed = varintSize(written * 2);
    if (needed < reserved) this.buf.copyWithin(this.pos + needed, start, start + written);
    // Capacity is already there: a growth here would drop the text just encoded past `pos`.
    let z = written * 2;
    let pos = this.pos;
    while (z > 0x7f) {
      this.buf[pos++] = (z % 128) | 0x80;
      z = Math.floor(z / 128);
    }
    this.buf[pos++] = z;
    this.pos = pos + written;
  }

  /**
   * Short strings are encoded by hand: for the short keys and values that dominate records this is
   * several times faster than a TextEncoder call. The length prefix is assumed to take one byte (63
   * UTF-8 bytes at most) and the text is moved one byte along in the rare case it does not.
   */
  private writeShortString(text: string, length: number): void {
    this.ensure(length * 3 + 2);
    const buf = this.buf;
    const start = this.pos + 1;
    let pos = start;
    for (let i = 0; i < length; i++) {
      let c = text.charCodeAt(i);
      if (c < 0x80) {
        buf[pos++] = c;
      } else if (c < 0x800) {
        buf[pos++] = 0xc0 | (c >> 6);
        buf[pos++] = 0x80 | (c & 0x3f);
      } else if (c < 0xd800 || c > 0xdfff) {
        buf[pos++] = 0xe0 | (c >> 12);
        buf[pos++] = 0x80 | ((c >> 6) & 0x3f);
        buf[pos++] = 0x80 | (c & 0x3f);
      } else {
        const next = i + 1 < length ? text.charCodeAt(i + 1) : 0;
        if (c > 0xdbff || next < 0xdc00 || next > 0xdfff) {
          checkWellFormed(text);
          throw new WirekitError('WK_ENCODE_UNSUPPORTED', 'a string holds a lone surrogate.');
        }
        i++;
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        buf[pos++] = 0xf0 | (c >> 18);
        buf[pos++] = 0x80 | ((c >> 12) & 0x3f);
        buf[pos++] = 0x80 | ((c >> 6) & 0x3f);
        buf[pos++] = 0x80 | (c & 0x3f);
      }
    }
    const written = pos - start;
    if (written < 64) {
      buf[this.pos] = written * 2;
      this.pos = pos;
      return;
    }
    buf.copyWithin(start + 1, start, pos);
    buf[this.pos] = ((written * 2) & 0x7f) | 0x80;
    buf[this.pos + 1] = (written * 2) >> 7;
    this.pos = pos + 1;
  }
}

/** Bytes in the varint of a non-negative integer. */
export function varintSize(value: number): number {
  let size = 1;
  let rest = value;
  while (rest > 0x7f) {
    rest = Math.floor(rest / 128);
    size++;
  }
  return size;
}
