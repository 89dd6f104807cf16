/**
 * What the readout measures besides time: the JavaScript heap during a load and the bytes the
 * reply took on the wire.
 *
 * The heap is Chromium's `performance.memory.usedJSHeapSize` (absent in other browsers: null).
 * Chromium rounds it unless started with --enable-precise-memory-info, which the benchmark does.
 * It is sampled on a timer and at each redraw and batch; a long synchronous step (JSON.parse of the
 * whole body) runs no timer, so the loaders' own samples right after such a step count most.
 */

interface MemoryInfo {
  readonly usedJSHeapSize: number;
}

function usedHeap(): number | undefined {
  return (performance as unknown as { memory?: MemoryInfo }).memory?.usedJSHeapSize;
}

export class HeapSampler {
  private peak = 0;
  private last = 0;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(everyMs = 50) {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  sample(): void {
    this.last = performance.now();
    const used = usedHeap();
    if (used !== undefined && used > this.peak) this.peak = used;
  }

  /** Samples unless the last sample is under `ms` old: reading the heap costs about 0.1 ms. */
  sampleEvery(ms: number): void {
    if (performance.now() - this.last >= ms) this.sample();
  }

  /** The peak seen, or null where the browser does not tell. */
  stop(): number | null {
    clearInterval(this.timer);
    this.sample();
    return usedHeap() === undefined ? null : this.peak;
  }
}

export interface WireSize {
  /** The body as sent (compressed when it was), from Resource Timing. */
  readonly bytes: number;
  /** Headers and body as transferred. */
  readonly transferBytes: number;
  /** The body after any content coding was undone. */
  readonly decodedBytes: number;
}

/**
 * The Resource Timing entry of the last request to `pathname` (any query) on this origin. The entry
 * is added once the body has been read, which may be a little after the last chunk reached the
 * page: waits up to `waitMs`.
 */
export async function wireSize(pathname: string, waitMs = 2000): Promise<WireSize | null> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const entry = entries.findLast((e) => {
      const url = new URL(e.name);
      return url.origin === location.origin && url.pathname === pathname;
    });
    if (entry !== undefined && entry.responseEnd > 0) {
      return {
        bytes: entry.encodedBodySize,
        transferBytes: entry.transferSize,
        decodedBytes: entry.decodedBodySize,
      };
    }
    if (performance.now() > deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
