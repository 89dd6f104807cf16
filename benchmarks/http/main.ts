/**
 * The HTTP load benchmark: the wirekit Fastify plugin on loopback, driven by autocannon.
 *
 *   npm run build && node build/benchmarks/http/main.js [--duration 5] [--connections 16]
 *     [--users 100,10000] [--rows 1000000] [--repeats 3] [--formats json,msgpack,...] [--json FILE]
 *
 * 1. Requests/s and latency p50/p99 per format for the `users` payload (each size in --users),
 *    after a 1 s warm-up, with autocannon in this process and the server in a child process.
 * 2. A streamed `timeseries` of --rows rows per client kind: JSON (one array, parsed whole with
 *    response.json()), NDJSON and Arrow rows through the wirekit client, and Arrow record batches
 *    (columns, no row objects). Reported: time to first byte, total time, rows/s, and the peak heap
 *    and RSS of the server (sampled in the server) and of this client process while it reads.
 *    Medians over --repeats runs, each against a fresh server process.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { arrowFormat } from 'wirekit-ts/arrow';
import { createCodec, type FormatName, formatNames } from 'wirekit-ts/codecs';
import { createClient } from 'wirekit-ts/http/client';
import { jsonFormat } from 'wirekit-ts/json';
import { median, Reading, User } from 'wirekit-ts/lab';
import { t } from 'wirekit-ts/schema';
import { benchArgs } from '../args.js';

const usage = `Usage: node build/benchmarks/http/main.js [--duration 5] [--connections 16] [--users 100,10000]
         [--rows 1000000] [--repeats 3] [--formats json,msgpack,...] [--json FILE]
Requests/s and latency per format through the Fastify plugin, then a streamed timeseries.`;

const { values } = benchArgs(usage, {
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    users: { type: 'string', default: '100,10000' },
    rows: { type: 'string', default: '1000000' },
    repeats: { type: 'string', default: '3' },
    formats: { type: 'string', default: formatNames.join(',') },
    json: { type: 'string' },
  },
});
const formats = values.formats.split(',') as FormatName[];
const sizes = values.users.split(',').map(Number);
const rows = Number(values.rows);

interface Server {
  readonly url: string;
  readonly child: ChildProcess;
}

function startServer(): Promise<Server> {
  const script = fileURLToPath(new URL('./server.js', import.meta.url));
  const child = spawn(process.execPath, [script, '--users', values.users], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the benchmark server exited with ${code}`)));
    child.stdout?.on('data', (data: Buffer) => {
      const match = /listening (\d+)/.exec(data.toString());
      if (match) resolve({ url: `http://127.0.0.1:${match[1]}`, child });
    });
  });
}

async function stop(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

/** What a client sends as Accept for a list of users in `format` (record-rooted: its sequence). */
function acceptFor(format: FormatName): string {
  const schema =
    format === 'protobuf' || format === 'avro' || format === 'flatbuffers' || format === 'arrow'
      ? User
      : t.array(User);
  const codec = createCodec(format, { schema });
  return format === 'arrow' ? codec.mediaType : schema === User ? codec.streamMediaType : codec.mediaType;
}

interface LoadRow {
  readonly format: FormatName;
  readonly users: number;
  readonly bytes: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly errors: number;
}

async function load(server: Server): Promise<LoadRow[]> {
  const out: LoadRow[] = [];
  for (const size of sizes) {
    for (const format of formats) {
      const url = `${server.url}/users?count=${size}`;
      const headers = { accept: acceptFor(format) };
      const bytes = (await (await fetch(url, { headers })).arrayBuffer()).byteLength;
      await autocannon({ url, headers, connections: Number(values.connections), duration: 1 });
      const result = await autocannon({
        url,
        headers,
        connections: Number(values.connections),
        duration: Number(values.duration),
      });
      const row: LoadRow = {
        format,
        users: size,
        bytes,
        requestsPerSecond: result.requests.average,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        errors: result.errors + result.non2xx,
      };
      process.stderr.write(`  users ${size} ${format}: ${row.requestsPerSecond.toFixed(0)} req/s\n`);
      out.push(row);
    }
  }
  return out;
}

type StreamKind = 'json (array)' | 'ndjson' | 'arrow (rows)' | 'arrow (batches)';
const streamKinds: readonly StreamKind[] = ['json (array)', 'ndjson', 'arrow (rows)', 'arrow (batches)'];

interface StreamRow {
  readonly kind: StreamKind;
  readonly rows: number;
  readonly bytes: number;
  readonly ttfbMs: number;
  readonly totalMs: number;
  readonly rowsPerSecond: number;
  readonly serverPeakHeapMb: number;
  readonly serverPeakRssMb: number;
  readonly clientPeakHeapMb: number;
}

/** One streamed read, end to end: rows reach this process as values (or batches). */
async function readStream(
  url: string,
  kind: StreamKind,
): Promise<Omit<StreamRow, 'serverPeakHeapMb' | 'serverPeakRssMb' | 'rowsPerSecond'>> {
  let clientPeak = 0;
  const timer = setInterval(() => {
    clientPeak = Math.max(clientPeak, process.memoryUsage().heapUsed);
  }, 10);
  const started = performance.now();
  let ttfb = 0;
  let count = 0;
  let bytes = 0;
  // Counts bytes and marks the first one, for every kind alike.
  const countingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (response.body === null) return response;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (bytes === 0) ttfb = performance.now() - started;
          bytes += chunk.length;
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: response.status, headers: response.headers });
  };
  try {
    if (kind === 'json (array)') {
      const response = await countingFetch(`${url}/timeseries?rows=${rows}`, {
        headers: { accept: 'application/json' },
      });
      const parsed = (await response.json()) as unknown[];
      count = parsed.length;
    } else {
      const client = createClient({
        baseUrl: url,
        format: kind === 'ndjson' ? 'json' : 'arrow',
        codecs: [jsonFormat, arrowFormat],
        fetch: countingFetch,
      });
      if (kind === 'arrow (batches)') {
        for await (const batch of client.batches('/timeseries', { row: Reading, query: { rows } }))
          count += batch.numRows;
      } else {
        for await (const _row of client.stream('/timeseries', { row: Reading, query: { rows } })) count++;
      }
    }
  } finally {
    clearInterval(timer);
  }
  clientPeak = Math.max(clientPeak, process.memoryUsage().heapUsed);
  return {
    kind,
    rows: count,
    bytes,
    ttfbMs: ttfb,
    totalMs: performance.now() - started,
    clientPeakHeapMb: clientPeak / 2 ** 20,
  };
}

async function streams(): Promise<StreamRow[]> {
  const out: StreamRow[] = [];
  for (const kind of streamKinds) {
    const runs: StreamRow[] = [];
    for (let r = 0; r < Number(values.repeats); r++) {
      const server = await startServer();
      try {
        global.gc?.();
        const read = await readStream(server.url, kind);
        if (read.rows !== rows) throw new Error(`${kind}: read ${read.rows} rows of ${rows}`);
        const stats = (await (await fetch(`${server.url}/__stats`)).json()) as {
          peakHeapMb: number;
          peakRssMb: number;
        };
        runs.push({
          ...read,
          rowsPerSecond: rows / (read.totalMs / 1000),
          serverPeakHeapMb: stats.peakHeapMb,
          serverPeakRssMb: stats.peakRssMb,
        });
      } finally {
        await stop(server);
      }
    }
    const pick = (key: keyof StreamRow) => median(runs.map((run) => run[key] as number));
    const row: StreamRow = {
      kind,
      rows,
      bytes: pick('bytes'),
      ttfbMs: pick('ttfbMs'),
      totalMs: pick('totalMs'),
      rowsPerSecond: pick('rowsPerSecond'),
      serverPeakHeapMb: pick('serverPeakHeapMb'),
      serverPeakRssMb: pick('serverPeakRssMb'),
      clientPeakHeapMb: pick('clientPeakHeapMb'),
    };
    process.stderr.write(`  timeseries ${kind}: ${(row.rowsPerSecond / 1e6).toFixed(2)} M rows/s\n`);
    out.push(row);
  }
  return out;
}

const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });

process.stderr.write('HTTP load benchmark\n');
const server = await startServer();
let loadRows: LoadRow[];
try {
  loadRows = await load(server);
} finally {
  await stop(server);
}
const streamRows = rows > 0 ? await streams() : [];

const lines: string[] = [];
lines.push(
  `node ${process.version}, ${new Date().toISOString()}, ${values.connections} connections × ${values.duration} s per case, loopback`,
);
lines.push('');
lines.push('| users per reply | format | bytes | requests/s | vs JSON | p50 ms | p99 ms | errors |');
lines.push('|---:|---|---:|---:|---:|---:|---:|---:|');
for (const row of loadRows) {
  const json = loadRows.find((other) => other.users === row.users && other.format === 'json');
  const ratio = json === undefined ? '' : (row.requestsPerSecond / json.requestsPerSecond).toFixed(2);
  lines.push(
    `| ${fixed(row.users)} | ${row.format} | ${fixed(row.bytes)} | ${fixed(row.requestsPerSecond)} | ${ratio} | ${fixed(row.p50Ms, 1)} | ${fixed(row.p99Ms, 1)} | ${row.errors} |`,
  );
}
if (streamRows.length > 0) {
  lines.push('');
  lines.push(`timeseries stream, ${fixed(rows)} rows, median of ${values.repeats} runs (fresh server each)`);
  lines.push('');
  lines.push(
    '| client reads | bytes | first byte ms | total ms | rows/s | server peak heap MB | server peak RSS MB | client peak heap MB |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of streamRows) {
    lines.push(
      `| ${row.kind} | ${fixed(row.bytes)} | ${fixed(row.ttfbMs, 1)} | ${fixed(row.totalMs)} | ${fixed(row.rowsPerSecond)} | ${fixed(row.serverPeakHeapMb)} | ${fixed(row.serverPeakRssMb)} | ${fixed(row.clientPeakHeapMb)} |`,
    );
  }
}
process.stdout.write(`${lines.join('\n')}\n`);
if (values.json !== undefined) {
  writeFileSync(
    values.json,
    `${JSON.stringify({ node: process.version, date: new Date().toISOString(), load: loadRows, streams: streamRows }, null, 2)}\n`,
  );
}
