/**
 * The Redis stores' connections: loading ioredis, making a connection with the store's settings
 * (redis-defaults.ts), the wait for it to be ready, and closing it. ioredis is an optional peer, required (it is CommonJS)
 * when a store that makes its own connection is created, so a missing ioredis fails that call with
 * WK_PEER_MISSING instead of every later operation failing as a quiet miss.
 *
 * Connecting has its own timeout, apart from the cache's per-operation one: a fresh process pays a
 * TCP (and maybe TLS) handshake and ioredis's ready check before its first command, which can take
 * longer than the 250 ms a cache gives one operation, so an operation issued while connecting waits
 * for the connection first, then gets its own time.
 */
import { createRequire } from 'node:module';
import type { Cluster, ClusterOptions, Redis, RedisOptions } from 'ioredis';
import { WirekitError } from '../../errors/index.js';
import { requirePeer } from '../../util/optional-peer.js';
import { redisClusterDefaults, redisConnectionDefaults } from './redis-defaults.js';
import type { RedisClusterNode, RedisClusterOptions, RedisConnectionOptions } from './redis-types.js';

/** The client a store works through, with ioredis's own types (inside wirekit only). */
export type IoredisClient = Redis | Cluster;

/** What a store takes from the ioredis module. */
export interface Ioredis {
  readonly Redis: typeof Redis;
  readonly Cluster: typeof Cluster;
}

const require = createRequire(import.meta.url);

/** ioredis, or WK_PEER_MISSING naming `user` (the function that needs it). */
export function loadIoredis(user: string): Ioredis {
  return requirePeer(() => require('ioredis') as Ioredis, user, 'ioredis');
}

/** Where a client connects, for messages: `host:port`, or a Cluster's startup nodes. */
export function endpointOf(
  source: { readonly url?: string; readonly cluster?: { readonly nodes: readonly RedisClusterNode[] } },
  client: IoredisClient,
): string {
  if (source.cluster !== undefined)
    return `the Redis Cluster at ${source.cluster.nodes.map(nodeName).join(', ')}`;
  if (client.isCluster) return 'the given Redis Cluster';
  const { host, port, path } = (client as Redis).options;
  return path ? `Redis at ${path}` : `Redis at ${host ?? '127.0.0.1'}:${port ?? 6379}`;
}

function nodeName(node: RedisClusterNode): string {
  if (typeof node === 'string') return node.replace(/^rediss?:\/\//, '');
  if (typeof node === 'number') return `127.0.0.1:${node}`;
  return `${node.host ?? '127.0.0.1'}:${node.port ?? 6379}`;
}

export interface MadeClientOptions {
  readonly url?: string;
  readonly redisOptions?: RedisConnectionOptions;
  readonly cluster?: { readonly nodes: readonly RedisClusterNode[]; readonly options?: RedisClusterOptions };
  readonly onConnectionError?: (error: Error) => void;
}

/** A client with the store's defaults under the caller's options; it starts connecting at once. */
export function makeClient(ioredis: Ioredis, options: MadeClientOptions): IoredisClient {
  let client: IoredisClient;
  if (options.cluster !== undefined) {
    const given = (options.cluster.options ?? {}) as ClusterOptions;
    client = new ioredis.Cluster([...options.cluster.nodes], {
      ...redisClusterDefaults,
      ...given,
      redisOptions: { ...redisClusterDefaults.redisOptions, ...given.redisOptions },
    });
  } else {
    client = new ioredis.Redis(options.url ?? 'redis://127.0.0.1:6379', {
      ...redisConnectionDefaults,
      ...(options.redisOptions as RedisOptions | undefined),
    });
  }
  // Without a listener ioredis prints every failed reconnection attempt to stderr.
  const onError = options.onConnectionError;
  client.on('error', (error: Error) => onError?.(error));
  return client;
}

/**
 * Resolves when `client` is ready; rejects with WK_CACHE_CONNECT_FAILED when its connection attempt
 * fails (refused, reset, TLS or AUTH refused: ioredis's error is the cause) or `timeoutMs` passes
 * first. ioredis goes on reconnecting either way. A client that was never told to connect
 * (`lazyConnect`) is connected here.
 */
export function waitUntilReady(client: IoredisClient, timeoutMs: number, endpoint: string): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  if (client.status === 'end') return Promise.reject(connectFailed(`${endpoint}: the connection is closed`));
  if (client.status === 'wait') client.connect().catch(() => {});
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => settle(connectFailed(`${endpoint} was not ready within ${timeoutMs} ms (connectTimeoutMs)`)),
      timeoutMs,
    );
    const onReady = () => settle();
    const onError = (error: Error) =>
      settle(connectFailed(`cannot connect to ${endpoint}: ${error.message}`, error));
    const onEnd = () => settle(connectFailed(`${endpoint}: the connection was closed while connecting`));
    function settle(error?: WirekitError) {
      clearTimeout(timer);
      client.off('ready', onReady);
      client.off('error', onError);
      client.off('end', onEnd);
      if (error === undefined) resolve();
      else reject(error);
    }
    client.on('ready', onReady);
    client.on('error', onError);
    client.on('end', onEnd);
  });
}

function connectFailed(message: string, cause?: unknown): WirekitError {
  return new WirekitError('WK_CACHE_CONNECT_FAILED', `${message}.`, { cause });
}

/**
 * QUIT when connected (Redis answers what it was sent first), else drop the connection; either way
 * resolves once the connection is gone, so a closed store leaves no socket or reconnection timer.
 */
export async function quit(client: IoredisClient): Promise<void> {
  if (client.status === 'end') return;
  if (!client.isCluster && (client.status === 'reconnecting' || client.status === 'close')) {
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
