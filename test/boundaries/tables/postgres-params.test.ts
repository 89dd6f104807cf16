/**
 * The PostgreSQL table source's parameters against a real server (a throwaway cluster,
 * test/support/postgres.ts): what binds is read back from the server as it understood it, and
 * what no parameter type can take (undefined, objects, ragged or too deep arrays, a lone
 * surrogate, more than 65,535 parameters) is refused before the query is sent, naming the
 * parameter.
 */
import type { RecordBatch } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type PostgresSource, postgresSource } from '../../../src/boundaries/tables/postgres.js';
import type { SqlParam, TableStream } from '../../../src/boundaries/tables/source.js';
import { WirekitError } from '../../../src/errors/index.js';
import { hasPostgres, type PostgresServer, startPostgres } from '../../support/postgres.js';

async function drain(stream: TableStream): Promise<RecordBatch[]> {
  const batches: RecordBatch[] = [];
  for await (const batch of stream) batches.push(batch);
  return batches;
}

async function refusal(promise: Promise<unknown>): Promise<WirekitError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WirekitError) return error;
    throw error;
  }
  throw new Error('expected the query to be refused');
}

/** Params as a JavaScript caller (or one past the types) may pass them. */
const loose = (params: unknown[]) => params as SqlParam[];

describe.skipIf(!hasPostgres())('PostgreSQL query parameters', () => {
  let server: PostgresServer;
  let source: PostgresSource;

  beforeAll(async () => {
    server = await startPostgres();
    source = await postgresSource({ connectionString: server.connectionString });
  }, 120_000);

  afterAll(async () => {
    await source?.close();
    server?.stop();
  });

  /** The first row of a query, as JSON. */
  async function row(sql: string, params: unknown[]): Promise<Record<string, unknown>> {
    const [batch] = await drain(await source.query(sql, { params: loose(params) }));
    return batch?.get(0)?.toJSON() as Record<string, unknown>;
  }

  test('undefined is refused, naming the parameter; null is NULL', async () => {
    const error = await refusal(row('SELECT $1::text AS a, $2::text AS b', ['x', undefined]));
    expect(error.code).toBe('WK_TABLE_QUERY_FAILED');
    expect(error.message).toMatch(/cannot bind \$2 \(undefined\).*pass null for SQL NULL/);
    expect(await row('SELECT $1::text AS a, $2::text AS b', ['x', null])).toEqual({ a: 'x', b: null });
  });

  test('objects are refused, naming the parameter; JSON text binds to jsonb', async () => {
    const object = { plan: 'pro' };
    for (const [value, what] of [
      [object, 'an object'],
      [Uint8Array.of(1, 2, 3), 'a Uint8Array'],
      [new Map(), 'a Map'],
    ] as const) {
      const error = await refusal(row('SELECT $1::int4 AS n, $2::jsonb AS j', [1, value]));
      expect(error.code, what).toBe('WK_TABLE_QUERY_FAILED');
      expect(error.message, what).toContain(`cannot bind $2 (${what})`);
      expect(error.message, what).toContain('JSON.stringify');
    }
    expect(await row("SELECT ($1::jsonb)->>'plan' AS plan", [JSON.stringify(object)])).toEqual({
      plan: 'pro',
    });
  });

  test('a nested array binds as a multi-dimensional array, its elements quoted as they need', async () => {
    const numbers = await row('SELECT array_dims($1::int4[]) AS dims, ($1::int4[])[2][1] AS x', [
      [
        [1, 2],
        [3, 4],
      ],
    ]);
    expect(numbers).toEqual({ dims: '[1:2][1:2]', x: 3 });
    const texts = await row(
      'SELECT array_dims($1::text[]) AS dims, ($1::text[])[1][2] AS comma, ($1::text[])[2][1] AS word, ($1::text[])[2][2] IS NULL AS missing',
      [
        [
          ['a', 'b,c}'],
          ['NULL', null],
        ],
      ],
    );
    expect(texts).toEqual({ dims: '[1:2][1:2]', comma: 'b,c}', word: 'NULL', missing: true });
    const cube = await row('SELECT array_dims($1::int8[]) AS dims', [[[[1n], [2n]]]]);
    expect(cube).toEqual({ dims: '[1:1][1:2][1:1]' });
  });

  test('ragged, mixed or too deep arrays are refused, naming the element', async () => {
    const ragged = await refusal(row('SELECT $1::int4[] AS a', [[[1, 2], [3]]]));
    expect(ragged.message).toMatch(/cannot bind \$1\[1\] \(a ragged array\).*rectangular/);
    const mixed = await refusal(row('SELECT $1::int4[] AS a', [[1, [2]]]));
    expect(mixed.message).toMatch(/cannot bind \$1\[1\] \(an array\)/);
    const hole = await refusal(row('SELECT $1::text[] AS a', [['a', undefined]]));
    expect(hole.message).toMatch(/cannot bind \$1\[1\] \(undefined\)/);
    let deep: unknown = [1];
    for (let i = 0; i < 6; i++) deep = [deep];
    const tooDeep = await refusal(row('SELECT $1::int4[] AS a', [deep]));
    expect(tooDeep.message).toMatch(/nested 7 deep.*at most 6 dimensions/);
    // A cyclic array ends at the same bound, not in a stack overflow.
    const cycle: unknown[] = [];
    cycle.push(cycle);
    expect((await refusal(row('SELECT $1::int4[] AS a', [cycle]))).code).toBe('WK_TABLE_QUERY_FAILED');
  });

  test('a string with a lone surrogate is refused rather than sent changed', async () => {
    const error = await refusal(row('SELECT $1::text AS s', ['a\ud800b']));
    expect(error.message).toMatch(/cannot bind \$1 \(a string with a lone surrogate\)/);
    expect(await row('SELECT $1::text AS s', ['a\u{1f600}b'])).toEqual({ s: 'a\u{1f600}b' });
  });

  test('-0 binds as -0', async () => {
    const result = await row('SELECT $1::float8 AS f', [-0]);
    expect(Object.is(result.f, -0)).toBe(true);
  });

  test('65,535 parameters bind; 70,000 are refused before anything is sent', async () => {
    const sqlOf = (count: number) =>
      `SELECT cardinality(ARRAY[${Array.from({ length: count }, (_, i) => `$${i + 1}::int4`).join(',')}]) AS n`;
    const most = Array.from({ length: 65_535 }, (_, i) => i);
    expect(await row(sqlOf(65_535), most)).toEqual({ n: 65_535 });
    const error = await refusal(
      row(
        sqlOf(70_000),
        Array.from({ length: 70_000 }, (_, i) => i),
      ),
    );
    expect(error.code).toBe('WK_TABLE_QUERY_FAILED');
    expect(error.message).toMatch(/70000 query parameters; its protocol carries at most 65535/);
    // The connection it would have used serves the next query.
    expect(await row('SELECT $1::int4 AS n', [7])).toEqual({ n: 7 });
  });
});
