/**
 * How much compressed frames can inflate to, read from their headers alone, for the codecs that
 * inflate blocks of their own (Avro containers, Arrow IPC bodies). The native libraries beneath
 * inflate without a limit, so these walks are what keeps a few hostile bytes from allocating
 * gigabytes. They return undefined where the bytes are not whole frames; the caller names the
 * format in its error. The frames' layout is read by util/frame-headers.ts, as the compression
 * layer's walks read it (codecs may not import that layer); what is summed and when to stop is
 * these walks' own.
 */
import {
  isSkippableMagic,
  lz4BlockBound,
  lz4FrameMagic,
  readLz4Block,
  readLz4FrameHeader,
  readZstdBlock,
  readZstdFrameHeader,
  skippableFrameEnd,
  zstdFrameMagic,
} from '../../util/frame-headers.js';

export { zstdBlockMax } from '../../util/frame-headers.js';

/** The frame at `offset`: where a skippable one ends, true for one of `magic`, false for anything else. */
function frameAt(bytes: Uint8Array, view: DataView, offset: number, magic: number): number | boolean {
  if (offset + 4 > bytes.length) return false;
  const found = view.getUint32(offset, true);
  if (isSkippableMagic(found)) {
    const end = skippableFrameEnd(bytes, view, offset);
    return typeof end === 'string' ? false : end;
  }
  return found === magic;
}

/**
 * The most bytes a zstd stream can inflate to, from its frame and block headers alone (RFC 8878):
 * raw and RLE blocks state their size, a compressed block yields at most 128 KiB (and an RLE block
 * turns 4 bytes into 128 KiB); a declared content size is not trusted. Stops early once past
 * `cap`; undefined when the bytes are no sequence of whole frames.
 */
export function zstdBound(data: Uint8Array, cap: number): number | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let pos = 0;
  let total = 0;
  while (pos < data.length && total <= cap) {
    const frame = frameAt(data, view, pos, zstdFrameMagic);
    if (frame === false) return undefined;
    if (frame !== true) {
      pos = frame;
      continue;
    }
    const header = readZstdFrameHeader(data, pos);
    if (typeof header === 'string') return undefined;
    pos = header.blocksAt;
    for (let last = false; !last; ) {
      const block = readZstdBlock(data, pos);
      if (typeof block === 'string') return undefined;
      total += block.bound;
      pos = block.next;
      last = block.last;
    }
    if (header.checksum) pos += 4;
    if (pos > data.length) return undefined;
  }
  return total;
}

/** One LZ4 frame (lz4_Frame_format.md): where it lies in the input, and what it can inflate to. */
export interface Lz4Frame {
  readonly start: number;
  readonly end: number;
  /** An upper bound of its content: each block at most 255 times its size, and at most blockMax. */
  readonly bound: number;
  /** The frame's block maximum (64 KiB to 4 MiB): how far an honest bound may pass the content. */
  readonly blockMax: number;
  /** The content size the frame declares, if it does. */
  readonly declared: number | undefined;
}

/**
 * The LZ4 frames of `data` (skippable frames left out), with the bound of each, or undefined when
 * the bytes are no sequence of whole frames.
 */
export function lz4FrameBounds(data: Uint8Array): Lz4Frame[] | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const frames: Lz4Frame[] = [];
  let pos = 0;
  while (pos < data.length) {
    const frame = frameAt(data, view, pos, lz4FrameMagic);
    if (frame === false) return undefined;
    if (frame !== true) {
      pos = frame;
      continue;
    }
    const start = pos;
    const header = readLz4FrameHeader(data, view, pos);
    if (typeof header === 'string') return undefined;
    let bound = 0;
    pos = header.blocksAt;
    for (;;) {
      const block = readLz4Block(data, view, pos, header);
      if (typeof block === 'string') return undefined;
      if (block === null) break;
      bound += lz4BlockBound(block, header);
      pos = block.next;
    }
    pos += 4 + (header.contentChecksum ? 4 : 0); // the end mark, the content checksum
    if (pos > data.length) return undefined;
    frames.push({ start, end: pos, bound, blockMax: header.blockMax, declared: header.declared });
  }
  return frames;
}
