/**
 * The Apache Arrow schema of a wirekit schema. Arrow types are finite trees without names, so named
 * types are expanded where used and what the tree cannot say (type names, docs, enum members,
 * collapsed kinds) rides in field metadata under `wirekit.*` keys. docs/mapping/arrow.md lists them.
 */

import {
  Schema as ArrowSchema,
  Binary,
  Bool,
  type DataType,
  Decimal,
  DenseUnion,
  Dictionary,
  Field,
  Float32,
  Float64,
  List,
  Map_,
  Struct,
  Timestamp,
  Utf8,
} from 'apache-arrow';
import { WirekitError } from '../../errors/index.js';
import type {
  EitherSchema,
  EnumSchema,
  FieldDef,
  NamedSchema,
  ObjectSchema,
  Schema,
  UnionSchema,
} from '../types.js';
import { fullName } from '../walk.js';
import { arrowIntType, arrowTimeUnits } from './arrow-types.js';

export { arrowSchemaToJson } from './arrow-json.js';

/** The metadata keys this exporter writes; values are strings, JSON where noted. */
export const arrowMetadataKeys = {
  /** Full name of the object, enum or union the field holds. */
  type: 'wirekit.type',
  /** Doc of that named type. */
  typeDoc: 'wirekit.type_doc',
  /** Doc of the object field. */
  doc: 'wirekit.doc',
  /** 'true' on deprecated fields. */
  deprecated: 'wirekit.deprecated',
  /** JSON array of enum members; dictionary index i is member i. */
  enumMembers: 'wirekit.enum_members',
  /** Name of the union's tag field; each child is named by its variant's tag value. */
  unionTag: 'wirekit.union_tag',
  /**
   * The wirekit kind where the Arrow type alone hides it: 'json' or 'decimal' on Utf8 fields,
   * 'either' on the dense union of an untagged union (a union without `wirekit.union_tag`).
   */
  kind: 'wirekit.kind',
  /** JSON of a literal's value, on the fields that still store one (see the mapping doc). */
  literal: 'wirekit.literal',
} as const;

type Meta = [string, string][];

interface Context {
  /** Dictionary ids are numbered per export, so that the same schema always gives the same ids. */
  nextDictionaryId: number;
  /** Named types being expanded: meeting one again inside itself means recursion. */
  readonly expanding: NamedSchema[];
}

const refuse = (message: string): never => {
  throw new WirekitError('WK_EXPORT_UNSUPPORTED', message, { format: 'arrow' });
};

export function toArrowSchema(schema: Schema): ArrowSchema {
  const ctx: Context = { nextDictionaryId: 0, expanding: [] };
  const root = schema.kind === 'ref' ? schema.resolve() : schema;
  if (root.kind !== 'object') return new ArrowSchema([fieldOf('value', schema, ctx, [])]);
  const fields = expand(root, ctx, () => structFields(root, ctx));
  return new ArrowSchema(fields, new Map(namedMeta(root)));
}

function structFields(object: ObjectSchema, ctx: Context): Field[] {
  // A plain literal field holds no information: every value has the same one.
  return object.fields
    .filter((field) => field.schema.kind !== 'literal')
    .map((field) => objectField(field, ctx));
}

function objectField(field: FieldDef, ctx: Context): Field {
  const meta: Meta = [];
  if (field.doc !== undefined) meta.push([arrowMetadataKeys.doc, field.doc]);
  if (field.deprecated) meta.push([arrowMetadataKeys.deprecated, 'true']);
  return fieldOf(field.name, field.schema, ctx, meta);
}

function fieldOf(name: string, schema: Schema, ctx: Context, meta: Meta): Field {
  const nullable = schema.kind === 'optional' || schema.kind === 'nullable';
  const inner = schema.kind === 'optional' || schema.kind === 'nullable' ? schema.inner : schema;
  const type = typeOf(inner, ctx, meta, nullable);
  return new Field(name, type, nullable, meta.length === 0 ? null : new Map(meta));
}

/** The Arrow type of `schema`; pushes the field metadata it needs onto `meta`. */
function typeOf(schema: Schema, ctx: Context, meta: Meta, nullable: boolean): DataType {
  switch (schema.kind) {
    case 'bool':
      return new Bool();
    case 'int8':
      return arrowIntType(8, true);
    case 'int16':
      return arrowIntType(16, true);
    case 'int32':
      return arrowIntType(32, true);
    case 'uint8':
      return arrowIntType(8, false);
    case 'uint16':
      return arrowIntType(16, false);
    case 'uint32':
      return arrowIntType(32, false);
    case 'int64':
      return arrowIntType(64, true);
    case 'uint64':
      return arrowIntType(64, false);
    case 'float32':
      return new Float32();
    case 'float64':
      return new Float64();
    case 'decimal': {
      const { precision, scale } = schema;
      if (precision !== undefined && scale !== undefined && precision <= 76) {
        return new Decimal(scale, precision, precision <= 38 ? 128 : 256);
      }
      meta.push([arrowMetadataKeys.kind, 'decimal']);
      return new Utf8();
    }
    case 'string':
      return new Utf8();
    case 'json':
      meta.push([arrowMetadataKeys.kind, 'json']);
      return new Utf8();
    case 'bytes':
      return new Binary();
    case 'timestamp':
      return new Timestamp(arrowTimeUnits[schema.precision], 'UTC');
    case 'literal':
      // Reached only where a literal cannot simply be left out (list item, map value, optional field).
      meta.push([arrowMetadataKeys.literal, JSON.stringify(schema.value)]);
      return typeof schema.value === 'string'
        ? new Utf8()
        : typeof schema.value === 'boolean'
          ? new Bool()
          : new Float64();
    case 'enum':
      return enumType(schema, ctx, meta);
    case 'object':
      meta.push(...namedMeta(schema));
      return expand(schema, ctx, () => new Struct(structFields(schema, ctx)));
    case 'either':
      meta.push([arrowMetadataKeys.kind, 'either']);
      return eitherType(schema, ctx, nullable);
    case 'union':
      meta.push(...namedMeta(schema), [arrowMetadataKeys.unionTag, schema.tag]);
      return expand(schema, ctx, () => unionType(schema, ctx, nullable));
    case 'array':
      return new List(fieldOf('item', schema.items, ctx, []));
    case 'map': {
      const key = new Field('key', typeOf(schema.keys, ctx, [], false), false);
      const entries = new Struct([key, fieldOf('value', schema.values, ctx, [])]);
      return new Map_(new Field('entries', entries, false), false);
    }
    case 'optional':
    case 'nullable':
      // Only as a list item or map value inside another wrapper position; fieldOf unwraps fields.
      return typeOf(schema.inner, ctx, meta, true);
    case 'ref':
      return typeOf(schema.resolve(), ctx, meta, nullable);
  }
}

function enumType(schema: EnumSchema, ctx: Context, meta: Meta): DataType {
  meta.push(...namedMeta(schema), [arrowMetadataKeys.enumMembers, JSON.stringify(schema.members)]);
  const count = schema.members.length;
  // Signed indices, as the Arrow format recommends, of the narrowest width that counts every member.
  const indices = arrowIntType(count <= 128 ? 8 : count <= 32_768 ? 16 : 32, true);
  return new Dictionary(new Utf8(), indices, ctx.nextDictionaryId++, false);
}

/**
 * A dense union of one struct per variant, type id = variant position. Unions have no validity
 * bitmap in Arrow, so a nullable union makes its children nullable: a null is a null child entry.
 */
function unionType(schema: UnionSchema, ctx: Context, nullable: boolean): DataType {
  const children = schema.variants.map((variant) => {
    const tag = variant.fields.find((field) => field.name === schema.tag)?.schema;
    const name = tag?.kind === 'literal' ? String(tag.value) : variant.name;
    const meta = namedMeta(variant);
    return new Field(
      name,
      expand(variant, ctx, () => new Struct(structFields(variant, ctx))),
      nullable,
      new Map(meta),
    );
  });
  return new DenseUnion(
    schema.variants.map((_, i) => i),
    children,
  );
}

/**
 * The dense union of an untagged union: child i is branch i, type id i. A null travels as a null
 * entry of child 0 (Arrow unions have no validity bitmap), so a nullable either makes its children
 * nullable, as a nullable tagged union does.
 */
function eitherType(schema: EitherSchema, ctx: Context, nullable: boolean): DataType {
  // Type ids are signed bytes, and the format allows ids 0..127.
  if (schema.branches.length > 128) {
    refuse(`an either of ${schema.branches.length} branches; an Arrow union holds at most 128.`);
  }
  const taken = new Set<string>();
  const children = schema.branches.map((branch, i) => {
    const meta: Meta = [];
    const type = typeOf(branch, ctx, meta, nullable);
    const name = uniqueName(branchName(branch), i, taken);
    return new Field(name, type, nullable, meta.length === 0 ? null : new Map(meta));
  });
  return new DenseUnion(
    schema.branches.map((_, i) => i),
    children,
  );
}

/** A union child's name: the branch's type name where it has one, else its kind. */
function branchName(branch: Schema): string {
  const target = branch.kind === 'ref' ? branch.resolve() : branch;
  return target.kind === 'object' || target.kind === 'enum' || target.kind === 'union'
    ? target.name
    : target.kind;
}

/** Names are only labels to Arrow (children are matched by position), but readers show them. */
function uniqueName(name: string, index: number, taken: Set<string>): string {
  const unique = taken.has(name) ? `${name}_${index}` : name;
  taken.add(unique);
  return unique;
}

function expand<T>(type: NamedSchema, ctx: Context, build: () => T): T {
  if (ctx.expanding.includes(type)) {
    const cycle = [...ctx.expanding.slice(ctx.expanding.indexOf(type)), type].map((t) => t.name).join(' -> ');
    refuse(
      `${fullName(type)} contains itself (${cycle}); Arrow types are finite trees, so recursion cannot be expressed.`,
    );
  }
  ctx.expanding.push(type);
  try {
    return build();
  } finally {
    ctx.expanding.pop();
  }
}

function namedMeta(type: NamedSchema): Meta {
  const meta: Meta = [[arrowMetadataKeys.type, fullName(type)]];
  if (type.doc !== undefined) meta.push([arrowMetadataKeys.typeDoc, type.doc]);
  return meta;
}
