/**
 * Redis, standalone or Cluster, through ioredis: an optional peer, imported on the first operation,
 * so an application that caches only in memory never needs it. Reads are redis-read.ts's; a
 * Cluster's batches are split by hash slot in redis-batches.ts. The connection it makes fails fast
 * (no offline queue, nothing resent) and reconnects forever, because a command that waits for a dead
 * Redis only holds a request hostage, and the cache in front has its own timeout and breaker. The
 * commands and the connection's settings: docs/cache.md, "Redis: redisStore".
 */
import type { Cluster, ClusterNode, ClusterOptions, Redis, RedisOptions } from 'ioredis';
import { importPeer } from '../../util/optional-peer.js';
import { type GroupCommands, isClusterClient, runCluster, runStandalone } from './redis-batches.js';
import { readCommands, stored } from './redis-read.js';
import type { CacheStore, ReadOptions, StoredValue, StoreWrite } from './store.js';

export type RedisClient = Redis | Cluster;

export interface RedisClusterConfig {
  /** Startup nodes (`'redis://host:port'` or `{ host, port }`): one is enough, more survive one being down. */
  readonly nodes: readonly ClusterNode[];
  /** ioredis Cluster options, over the store's (`redisOptions` in here reach each node's connection). */
  readonly options?: ClusterOptions;
}

export interface RedisStoreOptions {
  /** A standalone server: `redis://[[user]:password@]host[:port][/db]`, `rediss://` for TLS (default redis://127.0.0.1:6379). */
  readonly url?: string;
  /** ioredis options for the standalone connection the store makes, over the store's defaults. */
  readonly redisOptions?: RedisOptions;
  /** A Redis Cluster instead of a standalone server. */
  readonly cluster?: RedisClusterConfig;
  /** A client of your own (Redis or Cluster), used as it is configured; `close()` leaves it open. */
  readonly client?: RedisClient;
  /** Also close `client` on `close()` (default false). */
  readonly closeClient?: boolean;
  /** Put in front of every key, e.g. `'shop:cache:'`. A hash tag in it puts every key in one slot. */
  readonly keyPrefix?: string;
  /**
   * Connection errors of the client the store makes (refused, reset, timed out), as ioredis reports
   * them while it reconnects. Operations reject on their own; this is for a log. Default: ignored.
   */
  readonly onConnectionError?: (error: Error) => void;
}

export interface RedisStore extends CacheStore {
  readonly kind: 'redis' | 'redis-cluster';
  /** The ioredis client the store works through (made, and connected, on first use). */
  client(): Promise<RedisClient>;
}

/**
 * The delay before reconnection attempt `attempt` (1, 2, ...): 50, 100, 200, 400, 800 ms, then
 * 1 s for as long as it takes, plus up to 50 ms of jitter so that a fleet of processes does not
 * knock on a restarted Redis in step. Never a non-number: ioredis would stop reconnecting.
 */
export function reconnectDelay(attempt: number): number {
  return Math.min(50 * 2 ** Math.max(0, attempt - 1), 1000) + Math.floor(Math.random() * 50);
}

/** What the store sets on a standalone connection it makes (see the module comment for why). */
export const redisConnectionDefaults = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  retryStrategy: reconnectDelay,
} as const satisfies RedisOptions;

/**
 * What it sets on a Cluster it makes. ioredis keeps an offline queue on each node's connection
 * whatever it is told, but with the Cluster's own queue off, a command for a node that is not ready
 * rejects before it reaches that queue. ioredis would also resend a command that met a closed
 * connection or CLUSTERDOWN every 100 ms, up to 16 times: 1 to 3 s of waiting that covers no real
 * failover (a replica takes over after cluster-node-timeout, seconds) and that the cache's own
 * timeout would cut anyway, so those fail at once. MOVED and ASK are still followed, and the
 * Cluster finds its way back by itself: a command for a node it lost goes to another node, whose
 * MOVED names the node that serves the slot now (the restarted one, or the promoted replica).
 */
export const redisClusterDefaults = {
  enableOfflineQueue: false,
  retryDelayOnFailover: 0,
  retryDelayOnClusterDown: 0,
  redisOptions: { maxRetriesPerRequest: 0, autoResendUnfulfilledCommands: false },
} as const satisfies ClusterOptions;

/** How long the first operation waits for the first connection before it tries anyway. */
const firstConnectionWaitMs = 10_000;

/** What the store takes from the ioredis module (its CommonJS namespace, imported on first use). */
interface Ioredis {
  readonly Redis: typeof Redis;
  readonly Cluster: typeof Cluster;
}

export function redisStore(options: RedisStoreOptions = {}): RedisStore {
  const sources = [options.url, options.cluster, options.client].filter((given) => given !== undefined);
  if (sources.length > 1) throw new TypeError('redisStore: give one of url, cluster and client');
  const given = options.client;
  const isCluster = options.cluster !== undefined || (given !== undefined && isClusterClient(given));
  const ownsClient = given === undefined || options.closeClient === true;
  const prefix = options.keyPrefix ?? '';
  const fullKey = prefix === '' ? (key: string) => key : (key: string) => prefix + key;

  let connecting: Promise<RedisClient> | undefined;
  /** The client once `connecting` has resolved: operations then skip awaiting it. */
  let connected: RedisClient | undefined;
  let closed = false;

  const connect = async (): Promise<RedisClient> => {
    const client = given ?? makeClient(await loadIoredis(), options);
    await firstConnection(client);
    connected = client;
    return client;
  };
  const clientOf = (): Promise<RedisClient> => {
    if (closed) return Promise.reject(new Error('the redis store is closed'));
    connecting ??= connect();
    return connecting;
  };

  /** Sends one batch (`keys`, prefixed) as the client's kind needs; rejects with the cause. */
  const run = async (operation: string, keys: readonly string[], commands: GroupCommands) => {
    if (keys.length === 0) return;
    const client = connected !== undefined && !closed ? connected : await clientOf();
    try {
      if (isClusterClient(client)) await runCluster(client, keys, commands);
      else await runStandalone(client, keys.length, commands);
    } catch (error) {
      throw failure(operation, error);
    }
  };

  return {
    kind: isCluster ? 'redis-cluster' : 'redis',

    client: clientOf,

    async read(keys: readonly string[], readOptions: ReadOptions = {}) {
      const full = prefix === '' ? keys : keys.map(fullKey);
      // One MGET on a standalone connection, without the batching machinery.
      const plain = readOptions.withTtl !== true && readOptions.maxBytes === undefined;
      if (plain && connected !== undefined && !closed && !isClusterClient(connected)) {
        if (keys.length === 0) return [];
        try {
          return (await connected.mgetBuffer(full as string[])).map((value) => stored(value));
        } catch (error) {
          throw failure('read', error);
        }
      }
      const found: (StoredValue | undefined)[] = new Array(keys.length).fill(undefined);
      await run('read', full, readCommands(full, readOptions, found));
      return found;
    },

    async write(entries: readonly StoreWrite[]) {
      const full = prefix === '' ? entries : entries.map((entry) => ({ ...entry, key: fullKey(entry.key) }));
      // The common case again: one SET on a standalone connection.
      const only = full.length === 1 ? full[0] : undefined;
      if (only !== undefined && connected !== undefined && !closed && !isClusterClient(connected)) {
        try {
          await setOne(connected, only);
          return;
        } catch (error) {
          throw failure('write', error);
        }
      }
      await run(
        'write',
        full.map((entry) => entry.key),
        writeCommands(full),
      );
    },

    async delete(keys: readonly string[]) {
      const full = prefix === '' ? keys : keys.map(fullKey);
      await run('delete', full, deleteCommands(full));
    },

    async close() {
      if (closed) return;
      closed = true;
      if (connecting === undefined || !ownsClient) return;
      const client = await connecting.catch(() => undefined);
      if (client !== undefined) await quit(client);
    },
  };
}

function loadIoredis(): Promise<Ioredis> {
  return importPeer(() => import('ioredis'), 'redisStore', 'ioredis');
}

function makeClient(ioredis: Ioredis, options: RedisStoreOptions): RedisClient {
  let client: RedisClient;
  if (options.cluster !== undefined) {
    const given = options.cluster.options ?? {};
    client = new ioredis.Cluster([...options.cluster.nodes], {
      ...redisClusterDefaults,
      ...given,
      redisOptions: { ...redisClusterDefaults.redisOptions, ...given.redisOptions },
    });
  } else {
    client = new ioredis.Redis(options.url ?? 'redis://127.0.0.1:6379', {
      ...redisConnectionDefaults,
      ...options.redisOptions,
    });
  }
  // Without a listener ioredis prints every failed reconnection attempt to stderr.
  const onError = options.onConnectionError;
  client.on('error', (error: Error) => onError?.(error));
  return client;
}

/**
 * Resolves once `client` is ready, or once its first attempt fails (then operations reject on
 * their own, quickly, while ioredis keeps reconnecting). Without this wait the first operation of
 * a fresh store, sent before the connection is up, would be refused for want of an offline queue.
 */
function firstConnection(client: RedisClient): Promise<void> {
  if (client.status === 'ready' || client.status === 'end') return Promise.resolve();
  if (client.status === 'wait') client.connect().catch(() => {});
  return new Promise((resolve) => {
    const events = ['ready', 'error', 'close', 'end'] as const;
    const timer = setTimeout(done, firstConnectionWaitMs);
    function done() {
      clearTimeout(timer);
      for (const event of events) client.off(event, done);
      resolve();
    }
    for (const event of events) client.on(event, done);
  });
}

/**
 * QUIT when connected (Redis answers what it was sent first), else drop the connection; either way
 * resolves once the connection is gone, so a closed store leaves no socket or reconnection timer.
 */
export async function quit(client: RedisClient): Promise<void> {
  if (client.status === 'end') return;
  if (!isClusterClient(client) && (client.status === 'reconnecting' || client.status === 'close')) {
    // Between connections: disconnect() cancels the next attempt, and no 'end' would follow.
    client.disconnect();
    return;
  }
  const ended = new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      client.disconnect();
      resolve();
    }, 1_000);
    client.once('end', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
  else client.disconnect();
  await ended;
}

/** The error a store operation rejects with: what failed, and ioredis's error as the cause. */
function failure(operation: string, cause: unknown): Error {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new Error(`Redis ${operation} failed: ${reason}`, { cause });
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function writeCommands(entries: readonly StoreWrite[]): GroupCommands {
  const entriesOf = (group: readonly number[]) => group.map((i) => entries[i] as StoreWrite);
  const untimed = entries.every((entry) => entry.ttlMs === undefined);
  return {
    count: (group) => (untimed ? 1 : group.length),
    queue(pipeline, group) {
      const groupEntries = entriesOf(group);
      if (untimed) pipeline.mset(msetArguments(groupEntries));
      else {
        for (const entry of groupEntries) {
          if (entry.ttlMs === undefined) pipeline.set(entry.key, asBuffer(entry.bytes));
          else pipeline.set(entry.key, asBuffer(entry.bytes), 'PX', entry.ttlMs);
        }
      }
    },
    take() {},
    async direct(client, group) {
      const groupEntries = entriesOf(group);
      if (untimed) await client.mset(msetArguments(groupEntries));
      else await Promise.all(groupEntries.map((entry) => setOne(client, entry)));
    },
  };
}

function deleteCommands(keys: readonly string[]): GroupCommands {
  const keysOf = (group: readonly number[]) => group.map((i) => keys[i] as string);
  return {
    count: () => 1,
    queue(pipeline, group) {
      pipeline.del(keysOf(group));
    },
    take() {},
    async direct(client, group) {
      await client.del(keysOf(group));
    },
  };
}

function msetArguments(entries: readonly StoreWrite[]): (string | Buffer)[] {
  return entries.flatMap((entry) => [entry.key, asBuffer(entry.bytes)]);
}

function setOne(client: RedisClient, entry: StoreWrite): Promise<unknown> {
  return entry.ttlMs === undefined
    ? client.set(entry.key, asBuffer(entry.bytes))
    : client.set(entry.key, asBuffer(entry.bytes), 'PX', entry.ttlMs);
}
