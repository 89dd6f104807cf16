/**
 * Where a NATS producer or consumer gets its connection, with the client's types declared by
 * their shape: the NATS packages are optional peers, and declarations that imported their types
 * would make `wirekit-ts/events` fail to type-check (TS2307) in a strict project that uses Kafka
 * alone, or no broker at all. A `NatsConnection` of @nats-io/transport-node fits these (checked in
 * test/boundaries/events/peer-types.test-d.ts).
 */

/** A connection of @nats-io/transport-node (`NatsConnection`), by a few of its members. */
export interface NatsConnectionLike {
  isClosed(): boolean;
  flush(): Promise<void>;
  drain(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Options of @nats-io/transport-node's `connect` (`NodeConnectionOptions`), passed as they are. The
 * common ones are named; any other is taken too (write it `satisfies Partial<NodeConnectionOptions>`
 * for the client's own checking).
 */
export interface NatsConnectOptions {
  readonly name?: string;
  readonly user?: string;
  readonly pass?: string;
  readonly token?: string;
  readonly timeout?: number;
  readonly maxReconnectAttempts?: number;
  readonly reconnectTimeWait?: number;
  // biome-ignore lint/suspicious/noExplicitAny: any other client option, as the client types it; `unknown` would refuse the client's own option interfaces, which have no index signature.
  readonly [option: string]: any;
}

/** Where a producer or consumer gets its connection. */
export interface NatsConnectionSource {
  /** A connection of the caller's: used as it is, left open by close()/stop(). */
  readonly connection?: NatsConnectionLike;
  /** Server URLs to connect to (default nats://127.0.0.1:4222) when no connection is given. */
  readonly servers?: string | readonly string[];
  /** Options for the connection opened from `servers`, over the defaults (reconnect forever, every 250 ms). */
  readonly connectionOptions?: NatsConnectOptions;
}
