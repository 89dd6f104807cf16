/**
 * Builds the plan of a schema. It mirrors `toFlatBuffers` (src/schema/export/flatbuffers.ts) rule for
 * rule, so the bytes are exactly what the exported `.fbs` describes: slots in field-number order with
 * a placeholder for every unused number and two slots per union, generated tables around vector
 * elements that a vector cannot hold and around map entries, a wrapper table around a root that is
 * not an object.
 */

import { WirekitBug, WirekitError } from '../../errors/index.js';
import { toFlatBuffers } from '../../schema/export/flatbuffers.js';
import { unwrapPresence } from '../../schema/export/plan.js';
import type {
  EnumSchema,
  FieldDef,
  LiteralValue,
  MapSchema,
  ObjectSchema,
  Schema,
  UnionSchema,
} from '../../schema/index.js';
import { deref, namedTypes } from '../../schema/index.js';
import { isInheritedName } from '../../schema/names.js';
import {
  bytesRule,
  decimalRule,
  itemsRule,
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
 * The plan of `schema`, built once per schema node. The exporter runs first so that the codec refuses
 * exactly what `toFlatBuffers` refuses (names flatc cannot take, slot gaps beyond 1000, ...).
 */
export function planOf(schema: Schema): RootPlan {
  let plan = plans.get(schema);
  if (plan === undefined) {
    toFlatBuffers(schema, { rootName: freeRootName(schema) });
    plan = new Planner().root(schema);
    plans.set(schema, plan);
  }
  return plan;
}

/** The wrapper's name never reaches the wire, so any free name does; only the exporter needs one. */
function freeRootName(schema: Schema): string {
  const taken = new Set([...namedTypes(schema).values()].map((type) => type.name));
  let name = 'Root';
  for (let n = 2; taken.has(name); n++) name = `Root${n}`;
  return name;
}

class Planner {
  private readonly objects = new Map<ObjectSchema, TablePlan>();
  private readonly unions = new Map<UnionSchema, UnionPlan>();

  root(schema: Schema): RootPlan {
    const node = deref(schema);
    if (node.kind === 'object') return { table: this.object(node), wrapped: false };
    return { table: this.table('Root', 'wrapper', [{ name: 'value', id: 1, schema }]), wrapped: true };
  }

  private object(schema: ObjectSchema): TablePlan {
    const known = this.objects.get(schema);
    if (known !== undefined) return known;
    const plan = emptyTable(schema.name, 'object');
    // Registered before its fields are planned, so a type that contains itself finds its own plan.
    this.objects.set(schema, plan);
    this.fill(plan, schema.fields);
    return plan;
  }

  private table(name: string, kind: TablePlan['kind'], fields: readonly FieldDef[]): TablePlan {
    const plan = emptyTable(name, kind);
    this.fill(plan, fields);
    return plan;
  }

  /** The slot rule of the exporter's `table()`: see docs/mapping/flatbuffers.md, *Slots*. */
  private fill(plan: TablePlan, defs: readonly FieldDef[]): void {
    // A literal field of an object carries nothing; a map's value is stored even then.
    const omitted = (def: FieldDef) => plan.kind !== 'entry' && def.schema.kind === 'literal';
    const stored = defs.filter((def) => !omitted(def)).sort((a, b) => a.id - b.id);
    const slots = new Map<FieldDef, number>();
    let unions = 0;
    for (const def of stored) {
      slots.set(def, def.id - 1 + unions);
      if (unwrapPresence(def.schema).inner.kind === 'union') unions++;
    }
    const last = stored.at(-1);
    plan.slots = last === undefined ? 0 : last.id + unions;
    for (const def of defs) {
      const slot = slots.get(def);
      if (slot === undefined) {
        const member = { name: def.name, field: undefined, literal: literalValue(def.schema) };
        plan.members.push(member);
        plan.literals.push(member);
        continue;
      }
      const field = this.field(def, slot);
      plan.fields.push(field);
      plan.members.push({ name: def.name, field, literal: undefined });
      if (!field.inline) plan.children.push(field);
    }
    plan.writes.push(...writeOrder(plan));
    // vtable entries are 16-bit: the vtable's size and every field's place in the table must fit.
    // Written largest first, fields need at most one alignment pad (< 8 bytes) after the soffset.
    const inlineBound = plan.writes.reduce((sum, write) => sum + sizeOf(write), 4 + 8);
    if (4 + 2 * plan.slots > 0xffff || inlineBound > 0xffff) {
      unsupported(`table ${plan.name} has too many fields for a 16-bit vtable.`);
    }
  }

  private field(def: FieldDef, slot: number): FieldPlan {
    const { inner } = unwrapPresence(def.schema);
    const value =
      inner.kind === 'array'
        ? vector(this.element(inner.items), itemsRule(inner))
        : inner.kind === 'map'
          ? this.map(inner)
          : this.leaf(inner);
    return {
      name: def.name,
      slot,
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

  /** A vector holds no vectors, bytes, unions or absent values: those go into a generated table. */
  private element(schema: Schema): ValuePlan {
    const node = deref(schema);
    switch (node.kind) {
      case 'optional':
      case 'nullable':
      case 'array':
      case 'map':
      case 'bytes':
      case 'union': {
        const name = node.kind === 'array' ? 'items' : node.kind === 'map' ? 'entries' : 'value';
        const table = this.table(`${name} table`, 'wrapper', [{ name, id: 1, schema: node }]);
        return { k: 'table', table, size: 4 };
      }
      default:
        return this.leaf(node);
    }
  }

  private map(map: MapSchema): ValuePlan {
    const entry = this.table('map entry', 'entry', [
      { name: 'key', id: 1, schema: map.keys },
      { name: 'value', id: 2, schema: map.values },
    ]);
    return { k: 'map', entry, stringKeys: map.keys.kind === 'string', size: 4 };
  }

  private leaf(node: Schema): ValuePlan {
    const plain = deref(node);
    switch (plain.kind) {
      case 'bool':
      case 'int8':
      case 'uint8':
      case 'int16':
      case 'uint16':
      case 'int32':
      case 'uint32':
      case 'float32':
      case 'float64':
        return scalar(plain.kind, false);
      case 'int64':
      case 'uint64':
        return scalar(plain.kind, plain.as === 'number');
      case 'timestamp':
        return {
          k: 'timestamp',
          precision: plain.precision,
          size: 8,
          store: 'i64',
          rule: timestampRule(plain.precision),
        };
      case 'enum':
        return enumeration(plain);
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
        return { k: 'json', size: 4 };
      case 'object':
        return { k: 'table', table: this.object(plain), size: 4 };
      case 'union':
        return { k: 'union', union: this.union(plain), size: 4 };
      default:
        // array and map are handled by the callers; optional/nullable only nest inside those.
        throw new WirekitBug(`FlatBuffers: the planner met a ${plain.kind} where its callers take it apart`);
    }
  }

  private union(schema: UnionSchema): UnionPlan {
    const known = this.unions.get(schema);
    if (known !== undefined) return known;
    if (schema.variants.length > 255) {
      unsupported(`union ${schema.name} has ${schema.variants.length} variants; a union type is a ubyte.`);
    }
    const variants: TablePlan[] = [];
    const byTag = new Map<unknown, number>();
    const plan: UnionPlan = { name: schema.name, tag: schema.tag, variants, byTag };
    this.unions.set(schema, plan);
    schema.variants.forEach((variant, i) => {
      variants.push(this.object(variant));
      byTag.set(literalValue(variant.fields.find((field) => field.name === schema.tag)?.schema), i);
    });
    return plan;
  }
}

function unsupported(message: string): never {
  throw new WirekitError('WK_EXPORT_UNSUPPORTED', message, { format: 'flatbuffers' });
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

function emptyTable(name: string, kind: TablePlan['kind']): TablePlan {
  return { name, kind, slots: 0, fields: [], members: [], literals: [], children: [], writes: [] };
}

function vector(element: ValuePlan, rule: Rule<number> | undefined): ValuePlan {
  return { k: 'vector', element, size: 4, rule };
}

/** Members are numbered from 0 on the smallest unsigned type that counts them, as the exporter declares. */
function enumeration(schema: EnumSchema): ValuePlan {
  const count = schema.members.length;
  const [size, store] = count <= 2 ** 8 ? [1, 'i8'] : count <= 2 ** 16 ? [2, 'i16'] : [4, 'i32'];
  return {
    k: 'enum',
    members: schema.members,
    index: new Map(schema.members.map((member, i) => [member, i])),
    size: size as 1 | 2 | 4,
    store: store as Store,
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
