/**
 * The two verdicts the importer promises are equal: a real JSON Schema validator's (Ajv with
 * ajv-formats, as fastify sets it up) and `validate()`'s on the same value. A JSON value is itself
 * the value of every kind but one: a timestamp's value is the Date its RFC 3339 text names. (The
 * JSON codec reads more leniently than this: numbers for int64 strings, null for an absent optional
 * field; docs/mapping/json-schema.md.)
 */

import { Ajv as AjvDraft07 } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { isWirekitError } from '../../../src/errors/index.js';
import { fromJsonValue, type JsonValue, type Schema, validate } from '../../../src/schema/index.js';

// ajv-formats is CommonJS: under NodeNext its default import is the module object around the plugin.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export type JsonValidator = (value: JsonValue) => boolean;

/** Ajv for the document's dialect: draft-07 where `$schema` says so, else 2020-12. */
export function ajvFor(document: JsonValue): JsonValidator {
  const draft07 =
    typeof document === 'object' &&
    document !== null &&
    !Array.isArray(document) &&
    typeof document.$schema === 'string' &&
    document.$schema.includes('draft-07');
  // strict: false, because x- annotations are keywords Ajv would otherwise refuse to compile.
  const ajv = draft07 ? new AjvDraft07({ strict: false }) : new Ajv2020({ strict: false });
  addFormats(ajv);
  const check = ajv.compile(document as object);
  return (value) => check(value) === true;
}

export interface Reading {
  /** Read "NaN", "Infinity" and "-Infinity" as those numbers where a float is expected (the JSON form). */
  readonly floatSpellings?: boolean;
}

/** The value a JSON value stands for under `schema`: itself, but for timestamps (and float spellings). */
function standsFor(schema: Schema, json: unknown, reading: Reading = {}): unknown {
  switch (schema.kind) {
    case 'timestamp':
      return readLeaf(schema, json);
    case 'int64':
    case 'uint64':
      // A bigint's JSON form is its digits (x-wirekit-kind int64); a number stays one, which a
      // bigint kind refuses as JSON Schema's type string does.
      return schema.as === 'bigint' && typeof json === 'string' ? readLeaf(schema, json) : json;
    case 'float32':
    case 'float64':
      return reading.floatSpellings ? readLeaf(schema, json) : json;
    case 'nullable':
    case 'optional':
      return json === null || json === undefined ? json : standsFor(schema.inner, json, reading);
    case 'ref':
      return standsFor(schema.resolve(), json, reading);
    case 'array':
      return Array.isArray(json) ? json.map((item) => standsFor(schema.items, item, reading)) : json;
    case 'map':
      return isObject(json) ? mapValues(json, (item) => standsFor(schema.values, item, reading)) : json;
    case 'object':
      return isObject(json) ? objectValue(schema.fields, json, reading) : json;
    case 'union': {
      const tag = isObject(json) ? json[schema.tag] : undefined;
      const variant = schema.variants.find((candidate) =>
        candidate.fields.some(
          (f) => f.name === schema.tag && f.schema.kind === 'literal' && f.schema.value === tag,
        ),
      );
      return variant === undefined || !isObject(json) ? json : objectValue(variant.fields, json, reading);
    }
    default:
      return json;
  }
}

/** A leaf read by the JSON form; text it refuses stays as it is, for validate() to refuse. */
function readLeaf(schema: Schema, json: unknown): unknown {
  try {
    return fromJsonValue(schema, json);
  } catch (error) {
    if (isWirekitError(error)) return json;
    throw error;
  }
}

function isObject(json: unknown): json is Record<string, unknown> {
  return typeof json === 'object' && json !== null && !Array.isArray(json);
}

function mapValues(json: Record<string, unknown>, read: (item: unknown) => unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(json).map(([key, item]) => [key, read(item)]));
}

function objectValue(
  fields: readonly { name: string; schema: Schema }[],
  json: Record<string, unknown>,
  reading: Reading,
): Record<string, unknown> {
  const out = { ...json };
  for (const field of fields) {
    if (Object.hasOwn(json, field.name)) out[field.name] = standsFor(field.schema, json[field.name], reading);
  }
  return out;
}

/** wirekit's verdict on a JSON value: validate() finds nothing wrong with the value it stands for. */
export function wirekitAccepts(schema: Schema, value: JsonValue, reading: Reading = {}): boolean {
  return validate(schema, standsFor(schema, value, reading)).length === 0;
}

/** The values on which the two verdicts differ, each with Ajv's verdict. */
export function disagreements(
  document: JsonValue,
  schema: Schema,
  values: readonly JsonValue[],
  reading: Reading = {},
): { value: JsonValue; ajv: boolean }[] {
  const ajv = ajvFor(document);
  return values
    .filter((value) => ajv(value) !== wirekitAccepts(schema, value, reading))
    .map((value) => ({ value, ajv: ajv(value) }));
}
