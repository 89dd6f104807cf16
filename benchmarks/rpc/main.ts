/**
 * The RPC benchmark (issue 34, "Measured"): the same service on the Node stacks a team would pick,
 * and on wirekit's, under the same load generator.
 *
 *   npm run build && npm run bench:rpc     # node build/benchmarks/rpc/main.js
 *   node build/benchmarks/rpc/main.js [--repetitions 3] [--seconds 3] [--warmup-seconds 1]
 *     [--users 10000] [--cases grpcjs-static,connect-es-grpc,...] [--workloads small,list,stream]
 *     [--concurrency small=16,list=4,stream=2] [--json FILE] [--cpu-prof DIR]
 *
 * Workloads: a small unary call (one user by id), the seed's users as one unary reply, and the same
 * users as a server stream of one message each. Cases (cases.ts): grpc-js + protobufjs static code
 * (the common Node stack, the baseline of the ratios), Connect-ES + protobuf-es over gRPC and
 * Connect, plain Fastify JSON over HTTP/1.1 (the edge's baseline), wirekit's codecs as grpc-js's
 * serializers (Protocol Buffers and MessagePack), and wirekit's own server over gRPC and Connect
 * (left out, with the reason, when `wirekit-ts/rpc/server` is not in the build).
 *
 * Every case and repetition runs a fresh server process and a fresh client process (run-case.ts),
 * one case at a time, the order turned each repetition so that drift on the machine falls on all
 * cases. The client keeps a fixed number of calls in flight on one connection and checks every reply
 * against the expected values (check.ts); the server reports its own CPU over the measured window,
 * then times its serializer alone in the same process. Reported: medians over the repetitions, the
 * rate's range, and ratios to grpc-js + protobufjs and to Connect-ES on the same protocol.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from '../args.js';
import { entries, type StackEntry } from './cases.js';
import { summarize, table } from './report.js';
import { type CaseResult, type CaseSettings, runCase } from './run-case.js';
import { type Workload, workloads } from './service.js';
import { loadWirekitServer } from './stacks/wirekit-server.js';
import { generateStaticCode } from './static-code.js';

const usage = `Usage: node build/benchmarks/rpc/main.js [--repetitions 3] [--seconds 3] [--warmup-seconds 1]
         [--users 10000] [--cases ${entries.map((entry) => entry.id).join(',')}]
         [--workloads ${workloads.join(',')}] [--concurrency small=16,list=4,stream=2] [--json FILE]
         [--cpu-prof DIR]
The bench service (one user by id; the users as one reply; the users as a server stream) on
grpc-js + protobufjs static code, Connect-ES + protobuf-es (gRPC and Connect), plain Fastify JSON,
wirekit's codecs on grpc-js and wirekit's own server: requests/s, latency, server CPU per call and
streamed messages/s, each case in a fresh server and client process, every reply checked.
--cpu-prof DIR: each server process writes its V8 CPU profile to DIR (WORKLOAD-CASE-REPETITION.cpuprofile).`;

const { values } = benchArgs(usage, {
  options: {
    repetitions: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '3' },
    'warmup-seconds': { type: 'string', default: '1' },
    users: { type: 'string', default: '10000' },
    cases: { type: 'string', default: entries.map((entry) => entry.id).join(',') },
    workloads: { type: 'string', default: workloads.join(',') },
    concurrency: { type: 'string', default: 'small=16,list=4,stream=2' },
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

function concurrencyOf(text: string): Record<Workload, number> {
  const out: Record<Workload, number> = { small: 16, list: 4, stream: 2 };
  for (const part of text.split(',')) {
    const [workload, count] = part.split('=');
    if (!workloads.includes(workload as Workload) || count === undefined)
      fail(`--concurrency takes workload=count pairs (${workloads.join(', ')}), got ${part}`);
    out[workload as Workload] = Math.round(positive('concurrency', count));
  }
  return out;
}

const chosenIds = listOf(
  'cases',
  values.cases,
  entries.map((entry) => entry.id),
);
const chosenWorkloads = listOf('workloads', values.workloads, workloads);
const repetitions = Math.round(positive('repetitions', values.repetitions));
const settings: CaseSettings = {
  users: Math.round(positive('users', values.users)),
  seconds: positive('seconds', values.seconds),
  warmupSeconds: positive('warmup-seconds', values['warmup-seconds']),
  concurrency: concurrencyOf(values.concurrency),
  serializeMs: 300,
  cpuProfileDir: values['cpu-prof'],
};

const chosen = entries.filter((entry) => chosenIds.includes(entry.id));
const leftOut: { readonly entry: StackEntry; readonly reason: string }[] = [];
if (chosen.some((entry) => entry.stack === 'wirekit')) {
  const loaded = await loadWirekitServer();
  if (typeof loaded === 'string') {
    for (const entry of chosen.filter((candidate) => candidate.stack === 'wirekit'))
      leftOut.push({ entry, reason: loaded });
  }
}
const runnable = chosen.filter((entry) => !leftOut.some((out) => out.entry === entry));
if (runnable.some((entry) => entry.stack === 'grpcjs-static')) generateStaticCode();
const cases = runnable.flatMap((entry) =>
  chosenWorkloads
    .filter((workload) => entry.workloads.includes(workload))
    .map((workload) => ({ entry, workload })),
);

const command = [
  'node',
  relative(process.cwd(), fileURLToPath(import.meta.url)),
  ...process.argv.slice(2).map((arg) => (/^[\w./,=:-]+$/.test(arg) ? arg : JSON.stringify(arg))),
].join(' ');
const loadAtStart = loadavg();
const started = performance.now();
process.stderr.write(
  `RPC benchmark: ${cases.length} cases × ${repetitions} repetitions, ${settings.seconds} s windows, ${settings.users.toLocaleString('en')} users\n`,
);
for (const { entry, reason } of leftOut) process.stderr.write(`  left out ${entry.id}: ${reason}\n`);

const results: CaseResult[] = [];
const failures: { id: string; workload: Workload; repetition: number; error: string }[] = [];
for (let repetition = 0; repetition < repetitions; repetition++) {
  const order = cases.map((_, i) => cases[(i + repetition) % cases.length] as (typeof cases)[number]);
  for (const { entry, workload } of order) {
    try {
      const result = await runCase(entry, workload, repetition, settings);
      results.push(result);
      const { client } = result;
      const rate =
        workload === 'stream'
          ? client.messages / (client.wallMs / 1000)
          : client.verified / (client.wallMs / 1000);
      process.stderr.write(
        `  [${repetition + 1}/${repetitions}] ${workload} ${entry.id}: ${Math.round(rate).toLocaleString('en')} ${workload === 'stream' ? 'messages' : 'calls'}/s, server ${(result.serverCpuUs / Math.max(1, client.calls)).toFixed(0)} µs CPU/call, ${client.errors} errors\n`,
      );
    } catch (error) {
      process.stderr.write(
        `  [${repetition + 1}/${repetitions}] ${workload} ${entry.id} failed: ${(error as Error).message}\n`,
      );
      failures.push({ id: entry.id, workload, repetition, error: (error as Error).message });
    }
  }
}

const rows = summarize(results, entries);
const load = (values: number[]) => values.map((value) => value.toFixed(1)).join(' ');
const lines = [
  command,
  `${new Date().toISOString()}, Node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), load ${load(loadAtStart)} → ${load(loadavg())}`,
  `${settings.users.toLocaleString('en')} users; ${settings.seconds} s measured after ${settings.warmupSeconds} s of warm-up per case; in flight: ${chosenWorkloads.map((w) => `${w} ${settings.concurrency[w]}`).join(', ')}; medians of ${repetitions} repetitions (fresh server and client processes each), rate ranges in brackets; loopback`,
  '',
];
for (const workload of chosenWorkloads) lines.push(table(rows, workload), '');
for (const { entry, reason } of leftOut)
  lines.push(`Left out: ${entry.label}, ${entry.protocol} ${entry.codec} (${entry.id}): ${reason}.`);
for (const failure of failures)
  lines.push(
    `Failed: ${failure.workload} ${failure.id} (repetition ${failure.repetition + 1}): ${failure.error}`,
  );
for (const row of rows.filter((candidate) => candidate.errors > 0))
  lines.push(
    `Errors: ${row.workload} ${row.id}: ${row.errors} of ${row.calls} calls, first: ${row.firstError}`,
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
        settings: { ...settings, repetitions, cases: chosenIds, workloads: chosenWorkloads },
        leftOut: leftOut.map(({ entry, reason }) => ({ id: entry.id, reason })),
        failures,
        rows,
        results,
      },
      null,
      2,
    )}\n`,
  );
}
