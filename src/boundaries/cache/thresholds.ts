/**
 * When the cache compresses a value, and when it hands the work to libuv's thread pool: measured
 * per algorithm by `npm run bench:cache` (its threshold part: products items and records batches of
 * 256 B to 1 MiB in MessagePack, Avro and native JSON, sync against async, with the Redis client's
 * own loop time per byte counted as what a smaller value saves; docs/benchmarks.md, "Cache
 * boundary").
 *
 * - compressAbove: the smallest encoded size at which compressing saved at least 10 % of the bytes
 *   and a larger share of them than it added to the loop time of a cache round trip. snappy paid at
 *   every size measured (from 256 B), lz4 from about 530-590 B, zstd from 2-4 KiB.
 * - asyncAbove: the size from which async (de)compression blocked the loop less than sync, where a
 *   trip to the pool and back stops costing more than the work it moves: snappy 64-256 KiB
 *   (128 KiB on most inputs), lz4 32-64 KiB, zstd 4-36 KiB (16 KiB on most).
 *
 * gzip and brotli were not in that sweep: the compression bench found their async path blocking
 * more per 6 KB item and less per 0.9 MB batch; their thresholds here are zstd's compressAbove and
 * lz4's asyncAbove, chosen, not measured. A cache's `compressAbove` and `asyncAbove` options
 * override these.
 */
import type { CompressionName } from '../../compression/index.js';

export interface CompressionThresholds {
  /** Encoded values smaller than this are stored uncompressed. */
  readonly compressAbove: number;
  /** Values at least this large (uncompressed) are compressed and decompressed on the thread pool. */
  readonly asyncAbove: number;
}

const KiB = 1024;

export const compressionThresholds: Readonly<Record<CompressionName, CompressionThresholds>> = Object.freeze({
  none: { compressAbove: Number.POSITIVE_INFINITY, asyncAbove: Number.POSITIVE_INFINITY },
  snappy: { compressAbove: 256, asyncAbove: 128 * KiB },
  lz4: { compressAbove: 512, asyncAbove: 64 * KiB },
  zstd: { compressAbove: 4 * KiB, asyncAbove: 16 * KiB },
  gzip: { compressAbove: 4 * KiB, asyncAbove: 64 * KiB },
  brotli: { compressAbove: 4 * KiB, asyncAbove: 64 * KiB },
});

/**
 * How much larger a value is than its compressed payload, for deciding before decompressing where
 * to do it: the payload's size times this is taken as the value's. 2.5 is about what snappy and lz4
 * gave on the measured inputs at the sizes where the pool starts to pay (62-65 % smaller); zstd
 * shrinks more, so its values are if anything underestimated and stay on the loop a little longer.
 */
export const assumedCompressionRatio = 2.5;
