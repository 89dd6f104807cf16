/**
 * The Kafka store's reader: one consumer, in a group of its own, that reads the registry's topic
 * from its start to the end it had when the registry loaded, then goes on reading what the leader
 * appends, as Confluent's registry keeps a reader thread on `_schemas`. What it read is `position`
 * (the next offset to apply); a follower's reads wait until the position passes the topic's end as
 * it was when the read came in, so a schema acknowledged anywhere is visible everywhere after.
 *
 * Messages are applied in offset order, one at a time, and never twice: a consumer that kafkajs
 * restarts (a crash, a lost session) may fetch from the start again, and what is behind the
 * position is passed over. The writer's own messages are passed over too once its send resolved
 * (it applied them then); one whose send failed as far as the writer knows, but that the broker
 * kept, is applied from here, so the state ends up as the log says. It reads committed
 * transactions only: a write that a fenced leader began and that was aborted is never applied.
 */
import type { Consumer, Kafka } from 'kafkajs';
import type { TopicMessage } from './topic-message.js';

export interface TailOptions {
  readonly kafka: Kafka;
  readonly topic: string;
  /** The end of the topic when loading began: messages before it are the load's. */
  readonly loadEnd: bigint;
  /** Applies a message read after the load (the next one waits for it). */
  readonly apply: (message: TopicMessage) => Promise<void>;
}

export interface Tail {
  /** Resolves with every message before `loadEnd`, once read. */
  readonly loaded: Promise<TopicMessage[]>;
  /** The next offset to apply: every message before it was loaded, applied or passed over. */
  position(): bigint;
  /** Resolves once the position reaches `offset`. */
  reached(offset: bigint): Promise<void>;
  /** Marks offsets this registry wrote and applied itself, so that the reader passes over them. */
  wrote(offsets: Promise<readonly bigint[]>): void;
  close(): Promise<void>;
}

export function startTail(options: TailOptions): Tail {
  const { kafka, topic, loadEnd } = options;
  let position = 0n;
  /** The next offset the load takes (a restarted consumer may fetch what it already read). */
  let loadNext = 0n;
  const loadedMessages: TopicMessage[] = [];
  const waiters = new Set<{ offset: bigint; resolve: () => void }>();
  /** Offsets of the writes under way (resolved once sent) and of those done. */
  const sending = new Set<Promise<readonly bigint[]>>();
  const own = new Set<bigint>();
  let resolveLoaded: (messages: TopicMessage[]) => void = () => {};
  let rejectLoaded: (error: unknown) => void = () => {};
  const loaded = new Promise<TopicMessage[]>((resolve, reject) => {
    resolveLoaded = resolve;
    rejectLoaded = reject;
  });
  let isLoaded = false;

  const advance = (to: bigint) => {
    if (to <= position) return;
    position = to;
    for (const waiter of waiters) {
      if (waiter.offset <= position) {
        waiters.delete(waiter);
        waiter.resolve();
      }
    }
  };
  const finishLoad = () => {
    if (isLoaded) return;
    isLoaded = true;
    advance(loadEnd);
    resolveLoaded(loadedMessages);
  };

  const groupId = `wirekit-registry-reader-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const consumer: Consumer = kafka.consumer({
    groupId,
    maxWaitTimeInMs: 100,
    allowAutoTopicCreation: false,
    // The leader writes in transactions (kafka-writer.ts): only committed ones are the registry's.
    // kafkajs's default, said here because the fencing of a replaced leader depends on it.
    readUncommitted: false,
  });
  const handle = async (message: TopicMessage): Promise<void> => {
    const offset = BigInt(message.offset);
    if (offset < position) return;
    if (offset < loadEnd) {
      if (offset >= loadNext) loadedMessages.push(message);
      if (offset >= loadNext) loadNext = offset + 1n;
      return;
    }
    // A message of this registry's send under way is known as its own once the send resolved.
    if (sending.size > 0) await Promise.allSettled([...sending]);
    if (!own.delete(offset)) await options.apply(message);
  };

  /** Every offset before `next` was read: a batch's end counts even when compaction or filtering left nothing of it. */
  const passed = (next: bigint) => {
    if (next < loadEnd) return;
    finishLoad();
    advance(next);
  };
  // kafkajs hands eachBatch no batch whose messages were all filtered out: one holding only a
  // transaction's commit marker (which a fetch may bring after the record it commits) reaches
  // only this event. Without it, the position would stop short of the end by the marker.
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
    if (payload.topic === topic) passed(BigInt(payload.lastOffset) + 1n);
  });

  const run = async () => {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        for (const message of batch.messages) {
          await handle(message);
          if (BigInt(message.offset) >= loadEnd) advance(BigInt(message.offset) + 1n);
        }
        passed(BigInt(batch.lastOffset()) + 1n);
      },
    });
  };
  if (loadEnd === 0n) finishLoad();
  run().catch((error: unknown) => rejectLoaded(error));

  return {
    loaded,
    position: () => position,
    reached(offset) {
      if (offset <= position) return Promise.resolve();
      return new Promise((resolve) => waiters.add({ offset, resolve }));
    },
    wrote(offsets) {
      sending.add(offsets);
      offsets
        .then((written) => {
          for (const offset of written) if (offset >= position) own.add(offset);
        })
        .catch(() => {})
        .finally(() => sending.delete(offsets));
    },
    async close() {
      await consumer.disconnect().catch(() => {});
      // The group only existed to read; it committed nothing, and is not left behind.
      const admin = kafka.admin();
      await admin
        .connect()
        .then(() => admin.deleteGroups([groupId]))
        .catch(() => {});
      await admin.disconnect().catch(() => {});
    },
  };
}
