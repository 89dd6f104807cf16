/** Option checks shared by the NATS producer and consumer: a bad number fails at construction, loudly. */

/** `value` (or `fallback`) when it is a finite number ≥ `min`; a RangeError naming the option otherwise. */
export function numberOption(
  owner: string,
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
) {
  const chosen = value ?? fallback;
  if (typeof chosen !== 'number' || !Number.isFinite(chosen) || chosen < min) {
    throw new RangeError(`${owner}: ${name} must be a number ≥ ${min}, got ${String(value)}`);
  }
  return chosen;
}

/** Like numberOption, for counts (whole numbers). */
export function countOption(
  owner: string,
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
) {
  const chosen = numberOption(owner, name, value, fallback, min);
  if (!Number.isInteger(chosen))
    throw new RangeError(`${owner}: ${name} must be a whole number, got ${chosen}`);
  return chosen;
}

/** One connection source, not two. */
export function checkSource(owner: string, source: { connection?: unknown; servers?: unknown }): void {
  if (source.connection !== undefined && source.servers !== undefined) {
    throw new TypeError(`${owner}: give one of connection and servers`);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
