/**
 * How a Kafka consumer hands one fetched batch of one partition to the handler: the kafkajs
 * `eachBatch` behind kafkaConsumer, with auto-resolve and auto-commit off so that nothing is
 * acknowledged that the handler did not finish.
 *
 * The batch goes over in chunks of at most `maxBatch` events, in offset order. The next chunk is
 * decoded while the handler works on the current one, and no further (so at most `maxBatch`
 * decoded events per partition wait, however much was fetched). Once a chunk's poison events are
 * dead-lettered and the handler resolved for the rest, its offsets go to offset-commits.ts, which
 * commits them in the background; the next chunk is handed over at once, unless too many handled
 * events are still uncommitted. A chunk that fails resolves nothing from it on: the partition
 * pauses for the backoff and is fetched again from the first unfinished offset, while the other
 * partitions go on. A timer heartbeats while a chunk is in hand, so a long handler does not outlive
 * the group session. What a user sees of this: docs/events.md, "Producers and consumers".
 */
import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import { WirekitError } from '../../../errors/index.js';
import { isPoison } from '../dead-letter.js';
import type { EventCodec } from '../event-codec.js';
import type { ConsumerStats, DeadLetter, ReceivedEvent } from '../transport.js';
import type { OffsetCommits } from './offset-commits.js';
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
  /** Where the offsets of resolved chunks go to be committed. */
  readonly commits: OffsetCommits;
  /** How they are committed for the payload in hand (its client library's way: libraries.ts). */
  readonly commitRequest: (payload: EachBatchPayload) => Parameters<OffsetCommits['use']>[0];
}

export interface BatchHandler {
  readonly eachBatch: (payload: EachBatchPayload) => Promise<void>;
  readonly stats: () => ConsumerStats;
  /**
   * Hands nothing more over and cancels the pauses in progress (the consumer is stopping: nothing
   * will resume); resolves once the chunks in the handler finished and their offsets are recorded.
   */
  readonly stop: () => Promise<void>;
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

/** A chunk decoded and sorted, ready to hand over. */
interface Chunk<T> {
  readonly messages: readonly KafkaMessage[];
  readonly events: readonly ReceivedEvent<T>[];
  readonly poison: readonly PoisonEvent[];
  /** Why the chunk cannot be read now (not the events' fault): it waits and is fetched again. */
  readonly blocked: unknown;
}

type Decoded<T> =
  | { readonly ok: true; readonly value: T; readonly schemaId: number | undefined }
  | { readonly ok: false; readonly error: unknown };

export function batchHandler<T>(options: BatchHandlerOptions<T>): BatchHandler {
  const { codec, handler, maxBatch } = options;
  const counters = { handled: 0, redelivered: 0, deadLettered: 0, handlerFailures: 0, batches: 0 };
  const partitions = new Map<string, PartitionState>();
  const pauses = new Set<NodeJS.Timeout>();
  let stopping = false;
  /** eachBatch calls under way, and who waits for there to be none. */
  let active = 0;
  const idle: (() => void)[] = [];

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

  /** Decodes a chunk and sorts it: events for the handler, poison for the dead-letter path. */
  const prepare = async (
    topic: string,
    partition: number,
    state: PartitionState,
    messages: readonly KafkaMessage[],
  ): Promise<Chunk<T>> => {
    const decoded = await Promise.all(messages.map(decode));
    const events: ReceivedEvent<T>[] = [];
    const poison: PoisonEvent[] = [];
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i] as KafkaMessage;
      const result = decoded[i] as Decoded<T>;
      if (result.ok) {
        // Built in one literal, with one shape for every event: this runs for each event.
        events.push({
          value: result.value,
          key: message.key ?? undefined,
          headers: stringHeaders(rawHeaders(message)),
          topic,
          partition,
          offset: message.offset,
          timestamp: Number(message.timestamp),
          schemaId: result.schemaId,
          // Judged when the chunk is handed over.
          redelivered: false,
        });
      } else if (isPoison(result.error)) {
        // One dead-lettered in a chunk that then failed is not dead-lettered twice.
        if (!state.deadLettered.has(message.offset)) {
          const raw = rawHeaders(message);
          const dead = {
            key: message.key ?? undefined,
            headers: stringHeaders(raw),
            topic,
            partition,
            offset: message.offset,
            bytes: message.value ?? new Uint8Array(0),
            error: result.error,
          };
          poison.push({ dead, rawHeaders: raw });
        }
      } else {
        // The registry is away, or the codec broke its contract: not the event's fault, so wait.
        return { messages, events, poison, blocked: result.error };
      }
    }
    return { messages, events, poison, blocked: undefined };
  };

  /** Hands one decoded chunk over; true once the handler resolved for it, false when it must be fetched again. */
  const hand = async (
    payload: EachBatchPayload,
    state: PartitionState,
    chunk: Chunk<T>,
  ): Promise<boolean> => {
    const { batch } = payload;
    if (chunk.blocked !== undefined) {
      options.onError(asError(chunk.blocked));
      return false;
    }
    if (chunk.poison.length > 0) {
      try {
        await options.deadLetter?.(chunk.poison);
      } catch (error) {
        options.onError(asError(error));
        return false;
      }
      for (const { dead } of chunk.poison) {
        state.deadLettered.add(dead.offset);
        counters.deadLettered += 1;
        options.onError(dead.error);
      }
    }

    const { events } = chunk;
    if (events.length > 0) {
      counters.batches += 1;
      const handedThrough = state.handedThrough;
      // Offsets grow within a chunk: when its first was never handed over, none of it was.
      const flagged =
        BigInt((events[0] as ReceivedEvent<T>).offset) > handedThrough
          ? events
          : events.map((event) =>
              BigInt(event.offset) <= handedThrough ? { ...event, redelivered: true } : event,
            );
      for (const event of flagged) if (event.redelivered) counters.redelivered += 1;
      const last = BigInt((events[events.length - 1] as ReceivedEvent<T>).offset);
      if (last > state.handedThrough) state.handedThrough = last;
      try {
        await handler(flagged);
      } catch (error) {
        counters.handlerFailures += 1;
        options.onError(asError(error));
        return false;
      }
      counters.handled += events.length;
    }

    const lastOffset = (chunk.messages[chunk.messages.length - 1] as KafkaMessage).offset;
    payload.resolveOffset(lastOffset);
    // kafkajs resolves a batch's last message as the batch's last offset, which may be a control
    // record's past it (a transaction's end): the commit goes past it too, or it would be read again.
    const through =
      lastOffset === batch.messages[batch.messages.length - 1]?.offset ? batch.lastOffset() : lastOffset;
    options.commits.handled(batch.topic, batch.partition, BigInt(through) + 1n, chunk.messages.length);
    state.deadLettered.clear();
    state.failures = 0;
    return true;
  };

  const eachBatch = async (payload: EachBatchPayload): Promise<void> => {
    const { batch } = payload;
    if (stopping) return;
    active += 1;
    options.commits.use(options.commitRequest(payload));
    const state = stateOf(batch.topic, batch.partition);
    const heartbeats = setInterval(() => {
      // A failed heartbeat (a rebalance began) shows again at kafkajs's next one, which it handles.
      payload.heartbeat().catch(() => undefined);
    }, options.heartbeatIntervalMs);
    const slice = (start: number) => batch.messages.slice(start, start + maxBatch);
    const going = () => !stopping && payload.isRunning() && !payload.isStale();
    try {
      let next: Promise<Chunk<T>> | undefined = prepare(batch.topic, batch.partition, state, slice(0));
      for (let start = 0; next !== undefined; start += maxBatch) {
        const chunk: Chunk<T> = await next;
        next = undefined;
        // Too much handled and not yet committed: the handler waits for the commit, so that a crash
        // repeats a bounded number of events.
        await options.commits.room(() => !going());
        if (!going()) return;
        const handing = hand(payload, state, chunk);
        // Decoded while the handler works: one chunk ahead, no more.
        if (start + maxBatch < batch.messages.length) {
          next = prepare(batch.topic, batch.partition, state, slice(start + maxBatch));
        }
        if (!(await handing)) {
          state.failures += 1;
          pauseFor(payload, Math.min(options.retryBackoffMs * 2 ** (state.failures - 1), maxBackoffMs));
          return;
        }
      }
    } finally {
      clearInterval(heartbeats);
      active -= 1;
      if (active === 0) for (const resolve of idle.splice(0)) resolve();
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
    async stop() {
      stopping = true;
      for (const timer of pauses) clearTimeout(timer);
      pauses.clear();
      if (active > 0) await new Promise<void>((resolve) => idle.push(resolve));
    },
  };
}

function asError(error: unknown): WirekitError | Error {
  return error instanceof Error ? error : new Error(String(error));
}
