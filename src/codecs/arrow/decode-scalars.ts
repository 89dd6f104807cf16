/**
 * Leaf columns of checked Data (see load.ts) to JavaScript values. The common kinds get a loop of
 * their own; the rare ones (decimals, JSON, literals, bytes, int64 as numbers) read through a
 * per-value function.
 */
import { Buffer, isAscii } from 'node:buffer';
import type { Data, Dictionary } from 'apache-arrow';
import { type Rule, refusalBy } from '../../schema/value-rules.js';
import { isUnsafeKey, mismatch, tooDeep, tooManyElements, unsafeKey } from '../errors.js';
import type { DecodeLimits } from '../limits.js';
import type { ElementBudget } from './load.js';
import type { Plan } from './plan.js';

export interface ReadContext {
  readonly limits: DecodeLimits;
  readonly budget: ElementBudget;
  /** Decoded enum members per dictionary id, index for index; undefined where not a member. */
  readonly dictionaries: ReadonlyMap<number, readonly (string | undefined)[]>;
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

export function nullValue(plan: Plan): null | undefined | typeof misplacedNull {
  return plan.nullable ? plan.nullValue : misplacedNull;
}

/**
 * `value` unless the column's `rule` refuses it (value-rules.ts): then the refusal as a schema
 * mismatch at the batch. The column readers and the compiled reader call it.
 */
export function kept<T>(rule: Rule<never> | undefined, value: T, ctx: ReadContext): T {
  const refusal = refusalBy(rule, value);
  if (refusal !== undefined) throw mismatch(ctx.offset, `Arrow: ${refusal.message}`);
  return value;
}

/** A per-value reader whose values are held to `rule`, or `read` itself without one. */
function ruled<T>(rule: Rule<never> | undefined, read: (i: number) => T, ctx: ReadContext): (i: number) => T {
  return rule === undefined ? read : (i) => kept(rule, read(i), ctx);
}

export function refuseNull(ctx: ReadContext): never {
  throw mismatch(ctx.offset, 'Arrow: a null where the schema allows none');
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
    case 'float':
      for (let i = start; i < end; i++) out[i - start] = values[i];
      break;
    case 'bool':
      for (let i = start; i < end; i++) out[i - start] = (((values[i >> 3] as number) >> (i & 7)) & 1) === 1;
      break;
    case 'int64':
      if (plan.asNumber) return readEach(plan, data, start, count, int64Reader(plan.signed, data, ctx));
      for (let i = start; i < end; i++) out[i - start] = (values as unknown as ArrayLike<bigint>)[i];
      break;
    case 'timestamp':
      return readEach(plan, data, start, count, ruled(plan.rule, timestampReader(plan.unit, data, ctx), ctx));
    case 'enum':
      return readEach(plan, data, start, count, enumReader(plan.members, data, ctx));
    case 'text':
      return readEach(
        plan,
        data,
        start,
        count,
        ruled(plan.rule, textReader(plan, data, start, count, ctx), ctx),
      );
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

export function int64Reader(signed: boolean, data: Data, ctx: ReadContext): (i: number) => number {
  const values = data.values as ArrayBufferView;
  const words = new Int32Array(values.buffer, values.byteOffset, 2 * data.length);
  return (i) => {
    const high = words[2 * i + 1] as number;
    const low = (words[2 * i] as number) >>> 0;
    const value = signed ? high * two32 + low : (high >>> 0) * two32 + low;
    if (!Number.isSafeInteger(value))
      throw mismatch(ctx.offset, `Arrow: ${value} is beyond a safe integer (as: 'number')`);
    return value;
  };
}

const perMilli = { s: 1000, ms: 1, us: 1000, ns: 1_000_000 } as const;

export function timestampReader(
  unit: 's' | 'ms' | 'us' | 'ns',
  data: Data,
  ctx: ReadContext,
): (i: number) => Date {
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
    if (!(Math.abs(millis) <= 8.64e15))
      throw mismatch(ctx.offset, 'Arrow: a timestamp is outside the range of Date');
    return new Date(millis);
  };
}

export function enumReader(members: readonly string[], data: Data, ctx: ReadContext): (i: number) => string {
  const names = ctx.dictionaries.get((data.type as Dictionary).id) as readonly (string | undefined)[];
  const indices = data.values as ArrayLike<number>;
  return (i) => {
    const member = names[indices[i] as number];
    if (member === undefined)
      throw mismatch(ctx.offset, `Arrow: a dictionary value is not a member of ${members.join(', ')}`);
    return member;
  };
}

/**
 * Entry i of a Utf8 column (UTF-8 checked in load.ts). An all-ASCII run is decoded once and sliced,
 * several times faster than a decode per value; slices of 13 characters or more share that string
 * in V8, so a kept value keeps its batch's text alive, as a view of the input would.
 */
export function stringReader(data: Data, start: number, count: number): (i: number) => string {
  const bytes = data.values as Uint8Array;
  const offsets = data.valueOffsets as Int32Array;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const from = offsets[start] as number;
  const to = offsets[start + count] as number;
  if (isAscii(view.subarray(from, to))) {
    const all = view.toString('latin1', from, to);
    return (i) => all.slice((offsets[i] as number) - from, (offsets[i + 1] as number) - from);
  }
  return (i) => view.toString('utf8', offsets[i], offsets[i + 1]);
}

/** The strings of a dictionary batch, where a null has no meaning. */
export function readStrings(data: Data, count: number, offset: number): string[] {
  if (data.nullCount > 0) throw mismatch(offset, 'Arrow: an enum dictionary holds a null');
  const text = stringReader(data, 0, count);
  return Array.from({ length: count }, (_, i) => text(i));
}

function textReader(
  plan: Extract<Plan, { k: 'text' }>,
  data: Data,
  start: number,
  count: number,
  ctx: ReadContext,
): (i: number) => unknown {
  const text = stringReader(data, start, count);
  // A decimal's spelling, scale and precision are its rule's, which the caller applies.
  if (plan.text === 'string' || plan.text === 'decimal') return text;
  return (i) => {
    let value: unknown;
    try {
      value = JSON.parse(text(i));
    } catch {
      throw mismatch(ctx.offset, 'Arrow: a JSON column holds text that is not JSON');
    }
    checkJson(value, plan.depth, ctx);
    return value;
  };
}

/** JSON values nest and hold keys like any decoded value: the same limits and key rules apply. */
function checkJson(value: unknown, depth: number, ctx: ReadContext): void {
  if (typeof value !== 'object' || value === null) return;
  if (depth + 1 > ctx.limits.maxDepth) throw tooDeep(ctx.offset, ctx.limits);
  if (Array.isArray(value)) {
    ctx.budget.used += value.length;
    if (ctx.budget.used > ctx.limits.maxElements) throw tooManyElements(ctx.offset, ctx.limits);
    for (const item of value) checkJson(item, depth + 1, ctx);
    return;
  }
  const keys = Object.keys(value);
  ctx.budget.used += keys.length;
  if (ctx.budget.used > ctx.limits.maxElements) throw tooManyElements(ctx.offset, ctx.limits);
  for (const key of keys) {
    if (isUnsafeKey(key)) throw unsafeKey(ctx.offset, key);
    checkJson((value as Record<string, unknown>)[key], depth + 1, ctx);
  }
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
      return decimalReader(plan.precision, plan.scale, plan.words, data.values as Uint32Array, ctx);
    case 'bytes': {
      const bytes = data.values as Uint8Array;
      const offsets = data.valueOffsets as Int32Array;
      // A copy: a view would keep the whole input alive and let callers write into it.
      return ruled(plan.rule, (i) => bytes.slice(offsets[i], offsets[i + 1]), ctx);
    }
    case 'literal': {
      const { storage, value } = plan;
      const stored = readScalars(storage, data, start, count, ctx);
      return (i) => {
        if (stored[i - start] !== value)
          throw mismatch(ctx.offset, `Arrow: expected the literal ${JSON.stringify(value)}`);
        return value;
      };
    }
    default:
      throw mismatch(ctx.offset, `Arrow: ${plan.k} is not a leaf column`);
  }
}

function decimalReader(
  precision: number,
  scale: number,
  words: number,
  values: Uint32Array,
  ctx: ReadContext,
) {
  // load.ts aligns decimal words to 4 bytes; 64-bit views need 8.
  const big =
    values.byteOffset % 8 === 0
      ? new BigUint64Array(values.buffer, values.byteOffset, values.length / 2)
      : new BigUint64Array(values.slice().buffer);
  const bits = 64 * words;
  return (i: number): string => {
    let unscaled = 0n;
    for (let w = words - 1; w >= 0; w--) unscaled = (unscaled << 64n) | (big[i * words + w] as bigint);
    unscaled = BigInt.asIntN(bits, unscaled);
    const negative = unscaled < 0n;
    const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
    if (digits.length > Math.max(precision, scale + 1))
      throw mismatch(ctx.offset, `Arrow: a decimal has more than ${precision} digits`);
    const whole = digits.slice(0, digits.length - scale);
    const text = scale === 0 ? whole : `${whole}.${digits.slice(digits.length - scale)}`;
    return negative ? `-${text}` : text;
  };
}
