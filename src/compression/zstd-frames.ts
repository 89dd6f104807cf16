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
import { blocksPassCap, type Cap, corrupt, tooLarge } from './checks.js';
import { frameAt, frameInput } from './frame-walk.js';

const frameMagic = 0xfd2fb528;
const maxBlockBytes = 128 * 1024;

/** One frame, by its byte range in the input. */
export interface ZstdFrame {
  readonly start: number;
  readonly end: number;
}

interface FrameHeader {
  /** Where the blocks start. */
  readonly end: number;
  readonly declared: number | undefined;
  readonly checksum: boolean;
  /** Where a content size goes when the header has none (after window and dictionary id). */
  readonly sizeAt: number;
}

function readUintLE(bytes: Uint8Array, offset: number, count: number): number {
  let value = 0;
  for (let i = count - 1; i >= 0; i--) value = value * 256 + (bytes[offset + i] as number);
  return value;
}

/** Parses the header of the frame at `offset`, whose magic number has been checked. */
function frameHeader(bytes: Uint8Array, offset: number): FrameHeader {
  const descriptor = bytes[offset + 4];
  if (descriptor === undefined) throw corrupt('zstd', 'the frame header is truncated');
  if ((descriptor & 0x08) !== 0) throw corrupt('zstd', 'a reserved bit of the frame header is set');
  const singleSegment = (descriptor & 0x20) !== 0;
  const sizeFlag = descriptor >> 6;
  const sizeBytes = sizeFlag === 0 ? (singleSegment ? 1 : 0) : 2 ** sizeFlag;
  const idFlag = descriptor & 3;
  const dictionaryIdBytes = idFlag === 3 ? 4 : idFlag; // 0, 1, 2 or 4 bytes
  const sizeAt = offset + 5 + (singleSegment ? 0 : 1) + dictionaryIdBytes;
  const end = sizeAt + sizeBytes;
  if (end > bytes.length) throw corrupt('zstd', 'the frame header is truncated');
  let declared: number | undefined;
  if (sizeBytes > 0) declared = readUintLE(bytes, sizeAt, sizeBytes) + (sizeBytes === 2 ? 256 : 0);
  return { end, declared, checksum: (descriptor & 0x04) !== 0, sizeAt };
}

/**
 * The frames in `bytes` (skippable frames left out), after checking that their declared sizes,
 * or for frames without one the most their blocks can hold, stay within `cap`. Throws
 * WK_COMPRESSION_FAILED for anything that is not a sequence of whole frames.
 */
export function zstdFrames(bytes: Uint8Array, cap: Cap): ZstdFrame[] {
  const input = frameInput(bytes, 'zstd');
  const { need } = input;
  const frames: ZstdFrame[] = [];
  let total = 0;
  let offset = 0;
  while (offset < bytes.length) {
    const { magic, skippedTo } = frameAt(input, offset);
    if (skippedTo !== undefined) {
      offset = skippedTo;
      continue;
    }
    if (magic !== frameMagic) throw corrupt('zstd', `no zstd frame starts at byte ${offset}`);
    const start = offset;
    const header = frameHeader(bytes, offset);
    if (header.declared !== undefined && header.declared > cap.bytes)
      throw tooLarge('zstd', header.declared, cap);
    let blocks = 0;
    offset = header.end;
    for (let last = false; !last; ) {
      need(offset, 3);
      const word = readUintLE(bytes, offset, 3);
      const type = (word >> 1) & 3;
      const size = word >>> 3;
      last = (word & 1) === 1;
      if (type === 3) throw corrupt('zstd', `a block at byte ${offset} has the reserved type`);
      if (size > maxBlockBytes) throw corrupt('zstd', `a block of ${size} bytes exceeds 128 KiB`);
      // Raw and RLE blocks decode to exactly `size` bytes; an RLE block stores one byte.
      blocks += type === 2 ? maxBlockBytes : size;
      offset += 3 + (type === 1 ? 1 : size);
      need(offset, 0);
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
  if (frame.length < 6 || new DataView(frame.buffer, frame.byteOffset, 4).getUint32(0, true) !== frameMagic) {
    return frame;
  }
  const header = frameHeader(frame, 0);
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
