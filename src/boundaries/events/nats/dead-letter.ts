/**
 * Where a NATS consumer sends a poison event: a function of the caller's, or a subject it publishes
 * the event's bytes to through JetStream (so the subject must be one a stream captures: a dead
 * letter is kept, not fired into the void), with the error and the event's origin in headers.
 *
 * Poison is decided by the error alone: any WirekitError from the codec says the bytes cannot be
 * read (framing, decoding, limits, an unknown schema id, validation), except
 * WK_REGISTRY_UNAVAILABLE, which says nothing about the event. Anything that is no WirekitError is
 * not known to be the event's fault, so it is retried too rather than thrown away.
 */
import type { JsMsg } from '@nats-io/jetstream';
import { WirekitError } from '../../../errors/index.js';
import type { DeadLetterTarget } from '../transport.js';
import type { NatsSession } from './connection.js';
import { headerSafe, readHeaders } from './headers.js';

export function isPoison(error: unknown): error is WirekitError {
  return error instanceof WirekitError && error.code !== 'WK_REGISTRY_UNAVAILABLE';
}

export type DeadLetterWriter = (message: JsMsg, error: WirekitError) => Promise<void>;

const publishTimeoutMs = 5_000;

/** The dead-letter step for one consumer; without a target it only lets the event be skipped. */
export function deadLetterTo(
  session: NatsSession,
  target: DeadLetterTarget | undefined,
  origin: { readonly stream: string; readonly durable: string },
): DeadLetterWriter {
  if (target === undefined) return async () => undefined;
  if (typeof target === 'function') {
    return (message, error) => {
      const { key, headers } = readHeaders(message.headers);
      return target({
        bytes: message.data.slice(),
        key,
        headers,
        topic: message.subject,
        partition: 0,
        offset: String(message.seq),
        error,
      });
    };
  }
  return async (message, error) => {
    const headers = session.headers();
    // The event's own headers (its key among them) travel along; JetStream's Nats-* do not.
    for (const name of message.headers?.keys() ?? []) {
      if (!/^nats-/i.test(name))
        for (const value of message.headers?.values(name) ?? []) headers.append(name, value);
    }
    headers.set('wirekit-error-code', error.code);
    headers.set('wirekit-error-message', headerSafe(error.message));
    headers.set('wirekit-source-topic', message.subject);
    headers.set('wirekit-source-partition', '0');
    headers.set('wirekit-source-offset', String(message.seq));
    await session.js.publish(target, message.data, {
      headers,
      timeout: publishTimeoutMs,
      // Dead-lettered again after a lost ack, it is still stored once.
      msgID: `wirekit-dead-letter:${origin.stream}:${origin.durable}:${message.seq}`,
    });
  };
}
