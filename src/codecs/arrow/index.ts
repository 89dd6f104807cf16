/**
 * Apache Arrow IPC: columnar record batches. A value of this codec is an array of rows (the root
 * object schema describes one row); the stream methods take and give rows one at a time, sent as a
 * record batch per `batchSize` rows. Columns are built straight from the rows into typed arrays
 * and written by apache-arrow's IPC writers; reading parses and checks every message itself before
 * building apache-arrow Data, because apache-arrow's reader trusts its input.
 *
 * An IPC stream carries its own schema, so a codec made without one still decodes: each row is
 * read by the input's Arrow types (decode/stored.ts). It cannot encode: the columns' types would have
 * to be guessed from the values, and guessed anew for every batch of a stream, so one stream could
 * change types halfway; `inferSchema` makes that guess once, in the open, where it can be checked.
 */

import { type Schema as ArrowSchema, type RecordBatch, Table } from 'apache-arrow';
import { formatPath, ValidationError, WirekitError } from '../../errors/index.js';
import { assert, type Schema, t } from '../../schema/index.js';
import { rejectsUnknownKeys } from '../core/codec.js';
import { malformed } from '../core/errors.js';
import type { FormatEntry } from '../core/format-entry.js';
import { checkInputSize, type DecodeLimits, resolveLimits } from '../core/limits.js';
import { arrowMediaTypes } from '../core/media-types.js';
import { checkIterable } from '../core/sequence.js';
import { encodeValues } from '../core/stream.js';
import { writeBatches } from './batch-stream.js';
import { compileArrow } from './compiled.js';
import { readIpc } from './decode/ipc-bytes.js';
import { readIpcChunks } from './decode/ipc-chunks.js';
import { IpcReader, type SchemaMemo } from './decode/ipc-reader.js';
import { encodeBatch } from './encode/columns.js';
import { type IpcFormat, IpcWriter, schemaMessageOf } from './encode/ipc-writer.js';
import type { IpcCompression } from './ipc-compression.js';
import { type ArrowCodecOptions, resolveArrowOptions } from './options.js';
import { buildRootPlan } from './plan.js';
import { batchesOf, eachRow } from './rows-stream.js';

export type { Codec, CodecOptions } from '../core/codec.js';
export type { FormatEntry } from '../core/format-entry.js';
export type { DecodeLimits } from '../core/limits.js';
export type { IpcFormat } from './encode/ipc-writer.js';
export type { IpcCompression } from './ipc-compression.js';
export type { ArrowCodecOptions } from './options.js';
export { arrowMediaTypes };

type Chunks = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/**
 * A Codec whose value is an array of rows. Its stream methods work per row, and two more methods
 * give apache-arrow's own objects to readers that want whole columns without a copy.
 */
export interface ArrowCodec<Row = unknown> {
  readonly format: 'arrow';
  readonly mediaType: string;
  readonly streamMediaType: string;
  readonly schema: Schema;
  readonly ipcFormat: IpcFormat;
  /** The codec of the bodies encode writes (ArrowCodecOptions.ipcCompression), if any. */
  readonly ipcCompression: IpcCompression | undefined;
  /** The Arrow schema written (toArrowSchema of the codec's schema). */
  readonly arrowSchema: ArrowSchema;
  /** Whether rows are decoded by code generated from the schema (src/codecs/arrow/compiled.ts). */
  readonly compiled: boolean;
  encode(rows: readonly Row[]): Uint8Array;
  decode(bytes: Uint8Array): Row[];
  /** One IPC stream (or file): a record batch per `batchSize` rows, then the end marker. */
  encodeStream(rows: Iterable<Row> | AsyncIterable<Row>): ReadableStream<Uint8Array>;
  /** Rows as their record batches arrive (a file is read whole first: its footer comes last). */
  decodeStream(chunks: Chunks): AsyncIterable<Row>;
  /** What decodeStream gives, a record batch's rows at a time: for readers that work in batches. */
  decodeRowBatches(chunks: Chunks): AsyncIterable<Row[]>;
  /** What `encode` writes: an Arrow table is already the sequence of its rows. */
  encodeSequence(rows: Iterable<Row>): Uint8Array;
  /** What `decode` reads: the rows of every record batch of a stream or file. */
  decodeSequence(bytes: Uint8Array): Row[];
  /**
   * The input as an apache-arrow Table whose columns are views into `bytes`. Messages, buffers,
   * offsets, UTF-8, dictionary indices and the schema are checked as decode checks them; values
   * are not converted, so what only a value can break (a null in a field the codec's schema does
   * not allow, a dictionary entry that is no enum member, JSON text) is left to the reader.
   */
  decodeTable(bytes: Uint8Array): Table;
  /** Record batches as they arrive, checked as decodeTable checks them. */
  decodeBatches(chunks: Chunks): AsyncIterable<RecordBatch>;
  /**
   * One IPC stream of record batches built elsewhere (a table source's query), written as they
   * come and in their own Arrow schema, which must be one this codec reads as its schema (checked
   * on the first batch). Cancelling the stream returns the batches' iterator.
   */
  encodeBatches(batches: AsyncIterable<RecordBatch>): ReadableStream<Uint8Array>;
}

/**
 * An Arrow codec made without a schema: it decodes rows by the input's own Arrow schema (the JS
 * value of each Arrow type is in docs/mapping/arrow.md); encode and encodeStream throw
 * WK_SCHEMA_REQUIRED.
 */
export interface SchemalessArrowCodec<Row = Record<string, unknown>>
  extends Omit<ArrowCodec<Row>, 'schema' | 'arrowSchema' | 'compiled'> {
  readonly schema: undefined;
  readonly arrowSchema: undefined;
  readonly compiled: false;
}

export function createArrowCodec<Row = unknown>(
  options: ArrowCodecOptions & { readonly schema: Schema },
): ArrowCodec<Row>;
export function createArrowCodec<Row = Record<string, unknown>>(
  options?: ArrowCodecOptions & { readonly schema?: undefined },
): SchemalessArrowCodec<Row>;
export function createArrowCodec<Row = unknown>(
  options?: ArrowCodecOptions,
): ArrowCodec<Row> | SchemalessArrowCodec<Row>;
export function createArrowCodec<Row = unknown>(
  options: ArrowCodecOptions = {},
): ArrowCodec<Row> | SchemalessArrowCodec<Row> {
  const { schema } = options;
  const resolved = resolveArrowOptions(options);
  const { ipcFormat, batchSize, ipcCompression, maxDecompressionRatio } = resolved;
  if (schema === undefined) return createSchemalessCodec<Row>(options, resolved);
  const limits = resolveLimits(options.limits);
  const plan = buildRootPlan(schema, limits.maxDepth);
  const rejectUnknown = rejectsUnknownKeys(options);
  const rowsSchema = options.validate ? t.array(schema) : undefined;
  const mediaType = arrowMediaTypes[ipcFormat === 'stream' ? 0 : 1];
  const memo: SchemaMemo = {};
  const compiled =
    options.compile !== false && plan.rows === 'object' ? compileArrow(plan.struct) : undefined;
  const compiledRows = compiled?.rows;
  const readerOptions = { memo, compiledRows, maxDecompressionRatio, rejectUnknown };
  let schemaMessage: Uint8Array | undefined;
  const newWriter = () => {
    schemaMessage ??= schemaMessageOf(plan.arrowSchema);
    return new IpcWriter(plan.arrowSchema, ipcFormat, schemaMessage, ipcCompression);
  };

  /** Writes rows [0, rows.length) as batches; `first` is the index of rows[0] in the whole input. */
  const writeRows = (writer: IpcWriter, rows: readonly unknown[], first: number): void => {
    if (rowsSchema !== undefined) withRowIndex(first, () => assert(rowsSchema, rows));
    for (let start = 0; start < rows.length; start += batchSize) {
      const end = Math.min(rows.length, start + batchSize);
      writer.write(withRowIndex(first + start, () => encodeBatch(plan, rows, start, end, compiled?.columns)));
    }
  };

  const codec: ArrowCodec<Row> = {
    format: 'arrow',
    mediaType,
    streamMediaType: mediaType,
    schema,
    ipcFormat,
    ipcCompression,
    arrowSchema: plan.arrowSchema,
    compiled: compiled !== undefined,
    encode(rows) {
      if (!Array.isArray(rows)) {
        throw new WirekitError('WK_VALIDATION_FAILED', 'expected an array of rows (Arrow encodes a table).', {
          path: [],
        });
      }
      return guardEncode(() => {
        const writer = newWriter();
        writer.start();
        writeRows(writer, rows, 0);
        writer.finish();
        return writer.take();
      });
    },
    decode(bytes) {
      return guard(() => {
        checkInputSize(bytes, limits);
        const reader = new IpcReader(plan, limits, readerOptions);
        let rows: unknown[] = [];
        readIpc(bytes, reader, limits, (data, offset) => {
          rows = reader.appendRows(data, offset, rows);
        });
        return rows as Row[];
      });
    },
    encodeStream(rows) {
      const writer = newWriter();
      let written = 0;
      return encodeValues(
        batchesOf(rows, batchSize),
        (batch) =>
          guardEncode(() => {
            writeRows(writer, batch, written);
            written += batch.length;
            return writer.take();
          }),
        {
          head: () => {
            writer.start();
            return writer.take();
          },
          tail: () => {
            writer.finish();
            return writer.take();
          },
        },
      );
    },
    encodeSequence(rows) {
      checkIterable(rows);
      return codec.encode(Array.isArray(rows) ? rows : Array.from(rows));
    },
    decodeSequence: (bytes) => codec.decode(bytes),
    decodeStream: (chunks) => eachRow(codec.decodeRowBatches(chunks) as AsyncGenerator<Row[]>),
    decodeRowBatches: (chunks) =>
      decodeRowBatches<Row>(
        chunks,
        () => new IpcReader(plan, limits, { ...readerOptions, perBatch: true }),
        limits,
      ),
    decodeTable(bytes) {
      return guard(() => {
        checkInputSize(bytes, limits);
        const reader = new IpcReader(plan, limits, readerOptions);
        const batches: RecordBatch[] = [];
        readIpc(bytes, reader, limits, (data) => batches.push(reader.batch(data)));
        return new Table(reader.schema as ArrowSchema, batches);
      });
    },
    decodeBatches: (chunks) =>
      decodeBatches(chunks, () => new IpcReader(plan, limits, { ...readerOptions, perBatch: true }), limits),
    encodeBatches: (batches) => writeBatches(batches, plan, ipcCompression),
  };
  return codec;
}

function schemaRequired(): WirekitError {
  return new WirekitError(
    'WK_SCHEMA_REQUIRED',
    "Arrow writes typed columns, so encoding needs a schema: createCodec('arrow', { schema }) with the schema of one row (inferSchema(rows) proposes one from sample rows). Decoding needs none: a stream carries its own.",
  );
}

function createSchemalessCodec<Row>(
  options: ArrowCodecOptions,
  { ipcFormat, ipcCompression, maxDecompressionRatio }: ReturnType<typeof resolveArrowOptions>,
): SchemalessArrowCodec<Row> {
  const limits = resolveLimits(options.limits);
  const mediaType = arrowMediaTypes[ipcFormat === 'stream' ? 0 : 1];
  const newReader = (perBatch = false) =>
    new IpcReader(undefined, limits, { perBatch, maxDecompressionRatio });
  const codec: SchemalessArrowCodec<Row> = {
    format: 'arrow',
    mediaType,
    streamMediaType: mediaType,
    schema: undefined,
    ipcFormat,
    ipcCompression,
    arrowSchema: undefined,
    compiled: false,
    encode() {
      throw schemaRequired();
    },
    encodeStream() {
      throw schemaRequired();
    },
    encodeSequence() {
      throw schemaRequired();
    },
    decodeSequence: (bytes) => codec.decode(bytes),
    decode(bytes) {
      return guard(() => {
        checkInputSize(bytes, limits);
        const reader = newReader();
        let rows: unknown[] = [];
        readIpc(bytes, reader, limits, (data, offset) => {
          rows = reader.appendRows(data, offset, rows);
        });
        return rows as Row[];
      });
    },
    decodeStream: (chunks) => eachRow(decodeRowBatches<Row>(chunks, () => newReader(true), limits)),
    decodeRowBatches: (chunks) => decodeRowBatches<Row>(chunks, () => newReader(true), limits),
    decodeTable(bytes) {
      return guard(() => {
        checkInputSize(bytes, limits);
        const reader = newReader();
        const batches: RecordBatch[] = [];
        readIpc(bytes, reader, limits, (data) => batches.push(reader.batch(data)));
        return new Table(reader.schema as ArrowSchema, batches);
      });
    },
    decodeBatches: (chunks) => decodeBatches(chunks, () => newReader(true), limits),
    encodeBatches: (batches) => writeBatches(batches, undefined, ipcCompression),
  };
  return codec;
}

/** A stream's element limit applies per record batch: that is what is held in memory at a time. */
async function* decodeRowBatches<Row>(
  chunks: Chunks,
  newReader: () => IpcReader,
  limits: DecodeLimits,
): AsyncGenerator<Row[]> {
  try {
    const reader = newReader();
    for await (const { data, offset } of readIpcChunks(chunks, reader, limits)) {
      yield reader.rows(data, offset) as Row[];
    }
  } catch (error) {
    throw asWirekitError(error);
  }
}

async function* decodeBatches(
  chunks: Chunks,
  newReader: () => IpcReader,
  limits: DecodeLimits,
): AsyncGenerator<RecordBatch> {
  try {
    const reader = newReader();
    for await (const { data } of readIpcChunks(chunks, reader, limits)) yield reader.batch(data);
  } catch (error) {
    throw asWirekitError(error);
  }
}

/** Gives a row-relative path its row index in the whole input and its text. */
function withRowIndex<T>(first: number, body: () => T): T {
  try {
    return body();
  } catch (error) {
    if (error instanceof ValidationError) {
      if (first === 0) throw error;
      throw new ValidationError(
        error.issues.map((issue) => {
          const [head, ...rest] = issue.path;
          const path = [(head as number) + first, ...rest];
          return {
            ...issue,
            path,
            message: `${formatPath(path)}${issue.message.slice(formatPath(issue.path).length)}`,
          };
        }),
      );
    }
    if (!(error instanceof WirekitError) || error.path === undefined) throw error;
    const [head, ...rest] = error.path;
    const path = typeof head === 'number' ? [head + first, ...rest] : error.path;
    throw new WirekitError(error.code, `${formatPath(path)}: ${error.message}`, {
      path,
      format: error.format,
      cause: error,
    });
  }
}

/** An error from beneath (apache-arrow's writer, a throwing getter on a row) still gets a code. */
function guardEncode<T>(body: () => T): T {
  try {
    return body();
  } catch (error) {
    if (error instanceof WirekitError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new WirekitError('WK_ENCODE_UNSUPPORTED', message, { format: 'arrow', cause: error });
  }
}

function guard<T>(body: () => T): T {
  try {
    return body();
  } catch (error) {
    throw asWirekitError(error);
  }
}

/** Whatever escapes the checks (a bug, or apache-arrow refusing what got past them) still has a code. */
function asWirekitError(error: unknown): WirekitError {
  if (error instanceof WirekitError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const wrapped = malformed(0, message, 'arrow');
  return new WirekitError(wrapped.code, wrapped.message, { offset: 0, format: 'arrow', cause: error });
}

/** Arrow as a value, for what is handed its formats (the HTTP client, the registry). */
export const arrowFormat: FormatEntry<'arrow'> = {
  name: 'arrow',
  create: createArrowCodec as FormatEntry<'arrow'>['create'],
};
