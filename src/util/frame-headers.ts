/**
 * The headers of LZ4 frames (lz4/doc/lz4_Frame_format.md) and Zstandard frames (RFC 8878), read
 * without decoding anything: where a frame's blocks start, what size it declares, how each block
 * is stored and what it can decode to. Two layers walk such frames before a native library (which
 * takes no output limit) sees them: the compression layer (lz4-frames.ts, zstd-frames.ts) and the
 * codecs that inflate blocks of their own (codecs/core/frame-bounds.ts: Avro containers, Arrow IPC
 * bodies). Codecs may not import the compression layer, so the format's layout lives here, below
 * both; each walk keeps its own loop, because each decides differently what to refuse and when.
 *
 * A reader returns a string where the bytes cannot be what it reads: the reason, worded for an
 * error message, which the caller wraps in its own error (or turns into "not whole frames").
 */

/** True for the 16 magic numbers of skippable frames (0x184D2A5X), which LZ4 and zstd share. */
export function isSkippableMagic(magic: number): boolean {
  return magic >>> 4 === 0x184d2a5;
}

function truncated(bytes: Uint8Array): string {
  return `the frame is truncated at byte ${bytes.length}`;
}

/** Where the skippable frame at `offset` ends (its magic is checked): 8 header bytes, then its stated size. */
export function skippableFrameEnd(bytes: Uint8Array, view: DataView, offset: number): number | string {
  if (offset + 8 > bytes.length) return truncated(bytes);
  const end = offset + 8 + view.getUint32(offset + 4, true);
  return end > bytes.length ? truncated(bytes) : end;
}

export const lz4FrameMagic = 0x184d2204;
/** The magic of the legacy frame (`lz4 -l`), which neither walk reads. */
export const lz4LegacyMagic = 0x184c2102;

export interface Lz4FrameHeader {
  /** The block maximum (64 KiB to 4 MiB): no block's content is larger. */
  readonly blockMax: number;
  readonly blockChecksums: boolean;
  /** The 4-byte checksum after the end mark. */
  readonly contentChecksum: boolean;
  /** The content size the frame declares, if it does. */
  readonly declared: number | undefined;
  /** Where the first block starts. */
  readonly blocksAt: number;
}

/** The header of the LZ4 frame at `offset`, whose magic number has been checked. */
export function readLz4FrameHeader(
  bytes: Uint8Array,
  view: DataView,
  offset: number,
): Lz4FrameHeader | string {
  if (offset + 7 > bytes.length) return truncated(bytes);
  const flags = bytes[offset + 4] as number;
  const blockMaxCode = ((bytes[offset + 5] as number) >> 4) & 7;
  if (flags >> 6 !== 1) return `frame version ${flags >> 6} is not 1`;
  if (blockMaxCode < 4) return `block maximum code ${blockMaxCode} is reserved`;
  let at = offset + 6;
  let declared: number | undefined;
  if ((flags & 0x08) !== 0) {
    if (at + 8 > bytes.length) return truncated(bytes);
    declared = view.getUint32(at, true) + view.getUint32(at + 4, true) * 2 ** 32;
    at += 8;
  }
  if ((flags & 0x01) !== 0) at += 4; // dictionary id
  at += 1; // header checksum, verified by the library that decodes the frame
  return {
    blockMax: 2 ** (8 + 2 * blockMaxCode),
    blockChecksums: (flags & 0x10) !== 0,
    contentChecksum: (flags & 0x04) !== 0,
    declared,
    blocksAt: at,
  };
}

/** One LZ4 block: its bytes lie at [at, at + size). */
export interface Lz4Block {
  readonly at: number;
  readonly size: number;
  /** Stored uncompressed (the size word's high bit): it decodes to exactly `size` bytes. */
  readonly stored: boolean;
  /** Where the next block starts, after this one's checksum if the frame has them. */
  readonly next: number;
}

/**
 * The block at `offset` of a frame with `header`, whose bytes are all present; null at the end
 * mark, after which come the content checksum (if any) and the frame's end.
 */
export function readLz4Block(
  bytes: Uint8Array,
  view: DataView,
  offset: number,
  header: Lz4FrameHeader,
): Lz4Block | null | string {
  if (offset + 4 > bytes.length) return truncated(bytes);
  const word = view.getUint32(offset, true);
  if (word === 0) return null;
  const size = word & 0x7fff_ffff;
  if (size > header.blockMax) return `a block of ${size} bytes exceeds the frame's ${header.blockMax}`;
  const at = offset + 4;
  if (at + size > bytes.length) return truncated(bytes);
  return { at, size, stored: word >>> 31 === 1, next: at + size + (header.blockChecksums ? 4 : 0) };
}

/** The most an LZ4 block can decode to: 255 times its size (a match-length byte of 255 is its densest code), and never past the block maximum. */
export function lz4BlockBound(block: Lz4Block, header: Lz4FrameHeader): number {
  return block.stored ? block.size : Math.min(header.blockMax, 255 * block.size);
}

export const zstdFrameMagic = 0xfd2fb528;
/** RFC 8878 Block_Maximum_Size: a block's content is at most 128 KiB (less when the window is smaller). */
export const zstdBlockMax = 128 * 1024;

export interface ZstdFrameHeader {
  /** Where the first block starts. */
  readonly blocksAt: number;
  readonly declared: number | undefined;
  /** The 4-byte checksum after the last block. */
  readonly checksum: boolean;
  /** Where a content size goes when the header has none (after window and dictionary id). */
  readonly sizeAt: number;
}

/** Little-endian, `count` bytes (up to 8, past 2^53 inexact, as a size only needs to be large). */
function readUintLE(bytes: Uint8Array, offset: number, count: number): number {
  let value = 0;
  for (let i = count - 1; i >= 0; i--) value = value * 256 + (bytes[offset + i] as number);
  return value;
}

/** The header of the zstd frame at `offset`, whose magic number has been checked. */
export function readZstdFrameHeader(bytes: Uint8Array, offset: number): ZstdFrameHeader | string {
  const descriptor = bytes[offset + 4];
  if (descriptor === undefined) return 'the frame header is truncated';
  if ((descriptor & 0x08) !== 0) return 'a reserved bit of the frame header is set';
  const singleSegment = (descriptor & 0x20) !== 0;
  const sizeFlag = descriptor >> 6;
  const sizeBytes = sizeFlag === 0 ? (singleSegment ? 1 : 0) : 2 ** sizeFlag;
  const idFlag = descriptor & 3;
  const dictionaryIdBytes = idFlag === 3 ? 4 : idFlag; // 0, 1, 2 or 4 bytes
  const sizeAt = offset + 5 + (singleSegment ? 0 : 1) + dictionaryIdBytes;
  const blocksAt = sizeAt + sizeBytes;
  if (blocksAt > bytes.length) return 'the frame header is truncated';
  let declared: number | undefined;
  if (sizeBytes > 0) declared = readUintLE(bytes, sizeAt, sizeBytes) + (sizeBytes === 2 ? 256 : 0);
  return { blocksAt, declared, checksum: (descriptor & 0x04) !== 0, sizeAt };
}

/** One zstd block, read from its 3-byte header. */
export interface ZstdBlock {
  readonly last: boolean;
  /** The most it decodes to: exactly its stated size if raw or RLE, at most 128 KiB if compressed. */
  readonly bound: number;
  /** Where the next block (or the frame's checksum) starts: an RLE block stores one byte. */
  readonly next: number;
}

/** The block at `offset`, whose bytes are all present. */
export function readZstdBlock(bytes: Uint8Array, offset: number): ZstdBlock | string {
  if (offset + 3 > bytes.length) return truncated(bytes);
  const word = readUintLE(bytes, offset, 3);
  const type = (word >> 1) & 3;
  const size = word >>> 3;
  if (type === 3) return `a block at byte ${offset} has the reserved type`;
  if (size > zstdBlockMax) return `a block of ${size} bytes exceeds 128 KiB`;
  const next = offset + 3 + (type === 1 ? 1 : size);
  if (next > bytes.length) return truncated(bytes);
  return { last: (word & 1) === 1, bound: type === 2 ? zstdBlockMax : size, next };
}
