/**
 * Leaf columns of checked Data (see load.ts) to JavaScript values. The common kinds get a loop of
 * their own; the rare ones (decimals, JSON, literals, bytes, int64 as numbers) read through a
 * per-value function. A column another writer stored in another physical type of the same kind
 * (match.ts lists them) is read through physical.ts, and each value is checked to fit the
 * schema's kind; a value that does not is a fault (fault.ts) naming its index.
 */
import { type Data, Type } from 'apache-arrow';
import { smallIntRange } from '../../../schema/int-ranges.js';
import { checkParsedJson } from '../../../schema/json-kind.js';
import { type Rule, refusalBy } from '../../../schema/value-rules.js';
import { mismatch, tooManyElements } from '../../core/errors.js';
import type { DecodeLimits } from '../../core/limits.js';
import type { Plan } from '../plan.js';
import type { PlanBase } from '../plan-types.js';
import { fault, nullMessage } from './fault.js';
import type { ElementBudget } from './load.js';
import {
  bytesReader,
  dateReader,
  decimalText,
  decimalTypeOf,
  dictionaryId,
  dictionaryReader,
  floatReader,
  integerReader,
  intTypeOf,
  plainStringReader,
  storedUnit,
  unscaledReader,
} from './physical.js';

export interface ReadContext {
  readonly limits: DecodeLimits;
  readonly budget: ElementBudget;
  /**
   * Decoded dictionary values per dictionary id, index for index: enum members (undefined where
   * not a member), strings, or without a schema whatever the values are.
   */
  readonly dictionaries: ReadonlyMap<number, readonly unknown[]>;
  /** Where the batch starts in the input, for error offsets. */
  readonly offset: number;
}

const two32 = 4_294_967_296;

/** The null bitmap of a column, or undefined when it has no nulls. */
export function nullsOf(data: Data): Uint8Array | undefined {
  return data.nullCount > 0 ? data.nullBitmap : undefined;
}

export function isNull(bits: Uint8Array | undefined, i: number): boolean {
  return bits !== undefined && (((bits[i >> 3] as number) >> (i & 7)) & 1) === 0;
}

/**
 * A null where the schema allows none. Arrow lets the children of a null struct entry hold
 * anything, nulls included, so such a null is only an error once it lands in a value: the
 * containers check for this marker as they fill objects, lists and maps.
 */
export const misplacedNull = Symbol('a null where the schema allows none');

/** What a column's plan says of its nulls: every node of a plan has it, with or without a schema. */
export type Nullability = Pick<PlanBase, 'nullable' | 'nullValue'>;

export function nullValue(plan: Nullability): null | undefined | typeof misplacedNull {
  return plan.nullable ? plan.nullValue : misplacedNull;
}

/** Refuses the null at index `i` of its column. */
export function refuseNull(i: number): never {
  return fault(i, nullMessage);
}

/**
 * `value`, the entry at index `i` of its column, unless the column's `rule` refuses it
 * (value-rules.ts): then a fault that names the entry's row and column.
 */
export function keptAt<T>(rule: Rule<never>, value: T, i: number): T {
  const refusal = refusalBy(rule, value);
  if (refusal !== undefined) fault(i, refusal.message);
  return value;
}

/**
 * The same check for the compiled reader, which has no column index at hand: any error there
 * sends the batch to the interpreter (keptAt above), whose error stands.
 */
export function kept<T>(rule: Rule<never> | undefined, value: T, ctx: ReadContext): T {
  const refusal = refusalBy(rule, value);
  if (refusal !== undefined) throw mismatch(ctx.offset, refusal.message, 'arrow');
  return value;
}

/** A per-value reader whose values are held to `rule`, or `read` itself without one. */
function ruled<T>(rule: Rule<never> | undefined, read: (i: number) => T): (i: number) => T {
  return rule === undefined ? read : (i) => keptAt(rule, read(i), i);
}

export function readScalars(
  plan: Plan,
  data: Data,
  start: number,
  count: number,
  ctx: ReadContext,
): unknown[] {
  const out = new Array<unknown>(count);
  const bits = nullsOf(data);
  const values = data.values as ArrayLike<number>;
  const end = start + count;
  switch (plan.k) {
    case 'int':
      if (plan.range !== undefined || !sameInt(data, plan.type))
        return readEach(plan, data, start, count, intConverter(plan, data));
      for (let i = start; i < end; i++) out[i - start] = values[i];
      break;
    case 'float':
      // A bounded float (t.float64({ min, max })) is held to its rule value by value.
      if (
        plan.rule !== undefined ||
        (data.type as unknown as { precision: number }).precision !== (plan.bits === 32 ? 1 : 2)
      )
        return readEach(plan, data, start, count, ruled(plan.rule, floatConverter(plan.bits, data)));
      for (let i = start; i < end; i++) out[i - start] = values[i];
      break;
    case 'bool':
      for (let i = start; i < end; i++) out[i - start] = (((values[i >> 3] as number) >> (i & 7)) & 1) === 1;
      break;
    case 'int64':
      if (plan.asNumber || !sameInt(data, plan.type))
        return readEach(plan, data, start, count, int64Reader(plan.signed, data, ctx, plan.asNumber));
      for (let i = start; i < end; i++) out[i - start] = (values as unknown as ArrayLike<bigint>)[i];
      break;
    case 'timestamp':
      return readEach(plan, data, start, count, ruled(plan.rule, timestampReader(plan.unit, data, ctx)));
    case 'enum':
      return readEach(plan, data, start, count, enumReader(plan.members, data, ctx));
    case 'text':
      return readEach(plan, data, start, count, ruled(plan.rule, textReader(plan, data, start, count, ctx)));
    default:
      return readEach(plan, data, start, count, otherReader(plan, data, start, count, ctx));
  }
  // Values under a null are whatever the writer left there; readers above cannot fail on them.
  if (bits !== undefined)
    for (let i = start; i < end; i++) if (isNull(bits, i)) out[i - start] = nullValue(plan);
  return out;
}

/** Reads each non-null entry with `read`, which may throw on a bad value. */
function readEach(
  plan: Plan,
  data: Data,
  start: number,
  count: number,
  read: (i: number) => unknown,
): unknown[] {
  const out = new Array<unknown>(count);
  const bits = nullsOf(data);
  for (let k = 0; k < count; k++) {
    const i = start + k;
    out[k] = isNull(bits, i) ? nullValue(plan) : read(i);
  }
  return out;
}

/** Whether an Int column has the width and signedness of `type` (the codec's own). */
function sameInt(data: Data, type: unknown): boolean {
  const want = type as { bitWidth: number; isSigned: boolean };
  const got = intTypeOf(data);
  return got.bitWidth === want.bitWidth && got.isSigned === want.isSigned;
}

/**
 * A peer's integer of another width or signedness, kept when the schema's kind holds it; and any
 * integer of a bounded schema, kept when within its bounds.
 */
function intConverter(plan: Extract<Plan, { k: 'int' }>, data: Data): (i: number) => number {
  const read = integerReader(data);
  const [min, max] = plan.range ?? smallIntRange[plan.kind];
  const range = plan.range === undefined ? plan.kind : `${plan.kind} ${min}..${max}`;
  return (i) => {
    const value = read(i);
    if (typeof value === 'bigint' || value < min || value > max) fault(i, `${value} is outside ${range}`);
    return value;
  };
}

/** A peer's float of another precision: float64 holds every one; float32 those it holds exactly. */
function floatConverter(bits: 32 | 64, data: Data): (i: number) => number {
  const read = floatReader(data);
  if (bits === 64) return read;
  return (i) => {
    const value = read(i);
    if (Math.fround(value) !== value && !Number.isNaN(value)) fault(i, `${value} is not exactly a float32`);
    return value;
  };
}

const int64Ranges = {
  signed: [-(2n ** 63n), 2n ** 63n - 1n],
  unsigned: [0n, 2n ** 64n - 1n],
} as const;

/**
 * Entry i of an integer column for an int64 or uint64 field: a bigint, or with `asNumber` a
 * number (refused beyond a safe integer). A peer's other widths and signedness are read when
 * the value is in range.
 */
export function int64Reader(
  signed: boolean,
  data: Data,
  _ctx: ReadContext,
  asNumber = true,
): (i: number) => number | bigint {
  const kind = signed ? 'int64' : 'uint64';
  if (asNumber && sameInt(data, { bitWidth: 64, isSigned: signed })) {
    const values = data.values as ArrayBufferView;
    const words = new Int32Array(values.buffer, values.byteOffset, 2 * data.length);
    return (i) => {
      const high = words[2 * i + 1] as number;
      const low = (words[2 * i] as number) >>> 0;
      const value = signed ? high * two32 + low : (high >>> 0) * two32 + low;
      if (!Number.isSafeInteger(value)) fault(i, `${value} is beyond a safe integer (as: 'number')`);
      return value;
    };
  }
  const read = integerReader(data);
  const [min, max] = int64Ranges[signed ? 'signed' : 'unsigned'];
  return (i) => {
    const value = read(i);
    if (typeof value === 'number') {
      if (!signed && value < 0) fault(i, `${value} is outside ${kind}`);
      return asNumber ? value : BigInt(value);
    }
    if (value < min || value > max) fault(i, `${value} is outside ${kind}`);
    if (asNumber) fault(i, `${value} is beyond a safe integer (as: 'number')`);
    return value;
  };
}

const perMilli = { s: 1000, ms: 1, us: 1000, ns: 1_000_000 } as const;

/**
 * Entry i of a timestamp column as a Date. A column in the schema's unit is read in two halves,
 * without a BigInt per value; a peer's other unit, or a date, through dateReader (which refuses a
 * part finer than the schema's unit).
 */
export function timestampReader(
  unit: 's' | 'ms' | 'us' | 'ns',
  data: Data,
  _ctx: ReadContext,
): (i: number) => Date {
  if (data.typeId !== Type.Timestamp || storedUnit(data) !== unit) return dateReader(data, unit);
  const values = data.values as BigInt64Array;
  const words = new Int32Array(values.buffer, values.byteOffset, 2 * data.length);
  const factor = perMilli[unit];
  return (i) => {
    const high = words[2 * i + 1] as number;
    let millis: number;
    // Counts below 2^53 are read as two halves, without a BigInt per value.
    if (high >= -0x200000 && high < 0x200000) {
      const count = high * two32 + ((words[2 * i] as number) >>> 0);
      millis = unit === 's' ? count * 1000 : unit === 'ms' ? count : Math.floor(count / factor);
    } else {
      const count = values[i] as bigint;
      const divisor = BigInt(factor);
      let quotient = count / divisor;
      if (count % divisor !== 0n && count < 0n) quotient -= 1n;
      millis = unit === 's' ? Number(count) * 1000 : Number(quotient);
    }
    if (!(Math.abs(millis) <= 8.64e15)) fault(i, 'a timestamp is outside the range of Date');
    return new Date(millis);
  };
}

/**
 * Entry i of an enum column: a dictionary-encoded column (its members were decoded with the
 * dictionary, see ipc-reader.ts), or a peer's plain strings, each of which must be a member.
 */
export function enumReader(members: readonly string[], data: Data, ctx: ReadContext): (i: number) => string {
  const notMember = (i: number): never => fault(i, `a value is not a member of ${members.join(', ')}`);
  if (data.typeId !== Type.Dictionary) {
    const known = new Set(members);
    const text = plainStringReader(data, 0, data.length);
    return (i) => {
      const value = text(i);
      return known.has(value) ? value : notMember(i);
    };
  }
  const names = ctx.dictionaries.get(dictionaryId(data)) as readonly (string | undefined)[];
  return dictionaryReader(data, names, notMember);
}

/**
 * Entry i of a text column: Utf8, a peer's LargeUtf8, or either dictionary-encoded (the strings
 * are decoded with the dictionary).
 */
export function stringReader(
  data: Data,
  start: number,
  count: number,
  ctx?: ReadContext,
): (i: number) => string {
  if (data.typeId !== Type.Dictionary) return plainStringReader(data, start, count);
  const strings = ctx?.dictionaries.get(dictionaryId(data)) as readonly string[];
  return dictionaryReader(data, strings, (i) => fault(i, 'a dictionary entry is missing'));
}

/** The strings of a dictionary batch, where a null has no meaning. */
export function readStrings(data: Data, count: number, offset: number): string[] {
  if (data.nullCount > 0) throw mismatch(offset, 'a dictionary of strings holds a null', 'arrow');
  const text = plainStringReader(data, 0, count);
  return Array.from({ length: count }, (_, i) => text(i));
}

function textReader(
  plan: Extract<Plan, { k: 'text' }>,
  data: Data,
  start: number,
  count: number,
  ctx: ReadContext,
): (i: number) => unknown {
  const text = stringReader(data, start, count, ctx);
  // A decimal's spelling, scale and precision are its rule's, which the caller applies.
  if (plan.text === 'string' || plan.text === 'decimal') return text;
  const read = jsonReader(text, plan.depth, ctx);
  // A declared Struct or ListValue holds an object or an array (JsonSchema.proto).
  const { shape } = plan;
  return shape === undefined ? read : (i) => keptAt(shape, read(i), i);
}

/** The values of a JSON column (text), each parsed and held to the limits of a decoded value. */
export function jsonReader(
  text: (i: number) => string,
  depth: number,
  ctx: ReadContext,
): (i: number) => unknown {
  return (i) => {
    let value: unknown;
    try {
      value = JSON.parse(text(i));
    } catch {
      fault(i, 'a JSON column holds text that is not JSON');
    }
    checkJson(value, depth, ctx);
    return value;
  };
}

/**
 * A JSON column's value is held to the json kind's rule and the batch's limits like any decoded
 * value (checkParsedJson): nesting, items and members, unsafe keys, a number past float64.
 */
function checkJson(value: unknown, depth: number, ctx: ReadContext): void {
  const { limits, budget, offset } = ctx;
  const count = (items: number): void => {
    budget.used += items;
    if (budget.used > limits.maxElements) throw tooManyElements(offset, limits);
  };
  checkParsedJson(value, { depth, maxDepth: limits.maxDepth, count }, offset);
}

/** Decimals, bytes and literals. */
function otherReader(
  plan: Plan,
  data: Data,
  start: number,
  count: number,
  ctx: ReadContext,
): (i: number) => unknown {
  switch (plan.k) {
    case 'decimal':
      return decimalReader(plan.precision, plan.scale, data);
    case 'bytes':
      return ruled(plan.rule, bytesReader(data));
    case 'literal': {
      const { storage, value } = plan;
      const stored = readScalars(storage, data, start, count, ctx);
      return (i) => {
        if (stored[i - start] !== value) fault(i, `expected the literal ${JSON.stringify(value)}`);
        return value;
      };
    }
    default:
      throw mismatch(ctx.offset, `${plan.k} is not a leaf column`, 'arrow');
  }
}

/**
 * Entry i of a decimal column as text with the schema's scale. A peer's other width, precision or
 * scale is read when the value is exactly a number of the schema's: fraction digits beyond its
 * scale must be zeros, and the digits must fit its precision.
 */
function decimalReader(precision: number, scale: number, data: Data): (i: number) => string {
  const read = unscaledReader(data);
  const stored = decimalTypeOf(data).scale;
  const up = stored < scale ? 10n ** BigInt(scale - stored) : 1n;
  const down = stored > scale ? 10n ** BigInt(stored - scale) : 1n;
  const limit = 10n ** BigInt(Math.max(precision, scale + 1));
  return (i: number): string => {
    let unscaled = read(i);
    if (down !== 1n) {
      if (unscaled % down !== 0n)
        fault(i, `a decimal has more fraction digits than the schema's scale ${scale}`);
      unscaled /= down;
    } else unscaled *= up;
    if (unscaled >= limit || -unscaled >= limit) fault(i, `a decimal has more than ${precision} digits`);
    return decimalText(unscaled, scale);
  };
}
