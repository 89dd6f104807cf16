/**
 * The tables boundary as Arrow serves it: what `wirekit-ts/tables` does between a database and a
 * browser or DuckDB, measured in the lab's case process. The server fills the tables source's
 * column builders from an engine's column vectors, cuts record batches (65,536 rows, the source's
 * default) and writes them as one IPC stream, as the HTTP plugin does (writeBatches); the client
 * reads the stream batch by batch and reads every column's values, never building row objects.
 *
 * The row formats' counterpart is their round trip (encode rows, decode rows), which the case
 * measures anyway. Each path starts from the shape its source hands over: row objects for the row
 * formats, column vectors for Arrow (prepared before timing, as an engine such as DuckDB holds
 * them). Memory is the bytes of the response the server holds at once: one batch's buffers and
 * its IPC bytes on this path, the whole payload on the row path.
 */
import type { Data, RecordBatch } from 'apache-arrow';
import { RecordBatchReader } from 'apache-arrow';
import {
  type AnyColumn,
  BoolColumn,
  BytesColumn,
  type ChunkReader,
  type ColumnType,
  defaultBatchRows,
  FixedWidthColumn,
  openTableStream,
} from '../boundaries/tables/index.js';
import { type ArrowCodec, createArrowCodec } from '../codecs/arrow/index.js';
import type { ObjectSchema, Schema } from '../schema/index.js';
import { summarize } from './stats.js';

/** The tables boundary measured for one format, per whole result (every batch). */
export interface TablesMeasure {
  /** 'columns': the tables source's Arrow stream, read as columns; 'rows': encode rows, decode rows. */
  readonly path: 'columns' | 'rows';
  /** Rows per record batch on the columns path; the whole result on the rows path. */
  readonly batchRows: number;
  /** Median milliseconds for the server to turn the result into bytes, and for the client to read them. */
  readonly serverMs: number;
  readonly clientMs: number;
  /** The most bytes of the response the server holds at once. */
  readonly serverPeakBytes: number;
}

/** The measure's column type for a field, or why the tables source carries no such column. */
function columnType(schema: Schema): ColumnType | string {
  switch (schema.kind) {
    case 'bool':
      return { kind: 'bool' };
    case 'int8':
    case 'int16':
    case 'int32':
      return {
        kind: 'int',
        bits: schema.kind === 'int8' ? 8 : schema.kind === 'int16' ? 16 : 32,
        signed: true,
      };
    case 'uint8':
    case 'uint16':
    case 'uint32':
      return {
        kind: 'int',
        bits: schema.kind === 'uint8' ? 8 : schema.kind === 'uint16' ? 16 : 32,
        signed: false,
      };
    case 'int64':
    case 'uint64':
      return { kind: 'int', bits: 64, signed: schema.kind === 'int64' };
    case 'float32':
      return { kind: 'float', bits: 32 };
    case 'float64':
      return { kind: 'float', bits: 64 };
    case 'timestamp':
      return { kind: 'timestamp', unit: 'ms', timezone: 'UTC' };
    case 'string':
      return { kind: 'utf8' };
    case 'bytes':
      return { kind: 'binary' };
    default:
      return schema.kind;
  }
}

/** Each field's column type, or why the tables measure cannot run on this schema. */
function tableColumns(item: ObjectSchema): { name: string; type: ColumnType }[] | string {
  const out: { name: string; type: ColumnType }[] = [];
  for (const field of item.fields) {
    const type = columnType(field.schema);
    if (typeof type === 'string') {
      return `the tables source carries flat columns of numbers, strings, bytes, booleans and timestamps; ${field.name} is ${type}`;
    }
    out.push({ name: field.name, type });
  }
  return out;
}

/** One column as an engine holds it: fixed-width values in Arrow's layout, or bytes with offsets. */
type EngineVector =
  | { readonly kind: 'fixed'; readonly values: Uint8Array }
  | { readonly kind: 'bool'; readonly values: Uint8Array }
  | { readonly kind: 'bytes'; readonly data: Uint8Array; readonly offsets: Int32Array };

/** The rows as the engine's column vectors: prepared once, before anything is timed. */
function engineVectors(
  rows: readonly Record<string, unknown>[],
  columns: readonly { name: string; type: ColumnType }[],
) {
  const encoder = new TextEncoder();
  return columns.map(({ name, type }): EngineVector => {
    const values = rows.map((row) => row[name]);
    switch (type.kind) {
      case 'bool':
        return { kind: 'bool', values: Uint8Array.from(values, (v) => (v ? 1 : 0)) };
      case 'utf8':
      case 'binary': {
        // Written straight into one buffer, no array per value: --large has 10 million of them.
        const offsets = new Int32Array(values.length + 1);
        values.forEach((v, i) => {
          const length = typeof v === 'string' ? Buffer.byteLength(v) : (v as Uint8Array).length;
          offsets[i + 1] = (offsets[i] as number) + length;
        });
        const data = new Uint8Array(offsets[values.length] as number);
        values.forEach((v, i) => {
          const at = offsets[i] as number;
          if (typeof v === 'string') encoder.encodeInto(v, data.subarray(at, offsets[i + 1]));
          else data.set(v as Uint8Array, at);
        });
        return { kind: 'bytes', data, offsets };
      }
      case 'timestamp':
        return {
          kind: 'fixed',
          values: bytesOf(BigInt64Array.from(values, (v) => BigInt((v as Date).getTime()))),
        };
      case 'float':
        return {
          kind: 'fixed',
          values: bytesOf(
            type.bits === 32 ? Float32Array.from(values as number[]) : Float64Array.from(values as number[]),
          ),
        };
      case 'int': {
        if (type.bits === 64)
          return {
            kind: 'fixed',
            values: bytesOf(
              BigInt64Array.from(values, (v) => BigInt.asIntN(64, BigInt(v as number | bigint))),
            ),
          };
        const array =
          type.bits === 8
            ? new Uint8Array(values.length)
            : type.bits === 16
              ? new Uint16Array(values.length)
              : new Uint32Array(values.length);
        values.forEach((v, i) => {
          array[i] = v as number;
        });
        return { kind: 'fixed', values: bytesOf(array) };
      }
      default:
        throw new Error(`no engine vector for ${type.kind}`);
    }
  });
}

const bytesOf = (view: ArrayBufferView) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength);

/** The engine's side of a query: hands over its vectors in chunks of 2,048 rows, as DuckDB does. */
class EngineStandIn implements ChunkReader {
  private at = 0;

  constructor(
    readonly columns: readonly { name: string; type: ColumnType }[],
    private readonly vectors: readonly EngineVector[],
    private readonly rows: number,
  ) {}

  async fill(columns: readonly AnyColumn[], room: number): Promise<number> {
    const count = Math.min(room, 2_048, this.rows - this.at);
    for (let c = 0; c < columns.length; c++) {
      const column = columns[c] as AnyColumn;
      const vector = this.vectors[c] as EngineVector;
      if (vector.kind === 'bytes' && column instanceof BytesColumn) {
        for (let r = this.at; r < this.at + count; r++) {
          column.appendSlice(vector.data, vector.offsets[r] as number, vector.offsets[r + 1] as number);
        }
      } else if (
        vector.kind !== 'bytes' &&
        (column instanceof FixedWidthColumn || column instanceof BoolColumn)
      ) {
        column.appendBulk(vector.values, null, this.at, count);
      }
    }
    this.at += count;
    return count;
  }

  async close(): Promise<void> {}
}

/** The bytes of a batch's buffers (dictionaries included): what the server holds while it writes it. */
function dataBytes(data: Data): number {
  let bytes =
    (data.values?.byteLength ?? 0) +
    (data.valueOffsets?.byteLength ?? 0) +
    (data.nullBitmap?.byteLength ?? 0);
  for (const child of data.children) bytes += dataBytes(child);
  for (const chunk of data.dictionary?.data ?? []) bytes += dataBytes(chunk);
  return bytes;
}

/** The server's side once: the query's batches written as an IPC stream, and the most bytes held at once. */
async function serve(
  codec: ArrowCodec,
  columns: readonly { name: string; type: ColumnType }[],
  vectors: readonly EngineVector[],
  rows: number,
) {
  const stream = await openTableStream(
    {},
    defaultBatchRows,
    async () => new EngineStandIn(columns, vectors, rows),
  );
  const held: number[] = [];
  async function* measured(): AsyncGenerator<RecordBatch> {
    for await (const batch of stream) {
      held.push(dataBytes(batch.data));
      yield batch;
    }
  }
  const chunks: Uint8Array[] = [];
  let peak = 0;
  for await (const chunk of codec.encodeBatches(measured())) {
    // One chunk per batch (its dictionaries and message), then the end-of-stream marker.
    peak = Math.max(peak, (held[chunks.length] ?? 0) + chunk.length);
    chunks.push(chunk);
  }
  return { chunks, peak };
}

/** The client's side: every batch of the stream, every column's values read, no row objects. */
function read(body: Uint8Array): number {
  let touched = 0;
  for (const batch of RecordBatchReader.from(body)) {
    for (let i = 0; i < batch.numCols; i++) {
      const values: unknown = batch.getChildAt(i)?.toArray();
      touched += ArrayBuffer.isView(values) ? readWords(values) : readStrings(values as ArrayLike<string>);
    }
  }
  return touched;
}

/**
 * Every byte of a column of fixed-width values, read through one view type whatever the column's
 * (32-bit words where aligned): a reader of floats, ids and timestamps pays no bigint per value.
 */
function readWords(view: ArrayBufferView): number {
  const aligned = view.byteOffset % 4 === 0 && view.byteLength % 4 === 0;
  const words = aligned
    ? new Int32Array(view.buffer, view.byteOffset, view.byteLength / 4)
    : new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  let sum = 0;
  for (let i = 0; i < words.length; i++) sum = (sum + (words[i] as number)) | 0;
  return sum;
}

function readStrings(values: ArrayLike<string>): number {
  let length = 0;
  for (let i = 0; i < values.length; i++) length += (values[i] as string).length;
  return length;
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * The columns path on `rows`: server and client timed in rounds after two warm-up rounds, as many
 * as `budgetMs` allows (3 to `rounds`), medians per whole result.
 */
export async function measureColumnsPath(
  item: ObjectSchema,
  rows: readonly unknown[],
  rounds: number,
  budgetMs: number,
): Promise<TablesMeasure | string> {
  const columns = tableColumns(item);
  if (typeof columns === 'string') return columns;
  const vectors = engineVectors(rows as Record<string, unknown>[], columns);
  // The route's codec, made once as a route makes it at registration: it checks the first batch's
  // columns against the schema and writes the stream, as the HTTP plugin does for a tables source.
  const codec = createArrowCodec({ schema: item });
  const server: number[] = [];
  const client: number[] = [];
  let peak = 0;
  const round = async () => {
    let start = performance.now();
    const served = await serve(codec, columns, vectors, rows.length);
    const serverMs = performance.now() - start;
    // The body as the client receives it, whole; its reader then walks it batch by batch.
    const body = concat(served.chunks);
    start = performance.now();
    read(body);
    const clientMs = performance.now() - start;
    peak = served.peak;
    return [serverMs, clientMs] as const;
  };
  let roundMs = 0;
  for (let i = 0; i < 2; i++) roundMs = (await round()).reduce((sum, ms) => sum + ms, 0);
  const count = Math.max(3, Math.min(rounds, Math.floor(budgetMs / Math.max(roundMs, 0.001))));
  for (let i = 0; i < count; i++) {
    const [s, c] = await round();
    server.push(s);
    client.push(c);
  }
  return {
    path: 'columns',
    batchRows: defaultBatchRows,
    serverMs: summarize(server).median,
    clientMs: summarize(client).median,
    serverPeakBytes: peak,
  };
}
