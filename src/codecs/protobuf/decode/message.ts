/**
 * Reads messages by plan. What proto3 readers do, wirekit does: unknown fields are skipped, and so
 * is a known field number with another wire type than its field's (every protobuf runtime keeps it
 * as an unknown field); a scalar seen twice keeps its last value, and a message seen twice is
 * merged (its scalars last-wins, lists concatenated, maps merged by key, messages merged, a oneof
 * replaced by another member or merged with the same one), as parsing the concatenation of two
 * messages merges them in the specification; repeated scalars are read packed or not, and a field
 * that is not on the wire takes proto3's default (0, '', false, the first enum member, empty list
 * or map). Where proto3's default is no value of the schema, wirekit decides: an absent message is
 * decoded from no bytes (all its fields at their defaults), an absent Timestamp is the epoch, an
 * absent decimal is "0", absent json is null, and a union with no variant set is a schema mismatch;
 * a default the value's rule refuses ('' for `t.string({ minLength: 1 })`) is a schema mismatch too.
 * An enum number that names no member is a schema mismatch: proto3 keeps it as a number, but a
 * wirekit enum value is one of its members, in every format.
 *
 * What the value costs the heap is charged to the reader's budget (core/budget.ts) before each thing is
 * made: a message as an object of its fields, each list, map, string, byte string, Date and bigint
 * (the readers and helpers the compiled decoder shares charge alike).
 */
import { describeBranches, selectBranch } from '../../../schema/either.js';
import { noSuchField } from '../../../schema/names.js';
import type { TimePrecision } from '../../../schema/types.js';
import { type Rule, refusalBy } from '../../../schema/value-rules.js';
import { cost, recordCost } from '../../core/budget.js';
import { isUnsafeKey, mismatch, unsafeKey } from '../../core/errors.js';
import { readJsonMessage } from '../json-messages.js';
import { parseJsonText } from '../json-text.js';
import {
  BOOL,
  BYTES,
  DECIMAL,
  DOUBLE,
  EITHER,
  type EitherPlan,
  ENUM,
  type FieldPlan,
  FLOAT,
  fieldByNumber,
  INT32,
  INT64,
  JSON_MESSAGE,
  JSON_TEXT,
  LEN,
  LITERAL,
  MAP,
  MESSAGE,
  type MessagePlan,
  OMITTED,
  PRESENT,
  REPEATED,
  SFIXED32,
  SFIXED64,
  SINGLE,
  SINT32,
  SINT64,
  type Slot,
  STRING,
  TIMESTAMP,
  UFIXED32,
  UFIXED64,
  UINT32,
  UINT64,
  UNION,
  type UnionPlan,
  WRAPPER,
} from '../layout.js';
import { scalarDefault } from './proto3-defaults.js';
import type { ProtobufReader } from './reader.js';
import {
  decodeTimestamp,
  notAMember,
  outOfRange,
  readBytes,
  readFixed64,
  readInt64,
  readLiteral,
  readSint64,
  readString,
  readUint64,
} from './scalars.js';

/** Decodes a whole input as the root message, charging it to `r`'s budget. */
export function decodeRoot(r: ProtobufReader, slot: Slot): unknown {
  r.enter(slot.levels, slot.need);
  return decodeBody(r, slot);
}

/** What a decoded message costs: an object holding each of its fields (literals included). */
export function messageCost(plan: MessagePlan): number {
  return recordCost(plan.fields.length + plan.literals.length);
}

/** A new list for a repeated field, charged. The compiled decoder calls it too. */
export function newList(r: ProtobufReader): unknown[] {
  r.budget.charge(cost.array, r.pos);
  return [];
}

/** A new map for a map field: a Map for integer keys, else a plain object; charged. The compiled decoder calls it too. */
export function newMap(r: ProtobufReader, intKeys: boolean): Map<unknown, unknown> | Record<string, unknown> {
  r.budget.charge(intKeys ? cost.map : cost.object, r.pos);
  return intKeys ? new Map() : {};
}

/**
 * Reads the fields of a message-like slot up to `r.end`: into a new value, or merged `into` the
 * value an earlier occurrence of the same field gave (see `readOrMerge`).
 */
function decodeBody(r: ProtobufReader, slot: Slot, into?: unknown): unknown {
  switch (slot.type) {
    case MESSAGE:
      return decodeMessage(r, slot.message as MessagePlan, into as Record<string, unknown> | undefined);
    case UNION:
      return decodeUnion(r, slot.union as UnionPlan, into);
    case EITHER:
      return decodeEither(r, slot.either as EitherPlan, into);
    case TIMESTAMP: {
      const start = r.pos;
      return kept(slot.rule, start, decodeTimestamp(r, slot.precision as TimePrecision, into as Date));
    }
    case JSON_MESSAGE:
      return readJsonMessage(r, slot, into);
    default:
      return decodeWrapper(r, slot.wrapped as FieldPlan, into);
  }
}

/** A nested message: its length, then its body, one level deeper; merged `into` a value when given. */
function readNested(r: ProtobufReader, slot: Slot, into?: unknown): unknown {
  const length = r.length('a nested message');
  const saved = r.end;
  r.end = r.pos + length;
  r.enter(slot.levels, slot.need);
  const value = decodeBody(r, slot, into);
  r.leave(slot.levels);
  r.end = saved;
  return value;
}

/** Whether a slot's values are messages on the wire (a Timestamp, a wrapper, a union's oneof too). */
export function isMessageLike(slot: Slot): boolean {
  // TIMESTAMP, MESSAGE, UNION and WRAPPER are the last slot types (layout.ts): one comparison.
  return slot.type >= TIMESTAMP;
}

/**
 * One more occurrence of a non-repeated field whose earlier value is `previous`: a message is merged
 * into it, anything else replaces it. The compiled decoder calls it for every field it does not
 * read inline, and for a nested message seen a second time.
 */
export function readOrMerge(r: ProtobufReader, slot: Slot, previous: unknown): unknown {
  if (previous !== undefined && previous !== null && isMessageLike(slot))
    return readNested(r, slot, previous);
  return readSlot(r, slot);
}

/**
 * Whether a field's key has a wire type its field is read from: the slot's own, or length-delimited
 * for a packed list of scalars (both forms are read). Any other is an unknown field to protobuf.
 */
export function wireFits(field: FieldPlan, wire: number): boolean {
  switch (field.mode) {
    case REPEATED:
      // A list of numbers, booleans or enums is read packed or not, whichever form it was written in.
      return wire === field.slot.wire || wire === LEN;
    case MAP:
      return wire === LEN;
    default:
      return wire === field.slot.wire;
  }
}

/**
 * A known field number with a wire type its field is not read from: skipped as an unknown field,
 * as every protobuf runtime does (its bytes must still be well-formed), or refused, naming both
 * wire types, where the codec refuses unknown keys.
 */
export function skipMistyped(r: ProtobufReader, field: FieldPlan, tag: number, at: number): void {
  if (r.rejectUnknown) throw wrongWire(at, field, tag & 7);
  r.skip(tag & 7, tag >>> 3);
}

/** A message-like slot that is not on the wire decodes as if it were there with no bytes. */
function emptyBody(r: ProtobufReader, slot: Slot): unknown {
  const saved = r.end;
  r.end = r.pos;
  r.enter(slot.levels, slot.need);
  const value = decodeBody(r, slot);
  r.leave(slot.levels);
  r.end = saved;
  return value;
}

/**
 * A message's fields, read into a new object, or `into` the object an earlier occurrence of the
 * same field decoded (which holds every field already, so nothing is filled in): merged.
 */
function decodeMessage(
  r: ProtobufReader,
  plan: MessagePlan,
  into?: Record<string, unknown>,
): Record<string, unknown> {
  const start = r.pos;
  if (into === undefined) r.budget.charge(messageCost(plan), start);
  const out: Record<string, unknown> = into ?? { ...plan.template };
  let seen = 0;
  while (r.pos < r.end) {
    const start = r.pos;
    const tag = r.tag();
    const number = tag >>> 3;
    const field = fieldByNumber(plan, number);
    if (field === undefined) {
      skipUnknown(r, plan, tag, start);
      continue;
    }
    if (field.mode === SINGLE || field.mode === PRESENT) {
      const slot = field.slot;
      if ((tag & 7) !== slot.wire) {
        skipMistyped(r, field, tag, start);
        continue;
      }
      // A oneof member clears the group's others first, so a message member merges only into itself.
      if (field.rivals !== undefined) clearRivals(out, field.rivals);
      out[field.name] = isMessageLike(slot) ? readOrMerge(r, slot, out[field.name]) : readSlot(r, slot);
    } else {
      if (!wireFits(field, tag & 7)) {
        skipMistyped(r, field, tag, start);
        continue;
      }
      out[field.name] = readField(r, field, tag & 7, out[field.name], start);
    }
    seen |= field.bit;
  }
  if (into === undefined && (seen !== plan.requiredMask || plan.required.length > 31))
    fillAbsent(r, plan, out, seen);
  if (plan.counted.length > 0) checkCounts(plan, out, start);
  return out;
}

/**
 * Protocol Buffers' rule for a oneof: the last member on the wire wins, so reading one member takes
 * the others out of the object, as protoc's runtimes do (schema/oneofs.ts). The compiled decoder
 * clears its locals instead.
 */
function clearRivals(out: Record<string, unknown>, rivals: readonly string[]): void {
  for (const rival of rivals) if (out[rival] !== undefined) delete out[rival];
}

/**
 * Passes over a field number the message's schema does not name (a newer writer's field), or with
 * `unknownKeys: 'reject'` refuses it at its key, before its value is read. The numbers of the
 * format's own layout messages (map entries, wrappers, a union's oneof) are not keys of a value.
 */
export function skipUnknown(r: ProtobufReader, plan: MessagePlan, tag: number, at: number): void {
  if (r.rejectUnknown) throw mismatch(at, noSuchField(plan.name, tag >>> 3, 'field number'));
  r.skip(tag & 7, tag >>> 3);
}

/**
 * Holds the repeated fields with an item-count rule to it, once the message is read: the items of
 * one field may come in several runs, so the count is known only at the end.
 */
export function checkCounts(plan: MessagePlan, out: Record<string, unknown>, start: number): void {
  for (const field of plan.counted) kept(field.items, start, (out[field.name] as unknown[]).length);
}

/**
 * `value`, read from byte `at`, unless `rule` refuses it (value-rules.ts): then the refusal as a
 * schema mismatch. The compiled decoder calls it too.
 */
export function kept<T>(rule: Rule<never> | undefined, at: number, value: T): T {
  const refusal = refusalBy(rule, value);
  if (refusal !== undefined) throw mismatch(at, refusal.message);
  return value;
}

/** Gives the required fields that were not on the wire their absent value. */
export function fillAbsent(
  r: ProtobufReader,
  plan: MessagePlan,
  out: Record<string, unknown>,
  seen: number,
): void {
  const required = plan.required;
  for (let i = 0; i < required.length; i++) {
    const field = required[i] as FieldPlan;
    const absent = field.bit !== 0 ? (seen & field.bit) === 0 : out[field.name] === undefined;
    if (absent) out[field.name] = absentValue(r, field);
  }
}

/**
 * A union's oneof: its last member on the wire wins, a member seen again (here, or after `into`,
 * the value of an earlier occurrence of the field) is merged with its earlier value, and another
 * member replaces it. A variant key with another wire type is an unknown field, skipped.
 */
function decodeUnion(r: ProtobufReader, plan: UnionPlan, into?: unknown): unknown {
  const start = r.pos;
  let value: unknown = into;
  let current = into === undefined ? -1 : variantIndex(plan, into);
  while (r.pos < r.end) {
    const tag = r.tag();
    const number = tag >>> 3;
    const variant = plan.slots[number - 1];
    if (variant === undefined || (tag & 7) !== LEN) {
      r.skip(tag & 7, number);
      continue;
    }
    value = readNested(r, variant, current === number - 1 ? value : undefined);
    current = number - 1;
  }
  if (value === undefined) throw mismatch(start, `no variant of the union ${plan.name} is set`);
  return value;
}

/**
 * An either's oneof, read as a union's: the last branch on the wire wins, a message branch seen again
 * (here, or after `into`, an earlier occurrence's value) is merged with its earlier value. A branch
 * key with another wire type is an unknown field, skipped. A message with no branch set holds no
 * value of the either, and is refused; so is NaN beside a text branch (either.ts).
 */
function decodeEither(r: ProtobufReader, plan: EitherPlan, into?: unknown): unknown {
  const start = r.pos;
  let value: unknown = into;
  let current = into === undefined ? -1 : (selectBranch(plan.schema, into) ?? -1);
  while (r.pos < r.end) {
    const tag = r.tag();
    const index = (tag >>> 3) - 1;
    const branch = plan.slots[index];
    if (branch === undefined || tag !== plan.keys[index]) {
      r.skip(tag & 7, tag >>> 3);
      continue;
    }
    value = readOrMerge(r, branch, current === index ? value : undefined);
    current = index;
  }
  if (current === -1) {
    throw mismatch(start, `no branch of ${plan.name} (${describeBranches(plan.schema)}) is set`);
  }
  if (plan.finiteOnly && typeof value === 'number' && !Number.isFinite(value)) {
    throw mismatch(start, `${value} beside a text branch (JSON would read it back as text)`);
  }
  return value;
}

/** The variant a decoded union value is (its tag field's literal names it). */
function variantIndex(plan: UnionPlan, value: unknown): number {
  return plan.byTag.get((value as Record<string, unknown>)[plan.tag]) ?? -1;
}

/**
 * A generated message of one field numbered 1; the value is that field's. Merged `into` the value
 * of an earlier occurrence: a list or map grows, a message merges, a scalar is replaced.
 */
function decodeWrapper(r: ProtobufReader, field: FieldPlan, into?: unknown): unknown {
  const begin = r.pos;
  let value: unknown = into;
  let seen = into !== undefined;
  while (r.pos < r.end) {
    const start = r.pos;
    const tag = r.tag();
    const number = tag >>> 3;
    if (number !== 1 || field.mode === OMITTED || !wireFits(field, tag & 7)) {
      r.skip(tag & 7, number);
      continue;
    }
    value = readField(r, field, tag & 7, value, start);
    seen = true;
  }
  const result = seen ? value : absentValue(r, field);
  if (field.items !== undefined) kept(field.items, begin, (result as unknown[]).length);
  return result;
}

/**
 * Reads one occurrence of a field whose wire type fits it (`wireFits`): repeated fields and maps add
 * to `current`, a message merges into it, a scalar replaces it.
 */
export function readField(
  r: ProtobufReader,
  field: FieldPlan,
  wire: number,
  current: unknown,
  start: number,
): unknown {
  const slot = field.slot;
  switch (field.mode) {
    case REPEATED: {
      const list = (current as unknown[] | undefined) ?? newList(r);
      if (wire === slot.wire) {
        r.countElement();
        list.push(readSlot(r, slot));
      } else if (wire === LEN) {
        // Packed: only a list whose items are not length-delimited themselves gets here.
        const length = r.length('a packed field');
        const saved = r.end;
        r.end = r.pos + length;
        while (r.pos < r.end) {
          r.countElement();
          list.push(readSlot(r, slot));
        }
        r.end = saved;
      } else {
        throw wrongWire(start, field, wire);
      }
      return list;
    }
    case MAP: {
      if (wire !== LEN) throw wrongWire(start, field, wire);
      const map = current ?? newMap(r, field.intKeys);
      readEntry(r, field, map, start);
      return map;
    }
    default:
      if (wire !== slot.wire) throw wrongWire(start, field, wire);
      return readOrMerge(r, slot, current);
  }
}

function wrongWire(start: number, field: FieldPlan, wire: number) {
  return mismatch(
    start,
    `field ${field.name} (${field.number}) has wire type ${wire}, not ${field.slot.wire}`,
  );
}

function readEntry(r: ProtobufReader, field: FieldPlan, map: unknown, start: number): void {
  const keySlot = field.key as Slot;
  const valueSlot = field.slot;
  // Counted when met, before its key and value are read, as every format counts a map's entries.
  r.countElement();
  const length = r.length('a map entry');
  const saved = r.end;
  r.end = r.pos + length;
  let key: unknown;
  let value: unknown;
  let hasKey = false;
  let hasValue = false;
  while (r.pos < r.end) {
    const tag = r.tag();
    const number = tag >>> 3;
    const wire = tag & 7;
    // A key or value with another wire type is an unknown field of the entry message: skipped.
    if (number === 1 && wire === keySlot.wire) {
      key = readSlot(r, keySlot);
      hasKey = true;
    } else if (number === 2 && wire === valueSlot.wire) {
      value = readOrMerge(r, valueSlot, hasValue ? value : undefined);
      hasValue = true;
    } else {
      r.skip(wire, number);
    }
  }
  if (!hasKey) key = slotDefault(r, keySlot);
  if (!hasValue) value = slotDefault(r, valueSlot);
  r.end = saved;
  // A key and a value: the slot countElement charged and one more, or a Map's entry.
  r.budget.charge(field.intKeys ? cost.mapEntry - cost.slot : cost.slot, start);
  if (field.intKeys) {
    (map as Map<unknown, unknown>).set(key, value);
  } else {
    if (isUnsafeKey(key as string)) throw unsafeKey(start, key as string);
    (map as Record<string, unknown>)[key as string] = value;
  }
}

/** What a field that is not on the wire decodes to. The compiled decoder calls it too. */
export function absentValue(r: ProtobufReader, field: FieldPlan): unknown {
  switch (field.mode) {
    case PRESENT:
      // A field with explicit presence that can be neither undefined nor null (a proto2 required
      // one) must be on the wire, as protoc's readers require it.
      if (!field.acceptsUndefined && !field.acceptsNull) {
        throw mismatch(r.pos, `required field ${field.name} (${field.number}) is not in the message`);
      }
      return field.absent;
    case REPEATED:
      return newList(r);
    case MAP:
      return newMap(r, field.intKeys);
    default:
      // SINGLE, and OMITTED, whose literal slot defaults to the literal.
      return slotDefault(r, field.slot);
  }
}

/**
 * What a value that is not on the wire reads as: a map entry's missing key or value, a field
 * without presence. The compiled decoder calls it too.
 */
export function slotDefault(r: ProtobufReader, slot: Slot): unknown {
  switch (slot.type) {
    case MESSAGE:
    case UNION:
    case WRAPPER:
    case EITHER:
      return emptyBody(r, slot);
    case JSON_MESSAGE:
      if (slot.jsonForm !== 'value') return emptyBody(r, slot);
      break;
    case BYTES:
      r.budget.charge(cost.bytes, r.pos);
      break;
    case TIMESTAMP:
      r.budget.charge(cost.date, r.pos);
      break;
  }
  const value = scalarDefault(slot);
  // One schema means the same in every format: a default the value's own rule refuses ('' below a
  // minLength, an empty byte string of a fixed size, 0 outside an integer's or float's bounds) is
  // refused, as ProtoJSON refuses it and the formats that name every field refuse its absence.
  return slot.rule === undefined ? value : kept(slot.rule, r.pos, value);
}

/** Reads one value (no key) of `slot`. */
export function readSlot(r: ProtobufReader, slot: Slot): unknown {
  switch (slot.type) {
    case BOOL:
      return r.varint64() !== 0 || r.hi !== 0;
    case SINT32: {
      const start = r.pos;
      const raw = r.uint32();
      const value = (raw >>> 1) ^ -(raw & 1);
      if (value < slot.min || value > slot.max) throw outOfRange(start, slot.kind, value);
      return value;
    }
    case UINT32: {
      const start = r.pos;
      const value = r.uint32();
      if (value < slot.min || value > slot.max) throw outOfRange(start, slot.kind, value);
      return value;
    }
    case INT32:
    case SFIXED32: {
      const start = r.pos;
      // int32 keeps the low 32 bits of its varint, as protobuf's parsers do.
      const value = (slot.type === INT32 ? r.uint32() : r.fixed32()) | 0;
      if (value < slot.min || value > slot.max) throw outOfRange(start, slot.kind, value);
      return value;
    }
    case UFIXED32: {
      const start = r.pos;
      const value = r.fixed32();
      if (value < slot.min || value > slot.max) throw outOfRange(start, slot.kind, value);
      return value;
    }
    case INT64:
      return readInt64(r, slot);
    case SFIXED64:
    case UFIXED64:
      return readFixed64(r, slot, slot.type === SFIXED64);
    case SINT64:
      return readSint64(r, slot);
    case UINT64:
      return readUint64(r, slot);
    case FLOAT:
      return slot.rule === undefined ? r.float() : kept(slot.rule, r.pos, r.float());
    case DOUBLE:
      return slot.rule === undefined ? r.double() : kept(slot.rule, r.pos, r.double());
    case STRING: {
      if (slot.rule === undefined) return readString(r);
      const start = r.pos;
      return kept(slot.rule, start, readString(r));
    }
    case DECIMAL: {
      const start = r.pos;
      return kept(slot.rule, start, readString(r));
    }
    case JSON_TEXT: {
      const start = r.pos;
      return parseJsonText(r, readString(r), start, r.depth + slot.levels);
    }
    case BYTES: {
      if (slot.rule === undefined) return readBytes(r);
      const start = r.pos;
      return kept(slot.rule, start, readBytes(r));
    }
    case ENUM: {
      const start = r.pos;
      const members = slot.members as readonly string[];
      if (slot.numbered !== undefined) {
        // A .proto's numbers, int32s: a negative one is a sign-extended ten-byte varint.
        const number = r.uint32() | 0;
        const member = slot.numbered.get(number);
        if (member === undefined) throw notAMember(start, slot, number);
        return member;
      }
      const index = r.uint32();
      if (index >= members.length) throw notAMember(start, slot, index);
      return members[index];
    }
    case LITERAL:
      return readLiteral(r, slot);
    default:
      return readNested(r, slot);
  }
}
