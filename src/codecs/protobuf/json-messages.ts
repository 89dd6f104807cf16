/**
 * A json value written as google.protobuf.Value, Struct or ListValue (JsonSchema.proto), the bytes
 * protoc's runtimes write for google/protobuf/struct.proto with deterministic serialization:
 *
 *   Value     { oneof kind { NullValue null_value = 1; double number_value = 2; string string_value = 3;
 *                            bool bool_value = 4; Struct struct_value = 5; ListValue list_value = 6; } }
 *   Struct    { map<string, Value> fields = 1; }   entries in the UTF-8 order of their keys
 *   ListValue { repeated Value values = 1; }
 *
 * A oneof member is written even at its default (null_value 0, number_value 0), as every runtime
 * writes a set oneof; a map entry writes its key and value always. The value is first held to the
 * json kind's one rule (json-kind.ts: finite numbers, plain objects, safe keys, maxDepth) and to
 * its form's (a Struct's object, a ListValue's array), so what is written is what every other
 * format would write; `-0` is written as 0, as JSON text writes it.
 *
 * Reading counts each Struct and ListValue as a level of the value (maxDepth) and their members
 * against maxElements, so a 10,000-deep ListValue ends in WK_LIMIT_DEPTH, never in the stack. A
 * Value that sets no kind is refused, as protobuf's JSON mapping refuses it; its numbers must be
 * finite (the json kind's rule), its keys safe.
 */
import { jsonEncodeError, walkJson } from '../../schema/json-kind.js';
import type { JsonProtoForm } from '../../schema/types.js';
import { cost } from '../core/budget.js';
import { isUnsafeKey, mismatch, unsafeKey } from '../core/errors.js';
import { compareUtf8 } from '../core/utf8.js';
import type { ProtobufReader } from './decode/reader.js';
import { readString } from './decode/scalars.js';
import type { ProtobufWriter } from './encode/writer.js';
import { FIXED64, LEN, type Slot, VARINT } from './layout.js';

/** Writes the body of a json slot's message (its key and length are the caller's). */
export function writeJsonMessage(w: ProtobufWriter, slot: Slot, value: unknown): void {
  // The slot's own level is entered already: the value's container is the next one.
  const problem = walkJson(value, { depth: w.depth, maxDepth: w.maxDepth });
  if (problem !== undefined) throw jsonEncodeError(problem, w.maxDepth);
  switch (slot.jsonForm as JsonProtoForm) {
    case 'struct':
      writeStruct(w, value as Record<string, unknown>);
      return;
    case 'list':
      writeList(w, value as unknown[]);
      return;
    default:
      writeValue(w, value);
  }
}

function writeValue(w: ProtobufWriter, value: unknown): void {
  if (value === null) {
    w.byte(0x08); // null_value = 1, varint: NULL_VALUE (0)
    w.byte(0);
  } else if (typeof value === 'number') {
    w.byte(0x11); // number_value = 2, fixed64
    w.double(value === 0 ? 0 : value);
  } else if (typeof value === 'string') {
    w.byte(0x1a); // string_value = 3
    w.string(value);
  } else if (typeof value === 'boolean') {
    w.byte(0x20); // bool_value = 4
    w.byte(value ? 1 : 0);
  } else if (Array.isArray(value)) {
    w.byte(0x32); // list_value = 6
    const start = w.begin();
    writeList(w, value);
    w.end(start);
  } else {
    w.byte(0x2a); // struct_value = 5
    const start = w.begin();
    writeStruct(w, value as Record<string, unknown>);
    w.end(start);
  }
}

function writeStruct(w: ProtobufWriter, record: Record<string, unknown>): void {
  const keys = Object.keys(record).sort(compareUtf8);
  for (const key of keys) {
    w.byte(0x0a); // fields = 1: an entry { key = 1; value = 2 }
    const entry = w.begin();
    w.byte(0x0a);
    w.string(key);
    w.byte(0x12);
    const start = w.begin();
    writeValue(w, record[key]);
    w.end(start);
    w.end(entry);
  }
}

function writeList(w: ProtobufWriter, items: readonly unknown[]): void {
  for (const item of items) {
    w.byte(0x0a); // values = 1
    const start = w.begin();
    writeValue(w, item);
    w.end(start);
  }
}

/**
 * Reads the body of a json slot's message up to `r.end`; `into` is what an earlier occurrence of
 * the field gave, merged as protobuf merges messages (a Struct's entries by key, a ListValue's items
 * appended, a Value's kind replaced unless both are a Struct or both a ListValue).
 */
export function readJsonMessage(r: ProtobufReader, slot: Slot, into?: unknown): unknown {
  switch (slot.jsonForm as JsonProtoForm) {
    case 'struct':
      return readStruct(r, into as Record<string, unknown> | undefined);
    case 'list':
      return readList(r, into as unknown[] | undefined);
    default:
      return readValue(r, into);
  }
}

/** A Value's fields: the last kind set wins, or merges with an earlier one of the same container. */
function readValue(r: ProtobufReader, into?: unknown): unknown {
  const start = r.pos;
  let value: unknown = into;
  let set = into !== undefined;
  while (r.pos < r.end) {
    const tag = r.tag();
    const number = tag >>> 3;
    const wire = tag & 7;
    if (number === 1 && wire === VARINT) {
      r.varint64(); // NullValue: its one member, NULL_VALUE; an unknown number is null too
      value = null;
    } else if (number === 2 && wire === FIXED64) {
      const at = r.pos;
      value = r.double();
      if (!Number.isFinite(value))
        throw mismatch(at, `expected a JSON value, got ${value} (JSON numbers are finite)`);
    } else if (number === 3 && wire === LEN) {
      value = readString(r);
    } else if (number === 4 && wire === VARINT) {
      value = r.varint64() !== 0 || r.hi !== 0;
    } else if (number === 5 && wire === LEN) {
      value = nested(r, () => readStruct(r, isObject(value) ? value : undefined));
    } else if (number === 6 && wire === LEN) {
      value = nested(r, () => readList(r, Array.isArray(value) ? value : undefined));
    } else {
      r.skip(wire, number);
      continue;
    }
    set = true;
  }
  if (!set) throw mismatch(start, 'a google.protobuf.Value sets no kind (null, a number, a string…)');
  return value;
}

/** A Struct or ListValue inside a Value: its length, then its body as a level of the value. */
function nested(r: ProtobufReader, body: () => unknown): unknown {
  const length = r.length('a nested message');
  const saved = r.end;
  r.end = r.pos + length;
  const value = body();
  r.end = saved;
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readStruct(r: ProtobufReader, into?: Record<string, unknown>): Record<string, unknown> {
  r.enter(1, 1);
  let record = into;
  if (record === undefined) {
    r.budget.charge(cost.object, r.pos);
    record = {};
  }
  while (r.pos < r.end) {
    const tag = r.tag();
    if (tag !== 0x0a) {
      r.skip(tag & 7, tag >>> 3);
      continue;
    }
    r.countElements(1);
    const length = r.length('a map entry');
    const saved = r.end;
    r.end = r.pos + length;
    const entryStart = r.pos;
    let key = '';
    let value: unknown;
    while (r.pos < r.end) {
      const inner = r.tag();
      if (inner === 0x0a) key = readString(r);
      else if (inner === 0x12) value = nested(r, () => readValue(r));
      else r.skip(inner & 7, inner >>> 3);
    }
    r.end = saved;
    if (isUnsafeKey(key)) throw unsafeKey(entryStart, key);
    // An entry without a value holds an empty Value, which sets no kind.
    if (value === undefined)
      throw mismatch(entryStart, 'a google.protobuf.Value sets no kind (null, a number, a string…)');
    record[key] = value;
  }
  r.leave(1);
  return record;
}

function readList(r: ProtobufReader, into?: unknown[]): unknown[] {
  r.enter(1, 1);
  let items = into;
  if (items === undefined) {
    r.budget.charge(cost.array, r.pos);
    items = [];
  }
  while (r.pos < r.end) {
    const tag = r.tag();
    if (tag !== 0x0a) {
      r.skip(tag & 7, tag >>> 3);
      continue;
    }
    r.countElements(1);
    items.push(nested(r, () => readValue(r)));
  }
  r.leave(1);
  return items;
}
