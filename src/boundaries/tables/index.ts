/**
 * The table sources' shared surface: the TableSource interface, the stream of record batches a
 * query returns, and the column builders an engine of your own fills. No engine is imported here:
 * DuckDB is `wirekit-ts/tables/duckdb`, PostgreSQL `wirekit-ts/tables/postgres`, each needing only
 * its own driver installed.
 */
export {
  type AnyColumn,
  BoolColumn,
  BytesColumn,
  type ColumnType,
  columnFor,
  dictionaryShare,
  FixedWidthColumn,
} from './columns.js';
export {
  type ChunkReader,
  checkBatchRows,
  defaultBatchRows,
  type ResultColumn,
  type SqlParam,
  type TableQueryOptions,
  type TableSource,
  TableStream,
} from './source.js';
