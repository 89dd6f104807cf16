/**
 * One subject of the cache benchmark in a process of its own, with the yardstick (the report's new
 * pipeline, JSON + async snappy) timed in the same process; run by main.ts as
 * `node worker.js '<spec json>'`, it prints one JSON line (CaseResult, or CaseFailure when the
 * subject cannot hold the values). With the loop measures of ../loop-cost.ts:
 *
 * - per value, alone: the loop time of the whole encode (value → stored bytes) and decode, and of
 *   each stage of a compressing subject on its own (serialize, compress, decompress, deserialize);
 *   medians over the operations, the loop thread's CPU time over each slice of them kept beside
 *   (see thread-time.ts).
 * - against the Redis server main.ts started: SET (encode, then SET) and GET (GET, then decode)
 *   streams from 1, 16 and 64 concurrent callers through one ioredis connection, each with its
 *   throughput, loop p99 and loop busy time per operation (the client's own work included); then a
 *   steady mixed load (half SET, half GET) at a fixed arrival rate, for the loop p99 a request sees.
 *
 * Every measurement runs in turns, the subject's slice and the yardstick's, four times round (two
 * for the steady load), so that load from elsewhere on the machine falls on both.
 */
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { firstDifference, median } from 'wirekit-ts/lab';
import {
  atSteadyRate,
  combined,
  cpuPerOp,
  inSlice,
  type LoopTime,
  loopDelayHistogram,
  loopTimeOf,
  repeat,
  type Slice,
  type SteadyResult,
  type StreamResult,
  underLoad,
  waitedShare,
  warmUp,
} from '../loop-cost.js';
import { threadClock, threadTime, threadTimeSince } from '../thread-time.js';
import type { Mode } from './adapter.js';
import { type CacheSubject, createCacheSubject, yardstick } from './subjects.js';
import { loadValues, type ValuesSpec } from './values.js';

export interface CaseSpec {
  readonly subject: string;
  readonly values: ValuesSpec;
  readonly redisUrl: string;
  /** Time each per-value measurement may take (at least `minOps` samples). */
  readonly budgetMs: number;
  /** How long each SET or GET stream runs. */
  readonly streamMs: number;
  /** How long the steady load runs, and its arrival rate (operations per second). */
  readonly steadyMs: number;
  readonly steadyRate: number;
  readonly callers: readonly number[];
  readonly minOps: number;
  /** Calls of each step before any is timed (see warmUp). */
  readonly warmRuns: number;
  /** The yardstick is measured first (main.ts alternates it between processes). */
  readonly yardstickFirst: boolean;
}

/** One step's cost to the loop, in µs per operation. */
export interface StepTiming {
  /** Medians over the samples of the loop time each operation blocked it (see LoopTime): what the tables show. */
  readonly blockedUs: number;
  readonly syncPartUs: number;
  readonly wallUs: number;
  readonly samples: number;
  /**
   * The loop thread's CPU time per operation over the slices (thread-time.ts), a mean: a cross-check
   * only, since Linux updates a running thread's count at scheduler ticks, which short slices feel.
   */
  readonly cpuUs: number;
  /** The share of the slices' wall time the loop thread waited for a CPU (NaN where unknown). */
  readonly waitedShare: number;
}

export interface CodecMeasures {
  readonly id: string;
  readonly label: string;
  readonly mode: Mode;
  /** Bytes stored per value: the median, the mean and the sum over all values. */
  readonly bytes: { readonly median: number; readonly mean: number; readonly total: number };
  readonly values: number;
  readonly encode: StepTiming;
  readonly decode: StepTiming;
  /** Each stage alone, where the subject compresses: encode ≈ serialize + compress, decode ≈ decompress + deserialize. */
  readonly serialize?: StepTiming;
  readonly compress?: StepTiming;
  readonly decompress?: StepTiming;
  readonly deserialize?: StepTiming;
  /** The first difference between what was written and what came back, when the pipeline is lossy. */
  readonly loss?: string;
}

export interface CallersResult {
  readonly callers: number;
  readonly set: StreamResult;
  readonly get: StreamResult;
}

export interface RedisMeasures {
  readonly streams: readonly CallersResult[];
  readonly steady: SteadyResult;
}

export interface SubjectResult {
  readonly codec: CodecMeasures;
  readonly redis: RedisMeasures;
}

export interface CaseResult {
  readonly spec: CaseSpec;
  readonly pid: number;
  /** The histogram's p99 on an idle loop in this process: the floor of every loop p99. */
  readonly idleLoopP99Ms: number;
  /** Whose CPU time the figures are ('thread': the loop's own; 'process': all of the process's). */
  readonly clock: 'thread' | 'process';
  /** The share of this process's run the loop thread waited for a CPU that other work held. */
  readonly waitedShare: number;
  readonly measured: string;
  readonly subject: SubjectResult;
  /** The yardstick in the same process (the subject itself when it is the yardstick). */
  readonly yardstick: SubjectResult;
}

export interface CaseFailure {
  readonly spec: CaseSpec;
  readonly failure: string;
}

const asBuffer = (bytes: Uint8Array): Buffer =>
  // ioredis sends a Buffer as bytes but any other Uint8Array as String(array): "137,87,75,…".
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function stepTiming(samples: readonly LoopTime<unknown>[], slices: readonly Slice[]): StepTiming {
  return {
    blockedUs: median(samples.map((s) => s.blockedUs)),
    syncPartUs: median(samples.map((s) => s.syncPartUs)),
    wallUs: median(samples.map((s) => s.wallUs)),
    samples: samples.length,
    cpuUs: cpuPerOp(slices),
    waitedShare: waitedShare(slices),
  };
}

/** Everything one subject needs to be measured: its stored bytes and compressed payloads, made once. */
interface Prepared {
  readonly subject: CacheSubject;
  readonly stored: Uint8Array[];
  readonly serialized?: (Uint8Array | string)[];
  readonly compressed?: Uint8Array[];
  /** What `decompress` gives back for each value: the input of `deserialize`. */
  readonly decompressed?: unknown[];
  readonly loss?: string;
}

async function prepare(subject: CacheSubject, values: readonly unknown[]): Promise<Prepared> {
  const stored: Uint8Array[] = [];
  let loss: string | undefined;
  for (const value of values) {
    const bytes = await subject.codec.encode(value);
    stored.push(bytes);
    loss ??= firstDifference(subject.expected(value), await subject.codec.decode(bytes));
  }
  const step = subject.compression;
  if (step === undefined) return { subject, stored, ...(loss === undefined ? {} : { loss }) };
  const serialized = values.map((value) => step.serialize(value));
  const compressed: Uint8Array[] = [];
  for (const input of serialized) compressed.push(await step.compress(input));
  const decompressed: unknown[] = [];
  for (const bytes of compressed) decompressed.push(await step.decompress(bytes));
  return { subject, stored, serialized, compressed, decompressed, ...(loss === undefined ? {} : { loss }) };
}

const steps = ['encode', 'decode', 'serialize', 'compress', 'decompress', 'deserialize'] as const;
type Step = (typeof steps)[number];

/**
 * One operation of a step of a subject, on the i-th value (cycling): encode a value, decode its
 * stored bytes, or run one stage of a compressing subject alone.
 */
function stepOps(
  values: readonly unknown[],
  p: Prepared,
): Partial<Record<Step, (i: number) => Promise<LoopTime<unknown>>>> {
  const n = values.length;
  const { codec, compression } = p.subject;
  const ops: Partial<Record<Step, (i: number) => Promise<LoopTime<unknown>>>> = {
    encode: (i) => loopTimeOf(() => codec.encode(values[i % n])),
    decode: (i) => loopTimeOf(() => codec.decode(p.stored[i % n] as Uint8Array)),
  };
  if (compression !== undefined) {
    ops.serialize = (i) => loopTimeOf(() => compression.serialize(values[i % n]));
    ops.compress = (i) =>
      loopTimeOf(() => compression.compress(p.serialized?.[i % n] as Uint8Array | string));
    ops.decompress = (i) => loopTimeOf(() => compression.decompress(p.compressed?.[i % n] as Uint8Array));
    ops.deserialize = (i) => loopTimeOf(() => compression.deserialize(p.decompressed?.[i % n]));
  }
  return ops;
}

/**
 * Runs `run` for each subject in `order`, `slices` times round: one subject's slice, then the
 * other's, and again. Not sample by sample: interleaved that finely, each subject slowed the other's
 * encoder by up to 60 % here; in slices, a burst of load from elsewhere still falls on both.
 */
async function inTurns(order: readonly number[], run: (k: number, slice: number) => Promise<void>) {
  for (let slice = 0; slice < slices; slice++) for (const k of order) await run(k, slice);
}

const slices = 4;

async function measureCodecs(
  spec: CaseSpec,
  values: readonly unknown[],
  all: readonly Prepared[],
  order: readonly number[],
): Promise<CodecMeasures[]> {
  const ops = all.map((p) => stepOps(values, p));
  const present = (k: number) => steps.filter((step) => ops[k]?.[step] !== undefined);
  const samples = all.map(() => new Map<Step, LoopTime<unknown>[]>(steps.map((step) => [step, []])));
  const sliced = all.map(() => new Map<Step, Slice[]>(steps.map((step) => [step, []])));
  // Each step on its own, long enough for the JIT: the products encoders ran up to 3× slower when
  // all the steps shared one 60 ms warm-up than after 1,000 calls each.
  for (const k of order) {
    const mine = ops[k] as (typeof ops)[number];
    for (const step of present(k)) {
      await warmUp(40, (i) => mine[step]?.(i).then(() => undefined), spec.warmRuns);
    }
  }
  let next = 0;
  await inTurns(order, async (k) => {
    const mine = ops[k] as (typeof ops)[number];
    const share = spec.budgetMs / slices / present(k).length;
    for (const step of present(k)) {
      const op = mine[step] as (i: number) => Promise<LoopTime<unknown>>;
      const kept = samples[k]?.get(step) as LoopTime<unknown>[];
      const slice = await inSlice(() =>
        repeat(share, spec.minOps, async () => void kept.push(await op(next++))),
      );
      sliced[k]?.get(step)?.push(slice);
    }
  });
  return all.map((p, k): CodecMeasures => {
    const timing = (step: Step) => stepTiming(samples[k]?.get(step) ?? [], sliced[k]?.get(step) ?? []);
    const sizes = p.stored.map((bytes) => bytes.length);
    const total = sizes.reduce((sum, size) => sum + size, 0);
    return {
      id: p.subject.id,
      label: p.subject.label,
      mode: p.subject.mode,
      bytes: { median: median(sizes), mean: total / sizes.length, total },
      values: sizes.length,
      encode: timing('encode'),
      decode: timing('decode'),
      ...(p.subject.compression === undefined
        ? {}
        : {
            serialize: timing('serialize'),
            compress: timing('compress'),
            decompress: timing('decompress'),
            deserialize: timing('deserialize'),
          }),
      ...(p.loss === undefined ? {} : { loss: p.loss }),
    };
  });
}

/** SET (encode, then SET), GET (GET, then decode) and half of each, for one subject's keys. */
function redisOps(redis: Redis, values: readonly unknown[], p: Prepared, prefix: string) {
  const n = values.length;
  const { codec } = p.subject;
  const key = (i: number) => `${prefix}${i % n}`;
  const set = async (i: number) => {
    const bytes = await codec.encode(values[i % n]);
    await redis.set(key(i), asBuffer(bytes));
    return bytes.length;
  };
  const get = async (i: number) => {
    const bytes = await redis.getBuffer(key(i));
    if (bytes === null) throw new Error(`${key(i)} is missing`);
    await codec.decode(bytes);
    return bytes.length;
  };
  const load = async () => {
    for (const [i, bytes] of p.stored.entries()) await redis.set(key(i), asBuffer(bytes));
    // What Redis holds is what was written, byte for byte (a Uint8Array sent as text would not be).
    const held = await redis.strlen(key(0));
    if (held !== p.stored[0]?.length)
      throw new Error(`Redis holds ${held} bytes, not ${p.stored[0]?.length}`);
  };
  return { load, set, get, mixed: (i: number) => (i % 2 === 0 ? set(i >> 1) : get(i >> 1)) };
}

async function measureRedis(
  spec: CaseSpec,
  redis: Redis,
  values: readonly unknown[],
  all: readonly Prepared[],
  order: readonly number[],
): Promise<RedisMeasures[]> {
  const ops = all.map((p, k) => redisOps(redis, values, p, `${k}:`));
  const of = (k: number) => ops[k] as (typeof ops)[number];
  for (const k of order) {
    await of(k).load();
    await underLoad(Math.max(60, spec.streamMs / 2), spec.minOps, 16, of(k).mixed, false);
  }
  const streams: CallersResult[][] = all.map(() => []);
  for (const callers of spec.callers) {
    for (const kind of ['set', 'get'] as const) {
      const parts: StreamResult[][] = all.map(() => []);
      const histograms = all.map(() => loopDelayHistogram());
      await inTurns(order, async (k) => {
        const histogram = histograms[k] as IntervalHistogram;
        parts[k]?.push(
          await underLoad(spec.streamMs / slices, spec.minOps, callers, of(k)[kind], false, histogram),
        );
      });
      for (const k of all.keys()) {
        const result = combined(parts[k] as StreamResult[], histograms[k] as IntervalHistogram);
        const list = streams[k] as CallersResult[];
        if (kind === 'set') list.push({ callers, set: result, get: result });
        else list[list.length - 1] = { ...(list.at(-1) as CallersResult), get: result };
      }
    }
  }
  const steady: SteadyResult[][] = all.map(() => []);
  const steadyHistograms = all.map(() => loopDelayHistogram());
  // Two turns each: a steady load needs time to settle, so fewer, longer slices.
  for (let turn = 0; turn < 2; turn++) {
    for (const k of order) {
      const histogram = steadyHistograms[k] as IntervalHistogram;
      steady[k]?.push(await atSteadyRate(spec.steadyMs / 2, spec.steadyRate, 256, of(k).mixed, histogram));
    }
  }
  return all.map((_, k) => {
    const parts = steady[k] as SteadyResult[];
    return {
      streams: streams[k] as CallersResult[],
      steady: {
        ...combined(parts, steadyHistograms[k] as IntervalHistogram),
        targetPerSec: spec.steadyRate,
        shed: parts.reduce((sum, part) => sum + part.shed, 0),
      },
    };
  });
}

export async function runCase(spec: CaseSpec): Promise<CaseResult | CaseFailure> {
  const { schema, values, measured } = loadValues(spec.values);
  let subject: Prepared;
  try {
    subject = await prepare(createCacheSubject(spec.subject, schema), values);
  } catch (error) {
    return { spec, failure: `cannot hold these values: ${(error as Error).message.split('\n')[0]}` };
  }
  // A wirekit format must give back what it was given; the report's pipelines may lose by design.
  if (subject.loss !== undefined && spec.subject.startsWith('wirekit:'))
    return { spec, failure: `does not round-trip these values (${subject.loss})` };
  const same = spec.subject === yardstick;
  const all = same ? [subject] : [subject, await prepare(createCacheSubject(yardstick, schema), values)];

  const wall = performance.now();
  const thread = threadTime();
  const idle = monitorEventLoopDelay({ resolution: 1 });
  idle.enable();
  await sleep(100);
  idle.disable();

  // The subject that goes first in each turn alternates between processes.
  const order = spec.yardstickFirst ? [...all.keys()].reverse() : [...all.keys()];
  const codecs = await measureCodecs(spec, values, all, order);
  const redis = new Redis(spec.redisUrl, { maxRetriesPerRequest: 1 });
  try {
    await redis.flushdb();
    const measures = await measureRedis(spec, redis, values, all, order);
    const results = codecs.map((codec, k) => ({ codec, redis: measures[k] as RedisMeasures }));
    return {
      spec,
      pid: process.pid,
      idleLoopP99Ms: idle.percentile(99) / 1e6,
      clock: threadClock,
      waitedShare: threadTimeSince(thread).waitedUs / ((performance.now() - wall) * 1e3),
      measured,
      subject: results[0] as SubjectResult,
      yardstick: results[same ? 0 : 1] as SubjectResult,
    };
  } finally {
    redis.disconnect();
  }
}

const [specText] = process.argv.slice(2);
if (specText !== undefined && process.argv[1]?.endsWith('worker.js')) {
  const result = await runCase(JSON.parse(specText) as CaseSpec);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
