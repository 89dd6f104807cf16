/**
 * "Linear, not quadratic" as a test can say it on a shared, loaded machine: sixteen runs at a small
 * size against one run at 16× that size, so that linear work takes about as long on both sides and
 * work in the square of the size 16× as long on the large one. The least wall time of seven turns
 * at each must be under 6× apart.
 *
 * Both sides take the same time for linear work, and that keeps a load of many times the core count
 * (15-20 on 2 cores) out of the ratio: the earlier measure, one small run against one 8× larger,
 * let the small run fit in a time slice while the large one was preempted, and a linear parse came
 * out at 24-48× under such a load, past its bound of 24× (8× linear, 64× quadratic). Equal lengths
 * are preempted alike and allocate alike for the garbage collector; what is left (a large input's
 * objects outliving the young generation: up to 4.7× measured at load 18) stays under 6×, which is
 * still half what the square of the size gives (12× measured with fixed costs, 16× without).
 *
 * Wall time on this thread rather than process.cpuUsage, which also counts V8's concurrent GC
 * threads: their work for a large input lands in the runs after it. Linux's per-thread time
 * (/proc/thread-self/schedstat) moves only at scheduler ticks, 4 ms here: too coarse for runs of a
 * few milliseconds. Taking turns and the least of seven keeps a stall out of both sides, and a
 * ratio over the bound is measured again, up to three times: work in the square of the size stays
 * near 16× however often it is measured. WIREKIT_LINEAR_COST_LOG=1 prints each measure.
 */
import { expect } from 'vitest';

/** How much larger the large input is, and how many small runs stand against one large run. */
const scale = 16;
/** Linear work measures about 1× (up to 4.7× seen at load 18), work in the square of the size 12-16×. */
const bound = 6;

/** The least wall time, in ms, of `turns` measures each of `scale` × `run(small)` and one `run(large)`. */
function leastTimes<T>(run: (input: T) => void, small: T, large: T, turns = 7): [number, number] {
  let [bestSmall, bestLarge] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  for (let turn = 0; turn < turns; turn++) {
    let start = performance.now();
    for (let i = 0; i < scale; i++) run(small);
    bestSmall = Math.min(bestSmall, performance.now() - start);
    start = performance.now();
    run(large);
    bestLarge = Math.min(bestLarge, performance.now() - start);
  }
  return [bestSmall, bestLarge];
}

/**
 * Asserts that `run(make(n))` costs time linear in n, measured at `n / 2` and `8n` after a warm-up
 * (as much work on each side as 8 runs at n against one at 8n).
 */
export function expectLinearCost<T>(run: (input: T) => void, make: (n: number) => T, n: number): void {
  run(make(Math.max(1, Math.floor(n / 4))));
  const half = Math.max(1, Math.round(n / 2));
  const [smallInput, largeInput] = [make(half), make(scale * half)];
  let ratio = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3 && ratio >= bound; attempt++) {
    const [small, large] = leastTimes(run, smallInput, largeInput);
    // A floor for the small side, so that a sub-millisecond measure's timer granularity cannot fail it.
    ratio = Math.min(ratio, large / Math.max(small, 0.5));
    if (process.env.WIREKIT_LINEAR_COST_LOG)
      console.log(`linear cost: ${large.toFixed(2)} / ${small.toFixed(2)} ms = ${ratio.toFixed(2)}×`);
  }
  expect(ratio).toBeLessThan(bound);
}
