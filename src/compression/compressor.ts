import type { Transform } from 'node:stream';

/**
 * The one interface every compression algorithm implements. Callers (the envelope, the HTTP
 * boundary) hold a `Compressor` and never see which library sits beneath it, so an algorithm's
 * library can be swapped without any caller noticing.
 */

export const compressionNames = ['none', 'snappy', 'lz4', 'zstd', 'gzip', 'brotli'] as const;
export type CompressionName = (typeof compressionNames)[number];

/**
 * The largest output a decompressor produces unless told otherwise: the same 64 MiB as the codecs'
 * `maxInputBytes`, so that decompressing never yields more than a decoder would accept.
 */
export const defaultMaxDecompressedBytes = 64 * 1024 * 1024;

export { defaultMaxDecompressionRatio, ratioFloorBytes } from '../util/decompression-ratio.js';

export interface DecompressOptions {
  /**
   * Refuse (WK_LIMIT_DECOMPRESSED) output larger than this many bytes. Checked before the output
   * is allocated where the format declares its size, and by an early abort elsewhere; see
   * docs/compression.md for each algorithm. Default `defaultMaxDecompressedBytes`.
   */
  readonly maxDecompressedBytes?: number;
  /**
   * Refuse (WK_LIMIT_DECOMPRESSED) output larger than this many times the compressed input (but
   * never below `ratioFloorBytes`), checked as maxDecompressedBytes is: the lower of the two caps
   * applies. At least 1; `Infinity` turns it off. Default `defaultMaxDecompressionRatio`.
   */
  readonly maxDecompressionRatio?: number;
}

export interface Compressor {
  readonly name: CompressionName;
  /** Stable id for the self-describing envelope; never renumbered once released. */
  readonly id: number;
  /** The HTTP Content-Encoding token, where the algorithm has one (gzip, br, zstd). */
  readonly httpEncoding?: string;
  /**
   * Compresses `bytes` on the calling thread. `level` is validated against the algorithm's range
   * (WK_OPTIONS_INVALID outside it) and ignored by algorithms that have no levels (none, snappy, lz4).
   */
  compress(bytes: Uint8Array, level?: number): Uint8Array;
  /** Throws only WirekitErrors: WK_COMPRESSION_FAILED for corrupt input, WK_LIMIT_DECOMPRESSED. */
  decompress(bytes: Uint8Array, options?: DecompressOptions): Uint8Array;
  /**
   * Like `compress`, on a native worker thread so the event loop keeps running. Do not change
   * `bytes` before the promise settles: the worker reads them in place.
   */
  compressAsync(bytes: Uint8Array, level?: number): Promise<Uint8Array>;
  /** Like `decompress`, on a native worker thread; rejects only with WirekitErrors. */
  decompressAsync(bytes: Uint8Array, options?: DecompressOptions): Promise<Uint8Array>;
  /**
   * A Node stream that compresses bytes as they pass and flushes after every write, so that what
   * was written reaches the reader at once (a streamed reply's rows are not held back until a block
   * fills). `level` is checked as for `compress`. Only where the algorithm streams on Node 20: gzip
   * and brotli (node:zlib has no streaming zstd before Node 22.15).
   */
  readonly flushingStream?: (level?: number) => Transform;
}
