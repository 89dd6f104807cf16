/**
 * bench:events `--mode lag`, the loop over its cases (lag.ts runs one): every format on every event
 * shape, the order turned each repetition so that drift on the machine falls on all of them, then
 * the table to stdout (and the run to --json) and the charts to --html.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { type LagResult, runLag } from './lag.js';
import { type LagRun, lagHtml, lagTable } from './lag-report.js';
import { type EventShape, eventShapes } from './shapes.js';
import type { EventFormat } from './subjects.js';

export interface LagModeOptions {
  readonly command: string;
  readonly kafka: string;
  readonly bootstrap: string;
  readonly registryUrl: string | undefined;
  readonly formats: readonly EventFormat[];
  readonly shapes: readonly EventShape[];
  /** Per shape: the base and the peak rate, events/s. */
  readonly rates: ReadonlyMap<EventShape, { readonly base: number; readonly peak: number }>;
  readonly baseSeconds: number;
  readonly peakSeconds: number;
  readonly catchUpSeconds: number;
  readonly caughtUpSeconds: number;
  readonly repetitions: number;
  readonly maxBatch: number;
  readonly poolSize: number;
  readonly consumerExecArgv: readonly string[];
  readonly json: string | undefined;
  readonly html: string | undefined;
}

/** `order=5000/30000,document=1000/4500` → per shape, base and peak. */
export function parseLagRates(text: string): Map<EventShape, { base: number; peak: number }> {
  const rates = new Map<EventShape, { base: number; peak: number }>();
  for (const part of text.split(',')) {
    const match = /^(\w+)=(\d+)\/(\d+)$/.exec(part.trim());
    const shape = match?.[1] as EventShape | undefined;
    if (match === null || shape === undefined || !eventShapes.includes(shape))
      throw new Error(
        `--lag-rates takes SHAPE=BASE/PEAK,... (shapes ${eventShapes.join(', ')}), got ${part}`,
      );
    rates.set(shape, { base: Number(match[2]), peak: Number(match[3]) });
  }
  return rates;
}

export async function runLagMode(options: LagModeOptions): Promise<LagRun> {
  const loadAtStart = loadavg();
  const cases = options.shapes.flatMap((shape) => options.formats.map((format) => ({ shape, format })));
  const results: LagResult[] = [];
  for (let repetition = 0; repetition < options.repetitions; repetition++) {
    const order = cases.map((_, i) => cases[(i + repetition) % cases.length] as (typeof cases)[number]);
    for (const { shape, format } of order) {
      const rates = options.rates.get(shape);
      if (rates === undefined) throw new Error(`--lag-rates has no rates for the ${shape} shape`);
      const result = await runLag({
        format,
        shape,
        repetition,
        bootstrap: options.bootstrap,
        registryUrl: options.registryUrl,
        baseRate: rates.base,
        peakRate: rates.peak,
        baseSeconds: options.baseSeconds,
        peakSeconds: options.peakSeconds,
        catchUpSeconds: options.catchUpSeconds,
        caughtUpSeconds: options.caughtUpSeconds,
        sampleMs: 250,
        maxBatch: options.maxBatch,
        poolSize: options.poolSize,
        seed: 1,
        consumerExecArgv: options.consumerExecArgv,
      });
      results.push(result);
      process.stderr.write(
        `${shape} ${format} (repetition ${repetition + 1}): peak ${Math.round(result.peakProducedPerSecond)}/s, max lag ${result.maxLag} events / ${result.maxLagSeconds.toFixed(1)} s, caught up after ${result.catchUpSeconds.toFixed(1)} s\n`,
      );
    }
  }
  const run: LagRun = {
    command: options.command,
    date: new Date().toISOString(),
    node: process.version,
    kafka: options.kafka,
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model.trim() ?? 'unknown',
      loadAtStart,
      loadAtEnd: loadavg(),
    },
    caughtUpSeconds: options.caughtUpSeconds,
    catchUpSeconds: options.catchUpSeconds,
    results,
  };
  const { machine } = run;
  process.stdout.write(
    `${run.command}\n${run.date}, Node ${run.node}, Kafka ${run.kafka}, ${machine.cpus} × ${machine.model}; load average ${machine.loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ${machine.loadAtEnd.map((l) => l.toFixed(2)).join(' ')} at end\n`,
  );
  process.stdout.write(lagTable(run));
  if (options.json !== undefined) writeFileSync(options.json, `${JSON.stringify(run, null, 2)}\n`);
  if (options.html !== undefined) writeFileSync(options.html, lagHtml(run));
  return run;
}
