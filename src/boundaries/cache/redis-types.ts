/**
 * The ioredis types that the Redis stores' options and answers name, declared here by their shape.
 * ioredis is an optional peer: were these declarations to import its types, a strict project that
 * caches only in memory, without ioredis installed, would fail to type-check `wirekit-ts/cache`
 * (TS2307) unless it turned `skipLibCheck` on. ioredis's own `Redis`, `Cluster`, `RedisOptions`,
 * `ClusterOptions` and `ClusterNode` fit these (test/boundaries/cache/redis-types.test-d.ts checks it).
 */

/**
 * An ioredis `Redis` or `Cluster`, by what marks it as one. The store works through the ioredis
 * API; to send commands of your own, cast `await store.client()` to ioredis's `Redis` (or
 * `Cluster`, for a store made with `cluster`).
 */
export interface RedisClientLike {
  /** ioredis's connection state: 'wait', 'connecting', 'connect', 'ready', 'close', 'reconnecting', 'end'. */
  readonly status: string;
  /** True on a Cluster. */
  readonly isCluster: boolean;
  connect(): Promise<void>;
  quit(): Promise<unknown>;
  disconnect(): void;
}

/**
 * Options of an ioredis connection (`RedisOptions`): passed to ioredis as they are, over the store's
 * defaults. The common ones are named here; any other ioredis option is taken too. For ioredis's own
 * checking, write the object `satisfies RedisOptions` (imported from ioredis).
 */
export interface RedisConnectionOptions {
  readonly host?: string;
  readonly port?: number;
  readonly username?: string;
  readonly password?: string;
  readonly db?: number;
  /** ioredis's own limit on one connection attempt, in ms; the store's `connectTimeoutMs` bounds the wait for the first. */
  readonly connectTimeout?: number;
  /** Node's `tls.connect` options, for TLS without a `rediss://` URL. */
  readonly tls?: object;
  // biome-ignore lint/suspicious/noExplicitAny: any other ioredis option, as ioredis types it; `unknown` would refuse ioredis's RedisOptions, an intersection of interfaces without an index signature.
  readonly [option: string]: any;
}

/** A Cluster startup node, as ioredis takes it: `'redis://host:port'`, a port, or `{ host, port }`. */
export type RedisClusterNode = string | number | { readonly host?: string; readonly port?: number };

/**
 * ioredis's Cluster options (`ClusterOptions`), passed as they are, over the store's defaults;
 * `redisOptions` in them reach each node's connection.
 */
export interface RedisClusterOptions {
  readonly redisOptions?: RedisConnectionOptions;
  // biome-ignore lint/suspicious/noExplicitAny: any other ioredis Cluster option, as in RedisConnectionOptions.
  readonly [option: string]: any;
}
