/**
 * The terminal table: one block per dataset, one row per subject, each figure beside its ratio to
 * native JSON measured in the same process, so the table reads at a glance.
 */
import type { CaseResult } from './case.js';
import { recommendationText } from './recommend.js';
import type { LabRun } from './run.js';

const columns = [
  'format',
  'bytes',
  'zstd',
  'encode',
  'decode',
  'round trip',
  'loop p99',
  'round trip check',
] as const;

export function labTable(run: LabRun): string {
  const blocks: string[] = [];
  const byDataset = new Map<string, CaseResult[]>();
  for (const result of run.results) {
    const list = byDataset.get(result.spec.dataset) ?? [];
    list.push(result);
    byDataset.set(result.spec.dataset, list);
  }
  for (const [dataset, results] of byDataset) {
    const first = results[0] as CaseResult;
    const unit =
      first.unit === 'batch'
        ? `${first.itemsPerUnit.toLocaleString('en')} items as one batch`
        : `per item (${first.units} items)`;
    const rows = results.map((result) => [
      `${result.label}${result.implementation === 'wirekit' ? '' : ' *'}`,
      `${size(result.bytes)} ${ratio(result.bytes / result.jsonBytes)}`,
      size(result.compressed.zstd?.bytes ?? Number.NaN),
      `${ms(result.encode.median)} ${ratio(result.encode.median / result.jsonEncode.median)}`,
      `${ms(result.decode.median)} ${ratio(result.decode.median / result.jsonDecode.median)}`,
      ratio(
        (result.encode.median + result.decode.median) / (result.jsonEncode.median + result.jsonDecode.median),
      ),
      ms(result.loopDelayP99Ms),
      result.loss === undefined ? 'lossless' : `LOSS ${result.loss}`,
    ]);
    const jsonNote =
      first.jsonFailure === undefined
        ? `JSON ${size(first.jsonBytes)}`
        : `no JSON yardstick: ${first.jsonFailure}`;
    blocks.push(`${dataset}: ${unit}; ${jsonNote}\n${render([[...columns], ...rows])}`);
  }
  const failures = run.failures.map((f) => `  ${f.dataset} × ${f.subject}: ${f.error}`);
  const advice = recommendationText(run);
  return [
    ...blocks,
    '(×N: ratio to native JSON timed in the same process; * a library used directly, not through wirekit)',
    ...(advice === '' ? [] : [advice]),
    ...(failures.length > 0 ? ['Cases that failed:', ...failures] : []),
  ].join('\n\n');
}

function render(rows: readonly (readonly string[])[]): string {
  const widths = columns.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows
    .map((row, r) => {
      const line = row.map((cell, i) =>
        i === 0 || i === row.length - 1
          ? cell.padEnd(widths[i] as number)
          : cell.padStart(widths[i] as number),
      );
      return r === 0 ? `${line.join('  ')}\n${widths.map((w) => '─'.repeat(w)).join('  ')}` : line.join('  ');
    })
    .join('\n');
}

function size(bytes: number): string {
  if (!Number.isFinite(bytes)) return '-';
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${Math.round(bytes)} B`;
}

function ms(value: number): string {
  if (value >= 100) return `${value.toFixed(0)} ms`;
  if (value >= 1) return `${value.toFixed(2)} ms`;
  return `${(value * 1000).toFixed(1)} µs`;
}

function ratio(value: number): string {
  return Number.isFinite(value) ? `×${value.toFixed(2)}` : '';
}
