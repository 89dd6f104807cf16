/**
 * The retry loop on its own: which errors and methods it retries, how long it waits, and that it
 * never waits past the deadline (the interop tests show the same against a real server).
 */
import { Code, ConnectError } from '@connectrpc/connect';
import { describe, expect, test } from 'vitest';
import { backoffMs, retryPolicyOf, withRetries } from '../../../../src/boundaries/rpc/client/retry.js';
import { RpcError } from '../../../../src/boundaries/rpc/rpc-error.js';

const unavailable = () => new ConnectError('down', Code.Unavailable);

async function failing(times: number, error: () => unknown, log: number[]) {
  return async ({ number }: { number: number }) => {
    log.push(number);
    if (number <= times) throw error();
    return 'ok';
  };
}

describe('withRetries', () => {
  const policy = retryPolicyOf({ initialBackoffMs: 0, maxBackoffMs: 0 });

  test('retries UNAVAILABLE of a retryable method up to maxAttempts', async () => {
    const log: number[] = [];
    expect(await withRetries(policy, true, undefined, undefined, await failing(3, unavailable, log))).toBe(
      'ok',
    );
    expect(log).toEqual([1, 2, 3, 4]);
    const capped: number[] = [];
    await expect(
      withRetries(policy, true, undefined, undefined, await failing(9, unavailable, capped)),
    ).rejects.toThrow('down');
    expect(capped).toEqual([1, 2, 3, 4]);
  });

  test('never retries a method that is not retryable, nor another status', async () => {
    const once: number[] = [];
    await expect(
      withRetries(policy, false, undefined, undefined, await failing(1, unavailable, once)),
    ).rejects.toThrow();
    expect(once).toEqual([1]);
    const internal: number[] = [];
    const internalError = () => new ConnectError('bug', Code.Internal);
    await expect(
      withRetries(policy, true, undefined, undefined, await failing(1, internalError, internal)),
    ).rejects.toThrow('bug');
    expect(internal).toEqual([1]);
  });

  test('no retry whose backoff would end past the deadline', async () => {
    const slow = retryPolicyOf({ initialBackoffMs: 60_000, maxBackoffMs: 60_000 }, () => 0.5);
    const log: number[] = [];
    await expect(
      withRetries(slow, true, Date.now() + 1_000, undefined, await failing(9, unavailable, log)),
    ).rejects.toThrow('down');
    expect(log).toEqual([1]);
  });

  test('a deadline already past and an aborted signal fail before any attempt', async () => {
    const log: number[] = [];
    const attempt = await failing(0, unavailable, log);
    await expect(withRetries(policy, true, Date.now() - 1, undefined, attempt)).rejects.toMatchObject({
      status: 'DEADLINE_EXCEEDED',
    });
    await expect(withRetries(policy, true, undefined, AbortSignal.abort(), attempt)).rejects.toBeInstanceOf(
      RpcError,
    );
    expect(log).toEqual([]);
  });
});

describe('backoff', () => {
  test('grows by the multiplier to the cap, scaled by the jitter', () => {
    const top = retryPolicyOf(
      { initialBackoffMs: 100, maxBackoffMs: 1_000, backoffMultiplier: 2 },
      () => 0.999_999,
    );
    expect([1, 2, 3, 4, 5, 6].map((retry) => Math.round(backoffMs(top, retry)))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
    const half = retryPolicyOf({ initialBackoffMs: 100 }, () => 0.5);
    expect(backoffMs(half, 2)).toBe(100);
  });

  test('bad options are WK_OPTIONS_INVALID', () => {
    expect(() => retryPolicyOf({ maxAttempts: 0 })).toThrow(
      expect.objectContaining({ code: 'WK_OPTIONS_INVALID' }),
    );
    expect(() => retryPolicyOf({ initialBackoffMs: 10, maxBackoffMs: 5 })).toThrow(
      expect.objectContaining({ code: 'WK_OPTIONS_INVALID' }),
    );
    expect(retryPolicyOf(false).maxAttempts).toBe(1);
  });
});
