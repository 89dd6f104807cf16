/**
 * One lab case — one subject on one dataset — measured in a process of its own, with native JSON
 * timed in the same process as the yardstick. Run by run.ts as `node case.js '<spec json>'`; prints
 * one JSON line (CaseResult).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createCodec } from '../codecs/index.js';
import { type CompressionName, getCompressor } from '../compression/index.js';
import { type ObjectSchema, t } from '../schema/index.js';
import { firstDifference } from './compare.js';
import { datasetFromFile, type FileDatasetSpec } from './datasets/from-file.js';
import { datasets } from './datasets/index.js';
import { type CaseFailureLine, failureOf } from './failure.js';
import { summarize, type Timing, timeMs } from './stats.js';
import { createSubject, type Subject, type SubjectName } from './subjects.js';
import { measureColumnsPath, type TablesMeasure } from './tables-path.js';

export interface CaseSpec {
  readonly dataset: string;
  /** The user's own data instead of a built-in dataset (`dataset` is then the file's name). */
  readonly file?: FileDatasetSpec;
  readonly subject: SubjectName;
  readonly count: number;
  readonly seed: number;
  /** Most timed rounds after warm-up; each round is one pass over the dataset. */
  readonly rounds: number;
  /** Time the timed rounds may take in all; fewer rounds (at least 3) when one round is slow. */
  readonly budgetMs: number;
  /** How long the event-loop probe runs, in milliseconds. */
  readonly loopProbeMs: number;
  /** Where optional peers (Fury) are resolved from; by default beside wirekit-ts. */
  readonly peersFrom?: string;
}

export interface CompressedSize {
  readonly bytes: number;
  /** Median milliseconds per unit, on the calling thread. */
  readonly compressMs: number;
  readonly decompressMs: number;
}

export interface CaseResult {
  readonly spec: CaseSpec;
  readonly label: string;
  readonly format: string;
  readonly implementation: string;
  readonly unit: 'batch' | 'item';
  /** Items per unit: the whole dataset for a batch, 1 for per-item datasets. */
  readonly itemsPerUnit: number;
  readonly units: number;
  /** Bytes per unit (per item for per-item datasets, averaged). */
  readonly bytes: number;
  readonly jsonBytes: number;
  readonly compressed: Partial<Record<CompressionName, CompressedSize>>;
  /** Milliseconds per unit. */
  readonly encode: Timing;
  readonly decode: Timing;
  readonly jsonEncode: Timing;
  readonly jsonDecode: Timing;
  /** The event-loop delay a timer sees while encode+decode run back to back, yielding between units. */
  readonly loopDelayP99Ms: number;
  readonly memory: { readonly peakRssMb: number; readonly heapUsedMb: number };
  /** Why native JSON, the yardstick, could not be timed (its figures are then NaN). */
  readonly jsonFailure?: string;
  /** The first difference after a round trip, or undefined when every value came back equal. */
  readonly loss: string | undefined;
  /**
   * Each process's own medians, in the order the processes ran (one entry per --processes). The
   * spread between them is the noise a recommendation's margin is judged by. Set by the lab's
   * orchestrator; missing from runs saved before it was added.
   */
  readonly processes?: readonly ProcessMedians[];
  /**
   * The tables boundary for a wirekit format on a batch (tables-path.ts): Arrow through the tables
   * source read as columns, the other formats' row round trip. Missing from runs saved before it.
   */
  readonly tables?: TablesMeasure;
  /** Why Arrow's tables measure could not run on this dataset (a field the tables source has no column for). */
  readonly tablesUnavailable?: string;
}

/** One process's medians, in milliseconds per unit. */
export interface ProcessMedians {
  readonly encodeMs: number;
  readonly decodeMs: number;
  readonly jsonEncodeMs: number;
  readonly jsonDecodeMs: number;
  /** The tables measure's server + client time, when the case has one. */
  readonly tablesMs?: number;
}

const compressions: readonly CompressionName[] = ['snappy', 'lz4', 'zstd', 'gzip', 'brotli'];

export async function runCase(spec: CaseSpec): Promise<CaseResult> {
  const dataset = spec.file === undefined ? datasets[spec.dataset] : datasetFromFile(spec.file);
  if (dataset === undefined) throw new Error(`unknown dataset ${spec.dataset}`);
  const batch = dataset.unit === 'batch';
  const items = flatten(dataset.generate(spec.count, spec.seed), dataset.schema);
  const units: unknown[] = batch ? [items] : items;
  const subject = createSubject(spec.subject, dataset.schema, batch, { from: spec.peersFrom });
  const json = createSubject('json-native', dataset.schema, batch);
  // Native JSON cannot write a bigint: it gets what JSON.parse would have read (doubles), and its
  // round trip check then shows the rounding against the exact values.
  const nativeUnits = holdsBigInt(units) ? units.map(asJsonParseReads) : units;
  const subjectUnits = spec.subject === 'json-native' ? nativeUnits : units;

  const encoded = subjectUnits.map((unit) => subject.encode(unit));
  // Past ~500 MB of text V8 cannot hold JSON in one string (10 million timeseries rows): the
  // yardstick is then missing, not the case; its ratios print empty and `jsonFailure` says why.
  let jsonFailure: string | undefined;
  let jsonEncoded: Uint8Array[] = [];
  try {
    jsonEncoded = nativeUnits.map((unit) => json.encode(unit));
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    jsonFailure = `native JSON could not encode it: ${error.message}`;
  }
  const loss = lossOf(subject, units, encoded);

  const samples = {
    encode: [] as number[],
    decode: [] as number[],
    jsonEncode: [] as number[],
    jsonDecode: [] as number[],
  };
  const round = (): number[] => [
    jsonFailure !== undefined
      ? Number.NaN
      : timeMs(() => {
          for (const unit of nativeUnits) json.encode(unit);
        }),
    jsonFailure !== undefined
      ? Number.NaN
      : timeMs(() => {
          for (const bytes of jsonEncoded) json.decode(bytes);
        }),
    timeMs(() => {
      for (const unit of subjectUnits) subject.encode(unit);
    }),
    timeMs(() => {
      for (const bytes of encoded) touch(subject.decode(bytes));
    }),
  ];
  // Warm-up rounds let the JIT settle; their duration also sets how many timed rounds fit the
  // case's time budget, so slow cases (10 MB batches) take fewer samples than fast ones.
  let roundMs = 0;
  for (let i = 0; i < 2; i++) roundMs = round().reduce((sum, ms) => sum + (Number.isNaN(ms) ? 0 : ms), 0);
  const rounds = Math.max(3, Math.min(spec.rounds, Math.floor(spec.budgetMs / Math.max(roundMs, 0.001))));
  for (let i = 0; i < rounds; i++) {
    const [je, jd, e, d] = round() as [number, number, number, number];
    samples.jsonEncode.push(je / units.length);
    samples.jsonDecode.push(jd / units.length);
    samples.encode.push(e / units.length);
    samples.decode.push(d / units.length);
  }

  const compressed: Partial<Record<CompressionName, CompressedSize>> = {};
  for (const name of compressions) compressed[name] = await measureCompression(name, encoded);
  const encode = summarize(samples.encode);
  const decode = summarize(samples.decode);
  const tables = batch
    ? await tablesMeasure(spec, subject, dataset.schema, items, encode, decode, encoded)
    : undefined;

  return {
    spec,
    label: subject.label,
    format: subject.format,
    implementation: subject.implementation,
    unit: dataset.unit,
    itemsPerUnit: batch ? items.length : 1,
    units: units.length,
    bytes: average(encoded.map((bytes) => bytes.length)),
    jsonBytes: jsonFailure !== undefined ? Number.NaN : average(jsonEncoded.map((bytes) => bytes.length)),
    ...(jsonFailure === undefined ? {} : { jsonFailure }),
    compressed,
    encode,
    decode,
    ...(typeof tables === 'string' ? { tablesUnavailable: tables } : tables === undefined ? {} : { tables }),
    jsonEncode: summarize(samples.jsonEncode),
    jsonDecode: summarize(samples.jsonDecode),
    loopDelayP99Ms: await probeEventLoop(subject, subjectUnits, encoded, spec.loopProbeMs),
    memory: {
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      heapUsedMb: process.memoryUsage().heapUsed / 1024 / 1024,
    },
    loss,
  };
}

/**
 * The tables boundary for a wirekit format: Arrow's columns path, timed here; for the others their
 * row round trip, as just measured. Undefined for the libraries used directly.
 */
async function tablesMeasure(
  spec: CaseSpec,
  subject: Subject,
  item: ObjectSchema,
  items: unknown[],
  encode: Timing,
  decode: Timing,
  encoded: Uint8Array[],
): Promise<TablesMeasure | string | undefined> {
  if (subject.implementation !== 'wirekit') return undefined;
  if (spec.subject === 'arrow') return measureColumnsPath(item, items, spec.rounds, spec.budgetMs);
  if (spec.subject === 'flatbuffers-view') return undefined;
  return {
    path: 'rows',
    batchRows: items.length,
    serverMs: encode.median,
    clientMs: decode.median,
    serverPeakBytes: (encoded[0] as Uint8Array).length,
  };
}

/**
 * Generated strings are ropes until something flattens them, and ropes made some encoders ~3×
 * slower on this machine: one pass through wirekit's JSON codec gives every case flat strings.
 */
function flatten(items: unknown[], schema: Parameters<typeof t.array>[0]): unknown[] {
  const codec = createCodec('json', { schema: t.array(schema) });
  // In slices, so that 10 million rows never need one string longer than V8 allows.
  const out: unknown[] = [];
  for (let start = 0; start < items.length; start += flattenSlice) {
    const slice = codec.decode(codec.encode(items.slice(start, start + flattenSlice) as never)) as unknown[];
    for (const item of slice) out.push(item);
  }
  return out;
}

const flattenSlice = 10_000;

function lossOf(subject: Subject, units: unknown[], encoded: Uint8Array[]): string | undefined {
  for (let i = 0; i < units.length; i++) {
    const found = firstDifference(units[i], subject.decode(encoded[i] as Uint8Array));
    if (found !== undefined) return found;
  }
  return undefined;
}

async function measureCompression(name: CompressionName, encoded: Uint8Array[]): Promise<CompressedSize> {
  const compressor = getCompressor(name);
  const compress = (bytes: Uint8Array) => compressor.compress(bytes);
  const packed = encoded.map(compress);
  const compressTimes: number[] = [];
  const decompressTimes: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < encoded.length; i++) {
      const bytes = encoded[i] as Uint8Array;
      let start = process.hrtime.bigint();
      compress(bytes);
      compressTimes.push(Number(process.hrtime.bigint() - start) / 1e6);
      start = process.hrtime.bigint();
      // The cap is the payload's own size: 10 million rows pass the 64 MiB default.
      compressor.decompress(packed[i] as Uint8Array, { maxDecompressedBytes: bytes.length });
      decompressTimes.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  return {
    bytes: average(packed.map((bytes) => bytes.length)),
    compressMs: summarize(compressTimes).median,
    decompressMs: summarize(decompressTimes).median,
  };
}

/** What a concurrent timer would wait while this subject works through units, yielding between them. */
async function probeEventLoop(subject: Subject, units: unknown[], encoded: Uint8Array[], durationMs: number) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const end = performance.now() + durationMs;
  // At least a few units even when one takes longer than the probe, and a timer turn between them:
  // the histogram's own timer must get to run to record how late it was.
  for (let i = 0; i < 5 || performance.now() < end; i++) {
    const index = i % units.length;
    subject.encode(units[index]);
    touch(subject.decode(encoded[index] as Uint8Array));
    await sleep(1);
  }
  histogram.disable();
  return histogram.percentile(99) / 1e6;
}

function holdsBigInt(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (Array.isArray(value)) return value.some(holdsBigInt);
  if (typeof value !== 'object' || value === null || value instanceof Date || value instanceof Uint8Array)
    return false;
  if (value instanceof Map) return [...value.values()].some(holdsBigInt);
  return Object.values(value).some(holdsBigInt);
}

/** The value with each bigint the double JSON.parse reads for its digits. */
function asJsonParseReads(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(asJsonParseReads);
  if (typeof value !== 'object' || value === null || value instanceof Date || value instanceof Uint8Array)
    return value;
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, asJsonParseReads(v)]));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asJsonParseReads(v)]));
}

function average(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

/** Reads every field, so that a lazy decoder pays for what it deferred. */
function touch(value: unknown): number {
  let count = 0;
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    count++;
    if (Array.isArray(item)) for (const child of item) stack.push(child);
    else if (item instanceof Map) for (const child of item.values()) stack.push(child);
    else if (
      typeof item === 'object' &&
      item !== null &&
      !(item instanceof Date) &&
      !(item instanceof Uint8Array)
    ) {
      for (const key in item) stack.push((item as Record<string, unknown>)[key]);
    }
  }
  return count;
}

const [specText] = process.argv.slice(2);
if (specText !== undefined && process.argv[1]?.endsWith('case.js')) {
  try {
    const result = await runCase(JSON.parse(specText) as CaseSpec);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } catch (error) {
    const line: CaseFailureLine = { failure: failureOf(error) };
    process.stdout.write(`${JSON.stringify(line)}\n`);
    process.exitCode = 1;
  }
}
