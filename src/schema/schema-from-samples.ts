/**
 * Schema inference: the schema of one sample, from many plain JSON values (what JSON.parse returns),
 * choosing kinds that hold every sample exactly. Numbers get kinds with room to grow (int32, int64,
 * float64) unless the narrowest are asked for: samples show today's range, not next month's, and a
 * schema inferred as uint8 refuses the first 256. The rules are in docs/inference.md.
 *
 * It runs in two passes. Each value is described by a small mutable "shape" (which kinds were seen,
 * number ranges, field counts), and shapes are merged; only the final shape becomes t.* nodes. So a
 * thousand records cost one object schema, not a thousand, and the order of samples changes nothing
 * but the order in which fields and names first appear.
 */
import { formatPath, WirekitError } from '../errors/index.js';
import { parseIsoTime } from '../util/iso-time.js';
import * as t from './builders.js';
import { bigRange, type NumberStats, numberSchema } from './infer-numbers.js';
import { checkTypeName } from './names.js';
import type { Schema } from './types.js';

export interface InferOptions {
  /** The type name of the root object (default 'Root'); nested objects are named after their keys. */
  readonly name?: string;
  /**
   * 'wide' (the default) leaves room for data to grow: integers become int32, or int64 (as numbers)
   * beyond int32's range, and fractions float64. 'narrowest' picks the smallest kind that holds
   * every sample (uint8 for 0..200, float32 for 0.5), for data whose range is known not to grow.
   */
  readonly numbers?: 'wide' | 'narrowest';
  /** Infer `timestamp` for ISO-8601 date-time strings with a time zone (default true). */
  readonly timestamps?: boolean;
  /** How many arrays and objects may nest (default 64); deeper or cyclic input throws. */
  readonly maxDepth?: number;
  /**
   * The most distinct keys a place may have and still be an object (default 1,000): past it the
   * keys are data, not field names, and the place becomes `t.map(t.string(), …)`. A place whose
   * keys are all integers (`"17"`, `"42"`) is a map whatever their number.
   */
  readonly maxFields?: number;
}

interface Shape {
  nulls?: true;
  bools?: true;
  numbers?: NumberStats;
  strings?: StringStats;
  object?: ObjectShape;
  array?: ArrayShape;
}

interface StringStats {
  timestamps: boolean;
  /** No lone surrogates: UTF-8 cannot carry one, so a plain string kind could not hold the value. */
  wellFormed: boolean;
}

interface ObjectShape {
  /** How many objects were merged here; a field present fewer times is optional. */
  count: number;
  fields: Map<string, { present: number; shape: Shape }>;
  /**
   * Where a key that some kinds cannot hold was first seen: '' is no field name, and `constructor`
   * and `prototype` are refused as keys of json values (every decoder refuses them there). Whether
   * the samples can be described is known only once the place's kind is (see build).
   */
  keysAt?: Map<string, readonly (string | number)[]>;
}

/** Keys no json value holds: every wirekit decoder refuses them (WK_DECODE_UNSAFE_KEY). */
const jsonUnsafeKeys = new Set(['constructor', 'prototype']);

interface ArrayShape {
  /** Stays empty ({}) when every array was empty. */
  items: Shape;
}

interface DescribeContext {
  readonly timestamps: boolean;
  readonly maxDepth: number;
  /** Where the walk is, kept as one stack so that error messages cost nothing until thrown. */
  readonly path: (string | number)[];
}

const minSafe = BigInt(Number.MIN_SAFE_INTEGER);
const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);

/** Builds the schema of one sample from many JSON values. */
export function inferSchema(samples: readonly unknown[], options: InferOptions = {}): Schema {
  if (!Array.isArray(samples)) badOption('inferSchema: samples must be an array of sample values.');
  if (samples.length === 0) {
    throw new WirekitError('WK_INFER_NO_SAMPLES', 'inferSchema needs at least one sample to infer from.');
  }
  const { name = 'Root', numbers = 'wide', timestamps = true, maxDepth = 64, maxFields = 1_000 } = options;
  checkTypeName(name, 'inferSchema: name');
  if (numbers !== 'narrowest' && numbers !== 'wide') {
    badOption(`inferSchema: numbers must be 'wide' or 'narrowest', got ${JSON.stringify(numbers)}.`);
  }
  if (!Number.isSafeInteger(maxDepth) || maxDepth < 0) {
    badOption(`inferSchema: maxDepth must be a non-negative integer, got ${maxDepth}.`);
  }
  if (!(Number.isSafeInteger(maxFields) || maxFields === Number.POSITIVE_INFINITY) || maxFields < 0) {
    badOption(`inferSchema: maxFields must be a non-negative integer or Infinity, got ${maxFields}.`);
  }

  const context: DescribeContext = { timestamps: timestamps !== false, maxDepth, path: [] };
  const shape: Shape = {};
  samples.forEach((sample, index) => {
    context.path.push(index);
    merge(shape, describe(sample, 0, context));
    context.path.pop();
  });
  return build(shape, name, {
    wide: numbers === 'wide',
    maxFields,
    taken: new Set(),
    suffixes: new Map(),
  });
}

/** Options (and the samples argument itself) that inference cannot work with. */
function badOption(message: string): never {
  throw new WirekitError('WK_OPTIONS_INVALID', message);
}

/** Samples that no schema can describe. */
function invalid(message: string, path?: readonly (string | number)[]): never {
  throw new WirekitError('WK_SCHEMA_INVALID', message, path === undefined ? {} : { path: [...path] });
}

/** The shape of one value; `depth` counts the arrays and objects around it. */
function describe(value: unknown, depth: number, context: DescribeContext): Shape {
  switch (typeof value) {
    case 'boolean':
      return { bools: true };
    case 'number':
      if (!Number.isFinite(value)) break;
      return {
        numbers: {
          min: value,
          max: value,
          integers: Number.isInteger(value),
          float32: Math.fround(value) === value,
        },
      };
    case 'bigint':
      // An integer a reader kept exact past 2^53, where JSON.parse would have rounded it (the
      // bench's --data reader does). Within 2^53 JSON gives a number, so a bigint there is no JSON.
      if (value >= minSafe && value <= maxSafe) break;
      return {
        numbers: {
          min: Number(value),
          max: Number(value),
          integers: true,
          float32: false,
          big: { min: value, max: value },
        },
      };
    case 'string':
      return {
        strings: {
          timestamps: context.timestamps && isTimestamp(value),
          wellFormed: !loneSurrogate.test(value),
        },
      };
    case 'object': {
      if (value === null) return { nulls: true };
      const isArray = Array.isArray(value);
      const proto: unknown = isArray ? undefined : Object.getPrototypeOf(value);
      if (!isArray && proto !== Object.prototype && proto !== null) break;
      if (depth >= context.maxDepth) {
        invalid(
          `inferSchema: ${formatPath(context.path)} nests more than ${context.maxDepth} arrays and ` +
            'objects (or the value is cyclic); raise maxDepth if the data is really that deep.',
          context.path,
        );
      }
      return isArray
        ? describeArray(value, depth + 1, context)
        : describeObject(value as Record<string, unknown>, depth + 1, context);
    }
  }
  return invalid(
    `inferSchema: ${formatPath(context.path)} is ${describeValue(value)}, which is not a JSON value.`,
    context.path,
  );
}

function describeArray(value: readonly unknown[], depth: number, context: DescribeContext): Shape {
  const items: Shape = {};
  // An index loop, not for-of, so that holes read as undefined and are rejected.
  for (let i = 0; i < value.length; i++) {
    context.path.push(i);
    merge(items, describe(value[i], depth, context));
    context.path.pop();
  }
  return { array: { items } };
}

function describeObject(value: Record<string, unknown>, depth: number, context: DescribeContext): Shape {
  const fields: ObjectShape['fields'] = new Map();
  let keysAt: ObjectShape['keysAt'];
  for (const key of Object.keys(value)) {
    context.path.push(key);
    // No field can be named __proto__ (checkFieldName), and no decoder reads it as a key of a map
    // or a json value: whatever the schema, the sample could not be carried. Refused, not dropped.
    if (key === '__proto__') {
      invalid(
        `inferSchema: ${formatPath(context.path)}: a key __proto__ can be neither a field nor a key any wirekit decoder reads; remove it from the samples.`,
        context.path,
      );
    }
    if (key === '' || jsonUnsafeKeys.has(key)) {
      keysAt ??= new Map();
      keysAt.set(key, [...context.path]);
    }
    fields.set(key, { present: 1, shape: describe(value[key], depth, context) });
    context.path.pop();
  }
  return { object: keysAt === undefined ? { count: 1, fields } : { count: 1, fields, keysAt } };
}

function describeValue(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object' && value !== null)
    return `an object of class ${Object.prototype.toString.call(value).slice(8, -1)}`;
  return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}

/**
 * Merges `from` into `into`. `from` is fresh from describe() and is never used again, so its parts
 * are adopted rather than copied: the cost is the size of `from`, which keeps inference linear.
 */
function merge(into: Shape, from: Shape): void {
  if (from.nulls) into.nulls = true;
  if (from.bools) into.bools = true;
  if (from.numbers !== undefined) {
    const a = into.numbers;
    const b = from.numbers;
    if (a === undefined) into.numbers = b;
    else {
      a.min = Math.min(a.min, b.min);
      a.max = Math.max(a.max, b.max);
      a.integers &&= b.integers;
      a.float32 &&= b.float32;
      if (b.big !== undefined) a.big = a.big === undefined ? b.big : bigRange(a.big, b.big);
    }
  }
  if (from.strings !== undefined) {
    const a = into.strings;
    const b = from.strings;
    if (a === undefined) into.strings = b;
    else {
      a.timestamps &&= b.timestamps;
      a.wellFormed &&= b.wellFormed;
    }
  }
  if (from.object !== undefined) {
    const a = into.object;
    const b = from.object;
    if (a === undefined) into.object = b;
    else {
      a.count += b.count;
      if (b.keysAt !== undefined) {
        a.keysAt ??= new Map();
        for (const [key, path] of b.keysAt) if (!a.keysAt.has(key)) a.keysAt.set(key, path);
      }
      for (const [key, field] of b.fields) {
        const known = a.fields.get(key);
        if (known === undefined) a.fields.set(key, field);
        else {
          known.present += field.present;
          merge(known.shape, field.shape);
        }
      }
    }
  }
  if (from.array !== undefined) {
    if (into.array === undefined) into.array = from.array;
    else merge(into.array.items, from.array.items);
  }
}

// ISO-8601 / RFC 3339 with a mandatory zone. Fractions may have any number of digits, but only the
// first three may be non-zero: a Date holds milliseconds, and a timestamp must not round a sample.
const isoDateTime = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.\d{1,3}0*)?(?:Z|[+-](\d\d):(\d\d))$/;
const loneSurrogate = /\p{Cs}/u;

/** A date-time the JSON codec reads back as the same instant, and whose fraction a Date can hold. */
function isTimestamp(value: string): boolean {
  return isoDateTime.test(value) && parseIsoTime(value) !== undefined;
}

interface BuildContext {
  readonly wide: boolean;
  readonly maxFields: number;
  /** Type names handed out so far; later objects with the same name get a numeric suffix. */
  readonly taken: Set<string>;
  /** The next suffix to try for each hint. */
  readonly suffixes: Map<string, number>;
}

function build(shape: Shape, hint: string, context: BuildContext): Schema {
  const inner = buildInner(shape, hint, context);
  return shape.nulls ? t.nullable(inner) : inner;
}

function buildInner(shape: Shape, hint: string, context: BuildContext): Schema {
  const { bools, numbers, strings, object, array } = shape;
  const kinds = [bools, numbers, strings, object, array].filter((seen) => seen !== undefined).length;
  // Nothing seen (only nulls, or only empty arrays) or several kinds at once: any JSON value.
  if (kinds !== 1) return jsonOf(shape);
  if (bools) return t.bool();
  if (numbers !== undefined) return numberSchema(numbers, context.wide);
  if (strings !== undefined) {
    if (!strings.wellFormed) return t.json();
    return strings.timestamps ? t.timestamp({ precision: 'ms' }) : t.string();
  }
  if (array !== undefined) return t.array(build(array.items, `${hint}Item`, context));
  if (object === undefined) return t.json();
  if (isMap(object, context.maxFields)) return mapOf(object, hint, context);
  const empty = object.keysAt?.get('');
  if (empty !== undefined) {
    invalid(
      `inferSchema: ${formatPath(empty)}: an empty key can be no field name, so the schema would leave its values out; rename it in the samples.`,
      empty,
    );
  }
  // The parent takes its name before its children, so names follow first-seen order.
  const name = uniqueName(hint, context);
  const fields: Record<string, Schema> = {};
  for (const [key, field] of object.fields) {
    const schema = build(field.shape, typeName(key), context);
    fields[key] = field.present < object.count ? t.optional(schema) : schema;
  }
  return t.object(name, fields);
}

/** An integer as JSON writes one: no sign, no leading zero, no fraction (`"0"`, `"138586341"`). */
const integerKey = /^(?:0|[1-9][0-9]*)$/;

/**
 * Whether the keys at a place are data rather than field names: every key an integer (ids, as in
 * `{"138586341": {...}}`), or more distinct keys than any record would have. A record with
 * thousands of optional fields named after ids is what a user would otherwise get, and it grows
 * with every new id.
 */
function isMap(object: ObjectShape, maxFields: number): boolean {
  const keys = object.fields.size;
  if (keys === 0) return false;
  if (keys > maxFields) return true;
  for (const key of object.fields.keys()) if (!integerKey.test(key)) return false;
  return true;
}

/** `t.map(t.string(), values)`, the values inferred from every value under every key. */
function mapOf(object: ObjectShape, hint: string, context: BuildContext): Schema {
  for (const [key, path] of object.keysAt ?? []) {
    if (!jsonUnsafeKeys.has(key)) continue;
    invalid(
      `inferSchema: ${formatPath(path)}: the keys here are many, so the place becomes a map, and no map holds a key ${key} (every wirekit decoder refuses it); rename it in the samples.`,
      path,
    );
  }
  const values: Shape = {};
  // The field shapes are not used again, so merging adopts their parts as it does everywhere.
  for (const field of object.fields.values()) merge(values, field.shape);
  return t.map(t.string(), build(values, `${hint}Value`, context));
}

/**
 * `t.json()` for a place of mixed kinds, unless an object of the samples there (at any depth) holds
 * a key no json value may: the samples would then fail the schema inferred for them.
 */
function jsonOf(shape: Shape): Schema {
  const pending: Shape[] = [shape];
  while (pending.length > 0) {
    const { object, array } = pending.pop() as Shape;
    if (array !== undefined) pending.push(array.items);
    if (object === undefined) continue;
    for (const [key, path] of object.keysAt ?? []) {
      if (!jsonUnsafeKeys.has(key)) continue;
      invalid(
        `inferSchema: ${formatPath(path)}: the values here are of several kinds, so they become json, and no json value holds a key ${key} (every wirekit decoder refuses it); rename it in the samples.`,
        path,
      );
    }
    for (const field of object.fields.values()) pending.push(field.shape);
  }
  return t.json();
}

/** PascalCase of a JSON key, reduced to the identifier characters every format accepts. */
function typeName(key: string): string {
  const words = key.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  const name = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
  if (name === '') return 'Type';
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

function uniqueName(hint: string, context: BuildContext): string {
  let name = hint;
  if (context.taken.has(name)) {
    // Resuming from the last suffix keeps many same-named objects linear, not quadratic.
    let suffix = context.suffixes.get(hint) ?? 2;
    while (context.taken.has(`${hint}${suffix}`)) suffix++;
    context.suffixes.set(hint, suffix + 1);
    name = `${hint}${suffix}`;
  }
  context.taken.add(name);
  return name;
}
