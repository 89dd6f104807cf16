/**
 * The cache benchmark's Markdown tables, from summary.ts: the subjects as the report laid them out
 * (µs per encode and decode, bytes, ratio to the new pipeline), their Redis figures, the ratios
 * the target names, and the compression threshold with the numbers behind each crossover.
 */
import type { Spread, SubjectSummary, ThresholdSummary } from './summary.js';

function us(value: number): string {
  if (!Number.isFinite(value)) return '–';
  if (value >= 1000) return `${(value / 1000).toFixed(value < 10_000 ? 2 : 1)} ms`;
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} µs`;
}

/** A time below 1 ms without its unit (the cell's first figure says it). */
function bare(value: number): string {
  return us(value).replace(/ µs$/, '');
}

function bytes(value: number): string {
  if (value >= 1024 * 1024) return `${(value / 1024 / 1024).toFixed(2)} MiB`;
  if (value >= 10 * 1024) return `${(value / 1024).toFixed(1)} KiB`;
  return `${Math.round(value).toLocaleString('en')} B`;
}

function ratio(s: Spread): string {
  return `${s.median.toFixed(2)} (${s.min.toFixed(2)}-${s.max.toFixed(2)})`;
}

function ops(s: Spread | undefined): string {
  return s === undefined || !Number.isFinite(s.median) ? '–' : Math.round(s.median).toLocaleString('en');
}

function ms(s: Spread): string {
  return `${s.median.toFixed(2)} (${s.min.toFixed(2)}-${s.max.toFixed(2)})`;
}

function percent(share: number): string {
  return `${(share * 100).toFixed(Math.abs(share) < 0.1 ? 1 : 0)} %`;
}

export interface FailedSubject {
  readonly id: string;
  readonly failure: string;
}

/** The report's shape: per value, µs to encode and decode (the compression inside), bytes, ratios. */
export function subjectsTable(rows: readonly SubjectSummary[], failed: readonly FailedSubject[]): string {
  const lines = [
    '| subject | encode (serialize + compress) | decode (decompress + deserialize) | bytes per value | ' +
      'all values | bytes ÷ new | loop per set + get ÷ new (range) | with the Redis client ÷ new (range) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const parts = (a: Spread | undefined, b: Spread | undefined) =>
      a === undefined || b === undefined ? '' : ` (${bare(a.median)} + ${bare(b.median)})`;
    lines.push(
      `| ${row.label}${row.loss === undefined ? '' : ' †'} | ` +
        `${us(row.encodeUs.median)}${parts(row.serializeUs, row.compressUs)} | ` +
        `${us(row.decodeUs.median)}${parts(row.decompressUs, row.deserializeUs)} | ${bytes(row.bytesMedian)} | ` +
        `${bytes(row.bytesTotal)} | ${row.bytesRatio.toFixed(2)} | ${ratio(row.loopRatio)} | ` +
        `${ratio(row.clientLoopRatio)} |`,
    );
  }
  for (const { id, failure } of failed)
    lines.push(`| ${id} | n/a: ${failure.replaceAll('|', '/')} | | | | | | |`);
  return lines.join('\n');
}

export function redisTable(
  rows: readonly SubjectSummary[],
  callers: readonly number[],
  clientCallers: number,
  rate: number,
): string {
  const list = callers.join(' / ');
  const lines = [
    `| subject | SET ops/s, ${list} callers | GET ops/s, ${list} callers | loop per SET + GET, ${clientCallers} callers | ` +
      `SET + GET per s ÷ new, ${clientCallers} callers (range) | loop p99 at ${rate.toLocaleString('en')} ops/s, ms (range) | ` +
      "new pipeline's p99, same processes |",
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const byCallers = (of: Readonly<Record<number, Spread>>) => callers.map((c) => ops(of[c])).join(' / ');
    lines.push(
      `| ${row.label} | ${byCallers(row.setOpsPerSec)} | ${byCallers(row.getOpsPerSec)} | ${us(row.clientLoopUs.median)} | ` +
        `${ratio(row.throughputRatio)} | ${ms(row.steadyP99Ms)}${row.steadyShed > 0 ? ` (${row.steadyShed} shed)` : ''} | ${ms(row.yardstickSteadyP99Ms)} |`,
    );
  }
  return lines.join('\n');
}

export interface Target {
  readonly loop: number;
  readonly bytes: number;
}

/** The ratios the target names, the best subjects by them, and whether any subject meets both. */
export function targetLines(rows: readonly SubjectSummary[], target: Target, dataset: string): string[] {
  const wirekit = rows.filter((row) => row.id.startsWith('wirekit:'));
  const lines: string[] = [];
  if (rows.length === 0) return lines;
  const by = (pick: (row: SubjectSummary) => number) => (a: SubjectSummary, b: SubjectSummary) =>
    pick(a) - pick(b);
  const describe = (row: SubjectSummary) =>
    `${row.label}: loop ${row.loopRatio.median.toFixed(2)}× (${row.loopRatio.min.toFixed(2)}-` +
    `${row.loopRatio.max.toFixed(2)}), with the Redis client ${row.clientLoopRatio.median.toFixed(2)}× ` +
    `(${row.clientLoopRatio.min.toFixed(2)}-${row.clientLoopRatio.max.toFixed(2)}), bytes ${row.bytesRatio.toFixed(2)}×`;
  lines.push(
    `Target, on ${dataset}: at most ${target.loop}× the new pipeline's loop time per operation and ` +
      `${target.bytes}× its stored bytes.`,
  );
  if (wirekit.length > 0) {
    const [leastLoop] = [...wirekit].sort(by((row) => row.loopRatio.median));
    const [leastClient] = [...wirekit].sort(by((row) => row.clientLoopRatio.median));
    const [leastBytes] = [...wirekit].sort(by((row) => row.bytesRatio));
    if (leastLoop) lines.push(`- least loop time (codec alone), wirekit: ${describe(leastLoop)}`);
    if (leastClient) lines.push(`- least loop time with the Redis client, wirekit: ${describe(leastClient)}`);
    if (leastBytes) lines.push(`- fewest bytes, wirekit: ${describe(leastBytes)}`);
  }
  const meets = (row: SubjectSummary, loop: (row: SubjectSummary) => number) =>
    loop(row) <= target.loop && row.bytesRatio <= target.bytes;
  for (const [name, loop] of [
    ['the codec alone', (row: SubjectSummary) => row.loopRatio.median],
    ['with the Redis client', (row: SubjectSummary) => row.clientLoopRatio.median],
  ] as const) {
    const met = rows.filter((row) => meets(row, loop));
    lines.push(
      met.length === 0
        ? `- no subject meets both (loop time ${name})`
        : `- meet both (loop time ${name}): ${met.map((row) => row.label).join('; ')}`,
    );
  }
  return lines;
}

function crossover(from: number | undefined, first: number | undefined): string {
  if (from === undefined) return 'not within the sizes measured';
  return from === first ? `≤ ${bytes(from)} (every size measured)` : bytes(from);
}

/** One row per (source, format, compression): the two crossovers and the numbers at them. */
export function thresholdSummaryTable(rows: readonly ThresholdSummary[]): string {
  const lines = [
    '| values | format | compression | (a) compression pays from | saving there | loop added there | ' +
      'one size below: saving / loop added | (b) async blocks less from | sync / async there | one size below |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const index = (from: number | undefined) => row.sizes.findIndex((s) => s.plainBytes === from);
    const a = index(row.compressFrom);
    const b = index(row.asyncFrom);
    const first = row.sizes[0]?.plainBytes;
    const at = row.sizes[a];
    const belowA = a > 0 ? row.sizes[a - 1] : undefined;
    const atB = row.sizes[b];
    const belowB = b > 0 ? row.sizes[b - 1] : undefined;
    lines.push(
      `| ${row.source} | ${row.format} | ${row.compression} | ${crossover(row.compressFrom, first)} | ` +
        `${at ? percent(at.saving) : '–'} | ${at ? percent(at.addedShare) : '–'} | ` +
        `${belowA ? `${percent(belowA.saving)} / ${percent(belowA.addedShare)}` : '–'} | ` +
        `${crossover(row.asyncFrom, first)} | ${atB ? `${us(atB.syncUs)} / ${us(atB.asyncUs)}` : '–'} | ` +
        `${belowB ? `${us(belowB.syncUs)} / ${us(belowB.asyncUs)}` : '–'} |`,
    );
  }
  return lines.join('\n');
}

/** Every size of one (source, format), the compressions side by side. */
export function thresholdDetailTable(rows: readonly ThresholdSummary[]): string {
  const lines = [
    '| size | compression | compressed | saving | sync c+d | async c+d | codec e+d | client SET+GET | ' +
      'client saves | loop added | pays | async less |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|:-:|:-:|',
  ];
  const count = Math.max(...rows.map((row) => row.sizes.length));
  for (let i = 0; i < count; i++) {
    for (const row of rows) {
      const s = row.sizes[i];
      if (s === undefined) continue;
      lines.push(
        `| ${bytes(s.plainBytes)} | ${row.compression} | ${bytes(s.compressedBytes)} | ${percent(s.saving)} | ` +
          `${us(s.syncUs)} | ${us(s.asyncUs)} | ${us(s.codecUs)} | ${us(s.clientUs)} | ${us(s.clientSavedUs)} | ` +
          `${percent(s.addedShare)} | ${s.pays ? 'yes' : 'no'} | ${s.asyncBlocksLess ? 'yes' : 'no'} |`,
      );
    }
  }
  return lines.join('\n');
}
