/**
 * One case of the compression benchmark — one payload, one compressor — in a process of its own
 * (see main.ts). For both encodings of the payload (wirekit's schema-driven MessagePack and native
 * JSON) it measures the codec itself and then the compressor in both modes, and prints one JSON
 * line (CaseResult):
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
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createCodec } from '../../codecs/registry.js';
import { type CompressionName, type Compressor, getCompressor } from '../../compression/index.js';
import { t } from '../../schema/index.js';
import { Record8, recordsDataset } from '../datasets/index.js';
import { Product, products } from '../datasets/products.js';
import { median } from '../stats.js';

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

/** What a stream of operations did to the event loop. */
export interface StreamResult {
  /** p99 of the event-loop delay histogram (ms); includes the 1 ms timer interval itself. */
  readonly loopP99Ms: number;
  readonly loopMaxMs: number;
  /** Share of wall time the loop was not idle (event-loop utilization, 0-1). */
  readonly utilization: number;
  readonly ops: number;
  readonly opsPerSec: number;
  /** Uncompressed (encoded) megabytes per second (10^6 bytes). */
  readonly mbPerSec: number;
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

const nowNs = () => process.hrtime.bigint();
const usSince = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e3;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** Runs `body` until `ms` have passed and it ran at least `min` times. */
async function repeat(ms: number, min: number, body: (i: number) => void | Promise<void>): Promise<number> {
  const end = performance.now() + ms;
  let i = 0;
  for (; i < min || performance.now() < end; i++) await body(i);
  return i;
}

/**
 * Lets the JIT and the libraries settle before anything is timed: half a budget but at least 40 ms
 * (less left the MessagePack decoder several times slower than warm, ~1,000 items in), and 3 runs.
 */
function warmUp(spec: CaseSpec, body: (i: number) => void | Promise<void>): Promise<number> {
  return repeat(Math.max(40, spec.budgetMs / 2), 3, body);
}

/**
 * Runs `lanes` copies of `op` concurrently (each starting its next operation when its last one
 * finished) until `ms` have passed and `min` operations completed, while a 1 ms delay histogram
 * and the loop's utilization watch.
 */
async function stream(
  ms: number,
  min: number,
  lanes: number,
  op: (i: number) => Promise<number> | number,
  yieldBetween: boolean,
): Promise<StreamResult> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  // Let the histogram's timer start ticking before the load does.
  await sleep(2);
  histogram.enable();
  const elu = performance.eventLoopUtilization();
  const start = performance.now();
  const end = start + ms;
  let ops = 0;
  let bytes = 0;
  let next = 0;
  const lane = async () => {
    while (ops < min || performance.now() < end) {
      // Not `bytes += await …`: that reads `bytes` before the await, losing the other lanes' sums.
      const done = await op(next++);
      bytes += done;
      ops++;
      if (yieldBetween) await yieldToLoop();
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  const seconds = (performance.now() - start) / 1e3;
  const utilization = performance.eventLoopUtilization(elu).utilization;
  histogram.disable();
  return {
    loopP99Ms: histogram.percentile(99) / 1e6,
    loopMaxMs: histogram.max / 1e6,
    utilization,
    ops,
    opsPerSec: ops / seconds,
    mbPerSec: bytes / seconds / 1e6,
  };
}

async function measureSync(spec: CaseSpec, c: Compressor, inputs: Uint8Array[], packed: Uint8Array[]) {
  const n = inputs.length;
  await warmUp(spec, (i) => {
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
  const roundTrips = await stream(
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

/** One async call: the µs before the promise came back, the loop's active µs until the result, and wall µs. */
async function blockedAsync(call: () => Promise<Uint8Array>): Promise<[number, number, number]> {
  const start = nowNs();
  const promise = call();
  const syncPart = usSince(start);
  const elu = performance.eventLoopUtilization();
  await promise;
  const callback = performance.eventLoopUtilization(elu).active * 1e3;
  return [syncPart, callback, usSince(start)];
}

async function measureAsync(spec: CaseSpec, c: Compressor, inputs: Uint8Array[], packed: Uint8Array[]) {
  const n = inputs.length;
  await warmUp(spec, async (i) => {
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
    const [cs, cc, cw] = await blockedAsync(() => c.compressAsync(inputs[i % n] as Uint8Array));
    const [ds, dc, dw] = await blockedAsync(() => c.decompressAsync(packed[i % n] as Uint8Array));
    parts.compressSync.push(cs);
    parts.compress.push(cs + cc);
    parts.compressWall.push(cw);
    parts.decompressSync.push(ds);
    parts.decompress.push(ds + dc);
    parts.decompressWall.push(dw);
  });
  const roundTrips = await stream(
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

  await warmUp(spec, (i) => {
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
  const codecStream = await stream(
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
