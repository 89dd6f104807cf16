// The table sources, from the installed package in plain Node: a query on DuckDB (in process) and
// one on PostgreSQL, each read as Arrow record batches.
import { duckdbSource } from 'wirekit-ts/tables/duckdb';
import { postgresSource } from 'wirekit-ts/tables/postgres';

const { connectionString } = JSON.parse(process.argv[2]);

/** Rows of the stream's batches, each column's values in order. */
async function rowsOf(stream) {
  const rows = [];
  for await (const batch of stream) {
    for (let i = 0; i < batch.numRows; i += 1) {
      rows.push(
        Object.fromEntries(
          batch.schema.fields.map((field) => [field.name, batch.getChild(field.name).get(i)]),
        ),
      );
    }
  }
  return rows;
}

const sql = (from) =>
  `SELECT n, CAST(n AS DOUBLE PRECISION) * 1.5 AS half, CAST($1 AS TEXT) AS label FROM ${from} ORDER BY n`;
const duckdb = await duckdbSource();
const fromDuckdb = await rowsOf(await duckdb.query(sql('range(1, 4) AS t(n)'), { params: ['d'] }));
await duckdb.close();

const postgres = await postgresSource({ connectionString });
const query = await postgres.query(sql('generate_series(1, 3) AS t(n)'), { params: ['p'], batchRows: 2 });
const fromPostgres = await rowsOf(query);
await postgres.close();

const plain = (rows) =>
  rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, String(v)])));
console.log(JSON.stringify({ duckdb: plain(fromDuckdb), postgres: plain(fromPostgres) }));
