/**
 * `GET /typical/series`: the rows of `/series` the way a typical JSON API sends them, every row
 * read into an object, then one `JSON.stringify`. It is the baseline bench:tables measures wirekit
 * against, and it holds a whole reply at once: about 0.4 KB of heap per row, so a year (4.5 M rows)
 * took 1.7 GB of heap, and two years 3.8 GB resident before failing with a 500 (the text is longer
 * than V8's longest string).
 *
 * The demo shows that cost without letting it take the machine down: the rows held by typical
 * replies at once, across every request in flight, stay within `maxRows` (1,000,000 unless told:
 * six months of the table, about 0.4 GB of heap). A range of more rows than that is answered 413 before
 * its query runs, with the count, the cap and the way out (`/series` streams any range); a range
 * that fits waits, in arrival order, until the replies in flight leave it room.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpReplyError } from 'wirekit-ts/http';
import { type DuckDBSource, duckdbParams } from 'wirekit-ts/tables/duckdb';

export const defaultTypicalMaxRows = 1_000_000;

type SeriesSql = (request: FastifyRequest) => { sql: string; params: (Date | readonly number[])[] };

/** Rows held at once, shared by the requests in flight; a request waits (FIFO) for its share. */
class RowBudget {
  private held = 0;
  private readonly waiting: { readonly rows: number; readonly admit: () => void }[] = [];

  constructor(readonly maxRows: number) {}

  async acquire(rows: number): Promise<void> {
    if (this.waiting.length === 0 && this.held + rows <= this.maxRows) {
      this.held += rows;
      return;
    }
    await new Promise<void>((admit) => this.waiting.push({ rows, admit }));
  }

  release(rows: number): void {
    this.held -= rows;
    for (let next = this.waiting[0]; next !== undefined; next = this.waiting[0]) {
      if (this.held + next.rows > this.maxRows) return;
      this.waiting.shift();
      this.held += next.rows;
      next.admit();
    }
  }
}

export function typicalSeriesRoute(
  app: FastifyInstance,
  source: DuckDBSource,
  seriesSql: SeriesSql,
  maxRows: number,
): void {
  if (!(maxRows >= 1)) throw new Error(`the typical route's row cap must be ≥ 1, got ${maxRows}`);
  const budget = new RowBudget(maxRows);

  app.get('/typical/series', async (request, reply) => {
    const { sql, params } = seriesSql(request);
    const { values, types } = duckdbParams(params);
    const connection = await source.instance.connect();
    try {
      const counted = await connection.runAndReadAll(
        `SELECT count(*)::DOUBLE AS n FROM (${sql})`,
        values,
        types,
      );
      const rows = Number(counted.getRowObjectsJS()[0]?.n ?? 0);
      if (rows > maxRows) {
        throw new HttpReplyError(
          413,
          'WK_LIMIT_ELEMENTS',
          `this range holds ${rows} rows, more than the ${maxRows} the demo lets its typical JSON route ` +
            'hold at once: that route reads every row into an object and the whole reply into one string ' +
            '(about 0.4 KB of heap per row). Ask a shorter range, or GET /series, which streams any range.',
        );
      }
      await budget.acquire(rows);
      // The share is held until the reply is gone (sent, failed or cut off): the text of a reply
      // being written is still in memory after the handler returns.
      if (reply.raw.destroyed) {
        budget.release(rows);
        return reply;
      }
      reply.raw.once('close', () => budget.release(rows));
      const result = await connection.runAndReadAll(sql, values, types);
      // getRowObjectsJS gives each TIMESTAMP as a Date, which JSON.stringify writes as ISO text.
      return reply.type('application/json').send(JSON.stringify(result.getRowObjectsJS()));
    } finally {
      connection.closeSync();
    }
  });
}
