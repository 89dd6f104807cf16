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
 * The handler sees what both give it: the decoded value, the offset and the broker's timestamp.
 */
import { Kafka, logLevel } from 'kafkajs';
import type { EventCodec } from 'wirekit-ts/events';
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

async function kafkajsConsumer(options: BenchConsumerOptions): Promise<BenchConsumer> {
  const kafka = new Kafka({
    clientId: 'bench-consumer',
    brokers: [...options.brokers],
    logLevel: logLevel.NOTHING,
  });
  const consumer = kafka.consumer({ groupId: options.groupId });
  await consumer.connect();
  await consumer.subscribe({ topic: options.topic, fromBeginning: true });
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
