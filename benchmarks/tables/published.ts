/**
 * The field report this benchmark reproduces: a one-year IoT chart served over a JSON API against
 * the same query as an Arrow IPC stream, request start to chart rendered, in milliseconds. Its
 * ranges end at the table's last instant; the row counts are what the demo table holds for them.
 */
export interface PublishedRange {
  readonly months: number;
  readonly rows: number;
  readonly arrowMs: number;
  readonly jsonMs: number;
}

export const publishedRanges: readonly PublishedRange[] = [
  { months: 1, rows: 81_675, arrowMs: 111.7, jsonMs: 337.8 },
  { months: 2, rows: 163_350, arrowMs: 157.9, jsonMs: 880.5 },
  { months: 6, rows: 980_100, arrowMs: 539.2, jsonMs: 3_605.1 },
  { months: 12, rows: 4_492_125, arrowMs: 1_847.5, jsonMs: 17_139.6 },
  { months: 24, rows: 10_454_400, arrowMs: 4_516.9, jsonMs: 47_713.4 },
];

/**
 * What the reproduction must show, from the report's own figures: Arrow at least 10× faster than
 * JSON end to end at 10 M rows and 6.7× at 1 M, the first rows within 268 ms at every size, and
 * Arrow at 3.5 M rows/s or more from 4.5 M rows on.
 */
export const targets = {
  /** Arrow's speed-up over JSON at 24 months (10.5 M rows). */
  ratioAt10M: 10,
  /** Arrow's speed-up over JSON at 6 months (1 M rows). */
  ratioAt1M: 6.7,
  /** First rows usable, every format that streams, every range. */
  firstBatchMs: 268,
  /** Arrow's rows per second, request start to chart rendered, from 12 months (4.5 M rows) on. */
  arrowRowsPerSecond: 3_500_000,
} as const;
