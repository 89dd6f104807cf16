/**
 * Walks the LZ4 frame format (lz4/doc/lz4_Frame_format.md) without decompressing, to learn where
 * each frame ends and how large its output is, before lz4-napi allocates anything: the library has
 * no output limit, and frames written by lz4_flex (our own), the lz4 CLI and python-lz4 do not
 * declare their content size unless asked to.
 *
 * Every block states its compressed size, and LZ4 cannot expand a block beyond 255 times that (a
 * match-length byte of 255 is its densest code) nor beyond the frame's block maximum. That bound
 * costs nothing to add up, and almost always settles the question. Only when it passes the cap are
 * the blocks measured exactly, by reading their sequence headers (a token, length bytes, an offset)
 * and skipping the literals: still no output is written, and the walk stays linear in the input.
 * Measuring exactly matters because lz4_flex picks 4 MiB blocks for inputs over 256 KiB, and a
 * bound a whole block too high would refuse payloads well inside a small cap.
 */

import {
  type Lz4Block,
  type Lz4FrameHeader,
  lz4BlockBound,
  lz4FrameMagic,
  lz4LegacyMagic,
  readLz4Block,
  readLz4FrameHeader,
} from '../util/frame-headers.js';
import { blocksPassCap, type Cap, corrupt, tooLarge } from './checks.js';
import { frameAt, frameInput } from './frame-walk.js';

/** One frame, by its byte range in the input. */
export interface Lz4Frame {
  readonly start: number;
  readonly end: number;
}

/** Reads an LZ4 length continuation: bytes of 255 add up until one below 255 ends it. */
function lengthBytes(bytes: Uint8Array, at: number, end: number): { value: number; next: number } {
  let value = 0;
  let i = at;
  for (;;) {
    if (i >= end) throw corrupt('lz4', 'a block ends inside a length');
    const byte = bytes[i++] as number;
    value += byte;
    if (byte !== 255) return { value, next: i };
  }
}

/** The exact decoded size of the compressed block in bytes[start, end), from its sequences. */
function blockContentSize(bytes: Uint8Array, start: number, end: number): number {
  let size = 0;
  let i = start;
  while (i < end) {
    const token = bytes[i++] as number;
    let literals = token >> 4;
    if (literals === 15) {
      const more = lengthBytes(bytes, i, end);
      literals += more.value;
      i = more.next;
    }
    i += literals;
    size += literals;
    if (i > end) throw corrupt('lz4', 'a block ends inside its literals');
    if (i === end) break; // the last sequence holds literals only
    if (i + 2 > end) throw corrupt('lz4', 'a block ends inside a sequence');
    i += 2; // match offset
    let match = (token & 15) + 4;
    if (match === 19) {
      const more = lengthBytes(bytes, i, end);
      match += more.value;
      i = more.next;
    }
    size += match;
  }
  return size;
}

type Measure = (bytes: Uint8Array, block: Lz4Block, header: Lz4FrameHeader) => number;

const bound: Measure = (_bytes, block, header) => lz4BlockBound(block, header);
const exact: Measure = (bytes, block) =>
  block.stored ? block.size : blockContentSize(bytes, block.at, block.at + block.size);

/** The frames in `bytes`, or undefined as soon as `measure`d output passes the cap. */
function walk(bytes: Uint8Array, cap: Cap, measure: Measure): Lz4Frame[] | undefined {
  const input = frameInput(bytes, 'lz4');
  const { view, need, valid } = input;
  const frames: Lz4Frame[] = [];
  let total = 0;
  let offset = 0;
  while (offset < bytes.length) {
    const { magic, skippedTo } = frameAt(input, offset);
    if (skippedTo !== undefined) {
      offset = skippedTo;
      continue;
    }
    if (magic === lz4LegacyMagic) throw corrupt('lz4', 'legacy LZ4 frames (lz4 -l) are not supported');
    if (magic !== lz4FrameMagic) throw corrupt('lz4', `no LZ4 frame starts at byte ${offset}`);
    const start = offset;
    const header = valid(readLz4FrameHeader(bytes, view, offset));
    if (header.declared !== undefined && header.declared > cap.bytes)
      throw tooLarge('lz4', header.declared, cap);
    offset = header.blocksAt;
    for (;;) {
      const block = valid(readLz4Block(bytes, view, offset, header));
      if (block === null) break; // end mark
      total += measure(bytes, block, header);
      if (total > cap.bytes) return undefined;
      offset = block.next;
      need(offset, 0);
    }
    offset += 4; // the end mark
    if (header.contentChecksum) offset += 4;
    need(offset, 0);
    frames.push({ start, end: offset });
  }
  return frames;
}

/**
 * The frames in `bytes` (skippable frames left out), after checking that neither a declared
 * content size nor the blocks' output passes `cap`. Throws WK_COMPRESSION_FAILED for anything
 * that is not a sequence of whole frames, WK_LIMIT_DECOMPRESSED past the cap.
 */
export function lz4Frames(bytes: Uint8Array, cap: Cap): Lz4Frame[] {
  const frames = walk(bytes, cap, bound) ?? walk(bytes, cap, exact);
  if (frames === undefined) throw blocksPassCap('lz4', cap, true);
  return frames;
}
