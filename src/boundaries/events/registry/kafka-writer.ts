/**
 * The leader's writes to the registry's topic, each in a Kafka transaction of its own, through a
 * producer whose transactional id every registry of one cluster shares. Claiming the id (Kafka's
 * InitProducerId) bumps its epoch, and the broker then refuses every write of a producer holding an
 * older epoch: a leader that was replaced while it could not see it (a long GC pause, a network
 * split, its session expired) is fenced by Kafka itself, whatever its own clock says, where a lease
 * alone leaves it a moment to write beside its successor. Claiming also aborts a transaction the
 * old leader left open, so the new leader's catch-up, which comes after the claim, sees everything
 * the old one committed and nothing it can still commit.
 *
 * A commit marker follows each write in the log; readers use read_committed (kafka-tail.ts), so a
 * write that was aborted is never applied anywhere.
 */
import type { Kafka, Producer } from 'kafkajs';

export interface TopicWriter {
  /** Writes the messages in one transaction: their offsets once committed. */
  write(messages: readonly OutgoingMessage[]): Promise<bigint[]>;
  close(): Promise<void>;
}

export type OutgoingMessage = { readonly key: string; readonly value: string | null };

/** Kafka's answers to a producer whose epoch another producer with its transactional id bumped. */
const fencingErrors = new Set(['INVALID_PRODUCER_EPOCH', 'PRODUCER_FENCED']);

/** Whether the error (or one it wraps, as kafkajs's retries do) says this producer was fenced. */
export function isFenced(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current);
    const { type, cause, originalError } = current as {
      type?: unknown;
      cause?: unknown;
      originalError?: unknown;
    };
    if (typeof type === 'string' && fencingErrors.has(type)) return true;
    current = cause ?? originalError;
  }
  return false;
}

/**
 * A producer holding the transactional id, claimed: from here on every writer that claimed it
 * before is fenced.
 */
export async function claimTopicWriter(options: {
  readonly kafka: Kafka;
  readonly topic: string;
  readonly transactionalId: string;
}): Promise<TopicWriter> {
  const { kafka, topic, transactionalId } = options;
  const producer: Producer = kafka.producer({
    transactionalId,
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    // Right after a commit the coordinator is still writing its markers and answers the next
    // write's AddPartitionsToTxn with CONCURRENT_TRANSACTIONS; kafkajs's default first pause
    // (100 ms here) made back-to-back registrations take 100-160 ms each, a 5 ms one about 10 ms.
    retry: { retries: 10, initialRetryTime: 5, maxRetryTime: 2_000 },
  });
  await producer.connect();
  try {
    // kafkajs claims the id with the first transaction; an empty one ends without a request.
    await (await producer.transaction()).abort();
  } catch (error) {
    await producer.disconnect().catch(() => {});
    throw error;
  }
  return {
    async write(messages) {
      const transaction = await producer.transaction();
      try {
        const metadata = await transaction.send({ topic, acks: -1, messages: [...messages] });
        await transaction.commit();
        const base = BigInt(metadata[0]?.baseOffset ?? '-1');
        return messages.map((_, index) => base + BigInt(index));
      } catch (error) {
        // A fenced producer's abort fails too; the store drops this writer either way.
        if (transaction.isActive()) await transaction.abort().catch(() => {});
        throw error;
      }
    },
    async close() {
      await producer.disconnect().catch(() => {});
    },
  };
}
