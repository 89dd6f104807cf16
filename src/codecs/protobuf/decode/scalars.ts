/**
 * The scalars that need more than a line: strings and byte strings (bounded by the limits before
 * anything is allocated), literals, 64-bit integers and Timestamps.
 */
import type { WirekitError } from '../../../errors/index.js';
import type { TimePrecision } from '../../../schema/types.js';
import { maxEpochMillis } from '../../../schema/value-rules.js';
import { cost, stringCost } from '../../core/budget.js';
import { mismatch, tooLong, truncated } from '../../core/errors.js';
import { type Slot, VARINT } from '../layout.js';
import type { ProtobufReader } from './reader.js';

export function outOfRange(start: number, kind: string, value: number) {
  return mismatch(start, `${value} is outside ${kind}`);
}

/**
 * The length prefix of a string or byte string starting at `start`, held to `limit` and to the
 * input before anything is allocated; leaves `r.pos` at the content.
 */
function delimitedLength(
  r: ProtobufReader,
  start: number,
  limit: number,
  what: 'string' | 'byte string',
): number {
  const length = r.varint64();
  if (r.hi !== 0 || length > limit) throw tooLong(start, r.hi * 4294967296 + length, limit, what);
  if (length > r.end - r.pos) throw truncated(start, `a ${what}`);
  return length;
}

export function readString(r: ProtobufReader): string {
  const start = r.pos;
  const length = delimitedLength(r, start, r.limits.maxStringBytes, 'string');
  r.budget.charge(stringCost(length), start);
  const from = r.pos;
  r.pos = from + length;
  return r.text.read(from, from + length);
}

export function readBytes(r: ProtobufReader): Uint8Array {
  const start = r.pos;
  const length = delimitedLength(r, start, r.limits.maxBytesLength, 'byte string');
  r.budget.charge(cost.bytes + length, start);
  const from = r.pos;
  r.pos = from + length;
  return r.buf.slice(from, from + length);
}

export function readLiteral(r: ProtobufReader, slot: Slot): unknown {
  const start = r.pos;
  const literal = slot.literal;
  const value =
    typeof literal === 'string'
      ? readString(r)
      : typeof literal === 'boolean'
        ? r.varint64() !== 0 || r.hi !== 0
        : r.double();
  if (value !== literal) throw mismatch(start, `expected the literal ${JSON.stringify(literal)}`);
  return value;
}

export function readSint64(r: ProtobufReader, slot: Slot): number | bigint {
  const start = r.pos;
  let lo = r.varint64();
  let hi = r.hi;
  // Zigzag: the low bit is the sign.
  const negative = lo & 1;
  lo = ((lo >>> 1) | (hi << 31)) >>> 0;
  hi >>>= 1;
  if (negative) {
    lo = ~lo >>> 0;
    hi = ~hi;
  }
  return int64Value(r, start, slot, lo, hi | 0);
}

export function readUint64(r: ProtobufReader, slot: Slot): number | bigint {
  const start = r.pos;
  const lo = r.varint64();
  return uint64Value(r, start, slot, lo, r.hi);
}

/** proto's int64: a plain two's-complement varint. */
export function readInt64(r: ProtobufReader, slot: Slot): number | bigint {
  const start = r.pos;
  const lo = r.varint64();
  return int64Value(r, start, slot, lo, r.hi | 0);
}

/** proto's sfixed64 (`signed`) or fixed64: eight little-endian bytes. */
export function readFixed64(r: ProtobufReader, slot: Slot, signed: boolean): number | bigint {
  const start = r.pos;
  const lo = r.fixed32();
  const hi = r.fixed32();
  return signed ? int64Value(r, start, slot, lo, hi | 0) : uint64Value(r, start, slot, lo, hi);
}

/** An unsigned 64-bit value from its unsigned halves. */
function uint64Value(r: ProtobufReader, start: number, slot: Slot, lo: number, hi: number): number | bigint {
  const value = hi * 4294967296 + lo;
  if (hi < 0x200000 && slot.asNumber) return value;
  if (slot.asNumber)
    throw mismatch(start, `${slot.kind} ${value} is beyond the safe integers of as: 'number'`);
  r.budget.charge(cost.bigint, start);
  return hi < 0x200000 ? BigInt(value) : (BigInt(hi) << 32n) + BigInt(lo);
}

/** A signed 64-bit value from its halves (`hi` signed). */
function int64Value(r: ProtobufReader, start: number, slot: Slot, lo: number, hi: number): number | bigint {
  const value = hi * 4294967296 + lo;
  const safe = Number.isSafeInteger(value);
  if (safe && slot.asNumber) return value;
  if (slot.asNumber)
    throw mismatch(start, `${slot.kind} ${value} is beyond the safe integers of as: 'number'`);
  r.budget.charge(cost.bigint, start);
  return safe ? BigInt(value) : (BigInt(hi) << 32n) + BigInt(lo);
}

/** google.protobuf.Timestamp { int64 seconds = 1; int32 nanos = 2; }. */
export function decodeTimestamp(r: ProtobufReader, precision: TimePrecision, previous?: Date): Date {
  const start = r.pos;
  // Merged into an earlier occurrence: each field of this one replaces that one's (its nanoseconds
  // as the Date kept them, to the millisecond, which is all a Date holds of them anyway).
  const earlier = previous === undefined ? 0 : previous.getTime();
  let seconds = Math.floor(earlier / 1000);
  let nanos = (earlier - seconds * 1000) * 1_000_000;
  while (r.pos < r.end) {
    const tag = r.tag();
    const number = tag >>> 3;
    // Another field, or seconds or nanos with another wire type: an unknown field, skipped.
    if ((number !== 1 && number !== 2) || (tag & 7) !== VARINT) {
      r.skip(tag & 7, number);
      continue;
    }
    if (number === 1) {
      const lo = r.varint64();
      seconds = (r.hi | 0) * 4294967296 + lo;
    } else {
      nanos = r.uint32() | 0;
    }
  }
  if (nanos < 0 || nanos > 999_999_999)
    throw mismatch(start, `Timestamp nanos ${nanos} is outside 0..999999999`);
  // A Date holds milliseconds: finer parts are dropped (toward the past). For seconds precision
  // the milliseconds must be zero, which the slot's rule checks.
  const millis = seconds * 1000 + Math.floor(nanos / 1_000_000);
  if (!(Math.abs(millis) <= maxEpochMillis[precision])) {
    throw mismatch(
      start,
      `Timestamp seconds ${seconds} is beyond the instants a ${precision} timestamp holds`,
    );
  }
  r.budget.charge(cost.date, start);
  return new Date(millis);
}

/**
 * An enum number that names no member. proto3's enums are open: a protobuf runtime keeps such a
 * number in the field (Python protobuf gives the int), for a newer writer's member. A wirekit
 * enum's value is one of its members, in every format, so the number is refused as JSON, MessagePack
 * and CBOR refuse a name that is no member and Avro an index past the symbols.
 */
export function notAMember(at: number, slot: Slot, index: number): WirekitError {
  return mismatch(at, `enum number ${index | 0} is no member of ${slot.kind}`);
}
