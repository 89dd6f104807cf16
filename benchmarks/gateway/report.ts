/**
 * bench:gateway's summary: per hop and workload, the medians over the repetitions (each a fresh
 * trio of processes) with the range of the rate and of the gateway's CPU per call, the ratio of the
 * gateway's CPU per call to the JSON → JSON hop's, and a markdown table per workload.
 */
import { median } from 'wirekit-ts/lab';
import { baselineHop, type HopEntry } from './cases.js';
import type { CaseResult } from './run-case.js';
import type { GatewayWorkload } from './service.js';

export interface Row {
  readonly hop: HopEntry['id'];
  readonly label: string;
  readonly workload: GatewayWorkload;
  readonly repetitions: number;
  readonly bytesPerReply: number;
  /** Verified calls a second, median and range. */
  readonly callsPerSecond: number;
  readonly callsRange: readonly [number, number];
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly gatewayCpuUsPerCall: number;
  readonly gatewayCpuRange: readonly [number, number];
  readonly backendCpuUsPerCall: number;
  readonly clientCpuPercent: number;
  readonly calls: number;
  readonly verified: number;
  readonly errors: number;
  readonly firstError: string | undefined;
  /** The gateway's CPU per call over the JSON → JSON hop's (medians; NaN without it). */
  readonly gatewayCpuVsJson: number;
}

const rangeOf = (values: readonly number[]): [number, number] => [Math.min(...values), Math.max(...values)];

export function summarize(results: readonly CaseResult[], entries: readonly HopEntry[]): Row[] {
  const groups = new Map<string, CaseResult[]>();
  for (const result of results) {
    const key = `${result.workload}/${result.hop}`;
    groups.set(key, [...(groups.get(key) ?? []), result]);
  }
  const rows = [...groups.values()].map((group) => {
    const first = group[0] as CaseResult;
    const entry = entries.find((candidate) => candidate.id === first.hop) as HopEntry;
    const pick = (value: (result: CaseResult) => number) => median(group.map(value));
    const calls = (r: CaseResult) => r.client.verified / (r.client.wallMs / 1000);
    const gatewayCpu = (r: CaseResult) => r.gatewayCpuUs / Math.max(1, r.client.calls);
    const sum = (value: (result: CaseResult) => number) => group.reduce((total, r) => total + value(r), 0);
    return {
      hop: first.hop,
      label: entry.label,
      workload: first.workload,
      repetitions: group.length,
      bytesPerReply: pick((r) => r.client.bytes / Math.max(1, r.client.calls)),
      callsPerSecond: pick(calls),
      callsRange: rangeOf(group.map(calls)),
      p50Ms: pick((r) => r.client.p50Ms),
      p99Ms: pick((r) => r.client.p99Ms),
      gatewayCpuUsPerCall: pick(gatewayCpu),
      gatewayCpuRange: rangeOf(group.map(gatewayCpu)),
      backendCpuUsPerCall: pick((r) => r.backendCpuUs / Math.max(1, r.client.calls)),
      clientCpuPercent: pick((r) => r.client.cpuUs / 10 / r.client.wallMs),
      calls: sum((r) => r.client.calls),
      verified: sum((r) => r.client.verified),
      errors: sum((r) => r.client.errors),
      firstError: group.find((r) => r.client.firstError !== undefined)?.client.firstError,
    };
  });
  return rows.map((row) => {
    const baseline = rows.find((other) => other.hop === baselineHop && other.workload === row.workload);
    const gatewayCpuVsJson =
      baseline === undefined ? Number.NaN : row.gatewayCpuUsPerCall / baseline.gatewayCpuUsPerCall;
    return { ...row, gatewayCpuVsJson };
  });
}

const fixed = (value: number, digits = 0) =>
  Number.isFinite(value)
    ? value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '–';
// Small figures keep the digits that tell them apart.
const digitsOf = (value: number) => (value < 10 ? 2 : value < 100 ? 1 : 0);
const withRange = (value: number, [low, high]: readonly [number, number], repetitions: number) => {
  const digits = digitsOf(value);
  return repetitions > 1
    ? `${fixed(value, digits)} (${fixed(low, digits)}–${fixed(high, digits)})`
    : fixed(value, digits);
};
const ratio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '–');

const titles: Readonly<Record<GatewayWorkload, string>> = {
  small: 'One user by id (GET /v1/users/{id} → GetUser)',
  list: 'The users as one reply (GET /v1/users?count=N → ListUsers)',
};

export function table(rows: readonly Row[], workload: GatewayWorkload): string {
  const lines = [
    `**${titles[workload]}**`,
    '',
    '| hop | B/reply | requests/s | p50 ms | p99 ms | gateway CPU µs/call | vs JSON → JSON | backend CPU µs/call | client CPU % | checked / calls |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows.filter((candidate) => candidate.workload === workload)) {
    lines.push(
      `| ${row.label} | ${fixed(row.bytesPerReply)} | ${withRange(row.callsPerSecond, row.callsRange, row.repetitions)} | ${fixed(row.p50Ms, 2)} | ${fixed(row.p99Ms, 2)} | ${withRange(row.gatewayCpuUsPerCall, row.gatewayCpuRange, row.repetitions)} | ${ratio(row.gatewayCpuVsJson)} | ${fixed(row.backendCpuUsPerCall, digitsOf(row.backendCpuUsPerCall))} | ${fixed(row.clientCpuPercent)} | ${fixed(row.verified)} / ${fixed(row.calls)} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The measured target, a line per gRPC hop: its gateway's CPU per call over the JSON → JSON
 * one's, the ratio of the medians and the range of the ratios within each repetition (the hops of
 * a repetition ran a minute apart at most, on the same machine state).
 */
export function verdicts(
  results: readonly CaseResult[],
  entries: readonly HopEntry[],
  workload: GatewayWorkload,
): string[] {
  const perCall = (r: CaseResult) => r.gatewayCpuUs / Math.max(1, r.client.calls);
  const of = (hop: HopEntry['id']) => results.filter((r) => r.workload === workload && r.hop === hop);
  const json = of(baselineHop);
  if (json.length === 0) return [];
  return entries.flatMap((entry) => {
    const measured = of(entry.id);
    if (entry.id === baselineHop || measured.length === 0) return [];
    const ratios = measured.flatMap((r) => {
      const pair = json.find((other) => other.repetition === r.repetition);
      return pair === undefined ? [] : [perCall(r) / perCall(pair)];
    });
    const value = median(measured.map(perCall)) / median(json.map(perCall));
    const spread = ratios.length > 1 ? ` (per repetition ${rangeOf(ratios).map(ratio).join('–')})` : '';
    const cheaper = value < 1 ? 'less' : 'more';
    return [
      `${workload}: ${entry.label} spends ${ratio(value)}${spread} the gateway CPU per call of the JSON → JSON hop (${cheaper}).`,
    ];
  });
}
