/**
 * How much compressed frames can inflate to, read from their headers alone, for the codecs that
 * inflate blocks of their own (Avro containers, Arrow IPC bodies). The native libraries beneath
 * inflate without a limit, so these walks are what keeps a few hostile bytes from allocating
 * gigabytes. They return undefined where the bytes are not whole frames; the caller names the
 * format in its error. (The compression layer has its own walks: codecs may not import it.)
 */

const zstdMagic = 0xfd2fb528;
/** RFC 8878: a block's content is at most 128 KiB (less when the window is smaller). */
export const zstdBlockMax = 128 * 1024;

/**
 * The most bytes a zstd stream can inflate to, from its frame and block headers alone (RFC 8878):
 * raw and RLE blocks state their size, a compressed block yields at most 128 KiB (and an RLE block
 * turns 4 bytes into 128 KiB). Stops early once past `cap`; undefined when the bytes are no
 * sequence of whole frames.
 */
export function zstdBound(data: Uint8Array, cap: number): number | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let pos = 0;
  let total = 0;
  const fits = (n: number): boolean => pos + n <= data.length;
  while (pos < data.length && total <= cap) {
    if (!fits(4)) return undefined;
    const magic = view.getUint32(pos, true);
    pos += 4;
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      if (!fits(4)) return undefined;
      pos += 4 + view.getUint32(pos, true);
      if (!fits(0)) return undefined;
      continue;
    }
    if (magic !== zstdMagic || !fits(1)) return undefined;
    const descriptor = data[pos++] as number;
    if (descriptor & 0x08) return undefined;
    const singleSegment = (descriptor >> 5) & 1;
    const fcsFlag = descriptor >> 6;
    const dictionaryBytes = [0, 1, 2, 4][descriptor & 3] as number;
    const contentSizeBytes = fcsFlag === 0 ? singleSegment : [0, 2, 4, 8][fcsFlag];
    pos += (singleSegment ? 0 : 1) + dictionaryBytes + (contentSizeBytes as number);
    for (let last = false; !last; ) {
      if (!fits(3)) return undefined;
      const header =
        (data[pos] as number) | ((data[pos + 1] as number) << 8) | ((data[pos + 2] as number) << 16);
      pos += 3;
      last = (header & 1) === 1;
      const type = (header >> 1) & 3;
      const size = header >>> 3;
      if (type === 3) return undefined;
      total += type === 2 ? zstdBlockMax : size;
      pos += type === 1 ? 1 : size;
      if (!fits(0)) return undefined;
    }
    if (descriptor & 0x04) pos += 4;
    if (!fits(0)) return undefined;
  }
  return total;
}

const lz4Magic = 0x184d2204;

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
 * the bytes are no sequence of whole frames. LZ4 cannot expand a block beyond 255 times its size
 * (a match-length byte of 255 is its densest code) nor beyond the frame's block maximum.
 */
export function lz4FrameBounds(data: Uint8Array): Lz4Frame[] | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const frames: Lz4Frame[] = [];
  let pos = 0;
  const fits = (n: number): boolean => pos + n <= data.length;
  while (pos < data.length) {
    if (!fits(8)) return undefined;
    const magic = view.getUint32(pos, true);
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      pos += 8 + view.getUint32(pos + 4, true);
      if (!fits(0)) return undefined;
      continue;
    }
    if (magic !== lz4Magic || !fits(7)) return undefined;
    const start = pos;
    const flags = data[pos + 4] as number;
    const blockMaxCode = ((data[pos + 5] as number) >> 4) & 7;
    if (flags >> 6 !== 1 || blockMaxCode < 4) return undefined;
    const blockMax = 2 ** (8 + 2 * blockMaxCode);
    const blockChecksums = (flags & 0x10) !== 0;
    pos += 6;
    let declared: number | undefined;
    if ((flags & 0x08) !== 0) {
      if (!fits(8)) return undefined;
      declared = view.getUint32(pos, true) + view.getUint32(pos + 4, true) * 2 ** 32;
      pos += 8;
    }
    if ((flags & 0x01) !== 0) pos += 4; // dictionary id
    pos += 1; // header checksum, verified by the library
    let bound = 0;
    for (;;) {
      if (!fits(4)) return undefined;
      const word = view.getUint32(pos, true);
      pos += 4;
      if (word === 0) break; // end mark
      const size = word & 0x7fff_ffff;
      if (size > blockMax || !fits(size)) return undefined;
      // The high bit marks a block stored uncompressed: it holds exactly its size.
      bound += word >>> 31 === 1 ? size : Math.min(blockMax, 255 * size);
      pos += size + (blockChecksums ? 4 : 0);
    }
    if ((flags & 0x04) !== 0) pos += 4; // content checksum
    if (!fits(0)) return undefined;
    frames.push({ start, end: pos, bound, blockMax, declared });
  }
  return frames;
}
