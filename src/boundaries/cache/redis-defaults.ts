/**
 * The settings a Redis store gives a connection it makes, and its connect timeout: public, so a
 * caller who brings a client of their own can give it the same. Apart from redis-connection.ts,
 * whose declarations name ioredis's types (an optional peer's), so that `wirekit-ts/cache`'s do not.
 */
import type { ClusterOptions, RedisOptions } from 'ioredis';

/** How long a store waits for its connection to be ready before `ready()` rejects (5 s). */
export const defaultConnectTimeoutMs = 5_000;

/**
 * The delay before reconnection attempt `attempt` (1, 2, ...): 50, 100, 200, 400, 800 ms, then
 * 1 s for as long as it takes, plus up to 50 ms of jitter so that a fleet of processes does not
 * knock on a restarted Redis in step. Never a non-number: ioredis would stop reconnecting.
 */
export function reconnectDelay(attempt: number): number {
  return Math.min(50 * 2 ** Math.max(0, attempt - 1), 1000) + Math.floor(Math.random() * 50);
}

/** What a store sets on a standalone connection it makes (see redis-store.ts for why). */
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
