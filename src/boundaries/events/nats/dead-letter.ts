/**
 * Where a NATS consumer sends a poison event: a function of the caller's, or a subject it publishes
 * the event's bytes to through JetStream (so the subject must be one a stream captures: a dead
 * letter is kept, not fired into the void), with the error and the event's origin in headers.
 * What counts as poison, and the headers a dead letter carries, are the bindings' shared rules
 * (../dead-letter.ts); NATS adds only that a header value holds one line.
 */
import type { JsMsg } from '@nats-io/jetstream';
import type { WirekitError } from '../../../errors/index.js';
import { deadLetterHeaders } from '../dead-letter.js';
import type { DeadLetter, DeadLetterTarget } from '../transport.js';
import type { NatsSession } from './connection.js';
import { headerSafe, readHeaders } from './headers.js';

export type DeadLetterWriter = (message: JsMsg, error: WirekitError) => Promise<void>;

const publishTimeoutMs = 5_000;

/** The dead-letter step for one consumer; without a target it only lets the event be skipped. */
export function deadLetterTo(
  session: NatsSession,
  target: DeadLetterTarget | undefined,
  origin: { readonly stream: string; readonly durable: string },
): DeadLetterWriter {
  if (target === undefined) return async () => undefined;
  const letterOf = (message: JsMsg, error: WirekitError): DeadLetter => {
    const { key, headers } = readHeaders(message.headers);
    return {
      bytes: message.data.slice(),
      key,
      headers,
      topic: message.subject,
      partition: 0,
      offset: String(message.seq),
      error,
    };
  };
  if (typeof target === 'function') return (message, error) => target(letterOf(message, error));
  return async (message, error) => {
    const headers = session.headers();
    // The event's own headers (its key among them) travel along; JetStream's Nats-* do not.
    for (const name of message.headers?.keys() ?? []) {
      if (!/^nats-/i.test(name))
        for (const value of message.headers?.values(name) ?? []) headers.append(name, value);
    }
    for (const [name, value] of Object.entries(deadLetterHeaders(letterOf(message, error)))) {
      headers.set(name, headerSafe(value));
    }
    await session.js.publish(target, message.data, {
      headers,
      timeout: publishTimeoutMs,
      // Dead-lettered again after a lost ack, it is still stored once.
      msgID: `wirekit-dead-letter:${origin.stream}:${origin.durable}:${message.seq}`,
    });
  };
}
