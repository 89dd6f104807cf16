/**
 * The DuckDB table source's parameters, in process: the same contract as PostgreSQL's
 * (postgres-params.test.ts). What binds is read back as DuckDB understood it (`typeof($1)`, the
 * values), and what no parameter can hold (undefined, objects, ragged or too deep arrays, a lone
 * surrogate, values of kinds one list cannot share) is refused before anything is bound, naming
 * the parameter.
 */
import type { RecordBatch } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type DuckDBSource, duckdbSource } from '../../../src/boundaries/tables/duckdb.js';
import type { SqlParam, TableStream } from '../../../src/boundaries/tables/source.js';
import { WirekitError } from '../../../src/errors/index.js';

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

describe('DuckDB query parameters', () => {
  let source: DuckDBSource;

  beforeAll(async () => {
    source = await duckdbSource();
  });

  afterAll(async () => {
    await source?.close();
  });

  /** The first row of a query, as JSON. */
  async function row(sql: string, params: unknown[]): Promise<Record<string, unknown>> {
    const [batch] = await drain(await source.query(sql, { params: loose(params) }));
    return batch?.get(0)?.toJSON() as Record<string, unknown>;
  }

  test('undefined is refused, naming the parameter; null is NULL', async () => {
    const error = await refusal(row('SELECT $1::VARCHAR AS a, $2::VARCHAR AS b', ['x', undefined]));
    expect(error.code).toBe('WK_TABLE_QUERY_FAILED');
    expect(error.message).toMatch(/^DuckDB: cannot bind \$2 \(undefined\).*pass null for SQL NULL/);
    expect(await row('SELECT $1::VARCHAR AS a, $2::VARCHAR AS b', ['x', null])).toEqual({
      a: 'x',
      b: null,
    });
    // run() binds by the same rules.
    const run = await refusal(source.run('SELECT $1::VARCHAR AS a', loose([undefined])));
    expect(run.message).toMatch(/cannot bind \$1 \(undefined\)/);
  });

  test('objects are refused, naming the parameter; JSON text binds to JSON', async () => {
    const object = { plan: 'pro' };
    for (const [value, what] of [
      [object, 'an object'],
      [Uint8Array.of(1, 2, 3), 'a Uint8Array'],
      [new Map(), 'a Map'],
    ] as const) {
      const error = await refusal(row('SELECT $1::INTEGER AS n, $2::JSON AS j', [1, value]));
      expect(error.code, what).toBe('WK_TABLE_QUERY_FAILED');
      expect(error.message, what).toContain(`cannot bind $2 (${what})`);
      expect(error.message, what).toContain('JSON.stringify');
    }
    expect(await row("SELECT ($1::JSON)->>'plan' AS plan", [JSON.stringify(object)])).toEqual({
      plan: 'pro',
    });
  });

  test('an invalid Date is refused, naming the parameter', async () => {
    const error = await refusal(row('SELECT $1 AS a, $2 AS b', [new Date(0), new Date(Number.NaN)]));
    expect(error.message).toMatch(/cannot bind \$2 \(an invalid Date\)/);
  });

  test('a nested array binds as nested lists', async () => {
    const numbers = await row('SELECT typeof($1) AS t, len($1) AS n, $1[2][1] AS x', [
      [
        [1, 2],
        [3, 4],
      ],
    ]);
    expect(numbers).toEqual({ t: 'INTEGER[][]', n: 2n, x: 3 });
    const texts = await row(
      'SELECT typeof($1) AS t, $1[1][2] AS comma, $1[2][1] AS word, $1[2][2] IS NULL AS missing',
      [
        [
          ['a', 'b,c}'],
          ['NULL', null],
        ],
      ],
    );
    expect(texts).toEqual({ t: 'VARCHAR[][]', comma: 'b,c}', word: 'NULL', missing: true });
    const cube = await row('SELECT typeof($1) AS t, $1[1][2][1] AS x', [[[[1n], [2n]]]]);
    expect(cube).toEqual({ t: 'BIGINT[][][]', x: 2n });
  });

  test("a list's type is the one all its values fit, not its first value's", async () => {
    const cases: [unknown[], string, unknown][] = [
      [[1, 2.5], 'DOUBLE[]', 2.5],
      [[1, 3_000_000_000], 'BIGINT[]', 3_000_000_000n],
      [[null, 7], 'INTEGER[]', 7],
      [[1, 2n], 'BIGINT[]', 2n],
      [[1.5, Number.NaN], 'DOUBLE[]', Number.NaN],
      [[true, false], 'BOOLEAN[]', false],
      [[new Date(0), new Date(86_400_000)], 'TIMESTAMP[]', 86_400_000],
    ];
    for (const [list, type, second] of cases) {
      expect(await row('SELECT typeof($1) AS t, $1[2] AS second', [list]), type).toEqual({ t: type, second });
    }
    const huge = await row('SELECT typeof($1) AS t, $1[2]::VARCHAR AS second', [[1, 2n ** 100n]]);
    expect(huge).toEqual({ t: 'HUGEINT[]', second: String(2n ** 100n) });
    // An empty list (or one of nulls only) is DuckDB's own [] : "NULL"[], which any list takes.
    const empty = await row('SELECT len($1) AS n, list_contains($1, 1) AS has', [[]]);
    expect(empty).toEqual({ n: 0n, has: false });
    const nulls = await row('SELECT len($1) AS n, $1[1] IS NULL AS missing', [[null, null]]);
    expect(nulls).toEqual({ n: 2n, missing: true });
    const [filtered] = await drain(
      await source.query('SELECT i FROM range(10) AS r(i) WHERE list_contains($1, i) ORDER BY i', {
        params: loose([[2, 5.0, null]]),
      }),
    );
    expect([...(filtered?.getChild('i')?.toArray() ?? [])]).toEqual([2n, 5n]);
  });

  test('values one list cannot hold together are refused, naming the value', async () => {
    const kinds = await refusal(row('SELECT $1 AS a', [['a', 1]]));
    expect(kinds.code).toBe('WK_TABLE_QUERY_FAILED');
    expect(kinds.message).toMatch(/cannot bind \$1\[1\] \(number 1\).*one kind/);
    const dates = await refusal(row('SELECT $1 AS a', [[[new Date(0)], ['x']]]));
    expect(dates.message).toMatch(/cannot bind \$1\[1\]\[0\] \("x"\)/);
    // A fraction beside a bigint would need a DOUBLE, which would round the bigint.
    const fraction = await refusal(row('SELECT $1 AS a', [[2n ** 60n + 1n, 0.5]]));
    expect(fraction.message).toMatch(/cannot bind \$1\[1\] \(number 0\.5\).*bigint/);
  });

  test('ragged, mixed or too deep arrays are refused, naming the element', async () => {
    const ragged = await refusal(row('SELECT $1 AS a', [[[1, 2], [3]]]));
    expect(ragged.message).toMatch(/cannot bind \$1\[1\] \(a ragged array\).*rectangular/);
    const mixed = await refusal(row('SELECT $1 AS a', [[1, [2]]]));
    expect(mixed.message).toMatch(/cannot bind \$1\[1\] \(an array\)/);
    const hole = await refusal(row('SELECT $1 AS a', [['a', undefined]]));
    expect(hole.message).toMatch(/cannot bind \$1\[1\] \(undefined\)/);
    let deep: unknown = [1];
    for (let i = 0; i < 6; i++) deep = [deep];
    const tooDeep = await refusal(row('SELECT $1 AS a', [deep]));
    expect(tooDeep.message).toMatch(/nested 7 deep.*at most 6 dimensions/);
    // A cyclic array ends at the same bound, not in a stack overflow.
    const cycle: unknown[] = [];
    cycle.push(cycle);
    expect((await refusal(row('SELECT $1 AS a', [cycle]))).code).toBe('WK_TABLE_QUERY_FAILED');
  });

  test('a string with a lone surrogate is refused rather than bound changed', async () => {
    const error = await refusal(row('SELECT $1 AS s', ['a\ud800b']));
    expect(error.message).toMatch(/cannot bind \$1 \(a string with a lone surrogate\)/);
    const inList = await refusal(row('SELECT $1 AS s', [['ok', '\udc00']]));
    expect(inList.message).toMatch(/cannot bind \$1\[1\] \(a string with a lone surrogate\)/);
    expect(await row('SELECT $1 AS s', ['a\u{1f600}b'])).toEqual({ s: 'a\u{1f600}b' });
  });

  test('-0 binds as -0', async () => {
    const result = await row('SELECT $1 AS f, typeof($1) AS t', [-0]);
    expect(Object.is(result.f, -0)).toBe(true);
    expect(result.t).toBe('DOUBLE');
  });

  test('NaN and the infinities bind as DOUBLE, which holds them', async () => {
    const result = await row('SELECT $1 AS a, $2 AS b, $3 AS c, typeof($1) AS t', [
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ]);
    expect(result).toEqual({
      a: Number.NaN,
      b: Number.POSITIVE_INFINITY,
      c: Number.NEGATIVE_INFINITY,
      t: 'DOUBLE',
    });
    // Where DuckDB cannot take them, the refusal is DuckDB's, naming the cast.
    const cast = await refusal(row('SELECT $1::INTEGER AS i', [Number.NaN]));
    expect(cast.message).toMatch(/^DuckDB: Conversion Error/);
  });

  test('numbers bind as INTEGER, BIGINT or DOUBLE, and bigints as BIGINT or HUGEINT, whichever holds them', async () => {
    const numbers = await row('SELECT typeof($1) AS a, typeof($2) AS b, typeof($3) AS c, typeof($4) AS d', [
      2 ** 31 - 1,
      -(2 ** 63),
      2 ** 63,
      1e20,
    ]);
    expect(numbers).toEqual({ a: 'INTEGER', b: 'BIGINT', c: 'DOUBLE', d: 'DOUBLE' });
    expect(await row('SELECT $1 AS x', [1e20])).toEqual({ x: 1e20 });
    // A bigint that fits 64 bits is a BIGINT, which range() and the table source's columns take.
    const [batch] = await drain(await source.query('SELECT * FROM range($1) AS r(i)', { params: [3n] }));
    expect(batch?.numRows).toBe(3);
    const big = await row('SELECT typeof($1) AS t, $1::VARCHAR AS v', [-(2n ** 127n)]);
    expect(big).toEqual({ t: 'HUGEINT', v: String(-(2n ** 127n)) });
    const tooBig = await refusal(row('SELECT $1 AS x', [2n ** 127n]));
    expect(tooBig.message).toMatch(/cannot bind \$1 \(170141183460469231731687303715884105728n\).*128 bits/);
  });
});
