/**
 * The large-tables boundary: SQL in, Arrow record batches out. This entry holds what every engine
 * shares and imports none of them; the engines have entries of their own
 * (`wirekit-ts/tables/duckdb`, `wirekit-ts/tables/postgres`), so that an application loads only the
 * database driver it uses.
 */
export {
  type ArrowIpcBytes,
  arrowIpcStream,
  type RecordBatchStream,
  recordBatches,
} from '../../codecs/arrow/batch-stream.js';
export type { ColumnType } from './columns.js';
export {
  type ChunkReader,
  defaultBatchRows,
  type ResultColumn,
  type SqlParam,
  type TableQueryOptions,
  type TableSource,
  TableStream,
} from './source.js';
