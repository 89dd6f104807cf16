/**
 * bench:events `--mode lag`'s report: a Markdown table (per event shape and format: the peak the
 * producer reached, the largest lag in events and in seconds, the time to catch up, medians over
 * the repetitions) and an HTML page with one lag-over-time chart per event shape, a line per format, drawn by the lab's
 * chart code (`linesHtml` from wirekit-ts/lab, the page `wirekit bench --html` writes).
 */
import { type LineChart, linesHtml, median } from 'wirekit-ts/lab';
import type { LagResult } from './lag.js';

export interface LagRun {
  readonly command: string;
  readonly date: string;
  readonly node: string;
  readonly kafka: string;
  readonly machine: {
    readonly cpus: number;
    readonly model: string;
    readonly loadAtStart: readonly number[];
    readonly loadAtEnd: readonly number[];
  };
  readonly caughtUpSeconds: number;
  readonly catchUpSeconds: number;
  readonly results: readonly LagResult[];
}

const integer = (value: number): string =>
  Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—';

const seconds = (value: number): string => (Number.isFinite(value) ? value.toFixed(1) : '—');

/** A median with the range when the repetitions differ. */
function spread(values: readonly number[], show: (value: number) => string): string {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return '—';
  const low = Math.min(...finite);
  const high = Math.max(...finite);
  return low === high ? show(median(finite)) : `${show(median(finite))} (${show(low)}-${show(high)})`;
}

function groups(results: readonly LagResult[]): LagResult[][] {
  const byKey = new Map<string, LagResult[]>();
  for (const result of results) {
    const key = `${result.shape} ${result.format}`;
    byKey.set(key, [...(byKey.get(key) ?? []), result]);
  }
  return [...byKey.values()];
}

export function lagTable(run: LagRun): string {
  const lines = [
    '| shape | format | payload B/event | base → peak events/s (reached) | peak s | max lag, events | max lag, s | caught up after, s | handled = produced |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const cases of groups(run.results)) {
    const first = cases[0] as LagResult;
    const notCaught = cases.filter((r) => !Number.isFinite(r.catchUpSeconds)).length;
    const caught = spread(
      cases.map((r) => r.catchUpSeconds),
      seconds,
    );
    lines.push(
      `| ${first.shape} | ${first.label} | ${integer(median(cases.map((r) => r.payloadBytes.mean)))} | ${integer(first.baseRate)} → ${integer(first.peakRate)} (${integer(median(cases.map((r) => r.peakProducedPerSecond)))}) | ${integer(first.peakSeconds)} | ${spread(
        cases.map((r) => r.maxLag),
        integer,
      )} | ${spread(
        cases.map((r) => r.maxLagSeconds),
        seconds,
      )} | ${notCaught === 0 ? caught : `${caught}; not within ${integer(run.catchUpSeconds)} s in ${notCaught}/${cases.length}`} | ${cases.every((r) => r.handled === r.produced) ? `yes (${integer(median(cases.map((r) => r.produced)))})` : 'no'} |`,
    );
  }
  return `\n## Consumer lag through a peak, per event shape and format\n\n${lines.join('\n')}\n\nLag in seconds: the age of the oldest event not yet handled, sampled; caught up: that age back to ${run.caughtUpSeconds} s or less, counted from the end of the peak.\n`;
}

/**
 * One chart per event shape: lag in seconds over time, a line per format (and repetition), so the
 * formats share one scale and the peak's effect on each reads side by side.
 */
export function lagHtml(run: LagRun): string {
  const shapes = [...new Set(run.results.map((r) => r.shape))];
  const repeated = run.results.some((r) => r.repetition > 0);
  const charts: LineChart[] = shapes.map((shape) => {
    const cases = run.results.filter((r) => r.shape === shape);
    const first = cases[0] as LagResult;
    return {
      title: `${shape}s, ${integer(first.baseRate)} → ${integer(first.peakRate)}/s for ${integer(first.peakSeconds)} s: lag (s) from the peak's start`,
      xLabel: 's since the peak started',
      yLabel: 'lag, s (oldest event waiting)',
      series: cases.map((r) => ({
        label: `${r.label}${repeated ? `, repetition ${r.repetition + 1}` : ''}`,
        points: r.points.map((point) => [point.t, point.lagSeconds] as const),
      })),
    };
  });
  const { machine } = run;
  return linesHtml({
    title: 'bench:events: consumer lag through a peak',
    facts: [
      ['command', run.command],
      ['date', run.date],
      ['machine', `${machine.cpus} × ${machine.model}, Node ${run.node}, Kafka ${run.kafka}`],
      [
        'load average',
        `${machine.loadAtStart.map((load) => load.toFixed(2)).join(' ')} at start, ${machine.loadAtEnd.map((load) => load.toFixed(2)).join(' ')} at end`,
      ],
    ],
    charts,
    text: lagTable(run),
  });
}
