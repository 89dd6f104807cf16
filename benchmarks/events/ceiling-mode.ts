/**
 * bench:events `--mode ceiling`, the loop over its cases (ceiling.ts runs one): every case of
 * `ceilingCases` (formats × consumers × shapes), the order turned each repetition so that drift on
 * the machine falls on all of them, then the tables to stdout and the results to --json.
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { type CeilingCase, type CeilingResult, ceilingReport, runCeiling } from './ceiling.js';

export interface CeilingModeOptions {
  readonly command: string;
  readonly kafka: string;
  readonly bootstrap: string;
  readonly registryUrl: string | undefined;
  readonly cases: readonly CeilingCase[];
  /** Orders per case; a tenth as many documents. */
  readonly events: number;
  readonly repetitions: number;
  readonly maxBatch: number;
  readonly poolSize: number;
  readonly consumerExecArgv: readonly string[];
  readonly json: string | undefined;
}

export async function runCeilingMode(options: CeilingModeOptions): Promise<CeilingResult[]> {
  const { cases } = options;
  const results: CeilingResult[] = [];
  for (let repetition = 0; repetition < options.repetitions; repetition++) {
    const order = cases.map((_, i) => cases[(i + repetition) % cases.length] as CeilingCase);
    for (const ceilingCase of order) {
      const { format, consumer, shape, client = 'kafkajs' } = ceilingCase;
      const result = await runCeiling({
        ...ceilingCase,
        repetition,
        bootstrap: options.bootstrap,
        registryUrl: options.registryUrl,
        // A tenth as many documents, ten times the size: about the same bytes per case.
        events: shape === 'document' ? Math.max(1, Math.round(options.events / 10)) : options.events,
        maxBatch: options.maxBatch,
        poolSize: options.poolSize,
        seed: 1,
        timeoutSeconds: 120,
        consumerExecArgv: options.consumerExecArgv,
      });
      results.push(result);
      process.stderr.write(
        `${shape} ${format} on ${consumer}'s consumer over ${client} (repetition ${repetition + 1}): ${Math.round(result.perSecond).toLocaleString('en-US')} events/s, ${result.processCpuUs.toFixed(1)} µs CPU/event\n`,
      );
    }
  }
  process.stdout.write(
    `${options.command}\n${new Date().toISOString()}, Node ${process.version}, Kafka ${options.kafka}, ${cpus().length} CPUs\n`,
  );
  process.stdout.write(ceilingReport(results));
  if (options.json !== undefined) writeFileSync(options.json, `${JSON.stringify(results, null, 2)}\n`);
  return results;
}
