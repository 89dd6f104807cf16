/**
 * `wirekit-ts/cache/prometheus`: the cache's events as prom-client metrics. prom-client is an
 * optional peer, required when `prometheusCacheEvents` is first called (it is synchronous), so the
 * entry loads without it:
 *
 *   createCache({ ..., onEvent: prometheusCacheEvents({ cache: 'products' }) })
 *
 * Several caches may share a registry: each metric is registered once and told apart by the `cache`
 * label. Times are exported in seconds, as Prometheus' conventions want.
 */
import { createRequire } from 'node:module';
import type { Counter, Histogram, Registry } from 'prom-client';
import { requirePeer } from '../../util/optional-peer.js';
import type { CacheEvent } from './metrics.js';

type PromClient = typeof import('prom-client');

const require = createRequire(import.meta.url);

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
  const prom = requirePeer(
    () => require('prom-client') as PromClient,
    'prometheusCacheEvents',
    'prom-client',
  );
  const metrics = metricsIn(prom, options.registry ?? prom.register);
  const prefix = options.prefix ?? 'wirekit_cache_';
  const cache = options.cache ?? 'default';

  const operations = metrics.counter(
    `${prefix}operations_total`,
    'Cache events by operation, outcome (hit, legacy-hit, stale-hit, miss, written, deleted, refused, error) and format.',
    ['cache', 'operation', 'outcome', 'format'],
  );
  const problems = metrics.counter(
    `${prefix}problems_total`,
    'Misses with a reason, refusals and store errors, by wirekit error code and reason.',
    ['cache', 'operation', 'code', 'reason'],
  );
  const loop = metrics.histogram(
    `${prefix}loop_seconds`,
    'Synchronous event-loop time per value, by operation, step (codec, compression) and format or algorithm.',
    ['cache', 'operation', 'step', 'format'],
    loopBuckets,
  );
  const bytes = metrics.histogram(
    `${prefix}value_bytes`,
    'Bytes per value read from or written to the store, by operation and format.',
    ['cache', 'operation', 'format'],
    byteBuckets,
  );
  const store = metrics.histogram(
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
function metricsIn(prom: PromClient, registry: Registry) {
  return {
    counter<L extends string>(name: string, help: string, labelNames: L[]): Counter<L> {
      return (
        (registry.getSingleMetric(name) as Counter<L> | undefined) ??
        new prom.Counter({ name, help, labelNames, registers: [registry] })
      );
    },
    histogram<L extends string>(
      name: string,
      help: string,
      labelNames: L[],
      buckets: number[],
    ): Histogram<L> {
      return (
        (registry.getSingleMetric(name) as Histogram<L> | undefined) ??
        new prom.Histogram({ name, help, labelNames, buckets, registers: [registry] })
      );
    },
  };
}
