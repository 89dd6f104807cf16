/** The circuit breaker's states, on a clock the test moves. */
import { describe, expect, test } from 'vitest';
import { CircuitBreaker } from '../../../src/boundaries/cache/breaker.js';

function breakerAt(options: { failures: number; cooldownMs: number }) {
  let now = 0;
  const breaker = new CircuitBreaker(options, () => now);
  return { breaker, advance: (ms: number) => (now += ms) };
}

describe('CircuitBreaker', () => {
  test('opens after the failures in a row, not after failures a success interrupts', () => {
    const { breaker } = breakerAt({ failures: 3, cooldownMs: 100 });
    breaker.failed();
    breaker.failed();
    breaker.succeeded();
    breaker.failed();
    breaker.failed();
    expect(breaker.state).toBe('closed');
    breaker.failed();
    expect(breaker.state).toBe('open');
    expect(breaker.allow()).toBe(false);
  });

  test('after the cool-down one probe goes through; its success closes the breaker', () => {
    const { breaker, advance } = breakerAt({ failures: 1, cooldownMs: 100 });
    breaker.failed();
    advance(99);
    expect(breaker.allow()).toBe(false);
    advance(1);
    expect(breaker.allow()).toBe(true);
    expect(breaker.state).toBe('half-open');
    // Only one probe at a time.
    expect(breaker.allow()).toBe(false);
    breaker.succeeded();
    expect(breaker.state).toBe('closed');
    expect(breaker.allow()).toBe(true);
  });

  test("a probe's failure opens it again for a full cool-down", () => {
    const { breaker, advance } = breakerAt({ failures: 5, cooldownMs: 100 });
    for (let i = 0; i < 5; i++) breaker.failed();
    advance(100);
    expect(breaker.allow()).toBe(true);
    breaker.failed();
    expect(breaker.state).toBe('open');
    advance(50);
    expect(breaker.allow()).toBe(false);
    advance(50);
    expect(breaker.allow()).toBe(true);
  });

  test.each([[{ failures: 0 }], [{ failures: Number.NaN }], [{ cooldownMs: -1 }]])(
    'refuses %j',
    (options) => {
      expect(() => new CircuitBreaker(options)).toThrow(
        expect.objectContaining({ code: 'WK_OPTIONS_INVALID' }),
      );
    },
  );
});
