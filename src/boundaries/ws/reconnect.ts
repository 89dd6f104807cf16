/**
 * When the socket client tries again: exponential backoff with jitter, a bound on tries that fail
 * in a row, and what counts as failing. A connection that opens and closes again within
 * `stableAfterMs` counts as a failed try, like one that never opened: otherwise a server that
 * accepts every upgrade and drops it at once would reset the backoff on every open and have the
 * client reconnect as fast as its first delay allows, for ever.
 */
import { WirekitError } from '../../errors/index.js';
import { positiveOption } from './frames.js';

export interface ReconnectOptions {
  /** The wait before the first retry, doubled on each failed one (default 250 ms). */
  readonly initialDelayMs?: number;
  /** The longest wait between tries (default 30 s). */
  readonly maxDelayMs?: number;
  /**
   * Retries in a row that fail before the client gives up and ends its messages (default:
   * never). A retry fails when it does not open, or when its connection closes within `stableAfterMs`.
   */
  readonly maxAttempts?: number;
  /**
   * How long a connection must stay open to count as a success, which starts the backoff and the
   * attempts afresh when it drops (default 5 s).
   */
  readonly stableAfterMs?: number;
}

export interface ReconnectPolicy {
  readonly maxAttempts: number;
  readonly stableAfterMs: number;
  /** The wait before retry number `retry + 1` of a run, or undefined when the run is over. */
  delayBefore(retry: number): number | undefined;
}

export function reconnectPolicy(options: ReconnectOptions): ReconnectPolicy {
  const initial = positiveOption('reconnect.initialDelayMs', options.initialDelayMs ?? 250);
  const max = positiveOption('reconnect.maxDelayMs', options.maxDelayMs ?? 30_000);
  const stableAfterMs = positiveOption('reconnect.stableAfterMs', options.stableAfterMs ?? 5_000);
  const maxAttempts = options.maxAttempts ?? Number.POSITIVE_INFINITY;
  if (!(maxAttempts >= 0) || (Number.isFinite(maxAttempts) && !Number.isSafeInteger(maxAttempts)))
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `reconnect.maxAttempts must be an integer of at least 0, got ${maxAttempts}.`,
    );
  return {
    maxAttempts,
    stableAfterMs,
    delayBefore(retry) {
      if (retry >= maxAttempts) return undefined;
      // Each wait is between half and all of the doubled delay, so clients cut off together spread out.
      const ceiling = Math.min(max, initial * 2 ** Math.min(retry, 30));
      return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
    },
  };
}
