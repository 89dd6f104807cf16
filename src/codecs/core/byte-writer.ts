/**
 * The growable output buffer under every binary writer (protobuf, Avro, MessagePack, CBOR). What
 * they share lives here once: growth, the slab successive outputs are cut from, the DataView that
 * follows the buffer, raw byte copies and UTF-8 into reserved room. Each format's writer subclasses
 * it and keeps only its own primitives (varints and tags, zigzag longs, MessagePack and CBOR heads),
 * which read `buf`, `pos` and `view` directly, as protobuf-es's BinaryWriter does, so the hot paths
 * stay plain field loads on one class per format.
 *
 * Outputs are views into a slab (as Node's Buffer pool hands out small Buffers): values are written
 * one after another, `finish()` returns the bytes of the last one without copying, and bytes before
 * `start` belong to outputs already handed out, which nothing writes again. Copying each output out
 * into an ArrayBuffer of its own cost more than encoding a small message (a quarter of a 20-byte
 * Protobuf or MessagePack encode, `slice` ~50 ns against ~25 ns for a view). A view keeps its slab
 * (16 KiB) alive; a large output has a buffer of its own, copied out exactly when it would pin
 * more than twice its size.
 *
 * Arrow's column sink (arrow/encode/sink.ts) and the flatbuffers Builder helpers are not built on it: the
 * sink hands its buffer to Arrow (a view, never reused) and caps it at 2 GiB, and flatbuffers
 * writes back to front into the runtime's own Builder.
 */
import { uninitializedBytes } from '../../util/node-runtime.js';
import { loneSurrogate } from './utf8.js';

const encoder = new TextEncoder();

/** Strings up to this many UTF-16 units are encoded by hand: cheaper than a TextEncoder call. */
const handUtf8UpTo = 64;

/** The slab small outputs are cut from, and the free space below which a value starts a new one. */
const slabSize = 16 * 1024;
const slabMinFree = 1024;

/** A writer reused for one growing value at a time (a container's block) keeps a buffer up to this. */
const keepAtMost = 1 << 20;

/** An output this large and using less than half its buffer is copied out rather than pin the rest. */
const copyOutFrom = 64 * 1024;

export class ByteWriter {
  buf: Uint8Array;
  view: DataView;
  /** Where the value being written starts: bytes before it are outputs already handed out. */
  start = 0;
  pos = 0;
  /** The size of the last value too large for a slab: where the next growth jumps to. */
  private lastLarge = 0;

  constructor(private readonly slab = slabSize) {
    this.buf = uninitializedBytes(slab);
    this.view = new DataView(this.buf.buffer);
  }

  /** Makes room for `extra` more bytes. */
  ensure(extra: number): void {
    if (this.pos + extra > this.buf.length) this.grow(extra);
  }

  /**
   * A new buffer with room for the value being written and `extra` more, which moves to its front
   * (the old buffer stays with the outputs cut from it). A value outgrowing a slab doubles its own
   * buffer; after one that large, the next starts at about its size rather than doubling its way
   * up again (eleven copies for a 2 MB output).
   */
  private grow(extra: number): void {
    const length = this.pos - this.start;
    const needed = length + extra;
    let size = Math.max(this.slab, length * 2, this.lastLarge + (this.lastLarge >> 3));
    while (size < needed) size *= 2;
    this.lastLarge = 0;
    const next = uninitializedBytes(size);
    next.set(this.buf.subarray(this.start, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
    this.pos = length;
    this.start = 0;
  }

  /** Starts over on a fresh slab. */
  private replace(): void {
    this.buf = uninitializedBytes(this.slab);
    this.view = new DataView(this.buf.buffer);
    this.start = 0;
    this.pos = 0;
  }

  /**
   * Starts an output. A value starts a fresh slab when the current one is nearly full, or when the
   * buffer was grown for one large value (small outputs would pin it all).
   */
  beginOutput(): void {
    if (this.buf.length - this.pos < slabMinFree || this.buf.length > this.slab) this.replace();
    this.start = this.pos;
  }

  /** Drops the value being written (a failed encode): its bytes were never handed out. */
  reset(): void {
    this.pos = this.start;
    if (this.buf.length > this.slab) this.replace();
  }

  /**
   * Empties a writer whose bytes were copied elsewhere before the next value (a container's block
   * body, never handed out): it keeps its buffer, unless one huge block inflated it.
   */
  rewind(): void {
    this.start = 0;
    this.pos = 0;
    if (this.buf.length > keepAtMost) this.replace();
  }

  /** The value written since `beginOutput()`: a view into the slab, or its exact copy when large. */
  finish(): Uint8Array {
    const { start, pos } = this;
    this.start = pos;
    const length = pos - start;
    if (this.buf.length > this.slab) this.lastLarge = length;
    if (length >= copyOutFrom && length * 2 < this.buf.length) return this.buf.slice(start, pos);
    return new Uint8Array(this.buf.buffer, this.buf.byteOffset + start, length);
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
