/**
 * The browser benchmark's Markdown: every range × format (median of the runs that finished, with
 * min–max), the same ranges beside the field report's table (Arrow vs JSON ratio, ours and
 * theirs), and whether the targets hold. A failed run is counted in its cell and its message
 * listed; it is never left out, so a range where JSON could not load says so.
 */
import { median } from 'wirekit-ts/lab';
import type { BrowserBench, BrowserRun, TableFormat } from './browser.js';
import { publishedRanges, targets } from './published.js';

export interface RunSummary {
  readonly months: number;
  readonly format: TableFormat;
  readonly ok: number;
  readonly failed: number;
  readonly rows: number | undefined;
  readonly renderedMs: Spread | undefined;
  readonly firstBatchMs: Spread | undefined;
  readonly rowsPerSecond: number | undefined;
  readonly bytes: number | undefined;
  readonly serverPeakHeap: number | undefined;
  readonly browserPeakHeap: number | undefined;
  /** The soonest a failed run of this cell failed (request start to the error). */
  readonly failedAfterMs: number | undefined;
}

export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

function spread(values: readonly number[]): Spread | undefined {
  if (values.length === 0) return undefined;
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

const defined = <T>(values: readonly (T | null | undefined)[]): T[] =>
  values.filter((value): value is T => value !== null && value !== undefined);

function summarize(bench: BrowserBench): RunSummary[] {
  const summaries: RunSummary[] = [];
  for (const months of bench.ranges) {
    for (const format of bench.formats) {
      const runs = bench.results.filter((r) => r.months === months && r.format === format);
      const ok = runs.filter((r) => r.ok);
      const mid = (pick: (r: BrowserRun) => number | null | undefined) => {
        const values = defined(ok.map(pick));
        return values.length === 0 ? undefined : median(values);
      };
      summaries.push({
        months,
        format,
        ok: ok.length,
        failed: runs.length - ok.length,
        rows: mid((r) => r.rows),
        renderedMs: spread(defined(ok.map((r) => r.renderedMs))),
        firstBatchMs: spread(defined(ok.map((r) => r.firstBatchMs))),
        rowsPerSecond: mid((r) => r.rowsPerSecond),
        bytes: mid((r) => r.bytes),
        // Peaks: the highest of the runs, failed ones included (a failure may be the peak).
        serverPeakHeap: maxOf(defined(runs.map((r) => r.serverPeakHeap))),
        browserPeakHeap: maxOf(defined(ok.map((r) => r.browserPeakHeap))),
        failedAfterMs: minOf(defined(runs.filter((r) => !r.ok).map((r) => r.failedAfterMs))),
      });
    }
  }
  return summaries;
}

function maxOf(values: readonly number[]): number | undefined {
  return values.length === 0 ? undefined : Math.max(...values);
}

function minOf(values: readonly number[]): number | undefined {
  return values.length === 0 ? undefined : Math.min(...values);
}

/**
 * Arrow's speed-up over JSON at a range: the ratio of the medians, or, when every JSON run failed,
 * a lower bound (JSON spent at least its soonest failure, and drew nothing), marked `bound`.
 */
function speedUp(
  arrow: RunSummary | undefined,
  json: RunSummary | undefined,
): { readonly value: number; readonly bound: boolean } | undefined {
  const fast = arrow?.renderedMs?.median;
  if (fast === undefined || json === undefined) return undefined;
  if (json.renderedMs !== undefined) return { value: json.renderedMs.median / fast, bound: false };
  return json.failedAfterMs === undefined ? undefined : { value: json.failedAfterMs / fast, bound: true };
}

const number = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (s: Spread | undefined) =>
  s === undefined ? '–' : `${number(s.median, 1)} (${number(s.min, 1)}–${number(s.max, 1)})`;
const mb = (bytes: number | undefined) => (bytes === undefined ? '–' : `${number(bytes / 1e6, 1)} MB`);
const times = (value: number | undefined) => (value === undefined ? '–' : `${number(value, 1)}×`);
const speedUpText = (s: ReturnType<typeof speedUp>) =>
  s === undefined ? '–' : `${s.bound ? '> ' : ''}${times(s.value)}`;
const label = (months: number) => (months === 12 ? '1 year' : months === 24 ? '2 years' : `${months} mo`);
const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;

/** The render time of a cell: with its spread, or the median alone; and how many runs failed. */
function rendered(s: RunSummary | undefined, withSpread: boolean): string {
  if (s === undefined) return '–';
  if (s.ok === 0) return `failed (${s.failed}/${s.failed})`;
  const time = withSpread ? ms(s.renderedMs) : number(s.renderedMs?.median ?? Number.NaN, 1);
  return s.failed === 0 ? time : `${time}, ${s.failed} failed`;
}

export function browserMarkdown(bench: BrowserBench): string {
  const summaries = summarize(bench);
  const find = (months: number, format: TableFormat) =>
    summaries.find((s) => s.months === months && s.format === format);
  const lines: string[] = [
    '## Dashboard in Chromium: request start → chart rendered',
    '',
    `${bench.runs} run(s) per cell, each in a fresh browser context; median (min–max) of the runs that ` +
      `finished. Chromium ${bench.chromium}, Node ${bench.node}, ${bench.startedAt}.`,
    '',
    row([
      'range',
      'format',
      'rows',
      'rendered ms',
      'first rows ms',
      'rows/s',
      'on the wire',
      'server heap peak',
      'browser heap peak',
    ]),
    row(['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  for (const s of summaries) {
    lines.push(
      row([
        label(s.months),
        s.format,
        s.rows === undefined ? '–' : number(s.rows),
        rendered(s, true),
        ms(s.firstBatchMs),
        s.rowsPerSecond === undefined ? '–' : number(s.rowsPerSecond),
        mb(s.bytes),
        mb(s.serverPeakHeap),
        mb(s.browserPeakHeap),
      ]),
    );
  }

  lines.push(
    '',
    '## Beside the published table',
    '',
    row([
      'range',
      'rows (published)',
      'Arrow ms',
      'JSON ms',
      'Arrow vs JSON',
      'published Arrow ms',
      'published JSON ms',
      'published ratio',
    ]),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
  );
  for (const months of bench.ranges) {
    const published = publishedRanges.find((p) => p.months === months);
    const arrow = find(months, 'arrow');
    const json = find(months, 'json');
    lines.push(
      row([
        label(months),
        `${arrow?.rows === undefined ? '–' : number(arrow.rows)} (${published === undefined ? '–' : number(published.rows)})`,
        rendered(arrow, false),
        rendered(json, false),
        speedUpText(speedUp(arrow, json)),
        published === undefined ? '–' : number(published.arrowMs, 1),
        published === undefined ? '–' : number(published.jsonMs, 1),
        published === undefined ? '–' : times(published.jsonMs / published.arrowMs),
      ]),
    );
  }

  lines.push('', '## Targets', '');
  for (const line of targetLines(bench, find)) lines.push(`- ${line}`);

  const failures = bench.results.filter((r) => !r.ok);
  if (failures.length > 0) {
    lines.push('', '## Failed runs', '');
    for (const f of failures) {
      lines.push(
        `- ${label(f.months)} ${f.format} run ${f.run}` +
          `${f.failedAfterMs === undefined ? '' : `, after ${number(f.failedAfterMs / 1000, 1)} s`}: ` +
          `${f.message}${f.code === undefined ? '' : ` (${f.code})`}`,
      );
    }
  }
  return lines.join('\n');
}

function targetLines(
  bench: BrowserBench,
  find: (months: number, format: TableFormat) => RunSummary | undefined,
): string[] {
  const verdict = (met: boolean | undefined) =>
    met === undefined ? 'not measured' : met ? 'met' : 'NOT met';
  const speedUpLine = (months: number, needed: number, what: string) => {
    const json = find(months, 'json');
    const value = speedUp(find(months, 'arrow'), json);
    const why =
      value?.bound === true
        ? ` (JSON failed in every run, the soonest after ${number((json?.failedAfterMs ?? 0) / 1000, 1)} s, and drew nothing)`
        : '';
    const met = value === undefined ? undefined : value.value >= needed;
    return `Arrow ≥ ${needed}× faster than JSON at ${what}: ${speedUpText(value)}${why}, ${verdict(met)}`;
  };
  const lines = [
    speedUpLine(24, targets.ratioAt10M, '24 months (10.5 M rows)'),
    speedUpLine(6, targets.ratioAt1M, '6 months (1 M rows)'),
  ];
  // First rows: each range's median (the slowest range counts), with the slowest single run beside.
  const firsts = bench.ranges
    .map((months) => find(months, 'arrow')?.firstBatchMs)
    .filter((spread): spread is Spread => spread !== undefined);
  const worst = firsts.length === 0 ? undefined : Math.max(...firsts.map((s) => s.median));
  const slowestRun = firsts.length === 0 ? undefined : Math.max(...firsts.map((s) => s.max));
  lines.push(
    `Arrow's first rows within ${targets.firstBatchMs} ms at every range (median of the slowest range): ` +
      `${worst === undefined ? '–' : `${number(worst, 1)} ms`}` +
      `${slowestRun === undefined ? '' : ` (slowest single run ${number(slowestRun, 1)} ms)`}, ` +
      `${verdict(worst === undefined ? undefined : worst <= targets.firstBatchMs)}`,
  );
  const rates = bench.ranges
    .filter((months) => months >= 12)
    .map((months) => find(months, 'arrow')?.rowsPerSecond)
    .filter((rate): rate is number => rate !== undefined);
  const slowest = rates.length === 0 ? undefined : Math.min(...rates);
  lines.push(
    `Arrow ≥ ${number(targets.arrowRowsPerSecond / 1e6, 1)} M rows/s from 12 months (4.5 M rows) on: ` +
      `${slowest === undefined ? '–' : `${number(slowest / 1e6, 2)} M rows/s`}, ` +
      `${verdict(slowest === undefined ? undefined : slowest >= targets.arrowRowsPerSecond)}`,
  );
  return lines;
}
