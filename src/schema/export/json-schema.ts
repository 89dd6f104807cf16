/**
 * A JSON Schema (2020-12) of the JSON form of a schema's values (src/schema/json-value.ts): what
 * `toJsonValue` writes. Named types go to `$defs`, so recursion is a plain `$ref`.
 */
import { intRange, isSmallInt, largeIntRange } from '../int-ranges.js';
import { toJsonValue } from '../json-value.js';
import type {
  DecimalSchema,
  FieldDef,
  JsonValue,
  MapSchema,
  NamedSchema,
  ObjectSchema,
  Schema,
} from '../types.js';
import { fullName, namedTypes } from '../walk.js';
import { fieldAnnotations, namedAnnotations, nodeAnnotations } from './json-schema-annotations.js';

export interface JsonSchemaExportOptions {
  /**
   * How int64 and uint64 fields with `as: 'bigint'` appear: 'string' (the default, as the JSON form
   * writes them) or 'number', for consumers that read big integers as numbers. Fields declared with
   * `as: 'number'` are numbers either way.
   */
  readonly int64?: 'string' | 'number';
  /**
   * Write the `x-wirekit-*` annotations (json-schema-annotations.ts) that carry what JSON Schema
   * cannot say, so that `schemaFromJsonSchema` gives back this very schema. Off by default: Ajv's
   * strict mode refuses to compile keywords it was not told of (`ajv.addVocabulary(
   * wirekitJsonSchemaKeywords)` tells it), and a document for OpenAPI or another language's tools
   * reads better without them.
   */
  readonly annotations?: boolean;
}

/** How the document is written, passed down the walk. */
interface Writing {
  readonly int64AsNumber: boolean;
  readonly annotations: boolean;
}

type JsonObject = { [key: string]: JsonValue };

export const jsonSchemaDialect = 'https://json-schema.org/draft/2020-12/schema';

const integerText = '^-?(0|[1-9][0-9]*)$';
const base64Text = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';
const nonFinite = ['NaN', 'Infinity', '-Infinity'];

/** Base64 text of exactly `size` bytes: whole groups of four, then the padded group of the rest. */
function base64OfSize(size: number): string {
  const groups = Math.floor(size / 3);
  const tail = ['', '[A-Za-z0-9+/]{2}==', '[A-Za-z0-9+/]{3}='][size % 3];
  return `^(?:[A-Za-z0-9+/]{4}){${groups}}${tail}$`;
}

export function toJsonSchema(schema: Schema, options: JsonSchemaExportOptions = {}): JsonValue {
  const writing: Writing = {
    int64AsNumber: options.int64 === 'number',
    annotations: options.annotations === true,
  };
  const defs: JsonObject = {};
  for (const [name, type] of namedTypes(schema)) defs[name] = namedDef(type, writing);
  const body = typeOf(schema, writing);
  const root: JsonObject = { $schema: jsonSchemaDialect };
  // `true` (any JSON) adds no keywords: a root with only $schema accepts everything too.
  if (body !== true) Object.assign(root, body);
  if (Object.keys(defs).length > 0) root.$defs = defs;
  return root;
}

/**
 * The JSON Schema of a value of `schema` without annotations: what the importer holds a node that
 * names its kind in `x-wirekit-kind` to, so that the kind keeps every verdict of the node's keywords.
 */
export function plainJsonSchemaOf(schema: Schema): JsonObject | true {
  return typeOf(schema, { int64AsNumber: false, annotations: false });
}

function typeOf(schema: Schema, writing: Writing): JsonObject | true {
  const body = bareTypeOf(schema, writing);
  if (!writing.annotations) return body;
  const notes = nodeAnnotations(schema);
  // Any JSON (`true`) with an annotation is the annotation alone, which accepts any JSON too.
  if (body === true) return Object.keys(notes).length === 0 ? true : notes;
  return { ...body, ...notes };
}

function bareTypeOf(schema: Schema, writing: Writing): JsonObject | true {
  const { int64AsNumber } = writing;
  if (isSmallInt(schema)) {
    const [minimum, maximum] = intRange(schema);
    return { type: 'integer', minimum, maximum };
  }
  switch (schema.kind) {
    case 'bool':
      return { type: 'boolean' };
    case 'int64':
    case 'uint64': {
      const unsigned = schema.kind === 'uint64';
      if (schema.as === 'number') {
        return {
          type: 'integer',
          minimum: unsigned ? 0 : -Number.MAX_SAFE_INTEGER,
          maximum: Number.MAX_SAFE_INTEGER,
        };
      }
      if (int64AsNumber) {
        // Doubles cannot hold 2^63 - 1 or 2^64 - 1 exactly: these bounds are the nearest doubles.
        const [min, max] = largeIntRange[schema.kind];
        return { type: 'integer', minimum: Number(min), maximum: Number(max) };
      }
      return { type: 'string', pattern: largeIntPattern(schema.kind) };
    }
    case 'float32':
    case 'float64': {
      if (schema.min === undefined && schema.max === undefined) {
        return { anyOf: [{ type: 'number' }, { enum: nonFinite }] };
      }
      // Bounds refuse NaN; an infinity on an unbounded side is still a value, spelled as JSON text.
      const number = compact({ type: 'number', minimum: schema.min, maximum: schema.max });
      const infinities = [
        ...(schema.max === undefined ? ['Infinity'] : []),
        ...(schema.min === undefined ? ['-Infinity'] : []),
      ];
      return infinities.length === 0 ? number : { anyOf: [number, { enum: infinities }] };
    }
    case 'decimal':
      return { type: 'string', pattern: decimalPattern(schema) };
    case 'string':
      return compact({
        type: 'string',
        minLength: schema.minLength,
        maxLength: schema.maxLength,
        pattern: schema.pattern,
      });
    case 'bytes':
      return compact({
        type: 'string',
        contentEncoding: 'base64',
        pattern: schema.size === undefined ? base64Text : base64OfSize(schema.size),
        maxLength: schema.maxLength === undefined ? undefined : Math.ceil(schema.maxLength / 3) * 4,
      });
    case 'timestamp':
      return { type: 'string', format: 'date-time' };
    case 'literal':
      return { const: schema.value };
    case 'array':
      return compact({
        type: 'array',
        items: typeOf(schema.items, writing),
        minItems: schema.minItems,
        maxItems: schema.maxItems,
      });
    case 'map':
      return {
        type: 'object',
        ...keyConstraint(schema.keys, writing),
        additionalProperties: typeOf(schema.values, writing),
      };
    case 'optional':
    case 'nullable':
      // Outside an object field, an absent value has no key to leave out, so it is written as null.
      return { anyOf: [typeOf(schema.inner, writing), { type: 'null' }] };
    case 'json':
      // A Struct holds only objects and a ListValue only arrays (validate()'s rule too).
      if (schema.proto === 'struct') return { type: 'object' };
      if (schema.proto === 'list') return { type: 'array' };
      return true;
    case 'either':
      // The branches are disjoint (either.ts), so anyOf and oneOf accept the same values; anyOf
      // lets a validator stop at the first branch that matches.
      return { anyOf: schema.branches.map((branch) => typeOf(branch, writing)) };
    case 'ref':
      return { $ref: refTo(schema.resolve()) };
    case 'object':
    case 'enum':
    case 'union':
      return { $ref: refTo(schema) };
  }
}

function namedDef(type: NamedSchema, writing: Writing): JsonObject {
  const head = {
    ...compact({ title: type.name, description: type.doc }),
    ...(writing.annotations ? namedAnnotations(type) : {}),
  };
  switch (type.kind) {
    case 'enum':
      return { ...head, enum: [...type.members] };
    case 'union':
      // Each variant's tag is a const, so exactly one variant matches any valid value.
      return { ...head, oneOf: type.variants.map((variant) => ({ $ref: refTo(variant) })) };
    case 'object':
      return { ...head, ...objectBody(type, writing) };
  }
}

function objectBody(type: ObjectSchema, writing: Writing): JsonObject {
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const field of type.fields) {
    properties[field.name] = property(field, writing);
    if (field.schema.kind !== 'optional') required.push(field.name);
  }
  return { type: 'object', properties, required, additionalProperties: false, ...oneofsJsonSchema(type) };
}

/**
 * An object's oneof groups (schema/oneofs.ts) as JSON Schema: no two members of a group present,
 * written as `not` of every pair's `required`, which draft-07 and 2020-12 validators read alike.
 * A member's key holding null counts as present, as it does for validate() (a null member is
 * refused by its own type anyway, unless it is nullable, and then null is its value).
 */
export function oneofsJsonSchema(type: ObjectSchema): JsonObject {
  const pairs: JsonObject[] = [];
  for (const group of type.oneofs ?? []) {
    group.fields.forEach((first, i) => {
      // The pair's own `properties` (any value) keep strict validators (ajv's strictRequired) content.
      for (const second of group.fields.slice(i + 1)) {
        pairs.push({ properties: { [first]: true, [second]: true }, required: [first, second] });
      }
    });
  }
  return pairs.length === 0 ? {} : { not: { anyOf: pairs } };
}

function property(field: FieldDef, writing: Writing): JsonObject {
  // An optional field is one whose key may be missing; when present it holds the inner value.
  const schema = field.schema.kind === 'optional' ? field.schema.inner : field.schema;
  const body = typeOf(schema, writing);
  return compact({
    ...(body === true ? {} : body),
    ...(writing.annotations ? fieldAnnotations(field) : {}),
    description: field.doc,
    deprecated: field.deprecated ? true : undefined,
    default: field.default === undefined ? undefined : toJsonValue(field.schema, field.default),
  });
}

function keyConstraint(keys: MapSchema['keys'], writing: Writing): JsonObject {
  if (keys.kind === 'string') {
    const names = compact({ minLength: keys.minLength, maxLength: keys.maxLength, pattern: keys.pattern });
    return Object.keys(names).length === 0 ? {} : { propertyNames: { type: 'string', ...names } };
  }
  const unsigned = keys.kind.startsWith('u');
  const names = { type: 'string', pattern: unsigned ? '^(0|[1-9][0-9]*)$' : integerText };
  return { propertyNames: writing.annotations ? { ...names, ...nodeAnnotations(keys) } : names };
}

/**
 * The text of every int64 (or uint64) in range, and of nothing else: "-0" and the digits of each
 * integer from the least to the greatest, as the JSON form reads them (json-value.ts). A digit
 * count alone would let a validator take 9999999999999999999, which no int64 holds.
 */
function largeIntPattern(kind: 'int64' | 'uint64'): string {
  const [min, max] = largeIntRange[kind];
  const negative = min < 0n ? `|-(?:${upTo((-min).toString())})` : '';
  return `^(?:-?0|${upTo(max.toString())}${negative})$`;
}

/** A pattern of the positive integers up to `limit` (its decimal digits), without leading zeros. */
function upTo(limit: string): string {
  const shorter = limit.length > 1 ? [`[1-9][0-9]{0,${limit.length - 2}}`] : [];
  const same: string[] = [];
  for (let i = 0; i < limit.length; i++) {
    const least = i === 0 ? 1 : 0;
    const below = Number(limit[i]) - 1;
    if (below < least) continue;
    const rest = limit.length - i - 1;
    const digit = below === least ? `${least}` : `[${least}-${below}]`;
    const tail = rest === 0 ? '' : rest === 1 ? '[0-9]' : `[0-9]{${rest}}`;
    same.push(`${limit.slice(0, i)}${digit}${tail}`);
  }
  return [...shorter, ...same, limit].join('|');
}

/** Plain notation, with the integer and fraction digit limits that precision and scale impose. */
function decimalPattern({ precision, scale }: DecimalSchema): string {
  const integerDigits = precision === undefined ? undefined : precision - (scale ?? 0);
  const integer =
    integerDigits === undefined
      ? '(0|[1-9][0-9]*)'
      : integerDigits === 0
        ? '0'
        : `(0|[1-9][0-9]{0,${integerDigits - 1}})`;
  const fraction = scale === undefined ? '(\\.[0-9]+)?' : scale === 0 ? '' : `(\\.[0-9]{1,${scale}})?`;
  return `^-?${integer}${fraction}$`;
}

function refTo(type: NamedSchema): string {
  return `#/$defs/${fullName(type)}`;
}

function compact(value: { [key: string]: JsonValue | undefined }): JsonObject {
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = item;
  return out;
}
