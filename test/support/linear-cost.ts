/**
 * "Linear, not quadratic" as a test can say it on a shared, loaded machine: the least wall time of
 * several runs at a small size and at 8× that size, taken in turns, must be under 24× apart, where
 * linear work gives about 8× and work in the square of the size 64×.
 *
 * Wall time on this thread rather than process.cpuUsage, which also counts V8's concurrent GC
 * threads: their work for a large input lands in the runs after it, and made a linear parse look
 * 6-12× slower at 4× the size. Taking turns and the least of seven keeps a loaded machine's stalls
 * out of both sides. Under a load of many times the core count, even the least of seven large runs
 * is preempted while the small ones fit in a time slice, so a ratio over the bound is measured again,
 * up to three times: work in the square of the size stays near 64× however often it is measured.
 */
import { expect } from 'vitest';

/** The least wall time, in ms, of `turns` runs each of `run(small)` and `run(large)`, in turns. */
function leastTimes<T>(run: (input: T) => void, small: T, large: T, turns = 7): [number, number] {
  let [bestSmall, bestLarge] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  for (let turn = 0; turn < turns; turn++) {
    let start = performance.now();
    run(small);
    bestSmall = Math.min(bestSmall, performance.now() - start);
    start = performance.now();
    run(large);
    bestLarge = Math.min(bestLarge, performance.now() - start);
  }
  return [bestSmall, bestLarge];
}

/** Asserts that `run(make(n))` costs time linear in n, measured at `n` and `8n` after a warm-up. */
export function expectLinearCost<T>(run: (input: T) => void, make: (n: number) => T, n: number): void {
  run(make(Math.max(1, Math.floor(n / 4))));
  const [smallInput, largeInput] = [make(n), make(8 * n)];
  let ratio = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3 && ratio >= 24; attempt++) {
    const [small, large] = leastTimes(run, smallInput, largeInput);
    // A floor for the small side, so that a sub-millisecond run's timer granularity cannot fail it.
    ratio = Math.min(ratio, large / Math.max(small, 0.5));
  }
  expect(ratio).toBeLessThan(24);
}
