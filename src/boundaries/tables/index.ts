/**
 * The large-tables boundary: SQL in, Arrow record batches out. This entry holds what every engine
 * shares (the TableSource interface, the stream a query returns, the column builders an engine of
 * your own fills) and imports none of them: DuckDB is `wirekit-ts/tables/duckdb`, PostgreSQL
 * `wirekit-ts/tables/postgres`, each needing only its own driver installed.
 */
export {
  type ArrowIpcBytes,
  arrowIpcStream,
  type RecordBatchStream,
  recordBatches,
} from '../../codecs/arrow/batch-stream.js';
export {
  type AnyColumn,
  BoolColumn,
  BytesColumn,
  type ColumnType,
  columnFor,
  dictionaryShare,
  FixedWidthColumn,
} from './columns.js';
// All of source.ts is the engines' shared contract, so all of it is public.
export * from './source.js';
