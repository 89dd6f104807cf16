/**
 * The decoder: runs a read plan over untrusted bytes. Depth is counted at every record, array and
 * map, so recursion stays within maxDepth; counts are checked against maxElements and the bytes
 * left before a single item is read. What the value costs the heap is charged to the reader's
 * budget (core/budget.ts) before each thing is made: a record as an object of its fields, each array
 * and its items' slots (a block's, once its count is checked), map, string, byte string, Date and
 * bigint; the compiled decoder charges alike, through the same helpers or the same amounts.
 */
import { noSuchField } from '../../../schema/names.js';
import type { Rule } from '../../../schema/value-rules.js';
import { cost, recordCost, stringCost } from '../../core/budget.js';
import { unscaledText } from '../../core/decimal-text.js';
import { isUnsafeKey, malformed, mismatch, tooDeep, unsafeKey } from '../../core/errors.js';
import type { AvroType } from '../avro-schema.js';
import {
  type DecimalBytesRead,
  EntryRole,
  type IntMapRead,
  LongAs,
  R,
  type ReadPlan,
  type RecordRead,
} from '../plan.js';
import { decimalText, parseJsonValue, readTimestamp } from '../values.js';
import type { AvroReader } from './reader.js';
import type { RootReadPlan } from './resolve.js';

/**
 * Reads one top-level value. A stack overflow (possible only with maxDepth raised far beyond the
 * default) still ends in a WirekitError, as every decode failure must. `compiled`, when given, is
 * the generated reader of `root.plan` (src/codecs/avro/compiled.ts), run in its place.
 */
export function readRoot(r: AvroReader, root: RootReadPlan, compiled?: (r: AvroReader) => unknown): unknown {
  r.startValue();
  let value: unknown;
  try {
    value = compiled === undefined ? readValue(r, root.plan) : compiled(r);
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep(r.pos, r.limits);
    throw error;
  }
  return root.unwrap ? (value as Record<string, unknown>).value : value;
}

export function readValue(r: AvroReader, plan: ReadPlan): unknown {
  switch (plan.op) {
    case R.Record:
      return readRecord(r, plan);
    case R.String:
      return plan.rule === undefined ? r.readString() : kept(plan.rule, r.pos, r.readString());
    case R.Long:
      return plan.rule === undefined
        ? readLong(r, plan.as, plan.range)
        : kept(plan.rule, r.pos, readLong(r, plan.as, plan.range) as number);
    case R.Int:
      return r.readIntIn(plan.min, plan.max);
    case R.Double:
      return plan.rule === undefined ? r.readDouble() : kept(plan.rule, r.pos, r.readDouble());
    case R.Union:
      return readValue(r, plan.branches[r.readBranch(plan.branches.length)] as ReadPlan);
    case R.Const:
      return plan.value;
    case R.Bool:
      return r.readBool();
    case R.Float:
      return plan.rule === undefined ? r.readFloat() : kept(plan.rule, r.pos, r.readFloat());
    case R.Bytes:
      return plan.rule === undefined ? r.readBytes() : kept(plan.rule, r.pos, r.readBytes());
    case R.Fixed:
      return plan.rule === undefined
        ? r.readFixed(plan.size)
        : kept(plan.rule, r.pos, r.readFixed(plan.size));
    case R.Array:
      return readArray(r, plan.items, plan.itemSize, plan.rule);
    case R.Map:
      return readMap(r, plan.values, plan.entrySize, plan.keyRule);
    case R.IntMap:
      return readIntMap(r, plan);
    case R.Enum:
      return readEnum(r, plan.symbols, plan.name);
    case R.Timestamp:
      return plan.rule === undefined
        ? readTimestamp(r, plan.perMilli)
        : kept(plan.rule, r.pos, readTimestamp(r, plan.perMilli));
    case R.DecimalBytes:
      return readDecimal(r, plan);
    case R.DecimalString:
      return kept(plan.rule, r.pos, r.readString());
    case R.Json: {
      const at = r.pos;
      const value = parseJsonValue(r, r.readString(), at);
      // A declared Struct or ListValue holds an object or an array (JsonSchema.proto).
      return plan.rule === undefined ? value : kept(plan.rule, at, value);
    }
    case R.Literal: {
      const at = r.pos;
      const value = readValue(r, plan.inner);
      if (value !== plan.value) throw mismatch(at, `expected the literal ${JSON.stringify(plan.value)}`);
      return value;
    }
    case R.Error:
      throw mismatch(r.pos, plan.message);
    case R.Skip:
      skipValue(r, plan.type);
      return undefined;
    case R.Unknown:
      return refuseUnknown(r, plan);
  }
}

/**
 * A writer field the reader's schema lacks, under `unknownKeys: 'reject'`: refused before its value
 * is read, unless it is the null of a union with null, which is how Avro writes a field left out
 * (an absent optional), no key of the value in any format.
 */
function refuseUnknown(r: AvroReader, plan: Extract<ReadPlan, { op: typeof R.Unknown }>): undefined {
  const at = r.pos;
  const { type } = plan;
  if (type.type === 'union' && type.branches[r.readBranch(type.branches.length)]?.type === 'null')
    return undefined;
  throw mismatch(at, noSuchField(plan.record, plan.name));
}

/**
 * `value`, read from byte `at`, unless the reader's schema's `rule` refuses it (value-rules.ts):
 * then the refusal as a schema mismatch. The compiled decoder calls it too.
 */
/**
 * A decimal from Avro's `bytes` or `fixed`: the big-endian two's complement of its unscaled integer,
 * as text with exactly the writer's scale of decimals (Avro keeps the unscaled value only, so "1.5"
 * at scale 2 reads back as "1.50"). Refused when it has more digits than the plan's precision. The
 * interpreter's and the compiled decoder's (which calls it directly, past `readValue`'s dispatch).
 */
export function readDecimal(r: AvroReader, plan: DecimalBytesRead): string {
  const at = r.pos;
  const bytes = r.bytes;
  let start: number;
  if (plan.fixedSize >= 0) {
    r.skip(plan.fixedSize);
    start = r.pos - plan.fixedSize;
  } else {
    // A one-byte length (under 64 bytes: every decimal of up to 150 digits) read inline, as
    // `readString` reads it; anything else goes through `readLength` and its checks.
    const head = at < r.end ? (bytes[at] as number) : 0x80;
    const length = head >>> 1;
    if ((head & 0x81) === 0 && length <= r.limits.maxBytesLength && length < r.end - at) {
      start = at + 1;
      r.pos = start + length;
    } else {
      start = r.readLength(r.limits.maxBytesLength, 'byte string');
    }
  }
  // Leading sign bytes (fixed types pad with them) add no digits; past them, the length bounds
  // the digits, so an oversized value fails before any big-integer arithmetic.
  const end = r.pos;
  while (start < end - 1) {
    const lead = bytes[start] as number;
    const next = bytes[start + 1] as number;
    if (!((lead === 0 && next < 0x80) || (lead === 0xff && next >= 0x80))) break;
    start++;
  }
  const length = end - start;
  // Hot (every amount): up to 6 bytes, or 7 whose value stays within ±2^53 (a first byte from -32
  // to 31), the unscaled integer is a Number, summed with its sign from the first byte, and its
  // text written by characters: no hex, BigInt or cut strings. Its digit count against the
  // precision is a comparison with 10^precision. The shortest bytes this value has are at most
  // maxBytes whenever it has at most `precision` digits, so that test has nothing to add here.
  if (length <= 6 || (length === 7 && (((bytes[start] as number) + 0x20) & 0xff) < 0x40)) {
    let n = 0;
    if (length > 0) {
      const first = bytes[start] as number;
      n = first >= 0x80 ? first - 0x100 : first;
      for (let i = start + 1; i < end; i++) n = n * 256 + (bytes[i] as number);
    }
    if (n >= plan.unscaledLimit || -n >= plan.unscaledLimit)
      throw mismatch(at, `a decimal exceeds ${plan.precision} digits`);
    const text = unscaledText(n, plan.scale);
    r.budget.charge(stringCost(text.length), at);
    return text;
  }
  const text =
    length > plan.maxBytes ? undefined : decimalText(bytes, start, end, plan.scale, plan.precision);
  if (text === undefined) throw mismatch(at, `a decimal exceeds ${plan.precision} digits`);
  r.budget.charge(stringCost(text.length), at);
  return text;
}

export function kept<T>(rule: Rule<T>, at: number, value: T): T {
  const refusal = rule(value);
  if (refusal !== undefined) throw mismatch(at, refusal.message);
  return value;
}

/** An enum's symbol by index; undefined entries are writer symbols the reader lacks. */
export function readEnum(r: AvroReader, symbols: readonly (string | undefined)[], name: string): string {
  const at = r.pos;
  const index = r.readInt();
  const symbol = symbols[index];
  if (symbol === undefined) throw mismatch(at, `enum ${name} has no symbol for index ${index}`);
  return symbol;
}

export function readLong(r: AvroReader, as: LongAs, range?: readonly [number, number]): unknown {
  // The two kinds compiled decoders read most, as the reader's own methods.
  if (as === LongAs.Number) return r.readSafeLong();
  if (as === LongAs.Uint32) return r.readUint32(...(range ?? [0, 0xffffffff]));
  const at = r.pos;
  const n = r.readLong();
  const wide = Number.isNaN(n);
  switch (as) {
    case LongAs.BigInt:
      r.budget.charge(cost.bigint, at);
      return wide ? r.wide : BigInt(n);
    case LongAs.UnsignedBigInt:
      if (wide ? r.wide < 0n : n < 0) throw mismatch(at, 'a uint64 is negative');
      r.budget.charge(cost.bigint, at);
      return wide ? r.wide : BigInt(n);
    case LongAs.UnsignedNumber:
      if (wide || n < 0) throw mismatch(at, `${wide ? r.wide : n} is not a safe uint64 number`);
      return n;
    case LongAs.Float64:
      return wide ? Number(r.wide) : n;
    case LongAs.Float32:
      return Math.fround(wide ? Number(r.wide) : n);
  }
}

/** What a decoded record costs: an object holding each field it may get. */
export function recordReadCost(plan: RecordRead): number {
  return recordCost(plan.names.length + plan.fills.length);
}

function readRecord(r: AvroReader, plan: RecordRead): Record<string, unknown> {
  const at = r.pos;
  r.enter();
  r.budget.charge(recordReadCost(plan), r.pos);
  const out: Record<string, unknown> = {};
  const { names, plans, fills } = plan;
  for (let i = 0; i < plans.length; i++) {
    const value = readValue(r, plans[i] as ReadPlan);
    const name = names[i];
    if (name !== null && name !== undefined && value !== undefined) out[name] = value;
  }
  for (let i = 0; i < fills.length; i++) {
    const fill = fills[i] as RecordRead['fills'][number];
    out[fill.name] = fill.copy ? structuredClone(fill.value) : fill.value;
  }
  r.leave();
  // Two members of one oneof group: Avro has no rule that picks one, so the record is refused.
  if (plan.oneofs !== undefined) kept(plan.oneofs, at, out);
  return out;
}

function readArray(
  r: AvroReader,
  items: ReadPlan,
  itemSize: number,
  rule: Rule<number> | undefined,
): unknown[] {
  const at = r.pos;
  r.enter();
  r.budget.charge(cost.array, at);
  const out: unknown[] = [];
  for (let count = r.readBlockCount(); count !== 0; count = r.readBlockCount()) {
    r.addElements(count);
    r.checkFits(count, itemSize);
    // Items of no bytes (empty records) fit any input: their count is charged, not trusted.
    r.budget.charge(count * cost.slot, r.pos);
    for (let i = 0; i < count; i++) out.push(readValue(r, items));
  }
  r.leave();
  // Blocks may split the items: the count is known at the end.
  if (rule !== undefined) kept(rule, at, out.length);
  return out;
}

function readMap(
  r: AvroReader,
  values: ReadPlan,
  entrySize: number,
  keyRule: Rule<string> | undefined,
): Record<string, unknown> {
  r.enter();
  r.budget.charge(cost.object, r.pos);
  const out: Record<string, unknown> = {};
  for (let count = r.readBlockCount(); count !== 0; count = r.readBlockCount()) {
    r.addElements(count);
    r.checkFits(count, entrySize);
    r.budget.charge(count * 2 * cost.slot, r.pos);
    for (let i = 0; i < count; i++) {
      const at = r.pos;
      const key = r.readString();
      if (keyRule !== undefined) kept(keyRule, at, key);
      // Refused, not dropped: a copy made later by assignment would turn this key into a prototype.
      if (isUnsafeKey(key)) throw unsafeKey(at, key);
      out[key] = readValue(r, values);
    }
  }
  r.leave();
  return out;
}

function readIntMap(r: AvroReader, plan: IntMapRead): Map<unknown, unknown> {
  r.enter();
  r.budget.charge(cost.map, r.pos);
  const out = new Map<unknown, unknown>();
  const { roles, plans } = plan;
  for (let count = r.readBlockCount(); count !== 0; count = r.readBlockCount()) {
    r.addElements(count);
    r.checkFits(count, plan.entrySize);
    r.budget.charge(count * cost.mapEntry, r.pos);
    for (let i = 0; i < count; i++) {
      let key: unknown;
      let value: unknown;
      for (let j = 0; j < plans.length; j++) {
        const item = readValue(r, plans[j] as ReadPlan);
        if (roles[j] === EntryRole.Key) key = item;
        else if (roles[j] === EntryRole.Value) value = item;
      }
      out.set(key, value);
    }
  }
  r.leave();
  return out;
}

/** Steps over a writer-only value without building it; still bounded by the limits. */
function skipValue(r: AvroReader, type: AvroType): void {
  switch (type.type) {
    case 'null':
      return;
    case 'boolean':
      r.skip(1);
      return;
    case 'int':
    case 'long':
    case 'enum':
      r.readLong();
      return;
    case 'float':
      r.skip(4);
      return;
    case 'double':
      r.skip(8);
      return;
    case 'string':
      r.readLength(r.limits.maxStringBytes, 'string');
      return;
    case 'bytes':
      r.readLength(r.limits.maxBytesLength, 'byte string');
      return;
    case 'fixed':
      r.skip(type.size);
      return;
    case 'union': {
      const index = r.readBranch(type.branches.length);
      skipValue(r, type.branches[index] as AvroType);
      return;
    }
    case 'record':
      r.enter();
      for (const field of type.fields) skipValue(r, field.type);
      r.leave();
      return;
    case 'array':
    case 'map':
      r.enter();
      skipBlocks(r, type.type === 'map', type.type === 'array' ? type.items : type.values);
      r.leave();
      return;
  }
}

function skipBlocks(r: AvroReader, keyed: boolean, item: AvroType): void {
  for (;;) {
    const at = r.pos;
    let count = r.readLong();
    if (count === 0) return;
    if (Number.isNaN(count)) throw malformed(at, 'a block count is out of range');
    if (count < 0) {
      // A negative count carries the block's byte size: the whole block can be stepped over.
      const size = r.readLong();
      if (!(size >= 0)) throw malformed(at, 'a block size is negative');
      r.skip(size);
      continue;
    }
    r.addElements(count);
    for (; count > 0; count--) {
      if (keyed) r.readLength(r.limits.maxStringBytes, 'string');
      skipValue(r, item);
    }
  }
}
