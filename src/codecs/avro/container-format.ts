/**
 * The byte layout of Avro Object Container Files (Avro 1.11 spec, "Object Container Files"):
 *
 *   header: 'O' 'b' 'j' 1, a map<bytes> of metadata (avro.schema, avro.codec), a 16-byte sync marker
 *   block:  a long count of values, a long byte size, the (compressed) values, the sync marker again
 *
 * Measuring is separate from parsing so a stream reader can tell, from a few varints, whether a
 * whole header or block has arrived, without decoding anything twice.
 */
import { WirekitError } from '../../errors/index.js';
import { malformed, tooManyElements, truncated } from '../core/errors.js';
import type { DecodeLimits } from '../core/limits.js';
import { decodeUtf8 } from '../core/utf8.js';
import { type ContainerCodec, isContainerCodec } from './compress.js';
import { AvroReader } from './decode/reader.js';
import { AvroWriter } from './encode/writer.js';

const magic = Uint8Array.of(0x4f, 0x62, 0x6a, 0x01);
export const syncSize = 16;

export interface ContainerHeader {
  /** The writer's schema, as the JSON text the file carries. */
  readonly schemaText: string;
  readonly codec: ContainerCodec;
  readonly sync: Uint8Array;
  /** Every metadata entry, avro.schema and avro.codec included. */
  readonly metadata: ReadonlyMap<string, Uint8Array>;
}

export function newSyncMarker(): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(syncSize));
}

export function headerBytes(
  schemaText: string,
  codec: ContainerCodec,
  sync: Uint8Array,
  metadata: Readonly<Record<string, string | Uint8Array>> = {},
): Uint8Array {
  if (sync.length !== syncSize) {
    throw new WirekitError('WK_OPTIONS_INVALID', `a sync marker has ${syncSize} bytes, not ${sync.length}.`, {
      format: 'avro',
    });
  }
  const entries = new Map<string, Uint8Array | string>(Object.entries(metadata));
  for (const key of entries.keys()) {
    if (key.startsWith('avro.')) {
      throw new WirekitError('WK_OPTIONS_INVALID', `metadata key ${key} is reserved (the avro. prefix).`, {
        format: 'avro',
      });
    }
  }
  entries.set('avro.schema', schemaText);
  entries.set('avro.codec', codec);
  const w = new AvroWriter(256 + schemaText.length * 3);
  w.writeRaw(magic);
  w.writeLong(entries.size);
  const encoder = new TextEncoder();
  for (const [key, value] of entries) {
    w.writeString(key);
    w.writeBytes(typeof value === 'string' ? encoder.encode(value) : value);
  }
  w.writeInt(0);
  w.writeRaw(sync);
  return w.finish();
}

/** Appends one block (count, size, data, sync) to `out`. */
export function writeBlock(out: AvroWriter, count: number, data: Uint8Array, sync: Uint8Array): void {
  out.writeLong(count);
  out.writeLong(data.length);
  out.writeRaw(data);
  out.writeRaw(sync);
}

/** A varint long from a buffer that may still be incomplete: undefined when more bytes are needed. */
function peekLong(bytes: Uint8Array, pos: number): [value: number, next: number] | undefined {
  let z = 0;
  for (let i = 0; i < 10; i++) {
    if (pos + i >= bytes.length) return undefined;
    const byte = bytes[pos + i] as number;
    z += (byte & 0x7f) * 2 ** (7 * i);
    if (byte < 0x80) {
      // Beyond 2^53 the value is inexact, but then it is far beyond any limit anyway.
      return [z % 2 === 0 ? z / 2 : -(z + 1) / 2, pos + i + 1];
    }
  }
  throw malformed(pos, 'a long varint is longer than 10 bytes');
}

/** The length of the header at the start of `bytes`, or undefined when it has not all arrived. */
export function measureHeader(bytes: Uint8Array, limits: DecodeLimits): number | undefined {
  for (let i = 0; i < magic.length && i < bytes.length; i++) {
    if (bytes[i] !== magic[i]) throw malformed(i, 'the input is not an Avro container (no Obj\\x01 magic)');
  }
  let pos = magic.length;
  let entries = 0;
  for (;;) {
    const count = peekLong(bytes, pos);
    if (count === undefined) return undefined;
    let [n, next] = count;
    pos = next;
    if (n === 0) break;
    if (n < 0) {
      const size = peekLong(bytes, pos);
      if (size === undefined) return undefined;
      pos = size[1];
      n = -n;
    }
    entries += n;
    if (entries > limits.maxElements) throw tooManyElements(pos, limits);
    for (let i = 0; i < 2 * n; i++) {
      const length = peekLong(bytes, pos);
      if (length === undefined) return undefined;
      if (length[0] < 0) throw malformed(pos, 'a metadata length is negative');
      pos = length[1] + length[0];
      if (pos > bytes.length) return pos > limits.maxInputBytes ? pos : undefined;
    }
  }
  pos += syncSize;
  return pos <= bytes.length ? pos : undefined;
}

/** Parses a header that `measureHeader` found complete. */
export function parseHeader(bytes: Uint8Array, limits: DecodeLimits): ContainerHeader {
  const r = new AvroReader(bytes, limits, magic.length);
  const metadata = new Map<string, Uint8Array>();
  for (let count = r.readBlockCount(); count !== 0; count = r.readBlockCount()) {
    for (let i = 0; i < count; i++) {
      const key = r.readString();
      metadata.set(key, r.readBytes());
    }
  }
  const sync = r.readFixed(syncSize);
  const schema = metadata.get('avro.schema');
  if (schema === undefined) throw malformed(0, 'the Avro container header has no avro.schema');
  const codecBytes = metadata.get('avro.codec');
  const codec = codecBytes === undefined ? 'null' : decodeUtf8(codecBytes, 0, codecBytes.length);
  if (!isContainerCodec(codec)) {
    throw new WirekitError(
      'WK_DECODE_UNKNOWN_EXTENSION',
      `the Avro container uses the codec ${JSON.stringify(codec.slice(0, 40))}, which wirekit does not support (null, deflate, snappy, zstandard).`,
      { offset: 0 },
    );
  }
  return { schemaText: decodeUtf8(schema, 0, schema.length), codec, sync, metadata };
}

export interface BlockSize {
  readonly count: number;
  /** Where the (compressed) data starts, after the two varints. */
  readonly start: number;
  readonly size: number;
  /** The whole block, sync marker included. */
  readonly total: number;
}

/** The size of the block at the start of `bytes`, or undefined when its varints have not arrived. */
export function measureBlock(bytes: Uint8Array): BlockSize | undefined {
  const count = peekLong(bytes, 0);
  if (count === undefined) return undefined;
  const size = peekLong(bytes, count[1]);
  if (size === undefined) return undefined;
  if (count[0] < 0 || size[0] < 0) throw malformed(0, 'an Avro container block has a negative count or size');
  return { count: count[0], start: size[1], size: size[0], total: size[1] + size[0] + syncSize };
}

/** Fails unless the block ends in the header's sync marker (a cheap check for corruption or misframing). */
export function checkSync(bytes: Uint8Array, block: BlockSize, sync: Uint8Array): void {
  const at = block.total - syncSize;
  if (bytes.length < block.total) throw truncated(bytes.length, 'an Avro container block');
  for (let i = 0; i < syncSize; i++) {
    if (bytes[at + i] !== sync[i])
      throw malformed(at, 'an Avro container block does not end in the sync marker');
  }
}
