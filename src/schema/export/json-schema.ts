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

export interface JsonSchemaExportOptions {
  /**
   * How int64 and uint64 fields with `as: 'bigint'` appear: 'string' (the default, as the JSON form
   * writes them) or 'number', for consumers that read big integers as numbers. Fields declared with
   * `as: 'number'` are numbers either way.
   */
  readonly int64?: 'string' | 'number';
}

type JsonObject = { [key: string]: JsonValue };

export const jsonSchemaDialect = 'https://json-schema.org/draft/2020-12/schema';

const integerText = '^-?(0|[1-9][0-9]*)$';
const base64Text = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';
const nonFinite = ['NaN', 'Infinity', '-Infinity'];

export function toJsonSchema(schema: Schema, options: JsonSchemaExportOptions = {}): JsonValue {
  const int64AsNumber = options.int64 === 'number';
  const defs: JsonObject = {};
  for (const [name, type] of namedTypes(schema)) defs[name] = namedDef(type, int64AsNumber);
  const body = typeOf(schema, int64AsNumber);
  const root: JsonObject = { $schema: jsonSchemaDialect };
  // `true` (any JSON) adds no keywords: a root with only $schema accepts everything too.
  if (body !== true) Object.assign(root, body);
  if (Object.keys(defs).length > 0) root.$defs = defs;
  return root;
}

function typeOf(schema: Schema, int64AsNumber: boolean): JsonObject | true {
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
      // The digit count bounds the range; the exact limits are beyond a pattern's reach.
      return { type: 'string', pattern: unsigned ? '^(0|[1-9][0-9]{0,19})$' : '^-?(0|[1-9][0-9]{0,18})$' };
    }
    case 'float32':
    case 'float64':
      return { anyOf: [{ type: 'number' }, { enum: nonFinite }] };
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
        pattern: base64Text,
        maxLength: schema.maxLength === undefined ? undefined : Math.ceil(schema.maxLength / 3) * 4,
      });
    case 'timestamp':
      return { type: 'string', format: 'date-time' };
    case 'literal':
      return { const: schema.value };
    case 'array':
      return compact({
        type: 'array',
        items: typeOf(schema.items, int64AsNumber),
        minItems: schema.minItems,
        maxItems: schema.maxItems,
      });
    case 'map':
      return {
        type: 'object',
        ...keyConstraint(schema.keys),
        additionalProperties: typeOf(schema.values, int64AsNumber),
      };
    case 'optional':
    case 'nullable':
      // Outside an object field, an absent value has no key to leave out, so it is written as null.
      return { anyOf: [typeOf(schema.inner, int64AsNumber), { type: 'null' }] };
    case 'json':
      return true;
    case 'either':
      // The branches are disjoint (either.ts), so anyOf and oneOf accept the same values; anyOf
      // lets a validator stop at the first branch that matches.
      return { anyOf: schema.branches.map((branch) => typeOf(branch, int64AsNumber)) };
    case 'ref':
      return { $ref: refTo(schema.resolve()) };
    case 'object':
    case 'enum':
    case 'union':
      return { $ref: refTo(schema) };
  }
}

function namedDef(type: NamedSchema, int64AsNumber: boolean): JsonObject {
  const head = compact({ title: type.name, description: type.doc });
  switch (type.kind) {
    case 'enum':
      return { ...head, enum: [...type.members] };
    case 'union':
      // Each variant's tag is a const, so exactly one variant matches any valid value.
      return { ...head, oneOf: type.variants.map((variant) => ({ $ref: refTo(variant) })) };
    case 'object':
      return { ...head, ...objectBody(type, int64AsNumber) };
  }
}

function objectBody(type: ObjectSchema, int64AsNumber: boolean): JsonObject {
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const field of type.fields) {
    properties[field.name] = property(field, int64AsNumber);
    if (field.schema.kind !== 'optional') required.push(field.name);
  }
  return { type: 'object', properties, required, additionalProperties: false, ...atMostOne(type) };
}

/**
 * An object's oneof groups (schema/oneofs.ts) as JSON Schema: no two members of a group present,
 * written as `not` of every pair's `required`, which draft-07 and 2020-12 validators read alike.
 * A member's key holding null counts as present, as it does for validate() (a null member is
 * refused by its own type anyway, unless it is nullable, and then null is its value).
 */
function atMostOne(type: ObjectSchema): JsonObject {
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

function property(field: FieldDef, int64AsNumber: boolean): JsonObject {
  // An optional field is one whose key may be missing; when present it holds the inner value.
  const schema = field.schema.kind === 'optional' ? field.schema.inner : field.schema;
  const body = typeOf(schema, int64AsNumber);
  return compact({
    ...(body === true ? {} : body),
    description: field.doc,
    deprecated: field.deprecated ? true : undefined,
    default: field.default === undefined ? undefined : toJsonValue(field.schema, field.default),
  });
}

function keyConstraint(keys: MapSchema['keys']): JsonObject {
  if (keys.kind === 'string') {
    const names = compact({ minLength: keys.minLength, maxLength: keys.maxLength, pattern: keys.pattern });
    return Object.keys(names).length === 0 ? {} : { propertyNames: { type: 'string', ...names } };
  }
  const unsigned = keys.kind.startsWith('u');
  return { propertyNames: { type: 'string', pattern: unsigned ? '^(0|[1-9][0-9]*)$' : integerText } };
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
