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

  const operations = shared(
    registry,
    `${prefix}operations_total`,
    (name) =>
      new Counter({
        name,
        help: 'Cache events by operation, outcome (hit, legacy-hit, stale-hit, miss, written, deleted, refused, error) and format.',
        labelNames: ['cache', 'operation', 'outcome', 'format'],
        registers: [registry],
      }),
  );
  const problems = shared(
    registry,
    `${prefix}problems_total`,
    (name) =>
      new Counter({
        name,
        help: 'Misses with a reason, refusals and store errors, by wirekit error code and reason.',
        labelNames: ['cache', 'operation', 'code', 'reason'],
        registers: [registry],
      }),
  );
  const loop = shared(
    registry,
    `${prefix}loop_seconds`,
    (name) =>
      new Histogram({
        name,
        help: 'Synchronous event-loop time per value, by operation, step (codec, compression) and format or algorithm.',
        labelNames: ['cache', 'operation', 'step', 'format'],
        buckets: loopBuckets,
        registers: [registry],
      }),
  );
  const bytes = shared(
    registry,
    `${prefix}value_bytes`,
    (name) =>
      new Histogram({
        name,
        help: 'Bytes per value read from or written to the store, by operation and format.',
        labelNames: ['cache', 'operation', 'format'],
        buckets: byteBuckets,
        registers: [registry],
      }),
  );
  const store = shared(
    registry,
    `${prefix}store_seconds`,
    (name) =>
      new Histogram({
        name,
        help: 'Wall time of the store round trip each value was part of, by operation.',
        labelNames: ['cache', 'operation'],
        buckets: storeBuckets,
        registers: [registry],
      }),
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

/** The metric already registered under `name` (by another cache), or a new one. */
function shared<M>(registry: Registry, name: string, create: (name: string) => M): M {
  return (registry.getSingleMetric(name) as M | undefined) ?? create(name);
}
