/**
 * What async compression buys on the event loop: every compressor, sync and async, on a cache-like
 * workload (each `products` item alone, ~6 KB of JSON; and `records` as one ~0.9 MB batch), encoded
 * with wirekit's MessagePack and with native JSON, beside what encoding and decoding cost the loop.
 *
 *   npm run build && npm run bench:compression      # node build/benchmarks/compression/main.js
 *   node build/benchmarks/compression/main.js [--processes 3] [--quick] [--json FILE] [--payloads products,records]
 *     [--items 200] [--rows 5000] [--inflight 4] [--budget-ms 80] [--stream-ms 250] [compressor …]
 *
 * Each case (payload × compressor) runs in fresh processes, one at a time (on 2 cores, two cases
 * side by side would time each other), with both encodings and both modes measured in the same
 * process; the mode that goes first alternates between processes. Reported: medians over processes
 * of per-process medians, with the range across processes. See worker.ts for what is measured.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { median } from 'wirekit-ts/lab';
import { benchArgs } from '../args.js';
import {
  type BenchCompressor,
  benchCompressors,
  type CaseResult,
  type CaseSpec,
  type Encoding,
  type EncodingResult,
  encodings,
  type ModeResult,
  modes,
  type PayloadName,
  payloadNames,
  type StreamResult,
} from './worker.js';

const run = promisify(execFile);
const worker = fileURLToPath(new URL('./worker.js', import.meta.url));

const usage = `Usage: node build/benchmarks/compression/main.js [--processes 3] [--quick] [--json FILE]
         [--payloads products,records] [--items 200] [--rows 5000] [--inflight 4] [--budget-ms 80]
         [--stream-ms 250] [compressor …]
Sync vs async compression on the event loop, every compressor, each case in fresh processes.`;

const { values, positionals } = benchArgs(usage, {
  options: {
    processes: { type: 'string', default: '3' },
    quick: { type: 'boolean', default: false },
    json: { type: 'string' },
    payloads: { type: 'string', default: payloadNames.join(',') },
    items: { type: 'string' },
    rows: { type: 'string', default: '5000' },
    inflight: { type: 'string', default: '4' },
    'budget-ms': { type: 'string' },
    'stream-ms': { type: 'string' },
  },
  allowPositionals: true,
});

function positiveInt(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} takes a positive integer, got ${text}`);
  return value;
}

const quick = values.quick;
const processes = positiveInt('processes', values.processes);
const items = positiveInt('items', values.items ?? (quick ? '50' : '200'));
const rows = positiveInt('rows', values.rows);
const inflight = positiveInt('inflight', values.inflight);
const budgetMs = positiveInt('budget-ms', values['budget-ms'] ?? (quick ? '25' : '80'));
const streamMs = positiveInt('stream-ms', values['stream-ms'] ?? (quick ? '80' : '250'));
const payloads = values.payloads.split(',').map((name) => {
  if (!(payloadNames as readonly string[]).includes(name))
    throw new Error(`unknown payload ${name}; known: ${payloadNames.join(', ')}`);
  return name as PayloadName;
});
const compressors = (positionals.length > 0 ? positionals : [...benchCompressors]).map((name) => {
  if (!(benchCompressors as readonly string[]).includes(name))
    throw new Error(`unknown compressor ${name}; known: ${benchCompressors.join(', ')}`);
  return name as BenchCompressor;
});

const command = [
  'node',
  relative(process.cwd(), fileURLToPath(import.meta.url)),
  ...process.argv.slice(2).map((arg) => (/^[\w./,=-]+$/.test(arg) ? arg : JSON.stringify(arg))),
].join(' ');
const loadAtStart = loadavg();
const started = performance.now();

const results: CaseResult[] = [];
const total = payloads.length * compressors.length * processes;
for (const payload of payloads) {
  for (const compressor of compressors) {
    for (let p = 0; p < processes; p++) {
      const spec: CaseSpec = {
        payload,
        compressor,
        count: payload === 'products' ? items : rows,
        seed: 1,
        budgetMs,
        streamMs,
        minOps: 5,
        inflight,
        asyncFirst: p % 2 === 1,
      };
      const { stdout } = await run(process.execPath, [worker, JSON.stringify(spec)], {
        encoding: 'utf8',
        maxBuffer: 16 * 1024 * 1024,
      });
      results.push(JSON.parse(stdout.trim().split('\n').pop() as string) as CaseResult);
      process.stderr.write(`${results.length}/${total} ${payload} ${compressor} (process ${p + 1})\n`);
    }
  }
}
const seconds = (performance.now() - started) / 1e3;
const loadAtEnd = loadavg();

// ---- summary ------------------------------------------------------------------------------------

interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

function spread(xs: readonly number[]): Spread {
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
}

interface SummaryRow {
  readonly payload: PayloadName;
  readonly encoding: Encoding;
  readonly label: string;
  /** A compressor, or 'none' for the codec alone. */
  readonly compressor: BenchCompressor | 'none';
  readonly mode: 'sync' | 'async';
  readonly bytes: number;
  readonly compressedBytes: number;
  readonly compressUs: Spread;
  readonly decompressUs: Spread;
  readonly encodeUs: Spread;
  readonly decodeUs: Spread;
  /** (compress + decompress) / (encode + compress + decompress + decode), on the loop, per process. */
  readonly compressionShare: Spread;
  readonly loopP99Ms: Spread;
  /** The loop's busy time per round trip while the stream ran: utilization / throughput, in µs. */
  readonly loopBusyUs: Spread;
  readonly opsPerSec: Spread;
  readonly mbPerSec: Spread;
  readonly processes: number;
}

function busyUs(stream: StreamResult): number {
  return (stream.utilization * 1e6) / stream.opsPerSec;
}

function encodingOf(result: CaseResult, encoding: Encoding): EncodingResult {
  return result.results.find((r) => r.encoding === encoding) as EncodingResult;
}

const summary: SummaryRow[] = [];
for (const payload of payloads) {
  const ofPayload = results.filter((r) => r.spec.payload === payload);
  for (const encoding of encodings) {
    const all = ofPayload.map((r) => encodingOf(r, encoding));
    const first = all[0] as EncodingResult;
    const zero = spread([0]);
    summary.push({
      payload,
      encoding,
      label: first.label,
      compressor: 'none',
      mode: 'sync',
      bytes: first.bytes,
      compressedBytes: first.bytes,
      compressUs: zero,
      decompressUs: zero,
      encodeUs: spread(all.map((r) => r.encodeUs)),
      decodeUs: spread(all.map((r) => r.decodeUs)),
      compressionShare: zero,
      loopP99Ms: spread(all.map((r) => r.codecStream.loopP99Ms)),
      loopBusyUs: spread(all.map((r) => busyUs(r.codecStream))),
      opsPerSec: spread(all.map((r) => r.codecStream.opsPerSec)),
      mbPerSec: spread(all.map((r) => r.codecStream.mbPerSec)),
      processes: all.length,
    });
    for (const compressor of compressors) {
      const runs = ofPayload
        .filter((r) => r.spec.compressor === compressor)
        .map((r) => encodingOf(r, encoding));
      for (const mode of modes) {
        const m = (r: EncodingResult): ModeResult => r[mode];
        summary.push({
          payload,
          encoding,
          label: first.label,
          compressor,
          mode,
          bytes: first.bytes,
          compressedBytes: (runs[0] as EncodingResult).compressedBytes,
          compressUs: spread(runs.map((r) => m(r).compressUs)),
          decompressUs: spread(runs.map((r) => m(r).decompressUs)),
          encodeUs: spread(runs.map((r) => r.encodeUs)),
          decodeUs: spread(runs.map((r) => r.decodeUs)),
          compressionShare: spread(
            runs.map((r) => {
              const compression = m(r).compressUs + m(r).decompressUs;
              return compression / (compression + r.encodeUs + r.decodeUs);
            }),
          ),
          loopP99Ms: spread(runs.map((r) => m(r).stream.loopP99Ms)),
          loopBusyUs: spread(runs.map((r) => busyUs(m(r).stream))),
          opsPerSec: spread(runs.map((r) => m(r).stream.opsPerSec)),
          mbPerSec: spread(runs.map((r) => m(r).stream.mbPerSec)),
          processes: runs.length,
        });
      }
    }
  }
}

// ---- table --------------------------------------------------------------------------------------

/** µs below 1 ms, else ms; a range is written in the unit of its median. */
function time(us: number, unit: 'µs' | 'ms' = us < 1000 ? 'µs' : 'ms'): string {
  if (unit === 'ms') return `${(us / 1000).toFixed(us < 10_000 ? 2 : 1)} ms`;
  return `${us < 10 ? us.toFixed(1) : Math.round(us)} µs`;
}

function timeSpread(s: Spread): string {
  const unit = s.median < 1000 ? 'µs' : 'ms';
  const bare = (us: number) => time(us, unit).replace(/ [µm]s$/, '');
  return `${time(s.median)} (${bare(s.min)}-${bare(s.max)})`;
}

/** Two significant digits below 10 %, so that a small share never reads as 0. */
function percent(share: number): string {
  const p = share * 100;
  return `${p < 1 ? p.toFixed(2) : p < 10 ? p.toFixed(1) : Math.round(p)} %`;
}

function count(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en') : n.toFixed(1);
}

function bytes(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(1)} KB` : `${Math.round(n).toLocaleString('en')} B`;
}

const header =
  '| encoding | compression | mode | bytes | compress, loop blocked | decompress, loop blocked | ' +
  'codec encode / decode | compression share of loop time | loop p99 under load (range) | ' +
  'loop busy per round trip under load | round trips/s | MB/s |';
const rule = '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|';

const lines: string[] = [];
const idle = spread(results.map((r) => r.idleLoopP99Ms));
lines.push(`command: ${command}`);
lines.push('');
lines.push(
  `node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, libuv pool ` +
    `${results[0]?.threadPoolSize ?? 4} threads, ${new Date().toISOString()}; ${processes} process(es) per ` +
    `payload × compressor, ${budgetMs} ms per blocked-time measurement, ${streamMs} ms per stream, ` +
    `${inflight} async round trips in flight; ${seconds.toFixed(0)} s in all. Load average ` +
    `${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ${loadAtEnd.map((l) => l.toFixed(2)).join(' ')} at end. ` +
    `Idle loop p99 (the histogram's floor): ${idle.median.toFixed(2)} ms (${idle.min.toFixed(2)}-${idle.max.toFixed(2)}).`,
);
for (const payload of payloads) {
  const rowsOf = summary.filter((row) => row.payload === payload);
  const sizes = rowsOf
    .filter((row) => row.compressor === 'none')
    .map((row) => `${row.label} ${bytes(row.bytes)}`)
    .join(', ');
  lines.push('');
  lines.push(
    payload === 'products'
      ? `products: one item per operation (${items} items cycled); ${sizes}`
      : `records: ${rows.toLocaleString('en')} rows as one payload; ${sizes}`,
  );
  lines.push('');
  lines.push(header);
  lines.push(rule);
  for (const row of rowsOf) {
    const codecOnly = row.compressor === 'none';
    lines.push(
      `| ${row.label} | ${codecOnly ? '(codec only)' : row.compressor} | ${row.mode} | ` +
        `${bytes(codecOnly ? row.bytes : row.compressedBytes)} | ` +
        `${codecOnly ? '–' : timeSpread(row.compressUs)} | ${codecOnly ? '–' : timeSpread(row.decompressUs)} | ` +
        `${time(row.encodeUs.median)} / ${time(row.decodeUs.median)} | ` +
        `${codecOnly ? '–' : percent(row.compressionShare.median)} | ` +
        `${row.loopP99Ms.median.toFixed(2)} ms (${row.loopP99Ms.min.toFixed(2)}-${row.loopP99Ms.max.toFixed(2)}) | ` +
        `${time(row.loopBusyUs.median)} | ` +
        `${count(row.opsPerSec.median)} | ${row.mbPerSec.median.toFixed(1)} |`,
    );
  }
}
lines.push('');
lines.push(
  'Blocked: median time the event loop could run nothing else, per operation (sync: the call; async: ' +
    'the call until its promise returns plus the completion callback and promise jobs, one in flight). ' +
    'Codec encode / decode: the same payload through the codec, on the loop. Share: (compress + decompress) / ' +
    '(encode + compress + decompress + decode). Loop p99: a 1 ms monitorEventLoopDelay histogram while round ' +
    `trips (compress, then decompress) run: sync back to back with a setImmediate yield, async ${inflight} in ` +
    'flight; "(codec only)" rows stream encode + decode instead. Loop busy: the loop\'s utilization during ' +
    "that stream divided by its throughput. Round trips/s and MB/s (uncompressed): that stream's throughput.",
);
process.stdout.write(`${lines.join('\n')}\n`);

if (values.json !== undefined) {
  writeFileSync(
    values.json,
    `${JSON.stringify(
      {
        command,
        date: new Date().toISOString(),
        node: process.version,
        machine: { cpus: cpus().length, model: cpus()[0]?.model.trim(), loadAtStart, loadAtEnd },
        options: { processes, quick, items, rows, inflight, budgetMs, streamMs, payloads, compressors },
        seconds,
        summary,
        results,
      },
      null,
      2,
    )}\n`,
  );
}
