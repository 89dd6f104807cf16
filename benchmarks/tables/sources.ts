/**
 * Rows per second of the table sources: the same generated table (timestamp, int4, float8) in
 * DuckDB (in memory) and in PostgreSQL (a server you point it at), read whole as record batches.
 * Each round reads every batch and touches nothing else, so what is timed is the engine, the
 * transfer and the copy into Arrow builders. The table is made once per size and dropped after.
 *
 *   node build/benchmarks/tables/main.js sources --postgres postgres://postgres@127.0.0.1:5432/postgres
 */
import { benchArgs } from '../args.js';

const usage = `Usage: node build/benchmarks/tables/main.js sources [--postgres URL] [--rows 1000000,10000000] [--batch 65536] [--rounds 3]
  --postgres URL   a PostgreSQL server to create the table in (a table bench_readings is made and dropped);
                   without it only DuckDB is measured
  --rows LIST      table sizes (comma-separated)
  --batch N        rows per record batch
  --rounds N       reads of each table; the best and the median are reported`;

/** The same table in both engines' SQL: a reading a second from 2020 on, 1,000 devices, a value. */
function createSql(rows: number): string {
  return `CREATE TABLE bench_readings AS SELECT TIMESTAMP '2020-01-01 00:00:00' + i * INTERVAL '1 second' AS ts,
    (i % 1000)::INTEGER AS device, random()::DOUBLE PRECISION AS value FROM generate_series(1, ${rows}) AS g(i)`;
}

interface Source {
  readonly engine: string;
  query(sql: string, options: { batchRows: number }): Promise<AsyncIterable<{ numRows: number }>>;
  close(): Promise<void>;
}

async function readAll(source: Source, batchRows: number): Promise<{ rows: number; ms: number }> {
  const started = performance.now();
  const stream = await source.query('SELECT ts, device, value FROM bench_readings', { batchRows });
  let rows = 0;
  for await (const batch of stream) rows += batch.numRows;
  return { rows, ms: performance.now() - started };
}

async function measure(source: Source, rows: number, batchRows: number, rounds: number): Promise<void> {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const { rows: read, ms } = await readAll(source, batchRows);
    if (read !== rows) throw new Error(`${source.engine} read ${read} rows of ${rows}`);
    times.push(ms);
  }
  times.sort((a, b) => a - b);
  const best = times[0] as number;
  const median = times[Math.floor(times.length / 2)] as number;
  const rate = (ms: number) => `${(((rows / ms) * 1000) / 1e6).toFixed(2)} M rows/s`;
  process.stdout.write(
    `${source.engine.padEnd(8)} ${rows.toLocaleString('en').padStart(12)} rows  best ${best.toFixed(0).padStart(6)} ms (${rate(best)})  median ${median.toFixed(0).padStart(6)} ms (${rate(median)})\n`,
  );
}

export async function sourcesMain(args: readonly string[]): Promise<void> {
  const { values } = benchArgs(usage, {
    args: [...args],
    options: {
      postgres: { type: 'string' },
      rows: { type: 'string', default: '1000000,10000000' },
      batch: { type: 'string', default: '65536' },
      rounds: { type: 'string', default: '3' },
    },
  });
  const sizes = (values.rows as string).split(',').map(Number);
  const batchRows = Number(values.batch);
  const rounds = Number(values.rounds);

  const { duckdbSource } = await import('wirekit-ts/tables/duckdb');
  for (const rows of sizes) {
    const duck = await duckdbSource({ batchRows });
    await duck.run(createSql(rows));
    await measure(duck, rows, batchRows, rounds);
    await duck.close();
    if (values.postgres !== undefined) {
      const { postgresSource } = await import('wirekit-ts/tables/postgres');
      const pg = await postgresSource({ connectionString: values.postgres, batchRows });
      await pg.pool.query('DROP TABLE IF EXISTS bench_readings');
      await pg.pool.query(createSql(rows));
      await pg.pool.query('VACUUM ANALYZE bench_readings');
      await measure(pg, rows, batchRows, rounds);
      await pg.pool.query('DROP TABLE bench_readings');
      await pg.close();
    }
  }
}
