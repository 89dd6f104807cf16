/**
 * Leaf columns from JavaScript values: each writer checks the type of every value as it stores it
 * into a typed array, so that a wrong value fails with its position instead of becoming zeros.
 */
import type { Data } from 'apache-arrow';
import { describeValue, WirekitError } from '../../../errors/index.js';
import { smallIntRange } from '../../../schema/int-ranges.js';
import { jsonValueText } from '../../../schema/json-kind.js';
import { type Refusal, type Rule, refusalBy } from '../../../schema/value-rules.js';
import { newData } from '../data.js';
import type { EnumPlan, Plan } from '../plan.js';
import { ByteSink, checkOffset } from './sink.js';

type PlanOf<K extends Plan['k']> = Extract<Plan, { k: K }>;

/** A wrong value at `index` of the column; parents put their part of the path in front. */
export function wrongValue(index: number, expected: string, value: unknown): WirekitError {
  return new WirekitError('WK_VALIDATION_FAILED', `expected ${expected}, got ${describeValue(value)}.`, {
    path: [index],
  });
}

/** A value at `index` that the column's rule refuses (value-rules.ts), with the rule's message. */
function refusedAt(index: number, refusal: Refusal): WirekitError {
  return new WirekitError('WK_VALIDATION_FAILED', refusal.message, { path: [index] });
}

/**
 * The slots of a column that lie under a null ancestor (1 for each): Arrow keeps a child slot
 * under a null struct entry, and the writer fills it with a placeholder of the child's type
 * (plan.ts). A placeholder is no value of the row, so it is held to no constraint, as `validate`
 * looks at present values only; undefined when no ancestor is null.
 */
export type Placeholders = Uint8Array | undefined;

/** Refuses the value at `index` where `rule` does, unless the slot holds a placeholder. */
export function keepAt(
  rule: Rule<never> | undefined,
  index: number,
  value: unknown,
  placeholders?: Placeholders,
): void {
  if (placeholders !== undefined && placeholders[index] === 1) return;
  const refusal = refusalBy(rule, value);
  if (refusal !== undefined) throw refusedAt(index, refusal);
}

/**
 * Tracks nulls while a column is written. The bitmap exists only once a null shows up: most columns
 * have none, and Arrow lets a column without nulls leave its validity buffer out.
 */
export class Validity {
  private bits: Uint8Array | undefined;
  nulls = 0;

  constructor(
    private readonly plan: Plan,
    private readonly length: number,
  ) {}

  /** Records a null at `index`, or throws when the schema allows no null or absence there. */
  null(index: number, value: unknown, expected: string): void {
    const allowed = value === null ? this.plan.allowNull : value === undefined && this.plan.allowAbsent;
    if (!allowed) throw wrongValue(index, expected, value);
    this.bits ??= new Uint8Array((this.length + 7) >> 3).fill(0xff);
    this.bits[index >> 3] = (this.bits[index >> 3] as number) & ~(1 << (index & 7));
    this.nulls++;
  }

  /** The null count and bitmap, as newData takes them. */
  get props(): { nullCount: number; nullBitmap?: Uint8Array } {
    return this.bits === undefined ? { nullCount: 0 } : { nullCount: this.nulls, nullBitmap: this.bits };
  }
}

export function encodeBool(plan: PlanOf<'bool'>, values: readonly unknown[], n: number): Data {
  const validity = new Validity(plan, n);
  const bits = new Uint8Array((n + 7) >> 3);
  for (let i = 0; i < n; i++) {
    const value = values[i];
    if (value === true) bits[i >> 3] = (bits[i >> 3] as number) | (1 << (i & 7));
    else if (value !== false) validity.null(i, value, 'a boolean');
  }
  return newData(plan.type, n, validity.props, { values: bits });
}

export const intArrays = {
  int8: Int8Array,
  int16: Int16Array,
  int32: Int32Array,
  uint8: Uint8Array,
  uint16: Uint16Array,
  uint32: Uint32Array,
} as const;

export function encodeInt(plan: PlanOf<'int'>, values: readonly unknown[], n: number): Data {
  const validity = new Validity(plan, n);
  const out = new intArrays[plan.kind](n);
  const [min, max] = plan.range ?? smallIntRange[plan.kind];
  for (let i = 0; i < n; i++) {
    const value = values[i];
    if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) out[i] = value;
    else validity.null(i, value, `an integer from ${min} to ${max}`);
  }
  return newData(plan.type, n, validity.props, { values: out });
}

const two32 = 4_294_967_296;

/**
 * Stores a safe integer as two 32-bit halves (little-endian, as Arrow and typed arrays on every
 * platform Node runs on are): no BigInt is allocated per value.
 */
function putSafe(words: Uint32Array, i: number, value: number): void {
  const high = Math.floor(value / two32);
  words[2 * i] = value - high * two32;
  words[2 * i + 1] = high >>> 0;
}

export function encodeInt64(plan: PlanOf<'int64'>, values: readonly unknown[], n: number): Data {
  const validity = new Validity(plan, n);
  const out = plan.signed ? new BigInt64Array(n) : new BigUint64Array(n);
  if (plan.asNumber) {
    const words = new Uint32Array(out.buffer);
    for (let i = 0; i < n; i++) {
      const value = values[i];
      if (typeof value === 'number' && Number.isSafeInteger(value) && (plan.signed || value >= 0))
        putSafe(words, i, value);
      else validity.null(i, value, `a safe integer${plan.signed ? '' : ' of at least 0'}`);
    }
  } else {
    const wrap = plan.signed ? BigInt.asIntN : BigInt.asUintN;
    for (let i = 0; i < n; i++) {
      const value = values[i];
      if (typeof value === 'bigint' && wrap(64, value) === value) out[i] = value;
      else validity.null(i, value, `a bigint within ${plan.signed ? 'int64' : 'uint64'}`);
    }
  }
  return newData(plan.type, n, validity.props, { values: out });
}

export function encodeFloat(
  plan: PlanOf<'float'>,
  values: readonly unknown[],
  n: number,
  placeholders?: Placeholders,
): Data {
  const validity = new Validity(plan, n);
  const out = plan.bits === 32 ? new Float32Array(n) : new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const value = values[i];
    if (typeof value !== 'number') {
      validity.null(i, value, 'a number');
      continue;
    }
    out[i] = value;
    // A finite number beyond float32 would be stored as an infinity (fitsFloat32 of value-rules.ts).
    if (plan.bits === 32 && !Number.isFinite(out[i]) && Number.isFinite(value))
      throw wrongValue(i, 'a number within float32', value);
    if (plan.rule !== undefined) keepAt(plan.rule, i, value, placeholders);
  }
  return newData(plan.type, n, validity.props, { values: out });
}

const decimalText = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

export function encodeDecimal(
  plan: PlanOf<'decimal'>,
  values: readonly unknown[],
  n: number,
  placeholders?: Placeholders,
): Data {
  const validity = new Validity(plan, n);
  const { precision, scale, words } = plan;
  const out = new BigUint64Array(n * words);
  const expected = `a decimal string with at most ${precision - scale} integer and ${scale} fraction digits`;
  for (let i = 0; i < n; i++) {
    const value = values[i];
    if (typeof value !== 'string') {
      validity.null(i, value, expected);
      continue;
    }
    // The rule holds the text to the scale and precision the column stores.
    keepAt(plan.rule, i, value, placeholders);
    const [, sign, whole = '0', fraction = ''] = decimalText.exec(value) as RegExpExecArray;
    let unscaled = BigInt(sign + whole + fraction.padEnd(scale, '0'));
    for (let w = 0; w < words; w++) {
      out[i * words + w] = BigInt.asUintN(64, unscaled);
      unscaled >>= 64n;
    }
  }
  return newData(plan.type, n, validity.props, { values: new Uint32Array(out.buffer) });
}

export function encodeText(
  plan: PlanOf<'text'>,
  values: readonly unknown[],
  n: number,
  placeholders?: Placeholders,
): Data {
  const validity = new Validity(plan, n);
  const offsets = new Int32Array(n + 1);
  const sink = new ByteSink(n * 8);
  const expected =
    plan.text === 'json' ? 'a JSON value' : `a ${plan.text === 'decimal' ? 'decimal ' : ''}string`;
  for (let i = 0; i < n; i++) {
    const value = values[i];
    // JSON is stored as its text; only an absent optional JSON field is a null.
    const text =
      plan.text !== 'json' || (value === undefined && plan.allowAbsent)
        ? value
        : jsonText(i, value, plan, placeholders);
    if (typeof text !== 'string') validity.null(i, value, expected);
    else {
      if (plan.rule !== undefined) keepAt(plan.rule, i, text, placeholders);
      if (!sink.writeString(text)) throw loneSurrogate(i);
    }
    offsets[i + 1] = checkOffset(sink.size);
  }
  return newData(plan.type, n, validity.props, { offsets, values: sink.finish() });
}

function loneSurrogate(index: number): WirekitError {
  return new WirekitError(
    'WK_ENCODE_UNSUPPORTED',
    'a string holds a lone surrogate, which UTF-8 cannot carry.',
    {
      path: [index],
    },
  );
}

/**
 * JSON text of the json value of row `index`, by the json kind's one rule (json-kind.ts), as every
 * format writes it: anything JSON would drop or change (undefined, NaN, a Date) is refused, so is a
 * key every wirekit decoder refuses, and so is nesting past the codec's maxDepth, counted from the
 * column's own level.
 */
function jsonText(index: number, value: unknown, plan: PlanOf<'text'>, placeholders?: Placeholders): string {
  if (plan.shape !== undefined) keepAt(plan.shape, index, value, placeholders);
  try {
    return jsonValueText(value, plan.depth, plan.maxDepth ?? plan.depth);
  } catch (error) {
    // The path stops at the json field (as Protocol Buffers' does); the message says where inside.
    if (!(error instanceof WirekitError)) throw error;
    throw new WirekitError(error.code, error.message, { path: [index], format: 'arrow' });
  }
}

export function encodeBytes(
  plan: PlanOf<'bytes'>,
  values: readonly unknown[],
  n: number,
  placeholders?: Placeholders,
): Data {
  const validity = new Validity(plan, n);
  const offsets = new Int32Array(n + 1);
  const sink = new ByteSink(n * 8);
  for (let i = 0; i < n; i++) {
    const value = values[i];
    if (value instanceof Uint8Array) {
      if (plan.rule !== undefined) keepAt(plan.rule, i, value, placeholders);
      sink.writeBytes(value);
    } else validity.null(i, value, 'a Uint8Array');
    offsets[i + 1] = checkOffset(sink.size);
  }
  return newData(plan.type, n, validity.props, { offsets, values: sink.finish() });
}

export const unitsPerMilli = { s: 0.001, ms: 1, us: 1000, ns: 1_000_000 } as const;

export function encodeTimestamp(
  plan: PlanOf<'timestamp'>,
  values: readonly unknown[],
  n: number,
  placeholders?: Placeholders,
): Data {
  const validity = new Validity(plan, n);
  const out = new BigInt64Array(n);
  const words = new Uint32Array(out.buffer);
  const perMilli = unitsPerMilli[plan.unit];
  for (let i = 0; i < n; i++) {
    const value = values[i];
    const millis = value instanceof Date ? value.getTime() : Number.NaN;
    if (Number.isNaN(millis)) {
      validity.null(i, value, 'a valid Date');
      continue;
    }
    // Seconds: whole seconds only; nanoseconds: within 2^63 of them.
    if (plan.rule !== undefined) keepAt(plan.rule, i, value, placeholders);
    if (perMilli < 1) {
      putSafe(words, i, millis / 1000);
      continue;
    }
    // millis = high * 2^32 + low; each part times the unit stays exact below 2^53.
    const high = Math.floor(millis / two32);
    const low = (millis - high * two32) * perMilli;
    const carry = Math.floor(low / two32);
    const top = high * perMilli + carry;
    if (top < -2_147_483_648 || top > 2_147_483_647)
      throw wrongValue(i, `a Date that fits a 64-bit count of ${plan.unit}`, value);
    words[2 * i] = low - carry * two32;
    words[2 * i + 1] = top >>> 0;
  }
  return newData(plan.type, n, validity.props, { values: out });
}

export function encodeEnum(plan: EnumPlan, values: readonly unknown[], n: number): Data {
  const validity = new Validity(plan, n);
  const out = plan.bits === 8 ? new Int8Array(n) : plan.bits === 16 ? new Int16Array(n) : new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const value = values[i];
    const index = typeof value === 'string' ? plan.indexOf.get(value) : undefined;
    if (index !== undefined) out[i] = index;
    else validity.null(i, value, `one of ${plan.members.slice(0, 10).join(', ')}`);
  }
  return newData(plan.type, n, validity.props, { values: out }, [], plan.dictionary);
}

/** Literal values are checked, then stored in their base type's column. */
export function checkLiterals(plan: PlanOf<'literal'>, values: readonly unknown[], n: number): void {
  const expected = JSON.stringify(plan.value);
  for (let i = 0; i < n; i++) {
    const value = values[i];
    if (value !== plan.value && !(value === null ? plan.allowNull : value === undefined && plan.allowAbsent))
      throw wrongValue(i, expected, value);
  }
}
