/**
 * How a Kafka producer or consumer reaches its brokers, with the client libraries' types declared
 * by their shape: kafkajs and @confluentinc/kafka-javascript are optional peers, and declarations
 * that imported their types would make `wirekit-ts/events` fail to type-check (TS2307) in a strict
 * project that uses NATS alone, or no broker at all. kafkajs's `Kafka`, `RetryOptions` and
 * `logLevel` fit these (checked in test/boundaries/events/peer-types.test-d.ts), and so does the
 * Confluent client's `KafkaJS.Kafka`.
 */

/**
 * The client library the binding runs on: kafkajs (pure JavaScript), or Confluent's
 * @confluentinc/kafka-javascript, librdkafka under a KafkaJS-shaped API (libraries.ts).
 */
export type KafkaClientName = 'kafkajs' | 'confluent';

/**
 * A kafkajs `Kafka` client or the Confluent client's `KafkaJS.Kafka`, by the members the binding
 * calls. Their configurations differ (the Confluent client's sit under a `kafkaJS` key), so the
 * parameters are left open: `never` takes either client's methods.
 */
export interface KafkaClientLike {
  producer(config?: never): unknown;
  consumer(config: never): unknown;
  admin(config?: never): unknown;
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
  /**
   * Which client library to run on (default 'kafkajs'); 'confluent' needs
   * @confluentinc/kafka-javascript installed. A `kafka` of your own must come from that library.
   */
  readonly client?: KafkaClientName;
  /**
   * A client of your own (kafkajs's `new Kafka(...)`, or the Confluent client's
   * `new KafkaJS.Kafka({ kafkaJS: ... })` with `client: 'confluent'`), used as it is configured.
   */
  readonly kafka?: KafkaClientLike;
  /** Else the bootstrap brokers (`host:port`) of the client made for you. */
  readonly brokers?: readonly string[];
  /** The made client's id (default 'wirekit'). */
  readonly clientId?: string;
  /**
   * kafkajs's log level for the made client (default ERROR; the Confluent client is given the same
   * level under its own numbers). Failures reach your code anyway, as
   * rejections and through `onError`; kafkajs's INFO log narrates every connection.
   */
  readonly logLevel?: KafkaLogLevel;
}
