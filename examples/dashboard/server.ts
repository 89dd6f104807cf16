/**
 * The dashboard demo: a one-table IoT database (DuckDB, embedded) served through the wirekit
 * Fastify plugin, and a page that charts it. `GET /series` is one route: Arrow IPC stream, JSON or
 * NDJSON by `Accept`, every format streamed from the same query's record batches, so the server
 * holds a batch at a time whatever the range.
 *
 *   npm run demo                          # http://127.0.0.1:3000, 24 months (10.45 M rows)
 *   npm run demo -- --port 8080 --months 6
 *
 * Besides the page and its data: `GET /meta` (the table's extent, sensors and what a value means), `GET /stats` and
 * `POST /stats/reset` (the server's heap and RSS, peaks sampled every 20 ms, for the benchmark),
 * and `GET /typical/series`, the same rows the way a typical JSON API sends them (every row read
 * into an object, then one JSON.stringify), the baseline the benchmark compares against, bounded to
 * 1,000,000 rows held at once (`--typical-max-rows N|none`; typical-series.ts).
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { HttpReplyError, wirekit, wirekitRoute } from 'wirekit-ts/http';
import { t } from 'wirekit-ts/schema';
import type { DuckDBSource } from 'wirekit-ts/tables/duckdb';
import { ensureDashboardPage } from './build.js';
import { dataEnd, defaultDataDir, monthsBefore, openDemoTable, sensors, valueMeaning } from './data.js';
import { defaultTypicalMaxRows, typicalSeriesRoute } from './typical-series.js';

/** One reading: what `/series` sends in every format. */
export const Reading = t.object('Reading', {
  ts: t.timestamp({ precision: 'us' }),
  sensor_id: t.int32(),
  value: t.float64(),
});

export interface DashboardOptions {
  readonly port?: number;
  readonly host?: string;
  /** Months of data in the table (default 24); each size is generated once and kept. */
  readonly months?: number;
  /** Where the generated tables are kept (default ~/.cache/wirekit/demo). */
  readonly dataDir?: string;
  /** Rows per Arrow record batch (default 65,536). */
  readonly batchRows?: number;
  /**
   * Rows `/typical/series` may hold at once, across its requests (default 1,000,000; Infinity lifts
   * the cap, as bench:tables does in its own heap-capped server). See typical-series.ts.
   */
  readonly typicalMaxRows?: number;
  readonly log?: (line: string) => void;
}

export interface Dashboard {
  readonly url: string;
  readonly app: FastifyInstance;
  readonly source: DuckDBSource;
  close(): Promise<void>;
}

const pageDir = fileURLToPath(new URL('./dist/', import.meta.url));
const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

const maxSensorsListed = 1000;
/** Rows in the first Arrow batch of a /series reply (the rest: batchRows, 65,536 by default). */
const firstBatchRows = 16_384;

/** `from`, `to` and `sensors` of a /series request, checked: a bad one is a 400 with a code. */
function seriesQuery(query: Record<string, string | undefined>, extent: { from: Date; to: Date }) {
  const instant = (name: 'from' | 'to', fallback: Date): Date => {
    const text = query[name];
    if (text === undefined || text === '') return fallback;
    const date = new Date(text);
    if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(date.getTime())) {
      throw new HttpReplyError(
        400,
        'WK_VALIDATION_FAILED',
        `\`${name}\` must be an ISO 8601 timestamp, got ${JSON.stringify(text.slice(0, 40))}.`,
      );
    }
    return date;
  };
  const from = instant('from', extent.from);
  const to = instant('to', extent.to);
  if (from.getTime() > to.getTime()) {
    throw new HttpReplyError(400, 'WK_VALIDATION_FAILED', '`from` is after `to`.');
  }
  let ids: number[] | undefined;
  if (query.sensors !== undefined && query.sensors !== '') {
    const parts = query.sensors.split(',');
    if (parts.length > maxSensorsListed) {
      throw new HttpReplyError(
        400,
        'WK_VALIDATION_FAILED',
        `\`sensors\` lists more than ${maxSensorsListed} ids.`,
      );
    }
    ids = parts.map((part) => {
      const id = Number(part);
      if (!/^\d{1,9}$/.test(part) || !Number.isSafeInteger(id)) {
        throw new HttpReplyError(
          400,
          'WK_VALIDATION_FAILED',
          `\`sensors\` must be a comma-separated list of ids, got ${JSON.stringify(part.slice(0, 20))}.`,
        );
      }
      return id;
    });
  }
  return { from, to, ids };
}

/** The SQL and parameters of a /series query: bound, never spliced. */
function seriesSql({ from, to, ids }: ReturnType<typeof seriesQuery>): {
  sql: string;
  params: (Date | readonly number[])[];
} {
  const sql = 'SELECT ts, sensor_id, value FROM readings WHERE ts >= $1 AND ts < $2';
  return ids === undefined
    ? { sql, params: [from, to] }
    : { sql: `${sql} AND list_contains($3, sensor_id)`, params: [from, to, ids] };
}

/** Heap and RSS now, and their peaks since the last reset, sampled every 20 ms. */
function memorySampler() {
  const peaks = { peakHeapUsed: 0, peakRss: 0 };
  const sample = () => {
    const { heapUsed, rss } = process.memoryUsage();
    peaks.peakHeapUsed = Math.max(peaks.peakHeapUsed, heapUsed);
    peaks.peakRss = Math.max(peaks.peakRss, rss);
    return { heapUsed, rss };
  };
  const timer = setInterval(sample, 20);
  timer.unref();
  return {
    read: () => ({ ...sample(), ...peaks }),
    reset: () => {
      peaks.peakHeapUsed = 0;
      peaks.peakRss = 0;
      sample();
    },
    stop: () => clearInterval(timer),
  };
}

export async function startDashboard(options: DashboardOptions = {}): Promise<Dashboard> {
  const months = options.months ?? 24;
  if (!Number.isSafeInteger(months) || months < 1 || months > 120)
    throw new Error('--months must be 1 to 120.');
  const log = options.log ?? ((line: string) => console.log(line));
  const source = await openDemoTable(options.dataDir ?? defaultDataDir(), months, log);
  const extent = { from: monthsBefore(dataEnd, months), to: dataEnd };
  const total = await countRows(source);
  const memory = memorySampler();

  // The demo runs on loopback, where compressing costs more than it saves; the benchmark measures
  // the formats themselves. A deployment behind a real network would leave compression on.
  const app = Fastify({ logger: false, forceCloseConnections: true, requestTimeout: 0 });
  await app.register(wirekit, { formats: ['json', 'arrow'], compression: false });

  app.route(
    wirekitRoute({
      method: 'GET',
      url: '/series',
      stream: Reading,
      handler: async (request) => {
        const { sql, params } = seriesSql(seriesQuery(request.query as Record<string, string>, extent));
        return source.query(sql, {
          params,
          ...(options.batchRows && { batchRows: options.batchRows }),
          // A small first batch puts the first points on the chart sooner; the rest come in
          // large batches, which cost less per row to write, send and draw.
          firstBatchRows: firstBatchRows,
          ...(request.wirekit && { signal: request.wirekit.signal }),
        });
      },
    }),
  );

  typicalSeriesRoute(
    app,
    source,
    (request) => seriesSql(seriesQuery(request.query as Record<string, string>, extent)),
    options.typicalMaxRows ?? defaultTypicalMaxRows,
  );

  app.get('/meta', async () => ({
    from: extent.from.toISOString(),
    to: extent.to.toISOString(),
    months,
    sensors: Array.from({ length: sensors }, (_, i) => i + 1),
    rows: total,
    ...valueMeaning,
  }));
  app.get('/stats', async () => memory.read());
  app.post('/stats/reset', async () => {
    memory.reset();
    return memory.read();
  });

  app.get('/*', async (request, reply) => {
    const path = (request.params as { '*': string })['*'] || 'index.html';
    const file = resolve(pageDir, path);
    if (
      !file.startsWith(pageDir.endsWith(sep) ? pageDir : pageDir + sep) ||
      !existsSync(file) ||
      !statSync(file).isFile()
    ) {
      if (!existsSync(join(pageDir, 'index.html'))) {
        return reply.code(404).type('text/plain').send('The page is not built: run `npm run demo:page`.\n');
      }
      return reply.code(404).type('text/plain').send('not found\n');
    }
    return reply.type(contentTypes[extname(file)] ?? 'application/octet-stream').send(createReadStream(file));
  });

  const url = await app.listen({ port: options.port ?? 3000, host: options.host ?? '127.0.0.1' });
  return {
    url,
    app,
    source,
    async close() {
      memory.stop();
      await app.close();
      await source.close();
    },
  };
}

async function countRows(source: DuckDBSource): Promise<number> {
  const stream = await source.query('SELECT count(*)::BIGINT AS n FROM readings');
  for await (const batch of stream) return Number(batch.getChildAt(0)?.get(0));
  return 0;
}

function flag(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  // The page is built by Vite from page/ (and wirekit's dist/) when it is missing or older.
  if (await ensureDashboardPage()) console.log('built the page into examples/dashboard/dist');
  const dashboard = await startDashboard({
    port: Number(flag(args, '--port') ?? process.env.PORT ?? 3000),
    months: Number(flag(args, '--months') ?? 24),
    host: flag(args, '--host') ?? '127.0.0.1',
    ...(flag(args, '--data') !== undefined && { dataDir: flag(args, '--data') as string }),
    ...(flag(args, '--typical-max-rows') !== undefined && {
      typicalMaxRows:
        flag(args, '--typical-max-rows') === 'none'
          ? Number.POSITIVE_INFINITY
          : Number(flag(args, '--typical-max-rows')),
    }),
  });
  console.log(`wirekit dashboard demo on ${dashboard.url}`);
  const stop = () => void dashboard.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
