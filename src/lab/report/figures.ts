/**
 * The figures both reports show, computed once: the Markdown and HTML pages render the same rows, so
 * a reader who compares them never finds two different numbers for one case.
 */
import type { CaseResult } from '../case.js';
import type { LabRun } from '../run.js';
import { ms, ratio, size } from '../units.js';

/** The compressors in the order the lab runs them: fastest first, densest last. */
const compressorNames = ['snappy', 'lz4', 'zstd', 'gzip', 'brotli'] as const;

export const tableHeaders = [
  'format',
  'bytes',
  ...compressorNames,
  'encode median (p75 / p99)',
  'decode median (p75 / p99)',
  'items/s enc / dec',
  'MB/s enc / dec',
  'loop p99',
  'peak RSS',
  'round trip check',
] as const;

export interface DatasetSection {
  readonly dataset: string;
  /** What one unit is, e.g. "1,000 items as one batch", and JSON's size, for the caption. */
  readonly caption: string;
  readonly results: readonly CaseResult[];
  readonly rows: readonly (readonly string[])[];
}

/** Results grouped by dataset, in the order the lab ran them. */
export function sections(run: LabRun): DatasetSection[] {
  const byDataset = new Map<string, CaseResult[]>();
  for (const result of run.results) {
    const list = byDataset.get(result.spec.dataset) ?? [];
    list.push(result);
    byDataset.set(result.spec.dataset, list);
  }
  return [...byDataset].map(([dataset, results]) => {
    const first = results[0] as CaseResult;
    const unit =
      first.unit === 'batch'
        ? `${first.itemsPerUnit.toLocaleString('en')} item${first.itemsPerUnit === 1 ? '' : 's'} as one batch`
        : `per item (${first.units.toLocaleString('en')} items)`;
    return { dataset, caption: `${unit}; JSON ${size(first.jsonBytes)}`, results, rows: results.map(row) };
  });
}

/** The run's context, one "label: value" line each: without it, the figures cannot be compared. */
export function runFacts(run: LabRun): [string, string][] {
  const { machine, options } = run;
  return [
    ['date', run.date],
    ['machine', `${machine.model}, ${machine.cpus} CPUs, ${machine.memoryGb} GB, ${machine.platform}`],
    ['Node', `${run.node} (V8 ${run.v8})`],
    [
      'options',
      `processes ${options.processes}, ${options.quick ? 'quick' : 'full'} run, seed ${options.seed}`,
    ],
  ];
}

/** The numbers the charts plot, per result: ratios to JSON and throughput. */
function derived(result: CaseResult) {
  const roundTrip = result.encode.median + result.decode.median;
  const jsonRoundTrip = result.jsonEncode.median + result.jsonDecode.median;
  return {
    bytesRatio: result.bytes / result.jsonBytes,
    encodeRatio: result.encode.median / result.jsonEncode.median,
    decodeRatio: result.decode.median / result.jsonDecode.median,
    roundTripRatio: roundTrip / jsonRoundTrip,
    encodeItemsPerSec: perSecond(result.itemsPerUnit, result.encode.median),
    decodeItemsPerSec: perSecond(result.itemsPerUnit, result.decode.median),
    encodeMBps: perSecond(result.bytes / 1024 / 1024, result.encode.median),
    decodeMBps: perSecond(result.bytes / 1024 / 1024, result.decode.median),
  };
}

function displayLabel(result: CaseResult): string {
  return `${result.label}${result.implementation === 'wirekit' ? '' : ' *'}`;
}

function row(result: CaseResult): string[] {
  const d = derived(result);
  const timing = (t: CaseResult['encode'], r: number) =>
    `${ms(t.median)} ${ratio(r)} (${ms(t.p75)} / ${ms(t.p99)})`;
  return [
    displayLabel(result),
    `${size(result.bytes)} ${ratio(d.bytesRatio)}`,
    ...compressorNames.map((name) => size(result.compressed[name]?.bytes ?? Number.NaN)),
    timing(result.encode, d.encodeRatio),
    timing(result.decode, d.decodeRatio),
    `${count(d.encodeItemsPerSec)} / ${count(d.decodeItemsPerSec)}`,
    `${d.encodeMBps.toFixed(1)} / ${d.decodeMBps.toFixed(1)}`,
    ms(result.loopDelayP99Ms),
    `${result.memory.peakRssMb.toFixed(0)} MB`,
    result.loss === undefined ? 'lossless' : `LOSS ${result.loss}`,
  ];
}

function perSecond(amount: number, msPerUnit: number): number {
  return msPerUnit > 0 ? amount / (msPerUnit / 1000) : Number.NaN;
}

/** Items per second, shortened (12.3k, 4.5M) so the column stays narrow. */
function count(value: number): string {
  if (!Number.isFinite(value)) return '-';
  if (value >= 1e6) return `${(value / 1e6).toFixed(2)}M`;
  if (value >= 1e3) return `${(value / 1e3).toFixed(1)}k`;
  return value.toFixed(0);
}
