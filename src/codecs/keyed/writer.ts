/**
 * The growable output buffer that the MessagePack and CBOR emitters write into. Both formats are
 * big-endian and length-prefixed, so they share everything below the format's header bytes: one
 * buffer per codec instance is reused across calls, and each call ends with one exact-size copy.
 */
import { WirekitError } from '../../errors/index.js';

const encoder = new TextEncoder();

/** Strings longer than this go through TextEncoder.encodeInto; shorter ones are cheaper by hand. */
const nativeUtf8From = 64;

/**
 * A buffer that grew past this is dropped after the call, so one huge value does not pin memory.
 * The next call starts at the size that value needed, rather than doubling its way up from 1 KiB
 * again (eleven copies for a 2 MB output).
 */
const keepAtMost = 1 << 20;

export function loneSurrogate(): WirekitError {
  return new WirekitError(
    'WK_ENCODE_UNSUPPORTED',
    'a string holds a lone surrogate, which UTF-8 cannot carry.',
    { path: [] },
  );
}

export abstract class ByteWriter {
  protected buf: Uint8Array;
  protected view: DataView;
  protected pos = 0;
  /** Set while a call is writing, so that a re-entrant call (a getter that encodes) gets its own writer. */
  busy = false;
  /** The size of the last output too large to keep its buffer for: where the next call starts. */
  private lastLarge = 0;

  constructor(initialSize = 1024) {
    this.buf = new Uint8Array(initialSize);
    this.view = new DataView(this.buf.buffer);
  }

  /** Starts a new output. */
  begin(): void {
    this.pos = 0;
    this.busy = true;
    if (this.lastLarge > this.buf.length) {
      this.buf = new Uint8Array(this.lastLarge + (this.lastLarge >> 3));
      this.view = new DataView(this.buf.buffer);
    }
    this.lastLarge = 0;
  }

  /** The bytes written since `begin`, copied out so that the buffer can be reused. */
  finish(): Uint8Array {
    const out = this.buf.slice(0, this.pos);
    this.release();
    return out;
  }

  /** Ends a call that failed or finished, shrinking a buffer that one large value inflated. */
  release(): void {
    this.busy = false;
    if (this.buf.length > keepAtMost) {
      this.lastLarge = this.pos;
      this.buf = new Uint8Array(1024);
      this.view = new DataView(this.buf.buffer);
    }
  }

  protected ensure(bytes: number): void {
    if (this.pos + bytes > this.buf.length) this.grow(bytes);
  }

  private grow(bytes: number): void {
    let size = this.buf.length * 2;
    while (size < this.pos + bytes) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  protected byte(value: number): void {
    this.ensure(1);
    this.buf[this.pos++] = value;
  }

  protected byte2(head: number, value: number): void {
    this.ensure(2);
    this.buf[this.pos] = head;
    this.buf[this.pos + 1] = value;
    this.pos += 2;
  }

  protected byteUint16(head: number, value: number): void {
    this.ensure(3);
    this.buf[this.pos] = head;
    this.view.setUint16(this.pos + 1, value);
    this.pos += 3;
  }

  protected byteUint32(head: number, value: number): void {
    this.ensure(5);
    this.buf[this.pos] = head;
    this.view.setUint32(this.pos + 1, value);
    this.pos += 5;
  }

  /** `value` is a non-negative integer below 2^64, as a number (exact up to 2^53) or a bigint. */
  protected byteUint64(head: number, value: number | bigint): void {
    this.ensure(9);
    this.buf[this.pos] = head;
    if (typeof value === 'bigint') this.view.setBigUint64(this.pos + 1, value);
    else {
      this.view.setUint32(this.pos + 1, Math.floor(value / 0x1_0000_0000));
      this.view.setUint32(this.pos + 5, value >>> 0);
    }
    this.pos += 9;
  }

  /** `value` is an integer in [-2^63, 2^63 - 1], as a number (exact up to 2^53) or a bigint. */
  protected byteInt64(head: number, value: number | bigint): void {
    this.ensure(9);
    this.buf[this.pos] = head;
    if (typeof value === 'bigint') this.view.setBigInt64(this.pos + 1, value);
    else {
      const high = Math.floor(value / 0x1_0000_0000);
      this.view.setInt32(this.pos + 1, high);
      this.view.setUint32(this.pos + 5, value - high * 0x1_0000_0000);
    }
    this.pos += 9;
  }

  protected byteFloat32(head: number, value: number): void {
    this.ensure(5);
    this.buf[this.pos] = head;
    this.view.setFloat32(this.pos + 1, value);
    this.pos += 5;
  }

  protected byteFloat64(head: number, value: number): void {
    this.ensure(9);
    this.buf[this.pos] = head;
    this.view.setFloat64(this.pos + 1, value);
    this.pos += 9;
  }

  /** Copies bytes that are already in the format (compiled encoders copy pre-encoded keys). */
  raw(bytes: Uint8Array): void {
    const length = bytes.length;
    this.ensure(length);
    if (length <= 16) {
      const buf = this.buf;
      let at = this.pos;
      for (let i = 0; i < length; i++) buf[at++] = bytes[i] as number;
    } else this.buf.set(bytes, this.pos);
    this.pos += length;
  }

  /** The size of the text-string header for a string of `length` UTF-8 bytes. */
  protected abstract textHeaderSize(length: number): number;

  /** Writes the text-string header at the current position and moves past it. */
  protected abstract textHeader(length: number): void;

  /**
   * Writes `text` as UTF-8 after a header sized as if the text were ASCII (one byte per code
   * unit), then the real header. The bytes move only when the real header has another size, which
   * takes non-ASCII text near a header-size boundary.
   */
  protected text(text: string): void {
    const units = text.length;
    const guess = this.textHeaderSize(units);
    this.ensure(guess + units * 3 + 9);
    const start = this.pos + guess;
    const end = this.utf8At(text, start);
    const length = end - start;
    const actual = this.textHeaderSize(length);
    if (actual !== guess) this.buf.copyWithin(this.pos + actual, start, end);
    this.textHeader(length);
    this.pos += length;
  }

  /** Writes UTF-8 at `at` (space already ensured) and returns where it ends. */
  private utf8At(text: string, at: number): number {
    const units = text.length;
    const buf = this.buf;
    if (units >= nativeUtf8From) {
      if (!text.isWellFormed()) throw loneSurrogate();
      return at + encoder.encodeInto(text, buf.subarray(at)).written;
    }
    for (let i = 0; i < units; i++) {
      let unit = text.charCodeAt(i);
      if (unit < 0x80) {
        buf[at++] = unit;
      } else if (unit < 0x800) {
        buf[at++] = 0xc0 | (unit >> 6);
        buf[at++] = 0x80 | (unit & 0x3f);
      } else if (unit < 0xd800 || unit > 0xdfff) {
        buf[at++] = 0xe0 | (unit >> 12);
        buf[at++] = 0x80 | ((unit >> 6) & 0x3f);
        buf[at++] = 0x80 | (unit & 0x3f);
      } else {
        const next = unit <= 0xdbff && i + 1 < units ? text.charCodeAt(i + 1) : 0;
        if (next < 0xdc00 || next > 0xdfff) throw loneSurrogate();
        unit = 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00);
        i++;
        buf[at++] = 0xf0 | (unit >> 18);
        buf[at++] = 0x80 | ((unit >> 12) & 0x3f);
        buf[at++] = 0x80 | ((unit >> 6) & 0x3f);
        buf[at++] = 0x80 | (unit & 0x3f);
      }
    }
    return at;
  }
}
