/**
 * What a cache keeps its bytes in. A store moves opaque byte strings by key and knows nothing of
 * formats, schemas or envelopes: the cache encodes before `write` and decodes after `read`, so a
 * store can be swapped (memory, Redis, Redis Cluster, both in tiers) without the values changing.
 *
 * Every operation is batched, because the remote stores answer a batch in one round trip (MGET, a
 * pipeline) and a single key is a batch of one. A store rejects when it cannot answer (connection
 * down, timeout, a server error); the cache, not the store, decides what a failure means for the
 * request (fall back to the loader, count it, open its breaker).
 */

/** One value as a store holds it. */
export interface StoredValue {
  readonly bytes: Uint8Array;
  /**
   * Milliseconds until the entry expires, when `read` was asked for it and the entry has a TTL;
   * undefined for an entry without one. Stale-while-revalidate reads it to tell fresh from stale.
   */
  readonly ttlMs?: number;
}

/** One value to write. */
export interface StoreWrite {
  readonly key: string;
  readonly bytes: Uint8Array;
  /** Expire the entry after this many milliseconds (a whole number ≥ 1); undefined keeps it. */
  readonly ttlMs?: number;
}

export interface ReadOptions {
  /** Also report each entry's TTL left (`StoredValue.ttlMs`); costs Redis a PTTL per key. */
  readonly withTtl?: boolean;
  /**
   * The largest value to hand over, in bytes (default: no limit). A store that can stop reading a
   * value at the limit (Redis reads at most `maxBytes + 1` bytes of one) answers undefined for a
   * larger one and tells `onOversized`, so a huge value costs the network and this process's
   * memory no more than the limit; one that holds its values in this process (memory) may hand it
   * over, and the cache refuses it then.
   */
  readonly maxBytes?: number;
  /** Told of each key (by its index in `keys`) left out for holding more than `maxBytes`, and its size. */
  readonly onOversized?: (index: number, size: number) => void;
}

export interface CacheStore {
  /** 'memory', 'redis', 'redis-cluster', 'tiered': the label metrics and errors carry. */
  readonly kind: string;
  /** The values of `keys`, in their order; undefined where a key holds nothing. */
  read(keys: readonly string[], options?: ReadOptions): Promise<(StoredValue | undefined)[]>;
  /** Writes every entry; a store batches them into as few round trips as it can. */
  write(entries: readonly StoreWrite[]): Promise<void>;
  /** Removes the keys (a missing key is not an error). */
  delete(keys: readonly string[]): Promise<void>;
  /**
   * Resolves once the store can answer (a remote store: its first connection is up); rejects with
   * a WirekitError (WK_CACHE_CONNECT_FAILED) when it cannot connect. A cache waits for it before its
   * first operation, outside that operation's timeout. Absent on a store that is ready at once.
   */
  ready?(): Promise<void>;
  /** Releases connections and timers; the store answers nothing afterwards. */
  close(): Promise<void>;
}
