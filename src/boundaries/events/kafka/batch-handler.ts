/**
 * How a Kafka consumer hands one fetched batch of one partition to the handler: the kafkajs
 * `eachBatch` behind kafkaConsumer, with auto-resolve and auto-commit off so that nothing is
 * acknowledged that the handler did not finish.
 *
 * The batch goes over in chunks of at most `maxBatch` events, in offset order, each decoded only
 * when its turn comes (so at most `maxBatch` decoded events per partition wait, however much was
 * fetched). A chunk's last offset is committed once its poison events are dead-lettered and the
 * handler resolved for the rest. A chunk that fails commits nothing from it on: the partition
 * pauses for the backoff and is fetched again from the first unfinished offset, while the other
 * partitions go on. A timer heartbeats while a chunk is in hand, so a long handler does not outlive
 * the group session. What a user sees of this: docs/events.md, "Producers and consumers".
 */
import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import { WirekitError } from '../../../errors/index.js';
import { isPoison } from '../dead-letter.js';
import type { EventCodec } from '../event-codec.js';
import type { ConsumerStats, DeadLetter, ReceivedEvent } from '../transport.js';
import { type RawHeaders, rawHeaders, stringHeaders } from './records.js';

/** A poison event with its headers as they were on the wire, for a dead-letter topic. */
export interface PoisonEvent {
  readonly dead: DeadLetter;
  readonly rawHeaders: RawHeaders;
}

export interface BatchHandlerOptions<T> {
  readonly codec: EventCodec<T>;
  readonly handler: (events: readonly ReceivedEvent<T>[]) => Promise<void>;
  readonly maxBatch: number;
  readonly retryBackoffMs: number;
  /** Where poison events go (already bound to a topic or the caller's function); none skips them. */
  readonly deadLetter: ((poison: readonly PoisonEvent[]) => Promise<void>) | undefined;
  readonly onError: (error: WirekitError | Error) => void;
  readonly heartbeatIntervalMs: number;
}

export interface BatchHandler {
  readonly eachBatch: (payload: EachBatchPayload) => Promise<void>;
  readonly stats: () => ConsumerStats;
  /** Cancels the pauses in progress (the consumer is stopping: nothing will resume). */
  readonly stop: () => void;
}

const maxBackoffMs = 5000;

interface PartitionState {
  /**
   * The highest offset this process handed to the handler: what `redelivered` is judged by. Kafka
   * records no delivery, so an event another member handled before a rebalance is not flagged.
   */
  handedThrough: bigint;
  /** Chunks failed in a row, for the backoff. */
  failures: number;
  /** Offsets dead-lettered since the last commit. */
  readonly deadLettered: Set<string>;
}

type Decoded<T> =
  | { readonly ok: true; readonly value: T; readonly schemaId: number | undefined }
  | { readonly ok: false; readonly error: unknown };

export function batchHandler<T>(options: BatchHandlerOptions<T>): BatchHandler {
  const { codec, handler, maxBatch } = options;
  const counters = { handled: 0, redelivered: 0, deadLettered: 0, handlerFailures: 0, batches: 0 };
  const partitions = new Map<string, PartitionState>();
  const pauses = new Set<NodeJS.Timeout>();

  const stateOf = (topic: string, partition: number): PartitionState => {
    const key = `${partition}:${topic}`;
    let state = partitions.get(key);
    if (state === undefined) {
      state = { handedThrough: -1n, failures: 0, deadLettered: new Set() };
      partitions.set(key, state);
    }
    return state;
  };

  const decode = async (message: KafkaMessage): Promise<Decoded<T>> => {
    if (message.value === null) {
      const error = new WirekitError(
        'WK_EVENT_FRAME_INVALID',
        'A Kafka record without a value (a tombstone) is no event.',
      );
      return { ok: false, error };
    }
    try {
      const { value, schemaId } = await codec.decode(message.value);
      return { ok: true, value, schemaId };
    } catch (error) {
      return { ok: false, error };
    }
  };

  /** Hands one chunk over; true once it is committed, false when it must be fetched again. */
  const handleChunk = async (
    payload: EachBatchPayload,
    state: PartitionState,
    messages: readonly KafkaMessage[],
  ): Promise<boolean> => {
    const { topic, partition } = payload.batch;
    const decoded = await Promise.all(messages.map(decode));
    const events: ReceivedEvent<T>[] = [];
    const poison: PoisonEvent[] = [];
    for (const [i, message] of messages.entries()) {
      const result = decoded[i] as Decoded<T>;
      const raw = rawHeaders(message);
      const common = {
        key: message.key ?? undefined,
        headers: stringHeaders(raw),
        topic,
        partition,
        offset: message.offset,
      };
      if (result.ok) {
        const redelivered = BigInt(message.offset) <= state.handedThrough;
        events.push({
          ...common,
          value: result.value,
          timestamp: Number(message.timestamp),
          schemaId: result.schemaId,
          redelivered,
        });
      } else if (isPoison(result.error)) {
        // One dead-lettered in a chunk that then failed is not dead-lettered twice.
        if (!state.deadLettered.has(message.offset)) {
          poison.push({
            dead: { ...common, bytes: message.value ?? new Uint8Array(0), error: result.error },
            rawHeaders: raw,
          });
        }
      } else {
        // The registry is away, or the codec broke its contract: not the event's fault, so wait.
        options.onError(asError(result.error));
        return false;
      }
    }

    if (poison.length > 0) {
      try {
        await options.deadLetter?.(poison);
      } catch (error) {
        options.onError(asError(error));
        return false;
      }
      for (const { dead } of poison) {
        state.deadLettered.add(dead.offset);
        counters.deadLettered += 1;
        options.onError(dead.error);
      }
    }

    if (events.length > 0) {
      counters.batches += 1;
      for (const event of events) if (event.redelivered) counters.redelivered += 1;
      const last = BigInt((events[events.length - 1] as ReceivedEvent<T>).offset);
      if (last > state.handedThrough) state.handedThrough = last;
      try {
        await handler(events);
      } catch (error) {
        counters.handlerFailures += 1;
        options.onError(asError(error));
        return false;
      }
      counters.handled += events.length;
    }

    payload.resolveOffset((messages[messages.length - 1] as KafkaMessage).offset);
    // A commit that fails (the broker went away, the group is rebalancing) throws to kafkajs, which
    // reconnects or rejoins: the chunk's events were handled and may come again.
    await payload.commitOffsetsIfNecessary(payload.uncommittedOffsets());
    state.deadLettered.clear();
    state.failures = 0;
    return true;
  };

  const eachBatch = async (payload: EachBatchPayload): Promise<void> => {
    const { batch } = payload;
    const state = stateOf(batch.topic, batch.partition);
    const heartbeats = setInterval(() => {
      // A failed heartbeat (a rebalance began) shows again at the commit, which kafkajs handles.
      payload.heartbeat().catch(() => undefined);
    }, options.heartbeatIntervalMs);
    try {
      for (let start = 0; start < batch.messages.length; start += maxBatch) {
        if (!payload.isRunning() || payload.isStale()) return;
        const committed = await handleChunk(payload, state, batch.messages.slice(start, start + maxBatch));
        if (!committed) {
          state.failures += 1;
          pauseFor(payload, Math.min(options.retryBackoffMs * 2 ** (state.failures - 1), maxBackoffMs));
          return;
        }
      }
    } finally {
      clearInterval(heartbeats);
    }
  };

  const pauseFor = (payload: EachBatchPayload, ms: number) => {
    const resume = payload.pause();
    const timer = setTimeout(() => {
      pauses.delete(timer);
      resume();
    }, ms);
    pauses.add(timer);
  };

  return {
    eachBatch,
    stats: () => ({ ...counters }),
    stop() {
      for (const timer of pauses) clearTimeout(timer);
      pauses.clear();
    },
  };
}

function asError(error: unknown): WirekitError | Error {
  return error instanceof Error ? error : new Error(String(error));
}
