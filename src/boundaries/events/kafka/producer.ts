/**
 * The Kafka producer of the event boundary (see transport.ts for what it promises).
 *
 *   const orders = kafkaProducer({ brokers: ['kafka:9092'], topic: 'orders', codec });
 *   await orders.send([{ key: order.id, value: order }]);
 *
 * A send encodes every event before it publishes any, so a value the schema refuses (or a registry
 * that cannot register the writer schema) rejects the send with the codec's error and nothing is
 * written. The batch then goes out as one kafkajs send with acks=-1 (every in-sync replica has
 * it), through an idempotent producer: when kafkajs resends after a lost acknowledgement, the
 * broker drops the copy instead of storing the event twice.
 *
 * Retries are kafkajs's own, at its pace (doubling waits of at most 2 s), as many as fit in
 * `sendTimeoutMs`. kafkajs ends a send early when it cannot reconnect within the client's
 * connection retries (a broker restart takes longer than that), so a send whose failure kafkajs
 * calls retriable is sent again until the deadline; and a send gives up at the deadline whatever
 * kafkajs is doing. Either way it rejects with WK_EVENT_BROKER_UNAVAILABLE and the kafkajs error
 * as cause. A send that timed out may still land
 * (kafkajs cannot be cancelled): sending it again is at-least-once, and a consumer may see it twice.
 *
 * kafkajs connects on the first send (this call stays synchronous, and kafkajs is imported only
 * then); a failed connection is tried again by the next send.
 *
 * On the Confluent client (`client: 'confluent'`) the same holds with librdkafka doing the
 * retrying: it resends by itself until `sendTimeoutMs` (its `message.timeout.ms`), and its Java
 * partitioner is the default. libraries.ts says what else differs.
 */
import type { Producer } from 'kafkajs';
import type { EventCodec } from '../event-codec.js';
import type { EventProducer, OutgoingEvent } from '../transport.js';
import type { KafkaConnectionOptions } from './client-options.js';
import { brokerUnavailable, retriableAtRoot, retriesWithin } from './connection.js';
import { checkClient, type KafkaLibrary, kafkaLibrary } from './libraries.js';
import { outgoingMessage } from './records.js';

export interface KafkaProducerOptions<T> extends KafkaConnectionOptions {
  readonly topic: string;
  readonly codec: EventCodec<T>;
  /** Longest a send may take, retries included, before it rejects (default 30 s). */
  readonly sendTimeoutMs?: number;
  /**
   * Deduplicate kafkajs's resends on the broker (default true). Off for brokers that refuse
   * idempotent producers (no IDEMPOTENT_WRITE permission).
   */
  readonly idempotent?: boolean;
}

const retryWaitMs = { initial: 100, max: 2000 };

export function kafkaProducer<T>(options: KafkaProducerOptions<T>): EventProducer<T> {
  const { topic, codec } = options;
  const sendTimeoutMs = options.sendTimeoutMs ?? 30_000;
  if (!(sendTimeoutMs > 0))
    throw new RangeError(`kafkaProducer: sendTimeoutMs must be > 0, got ${sendTimeoutMs}`);
  const idempotent = options.idempotent ?? true;
  const client = checkClient(options.client);

  let library: KafkaLibrary | undefined;
  let connecting: Promise<Producer> | undefined;
  /** The producer once its connect resolved. */
  let ready: Producer | undefined;
  let closing: Promise<void> | undefined;
  const inFlight = new Set<Promise<unknown>>();

  const connected = (): Promise<Producer> => {
    connecting ??= (async () => {
      library = await kafkaLibrary(client);
      // The made client's connection retries and the producer's fit in one send's time, so
      // kafkajs has given up by the deadline and close() does not wait on it much longer.
      const retry = {
        initialRetryTime: retryWaitMs.initial,
        maxRetryTime: retryWaitMs.max,
        multiplier: 2,
        factor: 0.2,
        retries: retriesWithin(sendTimeoutMs, retryWaitMs.initial, retryWaitMs.max),
      };
      const producer = library.producer(library.client(options, retry), { idempotent, retry, sendTimeoutMs });
      try {
        await producer.connect();
      } catch (error) {
        await producer.disconnect().catch(() => undefined);
        throw error;
      }
      ready = producer;
      return producer;
    })();
    const attempt = connecting;
    attempt.catch(() => {
      if (connecting === attempt) connecting = undefined;
    });
    return attempt;
  };

  /**
   * The connected producer, or a rejection at the send's deadline: the Confluent client's connect
   * waits for the cluster's metadata up to 30 s whatever the send's own time.
   */
  const connectedBy = async (deadline: number): Promise<Producer> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error('not connected within the send’s time')),
        Math.max(0, deadline - performance.now()),
      );
    });
    try {
      return await Promise.race([connected(), late]);
    } finally {
      clearTimeout(timer);
    }
  };

  const publish = async (events: readonly OutgoingEvent<T>[], deadline: number): Promise<void> => {
    const values = await Promise.all(events.map((event) => codec.encode(event.value)));
    const messages = events.map((event, i) => outgoingMessage(event, values[i] as Uint8Array));
    let wait = retryWaitMs.initial;
    for (;;) {
      try {
        const producer = await connectedBy(deadline);
        await (library as KafkaLibrary).send(producer, topic, messages);
        return;
      } catch (error) {
        // kafkajs gives a send up when reconnecting inside its retry fails (a broker restarting
        // takes longer than a connection's retries): while the cause is one kafkajs calls
        // retriable and time is left, send again. The idempotent producer makes a resend of a
        // batch that did land harmless.
        if (!retriableAtRoot(error) || performance.now() + wait >= deadline || closing !== undefined) {
          throw brokerUnavailable(`Kafka did not acknowledge ${messages.length} event(s) on ${topic}`, error);
        }
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait = Math.min(wait * 2, retryWaitMs.max);
      }
    }
  };

  return {
    async send(given) {
      if (closing !== undefined) throw brokerUnavailable(`Kafka producer of ${topic} is closed`, undefined);
      const events: readonly OutgoingEvent<T>[] = Array.isArray(given) ? given : [given as OutgoingEvent<T>];
      if (events.length === 0) return;
      const sending = publish(events, performance.now() + sendTimeoutMs);
      inFlight.add(sending);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              brokerUnavailable(
                `Kafka did not acknowledge events on ${topic} within ${sendTimeoutMs} ms`,
                undefined,
              ),
            ),
          sendTimeoutMs,
        );
      });
      try {
        await Promise.race([sending, deadline]);
      } finally {
        clearTimeout(timer);
        // A send past its deadline may still be retrying: close() waits for it to settle.
        sending.then(
          () => inFlight.delete(sending),
          () => inFlight.delete(sending),
        );
      }
    },

    close() {
      closing ??= (async () => {
        await Promise.allSettled([...inFlight]);
        if (ready !== undefined) await ready.disconnect();
        // A connect still under way is closed once it settles, without holding close() up.
        else connecting?.then((producer) => producer.disconnect()).catch(() => undefined);
      })();
      return closing;
    },
  };
}
