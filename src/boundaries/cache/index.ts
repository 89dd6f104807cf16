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
  defaultMemoryStoreBytes,
  entryOverheadBytes,
  type MemoryStore,
  type MemoryStoreOptions,
  type MemoryStoreStats,
  memoryStore,
} from './memory-store.js';
export {
  type CacheEvent,
  CacheMetrics,
  type CacheMetricsSnapshot,
  type CacheOperation,
  type CacheOutcome,
  type HistogramSnapshot,
} from './metrics.js';
export {
  type LegacyDecode,
  type LegacyFormat,
  type LegacyReader,
  type LegacyReaderOptions,
  type LegacySpec,
  legacyFormats,
  legacyReaders,
} from './pre-wirekit-values.js';
export {
  defaultConnectTimeoutMs,
  reconnectDelay,
  redisClusterDefaults,
  redisConnectionDefaults,
} from './redis-defaults.js';
export {
  type RedisClient,
  type RedisClusterConfig,
  type RedisStore,
  type RedisStoreOptions,
  redisStore,
} from './redis-store.js';
export type {
  RedisClientLike,
  RedisClusterNode,
  RedisClusterOptions,
  RedisConnectionOptions,
} from './redis-types.js';
export type { CacheStore, ReadOptions, StoredValue, StoreWrite } from './store.js';
export { assumedCompressionRatio, type CompressionThresholds, compressionThresholds } from './thresholds.js';
export {
  defaultInvalidationChannel,
  defaultNearTtlMs,
  type InvalidationConfig,
  type TieredStore,
  type TieredStoreOptions,
  type TieredStoreStats,
  tieredStore,
} from './tiered-store.js';
// The value codec alone (compiled codec, compression, envelope: the bytes a cache stores), for tools
// and benchmarks that read or write a store's values without a cache in front.
export {
  createValueCodec,
  type DecodedValue,
  defaultMaxValueBytes,
  type Encoded,
  type StepTimings,
  type ValueCodec,
  type ValueCodecOptions,
} from './value-codec.js';
