/**
 * Redis, standalone or Cluster, through ioredis: an optional peer, required when a store that makes
 * its own connection is created (redis-connection.ts), so an application that caches only in memory
 * never needs it. Reads are redis-read.ts's; a Cluster's batches are split by hash slot in
 * redis-batches.ts. The connection it makes fails fast (no offline queue, nothing resent) and
 * reconnects forever, because a command that waits for a dead Redis only holds a request hostage,
 * and the cache in front has its own timeout and breaker; only the first connection is waited for,
 * under its own timeout. The commands and the connection's settings: docs/cache.md, "Redis: redisStore".
 */
import { WirekitError } from '../../errors/index.js';
import { type GroupCommands, isClusterClient, runCluster, runStandalone } from './redis-batches.js';
import {
  endpointOf,
  type IoredisClient,
  loadIoredis,
  makeClient,
  quit,
  waitUntilReady,
} from './redis-connection.js';
import { defaultConnectTimeoutMs } from './redis-defaults.js';
import { readCommands, stored } from './redis-read.js';
import type {
  RedisClientLike,
  RedisClusterNode,
  RedisClusterOptions,
  RedisConnectionOptions,
} from './redis-types.js';
import type { CacheStore, ReadOptions, StoredValue, StoreWrite } from './store.js';

/** An ioredis `Redis` or `Cluster` (typed by its shape: see redis-types.ts). */
export type RedisClient = RedisClientLike;

export interface RedisClusterConfig {
  /** Startup nodes (`'redis://host:port'` or `{ host, port }`): one is enough, more survive one being down. */
  readonly nodes: readonly RedisClusterNode[];
  /** ioredis Cluster options, over the store's (`redisOptions` in here reach each node's connection). */
  readonly options?: RedisClusterOptions;
}

export interface RedisStoreOptions {
  /** A standalone server: `redis://[[user]:password@]host[:port][/db]`, `rediss://` for TLS (default redis://127.0.0.1:6379). */
  readonly url?: string;
  /** ioredis options for the standalone connection the store makes, over the store's defaults. */
  readonly redisOptions?: RedisConnectionOptions;
  /** A Redis Cluster instead of a standalone server. */
  readonly cluster?: RedisClusterConfig;
  /** A client of your own (an ioredis Redis or Cluster), used as it is configured; `close()` leaves it open. */
  readonly client?: RedisClient;
  /** Also close `client` on `close()` (default false). */
  readonly closeClient?: boolean;
  /** Put in front of every key, e.g. `'shop:cache:'`. A hash tag in it puts every key in one slot. */
  readonly keyPrefix?: string;
  /**
   * How long the first connection may take, in ms (default 5,000): operations issued before it is
   * ready wait for it this long, then get their own time (the cache's `timeoutMs`), and `ready()`
   * rejects with WK_CACHE_CONNECT_FAILED once it passes.
   */
  readonly connectTimeoutMs?: number;
  /**
   * Connection errors of the client the store makes (refused, reset, timed out), as ioredis reports
   * them while it reconnects. Operations reject on their own; this is for a log. Default: ignored.
   */
  readonly onConnectionError?: (error: Error) => void;
}

export interface RedisStore extends CacheStore {
  readonly kind: 'redis' | 'redis-cluster';
  /**
   * Resolves once the connection is ready (at once if it is); rejects with WK_CACHE_CONNECT_FAILED,
   * naming the host and port, when it is refused or not ready within `connectTimeoutMs`.
   */
  ready(): Promise<void>;
  /** The ioredis client the store works through; cast it to ioredis's `Redis` or `Cluster` to send commands. */
  client(): Promise<RedisClient>;
}

export function redisStore(options: RedisStoreOptions = {}): RedisStore {
  const sources = [options.url, options.cluster, options.client].filter((given) => given !== undefined);
  if (sources.length > 1) throw new TypeError('redisStore: give one of url, cluster and client');
  const connectTimeoutMs = options.connectTimeoutMs ?? defaultConnectTimeoutMs;
  if (!(connectTimeoutMs > 0)) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `connectTimeoutMs must be positive, got ${connectTimeoutMs}.`,
    );
  }
  const given = options.client as IoredisClient | undefined;
  const isCluster = options.cluster !== undefined || (given !== undefined && isClusterClient(given));
  const ownsClient = given === undefined || options.closeClient === true;
  const prefix = options.keyPrefix ?? '';
  const fullKey = prefix === '' ? (key: string) => key : (key: string) => prefix + key;
  // Required now, not on the first operation: a missing ioredis fails here, with WK_PEER_MISSING.
  const ioredis = given === undefined ? loadIoredis('redisStore') : undefined;

  let client: IoredisClient | undefined;
  /** The wait for the first connection, which operations issued meanwhile share. */
  let firstReady: Promise<void> | undefined;
  /** The client once the first wait has settled (ready or failed): operations then go straight to it. */
  let connected: IoredisClient | undefined;
  let closed = false;

  const theClient = (): IoredisClient => {
    client ??= given ?? makeClient(ioredis as NonNullable<typeof ioredis>, options);
    return client;
  };
  const endpoint = () => endpointOf(options, theClient());
  const firstConnection = (): Promise<void> => {
    firstReady ??= waitUntilReady(theClient(), connectTimeoutMs, endpoint()).finally(() => {
      connected = client;
    });
    return firstReady;
  };
  /** The client for an operation: after the first connection settled; rejects if it failed. */
  const clientOf = async (): Promise<IoredisClient> => {
    if (closed) throw new Error('the redis store is closed');
    if (connected !== undefined) return connected;
    await firstConnection();
    return theClient();
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

    async ready() {
      if (closed) throw new Error('the redis store is closed');
      const current = theClient();
      // Past the first connection, a later call waits for the one under way (after a drop).
      if (connected === undefined) return firstConnection();
      return waitUntilReady(current, connectTimeoutMs, endpoint());
    },

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
      if (client === undefined || !ownsClient) return;
      await quit(client);
    },
  };
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

function setOne(client: IoredisClient, entry: StoreWrite): Promise<unknown> {
  return entry.ttlMs === undefined
    ? client.set(entry.key, asBuffer(entry.bytes))
    : client.set(entry.key, asBuffer(entry.bytes), 'PX', entry.ttlMs);
}
