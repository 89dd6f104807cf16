/**
 * Schema resolution (Avro 1.11 spec, "Schema Resolution"): a read plan that reads bytes written with
 * the *writer's* Avro schema and builds values of the *reader's* wirekit schema. Reading with the
 * codec's own export is the special case where both sides agree everywhere.
 *
 * Fields match by name, by a reader alias, or by a writer alias (a rename made after the reader was
 * written: beyond the specification, but the writer states it); writer-only fields are skipped
 * (or, with `unknownKeys: 'reject'`, refused where a value holds one);
 * reader-only fields take their default (or a literal's value, or stay absent when optional). Numbers promote int → long →
 * float → double, strings and bytes read as each other, enums map symbols by name, records match
 * by unqualified name or alias. A writer union resolves branch by branch, and a branch that cannot
 * resolve fails only if data ever selects it.
 */

import { formatPath, type Path, WirekitError } from '../../../errors/index.js';
import { describeBranches } from '../../../schema/either.js';
import type {
  EitherSchema,
  FieldDef,
  IntSchema,
  LiteralValue,
  NamedTypeInfo,
  ObjectSchema,
  Schema,
  UnionSchema,
} from '../../../schema/index.js';
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
import { type AvroNamed, type AvroRecord, type AvroType, shortName } from '../avro-schema.js';
import {
  EntryRole,
  type Fill,
  type IntMapRead,
  LongAs,
  perMilliOf,
  R,
  type ReadPlan,
  type RecordRead,
} from '../plan.js';
import { decimalByteLimit } from '../values.js';
import { eitherCandidates } from './resolve-either.js';

interface Context {
  readonly records: Map<AvroRecord, Map<ObjectSchema, RecordRead>>;
  /** `unknownKeys: 'reject'`: a writer field the reader lacks is refused when a value holds one. */
  readonly rejectUnknown: boolean;
  /** A reader union's variants by unqualified name or alias, made once per union (see `variantOf`). */
  readonly variants: Map<UnionSchema, Map<string, number>>;
  /** Minimum sizes of writer records, so that nested records are summed once each. */
  readonly sizes: Map<AvroType, number>;
}

/** Decimals wider than this many digits are refused: converting them costs quadratic time. */
const maxDecimalDigits = 1000;

/** A read plan, and whether the value is the `value` field of a wrapper record (non-record roots). */
export interface RootReadPlan {
  readonly plan: ReadPlan;
  readonly unwrap: boolean;
}

export function readPlanOf(writer: AvroType, reader: Schema, rejectUnknown = false): RootReadPlan {
  const ctx: Context = { records: new Map(), variants: new Map(), sizes: new Map(), rejectUnknown };
  const root = deref(reader);
  if (root.kind === 'object' || root.kind === 'union' || writer.type !== 'record') {
    return { plan: resolve(writer, reader, ctx, []), unwrap: false };
  }
  // The exporter wraps other roots in a record with one field, `value`; read through it.
  const wrapper = {
    kind: 'object',
    name: shortName(writer.name),
    fields: [{ name: 'value', id: 1, schema: reader }],
  } as unknown as ObjectSchema;
  const plan = record(writer, wrapper, ctx, []);
  const only = plan.names.length === 1 && plan.names[0] === 'value' && plan.fills.length === 0;
  return only ? { plan: plan.plans[0] as ReadPlan, unwrap: false } : { plan, unwrap: true };
}

function fail(path: Path, message: string): never {
  throw new WirekitError(
    'WK_DECODE_SCHEMA_MISMATCH',
    `Avro resolution${path.length === 0 ? '' : ` at ${formatPath(path)}`}: ${message}`,
    { path },
  );
}

function describe(type: AvroType): string {
  return 'name' in type ? `${type.type} ${type.name}` : type.type;
}

function resolve(writer: AvroType, reader: Schema, ctx: Context, path: Path): ReadPlan {
  if (writer.type !== 'union') return branch(writer, deref(reader), ctx, path);
  let failure: WirekitError | undefined;
  const branches = writer.branches.map((type): ReadPlan => {
    try {
      return branch(type, deref(reader), ctx, path);
    } catch (error) {
      if (!(error instanceof WirekitError) || error.code !== 'WK_DECODE_SCHEMA_MISMATCH') throw error;
      failure = error;
      return { op: R.Error, message: error.message };
    }
  });
  // Only a union none of whose branches can be read is an error before any data arrives.
  if (failure !== undefined && branches.every((b) => b.op === R.Error)) throw failure;
  return { op: R.Union, branches };
}

type Concrete = Exclude<Schema, { kind: 'ref' }>;

function branch(writer: AvroType, reader: Concrete, ctx: Context, path: Path): ReadPlan {
  const w = writer.type;
  const mismatch = (): never =>
    fail(path, `the writer's ${describe(writer)} cannot be read as ${reader.kind}.`);
  switch (reader.kind) {
    case 'optional':
    case 'nullable': {
      let core: Schema = reader;
      let nullValue: null | undefined;
      while (core.kind === 'optional' || core.kind === 'nullable') {
        if (core.kind === 'nullable') nullValue = null;
        core = core.inner;
      }
      if (w === 'null') return { op: R.Const, value: nullValue };
      return branch(writer, deref(core), ctx, path);
    }
    case 'either':
      return eitherBranch(writer, reader, ctx, path);
    case 'union': {
      if (writer.type !== 'record') return mismatch();
      const variant = variantOf(writer, reader, ctx);
      if (variant === undefined)
        fail(path, `no variant of ${reader.name} matches the writer's ${writer.name}.`);
      return record(writer, variant, ctx, path);
    }
    case 'bool':
      return w === 'boolean' ? { op: R.Bool } : mismatch();
    case 'int8':
    case 'int16':
    case 'int32':
    case 'uint8':
    case 'uint16': {
      const [min, max] = intRange(reader as IntSchema);
      return w === 'int' ? { op: R.Int, min, max } : mismatch();
    }
    case 'uint32':
      return w === 'int' || w === 'long'
        ? { op: R.Long, as: LongAs.Uint32, ...boundedRange(reader) }
        : mismatch();
    case 'int64':
    case 'uint64': {
      if (w !== 'int' && w !== 'long') return mismatch();
      const signed = reader.kind === 'int64';
      const big = reader.as === 'bigint';
      const as = signed
        ? big
          ? LongAs.BigInt
          : LongAs.Number
        : big
          ? LongAs.UnsignedBigInt
          : LongAs.UnsignedNumber;
      return { op: R.Long, as };
    }
    case 'float32': {
      const rule = floatRule(reader);
      if (w === 'int' || w === 'long') return { op: R.Long, as: LongAs.Float32, rule };
      return w === 'float' ? { op: R.Float, rule } : mismatch();
    }
    case 'float64': {
      const rule = floatRule(reader);
      if (w === 'int' || w === 'long') return { op: R.Long, as: LongAs.Float64, rule };
      return w === 'float' ? { op: R.Float, rule } : w === 'double' ? { op: R.Double, rule } : mismatch();
    }
    case 'decimal':
      return decimal(writer, reader, path, mismatch);
    case 'string':
      return w === 'string' || w === 'bytes' ? { op: R.String, rule: stringRule(reader) } : mismatch();
    case 'json':
      return w === 'string' || w === 'bytes' ? { op: R.Json, rule: jsonRule(reader) } : mismatch();
    case 'bytes':
      if (writer.type === 'fixed') return { op: R.Fixed, size: writer.size, rule: bytesRule(reader) };
      return w === 'bytes' || w === 'string' ? { op: R.Bytes, rule: bytesRule(reader) } : mismatch();
    case 'timestamp': {
      if (writer.type !== 'long' && writer.type !== 'int') return mismatch();
      const unit = /(millis|micros|nanos)$/.exec(writer.logicalType ?? '')?.[1];
      const perMilli =
        unit === 'millis'
          ? 1
          : unit === 'micros'
            ? 1000
            : unit === 'nanos'
              ? 1e6
              : perMilliOf[reader.precision];
      return { op: R.Timestamp, perMilli, rule: timestampRule(reader) };
    }
    case 'enum': {
      if (writer.type !== 'enum' || !namesMatch(writer, reader)) return mismatch();
      const members = new Set<string>(reader.members);
      return {
        op: R.Enum,
        name: reader.name,
        symbols: writer.symbols.map((symbol) => (members.has(symbol) ? symbol : undefined)),
      };
    }
    case 'literal':
      return {
        op: R.Literal,
        inner: branch(writer, literalBase(reader.value), ctx, path),
        value: reader.value,
      };
    case 'object':
      if (writer.type !== 'record' || !namesMatch(writer, reader)) return mismatch();
      return record(writer, reader, ctx, path);
    case 'array':
      if (writer.type !== 'array') return mismatch();
      return {
        op: R.Array,
        items: resolve(writer.items, reader.items, ctx, path),
        itemSize: minSize(writer.items, ctx.sizes),
        rule: itemsRule(reader),
      };
    case 'map':
      if (reader.keys.kind === 'string') {
        if (writer.type !== 'map') return mismatch();
        const values = resolve(writer.values, reader.values, ctx, path);
        return {
          op: R.Map,
          values,
          entrySize: 1 + minSize(writer.values, ctx.sizes),
          keyRule: stringRule(reader.keys),
        };
      }
      if (writer.type !== 'array' || writer.items.type !== 'record') return mismatch();
      return intMap(writer.items, reader.keys, reader.values, ctx, path);
  }
}

/**
 * A writer type read as an either, by the reader branch Avro's resolution of a union picks
 * (resolve-either.ts); a failure inside a named type's branch is the failure, as for any named type.
 */
function eitherBranch(writer: AvroType, reader: EitherSchema, ctx: Context, path: Path): ReadPlan {
  const { named, targets } = eitherCandidates(writer, reader, (target) =>
    target.kind === 'union'
      ? writer.type === 'record' && variantOf(writer, target, ctx) !== undefined
      : (target.kind === 'object' || target.kind === 'enum') && namesMatch(writer as AvroNamed, target),
  );
  for (const target of targets) {
    if (named) return branch(writer, target, ctx, path);
    try {
      return branch(writer, target, ctx, path);
    } catch (error) {
      if (!(error instanceof WirekitError) || error.code !== 'WK_DECODE_SCHEMA_MISMATCH') throw error;
    }
  }
  return fail(path, `no branch of ${describeBranches(reader)} reads the writer's ${describe(writer)}.`);
}

function decimal(
  writer: AvroType,
  reader: Extract<Schema, { kind: 'decimal' }>,
  path: Path,
  mismatch: () => never,
): ReadPlan {
  const native = reader.precision !== undefined && reader.scale !== undefined;
  if ((writer.type === 'bytes' || writer.type === 'fixed') && writer.logicalType === 'decimal') {
    const scale = writer.scale ?? 0;
    if (reader.scale !== undefined && reader.scale !== scale) {
      fail(path, `the writer's decimal has scale ${scale}, the reader's ${reader.scale}.`);
    }
    const precision = Math.min(writer.precision ?? 1, reader.precision ?? maxDecimalDigits, maxDecimalDigits);
    return {
      op: R.DecimalBytes,
      scale,
      precision,
      maxBytes: decimalByteLimit(precision),
      unscaledLimit: 10 ** precision,
      fixedSize: writer.type === 'fixed' ? writer.size : -1,
    };
  }
  if (!native && (writer.type === 'string' || writer.type === 'bytes')) {
    return { op: R.DecimalString, rule: decimalRule(reader) };
  }
  return mismatch();
}

function record(writer: AvroRecord, reader: ObjectSchema, ctx: Context, path: Path): RecordRead {
  let byReader = ctx.records.get(writer);
  if (byReader === undefined) {
    byReader = new Map();
    ctx.records.set(writer, byReader);
  }
  const known = byReader.get(reader);
  if (known !== undefined) return known;
  const plan: RecordRead = { op: R.Record, names: [], plans: [], fills: [], oneofs: oneofRule(reader) };
  byReader.set(reader, plan);
  const matched = new Set<FieldDef>();
  // The reader's fields by name, by alias and by place, and the writer's names: each field is
  // matched by lookups, so a record of n fields costs n steps, not n².
  const byName = new Map<string, FieldDef>();
  const byAlias = new Map<string, FieldDef>();
  const place = new Map<FieldDef, number>();
  reader.fields.forEach((f, i) => {
    if (!byName.has(f.name)) byName.set(f.name, f);
    for (const alias of f.aliases ?? []) if (!byAlias.has(alias)) byAlias.set(alias, f);
    place.set(f, i);
  });
  const writerNames = new Set(writer.fields.map((w) => w.name));
  for (const field of writer.fields) {
    let target = byName.get(field.name) ?? byAlias.get(field.name);
    // Beyond the specification (which looks at reader aliases only): a writer field whose aliases
    // name a reader field is that field renamed, so a reader older than the rename still reads
    // it (Avro's Java resolver applies writer aliases to record names, and so does ours). The
    // reader field first in the reader's order wins.
    for (const alias of target === undefined ? field.aliases : []) {
      const renamed = byName.get(alias);
      if (renamed === undefined || writerNames.has(renamed.name)) continue;
      if (target === undefined || (place.get(renamed) as number) < (place.get(target) as number))
        target = renamed;
    }
    if (target === undefined || matched.has(target)) {
      plan.names.push(null);
      plan.plans.push(
        ctx.rejectUnknown
          ? { op: R.Unknown, type: field.type, record: reader.name, name: field.name }
          : { op: R.Skip, type: field.type },
      );
      continue;
    }
    matched.add(target);
    plan.names.push(target.name);
    plan.plans.push(resolve(field.type, target.schema, ctx, [...path, target.name]));
  }
  for (const field of reader.fields) {
    if (matched.has(field)) continue;
    const fill = fillOf(field);
    if (fill !== undefined) plan.fills.push(fill);
    else if (field.schema.kind !== 'optional') {
      fail([...path, field.name], `the writer's ${writer.name} lacks ${field.name}, which has no default.`);
    }
  }
  return plan;
}

function fillOf(field: FieldDef): Fill | undefined {
  if (field.default !== undefined) {
    const value = field.default;
    return { name: field.name, value, copy: typeof value === 'object' && value !== null };
  }
  if (field.schema.kind === 'literal') return { name: field.name, value: field.schema.value, copy: false };
  return undefined;
}

function intMap(entry: AvroRecord, keys: Schema, values: Schema, ctx: Context, path: Path): IntMapRead {
  const roles: IntMapRead['roles'] = [];
  const plans: ReadPlan[] = [];
  for (const field of entry.fields) {
    if (field.name === 'key') {
      roles.push(EntryRole.Key);
      plans.push(resolve(field.type, keys, ctx, path));
    } else if (field.name === 'value') {
      roles.push(EntryRole.Value);
      plans.push(resolve(field.type, values, ctx, path));
    } else {
      roles.push(EntryRole.Skip);
      plans.push({ op: R.Skip, type: field.type });
    }
  }
  if (!roles.includes(EntryRole.Key) || !roles.includes(EntryRole.Value)) {
    fail(path, `the writer's entry record ${entry.name} needs fields key and value.`);
  }
  return { op: R.IntMap, roles, plans, entrySize: minSize(entry, ctx.sizes) };
}

const literalBases = {
  string: { kind: 'string' },
  boolean: { kind: 'bool' },
  number: { kind: 'float64' },
} as unknown as Record<'string' | 'boolean' | 'number', Concrete>;

function literalBase(value: LiteralValue): Concrete {
  return literalBases[typeof value as 'string' | 'boolean' | 'number'];
}

/** Unqualified names compare, so a reader need not repeat the writer's namespace. */
function namesMatch(writer: AvroNamed, reader: NamedTypeInfo): boolean {
  const names = new Set([reader.name, ...(reader.aliases ?? [])].map(shortName));
  return names.has(shortName(writer.name)) || writer.aliases.some((alias) => names.has(shortName(alias)));
}

/**
 * The first variant (in the reader's order) whose name or an alias is the writer record's name or
 * one of its aliases, unqualified, so a reader need not repeat the writer's namespace. The union's
 * names are indexed once, so a union of n variants read from a writer of n records costs n steps.
 */
function variantOf(writer: AvroNamed, reader: UnionSchema, ctx: Context): ObjectSchema | undefined {
  let index = ctx.variants.get(reader);
  if (index === undefined) {
    index = new Map();
    for (const [place, variant] of reader.variants.entries()) {
      for (const name of [variant.name, ...(variant.aliases ?? [])].map(shortName)) {
        if (!index.has(name)) index.set(name, place);
      }
    }
    ctx.variants.set(reader, index);
  }
  let first: number | undefined;
  for (const name of [writer.name, ...writer.aliases].map(shortName)) {
    const place = index.get(name);
    if (place !== undefined && (first === undefined || place < first)) first = place;
  }
  return first === undefined ? undefined : reader.variants[first];
}

/** The fewest bytes a value of `type` takes: bounds how many items a block count can claim. */
function minSize(type: AvroType, sizes: Map<AvroType, number>): number {
  switch (type.type) {
    case 'null':
      return 0;
    case 'float':
      return 4;
    case 'double':
      return 8;
    case 'fixed':
      return type.size;
    case 'record': {
      const known = sizes.get(type);
      if (known !== undefined) return known;
      // A record met again inside itself counts as 0: still a lower bound.
      sizes.set(type, 0);
      let size = 0;
      for (const field of type.fields) size += minSize(field.type, sizes);
      sizes.set(type, size);
      return size;
    }
    default:
      return 1;
  }
}
