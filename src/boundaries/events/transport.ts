/**
 * The producer and consumer contract every broker binding (Kafka, NATS JetStream) implements, so a
 * service moves between brokers, formats or framings without touching its handler.
 *
 * Delivery is at-least-once: a consumer acknowledges (Kafka: commits the offset; JetStream: acks)
 * only after the handler resolved for the events concerned. A handler that rejects leaves them
 * unacknowledged: they are handed over again after a backoff (counted as redelivered). An event no
 * schema can read (bad framing, an unknown writer schema id, bytes that do not decode or resolve) is
 * a poison event: it goes to the dead-letter path with its raw bytes and the error, is acknowledged,
 * and the consumer goes on. A registry that cannot be reached is not poison: the event stays
 * unacknowledged and is retried.
 *
 * Backpressure: a consumer hands the handler one batch at a time per partition (Kafka) or per
 * consumer (JetStream) and fetches no more than `maxBatch` events ahead, so a slow handler slows the
 * fetching instead of growing memory.
 */
import type { WirekitError } from '../../errors/index.js';
import type { EventCodec } from './event-codec.js';

export type EventKey = string | Uint8Array;

/** One event to publish. */
export interface OutgoingEvent<T> {
  /** Kafka's partitioning key (events with one key stay in order); a header on NATS. */
  readonly key?: EventKey;
  readonly value: T;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface EventProducer<T> {
  /**
   * Encodes and publishes the events as one batch, resolving once the broker acknowledged every
   * one (Kafka acks=-1; JetStream's publish ack). Rejects with WK_EVENT_BROKER_UNAVAILABLE when
   * the broker stays unreachable past the retries, or the codec's error (WK_VALIDATION_FAILED,
   * WK_REGISTRY_*) before anything is published.
   */
  send(events: OutgoingEvent<T> | readonly OutgoingEvent<T>[]): Promise<void>;
  /** Waits for sends in flight, then disconnects (a broker connection given to it stays open). */
  close(): Promise<void>;
}

/** An event as a handler receives it. */
export interface ReceivedEvent<T> {
  readonly value: T;
  readonly key: Uint8Array | undefined;
  readonly headers: Readonly<Record<string, string>>;
  /** The Kafka topic, or the NATS subject the event was published on. */
  readonly topic: string;
  /** Kafka's partition (0 on NATS). */
  readonly partition: number;
  /** Kafka's offset, or the JetStream stream sequence, as a decimal string. */
  readonly offset: string;
  /** When the broker stored it (ms since the epoch). */
  readonly timestamp: number;
  /** The writer schema's registry id (Confluent framing), when the event carries one. */
  readonly schemaId: number | undefined;
  /** True when this event was handed over before (a failed handler, a restart before the ack). */
  readonly redelivered: boolean;
}

/** An event that no schema could read, as the dead-letter path receives it. */
export interface DeadLetter {
  /** The event's bytes exactly as they were on the broker. */
  readonly bytes: Uint8Array;
  readonly key: Uint8Array | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  /** Why it could not be read (its code: WK_EVENT_FRAME_INVALID, WK_REGISTRY_NOT_FOUND, WK_DECODE_*...). */
  readonly error: WirekitError;
}

/**
 * Where poison events go: a function, or a topic (Kafka) / subject (NATS) the binding publishes the
 * raw bytes to, with headers `wirekit-error-code`, `wirekit-error-message`, `wirekit-source-topic`,
 * `wirekit-source-partition` and `wirekit-source-offset`. Without one, poison events are counted,
 * reported through onError, and acknowledged (skipped).
 */
export type DeadLetterTarget = string | ((dead: DeadLetter) => Promise<void>);

export interface ConsumerStats {
  /** Events the handler resolved for. */
  readonly handled: number;
  /** Events handed over again (after a handler failure or a restart): at-least-once's duplicates. */
  readonly redelivered: number;
  readonly deadLettered: number;
  /** Handler calls that rejected. */
  readonly handlerFailures: number;
  /** Batches handed to the handler. */
  readonly batches: number;
}

export interface ConsumerOptions<T> {
  readonly codec: EventCodec<T>;
  /** Called with one batch at a time (in order within a partition); acknowledged when it resolves. */
  readonly handler: (events: readonly ReceivedEvent<T>[]) => Promise<void>;
  /** Most events per handler call and fetched ahead (default 100). */
  readonly maxBatch?: number;
  readonly deadLetter?: DeadLetterTarget;
  /** How long to wait before handing a failed batch over again: doubles from this (default 100 ms) up to 5 s. */
  readonly retryBackoffMs?: number;
  /** Errors that do not stop the consumer: handler failures, poison events, broker reconnects. */
  readonly onError?: (error: WirekitError | Error) => void;
}

export interface EventConsumer {
  readonly stats: ConsumerStats;
  /** Stops fetching, waits for the batch in hand (and its acknowledgement), then disconnects. */
  stop(): Promise<void>;
}
