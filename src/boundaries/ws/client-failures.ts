/**
 * The errors the socket client ends with when a connection fails, each saying as much as the
 * runtime let it see: a WHATWG socket gives no more than 1006 for every failed handshake, so what
 * the server answered comes from handshake-answers.ts where the runtime shows it (Node), and the
 * message lists what it may have been where it does not (a browser).
 */
import { WirekitError } from '../../errors/index.js';
import type { HandshakeAnswer } from './handshake-answers.js';
import type { ReconnectPolicy } from './reconnect.js';

/**
 * WK_WS_PROTOCOL when the server accepted the upgrade with a protocol this client did not offer,
 * or with none; undefined for any other answer, or none seen.
 */
export function protocolFailure(
  answer: HandshakeAnswer | undefined,
  offered: readonly string[],
): WirekitError | undefined {
  if (answer?.status !== 101) return undefined;
  if (answer.protocol === undefined)
    return new WirekitError(
      'WK_WS_PROTOCOL',
      `the server accepted the upgrade but selected none of the protocols offered (${offered.join(', ')}): it serves none of this client's formats.`,
    );
  if (offered.includes(answer.protocol)) return undefined;
  return new WirekitError(
    'WK_WS_PROTOCOL',
    `the server selected "${answer.protocol}", which this client did not offer (${offered.join(', ')}).`,
  );
}

export interface ClosedTry {
  readonly url: string;
  readonly code: number;
  readonly reason: string;
  /** How long the connection was open, in ms; undefined when it never opened. */
  readonly openedFor: number | undefined;
  readonly timedOut: boolean;
  readonly answer: HandshakeAnswer | undefined;
  readonly protocols: readonly string[];
  /** Retries made in the run that ended. */
  readonly retries: number;
  readonly reconnect: ReconnectPolicy | undefined;
}

/** WK_WS_CLOSED for the last try of a client that will not try again. */
export function closeFailure(closed: ClosedTry): WirekitError {
  const { code, reason, reconnect, retries } = closed;
  const retried =
    reconnect === undefined
      ? ''
      : ` after ${retries} ${retries === 1 ? 'retry' : 'retries'} in a row (reconnect.maxAttempts ` +
        `${reconnect.maxAttempts}; a connection open less than ${reconnect.stableAfterMs} ms counts as failed)`;
  return new WirekitError(
    'WK_WS_CLOSED',
    `the connection to ${closed.url} closed (${code}${reason ? ` ${reason}` : ''})${retried}${whyItClosed(closed)}.`,
  );
}

function whyItClosed({ openedFor, timedOut, answer, protocols }: ClosedTry): string {
  if (openedFor !== undefined || timedOut) return '';
  if (answer === undefined)
    // Nothing seen: Node saw no HTTP answer at all, or a browser, which shows none.
    return `, before a connection opened: the server is down or refused the upgrade, or it selected none of the protocols offered (${protocols.join(', ')})`;
  if (answer.status !== 101) return `: the server refused the upgrade with HTTP ${answer.status}`;
  return `: the server accepted the upgrade (${answer.protocol}) but the handshake failed`;
}
