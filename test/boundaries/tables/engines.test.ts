/**
 * The table sources side by side. The same table built in DuckDB and in PostgreSQL, read with the
 * same SQL, parameters and batch size, gives the same record batches: the same schema (names,
 * Arrow types, which column is dictionary-encoded), the same null bitmaps, the same value bytes
 * (NaN, -0, infinities included), batch by batch; and the IPC streams wirekit writes of both read
 * back in pyarrow as the same table. Then the cases every engine must meet in its own way:
 * stopping, errors mid-stream, empty results, bad SQL, unsupported types, bound lists.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataType, type RecordBatch } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type DuckDBSource, duckdbSource } from '../../../src/boundaries/tables/duckdb.js';
import { type PostgresSource, postgresSource } from '../../../src/boundaries/tables/postgres.js';
import type { SqlParam, TableSource, TableStream } from '../../../src/boundaries/tables/source.js';
import { recordBatches, writeBatches } from '../../../src/codecs/arrow/batch-stream.js';
import { WirekitError } from '../../../src/errors/index.js';
import { hasPostgres, type PostgresServer, startPostgres } from '../../support/postgres.js';
import { has, venvPython, withTempDir } from '../../support/tools.js';

const withPostgres = hasPostgres();
const withPyarrow = has('venv:pyarrow');

async function drain(stream: TableStream): Promise<RecordBatch[]> {
  const batches: RecordBatch[] = [];
  for await (const batch of stream) batches.push(batch);
  return batches;
}

async function failure(promise: Promise<unknown>): Promise<WirekitError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WirekitError) return error;
    throw error;
  }
  throw new Error('expected a WirekitError');
}

// The shared table: every type both engines read, with the edge values of each, NULLs in every
// column, strings short and long (DuckDB inlines up to 12 bytes), multi-byte, empty, and one
// low-cardinality column that the builders dictionary-encode.

const rowCount = 2_500;
const batchRows = 1_000;

const specials = {
  i16: ['-32768', '32767', '0', '-1'],
  i32: ['-2147483648', '2147483647', '0', '-1'],
  i64: ['-9223372036854775808', '9223372036854775807', '0', '-1'],
  f32: ['NaN', '-0', 'Infinity', '-Infinity', '3.4028235e38', '1.4e-45', '-1.17549435e-38'],
  f64: ['NaN', '-0', 'Infinity', '-Infinity', '1.7976931348623157e308', '5e-324', '-2.2250738585072014e-308'],
  ts: [
    '1969-12-31 23:59:59.999999',
    '1970-01-01 00:00:00',
    '1900-01-01 00:00:00',
    '1999-12-31 23:59:59.5',
    '2000-01-01 00:00:00',
    '0001-01-01 00:00:00',
    '1582-10-15 12:00:00.000001',
  ],
  tz: [
    '1960-06-01 12:00:00+00',
    '1999-12-31 23:00:00-05',
    '2000-01-01 00:00:00.000001+00',
    '1800-03-04 05:06:07+00',
  ],
  d: ['1969-12-31', '1970-01-01', '1900-01-01', '1999-12-31', '2000-01-01', '0001-01-01', '9999-12-31'],
  t: [
    '',
    'é',
    '日本語のテキスト',
    '🎉 party',
    'a string longer than twelve bytes',
    'exactly12byt',
    'exactly13byte',
  ],
};

/** Row i's value of column `name` as SQL text both engines read the same way (`bytes`: per engine). */
function cell(name: string, i: number, bytes: (hex: string) => string): string {
  const isNull = (every: number) => i % every === every - 1;
  const pick = (values: readonly string[], make: () => string) =>
    i < values.length ? (values[i] as string) : make();
  const text = (value: string) => `'${value.replace(/'/g, "''")}'`;
  switch (name) {
    case 'id':
      return String(i);
    case 'b':
      return isNull(3) ? 'NULL' : i % 2 === 0 ? 'TRUE' : 'FALSE';
    case 'i16':
      return isNull(7)
        ? 'NULL'
        : `CAST(${text(pick(specials.i16, () => String(((i * 37) % 65536) - 32768)))} AS INT2)`;
    case 'i32':
      return isNull(11)
        ? 'NULL'
        : `CAST(${text(pick(specials.i32, () => String(i * 858_993 - 2 ** 30)))} AS INT4)`;
    case 'i64':
      return isNull(13)
        ? 'NULL'
        : `CAST(${text(pick(specials.i64, () => String(BigInt(i) * 3_689_348_814_741_910n - 2n ** 62n)))} AS INT8)`;
    case 'f32':
      return isNull(5) ? 'NULL' : `CAST(${text(pick(specials.f32, () => String(i / 7 - 100)))} AS FLOAT4)`;
    case 'f64':
      return isNull(5)
        ? 'NULL'
        : `CAST(${text(pick(specials.f64, () => String((i - 1250) * Math.PI * 1e5)))} AS FLOAT8)`;
    case 'ts':
      return isNull(17)
        ? 'NULL'
        : `CAST(${text(pick(specials.ts, () => new Date(Date.UTC(1950, 0, 1) + i * 86_399_123).toISOString().replace('T', ' ').replace('Z', '')))} AS TIMESTAMP)`;
    case 'tz':
      return isNull(19)
        ? 'NULL'
        : `CAST(${text(pick(specials.tz, () => `${new Date(Date.UTC(2001, 0, 1) + i * 3_600_777).toISOString().replace('T', ' ').replace('Z', '')}+00`))} AS TIMESTAMPTZ)`;
    case 'd':
      return isNull(23)
        ? 'NULL'
        : `CAST(${text(pick(specials.d, () => new Date(Date.UTC(1930, 0, 1) + i * 86_400_000 * 13).toISOString().slice(0, 10)))} AS DATE)`;
    case 't':
      return isNull(29) ? 'NULL' : text(pick(specials.t, () => `row ${i} ${'ü'.repeat(i % 9)}`));
    case 'color':
      return isNull(31)
        ? 'NULL'
        : text(['red', 'green', 'blue', 'a color name longer than twelve'][i % 4] as string);
    default: {
      if (isNull(37)) return 'NULL';
      const length = i % 10 === 0 ? 0 : i % 40;
      const hex = Array.from({ length }, (_, k) =>
        ((i * 31 + k * 7) % 256).toString(16).padStart(2, '0'),
      ).join('');
      return bytes(hex);
    }
  }
}

const columnNames = ['id', 'b', 'i16', 'i32', 'i64', 'f32', 'f64', 'ts', 'tz', 'd', 't', 'color', 'bin'];
// Type names both engines know (DuckDB reads INT2, FLOAT8, TEXT, BYTEA... as aliases).
const createTable =
  'CREATE TABLE mixed (id INT4, b BOOL, i16 INT2, i32 INT4, i64 INT8, f32 FLOAT4, f64 FLOAT8, ts TIMESTAMP, tz TIMESTAMPTZ, d DATE, t TEXT, color TEXT, bin BYTEA)';

function insertRows(bytes: (hex: string) => string): string {
  const rows = Array.from(
    { length: rowCount },
    (_, i) => `(${columnNames.map((name) => cell(name, i, bytes)).join(', ')})`,
  );
  return `INSERT INTO mixed VALUES ${rows.join(',\n')}`;
}

/** A column's values as comparable text: the bytes of each fixed-width value, null as null. */
function columnValues(batch: RecordBatch, index: number): (string | null)[] {
  const vector = batch.getChildAt(index);
  const data = vector?.data[0];
  if (vector === null || data === undefined) throw new Error(`no column ${index}`);
  const out: (string | null)[] = [];
  for (let row = 0; row < batch.numRows; row++) {
    if (!data.getValid(row)) {
      out.push(null);
      continue;
    }
    if (
      DataType.isInt(data.type) ||
      DataType.isFloat(data.type) ||
      DataType.isDate(data.type) ||
      DataType.isTimestamp(data.type)
    ) {
      const values = data.values as unknown as {
        buffer: ArrayBuffer;
        byteOffset: number;
        BYTES_PER_ELEMENT: number;
      };
      const width = values.BYTES_PER_ELEMENT;
      out.push(Buffer.from(values.buffer, values.byteOffset + row * width, width).toString('hex'));
    } else {
      const value = vector.get(row);
      out.push(
        value instanceof Uint8Array ? `0x${Buffer.from(value).toString('hex')}` : JSON.stringify(value),
      );
    }
  }
  return out;
}

function describeSchema(batch: RecordBatch): string[] {
  return batch.schema.fields.map(
    (field) => `${field.name}: ${field.type}${DataType.isDictionary(field.type) ? ' (dictionary)' : ''}`,
  );
}

describe.skipIf(!withPostgres)('DuckDB and PostgreSQL give the same batches for the same table', () => {
  let server: PostgresServer;
  let duck: DuckDBSource;
  let postgres: PostgresSource;
  const query = 'SELECT * FROM mixed WHERE id < $1 ORDER BY id';
  const params: SqlParam[] = [rowCount];
  let duckBatches: RecordBatch[];
  let postgresBatches: RecordBatch[];

  beforeAll(async () => {
    server = await startPostgres();
    duck = await duckdbSource();
    postgres = await postgresSource({ connectionString: server.connectionString });
    await duck.run(createTable);
    await duck.run(insertRows((hex) => `from_hex('${hex}')`));
    await postgres.pool.query(createTable);
    await postgres.pool.query(insertRows((hex) => `decode('${hex}', 'hex')`));
    duckBatches = await drain(await duck.query(query, { params, batchRows }));
    postgresBatches = await drain(await postgres.query(query, { params, batchRows }));
  }, 120_000);

  afterAll(async () => {
    await duck?.close();
    await postgres?.close();
    server?.stop();
  });

  test('the same schema: names, Arrow types, the same column dictionary-encoded', () => {
    expect(duckBatches.map((batch) => batch.numRows)).toEqual([1_000, 1_000, 500]);
    expect(postgresBatches.map((batch) => batch.numRows)).toEqual([1_000, 1_000, 500]);
    const schema = describeSchema(postgresBatches[0] as RecordBatch);
    expect(schema).toEqual([
      'id: Int32',
      'b: Bool',
      'i16: Int16',
      'i32: Int32',
      'i64: Int64',
      'f32: Float32',
      'f64: Float64',
      'ts: Timestamp<MICROSECOND>',
      'tz: Timestamp<MICROSECOND, UTC>',
      'd: Date32<DAY>',
      't: Utf8',
      'color: Dictionary<Int32, Utf8> (dictionary)',
      'bin: Binary',
    ]);
    expect(describeSchema(duckBatches[0] as RecordBatch)).toEqual(schema);
  });

  test('every column: the same null bitmap and value bytes, batch by batch', () => {
    for (let b = 0; b < duckBatches.length; b++) {
      const fromDuck = duckBatches[b] as RecordBatch;
      const fromPostgres = postgresBatches[b] as RecordBatch;
      for (let c = 0; c < columnNames.length; c++) {
        const name = columnNames[c] as string;
        const duckData = fromDuck.getChildAt(c)?.data[0];
        const postgresData = fromPostgres.getChildAt(c)?.data[0];
        expect(postgresData?.nullCount, `${name} null count, batch ${b}`).toBe(duckData?.nullCount);
        expect(postgresData?.nullCount, `${name} has NULLs`).toBeGreaterThan(name === 'id' ? -1 : 0);
        expect(columnValues(fromPostgres, c), `${name}, batch ${b}`).toEqual(columnValues(fromDuck, c));
      }
    }
    // The edge values are really there (not two engines agreeing on something else).
    const first = postgresBatches[0] as RecordBatch;
    expect(first.getChild('i64')?.get(0)).toBe(-(2n ** 63n));
    expect(Number.isNaN(first.getChild('f64')?.get(0))).toBe(true);
    expect(Object.is(first.getChild('f64')?.get(1), -0)).toBe(true);
    expect(first.getChild('ts')?.data[0]?.values[0]).toBe(-1n);
    expect(first.getChild('t')?.get(2)).toBe('日本語のテキスト');
    expect(first.getChild('color')?.get(3)).toBe('a color name longer than twelve');
  });

  test.skipIf(!withPyarrow)(
    'the IPC streams wirekit writes of both read back in pyarrow as one table',
    async () => {
      const ipc = async (batches: RecordBatch[]) => {
        const chunks: Uint8Array[] = [];
        const reader = writeBatches(recordBatches(batches), undefined).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(value);
        }
        return Buffer.concat(chunks);
      };
      const duckBytes = await ipc(duckBatches);
      const postgresBytes = await ipc(postgresBatches);
      const script = `
import json, struct, sys, math
import pyarrow as pa
def read(path):
    with pa.ipc.open_stream(path) as reader:
        return reader.schema, [b for b in reader]
def canon(value):
    if isinstance(value, float):
        return struct.pack('>d', value).hex()
    if isinstance(value, bytes):
        return value.hex()
    return repr(value)
(sa, ba), (sb, bb) = read(sys.argv[1]), read(sys.argv[2])
rows = lambda batches: [[canon(v) for v in col.to_pylist()] for col in pa.Table.from_batches(batches).columns]
print(json.dumps({'schema': str(sa), 'same_schema': sa.equals(sb), 'batches': [b.num_rows for b in bb],
                  'same_rows': rows(ba) == rows(bb), 'rows': sum(b.num_rows for b in ba)}))
`;
      const result = withTempDir((dir) => {
        writeFileSync(join(dir, 'duck.arrows'), duckBytes);
        writeFileSync(join(dir, 'postgres.arrows'), postgresBytes);
        writeFileSync(join(dir, 'read.py'), script);
        return JSON.parse(
          execFileSync(
            venvPython,
            [join(dir, 'read.py'), join(dir, 'duck.arrows'), join(dir, 'postgres.arrows')],
            {
              encoding: 'utf8',
            },
          ),
        );
      });
      expect(result.same_schema).toBe(true);
      expect(result.same_rows).toBe(true);
      expect(result.rows).toBe(rowCount);
      expect(result.batches).toEqual([1_000, 1_000, 500]);
      expect(result.schema).toContain('tz: timestamp[us, tz=UTC]');
      expect(result.schema).toContain('color: dictionary<values=string, indices=int32, ordered=0>');
    },
  );
});

// The cases every source meets, each engine with its own SQL where the dialects differ.

interface EngineCase {
  readonly name: string;
  open(): Promise<TableSource>;
  /** A result of `rows` rows, computed as it is read. */
  readonly series: (rows: number) => string;
  /** Fails at row 50,000 of 100,000. */
  readonly failsMidway: string;
  readonly failure: RegExp;
  readonly unsupported: readonly (readonly [sql: string, type: string])[];
  /** Rows of a series whose value is in the list $1. */
  readonly inList: string;
}

let sharedServer: PostgresServer | undefined;

const engines: EngineCase[] = [
  {
    name: 'duckdb',
    open: () => duckdbSource(),
    series: (rows) => `SELECT i, i * 2 AS twice FROM range(${rows}) AS r(i)`,
    failsMidway:
      "SELECT i, CASE WHEN i = 50000 THEN error('boom') ELSE i END AS x FROM range(100000) AS r(i)",
    failure: /boom/,
    unsupported: [
      ['SELECT 1::HUGEINT AS h', 'HUGEINT'],
      ["SELECT INTERVAL '1 day' AS h", 'INTERVAL'],
    ],
    inList: 'SELECT i FROM range(10) AS r(i) WHERE list_contains($1, i) ORDER BY i',
  },
  ...(withPostgres
    ? [
        {
          name: 'postgres',
          open: async () => {
            sharedServer ??= await startPostgres();
            return postgresSource({ connectionString: sharedServer.connectionString });
          },
          series: (rows: number) => `SELECT i, i * 2 AS twice FROM generate_series(0, ${rows - 1}) AS g(i)`,
          failsMidway: 'SELECT i, 1 / (50000 - i) AS x FROM generate_series(0, 99999) AS g(i)',
          failure: /division by zero/,
          unsupported: [
            ['SELECT 1::numeric AS h', 'numeric'],
            ["SELECT INTERVAL '1 day' AS h", 'interval'],
          ],
          inList: 'SELECT i FROM generate_series(0, 9) AS g(i) WHERE i = ANY($1::int8[]) ORDER BY i',
        } satisfies EngineCase,
      ]
    : []),
];

afterAll(() => sharedServer?.stop());

describe.each(engines)('$name: the cases every table source meets', (engine) => {
  let source: TableSource;

  beforeAll(async () => {
    source = await engine.open();
  }, 120_000);

  afterAll(async () => {
    await source?.close();
  });

  test('stopping after one batch reads at most a few batches, and the source serves the next query', async () => {
    const stream = await source.query(engine.series(5_000_000), { batchRows: 10_000 });
    for await (const batch of stream) {
      expect(batch.numRows).toBe(10_000);
      break;
    }
    expect(stream.rowsRead).toBeGreaterThanOrEqual(10_000);
    expect(stream.rowsRead).toBeLessThanOrEqual(30_000);
    const [next] = await drain(await source.query(engine.series(3)));
    expect([...(next?.getChild('twice')?.toArray() ?? [])].map(Number)).toEqual([0, 2, 4]);
  });

  test('an error at row 50,000 fails the query with the engine message, before the rows after it', async () => {
    let batches = 0;
    const error = await failure(
      (async () => {
        // DuckDB computes ahead of the fetches, so it may meet the error before query() resolves.
        const stream = await source.query(engine.failsMidway, { batchRows: 10_000 });
        for await (const _ of stream) batches++;
      })(),
    );
    expect(error.code).toBe('WK_TABLE_QUERY_FAILED');
    expect(error.message).toMatch(engine.failure);
    expect(batches).toBeLessThanOrEqual(5);
    if (engine.name === 'postgres') expect(batches).toBe(5);
    expect((await drain(await source.query(engine.series(1))))[0]?.numRows).toBe(1);
  });

  test('an empty result is one empty batch with the schema', async () => {
    const batches = await drain(await source.query(`${engine.series(10)} LIMIT 0`));
    expect(batches.map((batch) => batch.numRows)).toEqual([0]);
    expect(batches[0]?.schema.fields.map((field) => field.name)).toEqual(['i', 'twice']);
  });

  test('bad SQL rejects at query()', async () => {
    const error = await failure(source.query('SELEC 1'));
    expect(error.code).toBe('WK_TABLE_QUERY_FAILED');
    expect(error.message).toMatch(/syntax error/i);
  });

  test('an unsupported type rejects at query(), naming the column and type', async () => {
    for (const [sql, type] of engine.unsupported) {
      const error = await failure(source.query(sql));
      expect(error.code).toBe('WK_TABLE_TYPE_UNSUPPORTED');
      expect(error.message).toContain(`column "h" is of type ${type}`);
    }
  });

  test('a list parameter binds as a list', async () => {
    const [batch] = await drain(await source.query(engine.inList, { params: [[1, 4, 7]] }));
    expect([...(batch?.getChild('i')?.toArray() ?? [])].map(Number)).toEqual([1, 4, 7]);
  });

  test('an abort while the consumer holds a batch fails the stream', async () => {
    const controller = new AbortController();
    const stream = await source.query(engine.series(1_000_000), {
      batchRows: 1_000,
      signal: controller.signal,
    });
    let batches = 0;
    const error = await failure(
      (async () => {
        for await (const _ of stream) {
          batches++;
          controller.abort();
        }
      })(),
    );
    expect(error.message).toMatch(/cancelled/);
    expect(batches).toBe(1);
  });
});

describe('DuckDB: errors after the first chunks', () => {
  let duck: DuckDBSource;
  beforeAll(async () => {
    duck = await duckdbSource();
  });
  afterAll(async () => {
    await duck?.close();
  });

  // DuckDB's Node bindings end a streaming result that fails after handing over chunks with an
  // empty chunk, exactly like its end, and do not expose duckdb_result_error; the source tells the
  // two apart by the result's return type, so the stream fails, though without DuckDB's message.
  test('an error after the first chunks fails the stream', async () => {
    const stream = await duck.query(
      "SELECT i, CASE WHEN i = 500000 THEN error('boom') ELSE i END AS x FROM range(1000000) AS r(i)",
      { batchRows: 10_000 },
    );
    const error = await failure(drain(stream));
    expect(error).toMatchObject({ code: 'WK_TABLE_QUERY_FAILED' });
    expect(error.message).toMatch(/failed while its rows were being read/);
    expect(stream.rowsRead).toBeLessThan(1_000_000);
  });
});

describe('the first batch', () => {
  test('firstBatchRows sizes the first batch only', async () => {
    const duck = await duckdbSource();
    try {
      const stream = await duck.query('SELECT i FROM range(100000) AS r(i)', {
        batchRows: 30_000,
        firstBatchRows: 5_000,
      });
      const sizes = (await drain(stream)).map((batch) => batch.numRows);
      expect(sizes).toEqual([5_000, 30_000, 30_000, 30_000, 5_000]);
      const larger = await duck.query('SELECT i FROM range(100) AS r(i)', {
        batchRows: 40,
        firstBatchRows: 1_000,
      });
      expect((await drain(larger)).map((batch) => batch.numRows)).toEqual([40, 40, 20]);
    } finally {
      await duck.close();
    }
  });
});
