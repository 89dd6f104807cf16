/**
 * A circuit breaker and a timeout around the store: what keeps a cache from making requests wait on
 * a Redis that is down or slow. After `failures` failures in a row the breaker opens and the cache
 * stops asking the store (a get is a miss at once, getOrSet goes straight to its loader); after
 * `cooldownMs` it lets one operation through, and that probe's success closes it again, so the cache
 * comes back by itself when the store does, with no restart and no call from the user.
 */
import { WirekitError } from '../../errors/index.js';

export interface BreakerOptions {
  /** Failures in a row (errors or timeouts) that open the breaker. Default 5. */
  readonly failures?: number;
  /** How long it stays open before a probe is let through, in ms. Default 2,000. */
  readonly cooldownMs?: number;
}

export type BreakerState = 'closed' | 'open' | 'half-open';

export class CircuitBreaker {
  private readonly threshold: number;
  private readonly cooldownMs: number;
  private failuresInARow = 0;
  private openedAt = 0;
  private probing = false;
  private current: BreakerState = 'closed';

  constructor(
    options: BreakerOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.threshold = positive('breaker.failures', options.failures ?? 5);
    this.cooldownMs = positive('breaker.cooldownMs', options.cooldownMs ?? 2_000, true);
  }

  get state(): BreakerState {
    return this.current;
  }

  /** Whether an operation may go to the store now; a true answer in half-open state is the probe. */
  allow(): boolean {
    if (this.current === 'closed') return true;
    if (this.current === 'open') {
      if (this.now() - this.openedAt < this.cooldownMs) return false;
      this.current = 'half-open';
    }
    if (this.probing) return false;
    this.probing = true;
    return true;
  }

  succeeded(): void {
    this.failuresInARow = 0;
    this.probing = false;
    this.current = 'closed';
  }

  failed(): void {
    this.probing = false;
    this.failuresInARow++;
    if (this.current === 'half-open' || this.failuresInARow >= this.threshold) {
      this.current = 'open';
      this.openedAt = this.now();
    }
  }
}

function positive(name: string, value: number, zeroAllowed = false): number {
  if (!Number.isFinite(value) || value < (zeroAllowed ? 0 : 1)) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `${name} must be a ${zeroAllowed ? 'non-negative' : 'positive'} number, got ${value}.`,
    );
  }
  return value;
}
