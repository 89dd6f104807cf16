/**
 * What makes an event poison, and what a dead-lettered event carries: shared by the broker
 * bindings so Kafka and NATS sort failures the same way and their dead-letter streams look alike.
 *
 * An event is poison when reading it fails for a reason that reading it again cannot change: its
 * bytes do not frame, decode, resolve or validate, or its writer schema id is unknown to the
 * registry. That is any WirekitError but the one that says the registry could not be reached
 * (WK_REGISTRY_UNAVAILABLE): a registry outage heals, so those events wait and are retried. An error
 * that is no WirekitError at all breaks the codec's contract (it rejects with WirekitErrors only);
 * it is most likely a fault of the machine or the code around it, not of the event, so it is
 * retried too rather than throwing an event away on a guess.
 */
import { type ErrorCode, isWirekitError, type WirekitError } from '../../errors/index.js';
import type { DeadLetter } from './transport.js';

/** Failures of reading an event that are the world's, not the event's: retried, never dead-lettered. */
const transientCodes: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['WK_REGISTRY_UNAVAILABLE']);

/** True when `error`, from decoding an event, means the event can never be read. */
export function isPoison(error: unknown): error is WirekitError {
  return isWirekitError(error) && !transientCodes.has(error.code);
}

/**
 * The header names a dead-lettered event carries beside its own headers.
 * @internal exported for the tests that read them off a dead-letter topic.
 */
export const deadLetterHeaderNames = {
  code: 'wirekit-error-code',
  message: 'wirekit-error-message',
  topic: 'wirekit-source-topic',
  partition: 'wirekit-source-partition',
  offset: 'wirekit-source-offset',
} as const;

/** Long enough for any message wirekit writes; a header is no place for a megabyte of text. */
const maxMessageChars = 1000;

/** The headers saying why and where from, to set over the event's own headers. */
export function deadLetterHeaders(dead: DeadLetter): Record<string, string> {
  const message = dead.error.message;
  return {
    [deadLetterHeaderNames.code]: dead.error.code,
    [deadLetterHeaderNames.message]:
      message.length > maxMessageChars ? `${message.slice(0, maxMessageChars)}…` : message,
    [deadLetterHeaderNames.topic]: dead.topic,
    [deadLetterHeaderNames.partition]: String(dead.partition),
    [deadLetterHeaderNames.offset]: dead.offset,
  };
}
