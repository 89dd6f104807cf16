/**
 * The rules only wirekit schemas carry: every wirekit decoder refuses a value its schema does not
 * accept (a range, a length, an enum member's place), so a reader must accept every value its
 * writer's schema accepts, or events that were valid when written fail to decode. These rules
 * report where the reader narrows the writer, and leave what they cannot judge soundly (a missing
 * field, a field number) to the format rules beside them. Each rule: docs/compatibility.md.
 */

import { classesOf } from '../../../schema/either.js';
import type {
  BytesSchema,
  FieldDef,
  FloatSchema,
  LiteralValue,
  ObjectSchema,
  Schema,
  UnionSchema,
} from '../../../schema/index.js';
import { deref } from '../../../schema/index.js';
import { intRange as boundsOf, isSmallInt, largeIntRange } from '../../../schema/int-ranges.js';
import { groupOfField } from '../../../schema/oneofs.js';
import { fitsFloat32, floatRule, maxEpochMillis, stringRule } from '../../../schema/value-rules.js';
import { CheckBudget, withinBudget } from './check-budget.js';
import { distinct, type Finding } from './issues.js';

export type WirekitErrorType =
  | 'PRESENCE_REQUIRED'
  | 'KIND_CHANGED'
  | 'VALUE_RANGE_NARROWED'
  | 'STRING_NARROWED'
  | 'BYTES_NARROWED'
  | 'ITEMS_NARROWED'
  | 'DECIMAL_NARROWED'
  | 'TIMESTAMP_NARROWED'
  | 'ENUM_MEMBER_REMOVED'
  | 'ENUM_MEMBER_MOVED'
  | 'LITERAL_CHANGED'
  | 'UNION_VARIANT_REMOVED'
  | 'UNION_TAG_CHANGED'
  | 'ONEOF_NARROWED';

/**
 * Where the reader refuses values the writer's schema accepts; empty when it accepts them all.
 * `nodes` is the two schemas' size, which bounds the check's work (check-budget.ts).
 */
export function wirekitValueFindings(reader: Schema, writer: Schema, nodes: number): Finding[] {
  const budget = new CheckBudget(nodes);
  return distinct(withinBudget(() => new ValueChecker(budget).check(reader, writer, '$')));
}

type Concrete = Exclude<Schema, { kind: 'ref' }>;

/**
 * Whether the reader's bytes take every length the writer's may hold: a size (the exact length,
 * an Avro fixed) takes only that size, so changing it, adding it or dropping it for a bound that
 * is smaller all narrow.
 */
function bytesNarrowing(r: BytesSchema, w: BytesSchema, path: string): Finding[] {
  const lengths = (b: BytesSchema) =>
    b.size !== undefined ? `size ${b.size}` : `maxLength ${b.maxLength ?? 'none'}`;
  const writerLongest = w.size ?? w.maxLength ?? Number.POSITIVE_INFINITY;
  const fits =
    r.size !== undefined ? w.size === r.size : r.maxLength === undefined || r.maxLength >= writerLongest;
  return fits ? [] : [narrowed('BYTES_NARROWED', path, `${lengths(w)} → ${lengths(r)}`)];
}

function narrowed(errorType: WirekitErrorType, path: string, detail: string): Finding {
  return {
    errorType,
    path,
    additionalInfo: detail,
    describe: ({ reader, writer }, at) =>
      `The value at path '${at}' in the ${reader} schema refuses values the ${writer} schema accepts`,
  };
}

/**
 * A reader's oneof group refuses an object holding two of its members, so it narrows the writer
 * when two or more of the writer fields it reads may be present together there: fields outside any
 * group, or in different groups. (Protocol Buffers' own rules, on the `.proto` exports, judge the
 * wire side: Confluent's MULTIPLE_FIELDS_MOVED_TO_ONEOF is the same case.) A group over one existing
 * field and new ones narrows nothing; a field moved out of a group widens.
 */
function oneofsNarrowed(
  r: ObjectSchema,
  w: ObjectSchema,
  read: ReadonlyMap<FieldDef, FieldDef>,
  path: string,
): Finding[] {
  const writerGroups = groupOfField(w);
  const byName = new Map(r.fields.map((field) => [field.name, field]));
  const findings: Finding[] = [];
  for (const group of r.oneofs ?? []) {
    const sources = group.fields.flatMap((name) => {
      const source = read.get(byName.get(name) as FieldDef);
      return source === undefined ? [] : [source];
    });
    if (sources.length < 2) continue;
    const owners = new Set(sources.map((source) => writerGroups.get(source.name)));
    if (owners.size === 1 && !owners.has(undefined)) continue;
    findings.push(
      narrowed(
        'ONEOF_NARROWED',
        path,
        `oneof ${group.name} holds ${sources.map((source) => source.name).join(', ')}, which the writer lets be present together`,
      ),
    );
  }
  return findings;
}

/** The inclusive range of an integer kind, in bigints, as validation applies it (`as: 'number'` stops at 2^53 - 1). */
function intRange(schema: Concrete): readonly [bigint, bigint] | undefined {
  if (isSmallInt(schema)) {
    const [min, max] = boundsOf(schema);
    return [BigInt(min), BigInt(max)];
  }
  switch (schema.kind) {
    case 'int64':
    case 'uint64': {
      const [min, max] = largeIntRange[schema.kind];
      if (schema.as === 'bigint') return [min, max];
      const safe = BigInt(Number.MAX_SAFE_INTEGER);
      return [min < -safe ? -safe : min, safe];
    }
    default:
      return undefined;
  }
}

function describeKind(schema: Concrete): string {
  if (isSmallInt(schema) && (schema.min !== undefined || schema.max !== undefined)) {
    const [min, max] = boundsOf(schema);
    return `${schema.kind} ${min}..${max}`;
  }
  if (schema.kind === 'int64' || schema.kind === 'uint64') return `${schema.kind} (as ${schema.as})`;
  if (schema.kind === 'literal') return `literal ${JSON.stringify(schema.value)}`;
  return 'name' in schema ? `${schema.kind} ${schema.name}` : schema.kind;
}

/**
 * A float reader whose bounds leave out some of the writer's values (a bounded reader leaves out
 * NaN and an infinity too, which an unbounded writer may write) narrows the range, as for integers.
 */
function floatBounds(r: FloatSchema, w: FloatSchema, path: string): Finding[] {
  const [rMin, rMax] = [r.min ?? -Infinity, r.max ?? Infinity];
  const [wMin, wMax] = [w.min ?? -Infinity, w.max ?? Infinity];
  if (rMin <= wMin && rMax >= wMax) return [];
  const bounds = (s: FloatSchema) => `${s.kind} ${s.min ?? '-Infinity'}..${s.max ?? 'Infinity'}`;
  return [narrowed('VALUE_RANGE_NARROWED', path, `${bounds(w)} read as ${bounds(r)}`)];
}

/** Kinds whose values a plain, unconstrained string reader takes as they are. */
const stringLike: ReadonlySet<string> = new Set(['string', 'json', 'decimal']);

/**
 * Whether a reader object branch would be chosen for the writer's objects: it requires no key the
 * writer's fields lack (either.ts picks object branches by keys). A map or union branch reads any.
 */
function readsKeysOf(branch: Concrete, writer: ObjectSchema): boolean {
  if (branch.kind !== 'object') return true;
  const names = new Set(writer.fields.map((field) => field.name));
  return branch.fields.every(
    (field) => field.schema.kind === 'optional' || field.default !== undefined || names.has(field.name),
  );
}

function fieldPath(path: string, name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`;
}

class ValueChecker {
  /** Named pairs compared or being compared: each is reported once, and recursion ends. */
  private readonly seen = new Map<Schema, Set<Schema>>();
  /** A reader object's fields by name, and by alias (the first field with it), made once per object. */
  private readonly fieldIndex = new Map<
    ObjectSchema,
    { byName: Map<string, FieldDef>; byAlias: Map<string, FieldDef> }
  >();
  /** A reader union's variants by name or alias (the first variant with it), made once per union. */
  private readonly variantIndex = new Map<UnionSchema, Map<string, ObjectSchema>>();

  constructor(private readonly budget: CheckBudget) {}

  check(reader: Schema, writer: Schema, path: string): Finding[] {
    this.budget.spend();
    let r = deref(reader);
    let w = deref(writer);
    const findings: Finding[] = [];
    const writerMayLack = w.kind === 'optional' || w.kind === 'nullable';
    const readerMayLack = r.kind === 'optional' || r.kind === 'nullable';
    if (writerMayLack && !readerMayLack) {
      findings.push(narrowed('PRESENCE_REQUIRED', path, `the ${w.kind} value must be present and not null`));
    }
    while (w.kind === 'optional' || w.kind === 'nullable') w = deref(w.inner);
    while (r.kind === 'optional' || r.kind === 'nullable') r = deref(r.inner);
    if (w.kind === 'either' || r.kind === 'either') return [...findings, ...this.either(r, w, path)];
    if (r.kind === 'object' || r.kind === 'union' || r.kind === 'enum') {
      let pairs = this.seen.get(r);
      if (pairs === undefined) {
        pairs = new Set();
        this.seen.set(r, pairs);
      }
      if (pairs.has(w)) return findings;
      pairs.add(w);
    }
    return [...findings, ...this.concrete(r, w, path)];
  }

  private concrete(r: Concrete, w: Concrete, path: string): Finding[] {
    const readerRange = intRange(r);
    const writerRange = intRange(w);
    if (readerRange !== undefined && writerRange !== undefined) {
      if (writerRange[0] >= readerRange[0] && writerRange[1] <= readerRange[1]) return [];
      return [narrowed('VALUE_RANGE_NARROWED', path, `${describeKind(w)} read as ${describeKind(r)}`)];
    }
    if (w.kind === 'literal') return this.literal(r, w.value, path);
    if (r.kind === 'literal') {
      return [
        narrowed(
          'LITERAL_CHANGED',
          path,
          `only ${JSON.stringify(r.value)} is accepted where ${describeKind(w)} was`,
        ),
      ];
    }
    if (r.kind !== w.kind) {
      if (w.kind === 'float32' && r.kind === 'float64') return floatBounds(r, w, path);
      if (w.kind === 'float64' && r.kind === 'float32') {
        return [narrowed('VALUE_RANGE_NARROWED', path, 'float64 read as float32 (overflows past ±3.4e38)')];
      }
      if (r.kind === 'string' && stringLike.has(w.kind) && stringRule(r) === undefined) return [];
      return [narrowed('KIND_CHANGED', path, `${describeKind(w)} read as ${describeKind(r)}`)];
    }
    return this.sameKind(r, w, path);
  }

  private sameKind(r: Concrete, w: Concrete, path: string): Finding[] {
    switch (r.kind) {
      case 'float32':
      case 'float64':
        return floatBounds(r, w as typeof r, path);
      case 'bool':
      case 'json':
        return [];
      case 'string': {
        const ws = w as typeof r;
        const problems: string[] = [];
        if ((r.minLength ?? 0) > (ws.minLength ?? 0))
          problems.push(`minLength ${ws.minLength ?? 0} → ${r.minLength}`);
        if (r.maxLength !== undefined && r.maxLength < (ws.maxLength ?? Number.POSITIVE_INFINITY)) {
          problems.push(`maxLength ${ws.maxLength ?? 'none'} → ${r.maxLength}`);
        }
        if (r.pattern !== undefined && r.pattern !== ws.pattern)
          problems.push(`pattern /${ws.pattern ?? ''}/ → /${r.pattern}/`);
        return problems.length === 0 ? [] : [narrowed('STRING_NARROWED', path, problems.join(', '))];
      }
      case 'bytes':
        return bytesNarrowing(r, w as typeof r, path);
      case 'decimal': {
        const wd = w as typeof r;
        const problems: string[] = [];
        if (r.scale !== undefined && (wd.scale === undefined || wd.scale > r.scale)) {
          problems.push(`scale ${wd.scale ?? 'any'} → ${r.scale}`);
        }
        const readerDigits = r.precision === undefined ? undefined : r.precision - (r.scale ?? 0);
        const writerDigits = wd.precision === undefined ? undefined : wd.precision - (wd.scale ?? 0);
        if (readerDigits !== undefined && (writerDigits === undefined || writerDigits > readerDigits)) {
          problems.push(`integer digits ${writerDigits ?? 'any'} → ${readerDigits}`);
        }
        return problems.length === 0 ? [] : [narrowed('DECIMAL_NARROWED', path, problems.join(', '))];
      }
      case 'timestamp': {
        const wt = w as typeof r;
        const finer = r.precision === 's' && wt.precision !== 's';
        const shorter = maxEpochMillis[r.precision] < maxEpochMillis[wt.precision];
        // A declared range (0001-9999) is narrower than every unit's own but nanoseconds' (1677-2262).
        const ranged = r.range !== undefined && wt.range === undefined && wt.precision !== 'ns';
        if (!finer && !shorter && !ranged) return [];
        const change = ranged ? `range any → ${r.range}` : `precision ${wt.precision} → ${r.precision}`;
        return [narrowed('TIMESTAMP_NARROWED', path, change)];
      }
      case 'enum':
        return this.enumeration(r, w as typeof r, path);
      case 'object':
        return this.object(r, w as ObjectSchema, path);
      case 'union':
        return this.union(r, w as UnionSchema, path);
      case 'array': {
        const wa = w as typeof r;
        const findings = this.check(r.items, wa.items, `${path}[]`);
        const problems: string[] = [];
        if ((r.minItems ?? 0) > (wa.minItems ?? 0))
          problems.push(`minItems ${wa.minItems ?? 0} → ${r.minItems}`);
        if (r.maxItems !== undefined && r.maxItems < (wa.maxItems ?? Number.POSITIVE_INFINITY)) {
          problems.push(`maxItems ${wa.maxItems ?? 'none'} → ${r.maxItems}`);
        }
        return problems.length === 0
          ? findings
          : [narrowed('ITEMS_NARROWED', path, problems.join(', ')), ...findings];
      }
      case 'map': {
        const wm = w as typeof r;
        return [
          ...this.check(r.keys, wm.keys, `${path}{key}`),
          ...this.check(r.values, wm.values, `${path}{}`),
        ];
      }
      default:
        return [];
    }
  }

  /**
   * Untagged unions: every branch the writer has must be read by the reader, and a value of one
   * kind is read by the reader branch of its class (either.ts); among several such branches (object
   * branches told apart by keys), any one that reads it without a finding will do.
   */
  private either(r: Concrete, w: Concrete, path: string): Finding[] {
    if (w.kind === 'either') return w.branches.flatMap((branch) => this.check(r, branch, path));
    if (r.kind !== 'either') return [];
    // A json writer may write a value of any class, which no either reads whole.
    const classes = new Set(w.kind === 'json' ? [] : classesOf(w));
    let candidates = r.branches.filter((branch) => classesOf(branch).some((c) => classes.has(c)));
    if (w.kind === 'object') candidates = candidates.filter((branch) => readsKeysOf(deref(branch), w));
    if (candidates.length === 0) {
      return [narrowed('KIND_CHANGED', path, `${describeKind(w)} read as an either with no branch for it`)];
    }
    let first: Finding[] | undefined;
    for (const branch of candidates) {
      const findings = this.check(branch, w, path);
      if (findings.length === 0) return [];
      first ??= findings;
    }
    return first ?? [];
  }

  /** A writer that only ever writes `value`: fine if the reader accepts that one value. */
  private literal(r: Concrete, value: LiteralValue, path: string): Finding[] {
    let accepts: boolean;
    switch (r.kind) {
      case 'literal':
        accepts = r.value === value;
        break;
      case 'string':
        accepts = typeof value === 'string' && stringRule(r)?.(value) === undefined;
        break;
      case 'bool':
        accepts = typeof value === 'boolean';
        break;
      case 'float64':
        accepts = typeof value === 'number' && floatRule(r)?.(value) === undefined;
        break;
      case 'float32':
        accepts = typeof value === 'number' && fitsFloat32(value) && floatRule(r)?.(value) === undefined;
        break;
      case 'enum':
        accepts = typeof value === 'string' && r.members.includes(value);
        break;
      default: {
        const range = intRange(r);
        accepts =
          range !== undefined &&
          typeof value === 'number' &&
          Number.isInteger(value) &&
          BigInt(value) >= range[0] &&
          BigInt(value) <= range[1];
      }
    }
    return accepts
      ? []
      : [narrowed('LITERAL_CHANGED', path, `literal ${JSON.stringify(value)} read as ${describeKind(r)}`)];
  }

  private enumeration(
    r: Extract<Concrete, { kind: 'enum' }>,
    w: Extract<Concrete, { kind: 'enum' }>,
    path: string,
  ): Finding[] {
    this.budget.spend(r.members.length + w.members.length);
    const readerMembers = new Set(r.members);
    const missing = w.members.filter((member) => !readerMembers.has(member));
    const moved = w.members.filter((member, i) => readerMembers.has(member) && r.members[i] !== member);
    const findings: Finding[] = [];
    if (missing.length > 0)
      findings.push(narrowed('ENUM_MEMBER_REMOVED', path, `members ${missing.join(', ')} removed`));
    if (moved.length > 0) {
      findings.push(
        narrowed(
          'ENUM_MEMBER_MOVED',
          path,
          `members ${moved.join(', ')} moved (Protobuf numbers members by position)`,
        ),
      );
    }
    return findings;
  }

  private object(r: ObjectSchema, w: ObjectSchema, path: string): Finding[] {
    const findings: Finding[] = [];
    const taken = new Map<FieldDef, FieldDef>();
    const { byName, byAlias } = this.fieldsOf(r);
    for (const field of w.fields) {
      this.budget.spend();
      const target = byName.get(field.name) ?? byAlias.get(field.name);
      if (target === undefined || taken.has(target)) continue;
      taken.set(target, field);
      for (const finding of this.check(target.schema, field.schema, fieldPath(path, target.name))) {
        findings.push(finding);
      }
    }
    if (r.oneofs !== undefined) findings.push(...oneofsNarrowed(r, w, taken, path));
    return findings;
  }

  private fieldsOf(r: ObjectSchema): { byName: Map<string, FieldDef>; byAlias: Map<string, FieldDef> } {
    let index = this.fieldIndex.get(r);
    if (index === undefined) {
      index = { byName: new Map(), byAlias: new Map() };
      for (const field of r.fields) {
        this.budget.spend(1 + (field.aliases?.length ?? 0));
        if (!index.byName.has(field.name)) index.byName.set(field.name, field);
        for (const alias of field.aliases ?? [])
          if (!index.byAlias.has(alias)) index.byAlias.set(alias, field);
      }
      this.fieldIndex.set(r, index);
    }
    return index;
  }

  private union(r: UnionSchema, w: UnionSchema, path: string): Finding[] {
    const findings: Finding[] = [];
    if (r.tag !== w.tag) findings.push(narrowed('UNION_TAG_CHANGED', path, `tag ${w.tag} → ${r.tag}`));
    const variants = this.variantsOf(r);
    for (const variant of w.variants) {
      this.budget.spend();
      const target = variants.get(variant.name);
      if (target === undefined) {
        findings.push(narrowed('UNION_VARIANT_REMOVED', path, `variant ${variant.name} removed`));
      } else {
        for (const finding of this.check(target, variant, `${path}<${target.name}>`)) findings.push(finding);
      }
    }
    return findings;
  }

  /** A reader variant matches a writer's by its name or one of its aliases; the first to match wins. */
  private variantsOf(r: UnionSchema): Map<string, ObjectSchema> {
    let index = this.variantIndex.get(r);
    if (index === undefined) {
      index = new Map();
      for (const variant of r.variants) {
        this.budget.spend(1 + (variant.aliases?.length ?? 0));
        for (const name of [variant.name, ...(variant.aliases ?? [])])
          if (!index.has(name)) index.set(name, variant);
      }
      this.variantIndex.set(r, index);
    }
    return index;
  }
}
