/**
 * A table source: SQL in, Arrow record batches out, never row objects in between. An engine plugs
 * in by reading its results into the column builders of columns.ts (see ChunkReader); everything
 * after that (batch sizes, cancelling, the stream the HTTP plugin writes) is shared here.
 *
 *   const source = await duckdbSource({ path: 'iot.duckdb' });
 *   const batches = await source.query('SELECT * FROM readings WHERE ts >= $1', { params: [from] });
 *   for await (const batch of batches) draw(batch);        // or return it from a wirekit route
 *
 * `query` resolves once the engine has accepted the statement (a syntax error or an unknown table
 * rejects there, before an HTTP reply has begun) and knows its column types; rows are read as the
 * stream is consumed, so a slow consumer slows the read and one that stops ends it.
 */
import type { RecordBatch } from 'apache-arrow';
import { type RecordBatchStream, recordBatchStream } from '../../codecs/arrow/batch-stream.js';
import { WirekitError } from '../../errors/index.js';
import { type AnyColumn, type ColumnType, columnFor } from './columns.js';
import { BatchAssembler } from './record-batch.js';

/** One value of a query parameter, alone or inside an array. */
export type SqlValue = string | number | bigint | boolean | Date;

/**
 * An array parameter: values and nulls, or sub-arrays all of one size, at most 6 deep. It binds as
 * a list (DuckDB) or an array (PostgreSQL), nested as deep as it is.
 */
export type SqlArray = readonly (SqlValue | null)[] | readonly SqlArray[];

/** A value bound to a `$1`-style parameter (params.ts says what each source refuses, and why). */
export type SqlParam = SqlValue | null | SqlArray;

export interface TableQueryOptions {
  /** Bound to `$1`, `$2`, ... in order: values are never spliced into the SQL text. */
  readonly params?: readonly SqlParam[];
  /** Rows per record batch (default the source's, 65,536 unless set): every batch but the last holds exactly this many. */
  readonly batchRows?: number;
  /**
   * Rows in the first batch (default batchRows, and never more): a small first batch reaches the
   * reader sooner (a chart's first points), and the rest come in batches of batchRows.
   */
  readonly firstBatchRows?: number;
  /** Ends the query: the stream stops and the engine reads no further. */
  readonly signal?: AbortSignal;
}

export interface TableSource {
  /** The engine's name, for logs and errors: 'duckdb', 'postgres', ... */
  readonly engine: string;
  query(sql: string, options?: TableQueryOptions): Promise<TableStream>;
  /** Closes the source's connections; queries still streaming fail. */
  close(): Promise<void>;
}

/** A result column: its name and what its values are. */
export interface ResultColumn {
  readonly name: string;
  readonly type: ColumnType;
}

/** What an engine implements: its result's columns, read into builders chunk by chunk. */
export interface ChunkReader {
  readonly columns: readonly ResultColumn[];
  /**
   * Appends at most `room` rows to `columns` (built from `this.columns`, in order), resolving with
   * how many were appended: 0 when the result has no more rows.
   */
  fill(columns: readonly AnyColumn[], room: number): Promise<number>;
  /** Stops reading and frees the result (idempotent). Called on every way out: end, error, abort. */
  close(): Promise<void>;
}

export const defaultBatchRows = 65_536;

/** Checks a batchRows option: a positive integer no larger than 16 M rows. */
export function checkBatchRows(rows: number): number {
  if (!Number.isSafeInteger(rows) || rows < 1 || rows > 1 << 24) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `batchRows must be an integer from 1 to 16,777,216, got ${rows}.`,
    );
  }
  return rows;
}

/**
 * What every engine's `query` does around its own part: size the batches (the query's options over
 * the source's `batchRows`, each checked before anything is opened), refuse a query already
 * aborted, then stream what `open` starts. `open` gets the rows per batch (an engine may ask its
 * server for that many at a time) and frees what it took if it fails.
 */
export async function openTableStream(
  query: TableQueryOptions,
  sourceBatchRows: number,
  open: (batchRows: number) => Promise<ChunkReader>,
): Promise<TableStream> {
  const batchRows = checkBatchRows(query.batchRows ?? sourceBatchRows);
  const firstBatchRows = checkBatchRows(query.firstBatchRows ?? batchRows);
  query.signal?.throwIfAborted();
  return new TableStream(await open(batchRows), batchRows, query.signal, firstBatchRows);
}

/**
 * The record batches of one query, read from its ChunkReader as they are asked for. Iterate it
 * once. `rowsRead` counts the rows the engine has handed over (what a cancelled query cost).
 */
export class TableStream implements RecordBatchStream {
  readonly [recordBatchStream] = true as const;
  private started = false;
  private done = false;
  /** The engine said the result has no more rows (as opposed to a stop). */
  private exhausted = false;
  private readRows = 0;

  constructor(
    private readonly reader: ChunkReader,
    private readonly batchRows: number,
    private readonly signal: AbortSignal | undefined,
    /** Rows in the first batch (at most batchRows). */
    private readonly firstBatchRows = batchRows,
  ) {
    signal?.addEventListener('abort', () => void this.finish(), { once: true });
  }

  /** The result's columns, known before the first batch. */
  get columns(): readonly ResultColumn[] {
    return this.reader.columns;
  }

  get rowsRead(): number {
    return this.readRows;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<RecordBatch> {
    if (this.started)
      throw new WirekitError('WK_OPTIONS_INVALID', 'a TableStream can be iterated only once.');
    this.started = true;
    const columns = this.reader.columns.map((column) => columnFor(column.name, column.type, this.batchRows));
    const assembler = new BatchAssembler(columns);
    try {
      for (let batch = 0; ; batch++) {
        const size = batch === 0 ? Math.min(this.firstBatchRows, this.batchRows) : this.batchRows;
        let rows = 0;
        while (rows < size && !this.done) {
          this.throwIfAborted();
          const added = await this.reader.fill(columns, size - rows);
          if (added === 0) {
            this.exhausted = true;
            this.done = true;
            break;
          }
          rows += added;
          this.readRows += added;
        }
        this.throwIfAborted();
        // An empty result still yields one empty batch, so that its stream carries the schema.
        if (rows > 0 || this.readRows === 0) yield assembler.take(rows);
        if (this.exhausted) return;
        // Aborted while the consumer held the batch: fail, or the consumer would take the rows
        // so far for the whole table.
        this.throwIfAborted();
        if (this.done) return;
      }
    } finally {
      await this.finish();
    }
  }

  private throwIfAborted(): void {
    if (this.signal?.aborted) {
      throw new WirekitError('WK_TABLE_QUERY_FAILED', 'the query was cancelled: its consumer went away.');
    }
  }

  private async finish(): Promise<void> {
    this.done = true;
    await this.reader.close();
  }
}
