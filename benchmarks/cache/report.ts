/**
 * A cache benchmark run, as main.ts saves it with `--json`, and its printed report: the machine
 * line, the subjects' tables, the target, and the threshold part. `--summarize FILE` prints the
 * report of a saved run again (with other threshold criteria if asked), without measuring anything.
 */
import { median } from 'wirekit-ts/lab';
import { yardstick } from './subjects.js';
import {
  type SubjectSummary,
  summarizeSubject,
  summarizeThreshold,
  type ThresholdSummary,
} from './summary.js';
import {
  type FailedSubject,
  redisTable,
  subjectsTable,
  targetLines,
  thresholdDetailTable,
  thresholdSummaryTable,
} from './tables.js';
import type { ThresholdResult } from './threshold.js';
import type { CaseResult } from './worker.js';

export interface CacheRun {
  readonly command: string;
  readonly date: string;
  readonly node: string;
  readonly redis: { readonly version: string | undefined; readonly port: number };
  readonly machine: {
    readonly cpus: number;
    readonly model: string | undefined;
    readonly threadPool: number;
    readonly loadAtStart: readonly number[];
    readonly loadAtEnd: readonly number[];
  };
  readonly options: {
    readonly part: 'subjects' | 'threshold' | 'all';
    readonly processes: number;
    /** 'products', or the --data file measured. */
    readonly dataset: string;
    readonly subjects: readonly string[];
    readonly callers: readonly number[];
    readonly clientCallers: number;
    readonly rate: number;
    readonly budgetMs: number;
    readonly streamMs: number;
    readonly steadyMs: number;
    readonly sizes: readonly number[];
    readonly minSaving: number;
  };
  readonly seconds: number;
  readonly failures: readonly FailedSubject[];
  readonly results: readonly CaseResult[];
  readonly thresholdResults: readonly ThresholdResult[];
}

export interface CacheReport {
  readonly text: string;
  readonly summaries: readonly SubjectSummary[];
  readonly thresholds: readonly ThresholdSummary[];
}

function percent(share: number): string {
  return `${Math.round(share * 100)} %`;
}

function summarizeAll(run: CacheRun, minSaving: number) {
  const summaries: SubjectSummary[] = [];
  for (const subject of run.options.subjects) {
    const runs = run.results.filter((r) => r.spec.subject === subject);
    if (runs.length > 0) summaries.push(summarizeSubject(runs, run.options.clientCallers));
  }
  // Grouped by case, in the order they ran.
  const cases = new Map<string, ThresholdResult[]>();
  for (const result of run.thresholdResults) {
    const key = `${result.spec.source} ${result.spec.format} ${result.spec.compression}`;
    cases.set(key, [...(cases.get(key) ?? []), result]);
  }
  const thresholds = [...cases.values()].map((runs) => summarizeThreshold(runs, { minSaving }));
  return { summaries, thresholds };
}

function machineLine(run: CacheRun): string {
  const { machine, options } = run;
  const idle = run.results.map((r) => r.idleLoopP99Ms);
  // Where the OS does not say (thread-time.ts), the share is NaN and the sentence is left out.
  const waited = run.results.map((r) => r.waitedShare).filter(Number.isFinite);
  const load = (l: readonly number[]) => l.map((x) => x.toFixed(2)).join(' ');
  const measured =
    options.part === 'threshold'
      ? `${Math.round(Math.max(10, options.budgetMs / 2))} ms of compression and as much of codec timing per size, ` +
        `Redis client streams of ${Math.round(Math.max(30, options.streamMs / 3))} ms`
      : `${options.budgetMs} ms per per-value measurement, ${options.streamMs} ms per Redis stream, steady load ` +
        `${options.rate.toLocaleString('en')} ops/s for ${options.steadyMs} ms`;
  return (
    `node ${run.node}, ${machine.cpus} × ${machine.model ?? 'cpu'}, libuv pool ${machine.threadPool} threads, ` +
    `redis-server ${run.redis.version ?? '?'} on loopback, ioredis 6, ${run.date}; ${options.processes} ` +
    `process(es) per case, ${measured}; ${run.seconds.toFixed(0)} s in all. Load average ` +
    `${load(machine.loadAtStart)} at start, ${load(machine.loadAtEnd)} at end.` +
    (idle.length === 0
      ? ''
      : ` Idle loop p99 (the histogram's floor): ${median(idle).toFixed(2)} ms ` +
        `(${Math.min(...idle).toFixed(2)}-${Math.max(...idle).toFixed(2)}).`) +
    (waited.length === 0
      ? ''
      : ` The loop thread waited for a CPU held by other work ${percent(median(waited))} of the time ` +
        `(${percent(Math.min(...waited))}-${percent(Math.max(...waited))} by process): every time here is ` +
        'that much slower than on a machine of its own, the ratios much less.')
  );
}

function subjectsPart(run: CacheRun, summaries: readonly SubjectSummary[]): string[] {
  const { options } = run;
  const lines = ['', `Measured: ${run.results[0]?.measured ?? 'nothing (every subject failed)'}.`, ''];
  lines.push(subjectsTable(summaries, run.failures), '');
  const losses = summaries.flatMap((row) => (row.loss === undefined ? [] : [`${row.label}: ${row.loss}`]));
  if (losses.length > 0) lines.push(`† gives back not quite what it was given (${losses.join('; ')}).`, '');
  lines.push(redisTable(summaries, options.callers, options.clientCallers, options.rate), '');
  lines.push(...targetLines(summaries, { loop: 0.5, bytes: 0.8 }, options.dataset), '');
  lines.push(
    'Per value, alone: the loop time of the whole encode (value → stored bytes) and decode (stored bytes → ' +
      'value), medians; in brackets, where the subject compresses, its stages each timed alone (serialize + ' +
      'compress, decompress + deserialize). Async steps count the call until its promise returns plus the ' +
      "loop's active time until the result (not the pool thread's work). Loop per set + get: encode + decode. " +
      `With the Redis client: the loop's busy time per SET (encode, SET) plus per GET (GET, decode) at ` +
      `${options.clientCallers} concurrent callers, from its utilization ÷ throughput, the client's own work ` +
      `included. Ratios are taken in each process against the ${yardstick} pipeline timed in it, then the ` +
      "median; the Redis table's absolute figures come from each subject's own processes, which ran at " +
      "different moments of the machine's load: compare rows by the ratio column.",
  );
  return lines;
}

function thresholdPart(run: CacheRun, thresholds: readonly ThresholdSummary[], minSaving: number): string[] {
  const lines = [
    '',
    `Compression threshold (criteria: saves ≥ ${percent(minSaving)} of the bytes, and a larger share of the ` +
      'bytes than it adds to the loop time of a cache round trip)',
    '',
    thresholdSummaryTable(thresholds),
  ];
  const groups = [...new Set(thresholds.map((row) => `${row.source} × ${row.format}`))];
  for (const group of groups) {
    const rows = thresholds.filter((row) => `${row.source} × ${row.format}` === group);
    const client = rows
      .map(
        (row) =>
          `${row.compression}: ${row.clientFixedUs.toFixed(0)} µs + ${row.clientUsPerKiB.toFixed(2)} µs/KiB`,
      )
      .join(', ');
    lines.push(
      '',
      `${group}: the Redis client's line (SET + GET, ${run.options.clientCallers} callers) ${client}`,
      '',
      thresholdDetailTable(rows),
    );
  }
  lines.push(
    '',
    "c+d: compress + decompress, loop µs per round trip (medians; async: blocked time). Codec e+d: the format's " +
      "own encode + decode of the batch. Client: the loop's busy µs per SET + GET of the plain value, from a line " +
      'fitted through every size (plain and compressed), and what the compressed value saves it. Loop added: ' +
      "the cheaper mode's c+d less the client's saving, ÷ (codec + client). (a) pays from: the smallest size " +
      'at which compression pays and from which on it pays at every larger size measured but at most one; ' +
      '(b) async from: the same for async c+d below sync c+d.',
  );
  return lines;
}

export function cacheReport(run: CacheRun, minSaving = run.options.minSaving): CacheReport {
  const { summaries, thresholds } = summarizeAll(run, minSaving);
  const lines = [`command: ${run.command}`, '', machineLine(run)];
  if (run.options.part !== 'threshold') lines.push(...subjectsPart(run, summaries));
  if (run.options.part !== 'subjects') lines.push(...thresholdPart(run, thresholds, minSaving));
  return { text: `${lines.join('\n')}\n`, summaries, thresholds };
}
