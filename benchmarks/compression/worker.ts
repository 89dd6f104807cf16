/**
 * One case of the compression benchmark — one payload, one compressor — in a process of its own
 * (see main.ts). For both encodings of the payload (wirekit's schema-driven MessagePack and native
 * JSON) it measures the codec itself and then the compressor in both modes, and prints one JSON
 * line (CaseResult), with the loop measures of ../loop-cost.ts:
 *
 * - blocked per operation: the time the event loop cannot run anything else. Sync: the call.
 *   Async: the synchronous part of the call (until the promise is returned) plus the loop's active
 *   time between that and the continuation (libuv's completion callback, the promise jobs), read
 *   from `performance.eventLoopUtilization()`. One operation in flight at a time.
 * - under a steady stream of round trips (compress, then decompress the result): the p99 of a
 *   `monitorEventLoopDelay` histogram (1 ms resolution, so ~1.1 ms is an idle loop), and the
 *   throughput. Sync round trips run back to back with a `setImmediate` yield between them; async
 *   ones with `inflight` round trips in flight at once on libuv's pool.
 * - the codec: encode and decode per payload, and the same stream measure for encode+decode.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createCodec } from 'wirekit-ts/codecs';
import { type CompressionName, type Compressor, getCompressor } from 'wirekit-ts/compression';
import { median, Product, products, Record8, recordsDataset } from 'wirekit-ts/lab';
import { t } from 'wirekit-ts/schema';
import { loopTimeOf, nowNs, repeat, type StreamResult, underLoad, usSince, warmUp } from '../loop-cost.js';

export type { StreamResult } from '../loop-cost.js';

export const payloadNames = ['products', 'records'] as const;
export type PayloadName = (typeof payloadNames)[number];
export const benchCompressors = [
  'snappy',
  'lz4',
  'zstd',
  'gzip',
  'brotli',
] as const satisfies readonly CompressionName[];
export type BenchCompressor = (typeof benchCompressors)[number];
export const encodings = ['msgpack', 'json'] as const;
export type Encoding = (typeof encodings)[number];
export const modes = ['sync', 'async'] as const;
export type Mode = (typeof modes)[number];

export interface CaseSpec {
  readonly payload: PayloadName;
  readonly compressor: BenchCompressor;
  /** Items of `products` (each one payload), or rows of `records` (all in one payload). */
  readonly count: number;
  readonly seed: number;
  /** Time each blocked-per-operation measurement may take (at least `minOps` operations). */
  readonly budgetMs: number;
  /** How long each stream runs (at least `minOps` round trips); the codec's stream runs half as long. */
  readonly streamMs: number;
  readonly minOps: number;
  /** Async round trips in flight at once during the async stream. */
  readonly inflight: number;
  /** Which mode goes first; main.ts alternates it between processes so that order cannot bias a mode. */
  readonly asyncFirst: boolean;
}

export interface ModeResult {
  /** Median µs the loop is blocked per compress / decompress (async: syncPart + callback). */
  readonly compressUs: number;
  readonly decompressUs: number;
  /** Async only: the part of `compressUs`/`decompressUs` before the promise was returned. */
  readonly compressSyncPartUs?: number;
  readonly decompressSyncPartUs?: number;
  /** Median wall µs from the call to the result (async: includes the wait for the pool). */
  readonly compressWallUs: number;
  readonly decompressWallUs: number;
  readonly samples: number;
  /** A stream of round trips: compress, then decompress the result. */
  readonly stream: StreamResult;
}

export interface EncodingResult {
  readonly encoding: Encoding;
  readonly label: string;
  /** Mean bytes per payload, encoded and then compressed. */
  readonly bytes: number;
  readonly compressedBytes: number;
  /** Median µs per payload of the codec itself, on the calling thread. */
  readonly encodeUs: number;
  readonly decodeUs: number;
  /** A stream of encode+decode with a `setImmediate` yield between payloads. */
  readonly codecStream: StreamResult;
  readonly sync: ModeResult;
  readonly async: ModeResult;
}

export interface CaseResult {
  readonly spec: CaseSpec;
  readonly unit: 'item' | 'batch';
  /** Payloads cycled through: the items of `products`, or the one batch of `records`. */
  readonly payloads: number;
  /** The histogram's p99 on an idle loop in this process: the floor of every loop p99. */
  readonly idleLoopP99Ms: number;
  readonly threadPoolSize: number;
  readonly results: readonly EncodingResult[];
}

interface Codec {
  readonly label: string;
  encode(value: unknown): Uint8Array;
  decode(bytes: Uint8Array): unknown;
}

function codecFor(encoding: Encoding, payload: PayloadName): Codec {
  if (encoding === 'json') {
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    return {
      label: 'JSON (native)',
      encode: (value) => encoder.encode(JSON.stringify(value)),
      decode: (bytes) => JSON.parse(decoder.decode(bytes)),
    };
  }
  const codec = createCodec('msgpack', { schema: payload === 'products' ? Product : t.array(Record8) });
  return {
    label: 'msgpack (wirekit)',
    encode: (v) => codec.encode(v as never),
    decode: (b) => codec.decode(b),
  };
}

/** The values measured: each product alone, or all records as one array. Generators give flat strings. */
function payloadValues(spec: CaseSpec): unknown[] {
  if (spec.payload === 'products') return products(spec.count, spec.seed);
  if (spec.payload === 'records') return [recordsDataset.generate(spec.count, spec.seed)];
  throw new Error(`unknown payload ${String(spec.payload)}; known: ${payloadNames.join(', ')}`);
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** Lets the JIT and the libraries settle before anything is timed: half a budget (see warmUp). */
function settle(spec: CaseSpec, body: (i: number) => void | Promise<void>): Promise<number> {
  return warmUp(spec.budgetMs / 2, body);
}

async function measureSync(spec: CaseSpec, c: Compressor, inputs: Uint8Array[], packed: Uint8Array[]) {
  const n = inputs.length;
  await settle(spec, (i) => {
    c.decompress(c.compress(inputs[i % n] as Uint8Array));
  });
  const compress: number[] = [];
  const decompress: number[] = [];
  const samples = await repeat(spec.budgetMs, spec.minOps, (i) => {
    let start = nowNs();
    c.compress(inputs[i % n] as Uint8Array);
    compress.push(usSince(start));
    start = nowNs();
    c.decompress(packed[i % n] as Uint8Array);
    decompress.push(usSince(start));
  });
  const roundTrips = await underLoad(
    spec.streamMs,
    spec.minOps,
    1,
    (i) => {
      const bytes = inputs[i % n] as Uint8Array;
      c.decompress(c.compress(bytes));
      return bytes.length;
    },
    true,
  );
  return {
    compressUs: median(compress),
    decompressUs: median(decompress),
    compressWallUs: median(compress),
    decompressWallUs: median(decompress),
    samples,
    stream: roundTrips,
  } satisfies ModeResult;
}

async function measureAsync(spec: CaseSpec, c: Compressor, inputs: Uint8Array[], packed: Uint8Array[]) {
  const n = inputs.length;
  await settle(spec, async (i) => {
    await c.decompressAsync(await c.compressAsync(inputs[i % n] as Uint8Array));
  });
  const parts = {
    compressSync: [] as number[],
    compress: [] as number[],
    compressWall: [] as number[],
    decompressSync: [] as number[],
    decompress: [] as number[],
    decompressWall: [] as number[],
  };
  const samples = await repeat(spec.budgetMs, spec.minOps, async (i) => {
    const compress = await loopTimeOf(() => c.compressAsync(inputs[i % n] as Uint8Array));
    const decompress = await loopTimeOf(() => c.decompressAsync(packed[i % n] as Uint8Array));
    parts.compressSync.push(compress.syncPartUs);
    parts.compress.push(compress.blockedUs);
    parts.compressWall.push(compress.wallUs);
    parts.decompressSync.push(decompress.syncPartUs);
    parts.decompress.push(decompress.blockedUs);
    parts.decompressWall.push(decompress.wallUs);
  });
  const roundTrips = await underLoad(
    spec.streamMs,
    spec.minOps,
    spec.inflight,
    async (i) => {
      const bytes = inputs[i % n] as Uint8Array;
      await c.decompressAsync(await c.compressAsync(bytes));
      return bytes.length;
    },
    false,
  );
  return {
    compressUs: median(parts.compress),
    decompressUs: median(parts.decompress),
    compressSyncPartUs: median(parts.compressSync),
    decompressSyncPartUs: median(parts.decompressSync),
    compressWallUs: median(parts.compressWall),
    decompressWallUs: median(parts.decompressWall),
    samples,
    stream: roundTrips,
  } satisfies ModeResult;
}

async function measureEncoding(
  spec: CaseSpec,
  encoding: Encoding,
  values: unknown[],
  compressor: Compressor,
): Promise<EncodingResult> {
  const codec = codecFor(encoding, spec.payload);
  const n = values.length;
  const inputs = values.map((value) => codec.encode(value));
  const packed = inputs.map((bytes) => compressor.compress(bytes));

  await settle(spec, (i) => {
    codec.decode(codec.encode(values[i % n]));
  });
  const encode: number[] = [];
  const decode: number[] = [];
  await repeat(spec.budgetMs, spec.minOps, (i) => {
    let start = nowNs();
    codec.encode(values[i % n]);
    encode.push(usSince(start));
    start = nowNs();
    codec.decode(inputs[i % n] as Uint8Array);
    decode.push(usSince(start));
  });
  const codecStream = await underLoad(
    spec.streamMs / 2,
    spec.minOps,
    1,
    (i) => {
      const bytes = codec.encode(values[i % n]);
      codec.decode(bytes);
      return bytes.length;
    },
    true,
  );

  const sync = () => measureSync(spec, compressor, inputs, packed);
  const async = () => measureAsync(spec, compressor, inputs, packed);
  let syncResult: ModeResult;
  let asyncResult: ModeResult;
  if (spec.asyncFirst) {
    asyncResult = await async();
    syncResult = await sync();
  } else {
    syncResult = await sync();
    asyncResult = await async();
  }
  return {
    encoding,
    label: codec.label,
    bytes: sum(inputs.map((bytes) => bytes.length)) / n,
    compressedBytes: sum(packed.map((bytes) => bytes.length)) / n,
    encodeUs: median(encode),
    decodeUs: median(decode),
    codecStream,
    sync: syncResult,
    async: asyncResult,
  };
}

export async function runCase(spec: CaseSpec): Promise<CaseResult> {
  const compressor = getCompressor(spec.compressor);
  const values = payloadValues(spec);
  // The floor every loop p99 stands on: the histogram on a loop with nothing to do.
  const idle = monitorEventLoopDelay({ resolution: 1 });
  idle.enable();
  await sleep(Math.min(100, spec.streamMs / 2));
  idle.disable();
  const results: EncodingResult[] = [];
  for (const encoding of encodings) results.push(await measureEncoding(spec, encoding, values, compressor));
  return {
    spec,
    unit: spec.payload === 'products' ? 'item' : 'batch',
    payloads: values.length,
    idleLoopP99Ms: idle.percentile(99) / 1e6,
    threadPoolSize: Number(process.env.UV_THREADPOOL_SIZE ?? 4),
    results,
  };
}

const [specText] = process.argv.slice(2);
if (specText !== undefined && process.argv[1]?.endsWith('worker.js')) {
  const result = await runCase(JSON.parse(specText) as CaseSpec);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
