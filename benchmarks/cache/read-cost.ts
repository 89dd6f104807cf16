/**
 * What a cache read costs Redis and the reading process, as the cache reads (with its size limit,
 * so that no value past it is sent) and as a plain MGET would: per read, the microseconds Redis
 * spent executing its commands (INFO commandstats), Redis's whole CPU time (INFO cpu: parsing,
 * replies, syscalls), the read's latency and the client's CPU time.
 *
 *   npm run build && npm run bench:cache-read        # node build/benchmarks/cache/read-cost.js
 *   node build/benchmarks/cache/read-cost.js [--processes 5] [--reads 2000] [--cases 1x1024,1x6144,20x6144,100x1024]
 *     [--read bounded,mget] [--json FILE]
 *
 * A case is KEYSxBYTES: `get` of one key, or `getMany` of KEYS keys, each holding about BYTES bytes.
 * It starts its own redis-server on a free loopback port (no persistence) and stops it at the end.
 * Each case × read runs in a fresh process, one at a time, the order of the two reads alternating
 * between processes. Reported: medians over processes, with the range across processes.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { median } from 'wirekit-ts/lab';
import { startRedis } from '../../test/support/servers/redis-server.js';
import { benchArgs } from '../args.js';
import type { ReadCostResult, ReadCostSpec, ReadMechanism } from './read-cost-worker.js';

const run = promisify(execFile);
const worker = fileURLToPath(new URL('./read-cost-worker.js', import.meta.url));
const mechanisms: readonly ReadMechanism[] = ['bounded', 'mget'];

const usage = `Usage: node build/benchmarks/cache/read-cost.js [--processes 5] [--reads 2000]
         [--cases 1x1024,1x6144,20x6144,100x1024] [--read bounded,mget] [--json FILE]
What a cache read costs Redis and the client: the cache's bounded read against a plain MGET,
per case (KEYSxBYTES: a get of one key, or a getMany of KEYS keys of ~BYTES bytes), in fresh processes.`;

const { values } = benchArgs(usage, {
  options: {
    processes: { type: 'string', default: '5' },
    reads: { type: 'string', default: '2000' },
    cases: { type: 'string', default: '1x1024,1x6144,20x6144,100x1024' },
    read: { type: 'string', default: mechanisms.join(',') },
    json: { type: 'string' },
  },
});

function positive(name: string, text: string): number {
  const number = Number(text);
  if (!Number.isInteger(number) || number < 1) {
    process.stderr.write(`--${name} takes a whole number ≥ 1, not ${JSON.stringify(text)}\n\n${usage}\n`);
    process.exit(2);
  }
  return number;
}

const processes = positive('processes', values.processes);
const reads = positive('reads', values.reads);
const cases = values.cases.split(',').map((text) => {
  const [keys, bytes] = text.split('x');
  return { keys: positive('cases', keys ?? ''), bytes: positive('cases', bytes ?? '') };
});
const reading = values.read.split(',').map((name) => {
  if (!mechanisms.includes(name as ReadMechanism)) {
    process.stderr.write(`--read takes ${mechanisms.join(', ')}, not ${JSON.stringify(name)}\n\n${usage}\n`);
    process.exit(2);
  }
  return name as ReadMechanism;
});

const load = loadavg();
const redis = await startRedis();
const results: ReadCostResult[] = [];
try {
  for (let p = 0; p < processes; p++) {
    for (const { keys, bytes } of cases) {
      const order = p % 2 === 0 ? reading : [...reading].reverse();
      for (const read of order) {
        const spec: ReadCostSpec = { redisUrl: redis.url, keys, bytes, reads, read };
        const { stdout } = await run(process.execPath, [worker, '--worker', JSON.stringify(spec)], {
          maxBuffer: 1024 * 1024,
        });
        results.push(JSON.parse(stdout) as ReadCostResult);
      }
    }
  }
} finally {
  await redis.stop();
}

const micros = (value: number) => (value >= 100 ? value.toFixed(0) : value.toPrecision(2));
const spread = (values: readonly number[]) =>
  `${micros(median(values))} (${micros(Math.min(...values))}-${micros(Math.max(...values))})`;
const labels: Record<ReadMechanism, string> = {
  bounded: "the cache's read (size-limited)",
  mget: 'MGET (no limit)',
};

const command = [
  'node',
  relative(process.cwd(), fileURLToPath(import.meta.url)),
  ...process.argv.slice(2).map((arg) => (/^[\w./,=:-]+$/.test(arg) ? arg : JSON.stringify(arg))),
].join(' ');
const lines = [
  `command: ${command}`,
  '',
  `node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${new Date().toISOString()} (the end); ` +
    `${processes} process(es) per row, ${reads} reads each, one after another; load average ${load.map((l) => l.toFixed(2)).join(' ')} at start`,
  '',
  '| case | read | commands per read | Redis µs per read (commandstats) | Redis CPU µs per read | latency µs | client CPU µs per read |',
  '|---|---|---|---:|---:|---:|---:|',
];
for (const { keys, bytes } of cases) {
  for (const read of reading) {
    const rows = results.filter(
      (result) => result.spec.keys === keys && result.spec.bytes === bytes && result.spec.read === read,
    );
    const first = rows[0] as ReadCostResult;
    const commands = Object.entries(first.commands)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, calls]) => `${name} ${calls}`)
      .join(', ');
    lines.push(
      `| ${keys} × ${first.storedBytes} B | ${labels[read]} | ${commands} | ` +
        `${spread(rows.map((row) => row.redisMicros))} | ${spread(rows.map((row) => row.redisCpuMicros))} | ` +
        `${spread(rows.map((row) => row.latencyMicros))} | ${spread(rows.map((row) => row.clientCpuMicros))} |`,
    );
  }
}
process.stdout.write(`${lines.join('\n')}\n`);
if (values.json !== undefined) writeFileSync(values.json, JSON.stringify({ command, results }, null, 2));
