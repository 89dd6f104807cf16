/** Summaries of timing samples: medians and upper percentiles, never means (one GC pause skews a mean). */
export interface Timing {
  /** Milliseconds per operation. */
  readonly median: number;
  readonly p75: number;
  readonly p99: number;
  readonly samples: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function summarize(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: median(sorted),
    p75: percentile(sorted, 75),
    p99: percentile(sorted, 99),
    samples: sorted.length,
  };
}

/** Wall time of `body` in milliseconds. */
export function timeMs(body: () => unknown): number {
  const start = process.hrtime.bigint();
  body();
  return Number(process.hrtime.bigint() - start) / 1e6;
}
