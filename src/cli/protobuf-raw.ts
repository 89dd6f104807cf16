/**
 * Protobuf bytes read without a schema, as `protoc --decode_raw` reads them: the fields by number,
 * for `wirekit inspect` (with --registry, or of Protobuf bytes sniffed or named by --format) when
 * there is no .proto or --schema to read them by (protobuf-named.ts is the reader when there is). The wire says only so much, so values are shown by wire type: a
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
  const reading = readLengthDelimited(bytes, from, to, depth, maxDepth);
  if (reading.kind === 'text') return reading.text;
  if (reading.kind === 'message') return rawMessage(bytes, reading.fields, depth + 1, maxDepth);
  return toBase64(bytes.subarray(from, to));
}

type LenReading =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'message'; readonly fields: readonly WireField[] }
  | { readonly kind: 'bytes' };

/** What a length-delimited field most likely holds: printable text, else a message that parses whole, else bytes. */
function readLengthDelimited(
  bytes: Uint8Array,
  from: number,
  to: number,
  depth: number,
  maxDepth: number,
): LenReading {
  const text = printableText(bytes.subarray(from, to));
  if (text !== undefined) return { kind: 'text', text };
  if (depth < maxDepth && to > from) {
    try {
      return { kind: 'message', fields: readWireFields(bytes, from, to, depth + 1, maxDepth) };
    } catch (error) {
      if (!isWirekitError(error)) throw error;
    }
  }
  return { kind: 'bytes' };
}

/**
 * The same reading as protoc --decode_raw prints it, one field a line, with each field's wire type
 * and, for a length-delimited one, what it was taken for (text, a nested message, bytes):
 * `1 (varint): 150`, `2 (len, text): "hello"`, `4 (len, message) {` … `}`.
 */
export function rawProtobufLines(bytes: Uint8Array, options: RawDecodeOptions = {}): string[] {
  const maxDepth = options.maxDepth ?? 32;
  const lines: string[] = [];
  const walk = (fields: readonly WireField[], depth: number) => {
    const indent = '  '.repeat(depth);
    for (const field of fields) {
      const head = `${indent}${field.number}`;
      switch (field.wireType) {
        case VARINT:
          lines.push(`${head} (varint): ${field.value}`);
          break;
        case FIXED64:
        case FIXED32:
          lines.push(
            `${head} (${field.wireType === FIXED64 ? 'fixed64' : 'fixed32'}): ${fixedHex(field.bytes)}`,
          );
          break;
        case START_GROUP:
          lines.push(`${head} (group) {`);
          walk(field.fields, depth + 1);
          lines.push(`${indent}}`);
          break;
        case LEN: {
          const reading = readLengthDelimited(bytes, field.from, field.to, depth, maxDepth);
          if (reading.kind === 'message') {
            lines.push(`${head} (len, message) {`);
            walk(reading.fields, depth + 1);
            lines.push(`${indent}}`);
          } else if (reading.kind === 'text') {
            lines.push(`${head} (len, text): ${JSON.stringify(reading.text)}`);
          } else {
            lines.push(
              `${head} (len, ${field.to - field.from} bytes): ${toBase64(bytes.subarray(field.from, field.to))}`,
            );
          }
        }
      }
    }
  };
  walk(readWireFields(bytes, 0, bytes.length, 0, maxDepth), 0);
  return lines;
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
