/**
 * DuckDB, embedded: the default table source, nothing to install or run. Results are read chunk
 * by chunk from a streaming query (DuckDB computes the next chunk only when it is fetched, so a
 * consumer that stops stops the query), and each chunk's column vectors are copied into the
 * batch's Arrow buffers in bulk: one copy per vector of fixed-width values, since DuckDB stores
 * integers, floats, dates and timestamps as Arrow does. `getColumnsJS` would build a JS value per
 * cell, about ten times slower. A vector's memory belongs to its chunk, which DuckDB reuses once
 * the next chunk is fetched, so it is copied before that.
 *
 * DuckDB here is used offline: extensions are never downloaded or loaded on their own
 * (autoinstall/autoload off), and the source does not rely on DuckDB's Arrow extension.
 */
import type {
  DuckDBConnection,
  DuckDBDataChunk,
  DuckDBInstance,
  DuckDBResult,
  DuckDBTypeId,
} from '@duckdb/node-api';
import { WirekitError } from '../../errors/index.js';
import { importPeer } from '../../util/optional-peer.js';
import type { AnyColumn, BoolColumn, BytesColumn, ColumnType, FixedWidthColumn } from './columns.js';
import { duckdbParams } from './duckdb-params.js';
import {
  type ChunkReader,
  checkBatchRows,
  defaultBatchRows,
  openTableStream,
  type ResultColumn,
  type SqlParam,
  type TableQueryOptions,
  type TableSource,
} from './source.js';

export { type DuckDBParams, duckdbParams } from './duckdb-params.js';

export interface DuckDBSourceOptions {
  /** A database file, or ':memory:' (the default). Ignored when `instance` is given. */
  readonly path?: string;
  /** An instance of your own, shared with the rest of the application. */
  readonly instance?: DuckDBInstance;
  /** DuckDB settings, on top of the offline defaults (autoinstall/autoload of extensions off). */
  readonly config?: Readonly<Record<string, string>>;
  /** Rows per record batch (default 65,536). */
  readonly batchRows?: number;
}

export interface DuckDBSource extends TableSource {
  readonly engine: 'duckdb';
  readonly instance: DuckDBInstance;
  /** Runs statements that return no table (DDL, inserts), with bound parameters. */
  run(sql: string, params?: readonly SqlParam[]): Promise<void>;
}

const offline = { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' };

/**
 * The DuckDB packages, optional peers: loaded by duckdbSource, which every reader below comes
 * after, and kept here so that the readers use DuckDB's enums and bindings as an import would.
 */
let api: typeof import('@duckdb/node-api');
let duckdb: typeof import('@duckdb/node-bindings');

async function loadDuckDB(): Promise<void> {
  api = await importPeer(() => import('@duckdb/node-api'), 'duckdbSource', '@duckdb/node-api');
  // The bindings' exports are the native addon's, which Node cannot name: all are the default export.
  duckdb = await importPeer(
    async () => (await import('@duckdb/node-bindings')).default,
    'duckdbSource',
    '@duckdb/node-bindings',
  );
}

export async function duckdbSource(options: DuckDBSourceOptions = {}): Promise<DuckDBSource> {
  const batchRows = checkBatchRows(options.batchRows ?? defaultBatchRows);
  await loadDuckDB();
  const owned = options.instance === undefined;
  const instance =
    options.instance ??
    (await api.DuckDBInstance.create(options.path ?? ':memory:', { ...offline, ...options.config }));
  const open = new Set<DuckDBConnection>();
  return {
    engine: 'duckdb',
    instance,
    async run(sql, params = []) {
      // Every parameter is checked and typed before a connection is taken.
      const bound = duckdbParams(params);
      const connection = await instance.connect();
      try {
        await connection.run(sql, bound.values, bound.types);
      } catch (error) {
        throw queryFailed(error);
      } finally {
        connection.closeSync();
      }
    },
    query(sql, query: TableQueryOptions = {}) {
      return openTableStream(query, batchRows, async () => {
        const bound = duckdbParams(query.params ?? []);
        // A connection per query: one DuckDB connection runs one statement at a time, and queries
        // of concurrent requests must not wait for each other.
        const connection = await instance.connect();
        open.add(connection);
        const release = () => {
          if (open.delete(connection)) connection.closeSync();
        };
        try {
          const result = await connection.stream(sql, bound.values, bound.types);
          return new DuckDBChunks(result, connection, release);
        } catch (error) {
          release();
          throw queryFailed(error);
        }
      });
    },
    async close() {
      for (const connection of open) connection.closeSync();
      open.clear();
      if (owned) instance.closeSync();
    },
  };
}

function queryFailed(error: unknown): WirekitError {
  if (error instanceof WirekitError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new WirekitError('WK_TABLE_QUERY_FAILED', `DuckDB: ${message}`, { cause: error });
}

/** The column type of each DuckDB type the source reads; others are refused at query start. */
function columnTypeOf(typeId: DuckDBTypeId): ColumnType | undefined {
  const id = api.DuckDBTypeId;
  switch (typeId) {
    case id.BOOLEAN:
      return { kind: 'bool' };
    case id.TINYINT:
      return { kind: 'int', bits: 8, signed: true };
    case id.SMALLINT:
      return { kind: 'int', bits: 16, signed: true };
    case id.INTEGER:
      return { kind: 'int', bits: 32, signed: true };
    case id.BIGINT:
      return { kind: 'int', bits: 64, signed: true };
    case id.UTINYINT:
      return { kind: 'int', bits: 8, signed: false };
    case id.USMALLINT:
      return { kind: 'int', bits: 16, signed: false };
    case id.UINTEGER:
      return { kind: 'int', bits: 32, signed: false };
    case id.UBIGINT:
      return { kind: 'int', bits: 64, signed: false };
    case id.FLOAT:
      return { kind: 'float', bits: 32 };
    case id.DOUBLE:
      return { kind: 'float', bits: 64 };
    case id.DATE:
      return { kind: 'date' };
    case id.TIMESTAMP:
      return { kind: 'timestamp', unit: 'us' };
    case id.TIMESTAMP_S:
      return { kind: 'timestamp', unit: 's' };
    case id.TIMESTAMP_MS:
      return { kind: 'timestamp', unit: 'ms' };
    case id.TIMESTAMP_NS:
      return { kind: 'timestamp', unit: 'ns' };
    case id.TIMESTAMP_TZ:
      return { kind: 'timestamp', unit: 'us', timezone: 'UTC' };
    case id.VARCHAR:
      return { kind: 'utf8' };
    case id.BLOB:
      return { kind: 'binary' };
    default:
      return undefined;
  }
}

/** How many bytes a vector of `rows` values of `type` holds (strings: DuckDB's 16-byte string_t). */
function vectorBytes(type: ColumnType, rows: number): number {
  switch (type.kind) {
    case 'bool':
      return rows;
    case 'int':
    case 'float':
      return (rows * type.bits) / 8;
    case 'date':
      return rows * 4;
    case 'timestamp':
      return rows * 8;
    default:
      return rows * 16;
  }
}

/** Reads a streaming result's chunks into column builders. */
class DuckDBChunks implements ChunkReader {
  readonly columns: readonly ResultColumn[];
  private chunk: DuckDBDataChunk | null = null;
  /** Rows of `chunk` already appended; the rest go into the next batch. */
  private used = 0;
  private size = 0;
  private ended = false;
  private fetching: Promise<DuckDBDataChunk | null> | undefined;

  constructor(
    private readonly result: DuckDBResult,
    private readonly connection: DuckDBConnection,
    private readonly release: () => void,
  ) {
    const columns: ResultColumn[] = [];
    for (let i = 0; i < result.columnCount; i++) {
      const typeId = result.columnTypeId(i);
      const type = columnTypeOf(typeId);
      const name = result.columnName(i);
      if (type === undefined) {
        release();
        throw new WirekitError(
          'WK_TABLE_TYPE_UNSUPPORTED',
          `DuckDB: column ${JSON.stringify(name)} is of type ${result.columnType(i).toString()}, which the table source does not read; cast it in the query (to VARCHAR, DOUBLE, TIMESTAMP, ...).`,
        );
      }
      columns.push({ name, type });
    }
    this.columns = columns;
  }

  async fill(columns: readonly AnyColumn[], room: number): Promise<number> {
    if (this.ended) return 0;
    if (this.chunk === null || this.used === this.size) {
      try {
        this.fetching = this.result.fetchChunk();
        this.chunk = await this.fetching;
      } catch (error) {
        await this.close();
        throw queryFailed(error);
      } finally {
        this.fetching = undefined;
      }
      this.used = 0;
      this.size = this.chunk?.rowCount ?? 0;
      if (this.size === 0) {
        // A streaming result that fails mid-way ends exactly as one that is done: DuckDB's C API
        // returns no chunk for both and keeps the error on the result, whose message the bindings
        // do not expose. Its return type turns INVALID then, which tells the two apart: a query
        // that failed must never pass for a shorter table.
        const failed = this.result.returnType === api.ResultReturnType.INVALID;
        await this.close();
        if (failed) {
          throw new WirekitError(
            'WK_TABLE_QUERY_FAILED',
            'DuckDB: the query failed while its rows were being read (DuckDB keeps the message on the result, out of reach of its Node bindings; run the query in DuckDB to see it).',
          );
        }
        return 0;
      }
    }
    const rows = Math.min(room, this.size - this.used);
    const raw = (this.chunk as DuckDBDataChunk).chunk;
    for (let j = 0; j < columns.length; j++) {
      const type = (this.columns[j] as ResultColumn).type;
      const vector = duckdb.data_chunk_get_vector(raw, j);
      const values = duckdb.vector_get_data(vector, vectorBytes(type, this.size));
      const validity = duckdb.vector_get_validity(vector, Math.ceil(this.size / 64) * 8);
      const column = columns[j] as AnyColumn;
      if (type.kind === 'utf8' || type.kind === 'binary') {
        appendStrings(column as BytesColumn, values, validity, this.used, rows);
      } else (column as FixedWidthColumn | BoolColumn).appendBulk(values, validity, this.used, rows);
    }
    this.used += rows;
    return rows;
  }

  async close(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.chunk = null;
    // A fetch in flight (the consumer left while DuckDB computes a chunk): stop the work.
    if (this.fetching !== undefined) {
      this.connection.interrupt();
      await this.fetching.catch(() => {});
    }
    this.release();
  }
}

/**
 * DuckDB's strings are 16-byte records: a 4-byte length, then the bytes themselves when they fit
 * in 12, else a 4-byte prefix and a pointer to the bytes, which only the bindings can follow.
 */
function appendStrings(
  column: BytesColumn,
  records: Uint8Array,
  validity: Uint8Array | null,
  from: number,
  rows: number,
): void {
  const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
  for (let i = from; i < from + rows; i++) {
    if (validity !== null && ((validity[i >>> 3] as number) & (1 << (i & 7))) === 0) {
      column.append(null);
      continue;
    }
    const at = i * 16;
    const length = view.getUint32(at, true);
    column.append(
      length <= 12
        ? records.subarray(at + 4, at + 4 + length)
        : duckdb.get_data_from_pointer(records.buffer as ArrayBuffer, records.byteOffset + at + 8, length),
    );
  }
}
