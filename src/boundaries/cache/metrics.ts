/**
 * What a cache reports about itself: one `CacheEvent` per key and operation, and a built-in
 * aggregate of them (counters and histograms) that `cache.metrics()` returns. A user's metrics
 * system plugs in through `onEvent` (wirekit-ts/cache/prometheus adapts prom-client to it).
 *
 * Times are the synchronous time the operation spent on the event loop in each step, in
 * microseconds: what the cache costs every other request in the process while it runs. Waiting for
 * the store or for the thread pool is not loop time and is reported apart (`storeMicros`).
 */
import type { CompressionName } from '../../compression/index.js';
import type { ErrorCode } from '../../errors/index.js';

export type CacheOperation = 'get' | 'getMany' | 'set' | 'setMany' | 'delete' | 'getOrSet';

/**
 * hit: a fresh value read; legacy-hit: read by a legacy reader; stale-hit: served past its TTL while
 * a refresh runs (getOrSet with staleWhileRevalidate); miss: nothing usable (nothing stored, or a
 * value no reader reads: then `code` says why); written/deleted: a write or delete the store took;
 * refused: a value not stored (too large); error: the store failed, timed out or the breaker is open.
 */
export type CacheOutcome =
  | 'hit'
  | 'legacy-hit'
  | 'stale-hit'
  | 'miss'
  | 'written'
  | 'deleted'
  | 'refused'
  | 'error';

export interface CacheEvent {
  readonly operation: CacheOperation;
  readonly key: string;
  readonly outcome: CacheOutcome;
  /** The format read or written: a wirekit format name, or `legacy:NAME`. */
  readonly format?: string;
  readonly compression?: CompressionName;
  /** Bytes read from or written to the store for this key. */
  readonly bytes?: number;
  /** Loop time of encoding or decoding this value. */
  readonly codecMicros?: number;
  /** Loop time of compressing or decompressing it (for the thread pool: the call, not the work). */
  readonly compressionMicros?: number;
  /** Wall time of the store round trip this key was part of. */
  readonly storeMicros?: number;
  /** Why a miss, refusal or error happened. */
  readonly code?: ErrorCode;
  /** For errors: store, timeout, breaker-open, or loader (a background refresh failed); for a miss: stale. */
  readonly reason?: string;
}

/** Upper bounds of the histogram buckets, in microseconds (and bytes for sizes): 1-2-5 steps. */
const bucketBounds: readonly number[] = (() => {
  const bounds: number[] = [];
  for (let decade = 1; decade <= 1e8; decade *= 10) bounds.push(decade, 2 * decade, 5 * decade);
  return bounds;
})();

export interface HistogramSnapshot {
  readonly count: number;
  readonly sum: number;
  /** Upper bound of the bucket where the quantile falls (an estimate, never below the true value). */
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** Bucket upper bounds and the count of observations at or below each (not cumulative). */
  readonly buckets: readonly { readonly le: number; readonly count: number }[];
}

class Histogram {
  private readonly counts = new Array<number>(bucketBounds.length + 1).fill(0);
  private count = 0;
  private sum = 0;
  private max = 0;

  observe(value: number): void {
    let i = 0;
    while (i < bucketBounds.length && value > (bucketBounds[i] as number)) i++;
    this.counts[i] = (this.counts[i] as number) + 1;
    this.count++;
    this.sum += value;
    if (value > this.max) this.max = value;
  }

  snapshot(): HistogramSnapshot {
    const quantile = (q: number): number => {
      const rank = Math.ceil(q * this.count);
      let seen = 0;
      for (let i = 0; i < this.counts.length; i++) {
        seen += this.counts[i] as number;
        if (seen >= rank && rank > 0) return Math.min(bucketBounds[i] ?? this.max, this.max);
      }
      return 0;
    };
    return {
      count: this.count,
      sum: this.sum,
      p50: quantile(0.5),
      p99: quantile(0.99),
      max: this.max,
      buckets: this.counts
        .map((count, i) => ({ le: bucketBounds[i] ?? Number.POSITIVE_INFINITY, count }))
        .filter((bucket) => bucket.count > 0),
    };
  }
}

export interface CacheMetricsSnapshot {
  /** Events by `operation outcome`, e.g. `get hit`, `getOrSet miss`, `set refused`. */
  readonly outcomes: Readonly<Record<string, number>>;
  /** Misses, refusals and errors by code (and reason, for store errors), e.g. `WK_ENVELOPE_SCHEMA`. */
  readonly problems: Readonly<Record<string, number>>;
  /** Loop time in µs by `operation step format`, step being codec or compression. */
  readonly loopMicros: Readonly<Record<string, HistogramSnapshot>>;
  /** Bytes per value by `operation format`. */
  readonly bytes: Readonly<Record<string, HistogramSnapshot>>;
  /** Store round trips in µs by operation. */
  readonly storeMicros: Readonly<Record<string, HistogramSnapshot>>;
}

/** The built-in aggregate: counters and histograms keyed by operation, outcome and format. */
export class CacheMetrics {
  private readonly outcomes = new Map<string, number>();
  private readonly problems = new Map<string, number>();
  private readonly loop = new Map<string, Histogram>();
  private readonly sizes = new Map<string, Histogram>();
  private readonly store = new Map<string, Histogram>();

  record(event: CacheEvent): void {
    increment(this.outcomes, `${event.operation} ${event.outcome}`);
    if (event.code !== undefined) {
      increment(this.problems, event.reason === undefined ? event.code : `${event.code} ${event.reason}`);
    }
    const format = event.format ?? '-';
    if (event.codecMicros !== undefined) {
      histogram(this.loop, `${event.operation} codec ${format}`).observe(event.codecMicros);
    }
    if (
      event.compressionMicros !== undefined &&
      event.compression !== undefined &&
      event.compression !== 'none'
    ) {
      histogram(this.loop, `${event.operation} compression ${event.compression}`).observe(
        event.compressionMicros,
      );
    }
    if (event.bytes !== undefined) histogram(this.sizes, `${event.operation} ${format}`).observe(event.bytes);
    if (event.storeMicros !== undefined) histogram(this.store, event.operation).observe(event.storeMicros);
  }

  snapshot(): CacheMetricsSnapshot {
    const histograms = (map: Map<string, Histogram>) =>
      Object.fromEntries([...map].map(([key, value]) => [key, value.snapshot()]));
    return {
      outcomes: Object.fromEntries(this.outcomes),
      problems: Object.fromEntries(this.problems),
      loopMicros: histograms(this.loop),
      bytes: histograms(this.sizes),
      storeMicros: histograms(this.store),
    };
  }
}

function increment(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function histogram(map: Map<string, Histogram>, key: string): Histogram {
  let found = map.get(key);
  if (found === undefined) {
    found = new Histogram();
    map.set(key, found);
  }
  return found;
}
