/**
 * One case of the cache benchmark's threshold part — one batch source, one format, one compressor —
 * in a process of its own; run by main.ts as `node threshold.js '<spec json>'`, it prints one JSON
 * line (ThresholdResult). For each value size measured (a batch of records or products items whose
 * encoding reaches that size) it measures, with the loop measures of ../loop-cost.ts:
 *
 * - the bytes before and after compression;
 * - the loop time of compress and decompress, sync and async, in slices taken in turns (medians
 *   over the operations; async: the call until its promise is returned plus the loop's active time
 *   until the result; the loop thread's CPU time over each slice is kept beside);
 * - the same for the format's own encode + decode of that batch, the rest of what a cache round
 *   trip costs the loop besides the client;
 * - the loop's busy time per SET + GET through the Redis client of the plain and of the compressed
 *   bytes (16 callers, as in the subjects' part), the other part, and what a smaller value saves it.
 *
 * Where compression starts to pay, and where async starts to block less than sync, is read from
 * these numbers by summary.ts, so that its criteria can change without measuring again.
 */
import { Redis } from 'ioredis';
import type { FormatName } from 'wirekit-ts/codecs';
import { createCodec } from 'wirekit-ts/codecs';
import { getCompressor } from 'wirekit-ts/compression';
import { median } from 'wirekit-ts/lab';
import { t } from 'wirekit-ts/schema';
import {
  busyUsPerOp,
  cpuPerOp,
  inSlice,
  type LoopTime,
  loopTimeOf,
  repeat,
  type Slice,
  underLoad,
  warmUp,
} from '../loop-cost.js';
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

/** µs per operation. */
export interface ModeCost {
  readonly compressUs: number;
  readonly decompressUs: number;
}

export interface SizePoint {
  readonly target: number;
  readonly items: number;
  readonly plainBytes: number;
  readonly compressedBytes: number;
  /** Medians of the loop time each operation blocked it (async: see LoopTime.blockedUs). */
  readonly sync: ModeCost;
  readonly async: ModeCost;
  /** The loop thread's CPU time per operation over the slices (thread-time.ts), as a cross-check. */
  readonly cpu: { readonly sync: ModeCost; readonly async: ModeCost };
  readonly samples: number;
  /** The format's own encode + decode of the batch, loop µs (median). */
  readonly codecUs: number;
  /** The loop's busy µs per SET + GET through the Redis client, of the plain and the compressed bytes. */
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
      const ops = {
        syncCompress: () => compressor.compress(plain),
        syncDecompress: () => compressor.decompress(packed, cap),
        asyncCompress: () => compressor.compressAsync(plain),
        asyncDecompress: () => compressor.decompressAsync(packed, cap),
        codec: () => codec.decode(codec.encode(batch)),
      };
      type Kind = keyof typeof ops;
      const kept = new Map(
        (Object.keys(ops) as Kind[]).map((kind) => [
          kind,
          { samples: [] as LoopTime<unknown>[], slices: [] as Slice[] },
        ]),
      );
      // In turns, a slice of each kind and again, so that load from elsewhere falls on them all. The
      // codec goes in a group of its own, after the compressors: a megabyte batch leaves megabytes of
      // garbage, and the collections it owes, run while an async call waited, were billed to that call.
      const measure = async (kinds: readonly Kind[]) => {
        await warmUp(spec.budgetMs / 4, async () => {
          for (const kind of kinds) await ops[kind]();
        });
        for (let turn = 0; turn < 2; turn++) {
          for (const kind of kinds) {
            const into = kept.get(kind) as { samples: LoopTime<unknown>[]; slices: Slice[] };
            const slice = await inSlice(() =>
              repeat(spec.budgetMs / (2 * kinds.length), spec.minOps, async () => {
                into.samples.push(await loopTimeOf(ops[kind]));
              }),
            );
            into.slices.push(slice);
          }
        }
      };
      await measure(['syncCompress', 'syncDecompress', 'asyncCompress', 'asyncDecompress']);
      await measure(['codec']);
      const kinds = [...kept.keys()];
      const cpu = (kind: keyof typeof ops) => cpuPerOp(kept.get(kind)?.slices ?? []);
      const wall = (kind: keyof typeof ops) => median(kept.get(kind)?.samples.map((s) => s.blockedUs) ?? []);
      const count = Math.min(...kinds.map((kind) => kept.get(kind)?.samples.length ?? 0));
      points.push({
        target,
        items,
        plainBytes: plain.length,
        compressedBytes: packed.length,
        sync: { compressUs: wall('syncCompress'), decompressUs: wall('syncDecompress') },
        async: { compressUs: wall('asyncCompress'), decompressUs: wall('asyncDecompress') },
        cpu: {
          sync: { compressUs: cpu('syncCompress'), decompressUs: cpu('syncDecompress') },
          async: { compressUs: cpu('asyncCompress'), decompressUs: cpu('asyncDecompress') },
        },
        samples: count,
        codecUs: wall('codec'),
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
