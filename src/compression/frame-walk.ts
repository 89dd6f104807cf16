/**
 * What the walks over LZ4 frames (lz4-frames.ts) and Zstandard frames (zstd-frames.ts) share. Both
 * formats allow frames back to back, both define the same skippable frames, and both walks refuse
 * empty or cut-off input the same way, before any library sees it. The frames' layout itself is
 * read by util/frame-headers.ts, which the codecs' own walks share; this module turns the faults it
 * names into this layer's WK_COMPRESSION_FAILED.
 */
import { isSkippableMagic, skippableFrameEnd } from '../util/frame-headers.js';
import { corrupt } from './checks.js';

/** The input of a walk: its bytes, a view for the little-endian words, and its checks. */
export interface FrameInput {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  /** Refuses the input as truncated unless `count` bytes follow `offset`. */
  readonly need: (offset: number, count: number) => void;
  /** `read`, unless it is a fault named by a frame-headers reader: then the input is refused as corrupt. */
  readonly valid: <T>(read: T | string) => T;
}

/** The input of a walk over `name` frames; empty input is refused as corrupt. */
export function frameInput(bytes: Uint8Array, name: 'lz4' | 'zstd'): FrameInput {
  const need = (offset: number, count: number): void => {
    if (offset + count > bytes.length) throw corrupt(name, `the frame is truncated at byte ${bytes.length}`);
  };
  const valid = <T>(read: T | string): T => {
    if (typeof read === 'string') throw corrupt(name, read);
    return read;
  };
  if (bytes.length === 0) throw corrupt(name, 'the input is empty');
  return { bytes, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), need, valid };
}

/**
 * The magic number of the frame at `offset`, and where a skippable frame there ends (undefined for
 * any other frame).
 */
export function frameAt(input: FrameInput, offset: number): { magic: number; skippedTo: number | undefined } {
  input.need(offset, 4);
  const magic = input.view.getUint32(offset, true);
  if (!isSkippableMagic(magic)) return { magic, skippedTo: undefined };
  return { magic, skippedTo: input.valid(skippableFrameEnd(input.bytes, input.view, offset)) };
}
