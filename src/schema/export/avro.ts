/**
 * The Avro schema (JSON) of a wirekit schema. docs/mapping/avro.md is the contract: the Avro codec
 * writes exactly the layout described there, so the two change together.
 */

import { WirekitError } from '../../errors/index.js';
import { describeBranches } from '../either.js';
import { isIdentifier } from '../names.js';
import type {
  AvroFixedName,
  DecimalSchema,
  EitherSchema,
  EnumSchema,
  FieldDef,
  JsonValue,
  NamedSchema,
  ObjectSchema,
  Schema,
  UnionSchema,
} from '../types.js';
import { namedTypes } from '../walk.js';
import { avroDefault, nullFirstFor } from './avro-default.js';

/** An Avro schema as JSON: a type name, a union (array) or a complex type (object). */
export type AvroSchemaJson = string | AvroSchemaJson[] | { [key: string]: JsonValue };

export interface AvroExportOptions {
  /**
   * The namespace of every named type that has none of its own, and of the root wrapper. Without
   * it, such types take the root type's namespace, as Avro itself would for names nested in it.
   */
  readonly namespace?: string;
  /** The name of the wrapper record around a root that is not an object or union (default 'Root'). */
  readonly rootName?: string;
}

interface Context {
  /** The namespace of types that declare none. */
  readonly namespace: string | undefined;
  readonly defined: Set<NamedSchema>;
  /** Avro full names in use, so that generated entry records never take a user's name. */
  readonly taken: Set<string>;
  /** Each fixed written so far, by full name: its definition, so a second use refers to it by name. */
  readonly fixed: Map<string, string>;
}

/**
 * Where a type is written: the enclosing namespace (Avro resolves bare names against it) and a
 * name prefix for generated records, made of the enclosing record and field.
 */
interface Scope {
  readonly namespace: string | undefined;
  readonly owner: string;
}

const refuse = (message: string): never => {
  throw new WirekitError('WK_EXPORT_UNSUPPORTED', message, { format: 'avro' });
};

export function toAvro(schema: Schema, options: AvroExportOptions = {}): AvroSchemaJson {
  if (options.namespace !== undefined && !options.namespace.split('.').every(isIdentifier)) {
    refuse(`namespace ${JSON.stringify(options.namespace)} is not a dotted list of Avro names.`);
  }
  const root = schema.kind === 'ref' ? schema.resolve() : schema;
  const rootNamespace = root.kind === 'object' || root.kind === 'union' ? root.namespace : undefined;
  const ctx: Context = {
    namespace: options.namespace ?? rootNamespace,
    defined: new Set(),
    taken: new Set(),
    fixed: new Map(),
  };
  const owners = new Map<string, NamedSchema>();
  for (const type of namedTypes(schema).values()) {
    const name = avroFullName(type, ctx);
    const other = owners.get(name);
    if (other !== undefined && other !== type) {
      refuse(`${other.name} and ${type.name} would both be named ${name}; give one a namespace of its own.`);
    }
    owners.set(name, type);
    ctx.taken.add(name);
  }
  const top: Scope = { namespace: undefined, owner: '' };
  if (root.kind === 'object' || root.kind === 'union') return typeOf(root, ctx, top);

  const rootName = options.rootName ?? 'Root';
  if (!isIdentifier(rootName)) refuse(`rootName ${JSON.stringify(rootName)} is not an Avro name.`);
  const wrapperName = qualify(options.namespace, rootName);
  if (ctx.taken.has(wrapperName))
    refuse(`the root wrapper ${wrapperName} would clash with a type of that name; pass another rootName.`);
  ctx.taken.add(wrapperName);
  const inner: Scope = { namespace: options.namespace, owner: rootName };
  const valueField: FieldDef = { name: 'value', id: 1, schema };
  const fields = schema.kind === 'literal' ? [] : [fieldOf(valueField, ctx, inner)];
  return compact({ type: 'record', name: rootName, namespace: options.namespace, fields });
}

/**
 * The name of the Avro type toAvro writes for `schema`: a primitive's name, or fixed, record, enum,
 * array, map or union. This switch is the one home of the kind → Avro type mapping: typeOf builds
 * each type on it, and the Avro codec's resolver orders an either's branches by it
 * (decode/resolve-either.ts).
 */
export function avroTypeName(schema: Schema): string {
  switch (schema.kind) {
    case 'bool':
      return 'boolean';
    case 'int8':
    case 'int16':
    case 'int32':
    case 'uint8':
    case 'uint16':
      return 'int';
    case 'uint32':
    case 'int64':
    case 'uint64':
    case 'timestamp':
      return 'long';
    case 'float32':
      return 'float';
    case 'float64':
      return 'double';
    case 'decimal':
      if (!isAvroDecimal(schema)) return 'string';
      return schema.avro === undefined ? 'bytes' : 'fixed';
    case 'string':
    case 'json':
      return 'string';
    case 'bytes':
      return schema.size === undefined ? 'bytes' : 'fixed';
    case 'literal':
      // Only reached where a literal is not a plain field (array item, map value, optional field).
      return typeof schema.value === 'string'
        ? 'string'
        : typeof schema.value === 'boolean'
          ? 'boolean'
          : 'double';
    case 'array':
      return 'array';
    case 'map':
      // Avro map keys are strings only; other keys become an array of entry records.
      return schema.keys.kind === 'string' ? 'map' : 'array';
    case 'optional':
    case 'nullable':
    case 'either':
    case 'union':
      return 'union';
    case 'ref':
      return avroTypeName(schema.resolve());
    case 'object':
      return 'record';
    case 'enum':
      return 'enum';
  }
}

/** A decimal with both precision and scale is Avro's decimal logical type; any other is a string. */
function isAvroDecimal(
  schema: DecimalSchema,
): schema is DecimalSchema & { precision: number; scale: number } {
  return schema.precision !== undefined && schema.scale !== undefined;
}

function typeOf(schema: Schema, ctx: Context, scope: Scope): AvroSchemaJson {
  const name = avroTypeName(schema);
  switch (schema.kind) {
    case 'int32':
    case 'int64':
      // A declared logical type (schema/avro-forms.ts) goes back out as the .avsc wrote it.
      return schema.avro === undefined ? name : { type: name, logicalType: schema.avro };
    case 'string':
      return schema.avro === undefined ? name : { type: name, logicalType: schema.avro };
    case 'decimal': {
      if (!isAvroDecimal(schema)) return name;
      const decimal = { logicalType: 'decimal', precision: schema.precision, scale: schema.scale };
      if (schema.avro === undefined) return { type: name, ...decimal };
      return fixedOf(schema.avro, { size: schema.avro.size, ...decimal }, ctx, scope);
    }
    case 'bytes': {
      if (schema.size === undefined) return name;
      const fixedName = schema.avro ?? {
        name: generatedName(`${scope.owner}_Fixed`, ctx, scope),
        namespace: scope.namespace,
      };
      const logicalType = schema.avro?.logicalType;
      return fixedOf(fixedName, compact({ size: schema.size, logicalType }), ctx, scope);
    }
    case 'timestamp':
      return { type: name, logicalType: timestampLogicalType[schema.precision] };
    case 'array':
      return { type: name, items: typeOf(schema.items, ctx, scope) };
    case 'map':
      return name === 'map'
        ? { type: name, values: typeOf(schema.values, ctx, scope) }
        : { type: name, items: entryRecord(schema.keys, schema.values, ctx, scope) };
    case 'optional':
    case 'nullable':
      return withNull(typeOf(schema.inner, ctx, scope), true);
    case 'ref':
      return typeOf(schema.resolve(), ctx, scope);
    case 'either':
      return eitherOf(schema, ctx, scope);
    case 'union':
      return unionOf(schema, ctx, scope);
    case 'object':
    case 'enum':
      return ctx.defined.has(schema) ? reference(schema, ctx, scope) : define(schema, ctx, scope);
    default:
      // A primitive: its name is the whole type.
      return name;
  }
}

const timestampLogicalType = {
  s: 'timestamp-millis',
  ms: 'timestamp-millis',
  us: 'timestamp-micros',
  ns: 'timestamp-nanos',
} as const;

/** Avro forbids a union directly inside a union, so a nullable union gains "null" as one more branch. */
function withNull(type: AvroSchemaJson, nullFirst: boolean): AvroSchemaJson {
  // optional(nullable(x)) has one null, not two: Avro forbids repeating a branch type.
  const branches = (Array.isArray(type) ? type : [type]).filter((branch) => branch !== 'null');
  return nullFirst ? ['null', ...branches] : [...branches, 'null'];
}

/**
 * An either is an Avro union of its branches in order. A branch that is a tagged union adds its
 * records in its place (Avro forbids a union inside a union), so branch indexes on the wire count
 * them one by one.
 */
function eitherOf(schema: EitherSchema, ctx: Context, scope: Scope): AvroSchemaJson[] {
  const types = schema.branches.flatMap((branch) => {
    const type = typeOf(branch, ctx, scope);
    return Array.isArray(type) ? type : [type];
  });
  // Branches of two classes can still be one Avro type (a timestamp and an int64 are both longs,
  // an integer-keyed map and an array both arrays), which no Avro union may hold twice.
  const seen = new Set<string>();
  for (const type of types) {
    const key = unionKey(type);
    if (seen.has(key)) {
      refuse(
        `t.either([${describeBranches(schema)}]) has two branches of the Avro type ${key}, which a union may hold once.`,
      );
    }
    seen.add(key);
  }
  return types;
}

/** What an Avro union branch counts as for "one branch per type": its name, or its type. */
function unionKey(type: AvroSchemaJson): string {
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return 'union';
  return typeof type.name === 'string' ? type.name : String(type.type);
}

function unionOf(schema: UnionSchema, ctx: Context, scope: Scope): AvroSchemaJson[] {
  return schema.variants.map((variant) => typeOf(variant, ctx, scope));
}

function define(type: ObjectSchema | EnumSchema, ctx: Context, scope: Scope): AvroSchemaJson {
  ctx.defined.add(type);
  const namespace = type.namespace ?? ctx.namespace;
  const head = {
    type: type.kind === 'object' ? 'record' : 'enum',
    name: type.name,
    // Written only where it differs from the enclosing one; "" restores the null namespace inside a
    // namespaced record, where a bare name would inherit the record's.
    namespace: namespace === scope.namespace ? undefined : (namespace ?? ''),
    doc: type.doc,
    aliases: type.aliases === undefined ? undefined : [...type.aliases],
  };
  if (type.kind === 'enum') {
    for (const symbol of type.members) {
      if (!isIdentifier(symbol)) {
        refuse(
          `enum ${type.name}: member ${JSON.stringify(symbol)} is not an Avro symbol ([A-Za-z_][A-Za-z0-9_]*).`,
        );
      }
    }
    return compact({ ...head, symbols: [...type.members] });
  }
  const inner = (field: string): Scope => ({ namespace, owner: `${type.name}_${field}` });
  const fields = type.fields
    .filter((field) => field.schema.kind !== 'literal')
    .map((field) => fieldOf(field, ctx, inner(field.name), type.name));
  return compact({ ...head, fields });
}

function reference(type: Pick<NamedSchema, 'name' | 'namespace'>, ctx: Context, scope: Scope): string {
  const namespace = type.namespace ?? ctx.namespace;
  if (namespace === undefined && scope.namespace !== undefined) {
    // Avro resolves a bare name against the enclosing namespace and has no spelling for "the null
    // namespace" in a reference, so such a type cannot be named here.
    refuse(
      `${type.name} has no namespace but is used again inside namespace ${scope.namespace}; ` +
        'give it a namespace or pass the namespace option.',
    );
  }
  // A bare "int" is the primitive even inside namespace ns, so ns.int is referred to by its full name.
  const bare = namespace === scope.namespace && !avroPrimitiveNames.has(type.name);
  return bare ? type.name : qualify(namespace, type.name);
}

const avroPrimitiveNames: ReadonlySet<string> = new Set([
  'null',
  'boolean',
  'int',
  'long',
  'float',
  'double',
  'bytes',
  'string',
]);

function fieldOf(
  field: FieldDef,
  ctx: Context,
  scope: Scope,
  record = 'the root',
): { [key: string]: JsonValue } {
  if (!isIdentifier(field.name))
    refuse(`${record}: field name ${JSON.stringify(field.name)} is not an Avro name.`);
  for (const alias of field.aliases ?? []) {
    if (!isIdentifier(alias))
      refuse(`${record}.${field.name}: alias ${JSON.stringify(alias)} is not an Avro name.`);
  }
  const nullFirst = nullFirstFor(field);
  const { schema } = field;
  const type =
    schema.kind === 'optional' || schema.kind === 'nullable'
      ? withNull(typeOf(schema.inner, ctx, scope), nullFirst)
      : typeOf(schema, ctx, scope);
  let value: JsonValue | undefined;
  if (field.default !== undefined)
    value = avroDefault(schema, field.default, nullFirst, `${record}.${field.name}`);
  else if (schema.kind === 'optional') value = null;
  const doc = field.deprecated ? `${field.doc === undefined ? '' : `${field.doc} `}(Deprecated.)` : field.doc;
  return compact({
    name: field.name,
    type,
    doc,
    aliases: field.aliases === undefined ? undefined : [...field.aliases],
    default: value,
    deprecated: field.deprecated ? true : undefined,
  });
}

/**
 * A `fixed` type: defined where first met, referred to by its full name after that. Two sized
 * values that name one fixed must agree on everything the fixed declares (a reader could not tell
 * them apart), and a fixed may not take the name of a record or enum.
 */
function fixedOf(
  name: AvroFixedName,
  attributes: { [key: string]: JsonValue | undefined },
  ctx: Context,
  scope: Scope,
): AvroSchemaJson {
  const namespace = name.namespace ?? ctx.namespace;
  const full = qualify(namespace, name.name);
  const definition = JSON.stringify(attributes);
  const known = ctx.fixed.get(full);
  if (known !== undefined) {
    if (known !== definition)
      refuse(`two fixed types are named ${full}, with ${known} and ${definition}; give one another name.`);
    return reference({ name: name.name, namespace }, ctx, scope);
  }
  if (ctx.taken.has(full)) refuse(`the fixed ${full} would take the name of another type; rename one.`);
  ctx.taken.add(full);
  ctx.fixed.set(full, definition);
  return compact({
    type: 'fixed',
    name: name.name,
    namespace: namespace === scope.namespace ? undefined : (namespace ?? ''),
    aliases: name.aliases === undefined ? undefined : [...name.aliases],
    ...attributes,
  });
}

/** A name for a generated type, in the enclosing namespace, made unique against every other. */
function generatedName(base: string, ctx: Context, scope: Scope): string {
  const stem = base.replace(/^_/, '');
  let name = stem;
  for (let n = 2; ctx.taken.has(qualify(scope.namespace, name)); n++) name = `${stem}${n}`;
  return name;
}

/**
 * Avro map keys are strings only, so an integer-keyed map becomes an array of {key, value} records.
 * The record is named after the field that holds it, made unique against every other name.
 */
function entryRecord(keys: Schema, values: Schema, ctx: Context, scope: Scope): AvroSchemaJson {
  const base = `${scope.owner}_Entry`.replace(/^_/, '');
  let name = base;
  for (let n = 2; ctx.taken.has(qualify(scope.namespace, name)); n++) name = `${base}${n}`;
  ctx.taken.add(qualify(scope.namespace, name));
  const inner: Scope = { namespace: scope.namespace, owner: `${name}_value` };
  return {
    type: 'record',
    name,
    fields: [
      { name: 'key', type: typeOf(keys, ctx, inner) },
      { name: 'value', type: typeOf(values, ctx, inner) },
    ],
  };
}

function avroFullName(type: NamedSchema, ctx: Context): string {
  return qualify(type.namespace ?? ctx.namespace, type.name);
}

function qualify(namespace: string | undefined, name: string): string {
  return namespace === undefined || namespace === '' ? name : `${namespace}.${name}`;
}

function compact(value: { [key: string]: JsonValue | undefined }): { [key: string]: JsonValue } {
  const out: { [key: string]: JsonValue } = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = item;
  return out;
}
