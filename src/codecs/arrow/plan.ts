/**
 * The per-schema plan both directions interpret: one node per Arrow column, pairing the wirekit kind
 * (what a JavaScript value must be) with the Arrow type toArrowSchema gives it (what the bytes are).
 * Built once per codec, so that encoding and decoding never look at the schema tree again.
 */

import { type DataType, type Field, makeData, Struct, Type, Utf8, Vector } from 'apache-arrow';
import { toArrowSchema } from '../../schema/export/arrow.js';
import type { EitherSchema, ObjectSchema, Schema, UnionSchema } from '../../schema/index.js';
import { deref } from '../../schema/index.js';
import { boundedRange, isSmallInt } from '../../schema/int-ranges.js';
import { oneofRule } from '../../schema/oneofs.js';
import { type Rule, schemaRule } from '../../schema/value-rules.js';
import { defaultDecodeLimits } from '../core/limits.js';
import { encodeUtf8 } from '../core/utf8.js';
import type { EitherPlan, Plan, RootPlan, StructEntry, StructPlan, UnionPlan } from './plan-types.js';

export type { EitherPlan, EnumPlan, MapPlan, Plan, RootPlan, StructPlan, UnionPlan } from './plan-types.js';

/**
 * The plan of a codec of `schema`; `maxDepth` (the codec's limit) bounds what its json columns may
 * nest, as every format's json values are bounded.
 */
export function buildRootPlan(schema: Schema, maxDepth = defaultDecodeLimits.maxDepth): RootPlan {
  const arrowSchema = toArrowSchema(schema);
  const root = deref(schema);
  const rowsType = new Struct(arrowSchema.fields);
  // The decoded array of rows is level 1; an object row is level 2.
  if (root.kind === 'object') {
    const struct = structPlan(root, rowsType, { allowNull: false, allowAbsent: false }, 2, maxDepth);
    return { arrowSchema, rows: 'object', struct, maxDepth: deepest(struct) };
  }
  const [field] = arrowSchema.fields as [Field];
  const value = planField(schema, field, 1, maxDepth);
  const struct: StructPlan = {
    k: 'struct',
    type: rowsType,
    typeName: 'value',
    fill: { value: value.placeholder },
    template: { value: null },
    nullable: false,
    allowNull: false,
    allowAbsent: false,
    nullValue: null,
    placeholder: { value: value.placeholder },
    depth: 1,
    entries: [{ name: 'value', plan: value, literal: undefined }],
    columns: [{ name: 'value', plan: value, literal: undefined }],
  };
  return { arrowSchema, rows: 'value', struct, maxDepth: deepest(struct) };
}

function deepest(plan: Plan): number {
  switch (plan.k) {
    case 'struct':
      return Math.max(plan.depth, ...plan.columns.map((column) => deepest(column.plan)));
    case 'list':
      return Math.max(plan.depth, deepest(plan.item));
    case 'map':
      return Math.max(plan.depth, deepest(plan.key), deepest(plan.value));
    case 'union':
      return Math.max(plan.depth, ...plan.variants.map((variant) => deepest(variant.plan)));
    case 'either':
      return Math.max(plan.depth, ...plan.branches.map(deepest));
    default:
      return plan.depth;
  }
}

/**
 * Unwraps optional/nullable the way toArrowSchema's fieldOf does, then plans the inner kind.
 * `depth` is the level of the container holding the value; containers sit one level deeper.
 */
function planField(schema: Schema, field: Field, depth: number, maxDepth: number): Plan {
  let inner = schema;
  let allowAbsent = false;
  let allowNull = false;
  if (inner.kind === 'optional') {
    allowAbsent = true;
    inner = inner.inner;
  }
  if (inner.kind === 'nullable') {
    allowNull = true;
    inner = inner.inner;
  }
  return planType(inner, field.type, { allowNull, allowAbsent }, depth, maxDepth);
}

interface Nulls {
  readonly allowNull: boolean;
  readonly allowAbsent: boolean;
}

function nullsOf(nulls: Nulls) {
  const nullable = nulls.allowNull || nulls.allowAbsent;
  // optional(nullable(x)): Arrow has one kind of null, and the inner nullable names it.
  const nullValue = nulls.allowNull ? null : undefined;
  return { ...nulls, nullable, nullValue };
}

function planType(schema: Schema, type: DataType, nulls: Nulls, depth: number, maxDepth: number): Plan {
  const s = deref(schema);
  const base = { type, ...nullsOf(nulls), depth };
  const scalar = <P extends object>(plan: P, placeholder: unknown) =>
    ({ ...base, ...plan, placeholder: base.nullable ? base.nullValue : placeholder }) as unknown as Plan;
  if (isSmallInt(s)) return scalar({ k: 'int', kind: s.kind, ...boundedRange(s) }, 0);
  // The schema's constraints, for the kinds that have them (a string's, decimal's, ...).
  const rule = schemaRule(s);
  switch (s.kind) {
    case 'bool':
      return scalar({ k: 'bool' }, false);
    case 'int64':
    case 'uint64':
      return scalar(
        { k: 'int64', signed: s.kind === 'int64', asNumber: s.as === 'number' },
        s.as === 'number' ? 0 : 0n,
      );
    case 'float32':
    case 'float64':
      return scalar({ k: 'float', bits: s.kind === 'float32' ? 32 : 64, rule }, 0);
    case 'decimal': {
      const { precision, scale } = type as unknown as { precision?: number; scale?: number };
      if (type.typeId === Type.Decimal && precision !== undefined && scale !== undefined) {
        const words = (type as unknown as { bitWidth: number }).bitWidth === 256 ? 4 : 2;
        return scalar({ k: 'decimal', precision, scale, words, rule }, '0');
      }
      return scalar({ k: 'text', text: 'decimal', rule }, '0');
    }
    case 'string':
      return scalar({ k: 'text', text: 'string', rule }, '');
    case 'json':
      return scalar({ k: 'text', text: 'json', maxDepth, shape: rule }, null);
    case 'bytes':
      return scalar({ k: 'bytes', rule }, new Uint8Array(0));
    case 'timestamp':
      return scalar({ k: 'timestamp', unit: s.precision, rule }, new Date(0));
    case 'literal': {
      const storage =
        typeof s.value === 'string'
          ? scalar({ k: 'text', text: 'string' }, s.value)
          : typeof s.value === 'boolean'
            ? scalar({ k: 'bool' }, s.value)
            : scalar({ k: 'float', bits: 64 }, s.value);
      return scalar({ k: 'literal', value: s.value, storage }, s.value);
    }
    case 'enum': {
      const members = s.members;
      const bits = members.length <= 128 ? 8 : members.length <= 32_768 ? 16 : 32;
      return scalar(
        {
          k: 'enum',
          members,
          indexOf: new Map(members.map((member, i) => [member, i])),
          bits,
          dictionary: textVector(members),
        },
        members[0],
      );
    }
    case 'object':
      return structPlan(s, type as Struct, nulls, depth + 1, maxDepth);
    case 'array': {
      const [item] = type.children as [Field];
      return scalar(
        { k: 'list', depth: depth + 1, item: planField(s.items, item, depth + 1, maxDepth), rule },
        [],
      );
    }
    case 'map': {
      const [entries] = type.children as [Field<Struct>];
      const [keyField, valueField] = entries.type.children as [Field, Field];
      const stringKeys = s.keys.kind === 'string';
      return scalar(
        {
          k: 'map',
          depth: depth + 1,
          stringKeys,
          key: planField(s.keys, keyField, depth + 1, maxDepth),
          value: planField(s.values, valueField, depth + 1, maxDepth),
          entriesType: entries.type,
        },
        stringKeys ? {} : new Map(),
      );
    }
    case 'either':
      return eitherPlan(s, type, nulls, depth, maxDepth);
    case 'union':
      return unionPlan(s, type, nulls, depth + 1, maxDepth);
    case 'optional':
    case 'nullable':
      // planField unwraps both; a wrapper can only be met here if the builders ever allow more.
      return planType(
        s.inner,
        type,
        {
          allowNull: nulls.allowNull || s.kind === 'nullable',
          allowAbsent: nulls.allowAbsent || s.kind === 'optional',
        },
        depth,
        maxDepth,
      );
  }
}

function structPlan(
  schema: ObjectSchema,
  type: Struct,
  nulls: Nulls,
  depth: number,
  maxDepth: number,
): StructPlan {
  const base = nullsOf(nulls);
  const byName = new Map(type.children.map((child) => [child.name, child]));
  const entries: StructEntry[] = schema.fields.map((field) => {
    const child = byName.get(field.name);
    if (child === undefined) {
      const literal = field.schema.kind === 'literal' ? field.schema.value : undefined;
      return { name: field.name, plan: undefined, literal };
    }
    return { name: field.name, plan: planField(field.schema, child, depth, maxDepth), literal: undefined };
  });
  const placeholder: Record<string, unknown> = {};
  for (const entry of entries) {
    const value = entry.plan === undefined ? entry.literal : entry.plan.placeholder;
    if (value !== undefined) placeholder[entry.name] = value;
  }
  return {
    k: 'struct',
    type,
    typeName: schema.name,
    ...base,
    fill: placeholder,
    template: templateOf(entries),
    placeholder: base.nullable ? base.nullValue : placeholder,
    depth,
    entries,
    columns: entries.filter((entry): entry is StructEntry & { plan: Plan } => entry.plan !== undefined),
    oneofs: oneofRule(schema) as Rule<never> | undefined,
  };
}

function unionPlan(
  schema: UnionSchema,
  type: DataType,
  nulls: Nulls,
  depth: number,
  maxDepth: number,
): UnionPlan {
  const base = { ...nullsOf(nulls), depth };
  const children = type.children as Field<Struct>[];
  const variants = schema.variants.map((variant, i) => {
    const child = children[i] as Field<Struct>;
    const tagField = variant.fields.find((field) => field.name === schema.tag);
    const tag = String(tagField?.schema.kind === 'literal' ? tagField.schema.value : variant.name);
    // Variant structs sit at the union's own level: their fields are the union value's fields.
    const plan = structPlan(
      variant,
      child.type,
      { allowNull: child.nullable, allowAbsent: false },
      depth,
      maxDepth,
    );
    return { tag, plan };
  });
  const first = variants[0]?.plan.entries ?? [];
  const placeholder: Record<string, unknown> = {};
  for (const entry of first) {
    const value = entry.plan === undefined ? entry.literal : entry.plan.placeholder;
    if (value !== undefined) placeholder[entry.name] = value;
  }
  return {
    ...base,
    k: 'union',
    type,
    placeholder: base.nullable ? base.nullValue : placeholder,
    tag: schema.tag,
    variants,
    byTag: new Map(variants.map((variant, i) => [variant.tag, i])),
  };
}

/**
 * An either adds no level: each branch is planned where the either stands, with the either's nulls
 * (a null is written into branch 0, and read back from whichever child holds it).
 */
function eitherPlan(
  schema: EitherSchema,
  type: DataType,
  nulls: Nulls,
  depth: number,
  maxDepth: number,
): EitherPlan {
  const children = type.children as Field[];
  const branches = schema.branches.map((branch, i) =>
    planType(branch, (children[i] as Field).type, nulls, depth, maxDepth),
  );
  const base = nullsOf(nulls);
  return {
    ...base,
    k: 'either',
    type,
    depth,
    schema,
    branches,
    placeholder: base.nullable ? base.nullValue : (branches[0] as Plan).placeholder,
  };
}

function templateOf(entries: readonly StructEntry[]): Record<string, unknown> {
  const template: Record<string, unknown> = {};
  for (const entry of entries) {
    if (entry.plan === undefined) template[entry.name] = entry.literal;
    else if (!entry.plan.allowAbsent || entry.plan.allowNull) template[entry.name] = null;
  }
  return template;
}

/** A Utf8 vector of `texts`, used as an enum's dictionary. */
function textVector(texts: readonly string[]): Vector<Utf8> {
  const encoded = texts.map((text) => encodeUtf8(text));
  const offsets = new Int32Array(texts.length + 1);
  let size = 0;
  encoded.forEach((bytes, i) => {
    size += bytes.length;
    offsets[i + 1] = size;
  });
  const data = new Uint8Array(size);
  encoded.forEach((bytes, i) => {
    data.set(bytes, offsets[i]);
  });
  return new Vector([makeData({ type: new Utf8(), length: texts.length, valueOffsets: offsets, data })]);
}
