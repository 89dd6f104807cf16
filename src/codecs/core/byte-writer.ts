/**
 * The growable output buffer under every binary writer (protobuf, Avro, MessagePack, CBOR). What
 * they share lives here once: growth, one buffer reused across encodes, the exact-size copy that
 * `finish()` hands out (never a view into the buffer the next encode overwrites), the DataView that
 * follows the buffer, raw byte copies and UTF-8 into reserved room. Each format's writer subclasses
 * it and keeps only its own primitives (varints and tags, zigzag longs, MessagePack and CBOR heads),
 * which read `buf`, `pos` and `view` directly, as protobuf-es's BinaryWriter does, so the hot paths
 * stay plain field loads on one class per format.
 *
 * Arrow's column sink (arrow/sink.ts) and the flatbuffers Builder helpers are not built on it: the
 * sink hands its buffer to Arrow (a view, never reused) and caps it at 2 GiB, and flatbuffers
 * writes back to front into the runtime's own Builder.
 */
import { loneSurrogate } from './utf8.js';

const encoder = new TextEncoder();

/** Strings up to this many UTF-16 units are encoded by hand: cheaper than a TextEncoder call. */
const handUtf8UpTo = 64;

/**
 * A buffer that grew past this is dropped after the encode, so one huge value does not pin memory.
 * The next growth starts at the size that value needed, rather than doubling its way up again
 * (eleven copies for a 2 MB output).
 */
const keepAtMost = 1 << 20;

/** What a writer made at a large size (an exact-size container block) goes back to. */
const smallSize = 1024;

export class ByteWriter {
  buf: Uint8Array;
  view: DataView;
  /** Where the value being written starts: 0, except in Avro's slab (earlier values sit before it). */
  start = 0;
  pos = 0;
  /** The size a buffer is made at, and goes back to after one large value. */
  private readonly initialSize: number;
  /** The size of the last value too large to keep its buffer for: where the next growth jumps to. */
  private lastLarge = 0;

  constructor(initialSize = 256) {
    this.initialSize = initialSize;
    this.buf = new Uint8Array(initialSize);
    this.view = new DataView(this.buf.buffer);
  }

  /** Makes room for `extra` more bytes. */
  ensure(extra: number): void {
    if (this.pos + extra > this.buf.length) this.grow(extra);
  }

  /** A new buffer with room for the value being written and `extra` more, which moves to its front. */
  private grow(extra: number): void {
    const needed = this.pos - this.start + extra;
    let size = Math.max(this.initialSize, this.buf.length * 2, this.lastLarge + (this.lastLarge >> 3));
    while (size < needed) size *= 2;
    this.lastLarge = 0;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(this.start, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
    this.pos -= this.start;
    this.start = 0;
  }

  /** Starts over on an empty buffer of `size` bytes. */
  protected replace(size: number): void {
    this.buf = new Uint8Array(size);
    this.view = new DataView(this.buf.buffer);
    this.start = 0;
    this.pos = 0;
  }

  /** Empties the writer; a buffer that one large value inflated is replaced by a small one. */
  reset(): void {
    if (this.buf.length > keepAtMost) {
      this.lastLarge = this.pos - this.start;
      this.replace(Math.min(this.initialSize, smallSize));
    }
    this.start = 0;
    this.pos = 0;
  }

  /** The value written, copied out exactly; the writer is then empty and ready for the next one. */
  finish(): Uint8Array {
    const out = this.buf.slice(this.start, this.pos);
    this.reset();
    return out;
  }

  byte(value: number): void {
    this.ensure(1);
    this.buf[this.pos++] = value;
  }

  /** Copies bytes that are already in the format (a byte string's body, pre-encoded keys, fixed). */
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

  /**
   * Writes `text` as UTF-8 at `at`, where room for 3 bytes per UTF-16 unit is already ensured, and
   * returns where it ends. A lone surrogate is refused: TextEncoder would write U+FFFD in its place.
   * Callers write the length prefix after, sized from a guess and moved when the guess was wrong.
   */
  utf8At(text: string, at: number): number {
    const units = text.length;
    const buf = this.buf;
    if (units > handUtf8UpTo) {
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

/** Bytes in the base-128 varint of a non-negative integer below 2^53 (protobuf's and Avro's). */
export function varintSize(value: number): number {
  let size = 1;
  while (value > 0x7f) {
    value = Math.floor(value / 128);
    size++;
  }
  return size;
}
