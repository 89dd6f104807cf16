/** The scalars that need more than a line: literals, 64-bit integers and Timestamps. */

import type { Slot } from '../layout.js';
import { enter, keep, wrong } from './problem.js';
import type { ProtobufWriter } from './writer.js';

export function writeLiteral(w: ProtobufWriter, slot: Slot, value: unknown): void {
  if (value !== slot.literal) throw wrong(JSON.stringify(slot.literal), value);
  if (typeof value === 'string') w.string(value);
  else if (typeof value === 'boolean') w.byte(value ? 1 : 0);
  else w.double(value as number);
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;
const uint64Max = 2n ** 64n - 1n;
const exact = 4503599627370496n; // 2^52: below it, number arithmetic is exact

export function writeSint64(w: ProtobufWriter, slot: Slot, value: unknown): void {
  if (typeof value === 'bigint' && !slot.asNumber) {
    if (value < exact && value > -exact) {
      w.zigzag64(Number(value));
      return;
    }
    if (value < int64Min || value > int64Max) throw wrong('an int64', value);
    const zigzag = BigInt.asUintN(64, (value << 1n) ^ (value >> 63n));
    w.varint64(Number(zigzag & 0xffffffffn), Number(zigzag >> 32n));
    return;
  }
  if (typeof value !== 'number' || !slot.asNumber || !Number.isSafeInteger(value)) {
    throw wrong(slot.asNumber ? 'a safe integer' : 'a bigint', value);
  }
  w.zigzag64(value);
}

export function writeUint64(w: ProtobufWriter, slot: Slot, value: unknown): void {
  if (typeof value === 'bigint' && !slot.asNumber) {
    if (value >= 0n && value < exact) {
      w.varint(Number(value));
      return;
    }
    if (value < 0n || value > uint64Max) throw wrong('a uint64', value);
    w.varint64(Number(value & 0xffffffffn), Number(value >> 32n));
    return;
  }
  if (typeof value !== 'number' || !slot.asNumber || !Number.isSafeInteger(value) || value < 0) {
    throw wrong(slot.asNumber ? 'a safe non-negative integer' : 'a bigint', value);
  }
  w.varint(value);
}

/**
 * A 64-bit integer as its 64 two's-complement bits, checked as the slot's kind: for the types a
 * `.proto` declares (int64's plain varint, sfixed64, fixed64), rarer than wirekit's defaults, so
 * they take the simple bigint way.
 */
function bits64(slot: Slot, value: unknown): bigint {
  const signed = slot.kind === 'int64';
  if (slot.asNumber) {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || (!signed && value < 0)) {
      throw wrong(signed ? 'a safe integer' : 'a safe non-negative integer', value);
    }
    return BigInt.asUintN(64, BigInt(value));
  }
  if (typeof value !== 'bigint') throw wrong('a bigint', value);
  if (signed ? value < int64Min || value > int64Max : value < 0n || value > uint64Max) {
    throw wrong(signed ? 'an int64' : 'a uint64', value);
  }
  return BigInt.asUintN(64, value);
}

/** proto's int64 (and uint64 declared so): a plain varint, ten bytes for a negative number. */
export function writeVarint64(w: ProtobufWriter, slot: Slot, value: unknown): void {
  const bits = bits64(slot, value);
  w.varint64(Number(bits & 0xffffffffn), Number(bits >> 32n));
}

/** proto's sfixed64 and fixed64: eight little-endian bytes. */
export function writeFixed64(w: ProtobufWriter, slot: Slot, value: unknown): void {
  const bits = bits64(slot, value);
  w.fixed32(Number(bits & 0xffffffffn));
  w.fixed32(Number(bits >> 32n));
}

/** google.protobuf.Timestamp { int64 seconds = 1; int32 nanos = 2; }, nanos never negative. */
export function writeTimestamp(w: ProtobufWriter, slot: Slot, value: unknown): void {
  if (!(value instanceof Date)) throw wrong('a Date', value);
  const millis = value.getTime();
  if (Number.isNaN(millis)) throw wrong('a valid Date', value);
  if (slot.rule !== undefined) keep(slot.rule, value);
  const seconds = Math.floor(millis / 1000);
  const nanos = (millis - seconds * 1000) * 1_000_000;
  enter(w, slot.levels, slot.need);
  const start = w.begin();
  if (seconds !== 0) {
    w.byte(0x08); // field 1, varint
    w.int64(seconds);
  }
  if (nanos !== 0) {
    w.byte(0x10); // field 2, varint
    w.varint(nanos);
  }
  w.end(start);
  w.depth -= slot.levels;
}
