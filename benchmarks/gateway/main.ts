/**
 * The edge gateway's benchmark (issue 34, "the edge gateway's JSON → gRPC hop costs less CPU per
 * call than a JSON → JSON hop"): the hop's own cost, in the gateway process.
 *
 *   npm run build && npm run bench:gateway     # node build/benchmarks/gateway/main.js
 *   node build/benchmarks/gateway/main.js [--repetitions 3] [--seconds 3] [--warmup-seconds 3]
 *     [--users 1000] [--hops json-grpc,json-grpc-identity,json-grpcjs,json-json] [--workloads small,list]
 *     [--concurrency small=8,list=2] [--json FILE] [--cpu-prof DIR]
 *
 * Hops (cases.ts): wirekit's rpcGateway on Fastify calling wirekit's RPC server over gRPC in
 * Protocol Buffers through wirekit's RPC client (grpc-hop.ts) or through grpc-js (grpcjs-hop.ts),
 * and a hand-written Fastify route forwarding JSON over undici's Pool to a plain Fastify JSON
 * service (json-hop.ts); the backends are bench:rpc's. Workloads:
 * one user by id (GET /v1/users/{id}) and the first `--users` users as one reply
 * (GET /v1/users?count=N).
 *
 * The warm-up is 3 s by default: the JSON → gRPC hop runs far more code per call (the RPC client's
 * pipeline, node:http2's client) at a tenth of the rate, and after 1 s its CPU per call was still
 * about twice what it settles at; 5 and 10 s gave the same as 3 within the machine's noise.
 *
 * Every case and repetition runs a fresh backend, gateway and load-generator process
 * (run-case.ts), one case at a time, the order turned each repetition so that drift on the machine
 * falls on every hop. The load generator keeps one request in flight on each of its keep-alive
 * connections and checks every reply against the expected values; the gateway and the backend
 * report their own CPU over the measured window. Reported: medians over the repetitions with the
 * ranges of the rate and the gateway's CPU per call, and that CPU's ratio between the hops.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from '../args.js';
import { hops } from './cases.js';
import { summarize, table, verdicts } from './report.js';
import { type CaseResult, type CaseSettings, runCase } from './run-case.js';
import { type GatewayWorkload, gatewayWorkloads } from './service.js';

const usage = `Usage: node build/benchmarks/gateway/main.js [--repetitions 3] [--seconds 3] [--warmup-seconds 3]
         [--users 1000] [--hops ${hops.map((hop) => hop.id).join(',')}] [--workloads ${gatewayWorkloads.join(',')}]
         [--concurrency small=8,list=2] [--json FILE] [--cpu-prof DIR]
The edge gateway's hop, JSON → gRPC (wirekit's rpcGateway calling wirekit's RPC server in Protocol
Buffers) against JSON → JSON (a Fastify route forwarding over undici to a Fastify JSON service):
requests/s, latency, the gateway's and the backend's CPU per call, each case in fresh backend,
gateway and load-generator processes, every reply checked.
--cpu-prof DIR: each gateway process writes its V8 CPU profile to DIR (WORKLOAD-HOP-REPETITION.cpuprofile).`;

const { values } = benchArgs(usage, {
  options: {
    repetitions: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '3' },
    'warmup-seconds': { type: 'string', default: '3' },
    users: { type: 'string', default: '1000' },
    hops: { type: 'string', default: hops.map((hop) => hop.id).join(',') },
    workloads: { type: 'string', default: gatewayWorkloads.join(',') },
    concurrency: { type: 'string', default: 'small=8,list=2' },
    json: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
});

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${usage}\n`);
  process.exit(2);
}

function positive(name: string, text: string): number {
  const value = Number(text);
  if (!(value > 0) || !Number.isFinite(value)) fail(`--${name} takes a positive number, got ${text}`);
  return value;
}

function listOf<T extends string>(name: string, text: string, known: readonly T[]): T[] {
  const items = text.split(',').map((item) => item.trim()) as T[];
  for (const item of items)
    if (!known.includes(item)) fail(`--${name}: unknown ${item}; known: ${known.join(', ')}`);
  return items;
}

function concurrencyOf(text: string): Record<GatewayWorkload, number> {
  const out: Record<GatewayWorkload, number> = { small: 8, list: 2 };
  for (const part of text.split(',')) {
    const [workload, count] = part.split('=');
    if (!gatewayWorkloads.includes(workload as GatewayWorkload) || count === undefined)
      fail(`--concurrency takes workload=count pairs (${gatewayWorkloads.join(', ')}), got ${part}`);
    out[workload as GatewayWorkload] = Math.round(positive('concurrency', count));
  }
  return out;
}

const chosenHops = listOf(
  'hops',
  values.hops,
  hops.map((hop) => hop.id),
);
const chosenWorkloads = listOf('workloads', values.workloads, gatewayWorkloads);
const repetitions = Math.round(positive('repetitions', values.repetitions));
const settings: CaseSettings = {
  users: Math.round(positive('users', values.users)),
  seconds: positive('seconds', values.seconds),
  warmupSeconds: positive('warmup-seconds', values['warmup-seconds']),
  concurrency: concurrencyOf(values.concurrency),
  cpuProfileDir: values['cpu-prof'],
};

const cases = hops
  .filter((entry) => chosenHops.includes(entry.id))
  .flatMap((entry) => chosenWorkloads.map((workload) => ({ entry, workload })));

const command = [
  'node',
  relative(process.cwd(), fileURLToPath(import.meta.url)),
  ...process.argv.slice(2).map((arg) => (/^[\w./,=:-]+$/.test(arg) ? arg : JSON.stringify(arg))),
].join(' ');
const loadAtStart = loadavg();
const started = performance.now();
process.stderr.write(
  `Gateway benchmark: ${cases.length} cases × ${repetitions} repetitions, ${settings.seconds} s windows\n`,
);

const results: CaseResult[] = [];
const failures: { hop: string; workload: GatewayWorkload; repetition: number; error: string }[] = [];
for (let repetition = 0; repetition < repetitions; repetition++) {
  const order = cases.map((_, i) => cases[(i + repetition) % cases.length] as (typeof cases)[number]);
  for (const { entry, workload } of order) {
    const name = `[${repetition + 1}/${repetitions}] ${workload} ${entry.id}`;
    try {
      const result = await runCase(entry, workload, repetition, settings);
      results.push(result);
      const { client } = result;
      const calls = Math.max(1, client.calls);
      process.stderr.write(
        `  ${name}: ${Math.round(client.verified / (client.wallMs / 1000)).toLocaleString('en')} calls/s, gateway ${(result.gatewayCpuUs / calls).toFixed(0)} µs CPU/call, backend ${(result.backendCpuUs / calls).toFixed(0)}, ${client.errors} errors\n`,
      );
    } catch (error) {
      process.stderr.write(`  ${name} failed: ${(error as Error).message}\n`);
      failures.push({ hop: entry.id, workload, repetition, error: (error as Error).message });
    }
  }
}

const rows = summarize(results, hops);
const load = (values: number[]) => values.map((value) => value.toFixed(1)).join(' ');
const lines = [
  command,
  `${new Date().toISOString()}, Node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), load ${load(loadAtStart)} → ${load(loadavg())}`,
  `${settings.seconds} s measured after ${settings.warmupSeconds} s of warm-up per case; list: ${settings.users.toLocaleString('en')} users; load-generator connections: ${chosenWorkloads.map((w) => `${w} ${settings.concurrency[w]}`).join(', ')}; medians of ${repetitions} repetitions (fresh backend, gateway and load-generator processes each), ranges in brackets; loopback; CPU is each process's user + system over the measured window, per call`,
  '',
];
for (const workload of chosenWorkloads) lines.push(table(rows, workload), '');
for (const workload of chosenWorkloads) lines.push(...verdicts(results, hops, workload));
for (const failure of failures)
  lines.push(
    `Failed: ${failure.workload} ${failure.hop} (repetition ${failure.repetition + 1}): ${failure.error}`,
  );
for (const row of rows.filter((candidate) => candidate.errors > 0))
  lines.push(
    `Errors: ${row.workload} ${row.hop}: ${row.errors} of ${row.calls} calls, first: ${row.firstError}`,
  );
lines.push(`Ran ${((performance.now() - started) / 1000).toFixed(0)} s.`);
process.stdout.write(`${lines.join('\n')}\n`);

if (values.json !== undefined) {
  writeFileSync(
    values.json,
    `${JSON.stringify(
      {
        command,
        date: new Date().toISOString(),
        node: process.version,
        cpus: cpus().length,
        loadAtStart,
        loadAtEnd: loadavg(),
        settings: { ...settings, repetitions, hops: chosenHops, workloads: chosenWorkloads },
        failures,
        rows,
        results,
      },
      null,
      2,
    )}\n`,
  );
}
