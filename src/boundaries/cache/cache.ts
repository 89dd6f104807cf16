/**
 * `createCache`: typed values in a byte store, with the three promises a cache in a request path
 * must keep. It never fails a request for its own sake: a store that is down, slow or behind an open
 * breaker, and a value nobody can read, are misses (counted and reported, never thrown). It never
 * returns a value of the wrong type: values are decoded by the schema, and a value written under
 * another schema is a miss. And it never runs a loader twice at once for one key (single-flight).
 *
 * The encoding lives in value-codec.ts, the store's bytes in store.ts, the breaker in breaker.ts and
 * what the cache reports in metrics.ts; this module is the control flow between them.
 */
import type { FormatName } from '../../codecs/core/codec.js';
import type { DecodeLimits } from '../../codecs/core/limits.js';
import type { CompressionName } from '../../compression/index.js';
import { isWirekitError, WirekitError } from '../../errors/index.js';
import type { Infer, Schema } from '../../schema/index.js';
import { type BreakerOptions, type BreakerState, CircuitBreaker } from './breaker.js';
import { memoryStore } from './memory-store.js';
import {
  type CacheEvent,
  CacheMetrics,
  type CacheMetricsSnapshot,
  type CacheOperation,
  type CacheOutcome,
} from './metrics.js';
import { type LegacySpec, legacyReaders } from './pre-wirekit-values.js';
import type { CacheStore, StoredValue, StoreWrite } from './store.js';
import { createValueCodec, defaultMaxValueBytes, type Encoded, storedTooLarge } from './value-codec.js';

/** The defaults bench:cache chose on `products` (docs/cache.md says why). */
export const defaultCacheFormat: { readonly withSchema: FormatName; readonly schemaless: FormatName } = {
  withSchema: 'avro',
  schemaless: 'msgpack',
};
export const defaultCacheCompression: CompressionName = 'snappy';
/** How long the cache waits for its store before it answers without it. */
export const defaultTimeoutMs = 250;

export interface CacheOptions {
  /** Where the bytes live (default: `memoryStore()`, in this process). */
  readonly store?: CacheStore;
  /** Types the values; without it values are schemaless (JSON, MessagePack or CBOR only). */
  readonly schema?: Schema;
  /** The format new values are written in (default Avro with a schema, MessagePack without). */
  readonly format?: FormatName;
  /** Compression of new values at or above `compressAbove` bytes (default snappy). */
  readonly compression?: CompressionName;
  readonly compressionLevel?: number;
  /** Encoded values smaller than this are stored uncompressed (default: measured per algorithm, `compressionThresholds`). */
  readonly compressAbove?: number;
  /** Values of at least this many bytes are (de)compressed on the thread pool (default: `compressionThresholds`). */
  readonly asyncAbove?: number;
  /** Largest value written or read, encoded before compression (default 8 MiB). */
  readonly maxValueBytes?: number;
  /** Decode limits for every read (maxInputBytes is maxValueBytes). */
  readonly limits?: Partial<DecodeLimits>;
  /** Readers of values written before wirekit, tried in order on bytes without an envelope. */
  readonly legacy?: readonly LegacySpec[];
  /** Default TTL of written values, in seconds (fractions allowed; default: none). */
  readonly ttl?: number;
  /**
   * Seconds past its TTL that getOrSet may still answer with a value while one refresh runs in the
   * background (stale-while-revalidate). `get` never answers a stale value. Default 0 (off).
   */
  readonly staleWhileRevalidate?: number;
  /** Wait this long for the store before answering without it (default 250 ms; Infinity waits). */
  readonly timeoutMs?: number;
  /** The circuit breaker around the store, or false for none. */
  readonly breaker?: BreakerOptions | false;
  /** Every miss that had a reason, refusal and store error, with the error; must not throw. */
  readonly onError?: (error: Error, event: CacheEvent) => void;
  /** Every event (one per key and operation), for a metrics system; must not throw. */
  readonly onEvent?: (event: CacheEvent) => void;
}

export interface SetOptions {
  /** Seconds until the value expires (default: the cache's `ttl`). */
  readonly ttl?: number;
}

export interface CacheEntry<T> {
  readonly key: string;
  readonly value: T;
  readonly ttl?: number;
}

export interface Cache<T> {
  /** The value, or undefined on a miss (nothing there, unreadable, another schema's, store down). */
  get(key: string): Promise<T | undefined>;
  /** Values in the keys' order; one store round trip where the store can (MGET). */
  getMany(keys: readonly string[]): Promise<(T | undefined)[]>;
  /** Resolves whether the store took the value (false: refused or store down; see onError). */
  set(key: string, value: T, options?: SetOptions): Promise<boolean>;
  setMany(entries: readonly CacheEntry<T>[]): Promise<boolean[]>;
  /** Resolves whether the store took the delete. */
  delete(keys: string | readonly string[]): Promise<boolean>;
  /**
   * The cached value, or the loader's (stored for next time). Concurrent calls for one key share
   * one read and one loader call. A loader's rejection reaches every caller and is not cached.
   */
  getOrSet(key: string, loader: (key: string) => T | Promise<T>, options?: SetOptions): Promise<T>;
  metrics(): CacheMetricsSnapshot;
  /**
   * Resolves once the store can answer (a Redis store: connected); rejects with the store's
   * WK_CACHE_CONNECT_FAILED, naming host and port, when it cannot connect within its
   * `connectTimeoutMs`. Optional: operations wait for the first connection by themselves.
   */
  ready(): Promise<void>;
  readonly breakerState: BreakerState;
  /** Waits for running loaders and writes, then closes the store. */
  close(): Promise<void>;
}

export function createCache<S extends Schema>(
  options: CacheOptions & { readonly schema: S },
): Cache<Infer<S>>;
export function createCache<T = unknown>(options?: CacheOptions): Cache<T>;
export function createCache<T>(options: CacheOptions = {}): Cache<T> {
  return new WirekitCache<T>(options);
}

type StoreResult<R> = { readonly ok: true; readonly value: R; readonly micros: number } | StoreFailure;
interface StoreFailure {
  readonly ok: false;
  readonly error: Error;
  readonly reason: 'store' | 'timeout' | 'breaker-open';
}

interface ReadResult<T> {
  readonly value: T;
  readonly stale: boolean;
}

const timedOut = Symbol('timed out');

class WirekitCache<T> implements Cache<T> {
  private readonly store: CacheStore;
  private readonly codec;
  private readonly defaultTtlMs: number | undefined;
  private readonly staleMs: number;
  private readonly timeoutMs: number;
  private readonly breaker: CircuitBreaker | undefined;
  private readonly aggregate = new CacheMetrics();
  private readonly flights = new Map<string, Promise<T>>();
  private readonly refreshes = new Map<string, Promise<void>>();
  private readonly pending = new Set<Promise<unknown>>();
  /** The store's first connection, waited for once by the operations issued before it settled. */
  private firstConnection: Promise<Error | undefined> | undefined;
  private connectionSettled = false;

  constructor(private readonly options: CacheOptions) {
    const { schema } = options;
    this.codec = createValueCodec<T>({
      schema,
      format:
        options.format ??
        (schema === undefined ? defaultCacheFormat.schemaless : defaultCacheFormat.withSchema),
      compression: options.compression ?? defaultCacheCompression,
      compressionLevel: options.compressionLevel,
      compressAbove: optionalNonNegative('compressAbove', options.compressAbove),
      asyncAbove: optionalNonNegative('asyncAbove', options.asyncAbove),
      maxValueBytes: nonNegative('maxValueBytes', options.maxValueBytes ?? defaultMaxValueBytes),
      limits: options.limits,
      legacy: legacyReaders(options.legacy ?? [], {
        schema,
        limits: options.limits,
        maxDecompressedBytes: options.maxValueBytes ?? defaultMaxValueBytes,
      }),
    });
    this.defaultTtlMs = options.ttl === undefined ? undefined : ttlMs(options.ttl);
    this.staleMs =
      options.staleWhileRevalidate === undefined
        ? 0
        : seconds('staleWhileRevalidate', options.staleWhileRevalidate) * 1000;
    this.timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
    if (!(this.timeoutMs > 0)) throw invalidOption(`timeoutMs must be positive, got ${options.timeoutMs}`);
    this.breaker = options.breaker === false ? undefined : new CircuitBreaker(options.breaker);
    this.store = options.store ?? memoryStore();
  }

  get breakerState(): BreakerState {
    return this.breaker?.state ?? 'closed';
  }

  metrics(): CacheMetricsSnapshot {
    return this.aggregate.snapshot();
  }

  async ready(): Promise<void> {
    await this.store.ready?.();
  }

  async get(key: string): Promise<T | undefined> {
    const [found] = await this.read('get', [checkKey(key)]);
    return found?.value;
  }

  async getMany(keys: readonly string[]): Promise<(T | undefined)[]> {
    if (keys.length === 0) return [];
    const found = await this.read('getMany', keys.map(checkKey));
    return found.map((entry) => entry?.value);
  }

  async set(key: string, value: T, options: SetOptions = {}): Promise<boolean> {
    const [stored] = await this.write('set', [{ key: checkKey(key), value, ttl: options.ttl }]);
    return stored === true;
  }

  async setMany(entries: readonly CacheEntry<T>[]): Promise<boolean[]> {
    if (entries.length === 0) return [];
    return this.write(
      'setMany',
      entries.map((entry) => ({ ...entry, key: checkKey(entry.key) })),
    );
  }

  async delete(keys: string | readonly string[]): Promise<boolean> {
    const list = (typeof keys === 'string' ? [keys] : keys).map(checkKey);
    if (list.length === 0) return true;
    const result = await this.useStore(() => this.store.delete(list), 'delete');
    for (const key of list) {
      if (result.ok) this.emit({ operation: 'delete', key, outcome: 'deleted', storeMicros: result.micros });
      else this.storeFailed('delete', key, result);
    }
    return result.ok;
  }

  getOrSet(key: string, loader: (key: string) => T | Promise<T>, options: SetOptions = {}): Promise<T> {
    checkKey(key);
    const running = this.flights.get(key);
    if (running !== undefined) return running;
    const flight = this.track(
      (async () => {
        const [found] = await this.read('getOrSet', [key]);
        if (found !== undefined) {
          if (found.stale) this.refresh(key, loader, options);
          return found.value;
        }
        const value = await loader(key);
        await this.keep(key, value, options);
        return value;
      })().finally(() => this.flights.delete(key)),
    );
    this.flights.set(key, flight);
    return flight;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.pending]);
    await this.store.close();
  }

  /** A stale value was served: load it again once, in the background, and store the result. */
  private refresh(key: string, loader: (key: string) => T | Promise<T>, options: SetOptions): void {
    if (this.refreshes.has(key)) return;
    const run = this.track(
      (async () => {
        try {
          await this.keep(key, await loader(key), options);
        } catch (error) {
          this.report(asError(error), { operation: 'getOrSet', key, outcome: 'error', reason: 'loader' });
        }
      })().finally(() => this.refreshes.delete(key)),
    );
    this.refreshes.set(key, run);
  }

  /** getOrSet's write: a value that cannot be stored is reported, and the caller still gets it. */
  private async keep(key: string, value: T, options: SetOptions): Promise<void> {
    try {
      await this.write('getOrSet', [{ key, value, ttl: options.ttl }]);
    } catch (error) {
      this.report(asError(error), {
        operation: 'getOrSet',
        key,
        outcome: 'refused',
        code: isWirekitError(error) ? error.code : undefined,
      });
    }
  }

  private async read(
    operation: CacheOperation,
    keys: readonly string[],
  ): Promise<(ReadResult<T> | undefined)[]> {
    const withTtl = this.staleMs > 0;
    // A value too large to read is left in the store (see ReadOptions.maxBytes): its size comes,
    // and no more of its bytes than the limit.
    const oversized = new Map<number, number>();
    const onOversized = (index: number, size: number) => oversized.set(index, size);
    const maxBytes = this.codec.maxStoredBytes;
    const result = await this.useStore(
      () => this.store.read(keys, { withTtl, maxBytes, onOversized }),
      operation,
    );
    if (!result.ok) {
      for (const key of keys) this.storeFailed(operation, key, result);
      return keys.map(() => undefined);
    }
    // One after another, in the keys' order: decoding runs on the loop either way, and the events
    // then come in the order the caller asked.
    const found: (ReadResult<T> | undefined)[] = [];
    for (const [i, key] of keys.entries()) {
      const size = oversized.get(i);
      if (size !== undefined) this.refuseOversized(operation, key, size, result.micros);
      found.push(
        size === undefined ? await this.decodeOne(operation, key, result.value[i], result.micros) : undefined,
      );
    }
    return found;
  }

  private refuseOversized(operation: CacheOperation, key: string, size: number, storeMicros: number): void {
    const error = storedTooLarge(size, this.codec.maxValueBytes);
    this.report(error, { operation, key, outcome: 'miss', bytes: size, storeMicros, code: error.code });
  }

  private async decodeOne(
    operation: CacheOperation,
    key: string,
    stored: StoredValue | undefined,
    storeMicros: number,
  ): Promise<ReadResult<T> | undefined> {
    if (stored === undefined) {
      this.emit({ operation, key, outcome: 'miss', storeMicros });
      return undefined;
    }
    const bytes = stored.bytes.length;
    try {
      const decoded = await this.codec.decode(stored.bytes);
      const stale = this.staleMs > 0 && stored.ttlMs !== undefined && stored.ttlMs <= this.staleMs;
      if (stale && operation !== 'getOrSet') {
        // Past its TTL: only getOrSet, which can refresh it, may answer with it.
        this.emit({ operation, key, outcome: 'miss', bytes, storeMicros, reason: 'stale' });
        return undefined;
      }
      const outcome: CacheOutcome = stale ? 'stale-hit' : decoded.legacy ? 'legacy-hit' : 'hit';
      this.emit({
        operation,
        key,
        outcome,
        format: decoded.format,
        compression: decoded.compression,
        bytes,
        codecMicros: decoded.timings.codecMs * 1000,
        compressionMicros: decoded.timings.compressionMs * 1000,
        storeMicros,
      });
      return { value: decoded.value, stale };
    } catch (error) {
      const problem = asError(error);
      this.report(problem, {
        operation,
        key,
        outcome: 'miss',
        bytes,
        storeMicros,
        code: isWirekitError(problem) ? problem.code : 'WK_DECODE_MALFORMED',
      });
      return undefined;
    }
  }

  /**
   * Encodes every entry first (a value the schema refuses throws before anything is written: that
   * is the caller's bug, not a cache miss), then writes those within maxValueBytes in one batch.
   */
  private async write(
    operation: CacheOperation,
    entries: readonly { key: string; value: T; ttl?: number | undefined }[],
  ): Promise<boolean[]> {
    const encoded: (Encoded | undefined)[] = [];
    for (const entry of entries) {
      try {
        encoded.push(await this.codec.encode(entry.value));
      } catch (error) {
        if (!isWirekitError(error, 'WK_CACHE_VALUE_TOO_LARGE')) throw error;
        this.report(error, { operation, key: entry.key, outcome: 'refused', code: error.code });
        encoded.push(undefined);
      }
    }
    const writes: StoreWrite[] = [];
    entries.forEach((entry, i) => {
      const value = encoded[i];
      if (value === undefined) return;
      const ttl = entry.ttl === undefined ? this.defaultTtlMs : ttlMs(entry.ttl);
      writes.push({
        key: entry.key,
        bytes: value.bytes,
        ttlMs: ttl === undefined ? undefined : ttl + this.staleMs,
      });
    });
    if (writes.length === 0) return entries.map(() => false);
    const result = await this.useStore(() => this.store.write(writes), operation);
    entries.forEach((entry, i) => {
      const value = encoded[i];
      if (value === undefined) return;
      if (!result.ok) {
        this.storeFailed(operation, entry.key, result);
        return;
      }
      this.emit({
        operation,
        key: entry.key,
        outcome: 'written',
        format: this.codec.format,
        compression: value.compression,
        bytes: value.bytes.length,
        codecMicros: value.timings.codecMs * 1000,
        compressionMicros: value.timings.compressionMs * 1000,
        storeMicros: result.micros,
      });
    });
    return encoded.map((value) => value !== undefined && result.ok);
  }

  /** One store call under the breaker and the timeout. */
  private async useStore<R>(call: () => Promise<R>, what: CacheOperation): Promise<StoreResult<R>> {
    const { breaker } = this;
    if (breaker !== undefined && !breaker.allow()) {
      return {
        ok: false,
        reason: 'breaker-open',
        error: new WirekitError(
          'WK_CACHE_STORE_UNAVAILABLE',
          `the ${this.store.kind} store failed repeatedly; the circuit breaker is open, so ${what} did not try it.`,
        ),
      };
    }
    // Connecting is not the operation: its wait is bounded by the store's connect timeout, and the
    // operation's own timeout starts once it is over.
    const connecting = this.awaitFirstConnection();
    const failedToConnect = connecting === undefined ? undefined : await connecting;
    if (failedToConnect !== undefined) {
      breaker?.failed();
      return {
        ok: false,
        reason: 'store',
        error: new WirekitError(
          'WK_CACHE_STORE_UNAVAILABLE',
          `the ${this.store.kind} store could not connect, so ${what} did not try it: ${failedToConnect.message}`,
          { cause: failedToConnect },
        ),
      };
    }
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      const answer = await Promise.race([
        call(),
        new Promise<typeof timedOut>((resolve) => {
          timer = setTimeout(() => resolve(timedOut), this.timeoutMs);
        }),
      ]);
      if (answer === timedOut) {
        breaker?.failed();
        return {
          ok: false,
          reason: 'timeout',
          error: new WirekitError(
            'WK_CACHE_STORE_UNAVAILABLE',
            `the ${this.store.kind} store did not answer ${what} within ${this.timeoutMs} ms.`,
          ),
        };
      }
      breaker?.succeeded();
      return { ok: true, value: answer, micros: (performance.now() - started) * 1000 };
    } catch (error) {
      breaker?.failed();
      return {
        ok: false,
        reason: 'store',
        error: new WirekitError(
          'WK_CACHE_STORE_UNAVAILABLE',
          `the ${this.store.kind} store failed on ${what}: ${asError(error).message}`,
          { cause: error },
        ),
      };
    } finally {
      clearTimeout(timer);
    }
  }

  /** The wait for the store's first connection while it lasts (its error if it failed), then undefined. */
  private awaitFirstConnection(): Promise<Error | undefined> | undefined {
    if (this.connectionSettled || this.store.ready === undefined) return undefined;
    if (this.firstConnection === undefined) {
      this.firstConnection = this.store.ready().then(
        () => undefined,
        (error: unknown) => asError(error),
      );
      void this.firstConnection.then(() => {
        this.connectionSettled = true;
      });
    }
    return this.firstConnection;
  }

  private storeFailed(operation: CacheOperation, key: string, failure: StoreFailure): void {
    this.report(failure.error, {
      operation,
      key,
      outcome: 'error',
      code: 'WK_CACHE_STORE_UNAVAILABLE',
      reason: failure.reason,
    });
  }

  private report(error: Error, event: CacheEvent): void {
    this.emit(event);
    // A user's hook that throws must not turn a counted miss into a failed request.
    try {
      this.options.onError?.(error, event);
    } catch {}
  }

  private emit(event: CacheEvent): void {
    this.aggregate.record(event);
    try {
      this.options.onEvent?.(event);
    } catch {}
  }

  /** Keeps a promise in `pending` until it settles, so close() can wait for it. */
  private track<R>(promise: Promise<R>): Promise<R> {
    this.pending.add(promise);
    const forget = () => this.pending.delete(promise);
    promise.then(forget, forget);
    return promise;
  }
}

function checkKey(key: string): string {
  if (typeof key !== 'string') throw invalidOption(`a cache key is a string, not ${typeof key}`);
  return key;
}

function ttlMs(ttl: number): number {
  const value = seconds('ttl', ttl);
  if (value === 0) throw invalidOption('ttl must be positive (omit it for no expiry)');
  return Math.max(1, Math.round(value * 1000));
}

function seconds(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw invalidOption(`${name} is a number of seconds ≥ 0, got ${String(value)}`);
  }
  return value;
}

function nonNegative(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0)
    throw invalidOption(`${name} must be a whole number ≥ 0, got ${value}`);
  return value;
}

function optionalNonNegative(name: string, value: number | undefined): number | undefined {
  return value === undefined ? undefined : nonNegative(name, value);
}

function invalidOption(message: string): WirekitError {
  return new WirekitError('WK_OPTIONS_INVALID', `${message}.`);
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
