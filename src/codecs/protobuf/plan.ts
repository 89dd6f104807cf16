/**
 * The wire layout of a schema as `toProto()` declares it, worked out once per schema so that the
 * encoder and decoder only follow precomputed numbers: field numbers and tags, which fields have
 * presence, which are packed, and where a generated wrapper message (`_Item`, `_Value`, `_List`,
 * `_Map`, the root's `{ value = 1 }`) sits between a value and its container. Names of generated
 * messages never reach the wire, so only their shape is mirrored here; the presence rule itself comes
 * from the exporter (`unwrapPresence`), so the two cannot drift apart on it. Each nested slot also
 * carries the levels of the value it stands for (Slot.levels, Slot.need), so that maxDepth counts
 * objects, arrays and maps as every format does, not the messages that happen to carry them.
 */
import { WirekitBug } from '../../errors/index.js';
import { unwrapPresence } from '../../schema/export/plan.js';
import { smallIntRange } from '../../schema/int-ranges.js';
import type { EnumSchema, LiteralValue, ObjectSchema, Schema, UnionSchema } from '../../schema/types.js';
import {
  bytesRule,
  decimalRule,
  itemsRule,
  type Rule,
  stringRule,
  timestampRule,
} from '../../schema/value-rules.js';
import { deref } from '../../schema/walk.js';
import {
  BOOL,
  BYTES,
  DECIMAL,
  DOUBLE,
  ENUM,
  FIXED32,
  FIXED64,
  type FieldPlan,
  FLOAT,
  JSON_TEXT,
  LEN,
  LITERAL,
  MAP,
  MESSAGE,
  type MessagePlan,
  OMITTED,
  PRESENT,
  REPEATED,
  SINGLE,
  SINT32,
  SINT64,
  type Slot,
  STRING,
  slot,
  TIMESTAMP,
  UINT32,
  UINT64,
  UNION,
  type UnionPlan,
  VARINT,
  WRAPPER,
} from './layout.js';

const denseLimit = 4096;

// Plans are immutable once built, so caching them per root schema is memoisation rather than state.
const rootPlans = new WeakMap<Schema, Slot>();

/** The slot of the root: a message, a union message, or the generated `{ value = 1 }` wrapper. */
export function rootSlot(schema: Schema): Slot {
  let slot = rootPlans.get(schema);
  if (slot === undefined) {
    slot = new Planner().root(schema);
    rootPlans.set(schema, slot);
  }
  return slot;
}

/** Builds one schema's plans; recursive types resolve through the maps, which exist per build. */
class Planner {
  private readonly messages = new Map<ObjectSchema, MessagePlan>();
  private readonly unions = new Map<UnionSchema, UnionPlan>();
  private readonly enums = new Map<EnumSchema, Slot>();
  /** The slots holding a message or wrapper, whose `need` is set once every message is planned. */
  private readonly bodies: Slot[] = [];

  root(schema: Schema): Slot {
    const node = deref(schema);
    const root =
      node.kind === 'object'
        ? this.messageSlot(node)
        : node.kind === 'union'
          ? slot(UNION, LEN, { union: this.union(node), kind: 'union' })
          : this.wrapper(schema);
    for (const body of this.bodies) body.need = body.levels + (holdsList(body) ? 1 : 0);
    return root;
  }

  /** An object's message: one level of the value. */
  private messageSlot(schema: ObjectSchema): Slot {
    return this.body(slot(MESSAGE, LEN, { message: this.message(schema), kind: 'object', levels: 1 }));
  }

  private body(body: Slot): Slot {
    this.bodies.push(body);
    return body;
  }

  private message(schema: ObjectSchema): MessagePlan {
    const known = this.messages.get(schema);
    if (known !== undefined) return known;
    const plan: MessagePlan = {
      name: schema.name,
      fields: [],
      literals: [],
      template: {},
      required: [],
      requiredMask: 0,
      dense: undefined,
      sparse: undefined,
      counted: [],
    };
    this.messages.set(schema, plan);
    for (const def of schema.fields) {
      if (def.schema.kind === 'literal') {
        plan.literals.push({ name: def.name, value: def.schema.value });
        plan.template[def.name] = def.schema.value;
        continue;
      }
      const field = this.field(def.name, def.id, def.schema);
      plan.fields.push(field);
      if (field.items !== undefined) plan.counted.push(field);
      if (field.mode === PRESENT && field.absent === undefined) continue;
      plan.template[def.name] = undefined;
      if (plan.required.length < 31) {
        field.bit = 1 << plan.required.length;
        plan.requiredMask |= field.bit;
      }
      plan.required.push(field);
    }
    plan.fields.sort((a, b) => a.number - b.number);
    const top = plan.fields.reduce((max, field) => Math.max(max, field.number), 0);
    if (top <= denseLimit) {
      plan.dense = new Array<FieldPlan | undefined>(top + 1).fill(undefined);
      for (const field of plan.fields) plan.dense[field.number] = field;
    } else {
      plan.sparse = new Map(plan.fields.map((field) => [field.number, field]));
    }
    return plan;
  }

  private union(schema: UnionSchema): UnionPlan {
    const known = this.unions.get(schema);
    if (known !== undefined) return known;
    const byTag = new Map<unknown, number>();
    const plan: UnionPlan = { name: schema.name, tag: schema.tag, variants: [], slots: [], byTag };
    this.unions.set(schema, plan);
    schema.variants.forEach((variant, index) => {
      const tag = variant.fields.find((field) => field.name === schema.tag)?.schema;
      if (tag?.kind === 'literal') byTag.set(tag.value, index);
      const message = this.message(variant);
      plan.variants.push(message);
      plan.slots.push(this.body(slot(MESSAGE, LEN, { message, kind: 'object', levels: 1 })));
    });
    return plan;
  }

  /** A field as toProto's `field()` declares it. */
  private field(name: string, number: number, schema: Schema): FieldPlan {
    if (schema.kind === 'literal') return this.omitted(name, number, schema.value);
    const { inner, present } = unwrapPresence(schema);
    const acceptsUndefined = schema.kind === 'optional';
    const acceptsNull = acceptsUndefined ? schema.inner.kind === 'nullable' : schema.kind === 'nullable';
    const base = {
      name,
      number,
      key: undefined as Slot | undefined,
      packed: false,
      intKeys: false,
      acceptsUndefined,
      acceptsNull,
      absent: acceptsUndefined ? undefined : null,
      bit: 0,
      items: undefined as Rule<number> | undefined,
    };
    // A repeated field or map cannot be absent in proto, so one that may be goes into a message.
    if (present) {
      const value = inner.kind === 'array' || inner.kind === 'map' ? this.wrapper(inner) : this.leaf(inner);
      return { ...base, mode: PRESENT, tag: number * 8 + value.wire, slot: value };
    }
    if (inner.kind === 'array') {
      const item = this.element(inner.items);
      const items = itemsRule(inner);
      return { ...base, mode: REPEATED, tag: number * 8 + LEN, slot: item, packed: item.wire !== LEN, items };
    }
    if (inner.kind === 'map') {
      const key = this.leaf(inner.keys);
      const value = this.element(inner.values);
      return { ...base, mode: MAP, tag: number * 8 + LEN, slot: value, key, intKeys: key.type !== STRING };
    }
    const value = this.leaf(inner);
    return { ...base, mode: SINGLE, tag: number * 8 + value.wire, slot: value };
  }

  /** A literal field, which toProto leaves out of the message (only the root wrapper's can be one). */
  private omitted(name: string, number: number, value: LiteralValue): FieldPlan {
    return {
      name,
      number,
      key: undefined,
      packed: false,
      intKeys: false,
      acceptsUndefined: false,
      acceptsNull: false,
      absent: null,
      bit: 0,
      items: undefined,
      mode: OMITTED,
      tag: 0,
      slot: slot(LITERAL, LEN, { literal: value }),
    };
  }

  /**
   * An array element or map value: what proto cannot hold there directly goes into a wrapper. It
   * sits one level below its container, the array or map being a level of the value.
   */
  private element(schema: Schema): Slot {
    const node = deref(schema);
    if (
      node.kind === 'optional' ||
      node.kind === 'nullable' ||
      node.kind === 'array' ||
      node.kind === 'map'
    ) {
      return this.wrapper(node, 1);
    }
    const leaf = this.leaf(node);
    // Only what is entered (messages, unions, Timestamps) or nests (json) has a depth to carry.
    if (leaf.type !== MESSAGE && leaf.type !== UNION && leaf.type !== TIMESTAMP && leaf.type !== JSON_TEXT) {
      return leaf;
    }
    const element = slot(leaf.type, leaf.wire, { ...leaf, levels: leaf.levels + 1, need: leaf.levels + 1 });
    return leaf.type === MESSAGE ? this.body(element) : element;
  }

  /** A generated message of one field numbered 1 (`items`, `entries` or `value`). */
  private wrapper(schema: Schema, levels = 0): Slot {
    const name = schema.kind === 'array' ? 'items' : schema.kind === 'map' ? 'entries' : 'value';
    return this.body(slot(WRAPPER, LEN, { wrapped: this.field(name, 1, schema), kind: schema.kind, levels }));
  }

  private leaf(node: Schema): Slot {
    switch (node.kind) {
      case 'bool':
        return slot(BOOL, VARINT);
      case 'int8':
      case 'int16':
      case 'int32': {
        const [min, max] = smallIntRange[node.kind];
        return slot(SINT32, VARINT, { min, max, kind: node.kind });
      }
      case 'uint8':
      case 'uint16':
      case 'uint32': {
        const [min, max] = smallIntRange[node.kind];
        return slot(UINT32, VARINT, { min, max, kind: node.kind });
      }
      case 'int64':
        return slot(SINT64, VARINT, { asNumber: node.as === 'number', kind: node.kind });
      case 'uint64':
        return slot(UINT64, VARINT, { asNumber: node.as === 'number', kind: node.kind });
      case 'float32':
        return slot(FLOAT, FIXED32);
      case 'float64':
        return slot(DOUBLE, FIXED64);
      case 'decimal':
        return slot(DECIMAL, LEN, { rule: decimalRule(node) as Rule<never> });
      case 'string':
        return slot(STRING, LEN, { rule: stringRule(node) as Rule<never> | undefined });
      case 'json':
        return slot(JSON_TEXT, LEN);
      case 'bytes':
        return slot(BYTES, LEN, { rule: bytesRule(node) as Rule<never> | undefined });
      case 'timestamp':
        return slot(TIMESTAMP, LEN, {
          precision: node.precision,
          rule: timestampRule(node.precision) as Rule<never> | undefined,
        });
      case 'enum':
        return this.enumeration(node);
      case 'literal': {
        const wire =
          typeof node.value === 'string' ? LEN : typeof node.value === 'boolean' ? VARINT : FIXED64;
        return slot(LITERAL, wire, { literal: node.value });
      }
      case 'object':
        return this.messageSlot(node);
      case 'union':
        return slot(UNION, LEN, { union: this.union(node), kind: 'union' });
      case 'ref':
        return this.leaf(node.resolve());
      default:
        // Arrays, maps and presence are taken apart by field() and element() before a leaf is asked for.
        throw new WirekitBug(`Protocol Buffers: a ${node.kind} reached the leaf planner`);
    }
  }

  private enumeration(node: EnumSchema): Slot {
    let known = this.enums.get(node);
    if (known === undefined) {
      const memberIndex = new Map<unknown, number>(node.members.map((member, index) => [member, index]));
      known = slot(ENUM, VARINT, { members: node.members, memberIndex, kind: 'enum' });
      this.enums.set(node, known);
    }
    return known;
  }
}

/** Whether a message or wrapper always holds an array or map, whose level counts even when empty. */
function holdsList(body: Slot): boolean {
  const fields =
    body.message !== undefined ? body.message.fields : body.wrapped !== undefined ? [body.wrapped] : [];
  return fields.some((field) => field.mode === REPEATED || field.mode === MAP);
}
