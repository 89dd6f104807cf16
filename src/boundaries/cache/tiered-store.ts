/**
 * Two tiers: a memory store in this process in front of a shared store (Redis), kept coherent
 * across processes through Redis pub/sub. What a read and a write do, and how the near tier is kept
 * from serving a stale value (an invalidation that arrives while a read is at the far tier, messages
 * missed while the subscriber is disconnected): docs/cache.md, "Two tiers".
 */
import { randomUUID } from 'node:crypto';
import type { Redis, RedisOptions } from 'ioredis';
import type { MemoryStore, MemoryStoreStats } from './memory-store.js';
import { type Ioredis, loadIoredis, quit } from './redis-connection.js';
import { redisConnectionDefaults } from './redis-defaults.js';
import type { RedisClientLike, RedisConnectionOptions } from './redis-types.js';
import type { CacheStore, ReadOptions, StoredValue, StoreWrite } from './store.js';

export const defaultInvalidationChannel = 'wirekit:cache:invalidate';

/**
 * 60 s: long enough that a hot key costs the far tier one read a minute per instance, short enough
 * that a change no invalidation announced (another program writing Redis) is seen within a minute.
 */
export const defaultNearTtlMs = 60_000;

export interface InvalidationConfig {
  /** The Redis that carries invalidations (usually the far tier's; any one node of a Cluster works). */
  readonly url?: string;
  /**
   * Or a client of your own (an ioredis Redis) to PUBLISH on; the store SUBSCRIBEs on a duplicate
   * of it, which it closes.
   */
  readonly client?: RedisClientLike;
  /** ioredis options for the connections the store makes from `url`. */
  readonly redisOptions?: RedisConnectionOptions;
  /** The channel (default 'wirekit:cache:invalidate'); instances that share data share a channel. */
  readonly channel?: string;
}

export interface TieredStoreOptions {
  /** This process's tier (the tiered store clears it whenever it may have missed invalidations). */
  readonly near: MemoryStore;
  /** The shared tier, e.g. a redisStore. */
  readonly far: CacheStore;
  readonly invalidation: InvalidationConfig;
  /** The longest a value stays in the near tier, in ms (default 60 s); the far tier's TTL left caps it too. */
  readonly nearTtlMs?: number;
  /** The clock deadlines are kept on, in ms (default performance.now). */
  readonly now?: () => number;
  /** Problems off the request path: a subscription that failed, a message that is not an invalidation. */
  readonly onError?: (error: Error) => void;
}

export interface TieredStoreStats {
  readonly near: MemoryStoreStats;
  /** True while the invalidation subscription is up, which is when the near tier is used. */
  readonly subscribed: boolean;
  readonly invalidationsSent: number;
  /** Invalidations from other instances that this one applied. */
  readonly invalidationsReceived: number;
  /** Times the near tier's entries were dropped at once because the subscription was lost or (re)made. */
  readonly nearClears: number;
  /** Messages on the channel that were not invalidations (ignored). */
  readonly badMessages: number;
}

export interface TieredStore extends CacheStore {
  readonly kind: 'tiered';
  /** This instance's id, in every invalidation it publishes. */
  readonly instanceId: string;
  /** Resolves when the invalidation subscription is up and the near tier is in use. */
  subscribed(): Promise<void>;
  stats(): TieredStoreStats;
}

/** A read in flight at the far tier for one key; stale once that key was invalidated meanwhile. */
interface Fill {
  stale: boolean;
}

interface InvalidationMessage {
  /** The publishing instance. */
  readonly i: string;
  /** The keys it changed. */
  readonly k: readonly string[];
}

/**
 * Near entries carry the far tier's deadline in front of the value, so a read with TTLs reports
 * what the far tier has left, not the shorter near TTL.
 */
const deadlineBytes = 8;

export function tieredStore(options: TieredStoreOptions): TieredStore {
  const { near, far } = options;
  const channel = options.invalidation.channel ?? defaultInvalidationChannel;
  const nearTtlMs = options.nearTtlMs ?? defaultNearTtlMs;
  if (!(nearTtlMs >= 1)) throw new RangeError(`tieredStore: nearTtlMs must be ≥ 1, got ${nearTtlMs}`);
  if ((options.invalidation.url === undefined) === (options.invalidation.client === undefined)) {
    throw new TypeError('tieredStore: invalidation needs one of url and client');
  }
  const now = options.now ?? (() => performance.now());
  const report = (error: Error) => options.onError?.(error);
  const instanceId = randomUUID();

  const fills = new Map<string, Set<Fill>>();
  let nearInUse = false;
  let closed = false;
  let invalidationsSent = 0;
  let invalidationsReceived = 0;
  let nearClears = 0;
  let badMessages = 0;
  const waiting: (() => void)[] = [];

  /**
   * Registers a read or write of `keys` that is on its way to the far tier. Only keys with one in
   * flight have tokens, so nothing here grows with the key space.
   */
  const track = (keys: readonly string[]): Fill[] =>
    keys.map((key) => {
      const fill: Fill = { stale: false };
      const inFlight = fills.get(key);
      if (inFlight === undefined) fills.set(key, new Set([fill]));
      else inFlight.add(fill);
      return fill;
    });
  const untrack = (keys: readonly string[], tokens: readonly Fill[]) => {
    keys.forEach((key, j) => {
      const inFlight = fills.get(key);
      inFlight?.delete(tokens[j] as Fill);
      if (inFlight?.size === 0) fills.delete(key);
    });
  };

  /** Marks every read or write in flight for `keys` stale (they must not fill the near tier). */
  const staleFills = (keys: Iterable<string>) => {
    for (const key of keys) {
      const inFlight = fills.get(key);
      if (inFlight !== undefined) for (const fill of inFlight) fill.stale = true;
    }
  };

  const clearNear = () => {
    if (near.stats().entries > 0) nearClears++;
    near.clear();
    for (const inFlight of fills.values()) for (const fill of inFlight) fill.stale = true;
  };

  const onMessage = (message: string) => {
    const parsed = invalidationOf(message);
    if (parsed === undefined) {
      badMessages++;
      report(new Error(`tieredStore: a message on ${channel} that is not an invalidation was ignored`));
      return;
    }
    if (parsed.i === instanceId) return;
    invalidationsReceived++;
    staleFills(parsed.k);
    // The memory store drops the keys before this call returns; the promise has nothing to add.
    near.delete(parsed.k).catch(report);
  };

  // Required now, so a missing ioredis fails here (WK_PEER_MISSING) rather than in the background.
  const ioredis = loadIoredis('tieredStore');
  const connections = connectInvalidation(ioredis, options.invalidation, {
    channel,
    onSubscribed() {
      clearNear();
      nearInUse = true;
      for (const resolve of waiting.splice(0)) resolve();
    },
    onLost() {
      if (!nearInUse) return;
      nearInUse = false;
      clearNear();
    },
    onMessage,
    onError: report,
  });

  const nearValue = (bytes: Uint8Array, withTtl: boolean, at: number): StoredValue | undefined => {
    const deadline = deadlineOf(bytes);
    if (deadline <= at) return undefined;
    const value = bytes.subarray(deadlineBytes);
    return withTtl && deadline !== Number.POSITIVE_INFINITY
      ? { bytes: value, ttlMs: Math.ceil(deadline - at) }
      : { bytes: value };
  };

  /** The near tier's copy of a value the far tier holds for `farTtlMs` more (undefined: no TTL). */
  const nearWrite = (
    key: string,
    bytes: Uint8Array,
    farTtlMs: number | undefined,
    at: number,
  ): StoreWrite | undefined => {
    const ttlMs = Math.floor(Math.min(farTtlMs ?? Number.POSITIVE_INFINITY, nearTtlMs));
    if (ttlMs < 1) return undefined;
    const deadline = farTtlMs === undefined ? Number.POSITIVE_INFINITY : at + farTtlMs;
    return { key, bytes: withDeadline(bytes, deadline), ...(Number.isFinite(ttlMs) ? { ttlMs } : {}) };
  };

  const checkOpen = () => {
    if (closed) throw new Error('the tiered store is closed');
  };

  const publish = async (keys: readonly string[]) => {
    const message: InvalidationMessage = { i: instanceId, k: keys };
    try {
      const publisher = await connections.publisher();
      await publisher.publish(channel, JSON.stringify(message));
      invalidationsSent++;
    } catch (error) {
      throw new Error(
        `tieredStore: the change reached the far tier, but its invalidation was not published (${(error as Error).message}); other instances may serve the old value for up to ${nearTtlMs} ms`,
        { cause: error },
      );
    }
  };

  return {
    kind: 'tiered',
    instanceId,

    async read(keys: readonly string[], readOptions: ReadOptions = {}) {
      checkOpen();
      const withTtl = readOptions.withTtl === true;
      if (!nearInUse) return far.read(keys, readOptions);
      const found: (StoredValue | undefined)[] = new Array(keys.length).fill(undefined);
      const atNear = now();
      const cached = await near.read(keys);
      const missing: number[] = [];
      for (let i = 0; i < keys.length; i++) {
        const hit = cached[i];
        const value = hit === undefined ? undefined : nearValue(hit.bytes, withTtl, atNear);
        if (value === undefined) missing.push(i);
        else found[i] = value;
      }
      if (missing.length === 0) return found;

      const missingKeys = missing.map((i) => keys[i] as string);
      const tokens = track(missingKeys);
      let fetched: (StoredValue | undefined)[];
      try {
        // The size limit goes to the far tier with the read: a value too large to read is not
        // transferred from there either.
        const { maxBytes, onOversized } = readOptions;
        fetched = await far.read(missingKeys, {
          withTtl: true,
          maxBytes,
          onOversized: onOversized && ((j, size) => onOversized(missing[j] as number, size)),
        });
      } finally {
        untrack(missingKeys, tokens);
      }

      const at = now();
      const keep: StoreWrite[] = [];
      missing.forEach((i, j) => {
        const value = fetched[j];
        if (value === undefined) return;
        found[i] = withTtl ? value : { bytes: value.bytes };
        if (!nearInUse || (tokens[j] as Fill).stale) return;
        const write = nearWrite(keys[i] as string, value.bytes, value.ttlMs, at);
        if (write !== undefined) keep.push(write);
      });
      if (keep.length > 0) await near.write(keep);
      return found;
    },

    async write(entries: readonly StoreWrite[]) {
      checkOpen();
      if (entries.length === 0) return;
      const keys = entries.map((entry) => entry.key);
      staleFills(keys);
      // The write is in flight like a read: another instance's change of the same key, announced
      // before this write is back, may have landed in the far tier after it.
      const tokens = track(keys);
      try {
        await far.write(entries);
      } catch (error) {
        // The far tier may or may not have the new values: the near tier keeps neither.
        await near.delete(keys);
        throw error;
      } finally {
        untrack(keys, tokens);
      }
      // A read that met the far tier before the write landed may be on its way back with the old value.
      staleFills(keys);
      if (nearInUse) {
        const at = now();
        const kept: StoreWrite[] = [];
        const overtaken: string[] = [];
        entries.forEach((entry, j) => {
          const write = (tokens[j] as Fill).stale
            ? undefined
            : nearWrite(entry.key, entry.bytes, entry.ttlMs, at);
          if (write === undefined) overtaken.push(entry.key);
          else kept.push(write);
        });
        await near.write(kept);
        // What the far tier holds for these is not known here: the next read asks it.
        if (overtaken.length > 0) await near.delete(overtaken);
      }
      await publish(keys);
    },

    async delete(keys: readonly string[]) {
      checkOpen();
      if (keys.length === 0) return;
      staleFills(keys);
      await near.delete(keys);
      await far.delete(keys);
      // Anything a read put in the near tier while the delete was on its way goes too.
      staleFills(keys);
      await near.delete(keys);
      await publish(keys);
    },

    async close() {
      if (closed) return;
      closed = true;
      nearInUse = false;
      await Promise.all([connections.close(), near.close(), far.close()]);
    },

    async ready() {
      await far.ready?.();
    },

    subscribed() {
      if (nearInUse) return Promise.resolve();
      if (closed) return Promise.reject(new Error('the tiered store is closed'));
      return new Promise((resolve) => waiting.push(resolve));
    },

    stats() {
      return {
        near: near.stats(),
        subscribed: nearInUse,
        invalidationsSent,
        invalidationsReceived,
        nearClears,
        badMessages,
      };
    },
  };
}

function withDeadline(bytes: Uint8Array, deadline: number): Uint8Array {
  const out = new Uint8Array(deadlineBytes + bytes.byteLength);
  new DataView(out.buffer).setFloat64(0, deadline, true);
  out.set(bytes, deadlineBytes);
  return out;
}

function deadlineOf(bytes: Uint8Array): number {
  if (bytes.byteLength < deadlineBytes) return Number.NEGATIVE_INFINITY;
  return new DataView(bytes.buffer, bytes.byteOffset, deadlineBytes).getFloat64(0, true);
}

function invalidationOf(message: string): InvalidationMessage | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { i, k } = parsed as Record<string, unknown>;
  if (typeof i !== 'string' || !Array.isArray(k) || !k.every((key) => typeof key === 'string'))
    return undefined;
  return { i, k };
}

interface InvalidationHandlers {
  readonly channel: string;
  /** The subscription is (again) up. */
  onSubscribed(): void;
  /** The subscriber's connection dropped: messages may be missed from now on. */
  onLost(): void;
  onMessage(message: string): void;
  onError(error: Error): void;
}

interface InvalidationConnections {
  publisher(): Promise<Redis>;
  close(): Promise<void>;
}

/**
 * The publisher (the caller's client, or one made from the url) and a subscriber of the store's
 * own. The subscriber does not resubscribe by itself (ioredis's autoResubscribe announces `ready`
 * before its SUBSCRIBE is answered); it SUBSCRIBEs on every `ready` and reports the subscription
 * only once Redis confirmed it, so nothing published after that moment is missed.
 */
function connectInvalidation(
  ioredis: Ioredis,
  config: InvalidationConfig,
  handlers: InvalidationHandlers,
): InvalidationConnections {
  let publisher: Redis | undefined;
  let subscriber: Redis | undefined;
  let closed = false;

  const started = (async () => {
    // A turn later, so that close() called at once finds nothing made.
    await Promise.resolve();
    if (closed) return;
    const given = config.client as Redis | undefined;
    publisher =
      given ??
      new ioredis.Redis(config.url as string, {
        ...redisConnectionDefaults,
        ...(config.redisOptions as RedisOptions | undefined),
      });
    if (given === undefined) publisher.on('error', () => {});
    subscriber =
      given?.duplicate({ autoResubscribe: false }) ??
      new ioredis.Redis(config.url as string, {
        ...redisConnectionDefaults,
        ...(config.redisOptions as RedisOptions | undefined),
        autoResubscribe: false,
      });
    const sub = subscriber;
    sub.on('error', () => {});
    sub.on('ready', () => {
      sub.subscribe(handlers.channel).then(
        () => {
          if (!closed && sub.status === 'ready') handlers.onSubscribed();
        },
        (error: Error) =>
          handlers.onError(new Error(`tieredStore: SUBSCRIBE failed: ${error.message}`, { cause: error })),
      );
    });
    sub.on('close', () => handlers.onLost());
    sub.on('message', (channel: string, message: string) => {
      if (channel === handlers.channel) handlers.onMessage(message);
    });
  })();
  started.catch((error: Error) => handlers.onError(error));

  return {
    async publisher() {
      await started;
      if (publisher === undefined) throw new Error('the tiered store is closed');
      return publisher;
    },
    async close() {
      closed = true;
      await started.catch(() => {});
      await Promise.all([
        subscriber === undefined ? undefined : quit(subscriber),
        config.client !== undefined || publisher === undefined ? undefined : quit(publisher),
      ]);
    },
  };
}
