/**
 * bench:rpc's summary: per case and workload, the medians over the repetitions (each a fresh pair
 * of processes) with the range of the rate, the ratios to grpc-js + protobufjs and to Connect-ES on
 * the same protocol, and a markdown table per workload.
 */
import { median } from 'wirekit-ts/lab';
import { baselineId, connectBaselineOf, type StackEntry } from './cases.js';
import type { CaseResult } from './run-case.js';
import type { Workload } from './service.js';

export interface Row {
  readonly id: string;
  readonly label: string;
  readonly protocol: string;
  readonly codec: string;
  readonly workload: Workload;
  readonly repetitions: number;
  /** Verified calls a second, median and range; for a stream also its messages a second. */
  readonly callsPerSecond: number;
  readonly callsRange: readonly [number, number];
  readonly messagesPerSecond: number;
  readonly messagesRange: readonly [number, number];
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Bytes of one reply message (a stream: one of its messages). */
  readonly bytesPerMessage: number;
  /** Server CPU per call, and per message (the same for unary calls). */
  readonly serverCpuUsPerCall: number;
  readonly serverCpuUsPerMessage: number;
  /** The stack's serializer alone: one reply, or one stream message. */
  readonly serializeUsPerMessage: number;
  readonly clientCpuPercent: number;
  readonly calls: number;
  readonly verified: number;
  readonly errors: number;
  readonly firstError: string | undefined;
  /** The rate's ratio to grpc-js + protobufjs and to Connect-ES on the same protocol (NaN without one). */
  readonly vsGrpcJs: number;
  readonly vsConnectEs: number;
}

export function summarize(results: readonly CaseResult[], entries: readonly StackEntry[]): Row[] {
  const groups = new Map<string, CaseResult[]>();
  for (const result of results) {
    const key = `${result.workload}/${result.id}`;
    groups.set(key, [...(groups.get(key) ?? []), result]);
  }
  const rows = [...groups.values()].map((group) => {
    const first = group[0] as CaseResult;
    const entry = entries.find((candidate) => candidate.id === first.id) as StackEntry;
    const pick = (value: (result: CaseResult) => number) => median(group.map(value));
    const range = (value: (result: CaseResult) => number): [number, number] => {
      const all = group.map(value);
      return [Math.min(...all), Math.max(...all)];
    };
    const calls = (result: CaseResult) => result.client.verified / (result.client.wallMs / 1000);
    const messages = (result: CaseResult) =>
      (result.client.verified * (result.client.messages / Math.max(1, result.client.calls))) /
      (result.client.wallMs / 1000);
    const perMessage = (result: CaseResult) => result.client.messages / Math.max(1, result.client.calls);
    const sum = (value: (result: CaseResult) => number) => group.reduce((total, r) => total + value(r), 0);
    return {
      id: first.id,
      label: entry.label,
      protocol: entry.protocol,
      codec: entry.codec,
      workload: first.workload,
      repetitions: group.length,
      callsPerSecond: pick(calls),
      callsRange: range(calls),
      messagesPerSecond: pick(messages),
      messagesRange: range(messages),
      p50Ms: pick((r) => r.client.p50Ms),
      p99Ms: pick((r) => r.client.p99Ms),
      bytesPerMessage: pick((r) => r.client.bytes / Math.max(1, r.client.messages)),
      serverCpuUsPerCall: pick((r) => r.serverCpuUs / Math.max(1, r.client.calls)),
      serverCpuUsPerMessage: pick((r) => r.serverCpuUs / Math.max(1, r.client.messages)),
      serializeUsPerMessage: pick((r) => r.serializeUs / perMessage(r)),
      clientCpuPercent: pick((r) => r.client.cpuUs / 10 / r.client.wallMs),
      calls: sum((r) => r.client.calls),
      verified: sum((r) => r.client.verified),
      errors: sum((r) => r.client.errors),
      firstError: group.find((r) => r.client.firstError !== undefined)?.client.firstError,
    };
  });
  return rows.map((row) => {
    const entry = entries.find((candidate) => candidate.id === row.id) as StackEntry;
    const rate = (r: (typeof rows)[number]) =>
      r.workload === 'stream' ? r.messagesPerSecond : r.callsPerSecond;
    const ratio = (id: string | undefined) => {
      const other = rows.find((candidate) => candidate.id === id && candidate.workload === row.workload);
      return other === undefined ? Number.NaN : rate(row) / rate(other);
    };
    return { ...row, vsGrpcJs: ratio(baselineId), vsConnectEs: ratio(connectBaselineOf(entry)) };
  });
}

const fixed = (value: number, digits = 0) =>
  Number.isFinite(value)
    ? value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '–';
const withRange = (value: number, [low, high]: readonly [number, number], repetitions: number) =>
  repetitions > 1 ? `${fixed(value)} (${fixed(low)}–${fixed(high)})` : fixed(value);
const ratio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '–');
const protocolName = (protocol: string) =>
  protocol === 'grpc' ? 'gRPC' : protocol === 'connect' ? 'Connect' : 'HTTP/1.1 POST';

const titles: Readonly<Record<Workload, string>> = {
  small: 'Small unary call (GetUser: one user by id)',
  list: 'The users as one unary reply (ListUsers)',
  stream: 'The users as a server stream, one message each (StreamUsers)',
};

export function table(rows: readonly Row[], workload: Workload): string {
  const stream = workload === 'stream';
  const lines = [
    `**${titles[workload]}**`,
    '',
    stream
      ? '| case | protocol | format | B/message | messages/s | vs grpc-js | vs Connect-ES | stream p50 ms | p99 ms | server CPU µs/message | serializer alone µs/message | client CPU % | checked / calls |'
      : '| case | protocol | format | B/reply | requests/s | vs grpc-js | vs Connect-ES | p50 ms | p99 ms | server CPU µs/call | serializer alone µs/call | client CPU % | checked / calls |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows.filter((candidate) => candidate.workload === workload)) {
    const rate = stream
      ? withRange(row.messagesPerSecond, row.messagesRange, row.repetitions)
      : withRange(row.callsPerSecond, row.callsRange, row.repetitions);
    // Small figures keep the digits that tell them apart.
    const digitsOf = (value: number) => (value < 10 ? 2 : value < 100 ? 1 : 0);
    const cpu = stream ? row.serverCpuUsPerMessage : row.serverCpuUsPerCall;
    lines.push(
      `| ${row.label} | ${protocolName(row.protocol)} | ${row.codec} | ${fixed(row.bytesPerMessage)} | ${rate} | ${ratio(row.vsGrpcJs)} | ${ratio(row.vsConnectEs)} | ${fixed(row.p50Ms, 2)} | ${fixed(row.p99Ms, 2)} | ${fixed(cpu, digitsOf(cpu))} | ${fixed(row.serializeUsPerMessage, digitsOf(row.serializeUsPerMessage))} | ${fixed(row.clientCpuPercent)} | ${fixed(row.verified)} / ${fixed(row.calls)} |`,
    );
  }
  return lines.join('\n');
}
