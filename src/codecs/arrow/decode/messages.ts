/**
 * Arrow IPC messages and the file footer, parsed from their FlatBuffers metadata (Message.fbs,
 * File.fbs) by a checked reader; a schema's field tree is read by fields.ts.
 */
import { WirekitError } from '../../../errors/index.js';
import type { DecodeLimits } from '../../core/limits.js';
import type { IpcCompression } from '../ipc-compression.js';
import { readSchema, type SchemaTable } from './fields.js';
import { FlatReader } from './flatbuf.js';

/** Lengths and buffer regions of one record batch, as flat [a, b, a, b, ...] pairs. */
export interface BatchHeader {
  readonly length: number;
  /** Per field node: length, null count. */
  readonly nodes: readonly number[];
  /** Per buffer: offset into the body, length. */
  readonly buffers: readonly number[];
  /** Per Utf8View or BinaryView column, depth first: how many data buffers follow its views. */
  readonly variadicCounts: readonly number[];
  /** The codec every non-empty buffer is compressed with (body.ts), or undefined for none. */
  readonly compression: IpcCompression | undefined;
}

export type MessageBody =
  | ({ readonly kind: 'schema' } & SchemaTable)
  | { readonly kind: 'batch'; readonly batch: BatchHeader }
  | {
      readonly kind: 'dictionary';
      readonly id: number;
      readonly isDelta: boolean;
      readonly batch: BatchHeader;
    };

export interface IpcMessage {
  /** MetadataVersion: 3 is V4, 4 is V5 (unions lost their validity buffer in V5). */
  readonly version: number;
  readonly body: MessageBody;
  readonly bodyLength: number;
}

/** A footer Block: where a message starts, its metadata length (prefix included) and body length. */
export interface Block {
  readonly offset: number;
  readonly metadataLength: number;
  readonly bodyLength: number;
}

export interface Footer extends SchemaTable {
  readonly dictionaries: readonly Block[];
  readonly recordBatches: readonly Block[];
}

const headerSchema = 1;
const headerDictionary = 2;
const headerRecordBatch = 3;

/** Reads only `bodyLength` of a message's metadata: what stream framing needs. */
export function messageBodyLength(metadata: Uint8Array, base: number): number {
  const fb = new FlatReader(metadata, base);
  return fb.count(fb.root(), 3);
}

export function parseMessage(metadata: Uint8Array, base: number, limits: DecodeLimits): IpcMessage {
  const fb = new FlatReader(metadata, base);
  const message = fb.root();
  const version = fb.int16(message, 0, 0);
  if (version < 3 || version > 4)
    fb.fail(0, `metadata version V${version + 1} is not supported (V4 and V5 are)`);
  const headerType = fb.uint8(message, 1, 0);
  const header = fb.subTable(message, 2);
  const bodyLength = fb.count(message, 3);
  if (header === 0) fb.fail(0, 'a message has no header');
  switch (headerType) {
    case headerSchema: {
      if (bodyLength !== 0) fb.fail(0, 'a schema message has a body');
      return { version, bodyLength, body: { kind: 'schema', ...readSchema(fb, header, limits) } };
    }
    case headerRecordBatch:
      return { version, bodyLength, body: { kind: 'batch', batch: readBatch(fb, header) } };
    case headerDictionary: {
      const data = fb.subTable(header, 1);
      if (data === 0) fb.fail(header, 'a dictionary batch has no data');
      const body = {
        kind: 'dictionary',
        id: fb.count(header, 0),
        isDelta: fb.bool(header, 2),
        batch: readBatch(fb, data),
      } as const;
      return { version, bodyLength, body };
    }
    default:
      return fb.fail(0, `message type ${headerType} is not a schema, dictionary or record batch`);
  }
}

export function parseFooter(metadata: Uint8Array, base: number, limits: DecodeLimits): Footer {
  const fb = new FlatReader(metadata, base);
  const footer = fb.root();
  const schema = fb.subTable(footer, 1);
  if (schema === 0) fb.fail(0, 'the file footer has no schema');
  const blocks = (slot: number): Block[] => {
    const [start, length] = fb.vector(footer, slot, 24);
    return Array.from({ length }, (_, i) => ({
      offset: fb.countAt(start + 24 * i),
      metadataLength: fb.int32At(start + 24 * i + 8),
      bodyLength: fb.countAt(start + 24 * i + 16),
    }));
  };
  return { ...readSchema(fb, schema, limits), dictionaries: blocks(2), recordBatches: blocks(3) };
}

function readBatch(fb: FlatReader, batch: number): BatchHeader {
  const pairs = (slot: number): number[] => {
    const [start, count] = fb.vector(batch, slot, 16);
    const out = new Array<number>(2 * count);
    for (let i = 0; i < 2 * count; i++) out[i] = fb.countAt(start + 8 * i);
    return out;
  };
  const [start, count] = fb.vector(batch, 4, 8);
  const variadicCounts = Array.from({ length: count }, (_, i) => fb.countAt(start + 8 * i));
  return {
    length: fb.count(batch, 0),
    nodes: pairs(1),
    buffers: pairs(2),
    variadicCounts,
    compression: bodyCompression(fb, fb.subTable(batch, 3)),
  };
}

/** Message.fbs BodyCompression: codec LZ4_FRAME (0) or ZSTD (1), method BUFFER (0), the only one. */
function bodyCompression(fb: FlatReader, table: number): IpcCompression | undefined {
  if (table === 0) return undefined;
  const codec = fb.uint8(table, 0, 0);
  const method = fb.uint8(table, 1, 0);
  if ((codec !== 0 && codec !== 1) || method !== 0) {
    throw new WirekitError(
      'WK_DECODE_UNKNOWN_EXTENSION',
      `record batch bodies compressed with codec ${codec}, method ${method}, are not read (LZ4_FRAME and ZSTD buffers are).`,
      { format: 'arrow' },
    );
  }
  return codec === 0 ? 'lz4' : 'zstd';
}
