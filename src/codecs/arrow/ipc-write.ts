/**
 * IPC bytes through apache-arrow's own writers (the Apache implementation of the message and
 * footer layout), with a sink that hands the bytes back synchronously: apache-arrow's default sink
 * is an async queue, which would force a round trip through the event loop per batch.
 */
import {
  AsyncByteQueue,
  type RecordBatch,
  RecordBatchFileWriter,
  RecordBatchStreamWriter,
  type Schema,
} from 'apache-arrow';
import { uninitializedBytes } from '../../util/node-runtime.js';

export type IpcFormat = 'stream' | 'file';

/** Keeps every chunk the writer emits until `take` joins them into one exact-size array. */
class ChunkSink extends AsyncByteQueue {
  private chunks: Uint8Array[] = [];
  private size = 0;

  override write(value: unknown): void {
    const bytes = value as Uint8Array;
    if (bytes.byteLength === 0) return;
    this.chunks.push(bytes);
    this.size += bytes.byteLength;
  }

  take(): Uint8Array {
    // Every byte is written below, so the memory need not be zeroed first (tens of MB for a large
    // table), and the output has an ArrayBuffer of its own.
    const out = uninitializedBytes(this.size);
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.byteLength;
    }
    this.chunks = [];
    this.size = 0;
    return out;
  }
}

/**
 * A stream writer that writes a schema message it was given instead of building it again: the
 * schema message of a wide schema costs more than a small batch, and it is the same every time.
 */
class StreamWriter extends RecordBatchStreamWriter {
  constructor(private readonly schemaMessage: Uint8Array | undefined) {
    super();
  }

  protected override _writeSchema(schema: Schema): this {
    return this.schemaMessage === undefined ? super._writeSchema(schema) : this._write(this.schemaMessage);
  }
}

/** One IPC stream or file being written: start, any number of batches, finish. */
export class IpcWriter {
  private readonly sink = new ChunkSink();
  private readonly writer: RecordBatchStreamWriter | RecordBatchFileWriter;

  /** `schemaMessage`: the bytes `schemaMessageOf(schema)` gave, when the caller kept them. */
  constructor(
    private readonly schema: Schema,
    format: IpcFormat,
    schemaMessage?: Uint8Array,
  ) {
    this.writer = format === 'file' ? new RecordBatchFileWriter() : new StreamWriter(schemaMessage);
  }

  /** Writes the stream's schema message, or the file's magic. */
  start(): void {
    this.writer.reset(this.sink, this.schema);
  }

  /** Writes the dictionaries the batch uses (the first time only) and the batch. */
  write(batch: RecordBatch): void {
    this.writer.write(batch);
  }

  /** Writes the end-of-stream marker, and for a file the footer and trailing magic. */
  finish(): void {
    this.writer.finish();
  }

  /** The bytes written since the last call. */
  take(): Uint8Array {
    return this.sink.take();
  }
}

/** The schema message apache-arrow writes for `schema` (prefix and padding included). */
export function schemaMessageOf(schema: Schema): Uint8Array {
  const writer = new IpcWriter(schema, 'stream');
  writer.start();
  return writer.take();
}
