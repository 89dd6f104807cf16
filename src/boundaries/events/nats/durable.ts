/**
 * The durable pull consumer a natsConsumer reads through: created on first start, and on later
 * starts brought to the settings this binding depends on (explicit acks; `max_ack_pending` and
 * `ack_wait` from the consumer's options) while its position, the acks, stays the server's.
 */
import type { NatsSession } from './connection.js';
import { brokerError } from './connection.js';

export interface DurableSettings {
  readonly ackWaitMs: number;
  /** How many delivered events may await their ack at once: the backpressure bound. */
  readonly maxAckPending: number;
  readonly filterSubject: string | undefined;
  readonly deliverPolicy: 'all' | 'new';
}

const msToNanos = (ms: number) => Math.round(ms * 1_000_000);

export async function ensureDurable(
  session: NatsSession,
  stream: string,
  durable: string,
  settings: DurableSettings,
): Promise<void> {
  const { jsm, jetstream } = session;
  const wanted = {
    ack_wait: msToNanos(settings.ackWaitMs),
    max_ack_pending: settings.maxAckPending,
    ...(settings.filterSubject === undefined ? {} : { filter_subject: settings.filterSubject }),
  };
  let info = await lookUp(session, stream, durable);
  if (info === undefined) {
    try {
      await jsm.consumers.add(stream, {
        durable_name: durable,
        ack_policy: jetstream.AckPolicy.Explicit,
        deliver_policy:
          settings.deliverPolicy === 'new' ? jetstream.DeliverPolicy.New : jetstream.DeliverPolicy.All,
        ...wanted,
      });
      return;
    } catch (error) {
      // Another instance of this consumer may have created it meanwhile; otherwise the add's error stands.
      info = await lookUp(session, stream, durable).catch(() => undefined);
      if (info === undefined)
        throw brokerError(`cannot create the durable consumer ${stream}/${durable}`, error);
    }
  }
  const config = info.config;
  if (config.ack_policy !== jetstream.AckPolicy.Explicit) {
    throw brokerError(
      `the durable consumer ${stream}/${durable} acks '${config.ack_policy}', not explicitly`,
    );
  }
  if (config.deliver_subject) {
    throw brokerError(
      `the durable consumer ${stream}/${durable} is a push consumer; a pull consumer is needed`,
    );
  }
  const changed =
    config.ack_wait !== wanted.ack_wait ||
    config.max_ack_pending !== wanted.max_ack_pending ||
    (wanted.filter_subject !== undefined && config.filter_subject !== wanted.filter_subject);
  if (!changed) return;
  try {
    await jsm.consumers.update(stream, durable, wanted);
  } catch (error) {
    throw brokerError(`cannot update the durable consumer ${stream}/${durable}`, error);
  }
}

async function lookUp({ jsm }: NatsSession, stream: string, durable: string) {
  try {
    return await jsm.consumers.info(stream, durable);
  } catch (error) {
    if (error instanceof Error && error.name === 'ConsumerNotFoundError') return undefined;
    throw brokerError(`cannot look up the durable consumer ${stream}/${durable}`, error);
  }
}
