/**
 * Protobuf bytes read without a schema, as `protoc --decode_raw` reads them: the fields by number,
 * for `wirekit inspect --registry` when the registry's schema is a .proto file (wirekit decodes
 * Protobuf only by a wirekit schema, and parsing .proto is not its job). The wire says only so
 * much, so values are shown by wire type: a varint as its unsigned number (digits as a string past
 * 2^53), fixed32/fixed64 as hex, and a length-delimited field as text when it is printable UTF-8,
 * else as a nested message when its bytes parse as one completely, else as base64 bytes. A field
 * seen more than once becomes an array, in wire order.
 *
 * Hostile bytes cost little: a truncated or malformed message is WK_DECODE_MALFORMED (or
 * _TRUNCATED) at its offset; nesting deeper than `maxDepth` is shown as bytes, not followed; a
 * nested parse is tried once per length-delimited field, so the work is at most the input times
 * the depth.
 */
import { WirekitError } from '../errors/index.js';
import { toBase64 } from '../util/base64.js';

export type RawField = number | string | RawMessage | readonly RawValue[];
type RawValue = number | string | RawMessage;
export interface RawMessage {
  readonly [fieldNumber: string]: RawField;
}

export interface RawDecodeOptions {
  /** How deep nested messages are followed (default 32); deeper ones are shown as bytes. */
  readonly maxDepth?: number;
}

const VARINT = 0;
const FIXED64 = 1;
const LEN = 2;
const START_GROUP = 3;
const END_GROUP = 4;
const FIXED32 = 5;
const maxFieldNumber = 536_870_911;

class Failure extends Error {
  constructor(
    readonly code: 'WK_DECODE_MALFORMED' | 'WK_DECODE_TRUNCATED',
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** The fields of one Protobuf message, by number. */
export function decodeRawProtobuf(bytes: Uint8Array, options: RawDecodeOptions = {}): RawMessage {
  const maxDepth = options.maxDepth ?? 32;
  try {
    return readMessage(bytes, 0, bytes.length, 0, maxDepth, undefined).message;
  } catch (error) {
    if (!(error instanceof Failure)) throw error;
    throw new WirekitError(
      error.code,
      `Protobuf (read without a schema): ${error.message} at byte ${error.offset}.`,
      {
        offset: error.offset,
      },
    );
  }
}

/** Reads fields from `start` to `end`, or to the END_GROUP of `group`; returns where it stopped. */
function readMessage(
  bytes: Uint8Array,
  start: number,
  end: number,
  depth: number,
  maxDepth: number,
  group: number | undefined,
): { message: RawMessage; pos: number } {
  const fields = new Map<number, RawValue[]>();
  const cursor = { pos: start };
  while (cursor.pos < end) {
    const tagAt = cursor.pos;
    const tag = readVarint(bytes, cursor, end);
    const wireType = Number(tag & 7n);
    const number = tag >> 3n;
    if (number < 1n || number > BigInt(maxFieldNumber)) {
      throw new Failure(
        'WK_DECODE_MALFORMED',
        `field number ${number} is outside 1..${maxFieldNumber}`,
        tagAt,
      );
    }
    const field = Number(number);
    let value: RawValue;
    switch (wireType) {
      case VARINT: {
        const n = readVarint(bytes, cursor, end);
        value = n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString();
        break;
      }
      case FIXED64:
        value = `0x${hex(take(bytes, cursor, end, 8))}`;
        break;
      case FIXED32:
        value = `0x${hex(take(bytes, cursor, end, 4))}`;
        break;
      case LEN: {
        const length = readVarint(bytes, cursor, end);
        if (length > BigInt(end - cursor.pos)) {
          throw new Failure(
            'WK_DECODE_TRUNCATED',
            `a field of ${length} bytes runs past its message`,
            cursor.pos,
          );
        }
        const from = cursor.pos;
        cursor.pos += Number(length);
        value = lengthDelimited(bytes, from, cursor.pos, depth, maxDepth);
        break;
      }
      case START_GROUP: {
        if (depth >= maxDepth)
          throw new Failure('WK_DECODE_MALFORMED', `groups nest deeper than ${maxDepth}`, tagAt);
        const inner = readMessage(bytes, cursor.pos, end, depth + 1, maxDepth, field);
        cursor.pos = inner.pos;
        value = inner.message;
        break;
      }
      case END_GROUP:
        if (group !== field)
          throw new Failure('WK_DECODE_MALFORMED', `an end of group ${field} that is not open`, tagAt);
        return { message: toMessage(fields), pos: cursor.pos };
      default:
        throw new Failure('WK_DECODE_MALFORMED', `wire type ${wireType} does not exist`, tagAt);
    }
    const list = fields.get(field);
    if (list === undefined) fields.set(field, [value]);
    else list.push(value);
  }
  if (group !== undefined) throw new Failure('WK_DECODE_TRUNCATED', `group ${group} is never closed`, end);
  return { message: toMessage(fields), pos: cursor.pos };
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
    try {
      return readMessage(bytes, from, to, depth + 1, maxDepth, undefined).message;
    } catch (error) {
      if (!(error instanceof Failure)) throw error;
    }
  }
  return toBase64(slice);
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text when they are valid UTF-8 without control characters other than tab and newlines. */
function printableText(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return undefined;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for.
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text) ? undefined : text;
}

/** Integer keys come out of a JavaScript object in ascending order: field-number order. */
function toMessage(fields: Map<number, RawValue[]>): RawMessage {
  return Object.fromEntries(
    Array.from(fields, ([number, values]) => [String(number), values.length === 1 ? values[0] : values]),
  ) as RawMessage;
}

function readVarint(bytes: Uint8Array, cursor: { pos: number }, end: number): bigint {
  let result = 0n;
  for (let shift = 0n; shift < 70n; shift += 7n) {
    if (cursor.pos >= end)
      throw new Failure('WK_DECODE_TRUNCATED', 'the input ends inside a varint', cursor.pos);
    const byte = bytes[cursor.pos++] as number;
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) {
      if (result >= 1n << 64n)
        throw new Failure('WK_DECODE_MALFORMED', 'a varint is wider than 64 bits', cursor.pos);
      return result;
    }
  }
  throw new Failure('WK_DECODE_MALFORMED', 'a varint is longer than 10 bytes', cursor.pos);
}

function take(bytes: Uint8Array, cursor: { pos: number }, end: number, count: number): Uint8Array {
  if (end - cursor.pos < count) {
    throw new Failure(
      'WK_DECODE_TRUNCATED',
      `the input ends inside a ${count * 8}-bit fixed field`,
      cursor.pos,
    );
  }
  const out = bytes.subarray(cursor.pos, cursor.pos + count);
  cursor.pos += count;
  return out;
}

/** Little-endian bytes as the number's hex digits, most significant first (as protoc prints them). */
function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0'))
    .reverse()
    .join('');
}
