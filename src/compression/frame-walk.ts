/**
 * What the walks over LZ4 frames (lz4-frames.ts) and Zstandard frames (zstd-frames.ts) share. Both
 * formats allow frames back to back, both define the same skippable frames (magic 0x184D2A5X, then
 * a 4-byte size, then that many bytes nobody decodes), and both walks refuse empty or cut-off input
 * the same way, before any library sees it.
 */
import { corrupt } from './checks.js';

/** True for the 16 magic numbers of skippable frames, which LZ4 and zstd share. */
export function isSkippableMagic(magic: number): boolean {
  return magic >>> 4 === 0x184d2a5;
}

/** The input of a walk: its bytes, a view for the little-endian words, and a bounds check. */
export interface FrameInput {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  /** Refuses the input as truncated unless `count` bytes follow `offset`. */
  readonly need: (offset: number, count: number) => void;
}

/** The input of a walk over `name` frames; empty input is refused as corrupt. */
export function frameInput(bytes: Uint8Array, name: 'lz4' | 'zstd'): FrameInput {
  const need = (offset: number, count: number): void => {
    if (offset + count > bytes.length) throw corrupt(name, `the frame is truncated at byte ${bytes.length}`);
  };
  if (bytes.length === 0) throw corrupt(name, 'the input is empty');
  return { bytes, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), need };
}

/**
 * The magic number of the frame at `offset`, and where a skippable frame there ends (undefined for
 * any other frame).
 */
export function frameAt(input: FrameInput, offset: number): { magic: number; skippedTo: number | undefined } {
  input.need(offset, 4);
  const magic = input.view.getUint32(offset, true);
  if (!isSkippableMagic(magic)) return { magic, skippedTo: undefined };
  input.need(offset, 8);
  const end = offset + 8 + input.view.getUint32(offset + 4, true);
  input.need(end, 0);
  return { magic, skippedTo: end };
}
