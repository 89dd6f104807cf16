/**
 * Schema-driven JSON text writer. It writes the JSON form of values (src/schema/json-value.ts)
 * straight to text, without first building the converted value tree that `toJsonValue` returns.
 */

import { atPath, describeValue, prependPath, WirekitError } from '../../../errors/index.js';
import { branchOf, describeBranches } from '../../../schema/either.js';
import type { MapKeySchema, ObjectSchema, Schema, UnionSchema } from '../../../schema/index.js';
import { intRange, isSmallInt, largeIntRange } from '../../../schema/int-ranges.js';
import { jsonValueText } from '../../../schema/json-kind.js';
import { fieldOf } from '../../../schema/names.js';
import { keepOneofs } from '../../../schema/oneofs.js';
import {
  bytesRule,
  decimalRule,
  fitsFloat32,
  floatRule,
  isRecord,
  itemsRule,
  jsonRule,
  refused,
  stringRule,
  timestampRule,
  unreadableKey,
} from '../../../schema/value-rules.js';
import { toBase64 } from '../../../util/base64.js';
import { checkWellFormed } from '../../core/utf8.js';

export interface JsonWriteOptions {
  /** int64/uint64 bigints as "strings" (default, what every JSON parser reads exactly) or bare numbers. */
  readonly int64: 'string' | 'number';
  /** Nesting bound: a cyclic value fails here instead of overflowing the stack. */
  readonly maxDepth: number;
}

/** Field names are escaped once per schema, not once per value. */
const fieldKeys = new WeakMap<ObjectSchema, readonly string[]>();

function keysOf(schema: ObjectSchema): readonly string[] {
  let keys = fieldKeys.get(schema);
  if (keys === undefined) {
    keys = schema.fields.map((field) => `${JSON.stringify(field.name)}:`);
    fieldKeys.set(schema, keys);
  }
  return keys;
}

export function writeJson(schema: Schema, value: unknown, options: JsonWriteOptions): string {
  return write(schema, value, 0, options);
}

function write(schema: Schema, value: unknown, depth: number, options: JsonWriteOptions): string {
  if (isSmallInt(schema)) {
    const [min, max] = intRange(schema);
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw wrong(`an ${schema.kind}`, value);
    }
    return String(value);
  }
  switch (schema.kind) {
    case 'bool':
      if (typeof value !== 'boolean') throw wrong('a boolean', value);
      return value ? 'true' : 'false';
    case 'int64':
    case 'uint64': {
      // The JavaScript type the schema says (a bigint, or with `as: 'number'` a safe integer), in
      // the kind's range: the reader refuses anything else, as every binary writer does.
      if (schema.as === 'bigint') {
        const [min, max] = largeIntRange[schema.kind];
        if (typeof value !== 'bigint' || value < min || value > max)
          throw wrong(`an ${schema.kind} bigint`, value);
        return options.int64 === 'string' ? `"${value}"` : String(value);
      }
      if (
        typeof value !== 'number' ||
        !Number.isSafeInteger(value) ||
        (schema.kind === 'uint64' && value < 0)
      )
        throw wrong(`a safe ${schema.kind} number`, value);
      return String(value);
    }
    case 'float32':
    case 'float64':
      if (typeof value !== 'number') throw wrong('a number', value);
      if (schema.kind === 'float32' && !fitsFloat32(value)) throw wrong('a number within float32', value);
      {
        const refusal = floatRule(schema)?.(value);
        if (refusal !== undefined) throw refused(refusal);
      }
      if (Number.isFinite(value)) return Object.is(value, -0) ? '-0' : String(value);
      return `"${value}"`;
    case 'decimal': {
      if (typeof value !== 'string') throw wrong('a decimal string', value);
      const refusal = decimalRule(schema)(value);
      if (refusal !== undefined) throw refused(refusal);
      return `"${value}"`;
    }
    case 'string': {
      if (typeof value !== 'string') throw wrong('a string', value);
      const refusal = stringRule(schema)?.(value);
      if (refusal !== undefined) throw refused(refusal);
      return quote(value);
    }
    case 'enum':
      // A member only: the reader refuses anything else, so the writer must not write it.
      if (typeof value !== 'string' || !schema.members.includes(value)) {
        throw wrong(`one of ${schema.members.join(', ')}`, value);
      }
      return JSON.stringify(value);
    case 'bytes':
      if (!(value instanceof Uint8Array)) throw wrong('a Uint8Array', value);
      {
        const refusal = bytesRule(schema)?.(value);
        if (refusal !== undefined) throw refused(refusal);
      }
      return `"${toBase64(value)}"`;
    case 'timestamp': {
      if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw wrong('a valid Date', value);
      const refusal = timestampRule(schema)?.(value);
      if (refusal !== undefined) throw refused(refusal);
      return `"${value.toISOString()}"`;
    }
    case 'literal':
      // Writing the schema's value whatever the value holds would replace a wrong one silently.
      if (value !== schema.value) throw wrong(`the literal ${JSON.stringify(schema.value)}`, value);
      return JSON.stringify(schema.value);
    case 'object':
      return writeObject(schema, value, nest(depth, options), options);
    case 'either': {
      const branch = branchOf(schema, value);
      if (branch === undefined) throw wrong(describeBranches(schema), value);
      return write(branch, value, depth, options);
    }
    case 'union':
      return writeObject(variantFor(schema, value), value, nest(depth, options), options);
    case 'array': {
      if (!Array.isArray(value)) throw wrong('an array', value);
      const refusal = itemsRule(schema)?.(value.length);
      if (refusal !== undefined) throw refused(refusal);
      const inner = nest(depth, options);
      let out = '[';
      let i = 0;
      try {
        for (; i < value.length; i++) {
          if (i > 0) out += ',';
          out += write(schema.items, value[i], inner, options);
        }
      } catch (error) {
        throw prependPath(error, i);
      }
      return `${out}]`;
    }
    case 'map':
      return writeMap(schema.keys, schema.values, value, nest(depth, options), options);
    case 'optional':
      return value === undefined ? 'null' : write(schema.inner, value, depth, options);
    case 'nullable':
      return value === null ? 'null' : write(schema.inner, value, depth, options);
    case 'ref':
      return write(schema.resolve(), value, depth, options);
    case 'json': {
      // A declared Struct or ListValue holds an object or an array (JsonSchema.proto).
      const refusal = jsonRule(schema)?.(value);
      if (refusal !== undefined) throw refused(refusal);
      return jsonValueText(value, depth, options.maxDepth);
    }
  }
}

/** What JSON escapes: quotes, backslashes, control characters; surrogates for a lone one. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON escapes the control characters.
const needsEscape = /[\u0000-\u001f"\\\ud800-\udfff]/;

/**
 * A string as JSON text: JSON.stringify's, quoted by hand where it has nothing to escape, which is
 * most strings of most records (a regular-expression test and a concatenation cost about a third
 * less than the call, and the result is the same). A lone surrogate is refused, as every other
 * format refuses it: JSON could escape it, but the value would then be one that no other format
 * carries and `validate` reports (docs/values.md).
 * @internal exported for its tests.
 */
export function quote(text: string): string {
  if (!needsEscape.test(text)) return `"${text}"`;
  checkWellFormed(text);
  return JSON.stringify(text);
}

function writeObject(schema: ObjectSchema, value: unknown, depth: number, options: JsonWriteOptions): string {
  if (!isRecord(value)) throw wrong('an object', value);
  const record = value as Record<string, unknown>;
  if (schema.oneofs !== undefined) keepOneofs(schema, record);
  const keys = keysOf(schema);
  const { fields } = schema;
  let out = '{';
  let i = 0;
  try {
    for (; i < fields.length; i++) {
      const field = fields[i] as ObjectSchema['fields'][number];
      const fieldValue = fieldOf(record, field.name);
      if (fieldValue === undefined && field.schema.kind === 'optional') continue;
      if (out.length > 1) out += ',';
      out += keys[i];
      out += write(field.schema, fieldValue, depth, options);
    }
  } catch (error) {
    throw prependPath(error, (fields[i] as ObjectSchema['fields'][number]).name);
  }
  return `${out}}`;
}

function writeMap(
  keys: MapKeySchema,
  values: Schema,
  value: unknown,
  depth: number,
  options: JsonWriteOptions,
): string {
  let out = '{';
  if (keys.kind === 'string') {
    if (!isRecord(value)) throw wrong('an object', value);
    for (const key of Object.keys(value)) {
      if (out.length > 1) out += ',';
      const unreadable = unreadableKey(key);
      if (unreadable !== undefined) throw prependPath(unreadable, key);
      // The key is a value of the key schema: written, with its checks, as a string is.
      out += `${atPath(key, () => write(keys, key, depth, options))}:${atPath(key, () => write(values, value[key], depth, options))}`;
    }
  } else {
    if (!(value instanceof Map)) throw wrong('a Map', value);
    for (const [key, item] of value) {
      if (out.length > 1) out += ',';
      const name = String(key);
      // Each key checked as a value of its kind, as the reader reads it.
      atPath(name, () => write(keys, key, depth, options));
      out += `"${name}":${atPath(name, () => write(values, item, depth, options))}`;
    }
  }
  return `${out}}`;
}

export function variantFor(schema: UnionSchema, value: unknown): ObjectSchema {
  if (!isRecord(value)) throw wrong(`an object (a variant of ${schema.name})`, value);
  const tag = value[schema.tag];
  for (const variant of schema.variants) {
    for (const field of variant.fields) {
      if (field.name === schema.tag && field.schema.kind === 'literal' && field.schema.value === tag)
        return variant;
    }
  }
  throw prependPath(wrong(`a variant tag of ${schema.name}`, tag), schema.tag);
}

export function nest(depth: number, options: JsonWriteOptions): number {
  if (depth >= options.maxDepth) {
    throw new WirekitError(
      'WK_LIMIT_DEPTH',
      `the value nests deeper than maxDepth (${options.maxDepth}); is it cyclic?`,
      {
        path: [],
      },
    );
  }
  return depth + 1;
}

export function wrong(expected: string, got: unknown): WirekitError {
  return new WirekitError('WK_VALIDATION_FAILED', `expected ${expected}, got ${describeValue(got)}.`, {
    path: [],
  });
}
