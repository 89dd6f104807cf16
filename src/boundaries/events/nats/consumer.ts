/**
 * The JetStream consumer: a durable pull consumer with explicit acks that hands the handler one
 * batch at a time and acks each event only after the handler resolved for its batch.
 *
 * Backpressure is the server's: the durable's `max_ack_pending` is `maxBatch`, so JetStream never
 * has more than one batch's worth of events out with this consumer unacknowledged, however slow the
 * handler. A failed batch is nak'ed with a delay that doubles with JetStream's own delivery count
 * (kept by the server, so the backoff survives a consumer restart too), and the events come back
 * marked redelivered. Long handlers keep their events from timing out (`ack_wait`) by telling the
 * server they are still working on them. Events that no schema can read go to the dead-letter path
 * and are acked; an unreachable registry is not their fault, so they are nak'ed and tried again.
 *
 * `stop()` drains: the server is told to send nothing more, what it had already sent (at most
 * one batch, by `max_ack_pending`) is handled and acked like any batch, then the connection closes.
 *
 * Order holds within a batch and from batch to batch, except around a failed batch: events after it
 * that were already delivered can be handled before it comes back.
 */
import type { Consumer, ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import type { WirekitError } from '../../../errors/index.js';
import { isPoison } from '../dead-letter.js';
import type { ConsumerOptions, ConsumerStats, EventConsumer, ReceivedEvent } from '../transport.js';
import { brokerError, closeSession, openSession, watchReconnects } from './connection.js';
import type { NatsConnectionSource } from './connection-source.js';
import { deadLetterTo } from './dead-letter.js';
import { ensureDurable } from './durable.js';
import { readHeaders } from './headers.js';
import { checkSource, countOption, numberOption, sleep } from './options.js';
import { ensureStream, requireStream } from './stream.js';
import type { NatsStreamSetup } from './stream-setup.js';

export interface NatsConsumerOptions<T> extends ConsumerOptions<T>, NatsConnectionSource {
  /** The stream to read. */
  readonly stream: string;
  /** The durable consumer's name: created when missing, its position (acks) kept by the server. */
  readonly durable: string;
  /** Only events on subjects matching this filter (default: all of the stream's). */
  readonly subject?: string;
  /** How long the server waits for an ack before handing an event out again (default 30 s). */
  readonly ackWaitMs?: number;
  /** Where a new durable starts: 'all' (default) the stream's first event, 'new' the next one published. */
  readonly deliverPolicy?: 'all' | 'new';
  /** Create the stream (file storage, capturing `subject`) when the server has none of that name. */
  readonly ensureStream?: boolean | NatsStreamSetup;
}

const owner = 'natsConsumer';
const maxNakDelayMs = 5_000;

export async function natsConsumer<T>(options: NatsConsumerOptions<T>): Promise<EventConsumer> {
  const { stream, durable, subject, codec, handler } = options;
  checkSource(owner, options);
  if (typeof stream !== 'string' || stream === '') throw new TypeError(`${owner}: stream is required`);
  if (typeof durable !== 'string' || durable === '') throw new TypeError(`${owner}: durable is required`);
  if (typeof handler !== 'function') throw new TypeError(`${owner}: handler must be a function`);
  const maxBatch = countOption(owner, 'maxBatch', options.maxBatch, 100, 1);
  const retryBackoffMs = numberOption(owner, 'retryBackoffMs', options.retryBackoffMs, 100, 0);
  const ackWaitMs = numberOption(owner, 'ackWaitMs', options.ackWaitMs, 30_000, 1_000);
  const report = (error: unknown) => {
    try {
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // A throwing onError must not stop the consumer it reports on.
    }
  };

  const session = await openSession(options, `wirekit consumer ${stream}/${durable}`);
  let messages: ConsumerMessages | undefined;
  let consumer: Consumer;
  try {
    if (options.ensureStream) {
      const setup = options.ensureStream === true ? {} : options.ensureStream;
      await ensureStream(session, stream, setup, subject === undefined ? [] : [subject]);
    } else {
      await requireStream(session, stream, subject === undefined ? [] : [subject]);
    }
    await ensureDurable(session, stream, durable, {
      ackWaitMs,
      maxAckPending: maxBatch,
      filterSubject: subject,
      deliverPolicy: options.deliverPolicy ?? 'all',
    });
    consumer = await session.js.consumers.get(stream, durable).catch((error: unknown) => {
      throw brokerError(`cannot open the durable consumer ${stream}/${durable}`, error);
    });
  } catch (error) {
    await closeSession(session);
    throw error;
  }

  const stats = { handled: 0, redelivered: 0, deadLettered: 0, handlerFailures: 0, batches: 0 };
  const deadLetter = deadLetterTo(session, options.deadLetter, { stream, durable });
  /** Delivered by the server, not yet handed to the handler. */
  const waiting: JsMsg[] = [];
  /** The batch the handler (or the dead-letter path) is working on. */
  let inHand: readonly JsMsg[] = [];
  let wake: (() => void) | undefined;
  let stopping = false;

  const nakDelay = (message: JsMsg) =>
    Math.min(retryBackoffMs * 2 ** Math.max(0, message.info.deliveryCount - 1), maxNakDelayMs);
  // An ack or nak is a publish: on a connection closed under the consumer it throws. The event is
  // then the server's to hand out again after ack_wait; the failure is reported once per batch.
  const tell = (batch: readonly JsMsg[], verb: (message: JsMsg) => void) => {
    let failure: unknown;
    for (const message of batch) {
      try {
        verb(message);
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== undefined)
      report(brokerError(`cannot acknowledge events of ${stream}/${durable}`, failure));
  };
  const ackAll = (batch: readonly JsMsg[]) => tell(batch, (message) => message.ack());
  const nakAll = (batch: readonly JsMsg[], delayed = true) =>
    tell(batch, (message) => message.nak(delayed ? nakDelay(message) : undefined));

  const processBatch = async (batch: readonly JsMsg[]) => {
    const decoded = await Promise.all(
      batch.map((message) =>
        codec.decode(message.data).then(
          (event) => ({ message, event, error: undefined }),
          (error: unknown) => ({ message, event: undefined, error }),
        ),
      ),
    );
    const events: ReceivedEvent<T>[] = [];
    const readable: JsMsg[] = [];
    const again: JsMsg[] = [];
    let transient: unknown;
    for (const { message, event, error } of decoded) {
      if (event !== undefined) {
        const { key, headers } = readHeaders(message.headers);
        events.push({
          value: event.value,
          key,
          headers,
          topic: message.subject,
          partition: 0,
          offset: String(message.seq),
          timestamp: Math.floor(message.info.timestampNanos / 1e6),
          schemaId: event.schemaId,
          redelivered: message.redelivered,
        });
        readable.push(message);
      } else if (isPoison(error)) {
        report(error);
        try {
          await deadLetter(message, error);
          stats.deadLettered++;
          ackAll([message]);
        } catch (failure) {
          report(brokerError(`cannot dead-letter ${stream} #${message.seq}`, failure));
          again.push(message);
        }
      } else {
        transient ??= error;
        again.push(message);
      }
    }
    if (transient !== undefined) {
      // The batch is handed over whole or not at all: with one event unreadable for now, all wait.
      report(transient);
      nakAll([...again, ...readable]);
      return;
    }
    nakAll(again);
    if (events.length === 0) return;
    stats.batches++;
    stats.redelivered += events.filter((event) => event.redelivered).length;
    try {
      await handler(events);
    } catch (error) {
      stats.handlerFailures++;
      report(error);
      nakAll(readable);
      return;
    }
    ackAll(readable);
    stats.handled += events.length;
  };

  // Long handlers: every third of ack_wait, every event in hand or waiting is reported as in progress.
  const keepAlive = setInterval(
    () => {
      tell(inHand, (message) => message.working());
      tell(waiting, (message) => message.working());
    },
    Math.max(ackWaitMs / 3, 250),
  );
  keepAlive.unref();

  const connection = watchReconnects(session.nc, (status) => {
    if (status.type === 'disconnect')
      report(brokerError(`disconnected from NATS (${stream}/${durable}): reconnecting`));
  });

  const deliver = (message: JsMsg) => {
    waiting.push(message);
    wake?.();
  };

  // One consume() at a time; if it ends by itself (the connection closed, the consumer deleted),
  // it is opened again until stop().
  const pause = () => sleep(Math.max(retryBackoffMs, 250));
  const fetching = (async () => {
    while (!stopping) {
      let current: ConsumerMessages;
      try {
        current = await consumer.consume({ max_messages: maxBatch, callback: deliver });
      } catch (error) {
        if (stopping || session.nc.isClosed()) return;
        report(brokerError(`cannot fetch from ${stream}/${durable}`, error));
        await pause();
        continue;
      }
      messages = current;
      // stop() may have come while consume() was starting.
      if (stopping) {
        await stopDelivery(current);
        return;
      }
      void watchNotifications(current, `${stream}/${durable}`, report);
      const ended = await current.closed();
      if (stopping) return;
      report(brokerError(`JetStream stopped delivering ${stream}/${durable}`, ended ?? undefined));
      if (session.nc.isClosed()) return;
      await pause();
    }
  })();

  /** Set by stop() once the server can send nothing more: what was delivered is handled, then the loop ends. */
  let drained = false;
  const handing = (async () => {
    for (;;) {
      if (waiting.length === 0) {
        if (drained) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
        continue;
      }
      inHand = waiting.splice(0, maxBatch);
      try {
        await processBatch(inHand);
      } catch (error) {
        // processBatch catches the handler's and codec's errors; this is a bug in the binding.
        report(error);
        nakAll(inHand);
      }
      inHand = [];
    }
  })();

  let stopped: Promise<void> | undefined;
  return {
    stats: stats satisfies ConsumerStats,
    stop() {
      stopped ??= (async () => {
        stopping = true;
        await stopDelivery(messages);
        await fetching; // a consume() that was starting is stopped too
        // What the server delivered before it stopped is handed over and acked like any batch
        // (at most one batch: max_ack_pending). Handing it back with a nak instead would be
        // quicker, but nats-server 2.9 was seen to lose track of a nak that arrived with the
        // stopped consumer's pull requests still queued: that event waited out ack_wait.
        drained = true;
        wake?.();
        await handing;
        clearInterval(keepAlive);
        connection.stop();
        await closeSession(session);
      })();
      return stopped;
    },
  };
}

/**
 * Ends a consume() without losing what the server already sent: its subscription is drained (an
 * UNSUB, then a round trip, with every message that arrives before the answer still delivered)
 * before the consume closes. Closing alone unsubscribes at once, and a message on its way in then
 * is dropped by the client while the server counts it delivered: the next consumer of the durable
 * would wait a whole ack_wait for it. ConsumerMessages does not expose its subscription in its
 * types (nats.js 3.3.1 drains it itself only as part of draining the whole connection), hence
 * the look inside, with closing alone as the fallback.
 */
async function stopDelivery(messages: ConsumerMessages | undefined): Promise<void> {
  if (messages === undefined) return;
  const sub = (messages as unknown as { sub?: { drain?: () => Promise<void>; isClosed?: () => boolean } })
    .sub;
  if (typeof sub?.drain === 'function' && sub.isClosed?.() === false)
    await sub.drain().catch(() => undefined);
  await messages.close().catch(() => undefined);
}

/** JetStream's notices about the consumer that mean trouble, reported (the client recovers by itself). */
async function watchNotifications(
  messages: ConsumerMessages,
  name: string,
  report: (error: WirekitError) => void,
): Promise<void> {
  for await (const notice of messages.status()) {
    switch (notice.type) {
      case 'heartbeats_missed':
        report(brokerError(`JetStream consumer ${name}: ${notice.count} heartbeats missed`));
        break;
      case 'consumer_not_found':
      case 'consumer_deleted':
      case 'stream_not_found':
      case 'no_responders':
        report(brokerError(`JetStream consumer ${name}: ${notice.type.replaceAll('_', ' ')}`));
        break;
      default:
    }
  }
}
