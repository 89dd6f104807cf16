/**
 * The buffers of one record batch body, in order, as load.ts consumes them. For the common input
 * (uncompressed, little-endian) each buffer is a view into the input and each typed array a view
 * of it, copied only when misaligned: that path is a bounds check and a constructor call.
 *
 * Two kinds of input take a detour here, so that load.ts and everything after it never sees them:
 * - Compressed bodies (BodyCompression): each non-empty buffer is an int64 (LE) inflated length,
 *   -1 for bytes stored as they are, then the compressed bytes (ipc-compression.ts inflates them).
 *   Every length a body states is added up before a buffer is inflated, and refused past
 *   maxInputBytes (what the input could have held uncompressed) or past maxDecompressionRatio
 *   times the body's size: a small message cannot claim gigabytes.
 * - Big-endian writers (Schema.fbs endianness): each value wider than a byte is stored reversed,
 *   and is copied into native (little-endian) order as it is typed. Bitmaps, bytes and text need
 *   no swap; a decimal is one integer of its full width; an interval of months, days and
 *   nanoseconds is three integers.
 */
import { WirekitError } from '../../../errors/index.js';
import { ratioFloorBytes } from '../../../util/decompression-ratio.js';
import { malformed } from '../../core/errors.js';
import type { DecodeLimits } from '../../core/limits.js';
import { inflateBuffer } from '../ipc-compression.js';
import type { BatchHeader } from './messages.js';

export type TypedArrayCtor = {
  new (length: number): ArrayBufferView & ArrayLike<number | bigint>;
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): ArrayBufferView;
  readonly BYTES_PER_ELEMENT: number;
};

/** Bytes inflated so far: across an input held whole, or per record batch for streams. */
export interface InflateBudget {
  used: number;
}

export interface BodyOptions {
  /** The schema said the writer is big-endian. */
  readonly bigEndian: boolean;
  readonly inflated: InflateBudget;
  /** At most so many times the compressed body (never below ratioFloorBytes). */
  readonly maxDecompressionRatio: number;
}

const noSwap = undefined;

export class BodyBuffers {
  private next = 0;
  /** Where buffers that are not views of the body (inflated, swapped) came from, for errors. */
  private origins: WeakMap<Uint8Array, number> | undefined;
  readonly bigEndian: boolean;

  constructor(
    readonly header: BatchHeader,
    private readonly body: Uint8Array,
    /** Where the body starts in the whole input, for error offsets. */
    readonly base: number,
    limits: DecodeLimits,
    options: BodyOptions,
  ) {
    this.bigEndian = options.bigEndian;
    if (header.compression !== undefined) this.chargeInflation(limits, options);
  }

  /** How many buffers have been taken. */
  get used(): number {
    return this.next;
  }

  /** The next buffer, inflated when the body is compressed. */
  take(): Uint8Array {
    const { buffers, compression } = this.header;
    if (this.next * 2 >= buffers.length) throw malformed(this.base, 'a record batch has too few buffers');
    const offset = buffers[this.next * 2] as number;
    const length = buffers[this.next * 2 + 1] as number;
    this.next++;
    if (offset + length > this.body.length)
      throw malformed(
        this.base + Math.min(offset, this.body.length),
        'a buffer lies outside its message body',
      );
    const region = this.body.subarray(offset, offset + length);
    // Writers may leave an empty buffer out entirely, prefix included.
    if (compression === undefined || length === 0) return region;
    const stated = this.statedLength(region, offset);
    if (stated < 0) return region.subarray(8);
    const inflated = inflateBuffer(compression, region.subarray(8), stated);
    this.remember(inflated, this.base + offset);
    return inflated;
  }

  /** Where `buffer` lies (or came from) in the whole input. */
  offsetOf(buffer: Uint8Array): number {
    if (buffer.buffer === this.body.buffer) return this.base + (buffer.byteOffset - this.body.byteOffset);
    return this.origins?.get(buffer) ?? this.base;
  }

  private remember(copy: Uint8Array, origin: number): void {
    this.origins ??= new WeakMap();
    this.origins.set(copy, origin);
  }

  fail(buffer: Uint8Array, message: string): never {
    throw malformed(this.offsetOf(buffer), message);
  }

  /**
   * `buffer` as `count` elements of `Ctor`: a view when aligned, else a copy; from a big-endian
   * writer, a copy in native order, with runs of the widths in `swap` (each element by default)
   * reversed; a pattern of 1s is bytes already in native order.
   */
  typed<A>(
    Ctor: TypedArrayCtor,
    buffer: Uint8Array,
    count: number,
    what: string,
    swap: readonly number[] | undefined = noSwap,
  ): A {
    const bytes = count * Ctor.BYTES_PER_ELEMENT;
    if (buffer.length < bytes) this.fail(buffer, `the ${what} buffer is shorter than its values`);
    if (this.bigEndian && Math.max(...(swap ?? [Ctor.BYTES_PER_ELEMENT])) > 1) {
      const copy = new Ctor(count);
      const out = new Uint8Array(copy.buffer);
      swapInto(out, buffer, bytes, swap ?? [Ctor.BYTES_PER_ELEMENT]);
      this.remember(out, this.offsetOf(buffer));
      return copy as A;
    }
    if (buffer.byteOffset % Ctor.BYTES_PER_ELEMENT === 0)
      return new Ctor(buffer.buffer, buffer.byteOffset, count) as A;
    const copy = new Ctor(count);
    new Uint8Array(copy.buffer).set(buffer.subarray(0, bytes));
    return copy as A;
  }

  /**
   * The 16-byte views of a Utf8View or BinaryView column in native order: a length, then either
   * up to 12 bytes of the value, or a 4-byte prefix, a buffer index and an offset. Only the
   * integers are swapped, and the length decides which layout the rest has.
   */
  views(buffer: Uint8Array, count: number): Uint8Array {
    if (buffer.length < 16 * count) this.fail(buffer, 'the view buffer is shorter than its values');
    if (!this.bigEndian) return buffer;
    const out = new Uint8Array(16 * count);
    out.set(buffer.subarray(0, 16 * count));
    for (let at = 0; at < out.length; at += 16) {
      reverse(out, at, 4);
      const length = new DataView(out.buffer, at, 4).getInt32(0, true);
      if (length > 12) {
        reverse(out, at + 8, 4);
        reverse(out, at + 12, 4);
      }
    }
    this.remember(out, this.offsetOf(buffer));
    return out;
  }

  /**
   * Adds up the lengths the body's compressed buffers state, before any is inflated. Buffers out
   * of the body or too short for their prefix are left to `take`, which refuses them in order.
   */
  private chargeInflation(limits: DecodeLimits, options: BodyOptions): void {
    const { buffers } = this.header;
    let stated = 0;
    for (let i = 0; i < buffers.length; i += 2) {
      const offset = buffers[i] as number;
      const length = buffers[i + 1] as number;
      if (length < 8 || offset + length > this.body.length) continue;
      const size = this.statedLength(this.body.subarray(offset, offset + 8), offset);
      if (size > 0) stated += size;
    }
    const ratio = options.maxDecompressionRatio;
    const byRatio = Math.max(ratioFloorBytes, Math.floor(ratio * this.body.length));
    if (stated > byRatio)
      throw tooMuch(
        stated,
        `the ${byRatio} bytes maxDecompressionRatio (${ratio}) allows from a body of ${this.body.length}`,
      );
    const total = options.inflated.used + stated;
    if (total > limits.maxInputBytes)
      throw tooMuch(total, `maxInputBytes (${limits.maxInputBytes}), which bounds inflated bodies too`);
    options.inflated.used = total;
  }

  /** The int64 a compressed buffer starts with: its inflated length, or -1 for stored bytes. */
  private statedLength(region: Uint8Array, offset: number): number {
    if (region.length < 8)
      throw malformed(this.base + offset, 'a compressed buffer is shorter than its 8-byte length');
    const view = new DataView(region.buffer, region.byteOffset, 8);
    const low = view.getUint32(0, true);
    const high = view.getInt32(4, true);
    if (high === -1 && low === 0xffffffff) return -1;
    if (high < 0) throw malformed(this.base + offset, 'a compressed buffer states a negative length');
    return high * 4_294_967_296 + low;
  }
}

function tooMuch(size: number, limit: string): WirekitError {
  return new WirekitError(
    'WK_LIMIT_DECOMPRESSED',
    `compressed Arrow buffers state ${size} inflated bytes, more than ${limit}.`,
    { format: 'arrow' },
  );
}

/** Copies `length` bytes of `source` into `out`, reversing runs of the widths in `pattern`, repeated. */
function swapInto(out: Uint8Array, source: Uint8Array, length: number, pattern: readonly number[]): void {
  let at = 0;
  for (;;) {
    for (const width of pattern) {
      if (at + width > length) return;
      for (let b = 0; b < width; b++) out[at + b] = source[at + width - 1 - b] as number;
      at += width;
    }
  }
}

function reverse(bytes: Uint8Array, at: number, width: number): void {
  for (let i = at, j = at + width - 1; i < j; i++, j--) {
    const t = bytes[i] as number;
    bytes[i] = bytes[j] as number;
    bytes[j] = t;
  }
}
