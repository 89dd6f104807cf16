/**
 * The ratio cap on decompression, shared by the compression layer and the codecs that inflate
 * blocks of their own (Avro containers): besides an absolute cap, an output may be at most so many
 * times its compressed input. The absolute cap alone lets 44 bytes of brotli inflate to 64 MiB of
 * `[[],[],…]` (1.5 million ×), which a decoder then turns into hundreds of MB of heap.
 */
import { WirekitError } from '../errors/index.js';

/**
 * How many times its compressed size an output may be unless told otherwise. Real payloads
 * compress 3-16× (wirekit's datasets, as JSON and MessagePack, with every algorithm at its
 * highest level; deflate cannot pass about 1,032× at all), while a bomb's ratio is in the
 * thousands to millions.
 */
export const defaultMaxDecompressionRatio = 1000;

/**
 * Outputs up to this size are allowed whatever the ratio, so that a small payload of very
 * repetitive data (a few bytes of brotli for a long run of zeros) still passes.
 */
export const ratioFloorBytes = 1024 * 1024;

/** `ratio`, or the default; anything but a number of at least 1 (Infinity: no ratio cap) is refused. */
export function resolveRatio(ratio: number | undefined): number {
  const resolved = ratio ?? defaultMaxDecompressionRatio;
  if (typeof resolved !== 'number' || !(resolved >= 1)) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `maxDecompressionRatio must be a number of at least 1 (Infinity for none), got ${String(resolved)}.`,
    );
  }
  return resolved;
}

/** The most `compressed` bytes may inflate to under `ratio`: never below ratioFloorBytes. */
export function ratioLimit(compressed: number, ratio: number): number {
  return Math.max(ratioFloorBytes, Math.floor(ratio * compressed));
}
