/**
 * Protobuf bytes read without a schema, as `protoc --decode_raw` reads them: the fields by number,
 * for `wirekit inspect --registry` when there is no .proto to read them by (protobuf-named.ts is
 * the reader when there is). The wire says only so much, so values are shown by wire type: a
 * varint as its unsigned number (digits as a string past 2^53), fixed32/fixed64 as hex, and a
 * length-delimited field as text when it is printable UTF-8, else as a nested message when its
 * bytes parse as one completely, else as base64 bytes. A field seen more than once becomes an
 * array, in wire order. (protoc prefers the message reading: "hi" happens to parse as field 13.)
 *
 * The fields are walked by the codec's raw field reader (codecs/protobuf/inspect.ts), so the bytes
 * are read by the decoder's rules. Hostile bytes cost little: a truncated or malformed message is
 * WK_DECODE_MALFORMED (or _TRUNCATED) at its offset; nesting deeper than `maxDepth` is shown as
 * bytes, not followed; a nested parse is tried once per length-delimited field, so the work is at
 * most the input times the depth.
 */
import {
  FIXED32,
  FIXED64,
  LEN,
  readWireFields,
  START_GROUP,
  VARINT,
  type WireField,
} from '../codecs/protobuf/inspect.js';
import { isWirekitError } from '../errors/index.js';
import { toBase64 } from '../util/base64.js';
import { printableText } from './printable-text.js';

export type RawField = number | string | RawMessage | readonly RawValue[];
type RawValue = number | string | RawMessage;
export interface RawMessage {
  readonly [fieldNumber: string]: RawField;
}

export interface RawDecodeOptions {
  /** How deep nested messages are followed (default 32); deeper ones are shown as bytes. */
  readonly maxDepth?: number;
}

/** The fields of one Protobuf message, by number. */
export function decodeRawProtobuf(bytes: Uint8Array, options: RawDecodeOptions = {}): RawMessage {
  const maxDepth = options.maxDepth ?? 32;
  return rawMessage(bytes, readWireFields(bytes, 0, bytes.length, 0, maxDepth), 0, maxDepth);
}

/** Fields already walked, shown by number (also how protobuf-named.ts shows undeclared fields). */
export function rawMessage(
  bytes: Uint8Array,
  fields: readonly WireField[],
  depth: number,
  maxDepth: number,
): RawMessage {
  const byNumber = new Map<number, RawValue[]>();
  for (const field of fields) {
    const value = rawValue(bytes, field, depth, maxDepth);
    const list = byNumber.get(field.number);
    if (list === undefined) byNumber.set(field.number, [value]);
    else list.push(value);
  }
  // Integer keys come out of a JavaScript object in ascending order: field-number order.
  return Object.fromEntries(
    Array.from(byNumber, ([number, values]) => [String(number), values.length === 1 ? values[0] : values]),
  ) as RawMessage;
}

function rawValue(bytes: Uint8Array, field: WireField, depth: number, maxDepth: number): RawValue {
  switch (field.wireType) {
    case VARINT:
      return integerJson(field.value);
    case FIXED64:
    case FIXED32:
      return fixedHex(field.bytes);
    case START_GROUP:
      return rawMessage(bytes, field.fields, depth + 1, maxDepth);
    case LEN:
      return lengthDelimited(bytes, field.from, field.to, depth, maxDepth);
  }
}

function lengthDelimited(
  bytes: Uint8Array,
  from: number,
  to: number,
  depth: number,
  maxDepth: number,
): RawValue {
  const slice = bytes.subarray(from, to);
  const text = printableText(slice);
  if (text !== undefined) return text;
  if (depth < maxDepth && slice.length > 0) {
    let fields: WireField[] | undefined;
    try {
      fields = readWireFields(bytes, from, to, depth + 1, maxDepth);
    } catch (error) {
      if (!isWirekitError(error)) throw error;
    }
    if (fields !== undefined) return rawMessage(bytes, fields, depth + 1, maxDepth);
  }
  return toBase64(slice);
}

/** A 64-bit value as a JSON number when it is exact as one, else as its digits. */
export function integerJson(value: bigint): number | string {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
    ? Number(value)
    : value.toString();
}

/** Little-endian bytes as the number's hex digits, most significant first (as protoc prints them). */
export function fixedHex(bytes: Uint8Array): string {
  return `0x${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0'))
    .reverse()
    .join('')}`;
}
