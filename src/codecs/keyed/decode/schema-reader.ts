/**
 * The schema-driven decoder shared by MessagePack and CBOR. It reads straight from the bytes into
 * the schema's types (no intermediate tree): field names are matched byte-wise against the plan's
 * pre-encoded names, trying the field that follows the last one first, since writers mostly keep
 * declaration order. Keys the schema does not know are skipped, so an older reader accepts data
 * from a newer writer, or with `unknownKeys: 'reject'` refused before their value is read; a
 * duplicate field or map key is refused, since readers would disagree on which one counts. The source charges what it reads to the decode's allocation budget; the
 * reader adds what only it makes (bigints, the Maps of integer-keyed maps).
 */
import { describeValue, prependPath } from '../../../errors/index.js';
import { decimalFits } from '../../../schema/decimal.js';
import { describeBranches, selectBranchByKeys } from '../../../schema/either.js';
import { noSuchField } from '../../../schema/names.js';
import type { EitherSchema } from '../../../schema/types.js';
import { fitsFloat32, type Rule, refusalBy } from '../../../schema/value-rules.js';
import { cost } from '../../core/budget.js';
import { isUnsafeKey, malformed, unsafeKey } from '../../core/errors.js';
import { decodeUtf8 } from '../../core/utf8.js';
import { schemaMismatch } from '../failures.js';
import { byKeys, type FieldPlan, noBranch, Op, type Plan, sameBytes } from '../plan.js';
import type { WireSource } from '../wire.js';
import { readJson } from './json-value.js';
import type { RecordKeys } from './record-keys.js';

/** Objects of up to this many fields have the fields read so far as a bit set (an int); wider ones a byte per field. */
export const seenBitsUpTo = 30;

export class SchemaReader {
  constructor(
    private readonly src: WireSource,
    /** Refuse a key the schema does not name (`unknownKeys: 'reject'`) rather than skip it. */
    private readonly rejectUnknown = false,
    /** MessagePack's records mode: objects and string-keyed maps may come as records. */
    private readonly records = false,
  ) {}

  /** Reads one item of `plan` that sits inside `depth` containers. */
  read(plan: Plan, depth: number): unknown {
    const src = this.src;
    switch (plan.op) {
      case Op.bool:
        return src.bool();
      case Op.int: {
        const at = src.pos;
        const value = src.integer();
        if (typeof value !== 'number' || value < plan.min || value > plan.max) {
          throw schemaMismatch(at, `${describeValue(value)} is outside ${plan.label}`);
        }
        return value;
      }
      case Op.int64:
        return this.int64(plan);
      case Op.float32:
        return plan.rule === undefined ? this.float32() : checked(plan.rule, src.pos, this.float32());
      case Op.float64:
        return plan.rule === undefined ? src.float() : checked(plan.rule, src.pos, src.float());
      case Op.decimal: {
        if (plan.rule === undefined) return src.decimal();
        const at = src.pos;
        const text = src.decimal();
        return decimalFits(text, plan.decimalInteger, plan.decimalScale)
          ? text
          : checked(plan.rule, at, text);
      }
      case Op.string:
        return plan.rule === undefined ? src.string() : checked(plan.rule, src.pos, src.string());
      case Op.bytes:
        return plan.rule === undefined ? src.bytes() : checked(plan.rule, src.pos, src.bytes());
      case Op.timestamp:
        return plan.rule === undefined
          ? new Date(src.timestamp())
          : checked(plan.rule, src.pos, new Date(src.timestamp()));
      case Op.enum:
        return this.member(plan);
      case Op.literal:
        return this.literal(plan);
      case Op.object:
        return this.object(plan, depth + 1);
      case Op.union:
        return this.union(plan, depth + 1);
      case Op.array:
        return this.array(plan, depth + 1);
      case Op.map:
        return this.map(plan, depth + 1);
      case Op.optional: {
        const inner = plan.inner as Plan;
        const none = src.nullish();
        if (none === 0) return this.read(inner, depth);
        return none === 1 && inner.op === Op.nullable ? null : undefined;
      }
      case Op.nullable:
        return src.nullish() === 0 ? this.read(plan.inner as Plan, depth) : null;
      case Op.either: {
        const at = src.pos;
        const value = this.read(plan.branches[this.eitherBranch(plan, depth)] as Plan, depth);
        return plan.finiteOnly ? finiteBesideText(at, value) : value;
      }
      default: {
        // A declared Struct or ListValue holds an object or an array (JsonSchema.proto).
        if (plan.rule === undefined) return readJson(src, depth);
        const at = src.pos;
        return checked(plan.rule, at, readJson(src, depth));
      }
    }
  }

  /** A float32: the nearest one to the number on the wire, which must be within its range. */
  float32(): number {
    const at = this.src.pos;
    const value = this.src.float();
    if (!fitsFloat32(value)) throw schemaMismatch(at, `${value} overflows float32`);
    return Math.fround(value);
  }

  int64(plan: Plan): number | bigint {
    const at = this.src.pos;
    const value = this.src.integer();
    if (typeof value === 'number') {
      if (value < plan.min) throw schemaMismatch(at, `${value} is outside ${plan.label}`);
      if (!plan.asBigint) return value;
      this.src.budget.charge(cost.bigint, at);
      return BigInt(value);
    }
    if (value < plan.bigMin || value > plan.bigMax)
      throw schemaMismatch(at, `${value} is outside ${plan.label}`);
    if (!plan.asBigint)
      throw schemaMismatch(at, `${value} is not a safe integer (the schema says as: 'number')`);
    this.src.budget.charge(cost.bigint, at);
    return value;
  }

  member(plan: Plan): string {
    const src = this.src;
    const at = src.pos;
    src.nameSpan();
    const members = plan.memberBytes;
    for (let i = 0; i < members.length; i++) {
      if (sameBytes(src.spanBytes, src.spanStart, src.spanEnd, members[i] as Uint8Array)) {
        return plan.members[i] as string;
      }
    }
    throw schemaMismatch(at, `a string that is not a member of ${plan.label}`);
  }

  literal(plan: Plan): unknown {
    const src = this.src;
    const at = src.pos;
    const expected = plan.literal;
    let same: boolean;
    if (typeof expected === 'string') {
      src.nameSpan();
      same = sameBytes(src.spanBytes, src.spanStart, src.spanEnd, plan.literalBytes);
    } else if (typeof expected === 'boolean') same = src.bool() === expected;
    else same = src.float() === expected;
    if (!same) throw schemaMismatch(at, `a value other than the literal ${JSON.stringify(expected)}`);
    return expected;
  }

  object(plan: Plan, level: number): Record<string, unknown> {
    const start = this.src.pos;
    if (this.records) {
      const keys = this.src.recordAhead(level, false);
      if (keys !== undefined) return this.recordFrom(plan, level, start, keys, {}, 0, 0, 0);
    }
    const count = this.src.recordStart(level);
    return this.objectFrom(plan, level, start, count, {}, 0, 0, 0, 0);
  }

  /**
   * The entries of an object's map from entry `first` on, the ones before already in `out`, with
   * `seen`, `found` and `hint` as this loop leaves them (passed in as the `…Before` arguments):
   * compiled decoders read the entries that arrive in the schema's order themselves and hand the
   * rest over here. `seen` is a bit set for objects of up to `seenBitsUpTo` fields; a wider one's
   * fields read so far come as `seenWideBefore`, a byte per field.
   */
  objectFrom(
    plan: Plan,
    level: number,
    start: number,
    count: number,
    out: Record<string, unknown>,
    seenBefore: number,
    foundBefore: number,
    hintBefore: number,
    first: number,
    seenWideBefore?: Uint8Array,
  ): Record<string, unknown> {
    const src = this.src;
    const fields = plan.fields;
    let seen = seenBefore;
    let found = foundBefore;
    let hint = hintBefore;
    // One bit per field while they fit an int; wider objects take a byte array.
    const seenWide =
      fields.length > seenBitsUpTo ? (seenWideBefore ?? new Uint8Array(fields.length)) : undefined;
    for (let i = first; count < 0 ? src.moreFields() : i < count; i++) {
      const keyAt = src.pos;
      src.nameSpan();
      const index = findField(fields, hint, src.spanBytes, src.spanStart, src.spanEnd);
      if (index < 0) {
        if (this.rejectUnknown) throw unknownKey(plan, src, keyAt);
        src.skip(level);
        continue;
      }
      const field = fields[index] as FieldPlan;
      if (seenWide === undefined) {
        if ((seen >>> index) & 1)
          throw malformed(keyAt, `the field ${JSON.stringify(field.name)} appears twice`);
        seen |= 1 << index;
      } else {
        if (seenWide[index] === 1)
          throw malformed(keyAt, `the field ${JSON.stringify(field.name)} appears twice`);
        seenWide[index] = 1;
      }
      found++;
      hint = index + 1;
      try {
        // A nil for an optional field (as schemaless writers send None/null) means absent.
        if (field.optional && field.plan.op !== Op.nullable && src.nullish() !== 0) continue;
        out[field.name] = this.read(field.plan, level);
      } catch (error) {
        throw prependPath(error, field.name);
      }
    }
    if (found < fields.length) fillMissing(plan, out, seen, seenWide, start);
    // Its oneof groups (the object's rule): a writer that sent two members wrote no wirekit value.
    if (plan.rule !== undefined) checked(plan.rule, start, out);
    return out;
  }

  /**
   * An object's record from its value `first` on, as objectFrom reads a map's entries: the keys
   * are the record's structure, so each value goes to its field by the key's place; the values
   * before `first` are in `out` already (the compiled decoders read the fields that come in the
   * schema's order themselves), with `seen` or `seenWideBefore` as objectFrom takes them.
   */
  recordFrom(
    plan: Plan,
    level: number,
    start: number,
    keys: RecordKeys,
    out: Record<string, unknown>,
    seenBefore: number,
    foundBefore: number,
    first: number,
    seenWideBefore?: Uint8Array,
  ): Record<string, unknown> {
    const src = this.src;
    const fields = plan.fields;
    const indexes = keys.fieldsOf(plan);
    let seen = seenBefore;
    let found = foundBefore;
    // A definition's keys are distinct, so no field comes twice.
    const seenWide =
      fields.length > seenBitsUpTo ? (seenWideBefore ?? new Uint8Array(fields.length)) : undefined;
    for (let i = first; i < indexes.length; i++) {
      const index = indexes[i] as number;
      if (index < 0) {
        const name = keys.names[i] as string;
        if (this.rejectUnknown)
          throw prependPath(schemaMismatch(src.pos, noSuchField(plan.label, name)), name);
        src.skip(level);
        continue;
      }
      const field = fields[index] as FieldPlan;
      if (seenWide === undefined) seen |= 1 << index;
      else seenWide[index] = 1;
      found++;
      try {
        if (field.optional && field.plan.op !== Op.nullable && src.nullish() !== 0) continue;
        out[field.name] = this.read(field.plan, level);
      } catch (error) {
        throw prependPath(error, field.name);
      }
    }
    if (found < fields.length) fillMissing(plan, out, seen, seenWide, start);
    if (plan.rule !== undefined) checked(plan.rule, start, out);
    return out;
  }

  /**
   * The branch of an either for the next item: the class of value its wire type is (plan.ts's
   * `byItem`), and for a map among several object branches, the keys it holds. The compiled
   * decoder calls it too.
   */
  eitherBranch(plan: Plan, depth: number): number {
    const src = this.src;
    const at = src.pos;
    let index = plan.byItem[src.peek()] as number;
    if (index === byKeys) index = this.branchByKeys(plan, depth + 1);
    if (index === noBranch) {
      throw schemaMismatch(
        at,
        `expected ${describeBranches(plan.either as EitherSchema)}, got ${src.describeNext()}`,
      );
    }
    return index;
  }

  /**
   * The object branch whose keys the map ahead holds: its keys are read and its values skipped,
   * then the source goes back to the map's start (as `union` does), for the branch to read it.
   */
  private branchByKeys(plan: Plan, level: number): number {
    const src = this.src;
    const start = src.pos;
    const elements = src.elements;
    const allocated = src.budget.used;
    const record = this.records ? src.recordAhead(level, false) : undefined;
    const keys: string[] = record === undefined ? [] : [...record.names];
    const count = record === undefined ? src.recordStart(level) : 0;
    for (let i = 0; count < 0 ? src.moreFields() : i < count; i++) {
      src.nameSpan();
      keys.push(decodeUtf8(src.spanBytes, src.spanStart, src.spanEnd));
      src.skip(level);
    }
    src.pos = start;
    src.elements = elements;
    src.budget.used = allocated;
    return selectBranchByKeys(plan.either as EitherSchema, keys) ?? noBranch;
  }

  private union(plan: Plan, level: number): Record<string, unknown> {
    const src = this.src;
    const start = src.pos;
    const elements = src.elements;
    const allocated = src.budget.used;
    const record = this.records ? src.recordAhead(level, false) : undefined;
    const count = record === undefined ? src.recordStart(level) : record.names.length;
    let variant: Plan | undefined;
    for (let i = 0; variant === undefined && (count < 0 ? src.moreFields() : i < count); i++) {
      if (record === undefined) src.nameSpan();
      const isTag =
        record === undefined
          ? sameBytes(src.spanBytes, src.spanStart, src.spanEnd, plan.tagKey)
          : record.names[i] === plan.tag;
      if (!isTag) {
        src.skip(level);
        continue;
      }
      const at = src.pos;
      src.nameSpan();
      for (const candidate of plan.variants) {
        if (sameBytes(src.spanBytes, src.spanStart, src.spanEnd, candidate.tagBytes))
          variant = candidate.plan;
      }
      if (variant === undefined) {
        throw prependPath(schemaMismatch(at, `a tag that names no variant of ${plan.label}`), plan.tag);
      }
    }
    if (variant === undefined) throw schemaMismatch(start, `the tag ${plan.tag} of ${plan.label} is missing`);
    // The variant is known: read the map again, as that variant, from its start.
    src.pos = start;
    src.elements = elements;
    src.budget.used = allocated;
    return this.object(variant, level);
  }

  private array(plan: Plan, level: number): unknown[] {
    const src = this.src;
    const items = plan.inner as Plan;
    const at = src.pos;
    const count = src.arrayStart(level);
    const out: unknown[] = count >= 0 ? new Array(count) : [];
    for (let i = 0; count < 0 ? src.more() : i < count; i++) {
      try {
        out[i] = this.read(items, level);
      } catch (error) {
        throw prependPath(error, i);
      }
    }
    // The item count is known for certain once the items are read (a CBOR array may be indefinite).
    if (plan.rule !== undefined) checked(plan.rule, at, out.length);
    return out;
  }

  private map(plan: Plan, level: number): unknown {
    const src = this.src;
    const keys = plan.keys as Plan;
    const values = plan.inner as Plan;
    const at = src.pos;
    if (this.records && keys.op === Op.string) {
      const record = src.recordAhead(level, true);
      if (record !== undefined) return this.recordMap(record, keys, values, level, at);
    }
    const count = src.mapStart(level);
    if (keys.op === Op.string) {
      const out: Record<string, unknown> = {};
      for (let i = 0; count < 0 ? src.more() : i < count; i++) {
        const keyAt = src.pos;
        const key = checked(keys.rule, keyAt, src.string());
        if (isUnsafeKey(key)) throw unsafeKey(keyAt, key);
        if (Object.hasOwn(out, key)) throw malformed(keyAt, `the key ${describeValue(key)} appears twice`);
        try {
          out[key] = this.read(values, level);
        } catch (error) {
          throw prependPath(error, key);
        }
      }
      return out;
    }
    // A Map, not the object the source charged for its header; each entry, not two slots.
    src.budget.charge(cost.map - cost.object, at);
    const out = new Map<unknown, unknown>();
    for (let i = 0; count < 0 ? src.more() : i < count; i++) {
      const keyAt = src.pos;
      src.budget.charge(cost.mapEntry - 2 * cost.slot, keyAt);
      const key = this.read(keys, level);
      if (out.has(key)) throw malformed(keyAt, `the key ${String(key)} appears twice`);
      try {
        out.set(key, this.read(values, level));
      } catch (error) {
        throw prependPath(error, String(key));
      }
    }
    return out;
  }

  /** A string-keyed map that came as a record (msgpackr writes plain objects so): its keys are the structure's. */
  private recordMap(
    record: RecordKeys,
    keys: Plan,
    values: Plan,
    level: number,
    at: number,
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of record.names) {
      checked(keys.rule, at, key);
      try {
        out[key] = this.read(values, level);
      } catch (error) {
        throw prependPath(error, key);
      }
    }
    return out;
  }
}

/** The refusal of the key just read at `keyAt` (its bytes are the source's span), at its path. */
function unknownKey(plan: Plan, src: WireSource, keyAt: number): unknown {
  const key = decodeUtf8(src.spanBytes, src.spanStart, src.spanEnd);
  return prependPath(schemaMismatch(keyAt, noSuchField(plan.label, key)), key);
}

function findField(
  fields: readonly FieldPlan[],
  hint: number,
  bytes: Uint8Array,
  start: number,
  end: number,
): number {
  if (hint < fields.length && sameBytes(bytes, start, end, (fields[hint] as FieldPlan).key)) return hint;
  for (let i = 0; i < fields.length; i++) {
    if (i !== hint && sameBytes(bytes, start, end, (fields[i] as FieldPlan).key)) return i;
  }
  return -1;
}

/**
 * Fields the wire lacks: literals are filled in (they cost no meaning on the wire), required fields
 * with a default take a copy of it (data from a writer that predates the field), optional ones stay
 * absent, and any other is a mismatch.
 */
function fillMissing(
  plan: Plan,
  out: Record<string, unknown>,
  seen: number,
  seenWide: Uint8Array | undefined,
  start: number,
): void {
  const fields = plan.fields;
  for (let i = 0; i < fields.length; i++) {
    if (seenWide === undefined ? (seen >>> i) & 1 : seenWide[i] === 1) continue;
    const field = fields[i] as FieldPlan;
    if (field.plan.op === Op.literal) out[field.name] = field.plan.literal;
    else if (field.optional) continue;
    else if (field.hasDefault) out[field.name] = copyDefault(field.defaultValue);
    else {
      throw prependPath(
        schemaMismatch(start, `the required field is missing from ${plan.label}`),
        field.name,
      );
    }
  }
}

function copyDefault(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

/**
 * An either's value read from byte `at`, unless it is NaN or an infinity beside a text branch,
 * which no format takes there (either.ts); the compiled decoder calls it too.
 */
export function finiteBesideText<T>(at: number, value: T): T {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw schemaMismatch(at, `${value} beside a text branch (JSON would read it back as text)`);
  }
  return value;
}

/**
 * `value`, read from byte `at`, unless `rule` refuses it (value-rules.ts): then the refusal as a
 * mismatch, which the readers' paths are put in front of. The compiled reader calls it too.
 */
export function checked<T>(rule: Rule<never> | undefined, at: number, value: T): T {
  const refusal = refusalBy(rule, value);
  if (refusal !== undefined) throw schemaMismatch(at, refusal.message);
  return value;
}
