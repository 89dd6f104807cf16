/**
 * A table source behind the Fastify plugin, over a real socket: the route returns the query's
 * record batches, and each format gets the same rows (Arrow as the batches themselves, JSON and
 * NDJSON read out of them). A client that leaves stops the database read; a query that fails
 * mid-stream breaks the reply off, so no client takes a cut-off table for a whole one; bad
 * parameters are a 400 with a code.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createClient, wirekit, wirekitRoute } from '../../../src/boundaries/http/index.js';
import { HttpReplyError } from '../../../src/boundaries/http/wire-error.js';
import { type DuckDBSource, duckdbSource } from '../../../src/boundaries/tables/duckdb.js';
import type { TableStream } from '../../../src/boundaries/tables/source.js';
import { createArrowCodec } from '../../../src/codecs/arrow/index.js';
import { allFormats } from '../../../src/codecs/registry.js';
import { WirekitError } from '../../../src/errors/index.js';
import { t } from '../../../src/schema/index.js';

const Reading = t.object('Reading', {
  ts: t.timestamp({ precision: 'us' }),
  sensor_id: t.int32(),
  value: t.nullable(t.float64()),
  label: t.string(),
});

const total = 200_000;
let source: DuckDBSource;
let app: FastifyInstance;
let base: string;
const streams: TableStream[] = [];

beforeAll(async () => {
  source = await duckdbSource({ batchRows: 4096 });
  await source.run(`
    CREATE TABLE readings AS
    SELECT TIMESTAMP '2026-01-01' + to_seconds(i::BIGINT) AS ts, (i % 5 + 1)::INTEGER AS sensor_id,
           CASE WHEN i % 11 = 0 THEN NULL ELSE i / 10 END::DOUBLE AS value, 'room ' || (i % 3) AS label
    FROM range(${total}) r(i)`);
  // undici keeps the socket of a fetch aborted mid-body open in this process, so close() would
  // wait for it: the abort tests leave one such socket behind.
  app = Fastify({ logger: false, forceCloseConnections: true });
  await app.register(wirekit, { formats: ['json', 'arrow', 'msgpack'] });
  app.route(
    wirekitRoute({
      method: 'GET',
      url: '/series',
      stream: Reading,
      handler: async (request) => {
        const query = request.query as { from?: string; limit?: string; fail?: string };
        const from = new Date(query.from ?? '2026-01-01T00:00:00Z');
        if (Number.isNaN(from.getTime())) {
          throw new HttpReplyError(400, 'WK_VALIDATION_FAILED', '`from` is not an ISO timestamp.');
        }
        const failAt = query.fail === undefined ? -1 : Number(query.fail);
        const stream = await source.query(
          `SELECT ts, sensor_id, CASE WHEN epoch(ts) - epoch(TIMESTAMP '2026-01-01') = $2 THEN error('the disk is on fire') ELSE value END AS value, label
           FROM readings WHERE ts >= $1 LIMIT $3`,
          { params: [from, failAt, Number(query.limit ?? total)], signal: request.wirekit?.signal },
        );
        streams.push(stream);
        return stream;
      },
    }),
  );
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app?.close();
  await source?.close();
});

describe('a DuckDB table through the plugin', () => {
  test('Arrow, JSON, NDJSON and MessagePack carry the same rows', async () => {
    const query = { limit: 10_000 };
    const arrow: unknown[] = [];
    for await (const row of createClient({ baseUrl: base, codecs: allFormats, format: 'arrow' }).stream(
      '/series',
      {
        row: Reading,
        query,
      },
    ))
      arrow.push(row);
    const json = await createClient({ baseUrl: base, codecs: allFormats, format: 'json' }).get('/series', {
      reply: t.array(Reading),
      query,
    });
    const ndjson: unknown[] = [];
    for await (const row of createClient({ baseUrl: base, codecs: allFormats, format: 'json' }).stream(
      '/series',
      {
        row: Reading,
        query,
      },
    ))
      ndjson.push(row);
    const msgpack: unknown[] = [];
    for await (const row of createClient({ baseUrl: base, codecs: allFormats, format: 'msgpack' }).stream(
      '/series',
      {
        row: Reading,
        query,
      },
    ))
      msgpack.push(row);
    expect(arrow).toHaveLength(10_000);
    expect(arrow[11]).toEqual({
      ts: new Date('2026-01-01T00:00:11Z'),
      sensor_id: 2,
      value: null,
      label: 'room 2',
    });
    expect(json).toEqual(arrow);
    expect(ndjson).toEqual(arrow);
    expect(msgpack).toEqual(arrow);
  });

  test('the Arrow reply is the batches as the source made them', async () => {
    const response = await fetch(`${base}/series?limit=10000`, {
      headers: { accept: 'application/vnd.apache.arrow.stream' },
    });
    const table = createArrowCodec().decodeTable(new Uint8Array(await response.arrayBuffer()));
    expect(table.batches.map((batch) => batch.numRows)).toEqual([4096, 4096, 1808]);
    expect(table.schema.fields.map((field) => String(field.type))).toEqual([
      'Timestamp<MICROSECOND>',
      'Int32',
      'Float64',
      'Dictionary<Int32, Utf8>',
    ]);
  });

  test('an empty range is an empty but valid stream in every format', async () => {
    const query = { from: '2030-01-01T00:00:00Z' };
    const rows: unknown[] = [];
    for await (const row of createClient({ baseUrl: base, codecs: allFormats, format: 'arrow' }).stream(
      '/series',
      {
        row: Reading,
        query,
      },
    ))
      rows.push(row);
    expect(rows).toEqual([]);
    expect(
      await createClient({ baseUrl: base, codecs: allFormats }).get('/series', {
        reply: t.array(Reading),
        query,
      }),
    ).toEqual([]);
  });

  test('a bad parameter is a 400 with its code', async () => {
    const response = await fetch(`${base}/series?from=yesterday`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('WK_VALIDATION_FAILED');
  });

  test.each(['arrow', 'json'] as const)(
    '%s: a query that fails mid-stream breaks the reply off',
    async (format) => {
      const client = createClient({ baseUrl: base, codecs: allFormats, format });
      let seen = 0;
      const read = async () => {
        for await (const _ of client.stream('/series', { row: Reading, query: { fail: 50_000 } })) seen++;
      };
      await expect(read()).rejects.toThrow();
      expect(seen).toBeLessThan(50_000);
    },
  );

  test.each(['arrow', 'json'] as const)(
    '%s: a client that leaves stops the database read',
    async (format) => {
      const before = streams.length;
      const aborter = new AbortController();
      let seen = 0;
      const read = async () => {
        const client = createClient({ baseUrl: base, codecs: allFormats, format });
        for await (const _ of client.stream('/series', { row: Reading, signal: aborter.signal })) {
          if (++seen === 5000) aborter.abort();
        }
      };
      await expect(read()).rejects.toThrow();
      const stream = streams[before] as TableStream;
      // Wait for the server to notice, then check the read stopped well short of the table.
      for (let i = 0; i < 100 && stream.rowsRead === 0; i++) await new Promise((r) => setTimeout(r, 10));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const stopped = stream.rowsRead;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(stream.rowsRead).toBe(stopped);
      expect(stopped).toBeLessThan(total / 2);
    },
  );

  test('a query the database refuses is a 500 with WK_TABLE_QUERY_FAILED, before any row', async () => {
    await expect(source.query('SELECT * FROM nowhere')).rejects.toBeInstanceOf(WirekitError);
    await expect(source.query('SELECT * FROM nowhere')).rejects.toMatchObject({
      code: 'WK_TABLE_QUERY_FAILED',
    });
  });
});
