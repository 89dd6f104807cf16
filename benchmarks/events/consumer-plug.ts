/**
 * The consumer bench:events drives, behind one small interface so that either end plugs in:
 *
 * - `kafkajs`: kafkajs's own `eachBatch` loop, as a service without wirekit writes it: each fetched
 *   batch decoded message by message, handed to the handler in chunks of `maxBatch`, each chunk's
 *   last offset resolved after the handler resolved, the batch committed by kafkajs's auto-commit
 *   when the callback returns (at-least-once, as transport.ts describes it). The baseline runs on
 *   it; wirekit's formats can too (`--consumer kafkajs`), which separates the codec's cost from
 *   the consumer's.
 * - `wirekit`: wirekit's `kafkaConsumer` (boundaries/events/kafka/), what users of the event
 *   boundary run and the default for wirekit's formats: it decodes with the format's event codec
 *   itself, and commits each chunk once its handler resolved.
 *
 * Either runs on either Kafka client library (`client`): kafkajs, or Confluent's librdkafka client
 * (@confluentinc/kafka-javascript, its KafkaJS-shaped API, imported only when asked for). On the
 * Confluent client the raw loop is the same loop, with that client's own periodic auto-commit, and
 * its batches allowed as many records as wirekit's consumer asks for (`js.consumer.max.batch.size`
 * of 4 × maxBatch; the client's default is 32), so the two differ by wirekit alone.
 *
 * The handler sees what both give it: the decoded value, the offset and the broker's timestamp.
 */
import { type Consumer, type ConsumerConfig, Kafka, logLevel } from 'kafkajs';
import type { EventCodec, KafkaClientName } from 'wirekit-ts/events';
import { kafkaConsumer } from 'wirekit-ts/events';

export const consumerKinds = ['kafkajs', 'wirekit'] as const;
export type ConsumerKind = (typeof consumerKinds)[number];

export interface BenchEvent {
  readonly value: unknown;
  readonly offset: string;
  /** When the producer created it (kafkajs stamps CreateTime), ms since the epoch. */
  readonly timestamp: number;
}

export interface BenchConsumerOptions {
  /** The Kafka client library under either consumer (default kafkajs). */
  readonly client?: KafkaClientName;
  readonly brokers: readonly string[];
  readonly groupId: string;
  readonly topic: string;
  /** Events per handler call (and, for wirekit's consumer, fetched ahead). */
  readonly maxBatch: number;
  /** For the kafkajs loop: bytes → value. */
  readonly decode: (bytes: Uint8Array) => unknown | Promise<unknown>;
  /** For wirekit's consumer: the format's event codec (undefined for the baseline). */
  readonly codec: EventCodec<unknown> | undefined;
  readonly handler: (events: readonly BenchEvent[]) => Promise<void>;
  readonly onError: (error: Error) => void;
}

export interface BenchConsumer {
  /** Events handled, as the consumer counts them. */
  handled(): number;
  stop(): Promise<void>;
}

export async function startConsumer(
  kind: ConsumerKind,
  options: BenchConsumerOptions,
): Promise<BenchConsumer> {
  return kind === 'kafkajs' ? kafkajsConsumer(options) : wirekitConsumer(options);
}

/** The Confluent client's KafkaJS-shaped consumer, set up as its documentation shows. */
async function confluentRawConsumer(options: BenchConsumerOptions): Promise<Consumer> {
  const { default: confluent } = (await import('@confluentinc/kafka-javascript')) as unknown as {
    default: { KafkaJS: { Kafka: new (config: object) => Kafka } };
  };
  const kafka = new confluent.KafkaJS.Kafka({
    kafkaJS: { clientId: 'bench-consumer', brokers: [...options.brokers], logLevel: logLevel.NOTHING },
  });
  const consumer = kafka.consumer({
    kafkaJS: { groupId: options.groupId, fromBeginning: true },
    'js.consumer.max.batch.size': 4 * options.maxBatch,
  } as unknown as ConsumerConfig);
  await consumer.connect();
  await consumer.subscribe({ topic: options.topic });
  return consumer;
}

async function kafkajsConsumer(options: BenchConsumerOptions): Promise<BenchConsumer> {
  let consumer: Consumer;
  if (options.client === 'confluent') consumer = await confluentRawConsumer(options);
  else {
    const kafka = new Kafka({
      clientId: 'bench-consumer',
      brokers: [...options.brokers],
      logLevel: logLevel.NOTHING,
    });
    consumer = kafka.consumer({ groupId: options.groupId });
    await consumer.connect();
    await consumer.subscribe({ topic: options.topic, fromBeginning: true });
  }
  let handled = 0;
  await consumer.run({
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
      const { messages } = batch;
      for (let start = 0; start < messages.length; start += options.maxBatch) {
        if (!isRunning() || isStale()) return;
        const chunk = messages.slice(start, start + options.maxBatch);
        const events: BenchEvent[] = [];
        for (const message of chunk) {
          const value = message.value === null ? null : await options.decode(message.value);
          events.push({ value, offset: message.offset, timestamp: Number(message.timestamp) });
        }
        await options.handler(events);
        handled += events.length;
        resolveOffset((chunk[chunk.length - 1] as (typeof chunk)[number]).offset);
        await heartbeat();
      }
    },
  });
  return {
    handled: () => handled,
    stop: () => consumer.disconnect(),
  };
}

async function wirekitConsumer(options: BenchConsumerOptions): Promise<BenchConsumer> {
  if (options.codec === undefined)
    throw new Error('wirekit’s consumer reads wirekit’s formats, not the baseline');
  const consumer = await kafkaConsumer({
    ...(options.client === undefined ? {} : { client: options.client }),
    brokers: options.brokers,
    groupId: options.groupId,
    topic: options.topic,
    codec: options.codec,
    maxBatch: options.maxBatch,
    fromBeginning: true,
    // Failures reach onError (printed by the consumer process); kafkajs's own log would repeat them.
    logLevel: logLevel.NOTHING,
    handler: (events) => options.handler(events),
    onError: options.onError,
  });
  return { handled: () => consumer.stats.handled, stop: () => consumer.stop() };
}
