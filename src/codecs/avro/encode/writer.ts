/**
 * Avro's primitive encodings (zigzag ints and longs, little-endian floats, length-prefixed bytes and
 * strings) on the shared byte buffer (core/byte-writer.ts). The interpreter (datum.ts) and the
 * compiled encoders (../compiled.ts) call the same ones. One writer is reused across encodes, and
 * outputs are cut from its slab (core/byte-writer.ts), so steady-state encoding allocates almost
 * nothing.
 */
import { ByteWriter, varintSize } from '../../core/byte-writer.js';

/** Zigzag values below this fit a double exactly after doubling, so the number path stays exact. */
const NUMBER_PATH_LIMIT = 2 ** 52;

export class AvroWriter extends ByteWriter {
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

  /**
   * An Avro long from a safe integer. Past 30 bits (timestamps, large ids) the varint is made from
   * two 32-bit halves rather than by a floating-point `%` per byte; beyond 2^52 the doubled value
   * is no longer exact, so it goes through a bigint.
   */
  writeLong(value: number): void {
    if (value >= -0x40000000 && value < 0x40000000) {
      this.writeInt(value);
      return;
    }
    if (!(value > -NUMBER_PATH_LIMIT && value < NUMBER_PATH_LIMIT)) {
      this.writeLongBig(BigInt(value));
      return;
    }
    const z = value >= 0 ? value * 2 : -value * 2 - 1;
    const lo = z >>> 0;
    this.writeVarint64(lo, (z - lo) / 0x100000000);
  }

  /** An Avro long from a bigint in the signed 64-bit range (callers check the range). */
  writeLongBig(value: bigint): void {
    if (value > -0x40000000n && value < 0x40000000n) {
      this.writeInt(Number(value));
      return;
    }
    const z = BigInt.asUintN(64, (value << 1n) ^ (value >> 63n));
    this.writeVarint64(Number(z & 0xffffffffn), Number(z >> 32n));
  }

  /**
   * The varint of a zigzagged long from its unsigned 32-bit halves, 7 bits at a time across both,
   * so that no floating-point `%` or bigint arithmetic runs per byte.
   */
  private writeVarint64(lo: number, hi: number): void {
    this.ensure(10);
    const buf = this.buf;
    let pos = this.pos;
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
    this.raw(bytes);
  }

  /** Appends raw bytes with no length prefix (fixed types, container headers). */
  writeRaw(bytes: Uint8Array): void {
    this.raw(bytes);
  }

  writeString(text: string): void {
    const length = text.length;
    if (length < 64) {
      this.writeShortString(text, length);
      return;
    }
    // Reserve the widest prefix the UTF-8 length could need, encode, then close any gap.
    const most = length * 3;
    this.ensure(most + 10);
    const reserved = varintSize(most * 2);
    const start = this.pos + reserved;
    const written = this.utf8At(text, start) - start;
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
   * Short strings (the keys and values that dominate records): the length prefix is assumed to take
   * one byte (63 UTF-8 bytes at most) and the text is moved one byte along in the rare case it does
   * not.
   */
  private writeShortString(text: string, length: number): void {
    this.ensure(length * 3 + 2);
    const buf = this.buf;
    const start = this.pos + 1;
    const pos = this.utf8At(text, start);
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
