/**
 * The JSON form of values: how a schema's values are spelled in JSON wherever wirekit reads or writes
 * JSON text by schema (field defaults in the schema's JSON form, CLI input, the JSON codec).
 *
 * | kind            | JSON form                                                  |
 * |-----------------|------------------------------------------------------------|
 * | int64, uint64   | a string of digits (numbers accepted on input when safe);  |
 * |                 | with `as: 'number'`, a number                              |
 * | float32/64      | a number; NaN, Infinity, -Infinity as those strings        |
 * | decimal         | its string (numbers accepted on input)                     |
 * | bytes           | base64 (base64url accepted on input)                       |
 * | timestamp       | RFC 3339 text in UTC, e.g. 2024-02-29T12:34:56.789Z        |
 * | map, int keys   | an object whose keys are the integers in decimal           |
 * | optional        | the key is left out                                        |
 * | string-key map  | an object; a `__proto__` key is refused on input           |
 * | everything else | as in JavaScript                                           |
 */

import type { Path } from '../errors/index.js';
import { formatPath, WirekitError } from '../errors/index.js';
import { fromBase64, toBase64 } from '../util/base64.js';
import { parseIsoTime } from '../util/iso-time.js';
import { decimalDigits } from './decimal.js';
import type { JsonValue, ObjectSchema, Schema, UnionSchema } from './types.js';

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
      return objectToJson(variantOf(schema, value, path, wrongValue), value, path);
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
    case 'ref':
      return toJsonValue(schema.resolve(), value, path);
    default:
      return value as JsonValue;
  }
}

/**
 * Reads a value of `schema` from its JSON form. Throws WK_JSON_VALUE_INVALID (with the path) where the
 * JSON does not follow the form; constraints such as lengths are left to `validate`. A missing field
 * with a default or a literal schema is filled in.
 */
export function fromJsonValue(schema: Schema, json: unknown, path: Path = []): unknown {
  switch (schema.kind) {
    case 'int8':
    case 'int16':
    case 'int32':
    case 'uint8':
    case 'uint16':
    case 'uint32':
      if (typeof json !== 'number' || !Number.isInteger(json)) throw wrongJson(path, 'an integer', json);
      return json;
    case 'int64':
    case 'uint64': {
      const n = readInteger(json, path);
      return schema.as === 'bigint' ? n : Number(n);
    }
    case 'float32':
    case 'float64':
      if (typeof json === 'number') return json;
      if (json === 'NaN' || json === 'Infinity' || json === '-Infinity') return Number(json);
      throw wrongJson(path, 'a number', json);
    case 'decimal': {
      const text = typeof json === 'number' && Number.isFinite(json) ? String(json) : json;
      if (typeof text !== 'string' || decimalDigits(text) === undefined)
        throw wrongJson(path, 'a decimal string', json);
      return text;
    }
    case 'bytes': {
      const bytes = typeof json === 'string' ? fromBase64(json) : undefined;
      if (bytes === undefined) throw wrongJson(path, 'base64 text', json);
      return bytes;
    }
    case 'timestamp': {
      const date = typeof json === 'string' ? parseIsoTime(json) : undefined;
      if (date === undefined)
        throw wrongJson(path, 'an RFC 3339 date-time such as 2024-01-31T12:00:00Z', json);
      return date;
    }
    case 'object':
      return objectFromJson(schema, json, path);
    case 'union':
      return objectFromJson(variantOf(schema, json, path, wrongJson), json, path);
    case 'array':
      if (!Array.isArray(json)) throw wrongJson(path, 'an array', json);
      return json.map((item, i) => fromJsonValue(schema.items, item, [...path, i]));
    case 'map':
      return mapFromJson(schema.keys.kind, schema.values, json, path);
    case 'optional':
      return json === undefined ? undefined : fromJsonValue(schema.inner, json, path);
    case 'nullable':
      return json === null ? null : fromJsonValue(schema.inner, json, path);
    case 'ref':
      return fromJsonValue(schema.resolve(), json, path);
    case 'bool':
      if (typeof json !== 'boolean') throw wrongJson(path, 'a boolean', json);
      return json;
    case 'string':
    case 'enum':
      if (typeof json !== 'string') throw wrongJson(path, 'a string', json);
      return json;
    case 'literal':
      return json;
    case 'json':
      return json;
  }
}

function objectToJson(schema: ObjectSchema, value: unknown, path: Path): JsonValue {
  if (typeof value !== 'object' || value === null) throw wrongValue(path, 'an object', value);
  const out: Record<string, JsonValue> = {};
  for (const field of schema.fields) {
    const fieldValue = (value as Record<string, unknown>)[field.name];
    if (fieldValue === undefined && field.schema.kind === 'optional') continue;
    out[field.name] = toJsonValue(field.schema, fieldValue, [...path, field.name]);
  }
  return out;
}

function objectFromJson(schema: ObjectSchema, json: unknown, path: Path): Record<string, unknown> {
  if (!isPlainObject(json)) throw wrongJson(path, 'an object', json);
  const out: Record<string, unknown> = {};
  const known = new Set<string>();
  for (const field of schema.fields) {
    known.add(field.name);
    const fieldPath = [...path, field.name];
    const item = Object.hasOwn(json, field.name) ? json[field.name] : undefined;
    if (item !== undefined) out[field.name] = fromJsonValue(field.schema, item, fieldPath);
    else if (field.default !== undefined) out[field.name] = field.default;
    else if (field.schema.kind === 'literal') out[field.name] = field.schema.value;
    else if (field.schema.kind !== 'optional')
      throw wrongJson(fieldPath, `the required field ${field.name}`, undefined);
  }
  for (const key of Object.keys(json)) {
    if (!known.has(key)) throw wrongJson([...path, key], `only fields of ${schema.name}`, json[key]);
  }
  return out;
}

function mapFromJson(keyKind: Schema['kind'], values: Schema, json: unknown, path: Path): unknown {
  if (!isPlainObject(json)) throw wrongJson(path, 'an object', json);
  if (keyKind === 'string') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(json)) {
      // Kept out rather than preserved: code that later copies the map with Object.assign or a
      // setter would turn this key into a prototype change.
      if (key === '__proto__') throw wrongJson([...path, key], 'a key other than __proto__', item);
      out[key] = fromJsonValue(values, item, [...path, key]);
    }
    return out;
  }
  const out = new Map<number | bigint, unknown>();
  const bigKeys = keyKind === 'int64' || keyKind === 'uint64';
  for (const [key, item] of Object.entries(json)) {
    if (!/^-?(0|[1-9][0-9]*)$/.test(key)) throw wrongJson([...path, key], 'an integer key', key);
    out.set(bigKeys ? BigInt(key) : Number(key), fromJsonValue(values, item, [...path, key]));
  }
  return out;
}

function variantOf(
  schema: UnionSchema,
  value: unknown,
  path: Path,
  fail: (path: Path, expected: string, got: unknown) => WirekitError,
): ObjectSchema {
  const tag =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[schema.tag] : undefined;
  const variant = schema.variants.find((v) =>
    v.fields.some((f) => f.name === schema.tag && f.schema.kind === 'literal' && f.schema.value === tag),
  );
  if (variant === undefined) throw fail([...path, schema.tag], `a variant tag of ${schema.name}`, tag);
  return variant;
}

/** Integers for int64 may come as JSON numbers (when safe) or as strings of digits. */
function readInteger(json: unknown, path: Path): bigint {
  if (typeof json === 'number' && Number.isSafeInteger(json)) return BigInt(json);
  if (typeof json === 'string' && /^-?(0|[1-9][0-9]*)$/.test(json) && json.length <= 21) return BigInt(json);
  throw wrongJson(path, 'an integer (a safe number or a string of digits)', json);
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

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'bigint') return `${value}n`;
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function wrongJson(path: Path, expected: string, got: unknown): WirekitError {
  return new WirekitError(
    'WK_JSON_VALUE_INVALID',
    `${pathText(path)}expected ${expected}, got ${show(got)}.`,
    { path },
  );
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
