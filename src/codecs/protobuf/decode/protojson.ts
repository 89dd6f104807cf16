/**
 * Reads parsed ProtoJSON into wirekit's values, following the protobuf codec's plan, with the
 * parsing rules of the ProtoJSON specification: a field under its JSON name or its proto name (not
 * both), `null` for a field's default, 64-bit integers as strings or numbers, 32-bit ones as
 * numbers or strings (an exponent form that is an integer included), floats as numbers or
 * "NaN"/"Infinity"/"-Infinity", bytes as standard or URL-safe base64 with or without padding,
 * enums by value name or number, Timestamps as RFC 3339 with any offset, Durations as `"1.5s"`.
 * A key no field has, and an enum name no value has, is refused unless `ignoreUnknownFields` is
 * set. Every value is held to its schema's rule (value-rules.ts), as the binary reader holds it;
 * nesting counts against maxDepth and array items and map entries against maxElements.
 */
import { prependPath, WirekitError } from '../../../errors/index.js';
import { selectBranch } from '../../../schema/either.js';
import { checkParsedJson } from '../../../schema/json-kind.js';
import { isUnsafeKey } from '../../../util/unsafe-keys.js';
import { utf8Length } from '../../../util/utf8-length.js';
import { tooLong } from '../../core/errors.js';
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
  INT32,
  INT64,
  JSON_MESSAGE,
  JSON_TEXT,
  LITERAL,
  MAP,
  MESSAGE,
  type MessagePlan,
  OMITTED,
  PRESENT,
  REPEATED,
  SFIXED32,
  SFIXED64,
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
import { jsonNameOf, wellKnownOf } from '../protojson-names.js';
import { parseTimestamp } from '../protojson-time.js';
import { scalarDefault } from './proto3-defaults.js';
import {
  bytesOf,
  count,
  durationOf,
  enter,
  enumOf,
  expected,
  fieldMaskOf,
  floatOf,
  int64Of,
  integerOf,
  isObject,
  kept,
  problem,
  type ReadContext,
  skipped,
} from './protojson-scalars.js';

export type { ReadContext } from './protojson-scalars.js';

/**
 * What reading a message needs of its plan, found once per plan rather than once per value: which
 * well-known message it is (a pattern on its name), its fields by JSON name and by proto name, and
 * whether a field has two names at all (only then can an object give one field twice).
 */
interface MessageForm {
  readonly wellKnown: ReturnType<typeof wellKnownOf>;
  readonly keys: ReadonlyMap<string, FieldPlan>;
  readonly twoNames: boolean;
  /** How many fields are stored (not literals). */
  readonly stored: number;
}

const forms = new WeakMap<MessagePlan, MessageForm>();

function formOf(plan: MessagePlan): MessageForm {
  let form = forms.get(plan);
  if (form === undefined) {
    const keys = new Map<string, FieldPlan>();
    let twoNames = false;
    let stored = 0;
    for (const field of plan.fields) {
      if (field.mode === OMITTED) continue;
      stored += 1;
      const jsonName = jsonNameOf(field.name);
      keys.set(jsonName, field);
      keys.set(field.name, field);
      if (jsonName !== field.name) twoNames = true;
    }
    form = { wellKnown: wellKnownOf(plan.name), keys, twoNames, stored };
    forms.set(plan, form);
  }
  return form;
}

/** The root value: a root that is not a message is the `{ value }` message toProto declares. */
export function readRoot(root: Slot, json: unknown, ctx: ReadContext): unknown {
  if (root.type === WRAPPER && root.protoNames === undefined) {
    const field = root.wrapped as FieldPlan;
    return wrapperOf({ ...root, wrapped: { ...field, name: 'value' } }, json, ctx);
  }
  return readSlot(root, json, ctx);
}

function readMessage(plan: MessagePlan, json: unknown, ctx: ReadContext): Record<string, unknown> {
  if (!isObject(json)) throw expected(`an object for ${plan.name}`, json);
  enter(ctx, 1);
  const { keys, twoNames, stored } = formOf(plan);
  const out: Record<string, unknown> = { ...plan.template };
  // The keys of parsed JSON are distinct: a field comes twice only by both of its names.
  const seen = twoNames ? new Set<FieldPlan>() : undefined;
  /** Distinct fields given a value: when every stored one is, none is left to fill in. */
  let given = 0;
  for (const key of Object.keys(json)) {
    const field = keys.get(key);
    if (field === undefined) {
      if (ctx.ignoreUnknown) continue;
      throw prependPath(problem(`${plan.name} has no field ${JSON.stringify(key)}`), key);
    }
    if (seen !== undefined) {
      if (seen.has(field)) {
        throw prependPath(
          problem(`field ${field.name} is given twice, by its JSON name and its proto name`),
          key,
        );
      }
      seen.add(field);
    }
    try {
      const value = readField(field, json[key], ctx);
      if (value === skipped) continue;
      if (
        field.rivals !== undefined &&
        value !== undefined &&
        field.rivals.some((rival) => out[rival] !== undefined)
      ) {
        throw problem(`more than one member of the oneof holding ${field.name} is set`);
      }
      out[field.name] = value;
      if (value !== undefined) given += 1;
    } catch (error) {
      throw prependPath(error, field.name);
    }
  }
  for (let i = 0; given < stored && i < plan.fields.length; i++) {
    const field = plan.fields[i] as FieldPlan;
    if (out[field.name] !== undefined || field.mode === OMITTED) continue;
    try {
      const absent = absentValue(field, ctx);
      if (absent !== undefined) out[field.name] = absent;
    } catch (error) {
      throw prependPath(error, field.name);
    }
  }
  for (const field of plan.counted) kept(field.items, (out[field.name] as unknown[]).length);
  ctx.depth -= 1;
  return out;
}

/** One field's value; `skipped` where it is to be left at its default. */
function readField(field: FieldPlan, json: unknown, ctx: ReadContext): unknown {
  const slot = field.slot;
  if (
    json === null &&
    !(slot.type === JSON_MESSAGE && slot.jsonForm === 'value' && field.mode !== REPEATED)
  ) {
    return skipped; // null is the default (or, with presence, no value)
  }
  switch (field.mode) {
    case REPEATED: {
      if (!Array.isArray(json)) throw expected('an array', json);
      enter(ctx, 1);
      count(ctx, json.length);
      const list: unknown[] = [];
      for (let i = 0; i < json.length; i++) {
        try {
          const item = readSlot(slot, json[i], ctx);
          if (item !== skipped) list.push(item);
        } catch (error) {
          throw prependPath(error, i);
        }
      }
      ctx.depth -= 1;
      if (field.items !== undefined) kept(field.items, list.length);
      return list;
    }
    case MAP:
      return readMap(field, json, ctx);
    default:
      return readSlot(slot, json, ctx);
  }
}

function readMap(field: FieldPlan, json: unknown, ctx: ReadContext): unknown {
  if (!isObject(json)) throw expected('an object for a map', json);
  enter(ctx, 1);
  const keys = Object.keys(json);
  count(ctx, keys.length);
  const keySlot = field.key as Slot;
  const map: Map<unknown, unknown> | Record<string, unknown> = field.intKeys ? new Map() : {};
  for (const key of keys) {
    try {
      const value = readSlot(field.slot, json[key], ctx);
      if (value === skipped) continue;
      if (field.intKeys) {
        (map as Map<unknown, unknown>).set(readSlot(keySlot, key, ctx), value);
      } else {
        if (isUnsafeKey(key))
          throw new WirekitError('WK_DECODE_UNSAFE_KEY', `the key ${JSON.stringify(key)} is refused.`, {
            path: [],
            format: 'json',
          });
        (map as Record<string, unknown>)[kept(keySlot.rule, key)] = value;
      }
    } catch (error) {
      throw prependPath(error, key);
    }
  }
  ctx.depth -= 1;
  return map;
}

/** What a field not in the object (or null) reads as: proto3's default, as the binary reader gives it. */
function absentValue(field: FieldPlan, ctx: ReadContext): unknown {
  switch (field.mode) {
    case PRESENT:
      if (!field.acceptsUndefined && !field.acceptsNull)
        throw problem(`required field ${field.name} is missing`);
      return field.absent === undefined ? undefined : null;
    case REPEATED:
      return [];
    case MAP:
      return field.intKeys ? new Map() : {};
    default:
      return slotDefault(field.slot, ctx);
  }
}

function slotDefault(slot: Slot, ctx: ReadContext): unknown {
  switch (slot.type) {
    case MESSAGE:
    case UNION:
    case EITHER:
    case WRAPPER:
      return readSlot(slot, slot.type === WRAPPER && slot.protoNames !== undefined ? null : {}, ctx);
    case JSON_MESSAGE:
      // null, {} or []: the json kind's own absent values, as the binary reader gives them.
      return scalarDefault(slot);
    default:
      // Held to the value's rule, as the binary reader holds it ('' below a minLength is refused).
      return kept(slot.rule, scalarDefault(slot));
  }
}

function readSlot(slot: Slot, json: unknown, ctx: ReadContext): unknown {
  switch (slot.type) {
    case BOOL:
      if (typeof json !== 'boolean') throw expected('true or false', json);
      return json;
    case SINT32:
    case UINT32:
    case INT32:
    case SFIXED32:
    case UFIXED32: {
      const value = integerOf(json);
      if (value === undefined || typeof value === 'bigint' || value < slot.min || value > slot.max) {
        throw expected(`an integer in ${slot.min}..${slot.max} for ${slot.kind}`, json);
      }
      return kept(slot.rule, value);
    }
    case SINT64:
    case INT64:
    case SFIXED64:
    case UINT64:
    case UFIXED64:
      return int64Of(slot, json);
    case FLOAT:
    case DOUBLE:
      return kept(slot.rule, floatOf(json, slot.type === FLOAT));
    case STRING:
    case DECIMAL: {
      if (typeof json !== 'string') throw expected('a string', json);
      // Three UTF-8 bytes at most per UTF-16 unit: the exact count only when that bound is past the limit.
      const { maxStringBytes } = ctx.limits;
      if (json.length * 3 > maxStringBytes && utf8Length(json) > maxStringBytes) {
        throw tooLong(0, utf8Length(json), maxStringBytes, 'string');
      }
      return kept(slot.rule, json);
    }
    case JSON_TEXT: {
      if (typeof json !== 'string') throw expected('a string of JSON text', json);
      let value: unknown;
      try {
        value = json === '' ? null : JSON.parse(json);
      } catch {
        throw problem('a json field does not hold JSON text');
      }
      checkParsedJson(
        value,
        { depth: ctx.depth, maxDepth: ctx.limits.maxDepth, count: (n) => count(ctx, n) },
        0,
      );
      return value;
    }
    case BYTES: {
      const bytes = typeof json === 'string' ? bytesOf(json) : undefined;
      if (bytes === undefined) throw expected('base64 text', json);
      if (bytes.length > ctx.limits.maxBytesLength) {
        throw tooLong(0, bytes.length, ctx.limits.maxBytesLength, 'byte string');
      }
      return kept(slot.rule, bytes);
    }
    case ENUM:
      return enumOf(slot, json, ctx);
    case LITERAL:
      if (json !== slot.literal) throw expected(JSON.stringify(slot.literal), json);
      return json;
    case TIMESTAMP: {
      const millis = typeof json === 'string' ? parseTimestamp(json) : undefined;
      if (millis === undefined) throw expected('an RFC 3339 timestamp in the years 0001-9999', json);
      return kept(slot.rule, new Date(millis));
    }
    case JSON_MESSAGE:
      checkParsedJson(
        json,
        { depth: ctx.depth, maxDepth: ctx.limits.maxDepth, count: (n) => count(ctx, n) },
        0,
      );
      return kept(slot.rule, json);
    case MESSAGE:
      return messageOf(slot.message as MessagePlan, json, ctx);
    case UNION:
      return unionOf(slot.union as UnionPlan, json, ctx);
    case EITHER:
      return eitherOf(slot.either as EitherPlan, json, ctx);
    default:
      return wrapperOf(slot, json, ctx);
  }
}

function messageOf(plan: MessagePlan, json: unknown, ctx: ReadContext): unknown {
  switch (formOf(plan).wellKnown) {
    case 'Duration':
      return { ...plan.template, ...durationOf(json) };
    case 'FieldMask':
      return { ...plan.template, paths: fieldMaskOf(json, ctx) };
    case 'wrapper':
      return { ...plan.template, value: readSlot((plan.fields[0] as FieldPlan).slot, json, ctx) };
    case 'Any':
      throw problem(
        'google.protobuf.Any is not read from ProtoJSON: wirekit keeps its packed message as bytes',
      );
    default:
      return readMessage(plan, json, ctx);
  }
}

/** The one member a oneof message's object sets: its index among `names`, and its value. */
function oneMember(
  names: readonly string[],
  what: string,
  json: unknown,
  ctx: ReadContext,
): [number, unknown] {
  if (!isObject(json)) throw expected(`an object for ${what}`, json);
  let found: [number, unknown] | undefined;
  for (const key of Object.keys(json)) {
    let index = names.indexOf(key);
    if (index === -1) index = names.findIndex((name) => jsonNameOf(name) === key);
    if (index === -1) {
      if (ctx.ignoreUnknown) continue;
      throw prependPath(problem(`${what} has no member ${JSON.stringify(key)}`), key);
    }
    if (json[key] === null) continue;
    if (found !== undefined) throw problem(`more than one member of ${what} is set`);
    found = [index, json[key]];
  }
  if (found === undefined) throw problem(`no member of ${what} is set`);
  return found;
}

function unionOf(plan: UnionPlan, json: unknown, ctx: ReadContext): unknown {
  const [index, inner] = oneMember(plan.fieldNames, `the union ${plan.name}`, json, ctx);
  try {
    return readMessage(plan.variants[index] as MessagePlan, inner, ctx);
  } catch (error) {
    throw prependPath(error, plan.fieldNames[index] as string);
  }
}

function eitherOf(plan: EitherPlan, json: unknown, ctx: ReadContext): unknown {
  const [index, inner] = oneMember(plan.fieldNames, plan.name, json, ctx);
  const value = readSlot(plan.slots[index] as Slot, inner, ctx);
  if (plan.finiteOnly && typeof value === 'number' && !Number.isFinite(value)) {
    throw problem(`${value} beside a text branch (JSON would read it back as text)`);
  }
  if (selectBranch(plan.schema, value) !== index) {
    throw problem(
      `the value of ${plan.fieldNames[index]} would be written as another branch of ${plan.name}`,
    );
  }
  return value;
}

function wrapperOf(slot: Slot, json: unknown, ctx: ReadContext): unknown {
  const field = slot.wrapped as FieldPlan;
  if (slot.protoNames !== undefined) return json === null ? null : readSlot(field.slot, json, ctx);
  if (!isObject(json)) throw expected('an object', json);
  let value: unknown;
  for (const key of Object.keys(json)) {
    if (key !== field.name && key !== jsonNameOf(field.name)) {
      if (ctx.ignoreUnknown) continue;
      throw prependPath(problem(`no field ${JSON.stringify(key)}`), key);
    }
    value = readField(field, json[key], ctx);
  }
  if (value === undefined || value === skipped) value = absentValue(field, ctx);
  return value;
}
