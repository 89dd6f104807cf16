/**
 * Builds the plan of a schema from its FlatBuffers layout (src/schema/export/flatbuffers-layout.ts),
 * the one that `toFlatBuffers` prints, so the bytes are exactly what the exported `.fbs` describes:
 * the layout decides the slots, placeholders and generated tables; the plan adds how each value is
 * written and read (stores, sizes, value rules, the order of a table's inline writes).
 */

import {
  type FbsEnum,
  type FbsField,
  type FbsTable,
  type FbsUnion,
  type FbsValue,
  fbsFormat,
  fbsLayout,
} from '../../schema/export/flatbuffers-layout.js';
import { type ScalarLeaf, unsupported } from '../../schema/export/plan.js';
import type { FieldDef, LiteralValue, Schema, TimestampSchema } from '../../schema/index.js';
import { namedTypes } from '../../schema/index.js';
import { boundedRange } from '../../schema/int-ranges.js';
import { isInheritedName } from '../../schema/names.js';
import { oneofRule } from '../../schema/oneofs.js';
import {
  bytesRule,
  decimalRule,
  floatRule,
  itemsRule,
  jsonRule,
  type Rule,
  stringRule,
  timestampRule,
} from '../../schema/value-rules.js';
import {
  type FieldPlan,
  isInline,
  type RootPlan,
  type ScalarKind,
  type Store,
  type TablePlan,
  type UnionPlan,
  type ValuePlan,
  type Write,
} from './plan.js';

const plans = new WeakMap<Schema, RootPlan>();

/**
 * The plan of `schema`, built once per schema node. The layout refuses as the exporter does, so the
 * codec refuses exactly what `toFlatBuffers` refuses (names flatc cannot take, slot gaps beyond
 * 1000, ...).
 */
export function planOf(schema: Schema): RootPlan {
  let plan = plans.get(schema);
  if (plan === undefined) {
    const layout = fbsLayout(schema, { rootName: freeRootName(schema) });
    plan = { table: new Planner().table(layout.root, layout.rootWrapped), wrapped: layout.rootWrapped };
    plans.set(schema, plan);
  }
  return plan;
}

/** The wrapper's name never reaches the wire, so any free name does; only the layout needs one. */
function freeRootName(schema: Schema): string {
  const taken = new Set([...namedTypes(schema).values()].map((type) => type.name));
  let name = 'Root';
  for (let n = 2; taken.has(name); n++) name = `Root${n}`;
  return name;
}

class Planner {
  private readonly tables = new Map<FbsTable, TablePlan>();
  private readonly unions = new Map<FbsUnion, UnionPlan>();

  /** `root` marks the generated wrapper around the root. */
  table(layout: FbsTable, root = false): TablePlan {
    const known = this.tables.get(layout);
    if (known !== undefined) return known;
    const plan = emptyTable(planName(layout, root), layout.origin, layout.slots.length);
    // Registered before its fields are planned, so a type that contains itself finds its own plan.
    this.tables.set(layout, plan);
    if (layout.schema !== undefined) plan.oneofs = oneofRule(layout.schema) as Rule<never> | undefined;
    for (const member of layout.members) {
      if (member.field === undefined) {
        const literal = { name: member.def.name, field: undefined, literal: literalValue(member.def.schema) };
        plan.members.push(literal);
        plan.literals.push(literal);
        continue;
      }
      const field = this.field(member.def, member.field);
      plan.fields.push(field);
      plan.members.push({ name: member.def.name, field, literal: undefined });
      if (!field.inline) plan.children.push(field);
    }
    plan.writes.push(...writeOrder(plan));
    // vtable entries are 16-bit: the vtable's size and every field's place in the table must fit.
    // Written largest first, fields need at most one alignment pad (< 8 bytes) after the soffset.
    const inlineBound = plan.writes.reduce((sum, write) => sum + sizeOf(write), 4 + 8);
    if (4 + 2 * plan.slots > 0xffff || inlineBound > 0xffff) {
      unsupported(fbsFormat, `table ${plan.name} has too many fields for a 16-bit vtable.`);
    }
    return plan;
  }

  private field(def: FieldDef, layout: FbsField): FieldPlan {
    const value = this.value(layout.value);
    return {
      name: def.name,
      slot: layout.slot,
      value,
      presence:
        def.schema.kind === 'optional'
          ? 'optional'
          : def.schema.kind === 'nullable'
            ? 'nullable'
            : 'required',
      nullAbsent: hasNullable(def.schema),
      inline: isInline(value),
      inherited: isInheritedName(def.name),
    };
  }

  private value(layout: FbsValue): ValuePlan {
    switch (layout.is) {
      case 'leaf':
        return leaf(layout.schema);
      case 'enum':
        return enumeration(layout.enum);
      case 'table':
        return { k: 'table', table: this.table(layout.table), size: 4 };
      case 'union':
        return { k: 'union', union: this.union(layout.union), size: 4 };
      case 'vector':
        return vector(this.value(layout.element), itemsRule(layout.schema));
      case 'map':
        return {
          k: 'map',
          entry: this.table(layout.entry),
          stringKeys: layout.schema.keys.kind === 'string',
          size: 4,
        };
    }
  }

  private union(layout: FbsUnion): UnionPlan {
    const known = this.unions.get(layout);
    if (known !== undefined) return known;
    const { schema } = layout;
    const variants: TablePlan[] = [];
    const byTag = new Map<unknown, number>();
    const either = schema.kind === 'either' ? schema : undefined;
    const plan: UnionPlan =
      schema.kind === 'either'
        ? { name: layout.name, either, tag: '', variants, byTag }
        : { name: schema.name, either, tag: schema.tag, variants, byTag };
    this.unions.set(layout, plan);
    layout.variants.forEach((variant, i) => {
      variants.push(this.table(variant));
      if (schema.kind === 'either') return;
      const tag = variant.schema?.fields.find((field) => field.name === schema.tag)?.schema;
      byTag.set(literalValue(tag), i);
    });
    return plan;
  }
}

/**
 * The plan's own name for a table, in messages and generated code: an object's name; for generated
 * tables, what they hold, since their names in the `.fbs` are the exporter's choice.
 */
function planName(layout: FbsTable, root: boolean): string {
  if (layout.origin === 'object') return layout.name;
  if (layout.origin === 'entry') return 'map entry';
  return root ? 'Root' : `${layout.members[0]?.def.name} table`;
}

function leaf(plain: ScalarLeaf | TimestampSchema): ValuePlan {
  switch (plain.kind) {
    case 'int8':
    case 'uint8':
    case 'int16':
    case 'uint16':
    case 'int32':
    case 'uint32':
      return { ...scalar(plain.kind, false), ...boundedRange(plain) } as ValuePlan;
    case 'bool':
      return scalar(plain.kind, false);
    case 'float32':
    case 'float64': {
      const rule = floatRule(plain);
      return rule === undefined
        ? scalar(plain.kind, false)
        : ({ ...scalar(plain.kind, false), rule } as ValuePlan);
    }
    case 'int64':
    case 'uint64':
      return scalar(plain.kind, plain.as === 'number');
    case 'timestamp':
      return {
        k: 'timestamp',
        precision: plain.precision,
        size: 8,
        store: 'i64',
        rule: timestampRule(plain),
      };
    case 'literal': {
      const { value } = plain;
      return typeof value === 'string'
        ? { k: 'literal', value, size: 4, store: 'i32' }
        : typeof value === 'boolean'
          ? { k: 'literal', value, size: 1, store: 'i8' }
          : { k: 'literal', value, size: 8, store: 'f64' };
    }
    case 'decimal':
      return { k: 'decimal', size: 4, rule: decimalRule(plain) };
    case 'string':
      return { k: 'string', size: 4, rule: stringRule(plain) };
    case 'bytes':
      return { k: 'bytes', size: 4, rule: bytesRule(plain) };
    case 'json':
      return { k: 'json', size: 4, rule: jsonRule(plain) };
  }
}

function sizeOf(write: Write): number {
  return write.what === 'unionType' ? 1 : write.what === 'offset' ? 4 : write.field.value.size;
}

const stores: Record<ScalarKind, Store> = {
  bool: 'i8',
  int8: 'i8',
  uint8: 'i8',
  int16: 'i16',
  uint16: 'i16',
  int32: 'i32',
  uint32: 'i32',
  int64: 'i64',
  uint64: 'i64',
  float32: 'f32',
  float64: 'f64',
};

const storeSize: Record<Store, number> = { i8: 1, i16: 2, i32: 4, i64: 8, f32: 4, f64: 8 };

function scalar(kind: ScalarKind, asNumber: boolean): ValuePlan {
  const store = stores[kind];
  return { k: 'scalar', kind, size: storeSize[store], store, asNumber };
}

function emptyTable(name: string, kind: TablePlan['kind'], slots: number): TablePlan {
  return {
    name,
    kind,
    slots,
    fields: [],
    members: [],
    literals: [],
    children: [],
    writes: [],
    oneofs: undefined,
  };
}

function vector(element: ValuePlan, rule: Rule<number> | undefined): ValuePlan {
  return { k: 'vector', element, size: 4, rule };
}

/** The store of each enum base type the layout declares. */
const enumStores: Record<FbsEnum['base'], { size: 1 | 2 | 4; store: Store }> = {
  ubyte: { size: 1, store: 'i8' },
  ushort: { size: 2, store: 'i16' },
  uint: { size: 4, store: 'i32' },
};

function enumeration(layout: FbsEnum): ValuePlan {
  const { members } = layout.schema;
  return {
    k: 'enum',
    members,
    index: new Map(members.map((member, i) => [member, i])),
    ...enumStores[layout.base],
  };
}

function literalValue(schema: Schema | undefined): LiteralValue | undefined {
  return schema?.kind === 'literal' ? schema.value : undefined;
}

function hasNullable(schema: Schema): boolean {
  for (let node = schema; node.kind === 'optional' || node.kind === 'nullable'; node = node.inner) {
    if (node.kind === 'nullable') return true;
  }
  return false;
}

/** Inline fields largest first, then offsets (4 bytes) among the 4-byte scalars, union types last. */
function writeOrder(plan: TablePlan): Write[] {
  const writes: (Write & { size: number })[] = [];
  for (const field of plan.fields) {
    const child = plan.children.indexOf(field);
    if (field.inline) writes.push({ field, what: 'scalar', child, size: field.value.size });
    else writes.push({ field, what: 'offset', child, size: 4 });
    if (field.value.k === 'union') writes.push({ field, what: 'unionType', child, size: 1 });
  }
  return writes.sort((a, b) => b.size - a.size).map(({ field, what, child }) => ({ field, what, child }));
}
