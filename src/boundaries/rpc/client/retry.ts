/**
 * Retries, for the calls that may be made twice: a method marked `idempotency` (NO_SIDE_EFFECTS or
 * IDEMPOTENT) whose call failed with UNAVAILABLE, which is also what a refused or dropped
 * connection is. A method without the mark is never retried, whatever the error: the server may
 * have acted on the first call. Backoff grows exponentially to a cap, with full jitter (a random
 * wait between zero and the backoff, as gRPC's retry design does) so that clients failed by one
 * outage do not come back in step; no retry starts past the call's deadline.
 */
import { WirekitError } from '../../../errors/index.js';
import type { MethodSchema } from '../../../schema/index.js';
import { cancelledError, deadlineError, isUnavailable } from './rpc-error.js';

export interface RetryOptions {
  /** Attempts in all, the first included (default 4; 1 turns retries off). */
  readonly maxAttempts?: number;
  /** The backoff before the first retry, in ms (default 100). */
  readonly initialBackoffMs?: number;
  /** The backoff's cap, in ms (default 5,000). */
  readonly maxBackoffMs?: number;
  /** How much the backoff grows per retry (default 2). */
  readonly backoffMultiplier?: number;
}

/** The retry policy resolved, and checked once when the client is made. */
export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  readonly backoffMultiplier: number;
  /** A number in [0, 1): Math.random, or a fixed one in tests. */
  readonly random: () => number;
}

export function retryPolicyOf(options: RetryOptions | false | undefined, random = Math.random): RetryPolicy {
  const given = options === false ? { maxAttempts: 1 } : (options ?? {});
  const policy = {
    maxAttempts: given.maxAttempts ?? 4,
    initialBackoffMs: given.initialBackoffMs ?? 100,
    maxBackoffMs: given.maxBackoffMs ?? 5_000,
    backoffMultiplier: given.backoffMultiplier ?? 2,
    random,
  };
  const bad = (what: string) => new WirekitError('WK_OPTIONS_INVALID', `retry: ${what}.`);
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1)
    throw bad('maxAttempts must be an integer ≥ 1');
  if (!(policy.initialBackoffMs >= 0) || !(policy.maxBackoffMs >= policy.initialBackoffMs)) {
    throw bad('initialBackoffMs must be ≥ 0 and maxBackoffMs ≥ initialBackoffMs');
  }
  if (!(policy.backoffMultiplier >= 1)) throw bad('backoffMultiplier must be ≥ 1');
  return policy;
}

/** Whether a method's calls may be retried: it is marked as safe to repeat. */
export function isRetryable(method: MethodSchema): boolean {
  return method.idempotency === 'NO_SIDE_EFFECTS' || method.idempotency === 'IDEMPOTENT';
}

/** The wait before retry number `retry` (1 for the first), jittered. @internal exported for its tests. */
export function backoffMs(policy: RetryPolicy, retry: number): number {
  const ceiling = Math.min(
    policy.maxBackoffMs,
    policy.initialBackoffMs * policy.backoffMultiplier ** (retry - 1),
  );
  return policy.random() * ceiling;
}

/** What one attempt is given: the time left before the deadline (undefined: none). */
export interface Attempt {
  readonly number: number;
  readonly timeoutMs: number | undefined;
}

/**
 * Runs `attempt` until it succeeds, fails with an error no retry may cure, or runs out of attempts
 * or time. `deadline` is the call's, in `Date.now()` terms; the last error is thrown as it is.
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  retryable: boolean,
  deadline: number | undefined,
  signal: AbortSignal | undefined,
  attempt: (attempt: Attempt) => Promise<T>,
): Promise<T> {
  const attempts = retryable ? policy.maxAttempts : 1;
  for (let number = 1; ; number++) {
    if (signal?.aborted === true) throw cancelledError(signal.reason);
    const left = deadline === undefined ? undefined : deadline - Date.now();
    if (left !== undefined && left <= 0) throw deadlineError();
    try {
      return await attempt({ number, timeoutMs: left });
    } catch (error) {
      if (number >= attempts || !isUnavailable(error)) throw error;
      const wait = backoffMs(policy, number);
      if (deadline !== undefined && Date.now() + wait >= deadline) throw error;
      await sleep(wait, signal);
    }
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
