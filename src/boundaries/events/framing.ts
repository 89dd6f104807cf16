/**
 * Confluent's wire format, the framing Kafka tooling expects of a registry-backed event: one magic
 * byte (0), the writer schema's registry id as 4 bytes big-endian, then the payload. Protobuf
 * payloads carry, between id and payload, the path of the message type within the .proto file
 * ("message indexes"): a zigzag varint count, then each index as a zigzag varint; the common path
 * [0] (the file's first message) is written as the single byte 0, as Confluent's serializer does.
 *
 * Serializers that write no indexes for Protobuf (@kafkajs/confluent-schema-registry 3.x) cannot be
 * told apart from the bytes alone: `readConfluentFrame` takes `messageIndexes: false` for them.
 */
import { WirekitError } from '../../errors/index.js';

export const confluentMagicByte = 0;
/** Magic byte plus the 4-byte schema id. */
export const confluentHeaderBytes = 5;
/** A message-index path this long names a message nested that deep; Confluent's own are short. */
const maxMessageIndexes = 64;

export interface ConfluentFrame {
  readonly schemaId: number;
  /** The Protobuf message-index path (absent when the frame was read without indexes). */
  readonly messageIndexes: readonly number[] | undefined;
  /** A view of the payload inside the frame's bytes. */
  readonly payload: Uint8Array;
}

function frameError(message: string): WirekitError {
  return new WirekitError('WK_EVENT_FRAME_INVALID', `Confluent frame: ${message}`);
}

/** Frames a payload; pass `messageIndexes` for Protobuf ([0] for the file's first message). */
export function writeConfluentFrame(
  schemaId: number,
  payload: Uint8Array,
  messageIndexes?: readonly number[],
): Uint8Array {
  if (!Number.isInteger(schemaId) || schemaId < 0 || schemaId > 0xffffffff) {
    throw frameError(`schema id ${schemaId} is not an unsigned 32-bit integer`);
  }
  const indexes = messageIndexes === undefined ? undefined : indexBytes(messageIndexes);
  const out = new Uint8Array(confluentHeaderBytes + (indexes?.length ?? 0) + payload.length);
  out[0] = confluentMagicByte;
  new DataView(out.buffer).setUint32(1, schemaId);
  if (indexes !== undefined) out.set(indexes, confluentHeaderBytes);
  out.set(payload, confluentHeaderBytes + (indexes?.length ?? 0));
  return out;
}

/**
 * Reads a frame. With `messageIndexes: true` (Protobuf as Confluent writes it) the index path is
 * read after the id; WK_EVENT_FRAME_INVALID for a short frame, another magic byte, or indexes that
 * are truncated, negative or too many.
 */
export function readConfluentFrame(
  bytes: Uint8Array,
  options: { messageIndexes?: boolean } = {},
): ConfluentFrame {
  if (bytes.length < confluentHeaderBytes) {
    throw frameError(`${bytes.length} bytes, fewer than the 5 of its header`);
  }
  if (bytes[0] !== confluentMagicByte) {
    throw frameError(
      `first byte is 0x${(bytes[0] as number).toString(16).padStart(2, '0')}, not the magic byte 0`,
    );
  }
  const schemaId = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(1);
  if (options.messageIndexes !== true) {
    return { schemaId, messageIndexes: undefined, payload: bytes.subarray(confluentHeaderBytes) };
  }
  const cursor = { pos: confluentHeaderBytes };
  const count = readZigzag(bytes, cursor);
  if (count < 0 || count > maxMessageIndexes) {
    throw frameError(`message-index count ${count} is outside 0..${maxMessageIndexes}`);
  }
  const indexes: number[] = [];
  for (let i = 0; i < count; i++) {
    const index = readZigzag(bytes, cursor);
    if (index < 0) throw frameError(`message index ${index} is negative`);
    indexes.push(index);
  }
  return { schemaId, messageIndexes: count === 0 ? [0] : indexes, payload: bytes.subarray(cursor.pos) };
}

function indexBytes(indexes: readonly number[]): Uint8Array {
  if (indexes.length > maxMessageIndexes) {
    throw frameError(`${indexes.length} message indexes, more than ${maxMessageIndexes}`);
  }
  for (const index of indexes) {
    if (!Number.isInteger(index) || index < 0 || index > 0x3fffffff) {
      throw frameError(`message index ${index} is not a small non-negative integer`);
    }
  }
  if (indexes.length === 1 && indexes[0] === 0) return Uint8Array.of(0);
  const out: number[] = [];
  writeZigzag(out, indexes.length);
  for (const index of indexes) writeZigzag(out, index);
  return Uint8Array.from(out);
}

function writeZigzag(out: number[], value: number): void {
  // Values are below 2^30, so the zigzag form fits an unsigned 32-bit varint.
  let v = (value << 1) ^ (value >> 31);
  v >>>= 0;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
}

/** A zigzag varint of at most 5 bytes (a 32-bit value), as Confluent's ByteUtils writes them. */
function readZigzag(bytes: Uint8Array, cursor: { pos: number }): number {
  let result = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    if (cursor.pos >= bytes.length) throw frameError('message indexes end inside a varint');
    const byte = bytes[cursor.pos++] as number;
    result |= (byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return (result >>> 1) ^ -(result & 1);
  }
  throw frameError('a message-index varint is longer than 5 bytes');
}
