/**
 * The JSON form of a schema (docs/schema-json.md): what the CLI reads and other languages can parse.
 * It is the node tree as JSON, with two changes: a named type is written in full where a depth-first
 * walk first meets it and as `{ "kind": "ref", "name": … }` after that (which is how recursion is
 * written), and field defaults are in the JSON form of values.
 */
import { WirekitError } from '../errors/index.js';
import * as t from './builders.js';
import { fromJsonValue, toJsonValue } from './json-value.js';
import type { FieldDef, JsonValue, NamedSchema, Schema, SmallIntKind } from './types.js';
import { fullName } from './walk.js';

export const schemaFormat = 'wirekit-schema';
export const schemaFormatVersion = 1;

export interface SchemaDocument {
  readonly format: typeof schemaFormat;
  readonly version: number;
  readonly root: JsonValue;
}

export function schemaToJson(schema: Schema): SchemaDocument {
  const written = new Map<string, NamedSchema>();
  const write = (node: Schema): JsonValue => {
    const target = node.kind === 'ref' ? node.resolve() : node;
    if (target.kind === 'object' || target.kind === 'enum' || target.kind === 'union') {
      const name = fullName(target);
      const known = written.get(name);
      if (known === target) return { kind: 'ref', name };
      if (known !== undefined) {
        throw new WirekitError('WK_SCHEMA_NAME_CONFLICT', `Two different types are named ${name}.`);
      }
      written.set(name, target);
    }
    switch (target.kind) {
      case 'object':
        return {
          ...plain(target, ['fields']),
          fields: target.fields.map((field) => writeField(field, write)),
        };
      case 'union':
        return { ...plain(target, ['variants']), variants: target.variants.map(write) };
      case 'either':
        return { kind: 'either', branches: target.branches.map(write) };
      case 'array':
        return { ...plain(target, ['items']), items: write(target.items) };
      case 'map':
        return { kind: 'map', keys: write(target.keys), values: write(target.values) };
      case 'optional':
        return { kind: target.kind, inner: write(target.inner) };
      case 'nullable':
        return {
          kind: target.kind,
          inner: write(target.inner),
          ...(target.proto === undefined ? {} : { proto: target.proto }),
        };
      default:
        return plain(target, []);
    }
  };
  return { format: schemaFormat, version: schemaFormatVersion, root: write(schema) };
}

function writeField(field: FieldDef, write: (node: Schema) => JsonValue): JsonValue {
  const out: Record<string, JsonValue> = {
    ...plain(field, ['schema', 'default']),
    schema: write(field.schema),
  };
  if (field.default !== undefined) out.default = toJsonValue(field.schema, field.default, [field.name]);
  return out;
}

/** The node's own JSON-safe properties, without the ones the caller writes itself. */
function plain(node: object, skip: readonly string[]): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!skip.includes(key) && value !== undefined) out[key] = value as JsonValue;
  }
  return out;
}

type JsonObject = Record<string, unknown>;

const plainKinds = {
  bool: t.bool,
} satisfies Record<string, () => Schema>;

/** The 32-bit and smaller integer kinds, whose options are their Protocol Buffers type and bounds. */
const smallInts = {
  int8: t.int8,
  int16: t.int16,
  int32: t.int32,
  uint8: t.uint8,
  uint16: t.uint16,
  uint32: t.uint32,
} satisfies Record<SmallIntKind, (options: { proto?: never; min?: number; max?: number }) => Schema>;

/**
 * How many nodes deep a schema document may nest: far beyond any real schema (a value that deep would
 * pass no codec's maxDepth), and shallow enough that the reader, the exporters and every codec walk
 * such a schema with the stack to spare. A document is often someone else's file: without a bound, a
 * few kilobytes of `{"kind":"array","items":` overflow the stack.
 * Exported for the CLI, which names it when a schema is deeper, and for the tests that nest a
 * document one level past it.
 */
export const maxSchemaJsonDepth = 256;

/** Builds a schema from its JSON form. Throws WK_SCHEMA_JSON_INVALID with the JSON path of a problem. */
export function schemaFromJson(document: unknown): Schema {
  const doc = asObject(document, '$');
  if (doc.format !== schemaFormat) fail('$.format', `must be "${schemaFormat}"`);
  if (doc.version !== schemaFormatVersion) {
    fail('$.version', `is ${JSON.stringify(doc.version)}; this wirekit reads version ${schemaFormatVersion}`);
  }
  const defined = new Map<string, NamedSchema>();
  const refs: { name: string; at: string }[] = [];
  const root = readNode(doc.root, '$.root', 1, defined, refs);
  for (const ref of refs) {
    if (!defined.has(ref.name)) {
      throw new WirekitError('WK_SCHEMA_UNRESOLVED_REF', `${ref.at}: no type named ${ref.name} is defined.`);
    }
  }
  return root;
}

function readNode(
  value: unknown,
  at: string,
  depth: number,
  defined: Map<string, NamedSchema>,
  refs: { name: string; at: string }[],
): Schema {
  if (depth > maxSchemaJsonDepth) fail(shortened(at), `nests deeper than ${maxSchemaJsonDepth} schema nodes`);
  const node = asObject(value, at);
  const read = (child: unknown, where: string): Schema =>
    readNode(child, `${at}.${where}`, depth + 1, defined, refs);
  const named = (): t.NamedOptions & { name: string } => ({
    name: asString(node.name, `${at}.name`),
    namespace: optionalString(node.namespace, `${at}.namespace`),
    doc: optionalString(node.doc, `${at}.doc`),
    aliases: optionalStrings(node.aliases, `${at}.aliases`),
  });
  const define = <S extends NamedSchema>(schema: S): S => {
    defined.set(fullName(schema), schema);
    return schema;
  };
  return withSchemaErrors(at, (): Schema => {
    // The kinds without options (bool) are one table.
    if (typeof node.kind === 'string' && Object.hasOwn(plainKinds, node.kind)) {
      return plainKinds[node.kind as keyof typeof plainKinds]();
    }
    switch (node.kind) {
      case 'float32':
      case 'float64':
        // The builder checks that the bounds are finite, ordered and, for float32, float32 values.
        return (node.kind === 'float32' ? t.float32 : t.float64)({
          min: optionalNumber(node.min, `${at}.min`),
          max: optionalNumber(node.max, `${at}.max`),
        });
      case 'json':
        return t.json({ proto: optionalString(node.proto, `${at}.proto`) as t.JsonOptions['proto'] });
      case 'int8':
      case 'int16':
      case 'int32':
      case 'uint8':
      case 'uint16':
      case 'uint32':
        // The builder checks that the declared Protocol Buffers type and the bounds fit the kind.
        return smallInts[node.kind]({
          proto: optionalString(node.proto, `${at}.proto`) as never,
          min: optionalNumber(node.min, `${at}.min`),
          max: optionalNumber(node.max, `${at}.max`),
          ...avroForm(node, at),
        });
      case 'int64':
      case 'uint64': {
        if (node.as !== 'number' && node.as !== 'bigint') fail(`${at}.as`, "must be 'bigint' or 'number'");
        const proto = optionalString(node.proto, `${at}.proto`) as never;
        return node.kind === 'int64'
          ? t.int64({ as: node.as, proto, ...avroForm(node, at) })
          : t.uint64({ as: node.as, proto, ...avroForm(node, at) });
      }
      case 'decimal':
        return t.decimal({
          precision: optionalNumber(node.precision, at),
          scale: optionalNumber(node.scale, at),
          ...avroForm(node, at),
        });
      case 'string':
        return t.string({
          minLength: optionalNumber(node.minLength, at),
          maxLength: optionalNumber(node.maxLength, at),
          pattern: optionalString(node.pattern, `${at}.pattern`),
          ...avroForm(node, at),
        });
      case 'bytes':
        return t.bytes({
          maxLength: optionalNumber(node.maxLength, at),
          size: optionalNumber(node.size, `${at}.size`),
          ...avroForm(node, at),
        });
      case 'timestamp':
        return t.timestamp({
          precision: node.precision as t.TimestampOptions['precision'],
          range: optionalString(node.range, `${at}.range`) as t.TimestampOptions['range'],
        });
      case 'literal':
        return t.literal(node.value as string);
      case 'enum': {
        const { name, ...options } = named();
        const numbers =
          node.numbers === undefined ? {} : { numbers: asNumbers(node.numbers, `${at}.numbers`) };
        return define(t.enum(name, asStrings(node.members, `${at}.members`), { ...options, ...numbers }));
      }
      case 'object': {
        const { name, ...options } = named();
        // No prototype: a field named `__proto__` must reach t.object, which refuses it, rather
        // than set this object's prototype and vanish.
        const fields: Record<string, t.Field> = Object.create(null);
        asArray(node.fields, `${at}.fields`).forEach((raw, i) => {
          const where = `${at}.fields[${i}]`;
          const f = asObject(raw, where);
          const fieldName = asString(f.name, `${where}.name`);
          if (Object.hasOwn(fields, fieldName)) fail(`${where}.name`, `repeats the field name ${fieldName}`);
          const schema = readNode(f.schema, `${where}.schema`, depth + 1, defined, refs);
          fields[fieldName] = t.field(schema, {
            id: optionalNumber(f.id, `${where}.id`),
            doc: optionalString(f.doc, `${where}.doc`),
            deprecated: f.deprecated === undefined ? undefined : f.deprecated === true,
            presence:
              f.presence === undefined
                ? undefined
                : (asString(f.presence, `${where}.presence`) as 'explicit'),
            aliases: optionalStrings(f.aliases, `${where}.aliases`),
            default: f.default === undefined ? undefined : readDefault(schema, f.default, `${where}.default`),
          });
        });
        const reserved = node.reserved === undefined ? undefined : asArray(node.reserved, `${at}.reserved`);
        const oneofs = node.oneofs === undefined ? undefined : readOneofs(node.oneofs, `${at}.oneofs`);
        return define(
          t.object(name, fields, { ...options, reserved: reserved as number[] | undefined, oneofs }),
        );
      }
      case 'union': {
        const { name, ...options } = named();
        const variants = asArray(node.variants, `${at}.variants`).map((v, i) => read(v, `variants[${i}]`));
        return define(t.union(name, asString(node.tag, `${at}.tag`), variants as never, options));
      }
      case 'either':
        return t.either(asArray(node.branches, `${at}.branches`).map((b, i) => read(b, `branches[${i}]`)));
      case 'array':
        return t.array(read(node.items, 'items'), {
          minItems: optionalNumber(node.minItems, at),
          maxItems: optionalNumber(node.maxItems, at),
          packed: node.packed === undefined ? undefined : (node.packed as boolean),
        });
      case 'map':
        return t.map(read(node.keys, 'keys') as never, read(node.values, 'values'));
      case 'optional':
        return t.optional(read(node.inner, 'inner'));
      case 'nullable':
        return t.nullable(
          read(node.inner, 'inner'),
          node.proto === undefined ? {} : { proto: asString(node.proto, `${at}.proto`) as 'wrapper' },
        );
      case 'ref': {
        const name = asString(node.name, `${at}.name`);
        const known = defined.get(name);
        if (known !== undefined) return known;
        // Not defined yet: an enclosing type (recursion) or one written later in the document.
        refs.push({ name, at });
        return t.lazy(() => defined.get(name) as never);
      }
      default:
        return fail(`${at}.kind`, `is ${JSON.stringify(node.kind)}, not a wirekit kind`);
    }
  });
}

function readDefault(schema: Schema, json: unknown, at: string): unknown {
  return withSchemaErrors(at, () => fromJsonValue(schema, json));
}

/** Builder errors get the JSON path prepended, so a bad document points at its bad part. */
function withSchemaErrors<T>(at: string, body: () => T): T {
  try {
    return body();
  } catch (error) {
    if (error instanceof WirekitError && !error.message.startsWith('$')) {
      const code = error.code === 'WK_JSON_VALUE_INVALID' ? 'WK_SCHEMA_JSON_INVALID' : error.code;
      throw new WirekitError(code, `${shortened(at)}: ${error.message}`, { cause: error });
    }
    throw error;
  }
}

/**
 * A node's declared Avro form (types.ts, AvroIntForm…AvroDecimalForm), as the builder takes it:
 * the builder checks that it is one its kind may declare.
 */
function avroForm(node: JsonObject, at: string): { avro?: never } {
  if (node.avro === undefined) return {};
  if (typeof node.avro === 'string') return { avro: node.avro as never };
  const form = asObject(node.avro, `${at}.avro`);
  return {
    avro: {
      ...form,
      aliases: optionalStrings(form.aliases, `${at}.avro.aliases`),
    } as never,
  };
}

/** A JSON path cut to its start and end: the path of a node 256 deep is kilobytes of `.items`. */
function shortened(at: string): string {
  return at.length <= 120 ? at : `${at.slice(0, 60)}…${at.slice(-50)}`;
}

function fail(at: string, problem: string): never {
  throw new WirekitError('WK_SCHEMA_JSON_INVALID', `${at} ${problem}.`);
}

function asObject(value: unknown, at: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(at, 'must be an object');
  return value as JsonObject;
}

function asArray(value: unknown, at: string): unknown[] {
  if (!Array.isArray(value)) fail(at, 'must be an array');
  return value;
}

function asString(value: unknown, at: string): string {
  if (typeof value !== 'string') fail(at, 'must be a string');
  return value;
}

function asStrings(value: unknown, at: string): string[] {
  return asArray(value, at).map((item, i) => asString(item, `${at}[${i}]`));
}

function asNumbers(value: unknown, at: string): number[] {
  return asArray(value, at).map((item, i) => {
    if (typeof item !== 'number') fail(`${at}[${i}]`, 'must be a number');
    return item;
  });
}

function optionalString(value: unknown, at: string): string | undefined {
  return value === undefined ? undefined : asString(value, at);
}

function optionalStrings(value: unknown, at: string): string[] | undefined {
  return value === undefined ? undefined : asStrings(value, at);
}

function optionalNumber(value: unknown, at: string): number | undefined {
  if (value !== undefined && typeof value !== 'number') fail(at, 'holds a limit that must be a number');
  return value;
}

/** `oneofs` as the JSON form writes it (`[{ name, fields }]`, the schema's own shape), as t.object takes it. */
function readOneofs(value: unknown, at: string): Record<string, string[]> {
  const out: Record<string, string[]> = Object.create(null);
  asArray(value, at).forEach((raw, i) => {
    const group = asObject(raw, `${at}[${i}]`);
    const name = asString(group.name, `${at}[${i}].name`);
    if (Object.hasOwn(out, name)) fail(`${at}[${i}].name`, `repeats the oneof name ${name}`);
    out[name] = asStrings(group.fields, `${at}[${i}].fields`);
  });
  return out;
}
