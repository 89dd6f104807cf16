/**
 * `wirekit-ts/cache/prometheus`: the cache's events as prom-client metrics. A subpath of its own so
 * that prom-client (an optional peer) is loaded only by those who use it:
 *
 *   createCache({ ..., onEvent: prometheusCacheEvents({ cache: 'products' }) })
 *
 * Several caches may share a registry: each metric is registered once and told apart by the `cache`
 * label. Times are exported in seconds, as Prometheus' conventions want.
 */
import { Counter, register as defaultRegistry, Histogram, type Registry } from 'prom-client';
import type { CacheEvent } from './metrics.js';

export interface PrometheusOptions {
  /** The registry to register in (default prom-client's global one). */
  readonly registry?: Registry;
  /** The `cache` label of every series (default 'default'). */
  readonly cache?: string;
  /** Prefix of the metric names (default 'wirekit_cache_'). */
  readonly prefix?: string;
}

/** Loop times from 1 µs to 0.5 s, in seconds. */
const loopBuckets = [1e-6, 5e-6, 1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 5e-3, 0.025, 0.1, 0.5];
const byteBuckets = [64, 256, 1024, 4096, 16_384, 65_536, 262_144, 1_048_576, 4_194_304, 16_777_216];
const storeBuckets = [1e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

export function prometheusCacheEvents(options: PrometheusOptions = {}): (event: CacheEvent) => void {
  const registry = options.registry ?? defaultRegistry;
  const prefix = options.prefix ?? 'wirekit_cache_';
  const cache = options.cache ?? 'default';

  const operations = counter(
    registry,
    `${prefix}operations_total`,
    'Cache events by operation, outcome (hit, legacy-hit, stale-hit, miss, written, deleted, refused, error) and format.',
    ['cache', 'operation', 'outcome', 'format'],
  );
  const problems = counter(
    registry,
    `${prefix}problems_total`,
    'Misses with a reason, refusals and store errors, by wirekit error code and reason.',
    ['cache', 'operation', 'code', 'reason'],
  );
  const loop = histogram(
    registry,
    `${prefix}loop_seconds`,
    'Synchronous event-loop time per value, by operation, step (codec, compression) and format or algorithm.',
    ['cache', 'operation', 'step', 'format'],
    loopBuckets,
  );
  const bytes = histogram(
    registry,
    `${prefix}value_bytes`,
    'Bytes per value read from or written to the store, by operation and format.',
    ['cache', 'operation', 'format'],
    byteBuckets,
  );
  const store = histogram(
    registry,
    `${prefix}store_seconds`,
    'Wall time of the store round trip each value was part of, by operation.',
    ['cache', 'operation'],
    storeBuckets,
  );

  return (event) => {
    const format = event.format ?? '';
    const { operation } = event;
    operations.inc({ cache, operation, outcome: event.outcome, format });
    if (event.code !== undefined)
      problems.inc({ cache, operation, code: event.code, reason: event.reason ?? '' });
    if (event.codecMicros !== undefined)
      loop.observe({ cache, operation, step: 'codec', format }, event.codecMicros / 1e6);
    if (
      event.compressionMicros !== undefined &&
      event.compression !== undefined &&
      event.compression !== 'none'
    ) {
      loop.observe(
        { cache, operation, step: 'compression', format: event.compression },
        event.compressionMicros / 1e6,
      );
    }
    if (event.bytes !== undefined) bytes.observe({ cache, operation, format }, event.bytes);
    if (event.storeMicros !== undefined) store.observe({ cache, operation }, event.storeMicros / 1e6);
  };
}

// Each metric is the one already registered under its name (by another cache), or a new one.
function counter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: L[],
): Counter<L> {
  return (
    (registry.getSingleMetric(name) as Counter<L> | undefined) ??
    new Counter({ name, help, labelNames, registers: [registry] })
  );
}

function histogram<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: L[],
  buckets: number[],
): Histogram<L> {
  return (
    (registry.getSingleMetric(name) as Histogram<L> | undefined) ??
    new Histogram({ name, help, labelNames, buckets, registers: [registry] })
  );
}
