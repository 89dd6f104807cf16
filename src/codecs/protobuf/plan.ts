/**
 * The codec's plan of a schema, built once per schema from the layout `toProto()` prints
 * (schema/export/proto-layout.ts): which messages exist, each field's number, label and proto type,
 * where a generated wrapper message sits between a value and its container. The plan adds only what
 * the encoder and decoder need to follow it cheaply: tags, packing, presence checks, dense lookup
 * tables, the constraints of each value. Each nested slot also carries the levels of the value it
 * stands for (Slot.levels, Slot.need), so that maxDepth counts objects, arrays and maps as every
 * format does, not the messages that happen to carry them.
 */

import { decimalBounds } from '../../schema/decimal.js';
import { branchTable } from '../../schema/either.js';
import {
  type ProtoField,
  type ProtoLayout,
  type ProtoMessage,
  type ProtoValue,
  protoLayout,
} from '../../schema/export/proto-layout.js';
import { intRange, isSmallInt, smallIntRange } from '../../schema/int-ranges.js';
import { groupOfField, oneofRule } from '../../schema/oneofs.js';
import type {
  EitherSchema,
  EnumSchema,
  LiteralValue,
  Schema,
  SmallIntKind,
  UnionSchema,
} from '../../schema/types.js';
import { intRule, itemsRule, type Rule, schemaRule } from '../../schema/value-rules.js';
import {
  BOOL,
  BYTES,
  DECIMAL,
  DOUBLE,
  EITHER,
  type EitherPlan,
  ENUM,
  FIXED32,
  FIXED64,
  type FieldPlan,
  FLOAT,
  INT32,
  INT64,
  JSON_MESSAGE,
  JSON_TEXT,
  LEN,
  LITERAL,
  MAP,
  MESSAGE,
  type MessagePlan,
  OMITTED,
  PRESENT,
  REPEATED,
  SFIXED32,
  SFIXED64,
  SINGLE,
  SINT32,
  SINT64,
  type Slot,
  STRING,
  slot,
  TIMESTAMP,
  UFIXED32,
  UFIXED64,
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

/** Names never reach the wire, so the codec goes on past what toProto refuses for its names. */
const ignoreNames = (): void => {};

/** The slot of the root: a message, a union message, or the generated `{ value = 1 }` wrapper. */
export function rootSlot(schema: Schema): Slot {
  let slot = rootPlans.get(schema);
  if (slot === undefined) {
    slot = new Planner().root(schema, protoLayout(schema, { refuse: ignoreNames }));
    rootPlans.set(schema, slot);
  }
  return slot;
}

/** Wire type of each proto scalar type. */
const wireOf = {
  bool: VARINT,
  int32: VARINT,
  sint32: VARINT,
  uint32: VARINT,
  int64: VARINT,
  sint64: VARINT,
  uint64: VARINT,
  sfixed32: FIXED32,
  fixed32: FIXED32,
  sfixed64: FIXED64,
  fixed64: FIXED64,
  float: FIXED32,
  double: FIXED64,
  string: LEN,
  bytes: LEN,
} as const;

/** Builds one schema's plans; recursive types resolve through the maps, which exist per build. */
class Planner {
  private readonly messages = new Map<ProtoMessage, MessagePlan>();
  private readonly unions = new Map<ProtoMessage, UnionPlan>();
  private readonly eithers = new Map<ProtoMessage, EitherPlan>();
  private readonly enums = new Map<unknown, Slot>();
  /** The slots holding a message or wrapper, whose `need` is set once every message is planned. */
  private readonly bodies: Slot[] = [];

  root(schema: Schema, layout: ProtoLayout): Slot {
    const { root } = layout;
    const slot =
      root.origin === 'object'
        ? this.messageSlot(root)
        : root.origin === 'union'
          ? this.unionSlot(root)
          : this.rootWrapper(schema, root.fields[0] as ProtoField);
    for (const body of this.bodies) body.need = body.levels + (holdsList(body) ? 1 : 0);
    return slot;
  }

  /** An object's message: one level of the value. */
  private messageSlot(message: ProtoMessage): Slot {
    return this.body(slot(MESSAGE, LEN, { message: this.message(message), kind: 'object', levels: 1 }));
  }

  private unionSlot(message: ProtoMessage): Slot {
    return slot(UNION, LEN, { union: this.union(message), kind: 'union' });
  }

  /** An either's message stands for the value it holds: no level of its own, as a union's. */
  private eitherSlot(message: ProtoMessage): Slot {
    return slot(EITHER, LEN, { either: this.either(message), kind: 'either' });
  }

  private either(declared: ProtoMessage): EitherPlan {
    const known = this.eithers.get(declared);
    if (known !== undefined) return known;
    const schema = declared.schema as EitherSchema;
    const plan: EitherPlan = {
      name: declared.name,
      schema,
      slots: [],
      fieldNames: declared.branches.map((branch) => branch.name),
      keys: [],
      finiteOnly: branchTable(schema).byClass.has('text'),
    };
    this.eithers.set(declared, plan);
    for (const branch of declared.branches) {
      const value = this.value(branch.value, 0);
      plan.slots.push(value);
      plan.keys.push(branch.number * 8 + value.wire);
    }
    return plan;
  }

  private body(body: Slot): Slot {
    this.bodies.push(body);
    return body;
  }

  private message(declared: ProtoMessage): MessagePlan {
    const known = this.messages.get(declared);
    if (known !== undefined) return known;
    const plan: MessagePlan = {
      name: declared.name,
      fields: [],
      literals: [],
      template: {},
      required: [],
      requiredMask: 0,
      dense: undefined,
      sparse: undefined,
      counted: [],
      oneofs: declared.schema?.kind === 'object' ? oneofRule(declared.schema) : undefined,
    };
    this.messages.set(declared, plan);
    const groups = declared.schema?.kind === 'object' ? groupOfField(declared.schema) : undefined;
    for (const declaredField of declared.fields) {
      const { def } = declaredField;
      if (def.schema.kind === 'literal') {
        plan.literals.push({ name: def.name, value: def.schema.value });
        plan.template[def.name] = def.schema.value;
        continue;
      }
      const field = this.field(declaredField);
      const group = groups?.get(def.name);
      if (group !== undefined) field.rivals = group.fields.filter((member) => member !== def.name);
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

  private union(declared: ProtoMessage): UnionPlan {
    const known = this.unions.get(declared);
    if (known !== undefined) return known;
    const schema = declared.schema as UnionSchema;
    const byTag = new Map<unknown, number>();
    const plan: UnionPlan = {
      name: declared.name,
      tag: schema.tag,
      variants: [],
      fieldNames: declared.variants.map((variant) => variant.name),
      slots: [],
      byTag,
    };
    this.unions.set(declared, plan);
    declared.variants.forEach((variant, index) => {
      const tag = schema.variants[index]?.fields.find((field) => field.name === schema.tag)?.schema;
      if (tag?.kind === 'literal') byTag.set(tag.value, index);
      const message = this.message(variant.message);
      plan.variants.push(message);
      plan.slots.push(this.body(slot(MESSAGE, LEN, { message, kind: 'object', levels: 1 })));
    });
    return plan;
  }

  /** A field as the layout declares it. */
  private field(declared: ProtoField, name = declared.def.name): FieldPlan {
    const { def, inner, label } = declared;
    const { schema, id: number } = def;
    if (label === 'literal' && schema.kind === 'literal') return this.omitted(name, number, schema.value);
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
      rivals: undefined as readonly string[] | undefined,
    };
    const value = declared.value as ProtoValue;
    switch (label) {
      case 'optional': {
        const present = this.value(value, 0);
        return { ...base, mode: PRESENT, tag: number * 8 + present.wire, slot: present };
      }
      case 'repeated': {
        const item = this.element(value);
        const items = inner.kind === 'array' ? itemsRule(inner) : undefined;
        return {
          ...base,
          mode: REPEATED,
          // Packed, the list is one length-delimited field; unpacked, each item has its own key.
          tag: number * 8 + (declared.packed ? LEN : item.wire),
          slot: item,
          packed: declared.packed,
          items,
        };
      }
      case 'map': {
        const key = this.value(declared.key as ProtoValue, 0);
        const entry = this.element(value);
        return { ...base, mode: MAP, tag: number * 8 + LEN, slot: entry, key, intKeys: key.type !== STRING };
      }
      default: {
        const single = this.value(value, 0);
        return { ...base, mode: SINGLE, tag: number * 8 + single.wire, slot: single };
      }
    }
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
      rivals: undefined,
      mode: OMITTED,
      tag: 0,
      slot: slot(LITERAL, LEN, { literal: value }),
    };
  }

  /**
   * An array element or map value. It sits one level below its container, the array or map being a
   * level of the value.
   */
  private element(value: ProtoValue): Slot {
    const leaf = this.value(value, 1);
    // Only what is entered (messages, unions, Timestamps) or nests (json) has a depth to carry.
    if (
      leaf.type === WRAPPER ||
      (leaf.type !== MESSAGE &&
        leaf.type !== UNION &&
        leaf.type !== EITHER &&
        leaf.type !== TIMESTAMP &&
        leaf.type !== JSON_TEXT &&
        leaf.type !== JSON_MESSAGE)
    ) {
      return leaf;
    }
    const element = slot(leaf.type, leaf.wire, { ...leaf, levels: leaf.levels + 1, need: leaf.levels + 1 });
    return leaf.type === MESSAGE ? this.body(element) : element;
  }

  /**
   * The root's generated message. Its field is named after what it holds (`items`, `entries`,
   * `value`), where the .proto says `value`: the name only shows in decode errors.
   */
  private rootWrapper(schema: Schema, declared: ProtoField): Slot {
    const name = schema.kind === 'array' ? 'items' : schema.kind === 'map' ? 'entries' : 'value';
    return this.body(
      slot(WRAPPER, LEN, { wrapped: this.field(declared, name), kind: schema.kind, levels: 0 }),
    );
  }

  /** A generated message of one field numbered 1 (`items`, `entries` or `value`). */
  private wrapper(message: ProtoMessage, levels: number): Slot {
    const declared = message.fields[0] as ProtoField;
    const kind = declared.def.schema.kind;
    // A well-known wrapper (google.protobuf.Int32Value…) is named for ProtoJSON, which writes its bare value.
    const protoNames = /^\.?google\.protobuf\./.test(message.name) ? [message.name] : undefined;
    return this.body(slot(WRAPPER, LEN, { wrapped: this.field(declared), kind, levels, protoNames }));
  }

  /** One value's slot; `levels` is what a generated wrapper adds (1 as an element, else 0). */
  private value(value: ProtoValue, levels: number): Slot {
    switch (value.is) {
      case 'message': {
        const { message } = value;
        if (message.origin === 'wrapper') return this.wrapper(message, levels);
        if (message.origin === 'either') return this.eitherSlot(message);
        return message.origin === 'object' ? this.messageSlot(message) : this.unionSlot(message);
      }
      case 'enum':
        return this.enumeration(value.enum.schema, value.enum.values);
      case 'json':
        return slot(JSON_MESSAGE, LEN, {
          jsonForm: value.schema.proto,
          rule: schemaRule(value.schema),
          kind: 'json',
        });
      case 'timestamp':
        return slot(TIMESTAMP, LEN, {
          precision: value.schema.precision,
          rule: schemaRule(value.schema),
        });
      case 'scalar':
        return scalar(value);
    }
  }

  private enumeration(node: EnumSchema, protoNames: readonly string[]): Slot {
    let known = this.enums.get(node);
    if (known === undefined) {
      // memberIndex gives each member's number: its position, or the number a .proto gave it.
      const { numbers } = node;
      const memberIndex = new Map<unknown, number>(
        node.members.map((member, index) => [member, numbers?.[index] ?? index]),
      );
      const numbered =
        numbers === undefined
          ? undefined
          : new Map(node.members.map((member, i) => [numbers[i] as number, member]));
      known = slot(ENUM, VARINT, {
        members: node.members,
        memberIndex,
        numbered,
        kind: node.name,
        protoNames,
      });
      this.enums.set(node, known);
    }
    return known;
  }
}

/** A scalar's slot: the proto type gives the wire type, the schema kind how the value maps onto it. */
function scalar(value: Extract<ProtoValue, { is: 'scalar' }>): Slot {
  const { type, schema: node } = value;
  if (node.kind === 'literal') return slot(LITERAL, wireOf[type], { literal: node.value });
  switch (type) {
    case 'int32':
    case 'sint32':
    case 'sfixed32':
    case 'uint32':
    case 'fixed32': {
      const kind = node.kind as SmallIntKind;
      // The schema's bounds where it has them (t.int32({ min, max })), else the kind's range.
      const [min, max] = isSmallInt(node) ? intRange(node) : smallIntRange[kind];
      // Bounds that leave out 0, the value proto3 does not write: the default is held to them.
      const rule = isSmallInt(node) && (min > 0 || max < 0) ? intRule(node) : undefined;
      return slot(smallIntTypes[type], wireOf[type], { min, max, kind, rule });
    }
    case 'int64':
    case 'sint64':
    case 'sfixed64':
    case 'uint64':
    case 'fixed64':
      return slot(largeIntTypes[type], wireOf[type], {
        asNumber: node.kind === 'int64' || node.kind === 'uint64' ? node.as === 'number' : false,
        kind: node.kind,
      });
    case 'string':
      return node.kind === 'decimal'
        ? slot(DECIMAL, LEN, { rule: schemaRule(node), decimalBounds: decimalBounds(node) })
        : node.kind === 'json'
          ? slot(JSON_TEXT, LEN)
          : slot(STRING, LEN, { rule: schemaRule(node) });
    case 'bytes':
      return slot(BYTES, LEN, { rule: schemaRule(node) });
    case 'bool':
      return slot(BOOL, VARINT);
    // A bounded float's rule holds every value, the unwritten 0 too (t.float64({ min: 1 })).
    case 'float':
      return slot(FLOAT, FIXED32, { rule: schemaRule(node) });
    case 'double':
      return slot(DOUBLE, FIXED64, { rule: schemaRule(node) });
  }
}

const smallIntTypes = { int32: INT32, sint32: SINT32, sfixed32: SFIXED32, uint32: UINT32, fixed32: UFIXED32 };
const largeIntTypes = { int64: INT64, sint64: SINT64, sfixed64: SFIXED64, uint64: UINT64, fixed64: UFIXED64 };

/** Whether a message or wrapper always holds an array or map, whose level counts even when empty. */
function holdsList(body: Slot): boolean {
  const fields =
    body.message !== undefined ? body.message.fields : body.wrapped !== undefined ? [body.wrapped] : [];
  return fields.some((field) => field.mode === REPEATED || field.mode === MAP);
}
