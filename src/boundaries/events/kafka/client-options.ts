/**
 * How a Kafka producer or consumer reaches its brokers, with kafkajs's types declared by their
 * shape: kafkajs is an optional peer, and declarations that imported its types would make
 * `wirekit-ts/events` fail to type-check (TS2307) in a strict project that uses NATS alone, or no
 * broker at all. kafkajs's `Kafka`, `RetryOptions` and `logLevel` fit these (checked in
 * test/boundaries/events/peer-types.test-d.ts).
 */

/** A kafkajs `Kafka` client, by the members the binding calls. */
export interface KafkaClientLike {
  producer(config?: object): unknown;
  consumer(config: { readonly groupId: string }): unknown;
  admin(config?: object): unknown;
}

/** kafkajs's `logLevel`: NOTHING 0, ERROR 1, WARN 2, INFO 4, DEBUG 5 (`logLevel.WARN` fits). */
export type KafkaLogLevel = 0 | 1 | 2 | 4 | 5;

/** kafkajs's retry options (`RetryOptions`): its waits in ms, and how many tries. */
export interface KafkaRetryOptions {
  readonly maxRetryTime?: number;
  readonly initialRetryTime?: number;
  readonly factor?: number;
  readonly multiplier?: number;
  readonly retries?: number;
  readonly restartOnFailure?: (error: Error) => Promise<boolean>;
}

export interface KafkaConnectionOptions {
  /** A kafkajs client of your own (`new Kafka(...)`), used as it is configured. */
  readonly kafka?: KafkaClientLike;
  /** Else the bootstrap brokers (`host:port`) of the client made for you. */
  readonly brokers?: readonly string[];
  /** The made client's id (default 'wirekit'). */
  readonly clientId?: string;
  /**
   * kafkajs's log level for the made client (default ERROR). Failures reach your code anyway, as
   * rejections and through `onError`; kafkajs's INFO log narrates every connection.
   */
  readonly logLevel?: KafkaLogLevel;
}
