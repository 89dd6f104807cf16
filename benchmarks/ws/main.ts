/**
 * The WebSocket benchmark (issue 17): one server, 1 / 100 / 1,000 raw `ws` clients on loopback,
 * the price tick broadcast at fixed rates, in JSON and each binary format (compiled codecs, as the
 * plugin creates them), and JSON.stringify through @fastify/websocket alone as the floor beneath.
 *
 *   npm run build && npm run bench:ws [-- --quick] [--clients 1,100,1000] [--formats native,json,...]
 *     [--duration 1] [--repeats 3] [--rate 100] [--ramp-from 10000] [--max-steps 7]
 *     [--max-loop-ms 20] [--json FILE]
 *
 * Every case (format × client count × repeat) runs in a fresh server process, measured from the
 * inside (case.ts), with the clients in a process of their own; repeats are interleaved (each
 * repeat runs every case once) so a machine that drifts touches every format alike. Reported:
 * medians of bytes per message, server CPU µs per message sent and event-loop p99 at the fixed
 * rate, the highest rate held and the CPU per message there, and each ratio to JSON.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { socketFormats } from 'wirekit-ts/ws';
import { benchArgs } from '../args.js';
import { type CaseResult, type CaseSettings, runCase } from './case.js';
import type { BenchFormat } from './protocol.js';
import { savings, summarize, table } from './report.js';

const allFormats: readonly BenchFormat[] = ['native', ...socketFormats];

const usage = `Usage: node build/benchmarks/ws/main.js [--quick] [--clients 1,100,1000] [--formats ${allFormats.join(',')}]
         [--duration 1] [--repeats 3] [--rate 100] [--ramp-from 10000] [--max-steps 7]
         [--max-loop-ms 20] [--json FILE]
The price tick broadcast over WebSockets: bytes, server CPU per message, loop delay and the highest
rate held per format, each case in a fresh server process. --quick: clients 1,100, one repeat,
0.5 s windows (flags given still win).`;

const { values } = benchArgs(usage, {
  options: {
    quick: { type: 'boolean', default: false },
    clients: { type: 'string' },
    formats: { type: 'string', default: allFormats.join(',') },
    duration: { type: 'string' },
    repeats: { type: 'string' },
    rate: { type: 'string', default: '100' },
    'ramp-from': { type: 'string', default: '10000' },
    'max-steps': { type: 'string', default: '7' },
    'max-loop-ms': { type: 'string', default: '20' },
    json: { type: 'string' },
  },
});

const quick = values.quick;
const clientCounts = (values.clients ?? (quick ? '1,100' : '1,100,1000')).split(',').map(Number);
const formats = values.formats.split(',') as BenchFormat[];
for (const format of formats) {
  if (!allFormats.includes(format)) {
    process.stderr.write(`unknown format '${format}'\n\n${usage}\n`);
    process.exit(2);
  }
}
const repeats = Number(values.repeats ?? (quick ? 1 : 3));
const settings: CaseSettings = {
  fixedRate: Number(values.rate),
  duration: Number(values.duration ?? (quick ? 0.5 : 1)),
  rampFrom: Number(values['ramp-from']),
  maxSteps: Number(values['max-steps']),
  maxLoopMs: Number(values['max-loop-ms']),
};

/**
 * The open-file limit a process here gets. Node raises its soft limit to the hard one at startup,
 * so the hard limit is what counts; each process holds one descriptor per socket plus a few dozen.
 */
function fileLimit(): number {
  try {
    const text = execFileSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).trim();
    return text === 'unlimited' ? Number.POSITIVE_INFINITY : Number(text);
  } catch {
    return Number.NaN;
  }
}
const limit = fileLimit();
const runnable = clientCounts.filter((count) => !(count + 64 > limit));
const skipped = clientCounts.filter((count) => !runnable.includes(count));
for (const count of skipped) {
  process.stderr.write(
    `skipping ${count} clients: the open-file limit is ${limit} (raise it with ulimit -n ${count + 256})\n`,
  );
}

const started = performance.now();
process.stderr.write(
  `WebSocket benchmark: ${formats.join(', ')} × ${runnable.join(', ')} clients × ${repeats} repeats, ${settings.duration} s windows (open-file limit ${limit})\n`,
);
const cases: CaseResult[] = [];
for (let repeat = 0; repeat < repeats; repeat++) {
  for (const clients of runnable) {
    for (const format of formats) {
      const result = await runCase(format, clients, settings);
      cases.push(result);
      const max = result.maxHeld?.offeredPerSecond ?? 0;
      process.stderr.write(
        `  [${repeat + 1}/${repeats}] ${clients} × ${format}: ${result.fixed.bytesPerMessage.toFixed(1)} B, ${result.fixed.cpuUsPerMessage.toFixed(1)} µs/msg, held ${max.toLocaleString('en')} msgs/s${result.firstFailed ? ` (then ${result.firstFailed.reason})` : ''}\n`,
      );
    }
  }
}

const rows = summarize(cases);
const saved = savings(rows);
const percent = (share: number | undefined) => (share === undefined ? '–' : `${(share * 100).toFixed(0)} %`);
const lines = [
  `node ${process.version}, ${cpus().length} cores, ${new Date().toISOString()}, ${settings.duration} s windows, median of ${repeats} fresh server processes, loopback`,
  '',
  table(rows, settings.fixedRate),
  '',
  `Bytes saved per tick vs JSON: ${Object.entries(saved)
    .map(([format, share]) => `${format} ${percent(share)}`)
    .join(', ')} (the field report: MessagePack cut payload size by 38 %).`,
  `Ran ${((performance.now() - started) / 1000).toFixed(0)} s.`,
];
if (skipped.length > 0)
  lines.push(`Skipped for the open-file limit (${limit}): ${skipped.join(', ')} clients.`);
process.stdout.write(`${lines.join('\n')}\n`);

if (values.json !== undefined) {
  writeFileSync(
    values.json,
    `${JSON.stringify(
      {
        node: process.version,
        cores: cpus().length,
        date: new Date().toISOString(),
        fileLimit: limit,
        settings: { ...settings, repeats, clients: runnable, formats },
        skippedClients: skipped,
        rows,
        savingsVsJson: saved,
        cases,
      },
      null,
      2,
    )}\n`,
  );
}
