/**
 * The two client libraries the Kafka binding runs on, and everything in which they differ: kafkajs
 * (pure JavaScript) and Confluent's @confluentinc/kafka-javascript (librdkafka, with a KafkaJS-shaped
 * API under its `KafkaJS` export). Producer, consumer and batch handler keep one code path: the
 * Confluent client's producers, consumers and `eachBatch` payloads have the members that code calls
 * (connect, send, subscribe, run, pause, resolveOffset, isStale, disconnect) with kafkajs's meaning,
 * so they are typed here as kafkajs's; what each library is asked differently is below.
 *
 * What differs, besides where settings go (per call in kafkajs, in the client's configuration in
 * librdkafka's):
 * - kafkajs reports a crash, a group join and a fetch as events; the Confluent client has no
 *   events (librdkafka reconnects and rejoins by itself), so a join is learnt from its rebalance
 *   callback and there is nothing to restart.
 * - kafkajs commits through the batch's payload (the member's current generation); the Confluent
 *   client's payload would commit every offset stored so far, so the consumer's `commitOffsets`
 *   is given exactly the handled ones.
 * - The Confluent client's `eachBatch` hands over at most `js.consumer.max.batch.size` records
 *   (its default 32); kafkajs hands over what one fetch brought.
 */
import type { Consumer, EachBatchPayload, Kafka, Producer, RetryOptions } from 'kafkajs';
import { importPeer } from '../../../util/optional-peer.js';
import type { KafkaClientName, KafkaConnectionOptions } from './client-options.js';
import { kafkaClient, loadKafkajs } from './connection.js';

/** The offsets one commit sends (kafkajs's `Offsets`). */
export interface CommitOffsets {
  readonly topics: { topic: string; partitions: { partition: number; offset: string }[] }[];
}

export interface ProducerSettings {
  readonly idempotent: boolean;
  readonly retry?: RetryOptions;
  /** How long a send may take; librdkafka retries inside it by itself. */
  readonly sendTimeoutMs?: number;
}

export interface ConsumerSettings {
  readonly groupId: string;
  readonly fromBeginning: boolean;
  readonly sessionTimeout: number;
  readonly heartbeatInterval: number;
  readonly rebalanceTimeout: number;
  readonly maxBytesPerPartition: number;
  readonly maxBytes: number;
  readonly maxWaitTimeInMs: number;
  readonly retry: RetryOptions;
  /** Most records one `eachBatch` call may bring (the Confluent client's bound; kafkajs brings a fetch). */
  readonly maxBatchRecords: number;
  /** The partitions this member holds, after each join (the Confluent client; kafkajs says it by event). */
  readonly onAssignment: (assignment: Record<string, number[]>) => void;
}

export interface KafkaLibrary {
  readonly name: KafkaClientName;
  /** Whether the consumer reports CRASH, GROUP_JOIN and FETCH events (kafkajs's instrumentation). */
  readonly events: boolean;
  client(options: KafkaConnectionOptions, retry: RetryOptions): Kafka;
  /** An idempotent-or-not producer whose sends wait for every in-sync replica (acks = -1). */
  producer(kafka: Kafka, settings: ProducerSettings): Producer;
  send(
    producer: Producer,
    topic: string,
    messages: Parameters<Producer['send']>[0]['messages'],
  ): Promise<unknown>;
  consumer(kafka: Kafka, settings: ConsumerSettings): Consumer;
  subscribe(consumer: Consumer, topics: string[], fromBeginning: boolean): Promise<void>;
  /** Runs `eachBatch` with nothing resolved nor committed but what the handler finished. */
  run(
    consumer: Consumer,
    eachBatch: (payload: EachBatchPayload) => Promise<void>,
    partitionsConsumedConcurrently: number,
  ): Promise<void>;
  /** How the offsets of handled events are committed, for the payload in hand. */
  commitRequest(consumer: Consumer, payload: EachBatchPayload): (offsets: CommitOffsets) => Promise<void>;
}

const kafkajsLibrary = async (): Promise<KafkaLibrary> => {
  const kafkajs = await loadKafkajs();
  return {
    name: 'kafkajs',
    events: true,
    client: (options, retry) => kafkaClient(kafkajs, options, retry),
    producer: (kafka, { idempotent, retry }) =>
      kafka.producer({
        idempotent,
        // The Java client's partitioner (murmur2 of the key), so a key lands where other clients put it.
        createPartitioner: kafkajs.Partitioners.DefaultPartitioner,
        ...(retry === undefined ? {} : { retry }),
      }),
    send: (producer, topic, messages) => producer.send({ topic, acks: -1, messages }),
    consumer: (kafka, { groupId, fromBeginning: _, maxBatchRecords: __, onAssignment: ___, ...rest }) =>
      kafka.consumer({ groupId, ...rest }),
    subscribe: (consumer, topics, fromBeginning) => consumer.subscribe({ topics, fromBeginning }),
    run: (consumer, eachBatch, partitionsConsumedConcurrently) =>
      consumer.run({
        eachBatch,
        eachBatchAutoResolve: false,
        autoCommit: false,
        partitionsConsumedConcurrently,
      }),
    // The payload's commit carries the member's current generation; kafkajs's consumer-level
    // commitOffsets silently does nothing once its runner has stopped.
    commitRequest: (_, payload) => (offsets) => payload.commitOffsetsIfNecessary(offsets),
  };
};

/** The Confluent client's `KafkaJS` export, by the members used here. */
interface ConfluentKafkaJS {
  Kafka: new (config: object) => Kafka;
}

let loadingConfluent: Promise<ConfluentKafkaJS> | undefined;

function loadConfluent(): Promise<ConfluentKafkaJS> {
  loadingConfluent ??= importPeer(
    async () => {
      // CommonJS: Node's ESM loader gives module.exports as the default export.
      const module = (await import('@confluentinc/kafka-javascript')) as { default?: { KafkaJS?: unknown } };
      return module.default?.KafkaJS as ConfluentKafkaJS;
    },
    "The Kafka binding's Confluent client",
    '@confluentinc/kafka-javascript',
  ).catch((error: unknown) => {
    loadingConfluent = undefined;
    throw error;
  });
  return loadingConfluent;
}

/** kafkajs's log levels (INFO 4, DEBUG 5) in the Confluent client's numbers (INFO 3, DEBUG 4). */
const confluentLogLevel = (level: number): number => (level >= 4 ? level - 1 : level);

/** librdkafka's codes of a commit refused during a rebalance or while the coordinator moves. */
const rebalanceCodes = new Set([14, 15, 16, 22, 25, 27]);

/**
 * A failed Confluent commit, told the way offset-commits.ts tells kafkajs's: a rebalance or an
 * unreachable coordinator is retriable (the offsets wait for the next commit), anything else is not.
 */
function commitFailure(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'number' && (rebalanceCodes.has(code) || code < 0) && error instanceof Error) {
    return Object.assign(error, { retriable: true });
  }
  return error;
}

const confluentLibrary = async (): Promise<KafkaLibrary> => {
  const { Kafka: ConfluentKafka } = await loadConfluent();
  return {
    name: 'confluent',
    events: false,
    client(options, retry) {
      if (options.kafka !== undefined) return options.kafka as Kafka;
      if (options.brokers === undefined || options.brokers.length === 0) {
        throw new TypeError('The Kafka binding needs `kafka` (a client) or `brokers`.');
      }
      return new ConfluentKafka({
        kafkaJS: {
          clientId: options.clientId ?? 'wirekit',
          brokers: [...options.brokers],
          logLevel: confluentLogLevel(options.logLevel ?? 1),
          retry: { initialRetryTime: retry.initialRetryTime, maxRetryTime: retry.maxRetryTime },
        },
      });
    },
    producer: (kafka, { idempotent, sendTimeoutMs }) =>
      kafka.producer({
        kafkaJS: { idempotent, acks: -1 },
        // librdkafka retries a send by itself until this: the send's own deadline.
        ...(sendTimeoutMs === undefined ? {} : { 'message.timeout.ms': sendTimeoutMs }),
      } as Parameters<Kafka['producer']>[0]),
    send: (producer, topic, messages) => producer.send({ topic, messages }),
    consumer: (kafka, settings) =>
      kafka.consumer({
        kafkaJS: {
          groupId: settings.groupId,
          fromBeginning: settings.fromBeginning,
          autoCommit: false,
          sessionTimeout: settings.sessionTimeout,
          heartbeatInterval: settings.heartbeatInterval,
          rebalanceTimeout: settings.rebalanceTimeout,
          maxBytesPerPartition: settings.maxBytesPerPartition,
          maxBytes: settings.maxBytes,
          maxWaitTimeInMs: settings.maxWaitTimeInMs,
        },
        'js.consumer.max.batch.size': settings.maxBatchRecords,
        // librdkafka prefetches up to 64 MiB per member by default: held to what one fetch brings.
        'queued.max.messages.kbytes': Math.max(1, Math.ceil(settings.maxBytes / 1024)),
        // With its queue held that small it is full often, and librdkafka then waits this long
        // before fetching again (1 s by default): that wait kept wirekit's consumer at 19-39 % of
        // the library's own loop in bench:events --mode ceiling; 10 ms brings it to 84-97 %.
        'fetch.queue.backoff.ms': 10,
        rebalance_cb: (error: { code?: number }, assigned: { topic: string; partition: number }[]) => {
          // -175: partitions assigned (the eager protocol gives the whole set); else revoked.
          const assignment: Record<string, number[]> = {};
          if (error.code === -175) {
            for (const { topic, partition } of assigned) {
              assignment[topic] = [...(assignment[topic] ?? []), partition];
            }
          }
          settings.onAssignment(assignment);
        },
      } as unknown as Parameters<Kafka['consumer']>[0]),
    subscribe: (consumer, topics) => consumer.subscribe({ topics }),
    run: (consumer, eachBatch, partitionsConsumedConcurrently) =>
      consumer.run({ eachBatch, eachBatchAutoResolve: false, partitionsConsumedConcurrently }),
    commitRequest: (consumer) => async (offsets) => {
      const list = offsets.topics.flatMap(({ topic, partitions }) =>
        partitions.map(({ partition, offset }) => ({ topic, partition, offset })),
      );
      try {
        await consumer.commitOffsets(list);
      } catch (error) {
        throw commitFailure(error);
      }
    },
  };
};

const libraries: Partial<Record<KafkaClientName, Promise<KafkaLibrary>>> = {};

/** The client a binding's options name (kafkajs unless told), checked before anything connects. */
export function checkClient(name: KafkaClientName | undefined): KafkaClientName {
  if (name === undefined) return 'kafkajs';
  if (name !== 'kafkajs' && name !== 'confluent') {
    throw new TypeError(`The Kafka binding's client must be 'kafkajs' or 'confluent', got ${String(name)}`);
  }
  return name;
}

/** The library a binding runs on, loaded on first use. */
export function kafkaLibrary(name: KafkaClientName): Promise<KafkaLibrary> {
  const loading = libraries[name] ?? (name === 'kafkajs' ? kafkajsLibrary() : confluentLibrary());
  libraries[name] = loading;
  loading.catch(() => {
    if (libraries[name] === loading) delete libraries[name];
  });
  return loading;
}
