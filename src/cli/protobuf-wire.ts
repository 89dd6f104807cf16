/**
 * Protobuf's wire format walked without a schema: each field's number, wire type and raw value
 * (a varint, 4 or 8 fixed bytes, a length-delimited range, a group's fields), for the readers of
 * `inspect --registry` that show Protobuf without a wirekit schema (protobuf-raw.ts by numbers,
 * protobuf-named.ts by the registry's .proto). Every read is bounded by the end of the message it
 * is in; a problem is a WireFailure with the offset where it was found, which the readers turn
 * into WirekitErrors (or, for a nested parse they only try, into "not a message").
 */

// The wire types are the codec's own numbers (one home for them).
import { END_GROUP, FIXED32, FIXED64, LEN, START_GROUP, VARINT } from '../codecs/protobuf/layout.js';

export { END_GROUP, FIXED32, FIXED64, LEN, START_GROUP, VARINT };

const maxFieldNumber = 536_870_911;

export type WireField =
  | { readonly number: number; readonly wireType: typeof VARINT; readonly value: bigint }
  | {
      readonly number: number;
      readonly wireType: typeof FIXED64 | typeof FIXED32;
      readonly bytes: Uint8Array;
    }
  | { readonly number: number; readonly wireType: typeof LEN; readonly from: number; readonly to: number }
  | { readonly number: number; readonly wireType: typeof START_GROUP; readonly fields: readonly WireField[] };

export class WireFailure extends Error {
  constructor(
    readonly code: 'WK_DECODE_MALFORMED' | 'WK_DECODE_TRUNCATED',
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/**
 * The fields from `start` to `end` (or to the END_GROUP of `group`), and where reading stopped.
 * Groups nest at most `maxDepth` levels below `depth`.
 */
export function readWireFields(
  bytes: Uint8Array,
  start: number,
  end: number,
  depth: number,
  maxDepth: number,
  group?: number,
): { fields: WireField[]; pos: number } {
  const fields: WireField[] = [];
  const cursor = { pos: start };
  while (cursor.pos < end) {
    const tagAt = cursor.pos;
    const tag = readVarint(bytes, cursor, end);
    const wireType = Number(tag & 7n);
    const bigNumber = tag >> 3n;
    if (bigNumber < 1n || bigNumber > BigInt(maxFieldNumber)) {
      throw new WireFailure(
        'WK_DECODE_MALFORMED',
        `field number ${bigNumber} is outside 1..${maxFieldNumber}`,
        tagAt,
      );
    }
    const number = Number(bigNumber);
    switch (wireType) {
      case VARINT:
        fields.push({ number, wireType, value: readVarint(bytes, cursor, end) });
        break;
      case FIXED64:
      case FIXED32:
        fields.push({ number, wireType, bytes: take(bytes, cursor, end, wireType === FIXED64 ? 8 : 4) });
        break;
      case LEN: {
        const length = readVarint(bytes, cursor, end);
        if (length > BigInt(end - cursor.pos)) {
          throw new WireFailure(
            'WK_DECODE_TRUNCATED',
            `a field of ${length} bytes runs past its message`,
            cursor.pos,
          );
        }
        const from = cursor.pos;
        cursor.pos += Number(length);
        fields.push({ number, wireType, from, to: cursor.pos });
        break;
      }
      case START_GROUP: {
        if (depth >= maxDepth)
          throw new WireFailure('WK_DECODE_MALFORMED', `groups nest deeper than ${maxDepth}`, tagAt);
        const inner = readWireFields(bytes, cursor.pos, end, depth + 1, maxDepth, number);
        cursor.pos = inner.pos;
        fields.push({ number, wireType, fields: inner.fields });
        break;
      }
      case END_GROUP:
        if (group !== number)
          throw new WireFailure('WK_DECODE_MALFORMED', `an end of group ${number} that is not open`, tagAt);
        return { fields, pos: cursor.pos };
      default:
        throw new WireFailure('WK_DECODE_MALFORMED', `wire type ${wireType} does not exist`, tagAt);
    }
  }
  if (group !== undefined)
    throw new WireFailure('WK_DECODE_TRUNCATED', `group ${group} is never closed`, end);
  return { fields, pos: cursor.pos };
}

export function readVarint(bytes: Uint8Array, cursor: { pos: number }, end: number): bigint {
  let result = 0n;
  for (let shift = 0n; shift < 70n; shift += 7n) {
    if (cursor.pos >= end)
      throw new WireFailure('WK_DECODE_TRUNCATED', 'the input ends inside a varint', cursor.pos);
    const byte = bytes[cursor.pos++] as number;
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) {
      if (result >= 1n << 64n)
        throw new WireFailure('WK_DECODE_MALFORMED', 'a varint is wider than 64 bits', cursor.pos);
      return result;
    }
  }
  throw new WireFailure('WK_DECODE_MALFORMED', 'a varint is longer than 10 bytes', cursor.pos);
}

function take(bytes: Uint8Array, cursor: { pos: number }, end: number, count: number): Uint8Array {
  if (end - cursor.pos < count) {
    throw new WireFailure(
      'WK_DECODE_TRUNCATED',
      `the input ends inside a ${count * 8}-bit fixed field`,
      cursor.pos,
    );
  }
  const out = bytes.subarray(cursor.pos, cursor.pos + count);
  cursor.pos += count;
  return out;
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
