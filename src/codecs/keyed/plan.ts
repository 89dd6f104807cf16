/**
 * A schema, precomputed for the MessagePack and CBOR interpreters: each node becomes one `Plan` of
 * a single shape (so the interpreter's property loads stay monomorphic), with refs resolved, field
 * names pre-encoded as UTF-8 for byte-wise key matching, and ranges looked up once. Plans hold no
 * format bytes, so both formats share them; they are cached per schema node, and the cache holds
 * only what is computed from the immutable schema.
 */

import { branchTable, type ValueClass } from '../../schema/either.js';
import type { LiteralValue, Schema } from '../../schema/index.js';
import { intRange, isSmallInt, largeIntRange } from '../../schema/int-ranges.js';
import { oneofRule } from '../../schema/oneofs.js';
import type { EitherSchema } from '../../schema/types.js';
import { type Rule, schemaRule } from '../../schema/value-rules.js';
import { ItemKind } from './wire.js';

export const Op = {
  bool: 0,
  int: 1,
  int64: 2,
  float32: 3,
  float64: 4,
  decimal: 5,
  string: 6,
  bytes: 7,
  timestamp: 8,
  enum: 9,
  literal: 10,
  object: 11,
  array: 12,
  map: 13,
  optional: 14,
  nullable: 15,
  union: 16,
  json: 17,
  either: 18,
} as const;

/** In `Plan.byItem`: no branch takes the item; or an object branch is chosen by the map's keys. */
export const noBranch = -1;
export const byKeys = -2;

const utf8 = new TextEncoder();

export class FieldPlan {
  readonly key: Uint8Array;
  constructor(
    readonly name: string,
    /** The plan of the value when present (the inner plan of an optional field). */
    readonly plan: Plan,
    readonly optional: boolean,
    readonly hasDefault: boolean,
    readonly defaultValue: unknown,
  ) {
    this.key = utf8.encode(name);
  }
}

export class Variant {
  readonly tagBytes: Uint8Array;
  constructor(
    readonly tag: string,
    readonly plan: Plan,
  ) {
    this.tagBytes = utf8.encode(tag);
  }
}

export class Plan {
  /** A name for messages: the kind, or the type name of named types. */
  label: string;
  min = 0;
  max = 0;
  bigMin = 0n;
  bigMax = 0n;
  asBigint = false;
  /** Array items, map values, and the inner plan of optional and nullable. */
  inner: Plan | undefined = undefined;
  /** Map keys. */
  keys: Plan | undefined = undefined;
  fields: readonly FieldPlan[] = [];
  /** Fields that may be absent from the wire (optional, literal, or with a default). */
  lenientFields = 0;
  members: readonly string[] = [];
  memberSet: ReadonlySet<unknown> = new Set();
  memberBytes: readonly Uint8Array[] = [];
  literal: LiteralValue = '';
  literalBytes: Uint8Array = new Uint8Array(0);
  tag = '';
  tagKey: Uint8Array = new Uint8Array(0);
  variants: readonly Variant[] = [];
  byTag: ReadonlyMap<unknown, Plan> = new Map();
  /** An either's schema and the plans of its branches, in branch order. */
  either: EitherSchema | undefined = undefined;
  branches: readonly Plan[] = [];
  /**
   * An either's branch for each `ItemKind` the reader can peek: the class of value that item is
   * (either.ts's table: a byte string, a timestamp or a tagged decimal is text), then its branch;
   * `byKeys` for a map when several object branches are told apart by their keys.
   */
  byItem: Int8Array = new Int8Array(0);
  /** NaN and the infinities are refused in this either (a text branch sits beside its number branch). */
  finiteOnly = false;
  /**
   * The constraints of a string, bytes, decimal, timestamp, array (value-rules.ts; for an array,
   * of its item count) or object (its oneof groups), which the writer and reader both hold values to; undefined where none.
   */
  rule: Rule<never> | undefined = undefined;
  /**
   * A decimal's bounds, as its rule holds it to them: digits before the point (precision - scale)
   * and after it (scale), infinite where the schema sets none. The readers and writers accept text
   * within them without calling the rule (schema/decimal.ts `decimalFits`); the rule speaks for the rest.
   */
  decimalInteger = Number.POSITIVE_INFINITY;
  decimalScale = Number.POSITIVE_INFINITY;

  constructor(readonly op: number) {
    this.label = '';
  }
}

const plans = new WeakMap<Schema, Plan>();

export function planOf(schema: Schema): Plan {
  const target = schema.kind === 'ref' ? schema.resolve() : schema;
  let plan = plans.get(target);
  if (plan === undefined) {
    plan = build(target);
    plans.set(target, plan);
    // Children are planned after the cache holds this node, so a recursive type finds itself.
    fill(plan, target);
  }
  return plan;
}

function build(schema: Exclude<Schema, { kind: 'ref' }>): Plan {
  const op = opOf(schema);
  const plan = new Plan(op);
  plan.label = 'name' in schema ? schema.name : schema.kind;
  return plan;
}

function opOf(schema: Exclude<Schema, { kind: 'ref' }>): number {
  if (isSmallInt(schema)) return Op.int;
  switch (schema.kind) {
    case 'int64':
    case 'uint64':
      return Op.int64;
    default:
      return Op[schema.kind];
  }
}

function fill(plan: Plan, schema: Exclude<Schema, { kind: 'ref' }>): void {
  plan.rule = schemaRule(schema);
  if (isSmallInt(schema)) {
    [plan.min, plan.max] = intRange(schema);
    return;
  }
  switch (schema.kind) {
    case 'decimal':
      // As value-rules.ts's decimalRule counts them.
      if (schema.precision !== undefined) plan.decimalInteger = schema.precision - (schema.scale ?? 0);
      if (schema.scale !== undefined) plan.decimalScale = schema.scale;
      return;
    case 'int64':
    case 'uint64':
      [plan.bigMin, plan.bigMax] = largeIntRange[schema.kind];
      plan.asBigint = schema.as === 'bigint';
      plan.min = schema.kind === 'uint64' ? 0 : Number.MIN_SAFE_INTEGER;
      plan.max = Number.MAX_SAFE_INTEGER;
      return;
    case 'enum':
      plan.members = schema.members;
      plan.memberSet = new Set(schema.members);
      plan.memberBytes = schema.members.map((member) => utf8.encode(member));
      return;
    case 'literal':
      plan.literal = schema.value;
      if (typeof schema.value === 'string') plan.literalBytes = utf8.encode(schema.value);
      return;
    case 'object':
      // An object's rule is its oneof groups' (schema/oneofs.ts): at most one member present.
      plan.rule = oneofRule(schema) as Rule<never> | undefined;
      plan.fields = schema.fields.map((field) => {
        const optional = field.schema.kind === 'optional';
        const inner = field.schema.kind === 'optional' ? field.schema.inner : field.schema;
        return new FieldPlan(field.name, planOf(inner), optional, field.default !== undefined, field.default);
      });
      plan.lenientFields = plan.fields.filter(
        (f) => f.optional || f.hasDefault || f.plan.op === Op.literal,
      ).length;
      return;
    case 'array':
      plan.inner = planOf(schema.items);
      return;
    case 'map':
      plan.keys = planOf(schema.keys);
      plan.inner = planOf(schema.values);
      return;
    case 'optional':
    case 'nullable':
      plan.inner = planOf(schema.inner);
      return;
    case 'union': {
      plan.tag = schema.tag;
      plan.tagKey = utf8.encode(schema.tag);
      plan.variants = schema.variants.map((variant) => {
        const tagField = variant.fields.find((f) => f.name === schema.tag);
        return new Variant(
          String(tagField?.schema.kind === 'literal' ? tagField.schema.value : ''),
          planOf(variant),
        );
      });
      plan.byTag = new Map(plan.variants.map((variant) => [variant.tag, variant.plan]));
      return;
    }
    case 'either':
      fillEither(plan, schema);
      return;
    default:
      return;
  }
}

/** Which class of value each kind of item on the wire is (either.ts's table, on the wire). */
const classOfItem: readonly (readonly [number, ValueClass])[] = [
  [ItemKind.bool, 'boolean'],
  [ItemKind.integer, 'number'],
  [ItemKind.float, 'number'],
  [ItemKind.string, 'text'],
  // Byte strings, MessagePack's timestamp extension, CBOR's tagged timestamps and decimals.
  [ItemKind.other, 'text'],
  [ItemKind.array, 'array'],
  [ItemKind.map, 'object'],
];

function fillEither(plan: Plan, schema: EitherSchema): void {
  const table = branchTable(schema);
  plan.either = schema;
  plan.branches = schema.branches.map(planOf);
  plan.byItem = new Int8Array(Object.keys(ItemKind).length).fill(noBranch);
  for (const [item, valueClass] of classOfItem) {
    plan.byItem[item] =
      valueClass === 'object' && table.objects.length > 0
        ? byKeys
        : (table.byClass.get(valueClass) ?? noBranch);
  }
  plan.finiteOnly = table.byClass.has('text');
}

/** Byte-wise equality of `bytes[start, end)` and `expected`. */
export function sameBytes(bytes: Uint8Array, start: number, end: number, expected: Uint8Array): boolean {
  if (end - start !== expected.length) return false;
  for (let i = 0; i < expected.length; i++) if (bytes[start + i] !== expected[i]) return false;
  return true;
}
