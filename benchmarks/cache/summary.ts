/**
 * The cache benchmark's raw results reduced to what its tables say: medians across processes of
 * per-process medians, with the range across processes; every ratio is taken inside one process
 * (subject ÷ the yardstick timed beside it) before the median is, so that a slow process moves both.
 * Pure functions of the workers' output, so that a saved `--json` can be summarized again.
 */

import { median } from 'wirekit-ts/lab';
import { busyUsPerOp } from '../loop-cost.js';
import type { ThresholdResult } from './threshold.js';
import type { CaseResult, SubjectResult } from './worker.js';

export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

function spread(xs: readonly number[]): Spread {
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
}

export interface SubjectSummary {
  readonly id: string;
  readonly label: string;
  readonly mode: 'sync' | 'async';
  readonly processes: number;
  readonly values: number;
  /** Bytes stored per value (median over values) and for all values: the same in every process. */
  readonly bytesMedian: number;
  readonly bytesTotal: number;
  /**
   * Loop µs per value, alone (medians of the loop time each operation blocked it): the whole encode
   * and decode, and the compression step inside them.
   */
  readonly encodeUs: Spread;
  readonly decodeUs: Spread;
  readonly serializeUs?: Spread;
  readonly compressUs?: Spread;
  readonly decompressUs?: Spread;
  readonly deserializeUs?: Spread;
  /** encode + decode: the codec's loop time per cache round trip (one set, one get). */
  readonly loopUs: Spread;
  readonly loopRatio: Spread;
  /** The loop's busy µs per SET + per GET at `clientCallers` callers: codec and Redis client together. */
  readonly clientLoopUs: Spread;
  readonly clientLoopRatio: Spread;
  readonly bytesRatio: number;
  /** Round trips (a SET and a GET) per second at `clientCallers` callers ÷ the yardstick's. */
  readonly throughputRatio: Spread;
  /** Throughput by number of concurrent callers. */
  readonly setOpsPerSec: Readonly<Record<number, Spread>>;
  readonly getOpsPerSec: Readonly<Record<number, Spread>>;
  /** Loop p99 under the steady load, and the yardstick's in the same processes. */
  readonly steadyP99Ms: Spread;
  readonly yardstickSteadyP99Ms: Spread;
  /** Arrivals the steady load could not start (most in flight already), summed over processes. */
  readonly steadyShed: number;
  readonly loss?: string;
}

const loopOf = (r: SubjectResult) => r.codec.encode.blockedUs + r.codec.decode.blockedUs;

function streamsAt(r: SubjectResult, callers: number) {
  return r.redis.streams.find((s) => s.callers === callers) ?? r.redis.streams[0];
}

function clientLoopOf(r: SubjectResult, callers: number): number {
  const at = streamsAt(r, callers);
  return at === undefined ? Number.NaN : busyUsPerOp(at.set) + busyUsPerOp(at.get);
}

/** SET + GET round trips per second: one of each, back to back. */
function roundTripsOf(r: SubjectResult, callers: number): number {
  const at = streamsAt(r, callers);
  return at === undefined ? Number.NaN : 1 / (1 / at.set.opsPerSec + 1 / at.get.opsPerSec);
}

/** One subject's processes (all with the same spec.subject) summarized. */
export function summarizeSubject(runs: readonly CaseResult[], clientCallers: number): SubjectSummary {
  const first = runs[0] as CaseResult;
  const codec = first.subject.codec;
  const of = (pick: (r: CaseResult) => number) => spread(runs.map(pick));
  const callers = first.subject.redis.streams.map((s) => s.callers);
  const opsBy = (kind: 'set' | 'get') =>
    Object.fromEntries(
      callers.map((c) => [
        c,
        of((r) => r.subject.redis.streams.find((s) => s.callers === c)?.[kind].opsPerSec ?? Number.NaN),
      ]),
    );
  const step = (name: 'serialize' | 'compress' | 'decompress' | 'deserialize') =>
    codec[name] === undefined
      ? {}
      : { [`${name}Us`]: of((r) => r.subject.codec[name]?.blockedUs ?? Number.NaN) };
  return {
    id: codec.id,
    label: codec.label,
    mode: codec.mode,
    processes: runs.length,
    values: codec.values,
    bytesMedian: codec.bytes.median,
    bytesTotal: codec.bytes.total,
    encodeUs: of((r) => r.subject.codec.encode.blockedUs),
    decodeUs: of((r) => r.subject.codec.decode.blockedUs),
    ...step('serialize'),
    ...step('compress'),
    ...step('decompress'),
    ...step('deserialize'),
    loopUs: of((r) => loopOf(r.subject)),
    loopRatio: of((r) => loopOf(r.subject) / loopOf(r.yardstick)),
    clientLoopUs: of((r) => clientLoopOf(r.subject, clientCallers)),
    clientLoopRatio: of(
      (r) => clientLoopOf(r.subject, clientCallers) / clientLoopOf(r.yardstick, clientCallers),
    ),
    bytesRatio: codec.bytes.total / first.yardstick.codec.bytes.total,
    throughputRatio: of(
      (r) => roundTripsOf(r.subject, clientCallers) / roundTripsOf(r.yardstick, clientCallers),
    ),
    setOpsPerSec: opsBy('set'),
    getOpsPerSec: opsBy('get'),
    steadyP99Ms: of((r) => r.subject.redis.steady.loopP99Ms),
    yardstickSteadyP99Ms: of((r) => r.yardstick.redis.steady.loopP99Ms),
    steadyShed: runs.reduce((sum, r) => sum + r.subject.redis.steady.shed, 0),
    ...(codec.loss === undefined ? {} : { loss: codec.loss }),
  };
}

// ---- the threshold part -------------------------------------------------------------------------

export interface ThresholdCriteria {
  /** Compression must save at least this share of the bytes to pay (0.1: a tenth). */
  readonly minSaving: number;
}

/** One size, medians across processes. µs are loop time per round trip (compress + decompress). */
export interface SizeSummary {
  readonly plainBytes: number;
  readonly compressedBytes: number;
  readonly items: number;
  /** 1 − compressed ÷ plain. */
  readonly saving: number;
  readonly syncUs: number;
  readonly asyncUs: number;
  readonly codecUs: number;
  /** The Redis client's loop µs per SET + GET of the plain bytes, from the fitted line. */
  readonly clientUs: number;
  /** What the client saves moving the compressed bytes instead, from the fitted line. */
  readonly clientSavedUs: number;
  /** The cheaper mode's µs, less what the client saves: what compressing adds to the loop. */
  readonly addedUs: number;
  /** addedUs ÷ (codec + client): the share compression adds to the loop time of a round trip. */
  readonly addedShare: number;
  /** Saves at least minSaving of the bytes and a larger share of the bytes than it adds of loop time. */
  readonly pays: boolean;
  readonly asyncBlocksLess: boolean;
}

export interface ThresholdSummary {
  readonly source: string;
  readonly format: string;
  readonly compression: string;
  readonly processes: number;
  /** The client's loop cost as a line fitted over every size: µs per SET + GET, and µs per KiB. */
  readonly clientFixedUs: number;
  readonly clientUsPerKiB: number;
  readonly sizes: readonly SizeSummary[];
  /**
   * (a) compress from this size: the smallest measured size from which on compression pays (at
   * every larger size but at most one, see fromSize); undefined when it pays at none.
   */
  readonly compressFrom: number | undefined;
  /** (b) the smallest measured size from which on async blocks the loop less than sync (as for a). */
  readonly asyncFrom: number | undefined;
}

/** Theil–Sen: the median of the slopes between all pairs, and the median intercept; steady against outliers. */
export function robustLine(points: readonly (readonly [number, number])[]): { fixed: number; slope: number } {
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const [x1, y1] = points[i] as readonly [number, number];
      const [x2, y2] = points[j] as readonly [number, number];
      if (x1 !== x2) slopes.push((y2 - y1) / (x2 - x1));
    }
  }
  const slope = slopes.length === 0 ? 0 : median(slopes);
  return { slope, fixed: median(points.map(([x, y]) => y - slope * x)) };
}

/**
 * The smallest size at which `holds` is true and from which on it is true at every larger size
 * measured but at most one: one size's medians can still be off on a loaded machine (a collection,
 * a burst of load elsewhere), and one such point should not move a crossover by a factor of 8.
 */
function fromSize(sizes: readonly SizeSummary[], holds: (size: SizeSummary) => boolean): number | undefined {
  let from: number | undefined;
  let exceptions = 0;
  for (let i = sizes.length - 1; i >= 0; i--) {
    const size = sizes[i] as SizeSummary;
    if (holds(size)) from = size.plainBytes;
    else if (++exceptions > allowedExceptions) break;
  }
  return from;
}

const allowedExceptions = 1;

/** One (source, format, compression)'s processes summarized. */
export function summarizeThreshold(
  runs: readonly ThresholdResult[],
  criteria: ThresholdCriteria,
): ThresholdSummary {
  const first = runs[0] as ThresholdResult;
  const at = (i: number, pick: (p: ThresholdResult['points'][number]) => number) =>
    median(runs.map((r) => (r.points[i] ? pick(r.points[i]) : Number.NaN)));
  const points = first.points.map((_, i) => ({
    plainBytes: first.points[i]?.plainBytes as number,
    compressedBytes: first.points[i]?.compressedBytes as number,
    items: first.points[i]?.items as number,
    syncUs: at(i, (p) => p.sync.compressUs + p.sync.decompressUs),
    asyncUs: at(i, (p) => p.async.compressUs + p.async.decompressUs),
    codecUs: at(i, (p) => p.codecUs),
    clientPlainUs: at(i, (p) => p.clientPlainUs),
    clientCompressedUs: at(i, (p) => p.clientCompressedUs),
  }));
  // One line through every client measurement, plain and compressed: the per-byte cost is the same
  // whichever bytes they are, and the fit keeps one noisy point from deciding a size.
  const line = robustLine(
    points.flatMap((p) => [
      [p.plainBytes, p.clientPlainUs] as const,
      [p.compressedBytes, p.clientCompressedUs] as const,
    ]),
  );
  const sizes = points.map((p): SizeSummary => {
    const saving = 1 - p.compressedBytes / p.plainBytes;
    const clientUs = line.fixed + line.slope * p.plainBytes;
    const clientSavedUs = line.slope * (p.plainBytes - p.compressedBytes);
    const addedUs = Math.min(p.syncUs, p.asyncUs) - clientSavedUs;
    const addedShare = addedUs / (p.codecUs + clientUs);
    return {
      plainBytes: p.plainBytes,
      compressedBytes: p.compressedBytes,
      items: p.items,
      saving,
      syncUs: p.syncUs,
      asyncUs: p.asyncUs,
      codecUs: p.codecUs,
      clientUs,
      clientSavedUs,
      addedUs,
      addedShare,
      pays: saving >= criteria.minSaving && saving > addedShare,
      asyncBlocksLess: p.asyncUs < p.syncUs,
    };
  });
  return {
    source: first.spec.source,
    format: first.spec.format,
    compression: first.spec.compression,
    processes: runs.length,
    clientFixedUs: line.fixed,
    clientUsPerKiB: line.slope * 1024,
    sizes,
    compressFrom: fromSize(sizes, (s) => s.pays),
    asyncFrom: fromSize(sizes, (s) => s.asyncBlocksLess),
  };
}
