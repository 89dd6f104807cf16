/**
 * What work costs the event loop, measured one way for every benchmark that asks (compression,
 * cache): not wall time, which for async work is mostly waiting, but the time the loop could run
 * nothing else.
 *
 * - `loopTimeOf(call)`: one operation, alone. A synchronous call blocks the loop for its duration.
 *   A call that returns a promise blocks it for the part until the promise is returned, plus the
 *   loop's active time between that and the continuation (libuv's completion callback, the promise
 *   jobs, a socket's reply parsing), read from `performance.eventLoopUtilization()`; with nothing
 *   else in flight, that active time is this operation's.
 * - `inSlice(body)`: the loop thread's CPU time over a slice of operations (thread-time.ts), per
 *   operation: what they cost the loop without the time other work on the machine held its CPU,
 *   GC pauses, completion callbacks and socket system calls included.
 * - `underLoad(...)`: a steady stream of operations from concurrent callers, with the p99 of a
 *   `monitorEventLoopDelay` histogram (1 ms resolution, so ~1.1 ms is an idle loop), the loop's
 *   utilization, the loop thread's CPU time and the throughput. Utilization ÷ throughput is the
 *   loop's busy time per operation, and CPU time ÷ operations the same without the waits for a CPU;
 *   both include everything the operation set off (a client library's own work too).
 */
import { type IntervalHistogram, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { threadTime, threadTimeSince } from './thread-time.js';

export const nowNs = (): bigint => process.hrtime.bigint();
export const usSince = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e3;
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Runs `body` until `ms` have passed and it ran at least `min` times; resolves the number of runs. */
export async function repeat(
  ms: number,
  min: number,
  body: (i: number) => void | Promise<void>,
): Promise<number> {
  const end = performance.now() + ms;
  let i = 0;
  for (; i < min || performance.now() < end; i++) await body(i);
  return i;
}

/**
 * Lets the JIT and the libraries settle before anything is timed: `ms` but at least 40 ms (less
 * left the MessagePack decoder several times slower than warm, ~1,000 items in), and `runs` runs
 * (3 unless given: a large generated encoder reached its optimized speed only ~1,000 calls in).
 */
export function warmUp(ms: number, body: (i: number) => void | Promise<void>, runs = 3): Promise<number> {
  return repeat(Math.max(40, ms), runs, body);
}

/** One operation's cost to the loop, in µs; `blockedUs` is what a concurrent request would wait. */
export interface LoopTime<T> {
  readonly value: T;
  /** Until the call returned (for a sync call, all of it). */
  readonly syncPartUs: number;
  /** The loop's active time from the returned promise to its result; 0 for a sync call. */
  readonly callbackUs: number;
  readonly blockedUs: number;
  /** From the call to the result, waiting included. */
  readonly wallUs: number;
}

export async function loopTimeOf<T>(call: () => T | Promise<T>): Promise<LoopTime<T>> {
  const start = nowNs();
  const result = call();
  const syncPartUs = usSince(start);
  if (!(result instanceof Promise)) {
    return { value: result, syncPartUs, callbackUs: 0, blockedUs: syncPartUs, wallUs: syncPartUs };
  }
  const elu = performance.eventLoopUtilization();
  const value = await result;
  const callbackUs = performance.eventLoopUtilization(elu).active * 1e3;
  return { value, syncPartUs, callbackUs, blockedUs: syncPartUs + callbackUs, wallUs: usSince(start) };
}

/** A slice of operations: how many, and the loop thread's time over them (see thread-time.ts). */
export interface Slice {
  readonly ops: number;
  readonly cpuUs: number;
  readonly waitedUs: number;
  readonly wallUs: number;
}

/** Runs `body`, which resolves how many operations it ran, and measures the loop thread around it. */
export async function inSlice(body: () => Promise<number>): Promise<Slice> {
  const wall = nowNs();
  const start = threadTime();
  const ops = await body();
  const { cpuUs, waitedUs } = threadTimeSince(start);
  return { ops, cpuUs, waitedUs, wallUs: usSince(wall) };
}

/** The loop thread's CPU µs per operation over slices. */
export function cpuPerOp(slices: readonly Slice[]): number {
  const ops = slices.reduce((sum, s) => sum + s.ops, 0);
  return slices.reduce((sum, s) => sum + s.cpuUs, 0) / ops;
}

/** The share of wall time the loop thread waited for a CPU over slices (NaN where unknown). */
export function waitedShare(slices: readonly Slice[]): number {
  return slices.reduce((sum, s) => sum + s.waitedUs, 0) / slices.reduce((sum, s) => sum + s.wallUs, 0);
}

/** What a stream of operations did to the event loop. */
export interface StreamResult {
  /** p99 of the event-loop delay histogram (ms); includes the 1 ms timer interval itself. */
  readonly loopP99Ms: number;
  readonly loopMaxMs: number;
  /** Share of wall time the loop was not idle (event-loop utilization, 0-1). */
  readonly utilization: number;
  /** The loop thread's CPU µs over the stream, and the µs it waited for a CPU (thread-time.ts). */
  readonly cpuUs: number;
  readonly waitedUs: number;
  readonly ops: number;
  readonly seconds: number;
  readonly opsPerSec: number;
  /** Megabytes (10^6 bytes) per second of what the operations reported having moved. */
  readonly mbPerSec: number;
}

/** The loop's busy µs per operation in a stream: its utilization ÷ its throughput. */
export function busyUsPerOp(stream: StreamResult): number {
  return (stream.utilization * 1e6) / stream.opsPerSec;
}

/** A 1 ms delay histogram. Pass one to several streams to have it cover them all (see `combined`). */
export function loopDelayHistogram(): IntervalHistogram {
  return monitorEventLoopDelay({ resolution: 1 });
}

/**
 * A new histogram for one stream, and `into` (which several streams share) enabled beside it, once
 * their timers have started ticking; `stop` disables both.
 */
async function watchLoop(into: IntervalHistogram | undefined) {
  const histogram = loopDelayHistogram();
  // Let the histogram's timer start ticking before the load does.
  await sleep(2);
  histogram.enable();
  into?.enable();
  return {
    histogram,
    stop() {
      histogram.disable();
      into?.disable();
    },
  };
}

/**
 * Streams run in slices (one subject's, then another's, and again, so that a burst of load from
 * elsewhere on the machine falls on both) as one: operations and time summed, utilization weighted
 * by time, and the loop delay from the histogram they all recorded into. A histogram enabled again
 * records the time it was disabled as one late tick (checked: two re-enables, two samples of the
 * gaps' length), so the p99 is read at the rank it has without those samples, which lie above it.
 */
export function combined(slices: readonly StreamResult[], histogram: IntervalHistogram): StreamResult {
  const seconds = slices.reduce((sum, s) => sum + s.seconds, 0);
  const ops = slices.reduce((sum, s) => sum + s.ops, 0);
  const gaps = slices.length - 1;
  const count = histogram.count;
  return {
    loopP99Ms: histogram.percentile(count > gaps ? (99 * (count - gaps)) / count : 99) / 1e6,
    loopMaxMs: Math.max(...slices.map((s) => s.loopMaxMs)),
    utilization: slices.reduce((sum, s) => sum + s.utilization * s.seconds, 0) / seconds,
    cpuUs: slices.reduce((sum, s) => sum + s.cpuUs, 0),
    waitedUs: slices.reduce((sum, s) => sum + s.waitedUs, 0),
    ops,
    seconds,
    opsPerSec: ops / seconds,
    mbPerSec: slices.reduce((sum, s) => sum + s.mbPerSec * s.seconds, 0) / seconds,
  };
}

/**
 * What both streams measure around their work, started together and read together: the loop's
 * delay histogram, its utilization, the loop thread's CPU time and the wall time.
 */
async function streamMeter(into?: IntervalHistogram) {
  const { histogram, stop } = await watchLoop(into);
  const elu = performance.eventLoopUtilization();
  const thread = threadTime();
  const start = performance.now();
  return {
    start,
    finish(ops: number, bytes: number): StreamResult {
      const seconds = (performance.now() - start) / 1e3;
      const utilization = performance.eventLoopUtilization(elu).utilization;
      const { cpuUs, waitedUs } = threadTimeSince(thread);
      stop();
      return {
        loopP99Ms: histogram.percentile(99) / 1e6,
        loopMaxMs: histogram.max / 1e6,
        utilization,
        cpuUs,
        waitedUs,
        ops,
        seconds,
        opsPerSec: ops / seconds,
        mbPerSec: bytes / seconds / 1e6,
      };
    },
  };
}

/**
 * Runs `lanes` callers of `op` concurrently (each starting its next operation when its last one
 * finished; `yieldBetween` adds a `setImmediate` turn, so that back-to-back sync work lets timers
 * run) until `ms` have passed and `min` operations completed. `op` resolves the bytes it moved.
 */
export async function underLoad(
  ms: number,
  min: number,
  lanes: number,
  op: (i: number) => Promise<number> | number,
  yieldBetween: boolean,
  into?: IntervalHistogram,
): Promise<StreamResult> {
  const meter = await streamMeter(into);
  const { start } = meter;
  const end = start + ms;
  let ops = 0;
  let bytes = 0;
  let next = 0;
  const lane = async () => {
    while (ops < min || performance.now() < end) {
      // Not `bytes += await …`: that reads `bytes` before the await, losing the other lanes' sums.
      const done = await op(next++);
      bytes += done;
      ops++;
      if (yieldBetween) await yieldToLoop();
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return meter.finish(ops, bytes);
}

/** A stream at a fixed arrival rate, and what it did to the loop. */
export interface SteadyResult extends StreamResult {
  /** Operations per second asked for; `opsPerSec` is what completed. */
  readonly targetPerSec: number;
  /** Arrivals not started because `maxInFlight` were already running: the rate was not sustained. */
  readonly shed: number;
}

/**
 * Starts operations at a fixed rate (`perSec`, spread over 1 ms ticks, catching up after a late
 * tick) for `ms`, whatever the earlier ones are doing, as requests arrive at a service; at most
 * `maxInFlight` run at once and arrivals beyond are counted as shed rather than queued without
 * bound. The loop's p99 delay here is what a request arriving at that rate waits for the loop.
 */
export async function atSteadyRate(
  ms: number,
  perSec: number,
  maxInFlight: number,
  op: (i: number) => Promise<number> | number,
  into?: IntervalHistogram,
): Promise<SteadyResult> {
  const meter = await streamMeter(into);
  const { start } = meter;
  let started = 0;
  let ops = 0;
  let bytes = 0;
  let shed = 0;
  let inFlight = 0;
  let failure: unknown;
  const launch = () => {
    const i = started++;
    inFlight++;
    Promise.resolve()
      .then(() => op(i))
      .then(
        (done) => {
          bytes += done;
          ops++;
          inFlight--;
        },
        (error: unknown) => {
          failure ??= error;
          inFlight--;
        },
      );
  };
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const elapsed = performance.now() - start;
      const due = Math.floor((Math.min(elapsed, ms) * perSec) / 1e3);
      while (started + shed < due) {
        if (inFlight >= maxInFlight) shed++;
        else launch();
      }
      if (elapsed >= ms) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  while (inFlight > 0) await sleep(1);
  const measured = meter.finish(ops, bytes);
  if (failure !== undefined) throw failure;
  return { ...measured, targetPerSec: perSec, shed };
}
