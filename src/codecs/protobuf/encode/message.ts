/**
 * Writes values as protoc-generated code would: fields in number order, proto3 implicit presence
 * (a default scalar is not written; a float is default only when its bits are all zero, so -0.0 is
 * written, as C++ does), repeated scalars packed, map entries with both key and value, and maps in
 * key order (protobuf's deterministic serialization), so that equal values give equal bytes.
 */

import { prependPath } from '../../../errors/index.js';
import { describeBranches, selectBranch } from '../../../schema/either.js';
import { fieldOf } from '../../../schema/names.js';
import { isRecord, unreadableKey } from '../../../schema/value-rules.js';
import { compareUtf8 } from '../../core/utf8.js';
import { writeJsonMessage } from '../json-messages.js';
import { jsonFieldText } from '../json-text.js';
import type { EitherPlan, FieldPlan, MessagePlan, Slot, UnionPlan } from '../layout.js';
import {
  BOOL,
  BYTES,
  DECIMAL,
  DOUBLE,
  EITHER,
  ENUM,
  FIXED32,
  FIXED64,
  FLOAT,
  INT32,
  INT64,
  JSON_MESSAGE,
  JSON_TEXT,
  LEN,
  LITERAL,
  MAP,
  MESSAGE,
  PRESENT,
  REPEATED,
  SFIXED32,
  SFIXED64,
  SINGLE,
  SINT32,
  SINT64,
  STRING,
  TIMESTAMP,
  UFIXED32,
  UFIXED64,
  UINT32,
  UINT64,
  UNION,
} from '../layout.js';
import { isDefault } from './implicit-presence.js';
import { enter, keep, wrong } from './problem.js';
import {
  writeFixed64,
  writeLiteral,
  writeSint64,
  writeTimestamp,
  writeUint64,
  writeVarint64,
} from './scalars.js';
import type { ProtobufWriter } from './writer.js';

/** Writes the body (no key, no length) of a message-like slot: a message, union, wrapper or root. */
export function encodeBody(w: ProtobufWriter, slot: Slot, value: unknown): void {
  switch (slot.type) {
    case MESSAGE:
      encodeMessage(w, slot.message as MessagePlan, value);
      return;
    case UNION:
      encodeUnion(w, slot.union as UnionPlan, value);
      return;
    case EITHER:
      encodeEither(w, slot.either as EitherPlan, value);
      return;
    case JSON_MESSAGE:
      keep(slot.rule, value);
      writeJsonMessage(w, slot, value);
      return;
    default:
      encodeField(w, slot.wrapped as FieldPlan, value);
  }
}

function encodeMessage(w: ProtobufWriter, plan: MessagePlan, value: unknown): void {
  if (!isRecord(value)) throw wrong('an object', value);
  const record = value as Record<string, unknown>;
  if (plan.oneofs !== undefined) keep(plan.oneofs, record);
  const { literals, fields } = plan;
  for (let i = 0; i < literals.length; i++) {
    const literal = literals[i] as MessagePlan['literals'][number];
    if (record[literal.name] !== literal.value) {
      throw prependPath(wrong(JSON.stringify(literal.value), record[literal.name]), literal.name);
    }
  }
  let i = 0;
  try {
    for (; i < fields.length; i++) {
      const field = fields[i] as FieldPlan;
      encodeField(w, field, fieldOf(record, field.name));
    }
  } catch (error) {
    throw prependPath(error, (fields[i] as FieldPlan).name);
  }
}

function encodeUnion(w: ProtobufWriter, plan: UnionPlan, value: unknown): void {
  if (!isRecord(value)) throw wrong('an object', value);
  const tag = (value as Record<string, unknown>)[plan.tag];
  const index = plan.byTag.get(tag);
  if (index === undefined) throw prependPath(wrong(`a variant tag of ${plan.name}`, tag), plan.tag);
  const variant = plan.slots[index] as Slot;
  w.varint((index + 1) * 8 + LEN);
  enter(w, variant.levels, variant.need);
  const start = w.begin();
  encodeMessage(w, variant.message as MessagePlan, value);
  w.end(start);
  w.depth -= variant.levels;
}

/**
 * An either's oneof: the one branch the value's class (and an object's keys) choose (either.ts), as
 * its field, written even when it holds proto3's default (a oneof member has presence).
 */
function encodeEither(w: ProtobufWriter, plan: EitherPlan, value: unknown): void {
  const index = selectBranch(plan.schema, value);
  if (index === undefined) throw wrong(describeBranches(plan.schema), value);
  w.varint(plan.keys[index] as number);
  writeSlot(w, plan.slots[index] as Slot, value);
}

export function encodeField(w: ProtobufWriter, field: FieldPlan, value: unknown): void {
  switch (field.mode) {
    case SINGLE:
      if (!isDefault(field.slot, value)) {
        w.varint(field.tag);
        writeSlot(w, field.slot, value);
      } else if (field.slot.rule !== undefined) {
        // Not written, but held to the schema as any other value ('' below a minLength).
        keep(field.slot.rule, value);
      }
      return;
    case PRESENT:
      if (value === undefined) {
        if (!field.acceptsUndefined) throw wrong('a value or null', value);
        return;
      }
      if (value === null && field.acceptsNull) return;
      w.varint(field.tag);
      writeSlot(w, field.slot, value);
      return;
    case REPEATED:
      encodeRepeated(w, field, value);
      return;
    case MAP:
      if (field.intKeys) encodeIntMap(w, field, value);
      else encodeStringMap(w, field, value);
      return;
    default:
      if (value !== field.slot.literal) throw wrong(JSON.stringify(field.slot.literal), value);
  }
}

function encodeRepeated(w: ProtobufWriter, field: FieldPlan, value: unknown): void {
  if (!Array.isArray(value)) throw wrong('an array', value);
  const count = value.length;
  if (field.items !== undefined) keep(field.items, count);
  if (count === 0) return;
  const slot = field.slot;
  let i = 0;
  try {
    if (!field.packed) {
      for (; i < count; i++) {
        w.varint(field.tag);
        writeSlot(w, slot, value[i]);
      }
      return;
    }
    w.varint(field.tag);
    if (slot.wire === FIXED32 || slot.wire === FIXED64) {
      // Fixed-width items: the length is known up front.
      w.varint(count * (slot.wire === FIXED32 ? 4 : 8));
      for (; i < count; i++) writeSlot(w, slot, value[i]);
      return;
    }
    const start = w.begin();
    for (; i < count; i++) writeSlot(w, slot, value[i]);
    w.end(start);
  } catch (error) {
    throw prependPath(error, i);
  }
}

/**
 * A string-keyed map's keys in the order deterministic serialization writes them: by their UTF-8
 * bytes. Most maps are built in order already, so the sort runs only when two keys are out of it.
 * The compiled encoder calls it too.
 */
export function stringKeysInOrder(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  for (let i = 1; i < keys.length; i++) {
    if (compareUtf8(keys[i - 1] as string, keys[i] as string) > 0) {
      keys.sort(compareUtf8);
      break;
    }
  }
  return keys;
}

/**
 * An integer-keyed Map's keys in numeric order, or undefined where the Map already iterates in it
 * (then it is walked as it is, with no array made). The compiled encoder calls it too.
 */
export function intKeysInOrder(map: Map<unknown, unknown>): unknown[] | undefined {
  let previous: unknown;
  for (const key of map.keys()) {
    if (previous !== undefined && (previous as number) > (key as number)) {
      return [...map.keys()].sort(compareNumbers);
    }
    previous = key;
  }
  return undefined;
}

function encodeStringMap(w: ProtobufWriter, field: FieldPlan, value: unknown): void {
  if (!isRecord(value)) throw wrong('an object (a map with string keys)', value);
  const record = value as Record<string, unknown>;
  const keys = stringKeysInOrder(record);
  const keySlot = field.key as Slot;
  let key = '';
  try {
    for (let i = 0; i < keys.length; i++) {
      key = keys[i] as string;
      const unreadable = unreadableKey(key);
      if (unreadable !== undefined) throw unreadable;
      writeEntry(w, field, keySlot, key, record[key]);
    }
  } catch (error) {
    throw prependPath(error, key);
  }
}

function encodeIntMap(w: ProtobufWriter, field: FieldPlan, value: unknown): void {
  if (!(value instanceof Map)) throw wrong('a Map (integer keys)', value);
  const keys = intKeysInOrder(value);
  const keySlot = field.key as Slot;
  let current: unknown;
  try {
    if (keys === undefined) {
      for (const [key, item] of value) {
        current = key;
        writeEntry(w, field, keySlot, key, item);
      }
    } else {
      for (const key of keys) {
        current = key;
        writeEntry(w, field, keySlot, key, value.get(key));
      }
    }
  } catch (error) {
    throw prependPath(error, typeof current === 'bigint' ? current.toString() : String(current));
  }
}

/**
 * protoc-generated code writes an entry's key and value even when they are defaults. An entry is
 * no level of the value: its value slot carries the map's.
 */
function writeEntry(w: ProtobufWriter, field: FieldPlan, keySlot: Slot, key: unknown, item: unknown): void {
  w.varint(field.tag);
  const start = w.begin();
  w.varint(8 + keySlot.wire);
  writeSlot(w, keySlot, key);
  w.varint(16 + field.slot.wire);
  writeSlot(w, field.slot, item);
  w.end(start);
}

function compareNumbers(a: unknown, b: unknown): number {
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

/** Writes one value (no key) of `slot`, checking its type. */
export function writeSlot(w: ProtobufWriter, slot: Slot, value: unknown): void {
  switch (slot.type) {
    case BOOL:
      if (value === true) w.byte(1);
      else if (value === false) w.byte(0);
      else throw wrong('a boolean', value);
      return;
    case SINT32:
      if (
        typeof value !== 'number' ||
        !(value >= slot.min && value <= slot.max) ||
        Math.floor(value) !== value
      ) {
        throw wrong(`an integer in ${slot.kind}'s range`, value);
      }
      w.varint(((value << 1) ^ (value >> 31)) >>> 0);
      return;
    case UINT32:
      if (
        typeof value !== 'number' ||
        !(value >= slot.min && value <= slot.max) ||
        Math.floor(value) !== value
      ) {
        throw wrong(`an integer in ${slot.kind}'s range`, value);
      }
      w.varint(value);
      return;
    case INT32:
    case SFIXED32:
      if (
        typeof value !== 'number' ||
        !(value >= slot.min && value <= slot.max) ||
        Math.floor(value) !== value
      ) {
        throw wrong(`an integer in ${slot.kind}'s range`, value);
      }
      // int32 sign-extends a negative number to 64 bits, as protobuf's runtimes do: ten bytes.
      if (slot.type === INT32) w.int64(value);
      else w.fixed32(value);
      return;
    case UFIXED32:
      if (
        typeof value !== 'number' ||
        !(value >= slot.min && value <= slot.max) ||
        Math.floor(value) !== value
      ) {
        throw wrong(`an integer in ${slot.kind}'s range`, value);
      }
      w.fixed32(value);
      return;
    case INT64:
      writeVarint64(w, slot, value);
      return;
    case SFIXED64:
    case UFIXED64:
      writeFixed64(w, slot, value);
      return;
    case SINT64:
      writeSint64(w, slot, value);
      return;
    case UINT64:
      writeUint64(w, slot, value);
      return;
    case FLOAT:
      if (typeof value !== 'number') throw wrong('a number', value);
      if (!Number.isFinite(Math.fround(value)) && Number.isFinite(value)) throw wrong('a float32', value);
      if (slot.rule !== undefined) keep(slot.rule, value);
      w.float(value);
      return;
    case DOUBLE:
      if (typeof value !== 'number') throw wrong('a number', value);
      if (slot.rule !== undefined) keep(slot.rule, value);
      w.double(value);
      return;
    case STRING:
      if (typeof value !== 'string') throw wrong('a string', value);
      if (slot.rule !== undefined) keep(slot.rule, value);
      w.string(value);
      return;
    case DECIMAL:
      if (typeof value !== 'string') throw wrong('a decimal string', value);
      keep(slot.rule, value);
      w.string(value);
      return;
    case JSON_TEXT:
      w.string(jsonFieldText(value, w.depth + slot.levels, w.maxDepth));
      return;
    case BYTES:
      if (!(value instanceof Uint8Array)) throw wrong('a Uint8Array', value);
      if (slot.rule !== undefined) keep(slot.rule, value);
      w.bytes(value);
      return;
    case ENUM: {
      const index = slot.memberIndex?.get(value);
      if (index === undefined) throw wrong(`one of ${(slot.members as readonly string[]).join(', ')}`, value);
      // int64 writes a .proto's negative number sign-extended, as int32 is; others as they are.
      w.int64(index);
      return;
    }
    case LITERAL:
      writeLiteral(w, slot, value);
      return;
    case TIMESTAMP:
      writeTimestamp(w, slot, value);
      return;
    default: {
      enter(w, slot.levels, slot.need);
      const start = w.begin();
      encodeBody(w, slot, value);
      w.end(start);
      w.depth -= slot.levels;
    }
  }
}
