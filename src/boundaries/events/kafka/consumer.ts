/**
 * The Kafka consumer of the event boundary: one member of a consumer group, at-least-once (an event
 * is committed only after the handler resolved for it), its memory bounded by what one fetch may
 * bring. transport.ts holds the contract it keeps, batch-handler.ts how each fetched batch is
 * handed over and acknowledged; when it starts, what it flags as redelivered, and how it rides out
 * a broker restart: docs/events.md, "Producers and consumers".
 */
import type { Consumer, Producer, RetryOptions } from 'kafkajs';
import type { WirekitError } from '../../../errors/index.js';
import { deadLetterHeaders } from '../dead-letter.js';
import type { ConsumerOptions, EventConsumer } from '../transport.js';
import { type BatchHandler, batchHandler, type PoisonEvent } from './batch-handler.js';
import type { KafkaClientName, KafkaConnectionOptions, KafkaRetryOptions } from './client-options.js';
import { brokerUnavailable } from './connection.js';
import { checkClient, type KafkaLibrary, kafkaLibrary } from './libraries.js';
import {
  checkCommitPolicy,
  type KafkaCommitPolicy,
  type OffsetCommits,
  offsetCommits,
} from './offset-commits.js';
import { toBuffer } from './records.js';

export interface KafkaConsumerOptions<T> extends ConsumerOptions<T>, KafkaConnectionOptions {
  readonly groupId: string;
  /** The topic to consume (or `topics`). */
  readonly topic?: string;
  readonly topics?: readonly string[];
  /**
   * Where a partition with no committed offset for the group starts: its oldest event (default
   * true, Kafka's `earliest`, as a new NATS durable starts at the stream's first event) or the next
   * one published (false, Kafka's `latest`). This holds per partition: a group whose first member
   * only ever committed on some partitions starts the others from their beginning too.
   */
  readonly fromBeginning?: boolean;
  /**
   * When the offsets of handled events are committed: in the background, one commit in flight at a
   * time, once `everyEvents` (default 1,000) handled events wait for one or the oldest waited
   * `everyMs` (default 1,000 ms). A crash hands over again at most 2 × everyEvents events plus
   * the chunks in hand; `{ everyEvents: 1 }` commits every chunk before the next is handed over.
   */
  readonly commit?: KafkaCommitPolicy;
  /** Partitions whose batches may be in the handler at once (default 1; never two of one partition). */
  readonly partitionsConsumedConcurrently?: number;
  /**
   * Most bytes one fetch brings per partition (default 1 MiB, Kafka's own default). Smaller fetches
   * cut producers' record batches short and cost a fetch round trip per few hundred events: at
   * `maxBatch` × 8 KiB (800 KiB) the consumer drained a backlog at about half the rate it does at 1 MiB.
   */
  readonly maxBytesPerPartition?: number;
  /** Most bytes one fetch brings in all (default 4 × maxBytesPerPartition). */
  readonly maxBytes?: number;
  /** How long the broker may hold a fetch while it has nothing new (default 500 ms; `stop()` waits for one). */
  readonly maxWaitTimeInMs?: number;
  /** The group session: a member silent this long is dropped (default 30 s; brokers allow 6 s to 5 min). */
  readonly sessionTimeout?: number;
  /** Default 3 s; below sessionTimeout. */
  readonly heartbeatInterval?: number;
  /** How long a rebalance waits for the members to rejoin (default 60 s). */
  readonly rebalanceTimeout?: number;
  /**
   * kafkajs's retries of fetching and committing before it crashes and restarts the member (the
   * Confluent client reconnects by itself and takes only the waits).
   */
  readonly retry?: KafkaRetryOptions;
  /** How long the start may take to connect, join the group and fetch (default 60 s). */
  readonly startTimeoutMs?: number;
}

export interface KafkaEventConsumer extends EventConsumer {
  /** The partitions of each topic this member was given when it last joined the group. */
  readonly assignment: Readonly<Record<string, readonly number[]>>;
}

// The made client's connection retries: about 30 s of waits, so that a broker restart is ridden
// out by the same member (whose session, 30 s by default, outlasts it) instead of a crash, a new
// member, and a rebalance that waits for the old member's session to end.
const clientRetry: RetryOptions = {
  initialRetryTime: 300,
  maxRetryTime: 3000,
  multiplier: 2,
  factor: 0.2,
  retries: 12,
};
// kafkajs's retries of the fetch loop (fetching, committing, rejoining) before it crashes.
const defaultRetry: RetryOptions = { ...clientRetry, maxRetryTime: 5000, retries: 10 };
const restartBackoffMs = { initial: 1000, max: 30_000 };

function validate<T>(options: KafkaConsumerOptions<T>): {
  topics: string[];
  maxBatch: number;
  retryBackoffMs: number;
  commit: Required<KafkaCommitPolicy>;
  client: KafkaClientName;
} {
  const topics = [...(options.topic === undefined ? [] : [options.topic]), ...(options.topics ?? [])];
  if (topics.length === 0) throw new TypeError('kafkaConsumer: give `topic` or `topics`');
  if (typeof options.groupId !== 'string' || options.groupId === '') {
    throw new TypeError('kafkaConsumer: `groupId` must be a non-empty string');
  }
  const maxBatch = options.maxBatch ?? 100;
  if (!Number.isInteger(maxBatch) || maxBatch < 1) {
    throw new RangeError(`kafkaConsumer: maxBatch must be a whole number ≥ 1, got ${maxBatch}`);
  }
  const concurrency = options.partitionsConsumedConcurrently ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(
      `kafkaConsumer: partitionsConsumedConcurrently must be a whole number ≥ 1, got ${concurrency}`,
    );
  }
  const retryBackoffMs = options.retryBackoffMs ?? 100;
  if (!(retryBackoffMs >= 0))
    throw new RangeError(`kafkaConsumer: retryBackoffMs must be ≥ 0, got ${retryBackoffMs}`);
  const client = checkClient(options.client);
  return { topics, maxBatch, retryBackoffMs, commit: checkCommitPolicy(options.commit), client };
}

export async function kafkaConsumer<T>(options: KafkaConsumerOptions<T>): Promise<KafkaEventConsumer> {
  const { topics, maxBatch, retryBackoffMs, commit, client } = validate(options);
  const { groupId } = options;
  const report = (error: WirekitError | Error) => {
    try {
      options.onError?.(error);
    } catch {
      // A throwing error callback must not take the consumer down with it.
    }
  };
  const library: KafkaLibrary = await kafkaLibrary(client);
  const kafka = library.client(options, clientRetry);
  const maxBytesPerPartition = options.maxBytesPerPartition ?? 1 << 20;
  const heartbeatInterval = options.heartbeatInterval ?? 3000;
  const fromBeginning = options.fromBeginning ?? true;
  let assignment: Readonly<Record<string, readonly number[]>> = {};
  /** Resolved at the first join (the Confluent client, which has no FETCH event to wait for). */
  let joined: (() => void) | undefined;
  const consumer: Consumer = library.consumer(kafka, {
    groupId,
    fromBeginning,
    sessionTimeout: options.sessionTimeout ?? 30_000,
    heartbeatInterval,
    rebalanceTimeout: options.rebalanceTimeout ?? 60_000,
    maxBytesPerPartition,
    maxBytes: options.maxBytes ?? 4 * maxBytesPerPartition,
    maxWaitTimeInMs: options.maxWaitTimeInMs ?? 500,
    retry: { ...defaultRetry, ...options.retry },
    // Several chunks per call, so that the next one is decoded while the handler works.
    maxBatchRecords: 4 * maxBatch,
    onAssignment: (given) => {
      assignment = given;
      joined?.();
    },
  });

  let deadLetterProducer: Producer | undefined;
  const deadLetter = options.deadLetter;
  let deliver: ((poison: readonly PoisonEvent[]) => Promise<void>) | undefined;
  if (typeof deadLetter === 'function') {
    deliver = async (poison) => {
      for (const { dead } of poison) await deadLetter(dead);
    };
  } else if (typeof deadLetter === 'string') {
    const producer = library.producer(kafka, { idempotent: true });
    deadLetterProducer = producer;
    deliver = async (poison) => {
      const messages = poison.map(({ dead, rawHeaders }) => ({
        key: dead.key === undefined ? null : toBuffer(dead.key),
        value: toBuffer(dead.bytes),
        headers: { ...rawHeaders, ...deadLetterHeaders(dead) },
      }));
      try {
        await library.send(producer, deadLetter, messages);
      } catch (error) {
        throw brokerUnavailable(
          `Kafka: could not dead-letter ${messages.length} event(s) to ${deadLetter}`,
          error,
        );
      }
    };
  }

  const commits: OffsetCommits = offsetCommits({
    policy: commit,
    holds: (topic, partition) => assignment[topic]?.includes(partition) ?? false,
    onError: (error) =>
      report(brokerUnavailable(`Kafka consumer of group ${groupId} could not commit`, error)),
  });
  const batches: BatchHandler = batchHandler({
    commits,
    codec: options.codec,
    handler: options.handler,
    maxBatch,
    retryBackoffMs,
    deadLetter: deliver,
    onError: report,
    heartbeatIntervalMs: heartbeatInterval,
    commitRequest: (payload) => library.commitRequest(consumer, payload),
  });
  const run = () => library.run(consumer, batches.eachBatch, options.partitionsConsumedConcurrently ?? 1);

  let ready = false;
  let abandoned = false;
  let stopping: Promise<void> | undefined;
  let restartTimer: NodeJS.Timeout | undefined;
  let restarting: Promise<void> | undefined;
  let restarts = 0;
  let failStart: ((error: WirekitError) => void) | undefined;

  const restart = () => {
    const delay = Math.min(restartBackoffMs.initial * 2 ** restarts, restartBackoffMs.max);
    restarts += 1;
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      if (stopping !== undefined) return;
      restarting = (async () => {
        try {
          await consumer.connect();
          await run();
        } catch (error) {
          report(brokerUnavailable(`Kafka consumer of group ${groupId} could not restart`, error));
          if (stopping === undefined) restart();
        }
      })();
    }, delay);
  };

  // kafkajs reports its crashes and joins as events; librdkafka (the Confluent client) has none,
  // and reconnects and rejoins by itself, so there is nothing to restart.
  function watchKafkajsMember() {
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (abandoned) {
        // The start gave up: whatever kafkajs restarts is not wanted.
        consumer.disconnect().catch(() => undefined);
        return;
      }
      const error = brokerUnavailable(
        `Kafka consumer of group ${groupId} crashed${payload.restart ? ' (kafkajs restarts it)' : ''}`,
        payload.error,
      );
      report(error);
      if (!ready) {
        if (!payload.restart) failStart?.(error);
      } else if (!payload.restart && stopping === undefined) {
        restart();
      }
    });
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      restarts = 0;
      assignment = payload.memberAssignment;
    });
  }
  if (library.events) watchKafkajsMember();

  const disconnectAll = async () => {
    await consumer.disconnect();
    await deadLetterProducer?.disconnect();
  };

  // Ready once connected, joined and past the first fetch, which comes after the starting
  // offsets were looked up (on the Confluent client: once joined); all of it within startTimeoutMs.
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  let removeFetchListener: (() => void) | undefined;
  let startTimer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    failStart = reject;
    startTimer = setTimeout(
      () =>
        reject(
          brokerUnavailable(
            `Kafka consumer of group ${groupId} did not connect and join within ${startTimeoutMs} ms`,
            undefined,
          ),
        ),
      startTimeoutMs,
    );
  });
  // The Confluent client has no fetch event: ready once it joined (librdkafka looks the starting
  // offsets up as its fetcher starts, just after).
  const firstFetch = new Promise<void>((resolve) => {
    if (library.events) removeFetchListener = consumer.on(consumer.events.FETCH, () => resolve());
    else joined = resolve;
  });
  const connecting = (async () => {
    try {
      await consumer.connect();
      await deadLetterProducer?.connect();
      await library.subscribe(consumer, topics, fromBeginning);
    } catch (error) {
      throw brokerUnavailable(`Kafka consumer of group ${groupId} could not connect`, error);
    }
  })();
  try {
    await Promise.race([connecting, timedOut]);
    await run();
    await Promise.race([firstFetch, timedOut]);
    ready = true;
  } catch (error) {
    abandoned = true;
    commits.close();
    void batches.stop();
    // Not awaited: the Confluent client's disconnect waits for a connect under way (up to 30 s).
    void disconnectAll().catch(() => undefined);
    // A connection still being retried may be made after all: close that one too.
    connecting.then(
      () => disconnectAll().catch(() => undefined),
      () => undefined,
    );
    throw error;
  } finally {
    clearTimeout(startTimer);
    removeFetchListener?.();
  }

  return {
    get stats() {
      return batches.stats();
    },
    get assignment() {
      return assignment;
    },
    stop() {
      stopping ??= (async () => {
        clearTimeout(restartTimer);
        // The chunks in the handler finish and nothing more is handed over; then what they
        // handled is committed, while the member is still in its group.
        await batches.stop();
        await restarting?.catch(() => undefined);
        await commits.flush().catch((error: unknown) => {
          // Not committed: those events come again to the next member, as after a crash.
          report(
            brokerUnavailable(`Kafka consumer of group ${groupId} could not commit before stopping`, error),
          );
        });
        commits.close();
        try {
          await disconnectAll();
        } catch (error) {
          throw brokerUnavailable(`Kafka consumer of group ${groupId} did not stop cleanly`, error);
        }
      })();
      return stopping;
    },
  };
}
