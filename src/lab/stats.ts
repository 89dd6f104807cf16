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

/** Medians in milliseconds per call: a subject's encode and decode, and native JSON's beside them. */
export interface AgainstJson {
  readonly encode: number;
  readonly decode: number;
  readonly jsonEncode: number;
  readonly jsonDecode: number;
}

/**
 * Times the four calls in turn, JSON's first, round after round, so that a machine that drifts
 * (another process, a clock change) touches the subject and its yardstick alike; the first 5
 * rounds warm the JIT up and are not counted.
 */
export function timeAgainstJson(
  rounds: number,
  calls: { readonly [K in keyof AgainstJson]: () => unknown },
): AgainstJson {
  const samples = {
    encode: [] as number[],
    decode: [] as number[],
    jsonEncode: [] as number[],
    jsonDecode: [] as number[],
  };
  for (let round = 0; round < rounds + 5; round++) {
    const jsonEncode = timeMs(calls.jsonEncode);
    const jsonDecode = timeMs(calls.jsonDecode);
    const encode = timeMs(calls.encode);
    const decode = timeMs(calls.decode);
    if (round < 5) continue;
    samples.jsonEncode.push(jsonEncode);
    samples.jsonDecode.push(jsonDecode);
    samples.encode.push(encode);
    samples.decode.push(decode);
  }
  return {
    encode: median(samples.encode),
    decode: median(samples.decode),
    jsonEncode: median(samples.jsonEncode),
    jsonDecode: median(samples.jsonDecode),
  };
}
