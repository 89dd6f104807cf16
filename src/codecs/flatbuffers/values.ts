/**
 * Conversions between schema values and what a slot stores, shared by the encoder and the readers:
 * type checks on the way in (a wrong type must not be written as something else), timestamps as
 * counts of their unit, 64-bit integers as numbers where the schema asks for them.
 */
import { describeValue, WirekitBug, WirekitError } from '../../errors/index.js';
import type { TimePrecision } from '../../schema/index.js';
import { largeIntRange, smallIntRange } from '../../schema/int-ranges.js';
import { fitsFloat32, type Rule, refusalBy, refused } from '../../schema/value-rules.js';
import type { ValuePlan } from './plan.js';

/** The integer kinds' ranges, and a bool's slot, which stores 0 or 1. */
const intRange = { bool: [0, 1], ...smallIntRange } as const;
const [int64Min, int64Max] = largeIntRange.int64;

/** The widest instant a Date holds, in milliseconds either side of the epoch. */
const maxDateMillis = 8.64e15;

const unitsPerMilli: Record<TimePrecision, bigint> = { s: 1n, ms: 1n, us: 1000n, ns: 1_000_000n };

/** Refuses `value` where the plan's `rule` does (value-rules.ts); the compiled writer calls it too. */
export function keep(rule: Rule<never> | undefined, value: unknown): void {
  const refusal = refusalBy(rule, value);
  if (refusal !== undefined) throw refused(refusal);
}

/** A type error found while encoding; callers put the path in front as the error unwinds. */
export function wrong(expected: string, got: unknown): WirekitError {
  return new WirekitError('WK_VALIDATION_FAILED', `expected ${expected}, got ${describeValue(got)}.`, {
    path: [],
  });
}

/**
 * What an inline value stores, checked against its kind: a number, or a bigint for the 64-bit
 * writers. Booleans become 1/0, enum members their index, timestamps counts of their unit.
 */
export function stored(plan: ValuePlan, value: unknown): number | bigint {
  switch (plan.k) {
    case 'scalar':
      switch (plan.kind) {
        case 'bool':
          if (typeof value !== 'boolean') throw wrong('a boolean', value);
          return value ? 1 : 0;
        case 'float32':
          if (typeof value !== 'number') throw wrong('a number', value);
          if (!fitsFloat32(value)) throw wrong('a float32', value);
          keep(plan.rule, value);
          return value;
        case 'float64':
          if (typeof value !== 'number') throw wrong('a number', value);
          keep(plan.rule, value);
          return value;
        case 'int64':
        case 'uint64':
          return large(plan.kind, value, plan.asNumber);
        default: {
          const [min, max] = plan.range ?? intRange[plan.kind];
          if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
            throw wrong(`an ${plan.kind}`, value);
          }
          return value;
        }
      }
    case 'timestamp':
      if (plan.rule !== undefined && value instanceof Date && !Number.isNaN(value.getTime()))
        keep(plan.rule, value);
      return timestampCount(value, plan.precision);
    case 'enum': {
      const index = typeof value === 'string' ? plan.index.get(value) : undefined;
      if (index === undefined) throw wrong(`one of ${plan.members.join(', ')}`, value);
      return index;
    }
    case 'literal':
      if (value !== plan.value) throw wrong(JSON.stringify(plan.value), value);
      return typeof value === 'boolean' ? (value ? 1 : 0) : (value as number);
    default:
      throw new WirekitBug(`FlatBuffers: an inline slot was asked for ${plan.k}, which is not stored inline`);
  }
}

/**
 * The JavaScript type the schema says, as every wirekit codec takes it: a bigint, or with
 * `as: 'number'` a safe integer (docs/values.md); the slot's writer takes a bigint either way.
 */
function large(kind: 'int64' | 'uint64', value: unknown, asNumber: boolean): bigint {
  const [min, max] = largeIntRange[kind];
  if (asNumber) {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
      throw wrong(`a safe ${kind} number`, value);
    }
    return BigInt(value);
  }
  if (typeof value !== 'bigint' || value < min || value > max) throw wrong(`an ${kind} bigint`, value);
  return value;
}

/** Seconds of a whole second (the rule refuses others), finer units exact. */
function timestampCount(value: unknown, precision: TimePrecision): bigint {
  const millis = value instanceof Date ? value.getTime() : Number.NaN;
  if (Number.isNaN(millis)) throw wrong('a valid Date', value);
  const count =
    precision === 's' ? BigInt(Math.floor(millis / 1000)) : BigInt(millis) * unitsPerMilli[precision];
  if (count < int64Min || count > int64Max) throw wrong(`a Date within 64 bits of ${precision}`, value);
  return count;
}

/**
 * The Date for a count of `precision` units stored as two 32-bit halves, or undefined beyond a
 * Date's range. Exact without bigints: 2^32 is split into a multiple of the unit and a remainder,
 * so every intermediate stays a safe integer whenever the result can be a Date.
 */
export function dateOf(low: number, high: number, precision: TimePrecision): Date | undefined {
  let millis: number;
  switch (precision) {
    case 's':
      millis = (high * 4_294_967_296 + low) * 1000;
      break;
    case 'ms':
      millis = high * 4_294_967_296 + low;
      break;
    case 'us':
      // 2^32 = 4_294_967 * 1000 + 296
      millis = high * 4_294_967 + Math.floor((high * 296 + low) / 1000);
      break;
    case 'ns':
      // 2^32 = 4_294 * 10^6 + 967_296
      millis = high * 4_294 + Math.floor((high * 967_296 + low) / 1_000_000);
      break;
  }
  return Math.abs(millis) <= maxDateMillis ? new Date(millis) : undefined;
}

/** A 64-bit integer from its halves as a number, or undefined when it is not a safe integer. */
export function safeInteger(low: number, high: number): number | undefined {
  const value = high * 4_294_967_296 + low;
  return Number.isSafeInteger(value) ? value : undefined;
}
