/**
 * The PostgreSQL table source against a real server (a throwaway cluster, test/support/postgres.ts):
 * types, errors before and during the stream, bound parameters, and what stopping or waiting does
 * on the server, read from the server itself (a sequence that counts the rows it computed,
 * pg_stat_activity for what the backend is doing).
 */
import type { RecordBatch } from 'apache-arrow';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type PostgresSource, postgresSource } from '../../../src/boundaries/tables/postgres.js';
import type { TableStream } from '../../../src/boundaries/tables/source.js';
import { WirekitError } from '../../../src/errors/index.js';
import { hasPostgres, type PostgresServer, startPostgres } from '../../support/postgres.js';

const available = hasPostgres();

async function failure(promise: Promise<unknown>): Promise<WirekitError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WirekitError) return error;
    throw error;
  }
  throw new Error('expected a WirekitError');
}

async function drain(stream: TableStream): Promise<RecordBatch[]> {
  const batches: RecordBatch[] = [];
  for await (const batch of stream) batches.push(batch);
  return batches;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!available)('PostgreSQL table source', () => {
  let server: PostgresServer;
  let source: PostgresSource;
  /** A second source on a pool of one connection: what one query leaves behind, the next one meets. */
  let single: PostgresSource;
  /** For looking at the server from outside the sources. */
  let admin: pg.Pool;

  beforeAll(async () => {
    server = await startPostgres();
    console.info(`PostgreSQL cluster started in ${server.startMs.toFixed(0)} ms`);
    source = await postgresSource({ connectionString: server.connectionString });
    single = await postgresSource({ config: { connectionString: server.connectionString, max: 1 } });
    admin = new pg.Pool({ connectionString: server.connectionString, max: 1 });
    await admin.query(
      "CREATE TABLE t (id int4 PRIMARY KEY, name text); INSERT INTO t VALUES (1, 'a'), (2, 'b')",
    );
  }, 120_000);

  afterAll(async () => {
    await source?.close();
    await single?.close();
    await admin?.end();
    server?.stop();
  });

  /** The pid of the one connection of `single`, read through the source itself. */
  async function backendPid(): Promise<number> {
    const [batch] = await drain(await single.query('SELECT pg_backend_pid() AS pid'));
    return batch?.getChild('pid')?.get(0) as number;
  }

  async function backendState(pid: number): Promise<string | undefined> {
    const result = await admin.query<{ state: string }>('SELECT state FROM pg_stat_activity WHERE pid = $1', [
      pid,
    ]);
    return result.rows[0]?.state;
  }

  async function sequenceValue(name: string): Promise<number> {
    const result = await admin.query<{ last_value: string; is_called: boolean }>(
      `SELECT last_value, is_called FROM ${name}`,
    );
    const row = result.rows[0] as { last_value: string; is_called: boolean };
    return row.is_called ? Number(row.last_value) : 0;
  }

  test('every supported type maps to the column type DuckDB gives it', async () => {
    const stream = await source.query(
      `SELECT true AS b, 1::int2 AS i16, 1::int4 AS i32, 1::int8 AS i64, 1::float4 AS f32, 1::float8 AS f64,
         now()::timestamp AS ts, now() AS tz, current_date AS d, 'x'::text AS t, 'x'::varchar(3) AS v,
         'x'::char(3) AS c, 'x'::name AS n, '\\x00'::bytea AS by`,
    );
    expect(Object.fromEntries(stream.columns.map((column) => [column.name, column.type]))).toEqual({
      b: { kind: 'bool' },
      i16: { kind: 'int', bits: 16, signed: true },
      i32: { kind: 'int', bits: 32, signed: true },
      i64: { kind: 'int', bits: 64, signed: true },
      f32: { kind: 'float', bits: 32 },
      f64: { kind: 'float', bits: 64 },
      ts: { kind: 'timestamp', unit: 'us' },
      tz: { kind: 'timestamp', unit: 'us', timezone: 'UTC' },
      d: { kind: 'date' },
      t: { kind: 'utf8' },
      v: { kind: 'utf8' },
      c: { kind: 'utf8' },
      n: { kind: 'utf8' },
      by: { kind: 'binary' },
    });
    const [batch] = await drain(stream);
    // char(n) comes padded, as PostgreSQL sends it.
    expect(batch?.getChild('c')?.get(0)).toBe('x  ');
    expect(batch?.getChild('by')?.get(0)).toEqual(new Uint8Array([0]));
  });

  test('timestamps and dates are shifted to the Unix epoch; infinities become the extremes DuckDB uses', async () => {
    const [batch] = await drain(
      await source.query(
        `SELECT * FROM (VALUES
           (timestamp '1970-01-01 00:00:00', timestamptz '2000-01-01 00:00:00+00', date '1970-01-01'),
           (timestamp '1969-12-31 23:59:59.999999', timestamptz '1999-12-31 23:59:59.999999+00', date '1969-12-31'),
           (timestamp '1900-02-28 12:34:56.789012', timestamptz '2262-04-11 23:47:16.854775+00', date '0044-03-15'),
           (timestamp 'infinity', timestamptz '-infinity', date 'infinity'),
           (timestamp '-infinity', timestamptz 'infinity', date '-infinity')) AS v(ts, tz, d)`,
      ),
    );
    const ts = batch?.getChild('ts')?.data[0]?.values as BigInt64Array;
    const tz = batch?.getChild('tz')?.data[0]?.values as BigInt64Array;
    const d = batch?.getChild('d')?.data[0]?.values as Int32Array;
    const max = 2n ** 63n - 1n;
    expect([...ts]).toEqual([
      0n,
      -1n,
      BigInt(Date.UTC(1900, 1, 28, 12, 34, 56, 789)) * 1000n + 12n,
      max,
      -max,
    ]);
    expect([...tz]).toEqual([946_684_800_000_000n, 946_684_799_999_999n, 9_223_372_036_854_775n, -max, max]);
    const ides = new Date(Date.UTC(2000, 2, 15));
    ides.setUTCFullYear(44); // Date.UTC reads years 0-99 as 1900-1999
    expect([...d]).toEqual([0, -1, ides.getTime() / 86_400_000, 2 ** 31 - 1, -(2 ** 31 - 1)]);
  });

  test('a timestamp past what microseconds since 1970 can hold fails the stream', async () => {
    const stream = await source.query("SELECT timestamp '294276-12-31 23:59:59' AS ts");
    const error = await failure(drain(stream));
    expect(error.code).toBe('WK_TABLE_QUERY_FAILED');
    expect(error.message).toMatch(/294,246/);
  });

  test('an empty result is one empty batch with the schema', async () => {
    const batches = await drain(await source.query('SELECT id, name FROM t WHERE false'));
    expect(batches).toHaveLength(1);
    expect(batches[0]?.numRows).toBe(0);
    expect(batches[0]?.schema.fields.map((field) => `${field.name}: ${field.type}`)).toEqual([
      'id: Int32',
      'name: Utf8',
    ]);
  });

  test('bad SQL and an unknown table reject at query(), with the message and SQLSTATE', async () => {
    const syntax = await failure(source.query('SELEC 1'));
    expect(syntax.code).toBe('WK_TABLE_QUERY_FAILED');
    expect(syntax.message).toMatch(/syntax error at or near "SELEC".*SQLSTATE 42601/);
    const unknown = await failure(single.query('SELECT * FROM no_such_table'));
    expect(unknown.message).toMatch(/relation "no_such_table" does not exist.*SQLSTATE 42P01/);
    const notQuery = await failure(single.query('UPDATE t SET name = name WHERE id = 1'));
    expect(notQuery.code).toBe('WK_TABLE_QUERY_FAILED');
    expect(notQuery.message).toMatch(/returns no rows/);
    // The one connection is fine afterwards.
    expect((await drain(await single.query('SELECT 7 AS x')))[0]?.getChild('x')?.get(0)).toBe(7);
  });

  test('an unsupported type rejects at query(), naming the column, the type and the cast', async () => {
    for (const [sql, type] of [
      ['SELECT 1.5::numeric(10,2) AS price', 'numeric(10,2)'],
      ["SELECT '1 day'::interval AS price", 'interval'],
      ['SELECT ARRAY[1,2] AS price', 'integer[]'],
      ["SELECT '{}'::jsonb AS price", 'jsonb'],
    ] as const) {
      const error = await failure(single.query(sql));
      expect(error.code).toBe('WK_TABLE_TYPE_UNSUPPORTED');
      expect(error.message).toContain(`column "price" is of type ${type}`);
      expect(error.message).toMatch(/cast it in the query \(numeric to float8 or text/);
    }
    expect(
      (await drain(await single.query('SELECT 1.5::numeric::float8 AS price')))[0]?.getChild('price')?.get(0),
    ).toBe(1.5);
  });

  test('an error mid-stream fails the iterator after some batches; the connection serves the next query', async () => {
    const stream = await single.query(
      'SELECT i, 100 / (50000 - i) AS q FROM generate_series(1, 100000) AS g(i)',
      { batchRows: 10_000 },
    );
    let batches = 0;
    const error = await failure(
      (async () => {
        for await (const _ of stream) batches++;
      })(),
    );
    expect(error.code).toBe('WK_TABLE_QUERY_FAILED');
    expect(error.message).toMatch(/division by zero.*SQLSTATE 22012/);
    expect(error.cause).toBeInstanceOf(pg.DatabaseError);
    expect(batches).toBe(4);
    const [after] = await drain(await single.query('SELECT count(*)::int4 AS n FROM t'));
    expect(after?.getChild('n')?.get(0)).toBe(2);
  });

  test('parameters are bound, never spliced: a hostile string is a value', async () => {
    const hostile = "'; DROP TABLE t; --";
    const batches = await drain(
      await source.query('SELECT id FROM t WHERE name = $1', { params: [hostile] }),
    );
    expect(batches[0]?.numRows).toBe(0);
    const [echo] = await drain(await source.query('SELECT $1::text AS s', { params: [hostile] }));
    expect(echo?.getChild('s')?.get(0)).toBe(hostile);
    expect((await admin.query('SELECT count(*)::int AS n FROM t')).rows[0]).toEqual({ n: 2 });
  });

  test('every kind of parameter binds', async () => {
    const when = new Date(Date.UTC(1969, 6, 20, 20, 17, 40, 123));
    const [batch] = await drain(
      await source.query(
        `SELECT $1::int4 AS n, $2::int8 AS big, $3::bool AS yes, $4::timestamptz AS tz, $5::timestamp AS ts,
           $6::text AS nothing, cardinality($7::int8[]) AS count, ($8::text[])[2] AS second, $9::float8 AS f`,
        {
          params: [-7, 2n ** 62n, true, when, when, null, [1, 2n, 3], ['a,b', 'say "hi" \\ bye', '{x}'], 0.1],
        },
      ),
    );
    const row = batch?.get(0)?.toJSON() as Record<string, unknown>;
    expect(row.n).toBe(-7);
    expect(row.big).toBe(2n ** 62n);
    expect(row.yes).toBe(true);
    expect(row.tz).toBe(when.getTime());
    expect(row.ts).toBe(when.getTime()); // the UTC wall time, as DuckDB binds a Date
    expect(row.nothing).toBeNull();
    expect(row.count).toBe(3);
    expect(row.second).toBe('say "hi" \\ bye');
    expect(row.f).toBe(0.1);
    await expect(source.query('SELECT $1::float8 AS f', { params: [Number.NaN] })).rejects.toThrow(
      /cannot bind \$1 \(NaN\)/,
    );
  });

  test('stopping after one batch stops the server: it computes at most two batches more, and goes idle', async () => {
    await admin.query('CREATE SEQUENCE stop_counter');
    const pid = await backendPid();
    const stream = await single.query(
      "SELECT nextval('stop_counter') AS n, repeat('x', 20) AS pad FROM generate_series(1, 5000000)",
      { batchRows: 10_000 },
    );
    for await (const batch of stream) {
      expect(batch.numRows).toBe(10_000);
      break;
    }
    expect(stream.rowsRead).toBeLessThanOrEqual(20_000);
    const computed = await sequenceValue('stop_counter');
    expect(computed).toBeGreaterThanOrEqual(10_000);
    expect(computed).toBeLessThanOrEqual(30_000);
    await sleep(300);
    expect(await sequenceValue('stop_counter')).toBe(computed);
    expect(await backendState(pid)).toBe('idle');
    expect((await drain(await single.query('SELECT 1 AS one')))[0]?.numRows).toBe(1);
  });

  test('an abort signal mid-stream fails the iterator and stops the server', async () => {
    await admin.query('CREATE SEQUENCE abort_counter');
    const controller = new AbortController();
    const stream = await single.query(
      "SELECT nextval('abort_counter') AS n FROM generate_series(1, 5000000)",
      {
        batchRows: 10_000,
        signal: controller.signal,
      },
    );
    const error = await failure(
      (async () => {
        for await (const _ of stream) controller.abort();
      })(),
    );
    expect(error.code).toBe('WK_TABLE_QUERY_FAILED');
    expect(error.message).toMatch(/cancelled/);
    const computed = await sequenceValue('abort_counter');
    expect(computed).toBeLessThanOrEqual(30_000);
    await sleep(200);
    expect(await sequenceValue('abort_counter')).toBe(computed);
    expect((await drain(await single.query('SELECT 1 AS one')))[0]?.numRows).toBe(1);
  });

  test('a slow statement is cancelled on the server when its consumer goes away', async () => {
    const pid = await backendPid();
    const controller = new AbortController();
    const stream = await single.query('SELECT 1 AS x FROM pg_sleep(30)', { signal: controller.signal });
    const started = performance.now();
    setTimeout(() => controller.abort(), 300);
    const error = await failure(drain(stream));
    expect(error.message).toMatch(/cancelled/);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await backendState(pid)).toBe('idle');
    expect((await drain(await single.query('SELECT 2 AS two')))[0]?.getChild('two')?.get(0)).toBe(2);
  });

  test('backpressure: a consumer that waits holds the server back', async () => {
    await admin.query('CREATE SEQUENCE wait_counter');
    const stream = await single.query(
      "SELECT nextval('wait_counter') AS n FROM generate_series(1, 1000000)",
      {
        batchRows: 5_000,
      },
    );
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    await sleep(200);
    const early = await sequenceValue('wait_counter');
    await sleep(400);
    const late = await sequenceValue('wait_counter');
    expect(late).toBe(early);
    // One batch consumed; under two more asked of the server ahead of it.
    expect(late).toBeLessThan(15_000);
    expect(stream.rowsRead).toBe(5_000);
    await iterator.next();
    await sleep(200);
    expect(await sequenceValue('wait_counter')).toBeLessThan(20_000);
    await iterator.return?.(undefined);
  });

  test('batches hold exactly batchRows rows, with no empty batch after a result that fills the last one', async () => {
    const counts = async (rows: number) =>
      (
        await drain(
          await source.query(`SELECT i FROM generate_series(1, ${rows}) AS g(i)`, { batchRows: 1_000 }),
        )
      ).map((batch) => batch.numRows);
    expect(await counts(3_000)).toEqual([1_000, 1_000, 1_000]);
    expect(await counts(2_500)).toEqual([1_000, 1_000, 500]);
    expect(await counts(7)).toEqual([7]);
    const batches = await drain(
      await source.query('SELECT i FROM generate_series(1, 3500) AS g(i)', { batchRows: 1_000 }),
    );
    expect(batches.flatMap((batch) => [...(batch.getChild('i')?.toArray() ?? [])])).toEqual(
      Array.from({ length: 3500 }, (_, i) => i + 1),
    );
  });

  test('rows larger than a socket read arrive whole (values cut across network chunks)', async () => {
    const batches = await drain(
      await source.query(
        'SELECT i, repeat(chr(1000 + i), 100000 + i) AS s, md5(repeat(chr(1000 + i), 100000 + i)) AS sum FROM generate_series(1, 40) AS g(i)',
        { batchRows: 16 },
      ),
    );
    expect(batches.map((batch) => batch.numRows)).toEqual([16, 16, 8]);
    const { createHash } = await import('node:crypto');
    for (const batch of batches) {
      for (let row = 0; row < batch.numRows; row++) {
        const i = batch.getChild('i')?.get(row) as number;
        const s = batch.getChild('s')?.get(row) as string;
        expect(s.length).toBe(100_000 + i);
        expect(createHash('md5').update(s).digest('hex')).toBe(batch.getChild('sum')?.get(row));
      }
    }
  });

  test('queries of one source run side by side on connections of their own', async () => {
    const a = (await source.query('SELECT i FROM generate_series(1, 30000) AS g(i)', { batchRows: 1000 }))[
      Symbol.asyncIterator
    ]();
    const b = (
      await source.query('SELECT -i AS i FROM generate_series(1, 20000) AS g(i)', { batchRows: 1000 })
    )[Symbol.asyncIterator]();
    let sumA = 0;
    let sumB = 0;
    for (;;) {
      const [x, y] = await Promise.all([a.next(), b.next()]);
      if (!x.done) for (const v of x.value.getChild('i')?.toArray() ?? []) sumA += v as number;
      if (!y.done) for (const v of y.value.getChild('i')?.toArray() ?? []) sumB += v as number;
      if (x.done && y.done) break;
    }
    expect(sumA).toBe((30000 * 30001) / 2);
    expect(sumB).toBe(-(20000 * 20001) / 2);
  });

  test('closing the source fails a query still streaming, and frees its connection', async () => {
    const own = await postgresSource({ connectionString: server.connectionString, batchRows: 1000 });
    const stream = await own.query('SELECT i FROM generate_series(1, 1000000) AS g(i)');
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    const pending = iterator.next();
    await own.close();
    // The batch asked for may already have arrived (the next one is read ahead): the stream then
    // fails at the batch after it, and never ends as if the table were whole.
    const error = await failure(
      (async () => {
        if ((await pending).done) return;
        while (!(await iterator.next()).done);
      })(),
    );
    expect(error.message).toMatch(/closed/);
    expect(own.pool.totalCount).toBe(0);
  });

  test('a source on a pool of your own leaves it open', async () => {
    const pool = new pg.Pool({ connectionString: server.connectionString, max: 2 });
    const own = await postgresSource({ config: pool });
    expect((await drain(await own.query('SELECT 1 AS one')))[0]?.numRows).toBe(1);
    await own.close();
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await pool.end();
  });

  test('a server that cannot be reached rejects at query()', async () => {
    const nowhere = await postgresSource({ connectionString: 'postgres://postgres@127.0.0.1:1/postgres' });
    const error = await failure(nowhere.query('SELECT 1'));
    expect(error.code).toBe('WK_TABLE_QUERY_FAILED');
    expect(error.message).toMatch(/ECONNREFUSED/);
    await nowhere.close();
  });
});
