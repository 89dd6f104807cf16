/**
 * IPC bytes through apache-arrow's own writers (the Apache implementation of the message and
 * footer layout), with a sink that hands the bytes back synchronously: apache-arrow's default sink
 * is an async queue, which would force a round trip through the event loop per batch.
 *
 * Compressed bodies (LZ4_FRAME or ZSTD) use apache-arrow's message layout too, with wirekit's own
 * buffer compression in place of apache-arrow's: apache-arrow looks codecs up in a registry
 * global to its module, which a library must not fill in behind its users' backs.
 */
import {
  AsyncByteQueue,
  CompressionType,
  type RecordBatch,
  RecordBatchFileWriter,
  RecordBatchStreamWriter,
  type Schema,
} from 'apache-arrow';
import { uninitializedBytes } from '../../../util/node-runtime.js';
import { deflateBuffer, type IpcCompression } from '../ipc-compression.js';

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

type CompressedBody = ReturnType<RecordBatchStreamWriter['_compressBodyBuffers']>;

const noBytes = new Uint8Array(0);
const align8 = (n: number) => (n + 7) & ~7;

/**
 * A body's buffers as Arrow's BUFFER method writes them: each non-empty one as its length (int64
 * LE) and its compressed bytes, or -1 and its bytes where compressing would not make it smaller.
 * Empty buffers stay empty, without a length. Regions start 8-aligned, as apache-arrow pads each
 * (length, bytes) pair it writes.
 */
function compressBody(codec: IpcCompression, buffers: readonly ArrayBufferView[]): CompressedBody {
  const out: Uint8Array[] = [];
  const bufferRegions: { offset: number; length: number }[] = [];
  let offset = 0;
  for (const buffer of buffers) {
    const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    offset = align8(offset);
    if (bytes.length === 0) {
      out.push(noBytes, noBytes);
      bufferRegions.push({ offset, length: 0 });
      continue;
    }
    const packed = deflateBuffer(codec, bytes);
    const prefix = new Uint8Array(8);
    new DataView(prefix.buffer).setBigInt64(0, packed === undefined ? -1n : BigInt(bytes.length), true);
    const data = packed ?? bytes;
    out.push(prefix, data);
    bufferRegions.push({ offset, length: 8 + data.length });
    offset += 8 + data.length;
  }
  return {
    byteLength: align8(offset),
    bufferRegions: bufferRegions as CompressedBody['bufferRegions'],
    buffers: out,
  };
}

function writerOptions(compression: IpcCompression | undefined) {
  if (compression === undefined) return undefined;
  return { compressionType: compression === 'lz4' ? CompressionType.LZ4_FRAME : CompressionType.ZSTD };
}

/**
 * A stream writer that writes a schema message it was given instead of building it again: the
 * schema message of a wide schema costs more than a small batch, and it is the same every time.
 */
class StreamWriter extends RecordBatchStreamWriter {
  constructor(
    private readonly schemaMessage: Uint8Array | undefined,
    private readonly compression: IpcCompression | undefined,
  ) {
    super(writerOptions(compression));
  }

  protected override _writeSchema(schema: Schema): this {
    return this.schemaMessage === undefined ? super._writeSchema(schema) : this._write(this.schemaMessage);
  }

  protected override _compressBodyBuffers(buffers: ArrayBufferView[]): CompressedBody {
    return compressBody(this.compression as IpcCompression, buffers);
  }
}

class FileWriter extends RecordBatchFileWriter {
  constructor(private readonly compression: IpcCompression | undefined) {
    super(writerOptions(compression));
  }

  protected override _compressBodyBuffers(buffers: ArrayBufferView[]): CompressedBody {
    return compressBody(this.compression as IpcCompression, buffers);
  }
}

/** One IPC stream or file being written: start, any number of batches, finish. */
export class IpcWriter {
  private readonly sink = new ChunkSink();
  private readonly writer: RecordBatchStreamWriter | RecordBatchFileWriter;

  /**
   * `schemaMessage`: the bytes `schemaMessageOf(schema)` gave, when the caller kept them;
   * `compression`: the codec of record batch and dictionary bodies, if any.
   */
  constructor(
    private readonly schema: Schema,
    format: IpcFormat,
    schemaMessage?: Uint8Array,
    compression?: IpcCompression,
  ) {
    this.writer =
      format === 'file' ? new FileWriter(compression) : new StreamWriter(schemaMessage, compression);
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
