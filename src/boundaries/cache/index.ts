/**
 * `wirekit-ts/cache`: typed values in Redis or in memory, in the wirekit envelope, readable across
 * format changes and from the values written before wirekit. See docs/cache.md.
 */
export { type BreakerOptions, type BreakerState, CircuitBreaker } from './breaker.js';
export {
  type Cache,
  type CacheEntry,
  type CacheOptions,
  createCache,
  defaultCacheCompression,
  defaultCacheFormat,
  defaultTimeoutMs,
  type SetOptions,
} from './cache.js';
export {
  type CacheEvent,
  CacheMetrics,
  type CacheMetricsSnapshot,
  type CacheOperation,
  type CacheOutcome,
  type HistogramSnapshot,
} from './metrics.js';
export type { CacheStore, ReadOptions, StoredValue, StoreWrite } from './store.js';
export { defaultAsyncAbove, defaultCompressAbove, defaultMaxValueBytes } from './value-codec.js';
