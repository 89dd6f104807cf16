/**
 * Rewrites of an Arrow IPC stream into the variants other producers send, for tests: big-endian
 * bodies (what Arrow C++ writes on a big-endian machine, which no writer here can), compressed
 * bodies with chosen buffers, and the file format around a rewritten stream. Messages are parsed
 * and re-encoded with apache-arrow's own metadata code, not wirekit's, and every rewrite is
 * checked in the tests by pyarrow reading it back as the original.
 *
 * Input: a stream in the 0.15+ framing, uncompressed and little-endian (pyarrow's or wirekit's).
 */
import { Encoder as ZstdEncoder } from '@toondepauw/node-zstd';
import {
  CompressionType,
  type DataType,
  type Field,
  IntervalUnit,
  MessageHeader,
  MetadataVersion,
  type Schema,
  Type,
} from 'apache-arrow';
import { Block } from 'apache-arrow/fb/block';
import { Endianness } from 'apache-arrow/fb/endianness';
import { Footer } from 'apache-arrow/fb/footer';
import { Message as FbMessage } from 'apache-arrow/fb/message';
import { MessageHeader as FbHeader } from 'apache-arrow/fb/message-header';
import { Schema as FbSchema } from 'apache-arrow/fb/schema';
import {
  BodyCompression,
  BufferRegion,
  DictionaryBatch,
  Message,
  RecordBatch,
} from 'apache-arrow/ipc/metadata/message';
import { Field as ArrowField } from 'apache-arrow/schema';
import * as flatbuffers from 'flatbuffers';
import { compressFrameSync } from 'lz4-napi';

/** One message: its metadata (no prefix, no padding) and its body. */
export interface IpcPart {
  readonly metadata: Uint8Array;
  readonly body: Uint8Array;
}

/** The messages of a stream in the 0.15+ framing, up to its end-of-stream marker. */
function splitStream(input: Uint8Array): IpcPart[] {
  // A plain Uint8Array, whose slice copies (a Buffer's is a view).
  const bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: IpcPart[] = [];
  for (let at = 0; ; ) {
    if (view.getUint32(at, true) !== 0xffffffff) throw new Error(`no continuation marker at ${at}`);
    const length = view.getInt32(at + 4, true);
    if (length === 0) return parts;
    const metadata = bytes.slice(at + 8, at + 8 + length);
    const bodyLength = Number(Message.decode(metadata).bodyLength);
    const start = at + 8 + length;
    parts.push({ metadata, body: bytes.slice(start, start + bodyLength) });
    at = start + bodyLength;
  }
}

/** Frames messages as a stream (metadata padded to 8 bytes), with the end-of-stream marker. */
function joinStream(parts: readonly IpcPart[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (const { metadata, body } of parts) {
    const padded = (metadata.length + 7) & ~7;
    const head = new Uint8Array(8 + padded);
    new DataView(head.buffer).setUint32(0, 0xffffffff, true);
    new DataView(head.buffer).setInt32(4, padded, true);
    head.set(metadata, 8);
    chunks.push(head, body);
  }
  chunks.push(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0));
  return concat(chunks);
}

/** The stream's schema (its first message). */
function schemaOf(parts: readonly IpcPart[]): Schema {
  const message = Message.decode((parts[0] as IpcPart).metadata);
  if (!message.isSchema()) throw new Error('the stream does not start with its schema');
  return message.header() as Schema;
}

/** A schema message for `schema`, with the given byte order. */
function schemaMessage(schema: Schema, endianness: Endianness): Uint8Array {
  const b = new flatbuffers.Builder(1024);
  const schemaOffset = encodeSchema(b, schema, endianness);
  FbMessage.startMessage(b);
  FbMessage.addVersion(b, MetadataVersion.V5);
  FbMessage.addHeaderType(b, FbHeader.Schema);
  FbMessage.addHeader(b, schemaOffset);
  FbMessage.addBodyLength(b, 0n);
  b.finish(FbMessage.endMessage(b));
  return b.asUint8Array();
}

function encodeSchema(b: flatbuffers.Builder, schema: Schema, endianness: Endianness): number {
  // apache-arrow attaches its field encoder to Field when its message module loads.
  const encodeField = (ArrowField as unknown as { encode(b: flatbuffers.Builder, f: Field): number }).encode;
  const fields = FbSchema.createFieldsVector(
    b,
    schema.fields.map((field) => encodeField(b, field)),
  );
  FbSchema.startSchema(b);
  FbSchema.addEndianness(b, endianness);
  FbSchema.addFields(b, fields);
  return FbSchema.endSchema(b);
}

/**
 * The stream as a big-endian writer would send it: the schema says Big, and every value wider
 * than a byte in every body is stored reversed (bitmaps, bytes and text as they are).
 */
export function toBigEndian(stream: Uint8Array): Uint8Array {
  const parts = splitStream(stream);
  const schema = schemaOf(parts);
  const out: IpcPart[] = [{ metadata: schemaMessage(schema, Endianness.Big), body: new Uint8Array(0) }];
  for (const part of parts.slice(1)) {
    const message = Message.decode(part.metadata);
    const header = batchOf(message);
    const types = message.isDictionaryBatch()
      ? [schema.dictionaries.get((message.header() as DictionaryBatch).id) as DataType]
      : schema.fields.map((field) => field.type);
    const body = part.body.slice();
    const cursor = { buffer: 0, variadic: 0 };
    for (const type of types) swapColumn(type, header, body, cursor, message.version);
    out.push({ metadata: part.metadata, body });
  }
  return joinStream(out);
}

function batchOf(message: Message): RecordBatch {
  if (message.isRecordBatch()) return message.header() as RecordBatch;
  if (message.isDictionaryBatch()) return (message.header() as DictionaryBatch).data;
  throw new Error(`unexpected message ${message.headerType}`);
}

interface Cursor {
  buffer: number;
  variadic: number;
}

/** Reverses, in place, the values of the next buffers of one column of `type`, depth first. */
function swapColumn(type: DataType, batch: RecordBatch, body: Uint8Array, at: Cursor, version: number) {
  const next = () => {
    const region = batch.buffers[at.buffer++] as BufferRegion;
    return body.subarray(region.offset, region.offset + region.length);
  };
  const swap = (pattern: readonly number[]) => reverseRuns(next(), pattern);
  const t = type as DataType & Record<string, unknown>;
  if (type.typeId === Type.Null) return;
  if (type.typeId !== Type.Union || version < MetadataVersion.V5) next(); // validity
  switch (type.typeId) {
    case Type.Int:
    case Type.Time:
      return swap([(t.bitWidth as number) / 8]);
    case Type.Float:
      return swap([[2, 4, 8][t.precision as number] as number]);
    case Type.Date:
      return swap([t.unit === 0 ? 4 : 8]);
    case Type.Timestamp:
    case Type.Duration:
      return swap([8]);
    case Type.Decimal:
      return swap([(t.bitWidth as number) / 8]);
    case Type.Interval:
      return swap(t.unit === IntervalUnit.MONTH_DAY_NANO ? [4, 4, 8] : [4]);
    case Type.Bool:
    case Type.FixedSizeBinary:
      next();
      return;
    case Type.Utf8:
    case Type.Binary:
      swap([4]);
      next();
      return;
    case Type.LargeUtf8:
    case Type.LargeBinary:
      swap([8]);
      next();
      return;
    case Type.Utf8View:
    case Type.BinaryView: {
      swapViews(next());
      const count = Number(batch.variadicBufferCounts[at.variadic++]);
      for (let i = 0; i < count; i++) next();
      return;
    }
    case Type.List:
    case Type.Map:
      swap([4]);
      return swapColumn((type.children[0] as Field).type, batch, body, at, version);
    case Type.LargeList:
      swap([8]);
      return swapColumn((type.children[0] as Field).type, batch, body, at, version);
    case Type.FixedSizeList:
      return swapColumn((type.children[0] as Field).type, batch, body, at, version);
    case Type.Struct:
      for (const child of type.children) swapColumn(child.type, batch, body, at, version);
      return;
    case Type.Union:
      next(); // type ids, one byte each
      if (t.mode === 1) swap([4]);
      for (const child of type.children) swapColumn(child.type, batch, body, at, version);
      return;
    case Type.Dictionary:
      return swap([(t.indices as { bitWidth: number }).bitWidth / 8]);
    default:
      throw new Error(`toBigEndian: ${type} is not handled`);
  }
}

/** Reverses runs of the widths in `pattern`, repeated over the whole of `bytes`. */
function reverseRuns(bytes: Uint8Array, pattern: readonly number[]): void {
  for (let at = 0; ; ) {
    for (const width of pattern) {
      if (at + width > bytes.length) return;
      bytes.subarray(at, at + width).reverse();
      at += width;
    }
  }
}

/** A view's length, and for values over 12 bytes its buffer index and offset, reversed. */
function swapViews(views: Uint8Array): void {
  for (let at = 0; at + 16 <= views.length; at += 16) {
    const length = new DataView(views.buffer, views.byteOffset + at, 4).getInt32(0, true);
    views.subarray(at, at + 4).reverse();
    if (length > 12) {
      views.subarray(at + 8, at + 12).reverse();
      views.subarray(at + 12, at + 16).reverse();
    }
  }
}

/**
 * How each buffer of a compressed body is written: `length` is what the 8-byte prefix says (the
 * true length by default, -1 for stored bytes) and `data` what follows it; or `region`, the exact
 * bytes of the buffer's region, prefix and all.
 */
export type BufferRewrite = (
  raw: Uint8Array,
  index: number,
) => { readonly length: bigint; readonly data: Uint8Array } | { readonly region: Uint8Array } | undefined;

export interface CompressOptions {
  readonly rewrite?: BufferRewrite;
  /** The BodyCompression codec and method numbers written (default: `codec`'s, and BUFFER). */
  readonly codecNumber?: number;
  readonly method?: number;
}

/** Compresses every non-empty buffer with `codec` (LZ4_FRAME or ZSTD), as Arrow writers do. */
export function compressWith(codec: 'lz4' | 'zstd'): BufferRewrite {
  return (raw) => ({
    length: BigInt(raw.length),
    data:
      codec === 'lz4' ? compressFrameSync(Buffer.from(raw)) : new ZstdEncoder(3).encodeSync(Buffer.from(raw)),
  });
}

/**
 * The stream with every record batch and dictionary body compressed: each buffer as `rewrite`
 * says (undefined keeps it empty, as writers do for empty buffers), the headers re-encoded with
 * the new regions and the BodyCompression of `codec`. The schema message is kept as it is.
 */
export function compressBodies(
  stream: Uint8Array,
  codec: 'lz4' | 'zstd',
  options: CompressOptions = {},
): Uint8Array {
  const parts = splitStream(stream);
  const write = options.rewrite ?? compressWith(codec);
  const type = options.codecNumber ?? (codec === 'lz4' ? CompressionType.LZ4_FRAME : CompressionType.ZSTD);
  let index = 0;
  const out = parts.map((part, i) => {
    if (i === 0) return part;
    const message = Message.decode(part.metadata);
    const batch = batchOf(message);
    const chunks: Uint8Array[] = [];
    const regions: BufferRegion[] = [];
    let offset = 0;
    for (const region of batch.buffers) {
      const raw = part.body.subarray(region.offset, region.offset + region.length);
      const written = raw.length === 0 ? undefined : write(raw, index);
      index++;
      if (written === undefined) {
        regions.push(new BufferRegion(offset, 0));
        continue;
      }
      let bytes: Uint8Array;
      if ('region' in written) bytes = written.region;
      else {
        bytes = new Uint8Array(8 + written.data.length);
        new DataView(bytes.buffer).setBigInt64(0, written.length, true);
        bytes.set(written.data, 8);
      }
      const size = bytes.length;
      const padding = ((size + 7) & ~7) - size;
      chunks.push(bytes, new Uint8Array(padding));
      regions.push(new BufferRegion(offset, size));
      offset += size + padding;
    }
    const recordBatch = new RecordBatch(
      batch.length,
      batch.nodes,
      regions,
      new BodyCompression(type as CompressionType, options.method ?? 0),
      batch.variadicBufferCounts,
    );
    const header = message.isDictionaryBatch()
      ? new DictionaryBatch(
          recordBatch,
          (message.header() as DictionaryBatch).id,
          (message.header() as DictionaryBatch).isDelta,
        )
      : recordBatch;
    const metadata = Message.encode(Message.from(header as RecordBatch, offset));
    return { metadata, body: concat(chunks) };
  });
  return joinStream(out);
}

/** The stream's messages in the file format: magic, messages, end marker, footer, its length, magic. */
export function streamToFile(stream: Uint8Array): Uint8Array {
  const parts = splitStream(stream);
  const schemaFb = FbMessage.getRootAsMessage(new flatbuffers.ByteBuffer((parts[0] as IpcPart).metadata));
  const endianness = (schemaFb.header(new FbSchema()) as FbSchema).endianness();
  const chunks: Uint8Array[] = [new TextEncoder().encode('ARROW1\0\0')];
  const blocks: { kind: MessageHeader; offset: number; metadata: number; body: number }[] = [];
  let position = 8;
  for (const part of parts) {
    const framed = joinStream([part]).subarray(0, -8);
    const metadataLength = framed.length - part.body.length;
    const kind = Message.decode(part.metadata).headerType;
    if (kind !== MessageHeader.Schema)
      blocks.push({ kind, offset: position, metadata: metadataLength, body: part.body.length });
    chunks.push(framed);
    position += framed.length;
  }
  chunks.push(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0));
  const b = new flatbuffers.Builder(1024);
  const schemaOffset = encodeSchema(b, schemaOf(parts), endianness);
  const vector = (kind: MessageHeader) => {
    const chosen = blocks.filter((block) => block.kind === kind).reverse();
    b.startVector(24, chosen.length, 8);
    for (const block of chosen)
      Block.createBlock(b, BigInt(block.offset), block.metadata, BigInt(block.body));
    return b.endVector();
  };
  const dictionaries = vector(MessageHeader.DictionaryBatch);
  const batches = vector(MessageHeader.RecordBatch);
  Footer.startFooter(b);
  Footer.addVersion(b, MetadataVersion.V5);
  Footer.addSchema(b, schemaOffset);
  Footer.addDictionaries(b, dictionaries);
  Footer.addRecordBatches(b, batches);
  b.finish(Footer.endFooter(b));
  const footer = b.asUint8Array();
  const length = new Uint8Array(4);
  new DataView(length.buffer).setInt32(0, footer.length, true);
  chunks.push(footer, length, new TextEncoder().encode('ARROW1'));
  return concat(chunks);
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
