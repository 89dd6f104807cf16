/**
 * The `x-wirekit-*` annotations: the facts of a wirekit schema that JSON Schema has no keyword for,
 * but that change the bytes or the values of some format (an int16's width, an int64 held as a
 * bigint, a decimal's scale, a timestamp's unit and range, field numbers, declared Protocol Buffers
 * types and well-known JSON messages, Avro logical types and fixed names…).
 * `toJsonSchema(schema, { annotations: true })` writes them and `schemaFromJsonSchema` reads them
 * back, so that export and import give back the schema itself. By the specification a keyword a
 * validator does not know is an annotation and changes no verdict; Ajv's strict mode refuses to
 * compile one it was not told of, hence the list below (docs/mapping/json-schema.md).
 */
import { isSmallInt } from '../int-ranges.js';
import type { AvroDecimalForm, AvroFixedForm, FieldDef, JsonValue, NamedSchema, Schema } from '../types.js';

/** Every annotation wirekit writes and reads, for `ajv.addVocabulary(wirekitJsonSchemaKeywords)`. */
export const wirekitJsonSchemaKeywords = [
  'x-wirekit-kind',
  'x-wirekit-proto',
  'x-wirekit-precision',
  'x-wirekit-scale',
  'x-wirekit-max-bytes',
  'x-wirekit-size',
  'x-wirekit-packed',
  'x-wirekit-id',
  'x-wirekit-aliases',
  'x-wirekit-presence',
  'x-wirekit-reserved',
  'x-wirekit-oneofs',
  'x-wirekit-numbers',
  'x-wirekit-range',
  'x-wirekit-avro',
] as const;

export type WirekitKeyword = (typeof wirekitJsonSchemaKeywords)[number];

type Annotations = { [K in WirekitKeyword]?: JsonValue };

/**
 * What a value's node says beside its JSON Schema: the kind wherever JSON Schema would read
 * another (every integer kind, the 64-bit ones as text or number, float32, decimal and bytes,
 * which are strings or numbers to it), and each kind's facts.
 */
export function nodeAnnotations(schema: Schema): Annotations {
  if (isSmallInt(schema)) {
    return defined({
      'x-wirekit-kind': schema.kind,
      'x-wirekit-proto': schema.proto,
      'x-wirekit-avro': schema.kind === 'int32' ? schema.avro : undefined,
    });
  }
  switch (schema.kind) {
    case 'int64':
      return defined({
        'x-wirekit-kind': 'int64',
        'x-wirekit-proto': schema.proto,
        'x-wirekit-avro': schema.avro,
      });
    case 'uint64':
      return defined({ 'x-wirekit-kind': 'uint64', 'x-wirekit-proto': schema.proto });
    case 'float32':
      return { 'x-wirekit-kind': 'float32' };
    case 'decimal':
      return defined({
        'x-wirekit-kind': 'decimal',
        'x-wirekit-precision': schema.precision,
        'x-wirekit-scale': schema.scale,
        'x-wirekit-avro': avroName(schema.avro),
      });
    case 'string':
      return defined({ 'x-wirekit-avro': schema.avro });
    case 'bytes':
      return defined({
        'x-wirekit-kind': 'bytes',
        'x-wirekit-max-bytes': schema.maxLength,
        'x-wirekit-size': schema.size,
        'x-wirekit-avro': avroName(schema.avro),
      });
    case 'timestamp':
      return defined({ 'x-wirekit-precision': schema.precision, 'x-wirekit-range': schema.range });
    case 'json':
      return defined({ 'x-wirekit-proto': schema.proto });
    case 'array':
      return defined({ 'x-wirekit-packed': schema.packed });
    case 'nullable':
      return defined({ 'x-wirekit-proto': schema.proto });
    default:
      return {};
  }
}

/** A field's number, former names and declared presence, written on its property. */
export function fieldAnnotations(field: FieldDef): Annotations {
  return defined({
    'x-wirekit-id': field.id,
    'x-wirekit-aliases': field.aliases === undefined ? undefined : [...field.aliases],
    'x-wirekit-presence': field.presence,
  });
}

/** A named type's former names, an enum's `.proto` numbers, an object's reserved numbers and oneofs. */
export function namedAnnotations(type: NamedSchema): Annotations {
  const aliases = type.aliases === undefined ? undefined : [...type.aliases];
  switch (type.kind) {
    case 'enum':
      return defined({
        'x-wirekit-aliases': aliases,
        'x-wirekit-numbers': type.numbers === undefined ? undefined : [...type.numbers],
      });
    case 'object':
      return defined({
        'x-wirekit-aliases': aliases,
        'x-wirekit-reserved': type.reserved === undefined ? undefined : [...type.reserved],
        'x-wirekit-oneofs':
          type.oneofs === undefined
            ? undefined
            : type.oneofs.map((group) => ({ name: group.name, fields: [...group.fields] })),
      });
    case 'union':
      return defined({ 'x-wirekit-aliases': aliases });
  }
}

/** The Avro `fixed` a decimal or a sized bytes is written as (AvroFixedForm, AvroDecimalForm), as JSON. */
function avroName(form: AvroFixedForm | AvroDecimalForm | undefined): JsonValue | undefined {
  if (form === undefined) return undefined;
  const { aliases, ...rest } = form as AvroFixedForm & { size?: number };
  return { ...rest, ...(aliases === undefined ? {} : { aliases: [...aliases] }) };
}

function defined(value: { [K in WirekitKeyword]?: JsonValue | undefined }): Annotations {
  const out: Annotations = {};
  for (const [key, item] of Object.entries(value) as [WirekitKeyword, JsonValue | undefined][]) {
    if (item !== undefined) out[key] = item;
  }
  return out;
}
