/**
 * One case of the cache benchmark's threshold part — one batch source, one format, one compressor —
 * in a process of its own; run by main.ts as `node threshold.js '<spec json>'`, it prints one JSON
 * line (ThresholdResult). For each value size measured (a batch of records or products items whose
 * encoding reaches that size) it measures, with the loop measures of ../loop-cost.ts:
 *
 * - the bytes before and after compression;
 * - the loop time of compress and decompress, sync and async, sample by sample in turn (async: the
 *   call until its promise is returned plus the loop's active time until the result);
 * - the loop time of the format's own encode + decode of that batch (sync), the rest of what a cache
 *   round trip costs the loop besides the client;
 * - the Redis client's loop time per SET + GET of the plain and of the compressed bytes (16 callers,
 *   as in the subjects' part), the other part, and what a smaller value saves it.
 *
 * Where compression starts to pay, and where async starts to block less than sync, is read from
 * these numbers by summary.ts, so that its criteria can change without measuring again.
 */
import { Redis } from 'ioredis';
import type { FormatName } from '../../codecs/codec.js';
import { createCodec } from '../../codecs/registry.js';
import { getCompressor } from '../../compression/index.js';
import { t } from '../../schema/index.js';
import { busyUsPerOp, type LoopTime, loopTimeOf, repeat, underLoad, warmUp } from '../loop-cost.js';
import { median } from '../stats.js';
import { type BatchSource, batchesFor, batchSources } from './values.js';

export const thresholdCompressions = ['snappy', 'lz4', 'zstd'] as const;
export type ThresholdCompression = (typeof thresholdCompressions)[number];
/** 'json-native' is JSON.stringify + UTF-8; the others are wirekit's codecs. */
export type ThresholdFormat = 'json-native' | FormatName;

export interface ThresholdSpec {
  readonly source: BatchSource;
  readonly format: ThresholdFormat;
  readonly compression: ThresholdCompression;
  /** Target sizes of the plain (uncompressed) encoding, in bytes, ascending. */
  readonly sizes: readonly number[];
  readonly budgetMs: number;
  /** How long each Redis client measurement runs, and with how many concurrent callers. */
  readonly clientMs: number;
  readonly clientCallers: number;
  readonly minOps: number;
  readonly redisUrl: string;
}

/** Medians in µs; async ones are what the loop is blocked (see LoopTime.blockedUs). */
export interface ModeCost {
  readonly compressUs: number;
  readonly decompressUs: number;
}

export interface SizePoint {
  readonly target: number;
  readonly items: number;
  readonly plainBytes: number;
  readonly compressedBytes: number;
  readonly sync: ModeCost;
  readonly async: ModeCost & { readonly compressSyncPartUs: number; readonly decompressSyncPartUs: number };
  readonly samples: number;
  /** The format's own encode + decode of the batch, µs on the loop (median). */
  readonly codecUs: number;
  /** The Redis client's loop µs per SET + GET, of the plain bytes and of the compressed ones. */
  readonly clientPlainUs: number;
  readonly clientCompressedUs: number;
}

export interface ThresholdResult {
  readonly spec: ThresholdSpec;
  readonly pid: number;
  readonly points: readonly SizePoint[];
}

interface BatchCodec {
  encode(batch: unknown[]): Uint8Array;
  decode(bytes: Uint8Array): unknown;
}

/** A batch's codec: the items wrapped in one record, so that formats whose root is a record hold them. */
function codecFor(format: ThresholdFormat, source: BatchSource): BatchCodec {
  if (format === 'json-native') {
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    return {
      encode: (batch) => encoder.encode(JSON.stringify(batch)),
      decode: (bytes) => JSON.parse(decoder.decode(bytes)),
    };
  }
  const Batch = t.object('Batch', { items: t.array(batchSources[source].schema) });
  const codec = createCodec(format, { schema: Batch });
  return {
    encode: (batch) => codec.encode({ items: batch } as never),
    decode: (bytes) => codec.decode(bytes),
  };
}

/** Enough items for the largest size in the densest encoding (Avro: ~70 B a record, ~4 KB a product). */
function poolFor(source: BatchSource, largest: number): unknown[] {
  const perItem = source === 'records' ? 60 : 3_000;
  return batchSources[source].generate(Math.ceil((largest * 1.2) / perItem) + 1);
}

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The loop's busy µs per SET + GET of `bytes`, from `clientCallers` callers on keys of their own. */
async function clientCost(
  spec: ThresholdSpec,
  redis: Redis,
  key: string,
  bytes: Uint8Array,
): Promise<number> {
  const value = asBuffer(bytes);
  const roundTrip = async (i: number) => {
    const at = `${key}:${i % spec.clientCallers}`;
    await redis.set(at, value);
    await redis.getBuffer(at);
    return bytes.length;
  };
  await underLoad(spec.clientMs / 4, 3, spec.clientCallers, roundTrip, false);
  return busyUsPerOp(await underLoad(spec.clientMs, spec.minOps, spec.clientCallers, roundTrip, false));
}

export async function runThreshold(spec: ThresholdSpec): Promise<ThresholdResult> {
  const codec = codecFor(spec.format, spec.source);
  const serialize = (batch: unknown[]) => codec.encode(batch);
  const compressor = getCompressor(spec.compression);
  const pool = poolFor(spec.source, spec.sizes.at(-1) ?? 0);
  const batches = batchesFor(pool, spec.sizes, serialize);
  const redis = new Redis(spec.redisUrl, { maxRetriesPerRequest: 1 });
  const points: SizePoint[] = [];
  try {
    await redis.flushdb();
    for (const { target, items, batch } of batches) {
      const plain = serialize(batch);
      const packed = compressor.compress(plain);
      const cap = { maxDecompressedBytes: plain.length };
      const samples = {
        syncCompress: [] as number[],
        syncDecompress: [] as number[],
        asyncCompress: [] as LoopTime<unknown>[],
        asyncDecompress: [] as LoopTime<unknown>[],
        codec: [] as number[],
      };
      const round = async (keep: boolean) => {
        const encode = await loopTimeOf(() => codec.encode(batch));
        const decode = await loopTimeOf(() => codec.decode(plain));
        const compress = await loopTimeOf(() => compressor.compress(plain));
        const decompress = await loopTimeOf(() => compressor.decompress(packed, cap));
        const compressAsync = await loopTimeOf(() => compressor.compressAsync(plain));
        const decompressAsync = await loopTimeOf(() => compressor.decompressAsync(packed, cap));
        if (!keep) return;
        samples.syncCompress.push(compress.blockedUs);
        samples.syncDecompress.push(decompress.blockedUs);
        samples.asyncCompress.push(compressAsync);
        samples.asyncDecompress.push(decompressAsync);
        samples.codec.push(encode.blockedUs + decode.blockedUs);
      };
      await warmUp(spec.budgetMs / 4, () => round(false));
      const count = await repeat(spec.budgetMs, spec.minOps, () => round(true));
      points.push({
        target,
        items,
        plainBytes: plain.length,
        compressedBytes: packed.length,
        sync: { compressUs: median(samples.syncCompress), decompressUs: median(samples.syncDecompress) },
        async: {
          compressUs: median(samples.asyncCompress.map((s) => s.blockedUs)),
          decompressUs: median(samples.asyncDecompress.map((s) => s.blockedUs)),
          compressSyncPartUs: median(samples.asyncCompress.map((s) => s.syncPartUs)),
          decompressSyncPartUs: median(samples.asyncDecompress.map((s) => s.syncPartUs)),
        },
        samples: count,
        codecUs: median(samples.codec),
        clientPlainUs: await clientCost(spec, redis, 'plain', plain),
        clientCompressedUs: await clientCost(spec, redis, 'compressed', packed),
      });
    }
  } finally {
    redis.disconnect();
  }
  return { spec, pid: process.pid, points };
}

const [specText] = process.argv.slice(2);
if (specText !== undefined && process.argv[1]?.endsWith('threshold.js')) {
  const result = await runThreshold(JSON.parse(specText) as ThresholdSpec);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
