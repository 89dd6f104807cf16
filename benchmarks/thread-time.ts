/**
 * The CPU time of the calling thread — the event loop's — and the time it spent runnable but
 * waiting for a CPU. On a machine whose cores other work shares, wall time around a call includes
 * the time the OS ran something else; the thread's CPU time does not, so it is what the same call
 * costs the loop on a machine of its own. Linux reports both per thread in
 * /proc/thread-self/schedstat (nanoseconds: on a CPU, waiting on a run queue, time slices), at
 * ~20 µs a read: read it around a slice of operations, not around each.
 *
 * Elsewhere, `process.cpuUsage()` stands in: the whole process, so libuv's pool threads (where
 * async compression runs) and V8's helper threads count too, and the wait is unknown (NaN).
 */
import { readFileSync } from 'node:fs';

export interface ThreadTime {
  /** µs on a CPU. */
  readonly cpuUs: number;
  /** µs runnable but waiting for a CPU; NaN where the OS does not tell. */
  readonly waitedUs: number;
}

const schedstat = '/proc/thread-self/schedstat';

function fromSchedstat(): ThreadTime | undefined {
  try {
    const [onCpu, waiting] = readFileSync(schedstat, 'latin1').split(' ');
    const cpuUs = Number(onCpu) / 1e3;
    const waitedUs = Number(waiting) / 1e3;
    return Number.isFinite(cpuUs) && Number.isFinite(waitedUs) ? { cpuUs, waitedUs } : undefined;
  } catch {
    return undefined;
  }
}

/** 'thread' where the loop thread's own CPU time is known, 'process' where the process's stands in. */
export const threadClock: 'thread' | 'process' = fromSchedstat() === undefined ? 'process' : 'thread';

export function threadTime(): ThreadTime {
  if (threadClock === 'thread') {
    const time = fromSchedstat();
    if (time !== undefined) return time;
  }
  const { user, system } = process.cpuUsage();
  return { cpuUs: user + system, waitedUs: Number.NaN };
}

/** The thread time spent since `start`. */
export function threadTimeSince(start: ThreadTime): ThreadTime {
  const now = threadTime();
  return { cpuUs: now.cpuUs - start.cpuUs, waitedUs: now.waitedUs - start.waitedUs };
}
