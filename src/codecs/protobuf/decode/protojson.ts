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
import { type Rule, refusalBy } from '../../../schema/value-rules.js';
import { decodeBase64 } from '../../../util/node-runtime.js';
import { isUnsafeKey } from '../../../util/unsafe-keys.js';
import { utf8Length } from '../../../util/utf8-length.js';
import { tooDeep, tooLong, tooManyElements } from '../../core/errors.js';
import type { DecodeLimits } from '../../core/limits.js';
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
import { parseDuration, parseTimestamp } from '../protojson-time.js';

export interface ReadContext {
  readonly limits: DecodeLimits;
  readonly ignoreUnknown: boolean;
  depth: number;
  elements: number;
}

/** What an unknown enum name reads as under ignoreUnknownFields: the field is left at its default. */
const skipped = Symbol('skipped');

function problem(message: string): WirekitError {
  return new WirekitError('WK_DECODE_SCHEMA_MISMATCH', `${message}.`, { path: [], format: 'json' });
}

function kept<T>(rule: Rule<never> | undefined, value: T): T {
  const refusal = refusalBy(rule, value);
  if (refusal !== undefined) throw problem(refusal.message.replace(/\.$/, ''));
  return value;
}

function describe(json: unknown): string {
  if (json === null) return 'null';
  if (Array.isArray(json)) return 'an array';
  if (typeof json === 'object') return 'an object';
  if (typeof json === 'string')
    return `the string ${JSON.stringify(json.length > 40 ? `${json.slice(0, 40)}…` : json)}`;
  return `${typeof json} ${String(json)}`;
}

function expected(what: string, json: unknown): WirekitError {
  return problem(`expected ${what}, got ${describe(json)}`);
}

function isObject(json: unknown): json is Record<string, unknown> {
  return typeof json === 'object' && json !== null && !Array.isArray(json);
}

function enter(ctx: ReadContext, levels: number): void {
  ctx.depth += levels;
  if (ctx.depth > ctx.limits.maxDepth) throw tooDeep(0, ctx.limits);
}

function count(ctx: ReadContext, items: number): void {
  ctx.elements += items;
  if (ctx.elements > ctx.limits.maxElements) throw tooManyElements(0, ctx.limits);
}

/** Each message's fields by JSON name and by proto name. */
const fieldsByKey = new WeakMap<MessagePlan, Map<string, FieldPlan>>();

function keysOf(plan: MessagePlan): Map<string, FieldPlan> {
  let keys = fieldsByKey.get(plan);
  if (keys === undefined) {
    keys = new Map();
    for (const field of plan.fields) {
      if (field.mode === OMITTED) continue;
      keys.set(jsonNameOf(field.name), field);
      keys.set(field.name, field);
    }
    fieldsByKey.set(plan, keys);
  }
  return keys;
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
  const keys = keysOf(plan);
  const out: Record<string, unknown> = { ...plan.template };
  const seen = new Set<FieldPlan>();
  for (const key of Object.keys(json)) {
    const field = keys.get(key);
    if (field === undefined) {
      if (ctx.ignoreUnknown) continue;
      throw prependPath(problem(`${plan.name} has no field ${JSON.stringify(key)}`), key);
    }
    if (seen.has(field)) {
      throw prependPath(
        problem(`field ${field.name} is given twice, by its JSON name and its proto name`),
        key,
      );
    }
    seen.add(field);
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
    } catch (error) {
      throw prependPath(error, field.name);
    }
  }
  for (const field of plan.fields) {
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
    case BOOL:
      return false;
    case SINT64:
    case UINT64:
    case INT64:
    case SFIXED64:
    case UFIXED64:
      return slot.asNumber ? 0 : 0n;
    case STRING:
      return kept(slot.rule, '');
    case DECIMAL:
      return '0';
    case JSON_TEXT:
      return null;
    case BYTES:
      return kept(slot.rule, new Uint8Array(0));
    case ENUM:
      return (slot.members as readonly string[])[0];
    case LITERAL:
      return slot.literal;
    case TIMESTAMP:
      return kept(slot.rule, new Date(0));
    case JSON_MESSAGE:
      return slot.jsonForm === 'value' ? null : slot.jsonForm === 'struct' ? {} : [];
    case MESSAGE:
    case UNION:
    case EITHER:
    case WRAPPER:
      return readSlot(slot, slot.type === WRAPPER && slot.protoNames !== undefined ? null : {}, ctx);
    default:
      return kept(slot.rule, 0);
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
  switch (wellKnownOf(plan.name)) {
    case 'Duration': {
      const parsed = typeof json === 'string' ? parseDuration(json) : undefined;
      if (parsed === undefined) throw expected('a duration such as "1.5s" within ±315576000000 s', json);
      return { ...plan.template, ...parsed };
    }
    case 'FieldMask': {
      if (typeof json !== 'string') throw expected('a FieldMask as comma-separated paths', json);
      const paths = json === '' ? [] : json.split(',').map(snakePath);
      count(ctx, paths.length);
      return { ...plan.template, paths };
    }
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

function snakePath(path: string): string {
  if (path.includes('_')) throw problem(`the FieldMask path ${JSON.stringify(path)} holds "_"`);
  return path.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
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

function enumOf(slot: Slot, json: unknown, ctx: ReadContext): unknown {
  const members = slot.members as readonly string[];
  if (typeof json === 'string') {
    const index = (slot.protoNames as readonly string[]).indexOf(json);
    if (index !== -1) return members[index];
    if (ctx.ignoreUnknown) return skipped;
    throw problem(`${JSON.stringify(json)} is no value of the enum ${slot.kind}`);
  }
  if (typeof json === 'number' && Number.isInteger(json)) {
    const member = slot.numbered !== undefined ? slot.numbered.get(json) : members[json];
    if (member !== undefined) return member;
    if (ctx.ignoreUnknown) return skipped;
    throw problem(`enum number ${json} is no member of ${slot.kind}`);
  }
  throw expected(`a value name of the enum ${slot.kind}`, json);
}

const integerText = /^-?(?:0|[1-9]\d*)$/;
const numberText = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** An integer from a JSON number or string; a bigint where it is past the safe integers. */
function integerOf(json: unknown): number | bigint | undefined {
  if (typeof json === 'number') return Number.isInteger(json) ? json : undefined;
  if (typeof json !== 'string') return undefined;
  if (integerText.test(json)) {
    const number = Number(json);
    return Number.isSafeInteger(number) ? number : BigInt(json);
  }
  if (!numberText.test(json)) return undefined;
  const number = Number(json);
  return Number.isSafeInteger(number) ? number : undefined;
}

const int64Range = [-(2n ** 63n), 2n ** 63n - 1n] as const;
const uint64Range = [0n, 2n ** 64n - 1n] as const;

function int64Of(slot: Slot, json: unknown): number | bigint {
  const value = integerOf(json);
  const unsigned = slot.type === UINT64 || slot.type === UFIXED64;
  const [min, max] = unsigned ? uint64Range : int64Range;
  const kind = unsigned ? 'uint64' : 'int64';
  if (value === undefined) throw expected(`an ${kind} as a decimal string or integer`, json);
  const big = BigInt(value);
  if (big < min || big > max) throw expected(`an ${kind}`, json);
  if (slot.asNumber) {
    if (typeof value === 'bigint')
      throw problem(`${kind} ${value} is beyond the safe integers of as: 'number'`);
    return value;
  }
  return big;
}

function floatOf(json: unknown, single: boolean): number {
  let value: number;
  if (typeof json === 'number') value = json;
  else if (json === 'NaN') return Number.NaN;
  else if (json === 'Infinity') return Number.POSITIVE_INFINITY;
  else if (json === '-Infinity') return Number.NEGATIVE_INFINITY;
  else if (typeof json === 'string' && numberText.test(json)) value = Number(json);
  else throw expected('a number, "NaN", "Infinity" or "-Infinity"', json);
  if (!Number.isFinite(value)) throw expected('a number within a double', json);
  if (!single) return value;
  const single32 = Math.fround(value);
  if (!Number.isFinite(single32)) throw expected('a number within a float', json);
  return single32;
}

const base64Body = /^[A-Za-z0-9+/]*$/;

/** Standard or URL-safe base64, padded or not; undefined for anything else. */
function bytesOf(text: string): Uint8Array | undefined {
  const unpadded = text.replace(/={1,2}$/, '');
  const normal = unpadded.replaceAll('-', '+').replaceAll('_', '/');
  if (!base64Body.test(normal) || normal.length % 4 === 1) return undefined;
  if (unpadded.length !== text.length && text.length % 4 !== 0) return undefined;
  return decodeBase64(normal + '='.repeat((4 - (normal.length % 4)) % 4));
}
