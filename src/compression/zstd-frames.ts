/**
 * Walks the Zstandard frame format (RFC 8878) without decompressing, to learn where each frame
 * ends and how large its output can be at most, before libzstd allocates anything: the
 * binding has no output limit of its own.
 *
 * A frame that declares its content size is bounded by it: libzstd fails as soon as a frame's
 * output passes its declared size, rather than go on (test/compression/bombs.test.ts holds a frame
 * declaring 1,000 bytes over 1 GiB of blocks). A frame that does not declare it is bounded by its blocks: a raw or RLE block
 * decodes to exactly its stated size, a compressed block to at most 128 KiB (Block_Maximum_Size).
 */

import { readZstdBlock, readZstdFrameHeader, zstdFrameMagic } from '../util/frame-headers.js';
import { blocksPassCap, type Cap, corrupt, tooLarge } from './checks.js';
import { frameAt, frameInput } from './frame-walk.js';

/** One frame, by its byte range in the input. */
export interface ZstdFrame {
  readonly start: number;
  readonly end: number;
}

/**
 * The frames in `bytes` (skippable frames left out), after checking that their declared sizes,
 * or for frames without one the most their blocks can hold, stay within `cap`. Throws
 * WK_COMPRESSION_FAILED for anything that is not a sequence of whole frames.
 */
export function zstdFrames(bytes: Uint8Array, cap: Cap): ZstdFrame[] {
  const input = frameInput(bytes, 'zstd');
  const { need, valid } = input;
  const frames: ZstdFrame[] = [];
  let total = 0;
  let offset = 0;
  while (offset < bytes.length) {
    const { magic, skippedTo } = frameAt(input, offset);
    if (skippedTo !== undefined) {
      offset = skippedTo;
      continue;
    }
    if (magic !== zstdFrameMagic) throw corrupt('zstd', `no zstd frame starts at byte ${offset}`);
    const start = offset;
    const header = valid(readZstdFrameHeader(bytes, offset));
    if (header.declared !== undefined && header.declared > cap.bytes)
      throw tooLarge('zstd', header.declared, cap);
    let blocks = 0;
    offset = header.blocksAt;
    for (let last = false; !last; ) {
      const block = valid(readZstdBlock(bytes, offset));
      blocks += block.bound;
      offset = block.next;
      last = block.last;
    }
    if (header.checksum) offset += 4;
    need(offset, 0);
    total += header.declared ?? blocks;
    if (total > cap.bytes) {
      throw header.declared === undefined ? blocksPassCap('zstd', cap, false) : tooLarge('zstd', total, cap);
    }
    frames.push({ start, end: offset });
  }
  return frames;
}

/**
 * `frame` (one whole frame, as the binding writes it) with its content size declared in the
 * header. The library streams and so leaves the size out; with it, a reader can allocate once,
 * check the cap exactly, and python-zstandard's one-shot `decompress` can read the frame. zstd
 * verifies the declared size when it decodes, so a wrong one is caught as corruption.
 */
export function declareContentSize(frame: Uint8Array, size: number): Uint8Array {
  if (
    frame.length < 6 ||
    new DataView(frame.buffer, frame.byteOffset, 4).getUint32(0, true) !== zstdFrameMagic
  ) {
    return frame;
  }
  const header = readZstdFrameHeader(frame, 0);
  if (typeof header === 'string') throw corrupt('zstd', header);
  if (header.declared !== undefined) return frame;
  const sizeBytes = size > 0xffff_ffff ? 8 : 4;
  const out = new Uint8Array(frame.length + sizeBytes);
  out.set(frame.subarray(0, header.sizeAt));
  out[4] = (frame[4] as number) | ((sizeBytes === 8 ? 3 : 2) << 6);
  let rest = size;
  for (let i = 0; i < sizeBytes; i++) {
    out[header.sizeAt + i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  out.set(frame.subarray(header.sizeAt), header.sizeAt + sizeBytes);
  return out;
}
