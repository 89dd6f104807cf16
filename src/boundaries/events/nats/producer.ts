/**
 * The JetStream producer: every event is a JetStream publish whose ack says the stream stored it,
 * and `send` resolves only once every event of the batch has its ack.
 *
 * Retries stay exactly-once on the stream: each event carries a msgID made of a per-producer id and
 * a sequence number, so a publish whose ack was lost (a timeout, a server restart) and is sent again
 * is recognised by the stream's de-duplication window and stored once. A publish in flight when the
 * connection comes back from a reconnect is sent again at once instead of waiting out its timeout
 * (a request written while the server was away may never have reached it). Retried events can land
 * after later events of the same batch; nothing is lost or stored twice.
 */
import { randomUUID } from 'node:crypto';
import { WirekitError } from '../../../errors/index.js';
import type { EventCodec } from '../event-codec.js';
import type { EventProducer, OutgoingEvent } from '../transport.js';
import {
  brokerError,
  closeSession,
  isRetriable,
  type NatsSession,
  openSession,
  type ReconnectWatch,
  watchReconnects,
} from './connection.js';
import type { NatsConnectionSource } from './connection-source.js';
import { checkHeaders, writeHeaders } from './headers.js';
import { checkSource, countOption, numberOption, sleep } from './options.js';
import { ensureStream, requireStream, uncapturedSubject } from './stream.js';
import type { NatsStreamSetup } from './stream-setup.js';

export interface NatsProducerOptions<T> extends NatsConnectionSource {
  /** The subject every event is published on. */
  readonly subject: string;
  /**
   * The stream expected to store the events (checked on every publish); needed by ensureStream.
   * Named without ensureStream, it must exist: the first send fails with WK_EVENT_STREAM_MISSING.
   */
  readonly stream?: string;
  /** Create `stream` (file storage, capturing `subject`) when the server has none of that name. */
  readonly ensureStream?: boolean | NatsStreamSetup;
  readonly codec: EventCodec<T>;
  /** How long to wait for one publish's ack before trying again (default 5 s). */
  readonly ackTimeoutMs?: number;
  /**
   * Further attempts after a failed publish (default 5); then WK_EVENT_BROKER_UNAVAILABLE. Keep
   * all attempts within the stream's duplicate window (JetStream's default 2 min), or a late retry
   * of a publish that was stored after all is stored twice.
   */
  readonly retries?: number;
  /** Wait before a retry: doubles from this (default 100 ms) up to 2 s. */
  readonly retryBackoffMs?: number;
  /** Publishes awaiting their ack at once within a batch (default 256). */
  readonly maxInFlight?: number;
  /** The msgID prefix (default a random UUID per producer); two producers must never share one. */
  readonly producerId?: string;
}

interface Outgoing {
  readonly data: Uint8Array;
  readonly msgID: string;
  readonly event: OutgoingEvent<unknown>;
}

interface ProducerSession extends NatsSession {
  readonly reconnects: ReconnectWatch;
}

const owner = 'natsProducer';
const reconnected = Symbol('reconnected');
const maxRetryWaitMs = 2_000;

export function natsProducer<T>(options: NatsProducerOptions<T>): EventProducer<T> {
  const { subject, codec } = options;
  if (typeof subject !== 'string' || subject === '' || /[\s*>]/.test(subject)) {
    throw new TypeError(
      `natsProducer: subject must be a literal NATS subject, not ${JSON.stringify(subject)}`,
    );
  }
  if (options.ensureStream && options.stream === undefined) {
    throw new TypeError('natsProducer: ensureStream needs the stream name (stream)');
  }
  checkSource(owner, options);
  const ackTimeoutMs = numberOption(owner, 'ackTimeoutMs', options.ackTimeoutMs, 5_000, 1);
  const retries = countOption(owner, 'retries', options.retries, 5, 0);
  const retryBackoffMs = numberOption(owner, 'retryBackoffMs', options.retryBackoffMs, 100, 0);
  const maxInFlight = countOption(owner, 'maxInFlight', options.maxInFlight, 256, 1);
  const producerId = options.producerId ?? randomUUID();
  let sequence = 0;
  let opening: Promise<ProducerSession> | undefined;
  let closed = false;
  const sending = new Set<Promise<unknown>>();

  const session = (): Promise<ProducerSession> => {
    opening ??= open().catch((error: unknown) => {
      opening = undefined; // the next send tries to connect again
      throw error;
    });
    return opening;
  };

  const open = async (): Promise<ProducerSession> => {
    const base = await openSession(options, `wirekit producer ${subject}`);
    try {
      if (options.ensureStream && options.stream !== undefined) {
        const setup = options.ensureStream === true ? {} : options.ensureStream;
        await ensureStream(base, options.stream, setup, [subject]);
      } else if (options.stream !== undefined) {
        await requireStream(base, options.stream, [subject]);
      }
    } catch (error) {
      await closeSession(base);
      throw error;
    }
    return { ...base, reconnects: watchReconnects(base.nc) };
  };

  const publishOne = async (s: ProducerSession, message: Outgoing): Promise<void> => {
    let lastError: unknown;
    for (let attempt = 0; attempt <= retries; attempt++) {
      const headers = s.headers();
      writeHeaders(headers, message.event.key, message.event.headers);
      const publishing = s.js.publish(subject, message.data, {
        msgID: message.msgID,
        headers,
        timeout: ackTimeoutMs,
        ...(options.stream === undefined ? {} : { expect: { streamName: options.stream } }),
      });
      // The losing side of the race still settles later; its outcome no longer matters.
      publishing.catch(() => undefined);
      let forget: () => void = () => undefined;
      const interrupted = new Promise<typeof reconnected>((resolve) => {
        forget = s.reconnects.once(() => resolve(reconnected));
      });
      try {
        const outcome = await Promise.race([publishing, interrupted]).finally(forget);
        if (outcome !== reconnected) return;
        lastError = new Error('the connection was re-established while the publish awaited its ack');
        continue; // sent again at once: the msgID keeps it stored once
      } catch (error) {
        if (!isRetriable(error)) {
          throw brokerError(`NATS refused a publish to ${subject}`, error);
        }
        if (options.stream === undefined && noResponder(error)) {
          const missing = await uncapturedSubject(s, subject).catch(() => undefined);
          if (missing !== undefined) throw missing;
        }
        lastError = error;
      }
      if (attempt < retries) await sleep(Math.min(retryBackoffMs * 2 ** attempt, maxRetryWaitMs));
    }
    throw brokerError(
      `NATS did not acknowledge a publish to ${subject} in ${retries + 1} attempts`,
      lastError,
    );
  };

  const publishAll = async (messages: readonly Outgoing[]): Promise<void> => {
    const s = await session();
    let next = 0;
    let failure: unknown;
    const lane = async () => {
      while (failure === undefined && next < messages.length) {
        const message = messages[next++] as Outgoing;
        await publishOne(s, message).catch((error: unknown) => {
          failure ??= error;
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(maxInFlight, messages.length) }, lane));
    if (failure !== undefined) throw failure;
  };

  return {
    async send(events) {
      if (closed) throw brokerError(`the producer of ${subject} is closed`);
      const list: readonly OutgoingEvent<T>[] = Array.isArray(events) ? events : [events as OutgoingEvent<T>];
      // Everything is checked and encoded before the first publish: a bad event fails the batch whole.
      list.forEach((event, index) => {
        try {
          checkHeaders(event.headers);
        } catch (error) {
          throw list.length === 1 || !(error instanceof WirekitError)
            ? error
            : new WirekitError(error.code, `events[${index}].${error.message}`, {
                path: [index, ...(error.path ?? [])],
                format: error.format,
              });
        }
      });
      const frames = await Promise.all(list.map((event) => codec.encode(event.value)));
      const messages = list.map((event, index) => ({
        data: frames[index] as Uint8Array,
        msgID: `${producerId}:${++sequence}`,
        event,
      }));
      const sent = publishAll(messages);
      sending.add(sent);
      try {
        await sent;
      } finally {
        sending.delete(sent);
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([...sending]);
      const open = await opening?.catch(() => undefined);
      if (open === undefined) return;
      open.reconnects.stop();
      await closeSession(open);
    },
  };
}

/** What the client throws when nothing answered a publish: no stream captures its subject (or JetStream is away). */
function noResponder(error: unknown): boolean {
  return error instanceof Error && (error.name === 'NoResponders' || error.name === 'JetStreamNotEnabled');
}
