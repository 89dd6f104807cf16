/**
 * Reading the `x-wirekit-*` annotations (export/json-schema-annotations.ts): each value is checked,
 * and a kind named by `x-wirekit-kind` must keep the verdicts of the node's own keywords, so a
 * document that says int64 beside a pattern of any text is refused rather than read as one that
 * validators and validate() would judge apart. An annotation where it means nothing is refused by
 * the reader of that node (refuseUnread), an unknown `x-wirekit-*` everywhere.
 */
import type { EnumOptions, FieldMeta, NamedOptions, ObjectOptions, SmallIntOptions } from '../builders.js';
import * as t from '../builders.js';
import { oneofsJsonSchema, plainJsonSchemaOf } from '../export/json-schema.js';
import type {
  AvroDecimalForm,
  AvroFixedForm,
  AvroLongForm,
  JsonValue,
  ObjectSchema,
  ProtoIntType,
  Schema,
  SmallIntKind,
  TimePrecision,
  TimestampRange,
} from '../types.js';
import {
  build,
  childPointer,
  importError,
  isAnnotation,
  isJsonObject,
  type JsonObject,
} from './json-document.js';

const smallIntKinds: readonly SmallIntKind[] = ['int8', 'int16', 'int32', 'uint8', 'uint16', 'uint32'];
const stringKinds = ['int64', 'uint64', 'float32', 'decimal', 'bytes'] as const;
const precisions: readonly TimePrecision[] = ['s', 'ms', 'us', 'ns'];

/** The kind a node names, or undefined when it names none. */
export function annotatedKind(node: JsonObject, pointer: string): string | undefined {
  const kind = node['x-wirekit-kind'];
  if (kind === undefined) return undefined;
  const known: readonly string[] = [...smallIntKinds, ...stringKinds];
  if (typeof kind !== 'string' || !known.includes(kind)) {
    throw importError(
      childPointer(pointer, 'x-wirekit-kind'),
      `x-wirekit-kind must be one of ${known.join(', ')} (the kinds JSON Schema reads as another), got ${JSON.stringify(kind)}.`,
    );
  }
  return kind;
}

export function isSmallIntKind(kind: string): kind is SmallIntKind {
  return (smallIntKinds as readonly string[]).includes(kind);
}

/** A small integer's declared Protocol Buffers type, for its builder (which checks it fits the kind). */
export function protoOf(node: JsonObject): SmallIntOptions<ProtoIntType> {
  const proto = node['x-wirekit-proto'];
  return proto === undefined ? {} : { proto: proto as ProtoIntType };
}

/**
 * A node that names int64 or uint64 (text or number), float32, decimal or bytes: the kind built from
 * its annotations, held to the node's keywords being exactly those the exporter writes for it.
 */
export function stringCarriedKind(node: JsonObject, kind: string, pointer: string): Schema {
  const at = (keyword: string) => childPointer(pointer, keyword);
  const schema = build(pointer, (): Schema => {
    switch (kind) {
      case 'int64':
      case 'uint64': {
        const as = node.type === 'integer' ? 'number' : 'bigint';
        const options = { as, ...protoOf(node) } as { as: 'bigint'; proto?: never };
        if (kind === 'uint64') return t.uint64(options);
        return t.int64({ ...options, ...avroOf<AvroLongForm>(node, pointer, 'string') });
      }
      case 'float32':
        return t.float32();
      case 'decimal':
        return t.decimal({
          precision: positive(node, 'x-wirekit-precision', pointer),
          scale: positive(node, 'x-wirekit-scale', pointer, 0),
          ...avroOf<AvroDecimalForm>(node, pointer, 'object', ['size']),
        });
      default:
        return t.bytes({
          maxLength: positive(node, 'x-wirekit-max-bytes', pointer, 0),
          size: positive(node, 'x-wirekit-size', pointer, 0),
          ...avroOf<AvroFixedForm>(node, pointer, 'object', ['logicalType']),
        });
    }
  });
  const readHere: Record<string, readonly string[]> = {
    int64: ['x-wirekit-proto', 'x-wirekit-avro'],
    uint64: ['x-wirekit-proto'],
    float32: [],
    decimal: ['x-wirekit-precision', 'x-wirekit-scale', 'x-wirekit-avro'],
    bytes: ['x-wirekit-max-bytes', 'x-wirekit-size', 'x-wirekit-avro'],
  };
  const keywords: Record<string, JsonValue> = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'x-wirekit-kind' || readHere[kind]?.includes(keyword)) continue;
    if (keyword.startsWith('x-wirekit-'))
      throw importError(at(keyword), `the annotation ${JSON.stringify(keyword)} is not read on a ${kind}.`);
    if (!isAnnotation(keyword)) keywords[keyword] = value;
  }
  const written = plainJsonSchemaOf(schema);
  const expected: JsonObject = written === true ? {} : written;
  const differ = [...new Set([...Object.keys(expected), ...Object.keys(keywords)])].filter(
    (keyword) => !sameJson(keywords[keyword], expected[keyword]),
  );
  if (differ.length > 0) {
    throw importError(
      pointer,
      `x-wirekit-kind ${JSON.stringify(kind)} is read only on the JSON Schema wirekit writes for it (toJsonSchema of that kind), so that validate() and JSON Schema validators judge every value alike; this node differs in ${differ.map((keyword) => JSON.stringify(keyword)).join(', ')}.`,
    );
  }
  return schema;
}

/**
 * `x-wirekit-avro`: the Avro form a kind declares (types.ts: a logical type's name on an int32, an
 * int64 or a string; the `fixed` of a sized bytes or a decimal, `{ name, namespace?, aliases? }`
 * with `logicalType` or `size`), for its builder, which checks the value as it checks the schema's.
 */
export function avroOf<F>(
  node: JsonObject,
  pointer: string,
  shape: 'string' | 'object',
  extra: readonly string[] = [],
): { avro?: F } {
  const form = node['x-wirekit-avro'];
  if (form === undefined) return {};
  const at = childPointer(pointer, 'x-wirekit-avro');
  if (shape === 'string') {
    if (typeof form !== 'string') throw importError(at, 'x-wirekit-avro here is an Avro logical type name.');
    return { avro: form as F };
  }
  const known = ['name', 'namespace', 'aliases', ...extra];
  if (!isJsonObject(form) || Object.keys(form).some((key) => !known.includes(key))) {
    throw importError(at, `x-wirekit-avro here is an Avro fixed: an object of ${known.join(', ')}.`);
  }
  return { avro: form as F };
}

/** A timestamp's range: `x-wirekit-range` beside format date-time (only '0001-9999', which the builder checks). */
export function timestampRange(node: JsonObject): { range?: TimestampRange } {
  const range = node['x-wirekit-range'];
  return range === undefined ? {} : { range: range as TimestampRange };
}

/**
 * `x-wirekit-proto` naming a well-known JSON message (`value`, `struct`, `list`): a json value, read
 * only where the node is what the exporter writes for it (any JSON, `type: object`, `type: array`),
 * so validators and validate() hold it to the same values.
 */
export function jsonProtoOf(node: JsonObject, pointer: string): Schema | undefined {
  const proto = node['x-wirekit-proto'];
  if (proto !== 'value' && proto !== 'struct' && proto !== 'list') return undefined;
  const schema = t.json({ proto });
  const written = plainJsonSchemaOf(schema);
  const { 'x-wirekit-proto': _proto, ...rest } = node;
  const keywords = Object.fromEntries(Object.entries(rest).filter(([keyword]) => !isAnnotation(keyword)));
  if (!sameJson(keywords, written === true ? {} : written)) {
    throw importError(
      pointer,
      `x-wirekit-proto ${JSON.stringify(proto)} is read only on ${JSON.stringify(written === true ? {} : written)} (a json value of that message), so that validate() and JSON Schema validators judge every value alike.`,
    );
  }
  return schema;
}

/** A timestamp's unit: `x-wirekit-precision` beside format date-time. */
export function timestampPrecision(node: JsonObject, pointer: string): TimePrecision | undefined {
  const precision = node['x-wirekit-precision'];
  if (precision === undefined) return undefined;
  if (!precisions.includes(precision as TimePrecision)) {
    throw importError(
      childPointer(pointer, 'x-wirekit-precision'),
      `a timestamp's x-wirekit-precision must be one of ${precisions.join(', ')}.`,
    );
  }
  return precision as TimePrecision;
}

/** `x-wirekit-packed`: false, the only value it has (packed is every list's default). */
export function packedOf(node: JsonObject, pointer: string): { packed?: false } {
  const packed = node['x-wirekit-packed'];
  if (packed === undefined) return {};
  if (packed !== false)
    throw importError(childPointer(pointer, 'x-wirekit-packed'), 'x-wirekit-packed can only be false.');
  return { packed };
}

/** The annotations an enum, an anyOf/oneOf and an object read (the last with `not` beside its oneofs). */
export const enumAnnotations = ['x-wirekit-aliases', 'x-wirekit-numbers'];
export const choiceAnnotations = ['x-wirekit-aliases', 'x-wirekit-proto'];
export function objectAnnotations(node: JsonObject): string[] {
  const groups = 'x-wirekit-oneofs' in node ? ['not'] : [];
  return ['x-wirekit-aliases', 'x-wirekit-reserved', 'x-wirekit-oneofs', ...groups];
}

/**
 * `x-wirekit-proto: "wrapper"` on a nullable (an anyOf of one type and null): its value written as
 * the well-known wrapper message.
 */
export function withWrapper(node: JsonObject, schema: Schema, pointer: string): Schema {
  const proto = node['x-wirekit-proto'];
  if (proto === undefined) return schema;
  const at = childPointer(pointer, 'x-wirekit-proto');
  if (proto !== 'wrapper') throw importError(at, 'on a nullable, x-wirekit-proto can only be "wrapper".');
  if (schema.kind !== 'nullable')
    throw importError(at, 'x-wirekit-proto "wrapper" is read only on a nullable.');
  return build(pointer, () => t.nullable(schema.inner, { proto }));
}

/** An enum's `.proto` numbers, for its builder (which checks them against the members). */
export function enumNumbers(node: JsonObject, pointer: string): Pick<EnumOptions, 'numbers'> {
  const numbers = integersOf(node, 'x-wirekit-numbers', pointer);
  return numbers === undefined ? {} : { numbers };
}

/** An object's reserved numbers and oneof groups. */
export function objectOptions(node: JsonObject, pointer: string): Pick<ObjectOptions, 'reserved' | 'oneofs'> {
  const reserved = integersOf(node, 'x-wirekit-reserved', pointer);
  const oneofs = oneofsOf(node, pointer);
  return { ...(reserved === undefined ? {} : { reserved }), ...(oneofs === undefined ? {} : { oneofs }) };
}

/** The keywords a property carries for its field rather than for its value. */
const fieldKeywords = ['x-wirekit-id', 'x-wirekit-aliases', 'x-wirekit-presence'] as const;

/** A property's field number, former names and presence, and the property without them. */
export function splitField(
  property: JsonObject,
  pointer: string,
): { meta: Pick<FieldMeta, 'id' | 'aliases' | 'presence'>; rest: JsonObject } {
  const rest: { [key: string]: JsonValue } = {};
  for (const [keyword, value] of Object.entries(property)) {
    if (!(fieldKeywords as readonly string[]).includes(keyword)) rest[keyword] = value;
  }
  const meta: { -readonly [K in 'id' | 'aliases' | 'presence']?: FieldMeta[K] } = {};
  const id = property['x-wirekit-id'];
  if (id !== undefined) {
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
      throw importError(childPointer(pointer, 'x-wirekit-id'), 'x-wirekit-id must be a positive integer.');
    }
    meta.id = id;
  }
  const aliases = namesOf(property, pointer);
  if (aliases !== undefined) meta.aliases = aliases;
  const presence = property['x-wirekit-presence'];
  if (presence !== undefined) {
    if (presence !== 'explicit') {
      throw importError(
        childPointer(pointer, 'x-wirekit-presence'),
        'x-wirekit-presence can only be "explicit".',
      );
    }
    meta.presence = presence;
  }
  return { meta, rest };
}

/** A named type's former names (`x-wirekit-aliases`), checked as the builder checks names. */
export function aliasesOf(node: JsonObject, pointer: string): Pick<NamedOptions, 'aliases'> {
  const aliases = namesOf(node, pointer);
  return aliases === undefined ? {} : { aliases };
}

function namesOf(node: JsonObject, pointer: string): string[] | undefined {
  const aliases = node['x-wirekit-aliases'];
  if (aliases === undefined) return undefined;
  if (!Array.isArray(aliases) || !aliases.every((alias) => typeof alias === 'string')) {
    throw importError(
      childPointer(pointer, 'x-wirekit-aliases'),
      'x-wirekit-aliases must be an array of names.',
    );
  }
  return aliases;
}

/** An integer list annotation (`x-wirekit-reserved`, `x-wirekit-numbers`), its values left to the builder. */
function integersOf(node: JsonObject, keyword: string, pointer: string): number[] | undefined {
  const values = node[keyword];
  if (values === undefined) return undefined;
  if (!Array.isArray(values) || !values.every((value) => Number.isSafeInteger(value))) {
    throw importError(childPointer(pointer, keyword), `${keyword} must be an array of integers.`);
  }
  return values as number[];
}

/** An object's oneof groups, `[{ name, fields }]`, as ObjectOptions.oneofs takes them. */
function oneofsOf(node: JsonObject, pointer: string): Record<string, string[]> | undefined {
  const groups = node['x-wirekit-oneofs'];
  if (groups === undefined) return undefined;
  const at = childPointer(pointer, 'x-wirekit-oneofs');
  const out: Record<string, string[]> = {};
  const fail = () => importError(at, 'x-wirekit-oneofs must be an array of { "name", "fields": [names] }.');
  if (!Array.isArray(groups)) throw fail();
  for (const group of groups) {
    if (typeof group !== 'object' || group === null || Array.isArray(group)) throw fail();
    const { name, fields, ...other } = group;
    if (typeof name !== 'string' || !Array.isArray(fields) || Object.keys(other).length > 0) throw fail();
    if (!fields.every((field) => typeof field === 'string') || Object.hasOwn(out, name)) throw fail();
    out[name] = fields as string[];
  }
  return out;
}

function positive(node: JsonObject, keyword: string, pointer: string, least = 1): number | undefined {
  const value = node[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < least) {
    throw importError(childPointer(pointer, keyword), `${keyword} must be an integer of at least ${least}.`);
  }
  return value;
}

/** Deep equality of JSON values, key order aside. */
export function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => sameJson(item, b[i]))
    );
  }
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]))
  );
}

/** Refuses the named types' annotations on a node that became no named type (an either, a map…). */
export function onlyOnNamed(
  node: JsonObject,
  named: boolean,
  pointer: string,
  keywords: readonly string[],
): void {
  if (named) return;
  for (const keyword of keywords) {
    if (keyword in node) {
      throw importError(
        childPointer(pointer, keyword),
        `the annotation ${JSON.stringify(keyword)} is read only on a node that becomes a named type (an enum, an object or a tagged union).`,
      );
    }
  }
}

/**
 * An object's `not` is read only as the exporter writes its oneof groups (no two members present),
 * and only beside `x-wirekit-oneofs`: alone, `not` could refuse anything.
 */
export function checkOneofsNot(node: JsonObject, built: ObjectSchema, pointer: string): void {
  if (!('x-wirekit-oneofs' in node)) return;
  // The exporter writes one `not` branch per pair of members, so a group of n members asks for
  // n(n-1)/2 of them: the document must already hold that many before they are built to compare.
  const pairs = (built.oneofs ?? []).reduce(
    (sum, group) => sum + (group.fields.length * (group.fields.length - 1)) / 2,
    0,
  );
  const given = isJsonObject(node.not) && Array.isArray(node.not.anyOf) ? node.not.anyOf.length : 0;
  const expected = pairs === given ? oneofsJsonSchema(built).not : undefined;
  if (!sameJson(node.not, expected)) {
    throw importError(
      childPointer(pointer, 'not'),
      `beside x-wirekit-oneofs, not must be what the exporter writes for its groups (no two members of a group present): an anyOf of ${pairs} { properties, required } pairs.`,
    );
  }
}
