/**
 * The WebSocket benchmark's summary: per client count and format, the medians over the repeats
 * (each a fresh server process), the ratios to wirekit's JSON row of the same client count, and
 * the saving in bytes of each binary format per tick.
 */
import { median } from 'wirekit-ts/lab';
import type { CaseResult } from './case.js';
import type { BenchFormat } from './protocol.js';

export interface Row {
  readonly clients: number;
  readonly format: BenchFormat;
  readonly repeats: number;
  readonly bytesPerMessage: number;
  /** At the fixed rate. */
  readonly cpuUsPerMessage: number;
  readonly loopP99Ms: number;
  readonly delivered: number;
  /** The last rate held (messages a second, all clients), 0 if none held. */
  readonly maxMessagesPerSecond: number;
  /** Whether every repeat found its limit (false: the ramp ran out of steps first, a lower bound). */
  readonly limitFound: boolean;
  /** At the last rate held. */
  readonly cpuUsPerMessageAtMax: number;
  readonly serverCpuPercentAtMax: number;
  readonly clientCpuPercentAtMax: number;
  /** What failed first, past the last rate held, in the repeats (distinct reasons). */
  readonly failedBy: readonly string[];
  /** Ratios to the `json` row of the same client count (NaN without one). */
  readonly vsJson: {
    readonly bytes: number;
    readonly cpu: number;
    readonly cpuAtMax: number;
    readonly max: number;
  };
}

export function summarize(cases: readonly CaseResult[]): Row[] {
  const groups = new Map<string, CaseResult[]>();
  for (const result of cases) {
    const key = `${result.clients}/${result.format}`;
    groups.set(key, [...(groups.get(key) ?? []), result]);
  }
  const rows = [...groups.values()].map((group) => {
    const first = group[0] as CaseResult;
    // A repeat without the value (no step held) leaves it out; none with it gives NaN.
    const pick = (value: (result: CaseResult) => number) => median(group.map(value).filter(Number.isFinite));
    return {
      clients: first.clients,
      format: first.format,
      repeats: group.length,
      bytesPerMessage: pick((result) => result.fixed.bytesPerMessage),
      cpuUsPerMessage: pick((result) => result.fixed.cpuUsPerMessage),
      loopP99Ms: pick((result) => result.fixed.loopP99Ms),
      delivered: pick((result) => result.fixed.delivered),
      maxMessagesPerSecond: pick((result) => result.maxHeld?.offeredPerSecond ?? 0),
      limitFound: group.every((result) => result.limitFound),
      cpuUsPerMessageAtMax: pick((result) => result.maxHeld?.cpuUsPerMessage ?? Number.NaN),
      serverCpuPercentAtMax: pick((result) => result.maxHeld?.serverCpuPercent ?? Number.NaN),
      clientCpuPercentAtMax: pick((result) => result.maxHeld?.clientCpuPercent ?? Number.NaN),
      failedBy: [...new Set(group.map((result) => result.firstFailed?.reason ?? 'none'))],
    };
  });
  return rows.map((row) => {
    const json = rows.find((other) => other.clients === row.clients && other.format === 'json');
    const ratio = (value: (r: typeof row) => number) =>
      json === undefined ? Number.NaN : value(row) / value(json);
    return {
      ...row,
      vsJson: {
        bytes: ratio((r) => r.bytesPerMessage),
        cpu: ratio((r) => r.cpuUsPerMessage),
        cpuAtMax: ratio((r) => r.cpuUsPerMessageAtMax),
        max: ratio((r) => r.maxMessagesPerSecond),
      },
    };
  });
}

/** Each format's saving in bytes per tick against wirekit's JSON (the same for every client count). */
export function savings(rows: readonly Row[]): Record<string, number> {
  const fewest = Math.min(...rows.map((row) => row.clients));
  const json = rows.find((row) => row.clients === fewest && row.format === 'json');
  const out: Record<string, number> = {};
  if (json === undefined) return out;
  for (const row of rows) {
    if (row.clients === fewest && row.format !== 'json' && row.format !== 'native')
      out[row.format] = 1 - row.bytesPerMessage / json.bytesPerMessage;
  }
  return out;
}

const fixed = (value: number, digits = 0) =>
  Number.isFinite(value)
    ? value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '–';

export function table(rows: readonly Row[], fixedRate: number): string {
  const lines = [
    `| clients | format | bytes/msg | vs JSON | CPU µs/msg @ ${fixedRate}/s each | vs JSON | loop p99 ms | max msgs/s held | vs JSON | CPU µs/msg at max | vs JSON | server CPU % | client CPU % | next step failed by |`,
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const max = `${row.limitFound ? '' : '≥ '}${fixed(row.maxMessagesPerSecond)}`;
    lines.push(
      `| ${fixed(row.clients)} | ${row.format === 'native' ? 'native JSON' : row.format} | ${fixed(row.bytesPerMessage, 1)} | ${fixed(row.vsJson.bytes, 2)} | ${fixed(row.cpuUsPerMessage, 1)} | ${fixed(row.vsJson.cpu, 2)} | ${fixed(row.loopP99Ms, 1)} | ${max} | ${fixed(row.vsJson.max, 2)} | ${fixed(row.cpuUsPerMessageAtMax, 2)} | ${fixed(row.vsJson.cpuAtMax, 2)} | ${fixed(row.serverCpuPercentAtMax)} | ${fixed(row.clientCpuPercentAtMax)} | ${row.failedBy.join('; ')} |`,
    );
  }
  return lines.join('\n');
}
