/**
 * The JSON form of values: how a schema's values are spelled in JSON wherever wirekit reads or writes
 * JSON text by schema (field defaults in the schema's JSON form, CLI input, the JSON codec).
 *
 * | kind            | JSON form                                                  |
 * |-----------------|------------------------------------------------------------|
 * | int64, uint64   | a string of digits (numbers accepted on input when safe);  |
 * |                 | with `as: 'number'`, a number; in range on input           |
 * | float32/64      | a number; NaN, Infinity, -Infinity as those strings; a     |
 * |                 | float32 is read as the nearest float32 (as binary formats) |
 * | decimal         | its string (numbers accepted on input)                     |
 * | bytes           | base64 (base64url accepted on input)                       |
 * | timestamp       | RFC 3339 text in UTC, e.g. 2024-02-29T12:34:56.789Z; years |
 * |                 | past 9999 or before 0 as toISOString spells them (+275760) |
 * | map, int keys   | an object whose keys are the integers in decimal           |
 * | optional        | the key is left out                                        |
 * | string-key map  | an object; `__proto__`, `constructor`, `prototype` keys    |
 * |                 | are refused on input                                       |
 * | everything else | as in JavaScript                                           |
 */

import { previewValue } from '../errors/describe-value.js';
import type { Path } from '../errors/index.js';
import { atPath, formatPath, prependPath, WirekitError } from '../errors/index.js';
import { fromBase64, toBase64 } from '../util/base64.js';
import { effectiveDepth } from '../util/depth-ceiling.js';
import { parseIsoTime, parseIsoTimeExpanded } from '../util/iso-time.js';
import { isUnsafeKey } from '../util/unsafe-keys.js';
import { utf8Length } from '../util/utf8-length.js';
import { decimalDigits } from './decimal.js';
import { branchOf, branchOfNumber, branchTable, describeBranches } from './either.js';
import { intRange, isSmallInt, largeIntRange } from './int-ranges.js';
import { type JsonTotals, jsonDecodeError, walkJson } from './json-kind.js';
import { fieldOf, isInheritedName, noSuchField } from './names.js';
import { oneofRule } from './oneofs.js';
import type {
  EitherSchema,
  FieldDef,
  Int64Schema,
  JsonValue,
  MapKeySchema,
  ObjectSchema,
  Schema,
  UnionSchema,
} from './types.js';
import { memberSet } from './validate.js';
import {
  bytesRule,
  decimalRule,
  fitsFloat32,
  floatRule,
  itemsRule,
  jsonRule,
  type Refusal,
  refusalBy,
  stringRule,
  timestampRule,
} from './value-rules.js';

/** Converts a value of `schema` to its JSON form. The value should be valid (see `validate`). */
export function toJsonValue(schema: Schema, value: unknown, path: Path = []): JsonValue {
  switch (schema.kind) {
    case 'int64':
    case 'uint64':
      return typeof value === 'bigint' ? value.toString() : (expectType(value, 'number', path) as number);
    case 'float32':
    case 'float64': {
      const n = expectType(value, 'number', path) as number;
      return Number.isFinite(n) ? n : String(n);
    }
    case 'bytes':
      if (!(value instanceof Uint8Array)) throw wrongValue(path, 'a Uint8Array', value);
      return toBase64(value);
    case 'timestamp':
      if (!(value instanceof Date) || Number.isNaN(value.getTime()))
        throw wrongValue(path, 'a valid Date', value);
      return value.toISOString();
    case 'object':
      return objectToJson(schema, value, path);
    case 'union':
      return objectToJson(unionVariant(schema, value, path), value, path);
    case 'array': {
      if (!Array.isArray(value)) throw wrongValue(path, 'an array', value);
      return value.map((item, i) => toJsonValue(schema.items, item, [...path, i]));
    }
    case 'map': {
      const out: Record<string, JsonValue> = {};
      const entries = value instanceof Map ? [...value] : Object.entries(value as object);
      for (const [key, item] of entries) {
        const name = String(key);
        defineKey(out, name, toJsonValue(schema.values, item, [...path, name]));
      }
      return out;
    }
    case 'optional':
      return value === undefined ? null : toJsonValue(schema.inner, value, path);
    case 'nullable':
      return value === null ? null : toJsonValue(schema.inner, value, path);
    case 'either': {
      const branch = branchOf(schema, value);
      if (branch === undefined) throw wrongValue(path, describeBranches(schema), value);
      return toJsonValue(branch, value, path);
    }
    case 'ref':
      return toJsonValue(schema.resolve(), value, path);
    default:
      return value as JsonValue;
  }
}

export interface FromJsonOptions {
  /** Nesting limit (default 100): guards the stack against deep input. */
  readonly maxDepth?: number;
  /**
   * Keys of an object that its schema does not know: 'reject' (default, as `validate`: the JSON
   * form is checked input, not a wire a newer writer may extend) or 'ignore'. The codecs'
   * `unknownKeys` option, by the same name, defaults to 'ignore' (docs/values.md).
   */
  readonly unknownKeys?: 'reject' | 'ignore';
  /** @deprecated The earlier name of `unknownKeys`. */
  readonly unknownFields?: 'reject' | 'ignore';
  /** The code of errors about the JSON's shape (the JSON codec reports WK_DECODE_SCHEMA_MISMATCH). */
  readonly errorCode?: 'WK_JSON_VALUE_INVALID' | 'WK_DECODE_SCHEMA_MISMATCH';
  /**
   * Convert `json` where it stands instead of building a new tree (default false). For callers that
   * own the parsed value, such as the JSON codec straight after JSON.parse: most fields need no
   * conversion, so most of the tree is left as it is.
   */
  readonly inPlace?: boolean;
  /**
   * Whether strings may hold lone surrogates, which are refused (default true: every string is
   * checked). A caller that has the JSON text can pass false when the text holds no escape of a
   * surrogate (`\uD800`-`\uDFFF`): JSON.parse can make a lone one from nothing else.
   */
  readonly surrogates?: boolean;
}

/**
 * `FromJsonOptions` resolved once; the compiled JSON reader (src/codecs/json/decode/compiled.ts) takes
 * it too. The JSON codec makes one per decode, with what its checks of the text found.
 */
export interface ReadContext {
  readonly inPlace: boolean;
  readonly maxDepth: number;
  readonly rejectUnknown: boolean;
  readonly code: 'WK_JSON_VALUE_INVALID' | 'WK_DECODE_SCHEMA_MISMATCH';
  readonly surrogates: boolean;
  /** The longest string (UTF-8 bytes) and byte string a decode accepts. */
  readonly maxStringBytes: number;
  readonly maxBytesLength: number;
  /** Array items and map entries a decode accepts in all (an object's fields are none). */
  readonly maxElements: number;
  /**
   * Whether a string may be longer than maxStringBytes, so that strings of the string kinds are
   * measured (the JSON codec's checks of the text bound every other string; base64 text of a bytes
   * field may be longer, and is held to maxBytesLength as bytes).
   */
  readonly longStrings: boolean;
  /** Counts the keys of every object read, which the JSON codec compares with the text's keys. */
  readonly tally: JsonTotals;
  /** The decode's allocation budget, for values the reader makes beyond the parsed tree. */
  readonly allocation: ReadAllocation | undefined;
}

/**
 * The allocation budget as the reader charges it (the codecs' AllocationBudget and costs): for a
 * byte array, a Date, a bigint or a map the reader builds from the parsed value.
 */
export interface ReadAllocation {
  charge(bytes: number): void;
  readonly bytes: number;
  readonly date: number;
  readonly bigint: number;
  readonly object: number;
  readonly slot: number;
  readonly map: number;
  readonly mapEntry: number;
}

/**
 * Reads a value of `schema` from its JSON form. Throws a WirekitError with the path where the JSON
 * does not follow the form or holds no value of the schema's type (an integer out of its kind's
 * range, a string that is no member of the enum, another value than the literal) or that breaks its
 * schema's constraints (value-rules.ts: lengths, patterns, item counts, a decimal's scale and
 * precision, a timestamp's unit, a float32's range, a lone surrogate), as every decoder does;
 * unknown keys are left to `validate`'s option. A missing field with a default or a literal
 * schema is filled in. String-keyed maps refuse `__proto__`, `constructor` and `prototype` keys
 * (WK_DECODE_UNSAFE_KEY).
 */
export function fromJsonValue(schema: Schema, json: unknown, options: FromJsonOptions = {}): unknown {
  return read(schema, json, 0, readContext(options));
}

export function readContext(options: FromJsonOptions): ReadContext {
  return {
    inPlace: options.inPlace === true,
    maxDepth: effectiveDepth(options.maxDepth ?? 100),
    rejectUnknown: (options.unknownKeys ?? options.unknownFields) !== 'ignore',
    code: options.errorCode ?? 'WK_JSON_VALUE_INVALID',
    surrogates: options.surrogates !== false,
    maxStringBytes: Number.POSITIVE_INFINITY,
    maxBytesLength: Number.POSITIVE_INFINITY,
    maxElements: Number.POSITIVE_INFINITY,
    longStrings: false,
    tally: { elements: 0, keys: 0 },
    allocation: undefined,
  };
}

/**
 * Reads `json` as a value of `schema` at nesting `depth`. Exported, with `nest`, `requiredField` and
 * `unknownKeys`, for the compiled reader: it calls these for every kind it does not inline and for
 * every value its inline checks refuse, so both paths give the same values and the same errors.
 */
export function read(schema: Schema, json: unknown, depth: number, context: ReadContext): unknown {
  if (isSmallInt(schema)) {
    // In range too: a decoded value is of the schema's type, as every binary codec guarantees.
    const [min, max] = intRange(schema);
    if (typeof json !== 'number' || !Number.isInteger(json)) throw wrong(context, 'an integer', json);
    if (json < min || json > max) throw wrong(context, `an integer in ${schema.kind}'s range`, json);
    return json;
  }
  switch (schema.kind) {
    case 'int64':
    case 'uint64':
      return readLargeInt(schema, json, context);
    case 'float32':
    case 'float64': {
      let n: number;
      if (typeof json === 'number') {
        // JSON text spells the infinities as strings: a number that is one was a literal past
        // float64 (`1e400`), which JSON.parse rounds to an infinity without a word.
        if (!Number.isFinite(json)) throw wrong(context, 'a number within float64', json);
        n = json;
      } else if (json === 'NaN' || json === 'Infinity' || json === '-Infinity') n = Number(json);
      else throw wrong(context, 'a number', json);
      if (schema.kind === 'float64') return checked(refusalBy(floatRule(schema), n), n, context);
      if (!fitsFloat32(n)) throw wrong(context, 'a number within float32', json);
      const rounded = Math.fround(n);
      return checked(refusalBy(floatRule(schema), rounded), rounded, context);
    }
    case 'decimal': {
      const text = typeof json === 'number' && Number.isFinite(json) ? String(json) : json;
      if (typeof text !== 'string' || decimalDigits(text) === undefined)
        throw wrong(context, 'a decimal string', json);
      if (context.longStrings) checkLength(text, context);
      if (text !== json) context.allocation?.charge(stringBytes(text));
      return checked(decimalRule(schema)(text), text, context);
    }
    case 'bytes': {
      if (typeof json === 'string' && Math.floor((json.length * 3) / 4) > context.maxBytesLength)
        checkBytesLength(json, context);
      const bytes = typeof json === 'string' ? fromBase64(json) : undefined;
      if (bytes === undefined) throw wrong(context, 'base64 text', json);
      context.allocation?.charge(context.allocation.bytes + bytes.length);
      const rule = bytesRule(schema);
      return rule === undefined ? bytes : checked(rule(bytes), bytes, context);
    }
    case 'timestamp': {
      const date = typeof json === 'string' ? (parseIsoTime(json) ?? parseIsoTimeExpanded(json)) : undefined;
      if (date === undefined)
        throw wrong(context, 'an RFC 3339 date-time such as 2024-01-31T12:00:00Z', json);
      context.allocation?.charge(context.allocation.date);
      const rule = timestampRule(schema);
      return rule === undefined ? date : checked(rule(date), date, context);
    }
    case 'object':
      return readObject(schema, json, nest(depth, context), context);
    case 'union':
      return readObject(
        variantOf(schema, json, (e, g) => wrong(context, e, g)),
        json,
        nest(depth, context),
        context,
      );
    case 'array': {
      if (!Array.isArray(json)) throw wrong(context, 'an array', json);
      const rule = itemsRule(schema);
      if (rule !== undefined) checked(rule(json.length), json, context);
      const inner = nest(depth, context);
      countElements(json.length, context);
      const out = context.inPlace ? json : new Array(json.length);
      let i = 0;
      try {
        for (; i < json.length; i++) {
          const item = json[i];
          const value = read(schema.items, item, inner, context);
          if (value !== item || out !== json) out[i] = value;
        }
      } catch (error) {
        throw prependPath(error, i);
      }
      return out;
    }
    case 'map':
      return readMap(schema.keys, schema.values, json, nest(depth, context), context);
    case 'optional':
      // As for an optional field: null for a value that cannot be null means absent (the writer
      // spells an absent array item or map value as null).
      if (json === undefined || (json === null && schema.inner.kind !== 'nullable')) return undefined;
      return read(schema.inner, json, depth, context);
    case 'nullable':
      return json === null ? null : read(schema.inner, json, depth, context);
    case 'either': {
      // The JSON form keeps each value's class (either.ts), so the parsed value names its branch.
      const branch = branchOf(schema, json) ?? nonFiniteBranch(schema, json);
      if (branch === undefined) throw wrong(context, describeBranches(schema), json);
      return read(branch, json, depth, context);
    }
    case 'ref':
      return read(schema.resolve(), json, depth, context);
    case 'bool':
      if (typeof json !== 'boolean') throw wrong(context, 'a boolean', json);
      return json;
    case 'string': {
      if (typeof json !== 'string') throw wrong(context, 'a string', json);
      if (context.longStrings) checkLength(json, context);
      if (context.surrogates && !json.isWellFormed())
        throw new WirekitError(context.code, 'a string holds a lone surrogate, which UTF-8 cannot carry.', {
          path: [],
        });
      const rule = stringRule(schema);
      return rule === undefined ? json : checked(rule(json), json, context);
    }
    case 'enum':
      if (typeof json !== 'string') throw wrong(context, 'a string', json);
      if (!memberSet(schema).has(json)) throw wrong(context, `a member of ${schema.name}`, json);
      return json;
    case 'literal':
      if (json !== schema.value) throw wrong(context, `the literal ${show(schema.value)}`, json);
      return json;
    case 'json': {
      const value = readJson(json, depth, context);
      // A declared Struct or ListValue holds an object or an array (JsonSchema.proto).
      const rule = jsonRule(schema);
      return rule === undefined ? value : checked(rule(value), value, context);
    }
  }
}

/**
 * A json value as JSON.parse made it, held to the json kind's rules (json-kind.ts): nesting
 * continues from the containers around it, and its unsafe keys and infinities (`1e400`) are refused
 * as every format refuses them. Its keys are counted into the tally (the JSON codec's repeated-key
 * check compares them with the text's).
 */
function readJson(json: unknown, depth: number, context: ReadContext): unknown {
  // The walk adds each container's items and members (a json object is a map) to the tally as it
  // enters it; `count` then holds the tally to maxElements, as every format counts at the header.
  const count = (): void => countElements(0, context);
  const problem = walkJson(json, { depth, maxDepth: context.maxDepth, count }, context.tally);
  if (problem !== undefined) throw jsonDecodeError(problem, context.maxDepth, context.code);
  if (context.longStrings) checkJsonStrings(json, context);
  return json;
}

/** Holds the strings and keys of a json value to maxStringBytes (only when the text may hold a longer one). */
function checkJsonStrings(json: unknown, context: ReadContext): void {
  const pending: unknown[] = [json];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node === 'string') checkLength(node, context);
    else if (Array.isArray(node)) for (const item of node) pending.push(item);
    else if (typeof node === 'object' && node !== null) {
      // A json object is a map: its keys are strings of the value too.
      for (const [key, item] of Object.entries(node)) {
        checkLength(key, context);
        pending.push(item);
      }
    }
  }
}

/** Refuses a string past maxStringBytes (measured only when the text may hold one). */
function checkLength(text: string, context: ReadContext): void {
  if (text.length * 3 <= context.maxStringBytes) return;
  const bytes = utf8Length(text);
  if (bytes > context.maxStringBytes) {
    throw new WirekitError(
      'WK_LIMIT_LENGTH',
      `a string of ${bytes} bytes exceeds maxStringBytes (${context.maxStringBytes}).`,
      { path: [] },
    );
  }
}

/** Refuses base64 text whose bytes would be past maxBytesLength, before they are decoded. */
function checkBytesLength(text: string, context: ReadContext): void {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const bytes = Math.floor((text.length * 3) / 4) - padding;
  if (bytes > context.maxBytesLength) {
    throw new WirekitError(
      'WK_LIMIT_LENGTH',
      `a byte string of ${bytes} bytes exceeds maxBytesLength (${context.maxBytesLength}).`,
      { path: [] },
    );
  }
}

/** The heap of a string the reader makes (one byte a character: an estimate, as core/budget.ts's). */
function stringBytes(text: string): number {
  return 16 + ((text.length + 7) & ~7);
}

/**
 * Counts `n` array items or map entries against maxElements, as every decoder counts them: when a
 * container is met, after its nesting is checked and before its items are read.
 */
export function countElements(n: number, context: ReadContext): void {
  const tally = context.tally;
  tally.elements += n;
  if (tally.elements > context.maxElements) {
    throw new WirekitError(
      'WK_LIMIT_ELEMENTS',
      `more than maxElements (${context.maxElements}) array items and map entries.`,
      { path: [] },
    );
  }
}

export function nest(depth: number, context: ReadContext): number {
  if (depth >= context.maxDepth) {
    throw new WirekitError('WK_LIMIT_DEPTH', `values nest deeper than maxDepth (${context.maxDepth}).`, {
      path: [],
    });
  }
  return depth + 1;
}

/** Field names that plain objects inherit (toString, constructor…): reading them needs an own-property check. */
const inherited = new WeakMap<ObjectSchema, boolean>();

function needsOwnCheck(schema: ObjectSchema): boolean {
  let value = inherited.get(schema);
  if (value === undefined) {
    value = schema.fields.some((field) => isInheritedName(field.name));
    inherited.set(schema, value);
  }
  return value;
}

function readObject(
  schema: ObjectSchema,
  json: unknown,
  depth: number,
  context: ReadContext,
): Record<string, unknown> {
  if (!isPlainObject(json)) throw wrong(context, 'an object', json);
  const out: Record<string, unknown> = context.inPlace ? json : {};
  const { fields } = schema;
  const ownCheck = needsOwnCheck(schema);
  // Unknown keys are found by counting: the input has one exactly when it has more keys than the
  // fields it holds (`seen`). The keys are counted before the loop, which in place deletes the key
  // of a null optional and adds defaults; counted after, a deleted null hid an unknown key beside
  // it. Counting keeps the common case (no unknown keys) free of a lookup per key.
  const checkKeys = context.rejectUnknown || out === json;
  const keys = checkKeys ? countKeys(json) : 0;
  context.tally.keys += keys;
  let seen = 0;
  let i = 0;
  try {
    for (; i < fields.length; i++) {
      const field = fields[i] as FieldDef;
      let item = json[field.name];
      if (ownCheck && !Object.hasOwn(json, field.name)) item = undefined;
      // Many JSON writers spell "absent" as null; for an optional field that cannot hold null, it
      // can only mean that. Its key is a field's, counted in `keys` before it goes, so it is seen.
      if (item === null && field.schema.kind === 'optional' && field.schema.inner.kind !== 'nullable') {
        seen++;
        if (out === json) delete out[field.name];
        continue;
      }
      if (item !== undefined) {
        seen++;
        const value = read(field.schema, item, depth, context);
        if (value !== item || out !== json) out[field.name] = value;
      } else if (field.default !== undefined) out[field.name] = field.default;
      else if (field.schema.kind === 'literal') out[field.name] = field.schema.value;
      else if (field.schema.kind !== 'optional') throw requiredField(context, field.name);
    }
  } catch (error) {
    throw prependPath(error, (fields[i] as FieldDef).name);
  }
  if (checkKeys && keys !== seen) unknownKeys(schema, json, out, context);
  if (schema.oneofs !== undefined) keptOneofs(schema, out, context);
  return out;
}

/**
 * Refuses an object read with two members of one oneof group present (schema/oneofs.ts), as every
 * reader but Protocol Buffers' does: JSON has no "last member wins" of its own, so such text is no
 * value of the schema. The compiled reader calls it too.
 */
export function keptOneofs(schema: ObjectSchema, out: Record<string, unknown>, context: ReadContext): void {
  checked(oneofRule(schema)?.(out), out, context);
}

/** The keys of an object that hold a value (the compiled reader counts them the same way). */
function countKeys(json: Record<string, unknown>): number {
  let keys = 0;
  for (const key in json) if (json[key] !== undefined) keys++;
  return keys;
}

/** The error for a required field that is absent (its path is prepended by the caller). */
export function requiredField(context: ReadContext, name: string): WirekitError {
  return wrong(context, `the required field ${name}`, undefined);
}

/** Refuses the first key of `json` that `schema` does not know or, when ignoring them, deletes them from `out`. */
export function unknownKeys(
  schema: ObjectSchema,
  json: Record<string, unknown>,
  out: Record<string, unknown>,
  context: ReadContext,
): void {
  const { fields } = schema;
  for (const key of Object.keys(json)) {
    if (fields.some((field) => field.name === key) || json[key] === undefined) continue;
    // The message names the key, not its value, which may be large and is no value of the schema.
    if (context.rejectUnknown)
      throw prependPath(new WirekitError(context.code, noSuchField(schema.name, key), { path: [] }), key);
    delete out[key];
  }
}

/** The error for a key of a string-keyed map that no decoder accepts (`__proto__`, ...). */
export function unsafeMapKey(key: string): WirekitError {
  return new WirekitError('WK_DECODE_UNSAFE_KEY', `${formatPath([key])}: the key ${key} is refused.`, {
    path: [key],
  });
}

/** Reads a map at `depth` (already nested); exported for the compiled reader, which calls it for what it does not inline. */
export function readMap(
  keys: MapKeySchema,
  values: Schema,
  json: unknown,
  depth: number,
  context: ReadContext,
): unknown {
  if (!isPlainObject(json)) throw wrong(context, 'an object', json);
  const names = Object.keys(json);
  context.tally.keys += names.length;
  countElements(names.length, context);
  const allocation = context.allocation;
  if (allocation !== undefined)
    allocation.charge(
      keys.kind === 'string'
        ? allocation.object + names.length * allocation.slot
        : allocation.map + names.length * allocation.mapEntry,
    );
  if (keys.kind === 'string') {
    const out: Record<string, unknown> = {};
    for (const key of names) {
      if (isUnsafeKey(key)) throw unsafeMapKey(key);
      // The key is a value of the key schema, with its constraints.
      atPath(key, () => read(keys, key, depth, context));
      out[key] = atPath(key, () => read(values, json[key], depth, context));
    }
    return out;
  }
  const out = new Map<unknown, unknown>();
  // 64-bit keys are read from their text, the only exact spelling; each key as a value of its kind,
  // so it is in range and a number or a bigint as the key schema's `as` says.
  const text = keys.kind === 'int64' || keys.kind === 'uint64';
  for (const key of names) {
    if (!/^-?(0|[1-9][0-9]*)$/.test(key)) throw prependPath(wrong(context, 'an integer key', key), key);
    const mapKey = atPath(key, () => read(keys, text ? key : Number(key), depth, context));
    // "0" and "-0" are one key: keeping either would drop the other's value without a word.
    if (out.has(mapKey)) throw prependPath(wrong(context, 'each integer key once', key), key);
    out.set(
      mapKey,
      atPath(key, () => read(values, json[key], depth, context)),
    );
  }
  return out;
}

function objectToJson(schema: ObjectSchema, value: unknown, path: Path): JsonValue {
  if (typeof value !== 'object' || value === null) throw wrongValue(path, 'an object', value);
  const out: Record<string, JsonValue> = {};
  for (const field of schema.fields) {
    const fieldValue = fieldOf(value as Record<string, unknown>, field.name);
    if (fieldValue === undefined && field.schema.kind === 'optional') continue;
    out[field.name] = toJsonValue(field.schema, fieldValue, [...path, field.name]);
  }
  return out;
}

function unionVariant(schema: UnionSchema, value: unknown, path: Path): ObjectSchema {
  const tag =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[schema.tag] : undefined;
  const variant = findVariant(schema, tag);
  if (variant === undefined) throw wrongValue([...path, schema.tag], `a variant tag of ${schema.name}`, tag);
  return variant;
}

function findVariant(schema: UnionSchema, tag: unknown): ObjectSchema | undefined {
  return schema.variants.find((v) =>
    v.fields.some((f) => f.name === schema.tag && f.schema.kind === 'literal' && f.schema.value === tag),
  );
}

function variantOf(
  schema: UnionSchema,
  value: unknown,
  fail: (expected: string, got: unknown) => WirekitError,
): ObjectSchema {
  const tag =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[schema.tag] : undefined;
  const variant = findVariant(schema, tag);
  if (variant === undefined) throw prependPath(fail(`a variant tag of ${schema.name}`, tag), schema.tag);
  return variant;
}

/**
 * Integers for int64 may come as JSON numbers or as strings of digits. A number beyond 2^53 is
 * refused: JSON.parse has already rounded it, and guessing the digits would lose data silently.
 * The value must be in the kind's range (a negative uint64 or 2^63 as int64 is no value of the
 * type) and, with `as: 'number'`, a safe integer, as the writer and `validate` require: Number()
 * of longer digits would round them.
 */
function readLargeInt(schema: Int64Schema, json: unknown, context: ReadContext): bigint | number {
  const n = readInteger(json, context);
  const [min, max] = largeIntRange[schema.kind];
  if (n < min || n > max) throw wrong(context, `an integer in ${schema.kind}'s range`, json);
  if (schema.as === 'bigint') {
    context.allocation?.charge(context.allocation.bigint);
    return n;
  }
  if (n < minSafe || n > maxSafe)
    throw wrong(context, `a safe integer (the schema says ${schema.kind} as: 'number')`, json);
  return Number(n);
}

const minSafe = BigInt(Number.MIN_SAFE_INTEGER);
const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);

function readInteger(json: unknown, context: ReadContext): bigint {
  if (typeof json === 'number' && Number.isSafeInteger(json)) return BigInt(json);
  // Every 64-bit integer takes at most 20 characters; the bound keeps BigInt() off long text.
  if (typeof json === 'string' && /^-?(0|[1-9][0-9]*)$/.test(json) && json.length <= 21) return BigInt(json);
  throw wrong(context, 'an integer (a safe number, or a string of digits beyond 2^53)', json);
}

function isPlainObject(json: unknown): json is Record<string, unknown> {
  return typeof json === 'object' && json !== null && !Array.isArray(json);
}

/** Sets a key as an own data property, so that a key named `__proto__` stays a key. */
function defineKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function expectType(value: unknown, type: string, path: Path): unknown {
  if (typeof value !== type) throw wrongValue(path, `a ${type}`, value);
  return value;
}

/** The value in a message: bounded however large or deep it is (the input's, in a decoder's message). */
function show(value: unknown): string {
  return previewValue(value);
}

/** `value`, unless a rule refused it (value-rules.ts): then the refusal, with the reader's code. */
function checked<T>(refusal: Refusal | undefined, value: T, context: ReadContext): T {
  if (refusal !== undefined) throw new WirekitError(context.code, refusal.message, { path: [] });
  return value;
}

/**
 * A float spells NaN and the infinities as text in JSON. Beside a text branch such text is that
 * branch's (either.ts refuses the numbers there); without one, it is the number branch's.
 */
function nonFiniteBranch(schema: EitherSchema, json: unknown): Schema | undefined {
  if (json !== 'NaN' && json !== 'Infinity' && json !== '-Infinity') return undefined;
  const index = branchOfNumber(branchTable(schema), Number.NaN);
  return index === undefined ? undefined : schema.branches[index];
}

function wrong(context: ReadContext, expected: string, got: unknown): WirekitError {
  return new WirekitError(context.code, `expected ${expected}, got ${show(got)}.`, { path: [] });
}

function wrongValue(path: Path, expected: string, got: unknown): WirekitError {
  return new WirekitError(
    'WK_VALIDATION_FAILED',
    `${pathText(path)}expected ${expected}, got ${show(got)}.`,
    { path },
  );
}

function pathText(path: Path): string {
  return path.length === 0 ? '' : `${formatPath(path)}: `;
}
