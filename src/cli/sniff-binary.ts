/**
 * Guesses a binary payload that has no signature, for `wirekit inspect` without --format: each
 * format is tried for whether the bytes are one whole, well-formed value of it, since a first byte
 * alone says little (every byte below 0x80 is a MessagePack integer, and most are a Protobuf tag).
 *
 * - Protocol Buffers: the bytes parse to the end as a tree of fields (the codec's own wire reader).
 * - MessagePack, CBOR: the bytes are exactly one value (the schemaless decoders, within the limits).
 * - FlatBuffers: the root offset points at a table whose vtable lies inside the bytes and whose
 *   field offsets lie inside the table (an identifier at bytes 4-7 is named when there is one).
 *
 * More than one may fit: all are returned, most likely first, so that inspect can name the others.
 * Protobuf comes first when the first byte is a one-byte tag (fields 1-15, which encoders write
 * first), where MessagePack and CBOR would read a lone small integer and so rarely fit the whole
 * input; otherwise the self-describing formats come first, FlatBuffers, then Protobuf.
 */
import { createCodec, type DecodeLimits } from '../codecs/index.js';
import { LEN, readWireFields, VARINT } from '../codecs/protobuf/inspect.js';
import { isWirekitError } from '../errors/index.js';
import type { Sniffed } from './sniff.js';

export interface BinaryGuess {
  readonly kind: Extract<Sniffed, 'protobuf' | 'msgpack' | 'cbor-value' | 'flatbuffers'>;
  /** What was found, as a clause about the bytes: "they parse to the end as 3 top-level fields". */
  readonly detail: string;
}

/** Every guess the bytes fit, most likely first (empty when none does). */
export function guessBinary(bytes: Uint8Array, limits: Partial<DecodeLimits>): BinaryGuess[] {
  const protobuf = protobufGuess(bytes);
  const others = [
    selfDescribing(bytes, 'msgpack', limits),
    selfDescribing(bytes, 'cbor-value', limits),
    flatBuffersGuess(bytes),
  ].filter((guess) => guess !== undefined);
  if (protobuf === undefined) return others;
  return oneByteTag(bytes[0] as number) ? [protobuf, ...others] : [...others, protobuf];
}

/** A tag of fields 1 to 15 with a wire type proto3 encoders write (varint, fixed64, len, fixed32). */
function oneByteTag(byte: number): boolean {
  return byte >= 0x08 && byte < 0x80 && [VARINT, 1, LEN, 5].includes(byte & 7);
}

function protobufGuess(bytes: Uint8Array): BinaryGuess | undefined {
  try {
    const fields = readWireFields(bytes, 0, bytes.length, 0, 32);
    if (fields.length === 0) return undefined;
    return {
      kind: 'protobuf',
      detail: `they parse to the end as ${fields.length} top-level field${fields.length === 1 ? '' : 's'}`,
    };
  } catch (error) {
    if (!isWirekitError(error)) throw error;
    return undefined;
  }
}

function selfDescribing(
  bytes: Uint8Array,
  kind: 'msgpack' | 'cbor-value',
  limits: Partial<DecodeLimits>,
): BinaryGuess | undefined {
  const codec = createCodec(kind === 'msgpack' ? 'msgpack' : 'cbor', { schema: undefined, limits });
  try {
    const value = codec.decode(bytes);
    return { kind, detail: `they are one complete ${describeValue(value)}` };
  } catch (error) {
    if (!isWirekitError(error)) throw error;
    return undefined;
  }
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return `array of ${value.length}`;
  if (value instanceof Map) return `map of ${value.size}`;
  if (value instanceof Uint8Array) return `byte string of ${value.length}`;
  if (value !== null && typeof value === 'object') return `map of ${Object.keys(value).length}`;
  return `${typeof value} value`;
}

/**
 * A FlatBuffer's layout checked from its root: the u32 root offset, the table's i32 offset back to
 * its vtable, the vtable's size and the table's size (u16 each), then each field's u16 offset.
 */
function flatBuffersGuess(bytes: Uint8Array): BinaryGuess | undefined {
  if (bytes.length < 12) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const root = view.getUint32(0, true);
  if (root < 4 || root % 2 !== 0 || root + 4 > bytes.length) return undefined;
  const vtable = root - view.getInt32(root, true);
  if (vtable < 4 || vtable % 2 !== 0 || vtable + 4 > bytes.length) return undefined;
  const vtableSize = view.getUint16(vtable, true);
  const tableSize = view.getUint16(vtable + 2, true);
  if (vtableSize < 4 || vtableSize % 2 !== 0 || vtable + vtableSize > bytes.length) return undefined;
  if (tableSize < 4 || root + tableSize > bytes.length) return undefined;
  for (let at = vtable + 4; at < vtable + vtableSize; at += 2) {
    const field = view.getUint16(at, true);
    if (field !== 0 && (field < 4 || field >= tableSize)) return undefined;
  }
  const fields = (vtableSize - 4) / 2;
  const identifier = root >= 8 ? fileIdentifier(bytes.subarray(4, 8)) : undefined;
  return {
    kind: 'flatbuffers',
    detail: `they hold a root table of ${fields} field slot${fields === 1 ? '' : 's'}${identifier === undefined ? '' : `, file identifier '${identifier}'`}`,
  };
}

/** Four letters or digits, as flatc's file_identifier takes them. */
function fileIdentifier(bytes: Uint8Array): string | undefined {
  const text = String.fromCharCode(...bytes);
  return /^[A-Za-z0-9_]{4}$/.test(text) ? text : undefined;
}
