/**
 * Protobuf bytes read without a schema, as `protoc --decode_raw` reads them: the fields by number,
 * for `wirekit inspect --registry` when there is no .proto to read them by (protobuf-named.ts is
 * the reader when there is). The wire says only so much, so values are shown by wire type: a
 * varint as its unsigned number (digits as a string past 2^53), fixed32/fixed64 as hex, and a
 * length-delimited field as text when it is printable UTF-8, else as a nested message when its
 * bytes parse as one completely, else as base64 bytes. A field seen more than once becomes an
 * array, in wire order. (protoc prefers the message reading: "hi" happens to parse as field 13.)
 *
 * Hostile bytes cost little: a truncated or malformed message is WK_DECODE_MALFORMED (or
 * _TRUNCATED) at its offset; nesting deeper than `maxDepth` is shown as bytes, not followed; a
 * nested parse is tried once per length-delimited field, so the work is at most the input times
 * the depth.
 */
import { WirekitError } from '../errors/index.js';
import { toBase64 } from '../util/base64.js';
import { printableText } from './printable-text.js';
import {
  FIXED32,
  FIXED64,
  fixedHex,
  integerJson,
  LEN,
  readWireFields,
  START_GROUP,
  VARINT,
  WireFailure,
  type WireField,
} from './protobuf-wire.js';

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
  return wireErrors(() =>
    rawMessage(bytes, readWireFields(bytes, 0, bytes.length, 0, maxDepth).fields, 0, maxDepth),
  );
}

/** Runs a wire read, turning its failure into the WirekitError inspect reports. */
export function wireErrors<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof WireFailure)) throw error;
    throw new WirekitError(error.code, `${error.message} at byte ${error.offset}.`, {
      offset: error.offset,
      format: 'protobuf',
    });
  }
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
      fields = readWireFields(bytes, from, to, depth + 1, maxDepth).fields;
    } catch (error) {
      if (!(error instanceof WireFailure)) throw error;
    }
    if (fields !== undefined) return rawMessage(bytes, fields, depth + 1, maxDepth);
  }
  return toBase64(slice);
}
