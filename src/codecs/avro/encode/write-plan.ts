/**
 * Builds the encoder's plan by walking a wirekit schema alongside its Avro export (parsed), so that
 * what the encoder writes is, field for field and branch for branch, what the exported schema
 * describes: literal fields left out, "null" at the index the exporter chose, entry records for
 * integer-keyed maps.
 */

import { WirekitBug } from '../../../errors/index.js';
import type { EitherSchema, IntSchema, ObjectSchema, Schema, UnionSchema } from '../../../schema/index.js';
import { deref } from '../../../schema/index.js';
import { boundedRange, intRange } from '../../../schema/int-ranges.js';
import { oneofRule } from '../../../schema/oneofs.js';
import {
  bytesRule,
  decimalRule,
  floatRule,
  itemsRule,
  jsonRule,
  stringRule,
  timestampRule,
} from '../../../schema/value-rules.js';
import type { AvroRecord, AvroType } from '../avro-schema.js';
import { type EitherWrite, LongAs, perMilliOf, type RecordWrite, W, type WritePlan } from '../plan.js';

interface Context {
  readonly records: Map<AvroRecord, Map<ObjectSchema, RecordWrite>>;
}

export function writePlanOf(avro: AvroType, schema: Schema): WritePlan {
  return plan(avro, schema, { records: new Map() });
}

function internal(message: string): never {
  throw new WirekitBug(`Avro: the schema and its Avro export disagree (${message})`);
}

function plan(avro: AvroType, schema: Schema, ctx: Context): WritePlan {
  const node = deref(schema);
  switch (node.kind) {
    case 'bool':
      return { op: W.Bool };
    case 'int8':
    case 'int16':
    case 'int32':
    case 'uint8':
    case 'uint16': {
      const [min, max] = intRange(node as IntSchema);
      return { op: W.Int, min, max, kind: node.kind };
    }
    case 'uint32':
      return { op: W.Long, as: LongAs.Uint32, kind: node.kind, ...boundedRange(node) };
    case 'int64':
      return { op: W.Long, as: node.as === 'bigint' ? LongAs.BigInt : LongAs.Number, kind: node.kind };
    case 'uint64':
      return {
        op: W.Long,
        as: node.as === 'bigint' ? LongAs.UnsignedBigInt : LongAs.UnsignedNumber,
        kind: node.kind,
      };
    case 'float32':
      return { op: W.Float, rule: floatRule(node) };
    case 'float64':
      return { op: W.Double, rule: floatRule(node) };
    case 'decimal':
      if ((avro.type === 'bytes' || avro.type === 'fixed') && avro.logicalType === 'decimal') {
        const [scale, precision] = [node.scale ?? 0, node.precision ?? 0];
        const fixedSize = avro.type === 'fixed' ? avro.size : -1;
        return { op: W.DecimalBytes, scale, precision, rule: decimalRule(node), fixedSize };
      }
      return { op: W.DecimalString, rule: decimalRule(node) };
    case 'string':
      return { op: W.String, rule: stringRule(node) };
    case 'json':
      return { op: W.Json, rule: jsonRule(node) };
    case 'bytes':
      return avro.type === 'fixed'
        ? { op: W.Fixed, size: avro.size, rule: bytesRule(node) }
        : { op: W.Bytes, rule: bytesRule(node) };
    case 'timestamp':
      return { op: W.Timestamp, perMilli: perMilliOf[node.precision], rule: timestampRule(node) };
    case 'enum': {
      if (avro.type !== 'enum') internal(`enum ${node.name}`);
      return { op: W.Enum, name: node.name, indexes: new Map(avro.symbols.map((symbol, i) => [symbol, i])) };
    }
    case 'literal': {
      const value = node.value;
      const inner: WritePlan =
        typeof value === 'string'
          ? { op: W.String }
          : typeof value === 'boolean'
            ? { op: W.Bool }
            : { op: W.Double };
      return { op: W.Literal, inner, value };
    }
    case 'object':
      if (avro.type !== 'record') internal(`record ${node.name}`);
      return record(avro, node, ctx);
    case 'array':
      if (avro.type !== 'array') internal('array');
      return { op: W.Array, items: plan(avro.items, node.items, ctx), rule: itemsRule(node) };
    case 'map': {
      if (node.keys.kind === 'string') {
        if (avro.type !== 'map') internal('map');
        return { op: W.Map, values: plan(avro.values, node.values, ctx), keyRule: stringRule(node.keys) };
      }
      const entry = avro.type === 'array' ? avro.items : undefined;
      if (entry?.type !== 'record') internal('map entry record');
      const [key, value] = entry.fields;
      if (key === undefined || value === undefined) internal('map entry fields');
      return { op: W.IntMap, key: plan(key.type, node.keys, ctx), value: plan(value.type, node.values, ctx) };
    }
    case 'optional':
    case 'nullable':
      return option(avro, node, ctx);
    case 'either':
      if (avro.type !== 'union') internal('either');
      return either(avro.branches, avro.branches.keys(), node, ctx);
    case 'union':
      if (avro.type !== 'union') internal(`union ${node.name}`);
      return tagged(avro.branches, avro.branches.keys(), node, ctx);
  }
}

function record(avro: AvroRecord, schema: ObjectSchema, ctx: Context): RecordWrite {
  let bySchema = ctx.records.get(avro);
  if (bySchema === undefined) {
    bySchema = new Map();
    ctx.records.set(avro, bySchema);
  }
  const known = bySchema.get(schema);
  if (known !== undefined) return known;
  const out: RecordWrite = {
    op: W.Record,
    name: schema.name,
    names: [],
    plans: [],
    literals: [],
    oneofs: oneofRule(schema),
  };
  bySchema.set(schema, out);
  // By name, both ways, so a record of n fields is planned in n steps.
  const defs = new Map(schema.fields.map((f) => [f.name, f]));
  const written = new Set(avro.fields.map((f) => f.name));
  for (const field of avro.fields) {
    const def = defs.get(field.name);
    if (def === undefined) internal(`${schema.name}.${field.name}`);
    out.names.push(field.name);
    out.plans.push(plan(field.type, def.schema, ctx));
  }
  for (const def of schema.fields) {
    if (def.schema.kind === 'literal' && !written.has(def.name)) {
      out.literals.push({ name: def.name, value: def.schema.value });
    }
  }
  return out;
}

/** optional / nullable, possibly stacked, around a value type or a tagged union. */
function option(avro: AvroType, schema: Schema, ctx: Context): WritePlan {
  if (avro.type !== 'union') internal('a nullable type without a union');
  let core = schema;
  let undefinedIsNull = false;
  let nullIsNull = false;
  while (core.kind === 'optional' || core.kind === 'nullable') {
    if (core.kind === 'optional') undefinedIsNull = true;
    else nullIsNull = true;
    core = core.inner;
  }
  const nullIndex = avro.branches.findIndex((branch) => branch.type === 'null');
  if (nullIndex === -1) internal('a nullable type without "null"');
  const valueIndexes = [...avro.branches.keys()].filter((i) => i !== nullIndex);
  const target = deref(core);
  if (target.kind === 'union' || target.kind === 'either') {
    const inner =
      target.kind === 'union'
        ? tagged(avro.branches, valueIndexes.values(), target, ctx)
        : either(avro.branches, valueIndexes.values(), target, ctx);
    return { op: W.Option, nullIndex, valueIndex: -1, inner, undefinedIsNull, nullIsNull };
  }
  const valueIndex = valueIndexes[0];
  if (valueIndex === undefined || valueIndexes.length !== 1) internal('a nullable type with several values');
  const inner = plan(avro.branches[valueIndex] as AvroType, core, ctx);
  return { op: W.Option, nullIndex, valueIndex, inner, undefinedIsNull, nullIsNull };
}

/**
 * The exporter writes an either's branches in order, a tagged union's records in its place (export/
 * avro.ts), so the Avro indexes are taken in turn: one per branch, one per record of a union.
 */
function either(
  branches: readonly AvroType[],
  indexes: Iterator<number>,
  schema: EitherSchema,
  ctx: Context,
): EitherWrite {
  const take = (): number => {
    const next = indexes.next();
    if (next.done === true) internal('an either with more branches than its union');
    return next.value;
  };
  const out = schema.branches.map((branch) => {
    const target = deref(branch);
    if (target.kind === 'union') {
      const own = target.variants.map(take);
      return { index: -1, plan: tagged(branches, own, target, ctx) };
    }
    const index = take();
    return { index, plan: plan(branches[index] as AvroType, target, ctx) };
  });
  if (indexes.next().done !== true) internal('an either with fewer branches than its union');
  return { op: W.Either, schema, branches: out };
}

/** The exporter writes variants in order, so the i-th non-null branch is the i-th variant. */
function tagged(
  branches: readonly AvroType[],
  indexes: Iterable<number>,
  schema: UnionSchema,
  ctx: Context,
): WritePlan {
  const out = new Map<unknown, { index: number; plan: WritePlan }>();
  const order = [...indexes];
  if (order.length !== schema.variants.length) internal(`union ${schema.name}`);
  schema.variants.forEach((variant, i) => {
    const index = order[i] as number;
    const tag = variant.fields.find((f) => f.name === schema.tag)?.schema;
    if (tag?.kind !== 'literal') internal(`union ${schema.name} tag`);
    out.set(tag.value, { index, plan: plan(branches[index] as AvroType, variant, ctx) });
  });
  return { op: W.Tagged, name: schema.name, tag: schema.tag, branches: out };
}
