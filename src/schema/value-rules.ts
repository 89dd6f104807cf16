/**
 * What a value must satisfy beyond its JavaScript type, kind by kind: a string's lengths and pattern,
 * a byte string's length, an array's item counts, a decimal's spelling, scale and precision, a
 * timestamp's range and unit, a float32's range, an object's shape. `validate` reports these, every
 * encoder refuses them (WK_VALIDATION_FAILED, with the path) and every decoder refuses them where
 * its wire can carry them, all through the functions here: one schema means the same in every
 * format, and a value `validate` calls invalid is written by none (docs/values.md).
 *
 * Rules are made once per schema node and are undefined where a schema asks for nothing beyond the
 * type, so an encoder or decoder of an unconstrained schema pays nothing for them; a compiled codec
 * calls the same rule from its generated code, which is one call per constrained value, never a
 * second pass over the value.
 */
import { describeValue, type IssueCode, WirekitError } from '../errors/index.js';
import { isUnsafeKey } from '../util/unsafe-keys.js';
import { type DecimalDigits, decimalDigits } from './decimal.js';
import { intRange } from './int-ranges.js';
import type {
  ArraySchema,
  BytesSchema,
  DecimalSchema,
  FloatSchema,
  IntSchema,
  JsonProtoForm,
  JsonSchema,
  Schema,
  StringSchema,
  TimePrecision,
  TimestampSchema,
} from './types.js';

/** Why a value is refused: the issue `validate` reports, and the message every codec uses. */
export interface Refusal {
  readonly issue: IssueCode;
  readonly message: string;
}

/** The first way a value breaks a schema's constraints, or undefined when it keeps them all. */
export type Rule<T> = (value: T) => Refusal | undefined;

/**
 * `rule`'s answer for `value`, or undefined without a rule: for plans that keep the rules of several
 * kinds in one property (typed `Rule<never>`, which every rule is).
 */
export function refusalBy(rule: Rule<never> | undefined, value: unknown): Refusal | undefined {
  return rule === undefined ? undefined : (rule as Rule<unknown>)(value);
}

/**
 * The rule of any schema node (its string's, bytes', decimal's, timestamp's or array's), typed for a
 * plan that keeps every kind's rule in one property (see refusalBy); undefined for a kind with no
 * constraints and for a node that asks for none.
 */
export function schemaRule(schema: Schema): Rule<never> | undefined {
  switch (schema.kind) {
    case 'string':
      return stringRule(schema) as Rule<never> | undefined;
    case 'bytes':
      return bytesRule(schema) as Rule<never> | undefined;
    case 'decimal':
      return decimalRule(schema) as Rule<never>;
    case 'timestamp':
      return timestampRule(schema) as Rule<never> | undefined;
    case 'array':
      return itemsRule(schema) as Rule<never> | undefined;
    case 'json':
      return jsonRule(schema) as Rule<never> | undefined;
    case 'float32':
    case 'float64':
      return floatRule(schema) as Rule<never> | undefined;
    default:
      return undefined;
  }
}

/**
 * A json value that declares a Struct holds an object, one that declares a ListValue an array
 * (JsonSchema.proto), in every format: what the value holds is the json kind's own walk. A Value
 * holds any JSON value, and its numbers are the json kind's (finite doubles), so it has no rule.
 */
const jsonRules: Readonly<Record<JsonProtoForm, Rule<unknown> | undefined>> = {
  value: undefined,
  struct: (value) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? undefined
      : {
          issue: 'expected_type',
          message: `expected an object (a google.protobuf.Struct), got ${describeValue(value)}.`,
        },
  list: (value) =>
    Array.isArray(value)
      ? undefined
      : {
          issue: 'expected_type',
          message: `expected an array (a google.protobuf.ListValue), got ${describeValue(value)}.`,
        },
};

/** The rule of a json value's declared Protocol Buffers form, if it has one that restricts it. */
export function jsonRule(schema: JsonSchema): Rule<unknown> | undefined {
  return schema.proto === undefined ? undefined : jsonRules[schema.proto];
}

/** The error an encoder throws for a refused value; the encoder puts the path in front as it unwinds. */
export function refused(refusal: Refusal): WirekitError {
  return new WirekitError('WK_VALIDATION_FAILED', refusal.message, { path: [] });
}

/** Every check of a rule, in order: the rule answers the first refusal, `validate` every one. */
const checksOf = new WeakMap<Rule<never>, readonly Rule<never>[]>();

function ruleOf<T>(checks: Rule<T>[]): Rule<T> | undefined {
  if (checks.length === 0) return undefined;
  const rule: Rule<T> =
    checks.length === 1
      ? (checks[0] as Rule<T>)
      : (value) => {
          for (const check of checks) {
            const refusal = check(value);
            if (refusal !== undefined) return refusal;
          }
          return undefined;
        };
  checksOf.set(rule as Rule<never>, checks as Rule<never>[]);
  return rule;
}

/** Every refusal of `rule` for `value`, for reports that list each problem (`validate`). */
export function everyRefusal<T>(rule: Rule<T>, value: T): Refusal[] {
  const checks = (checksOf.get(rule as Rule<never>) ?? [rule]) as readonly Rule<T>[];
  const out: Refusal[] = [];
  for (const check of checks) {
    const refusal = check(value);
    if (refusal !== undefined) out.push(refusal);
  }
  return out;
}

/** A rule per schema node, made on first use; `null` marks a node that has none. */
function cached<S extends object, T>(
  cache: WeakMap<S, Rule<T> | null>,
  schema: S,
  make: (schema: S) => Rule<T> | undefined,
): Rule<T> | undefined {
  let rule = cache.get(schema);
  if (rule === undefined) {
    rule = make(schema) ?? null;
    cache.set(schema, rule);
  }
  return rule ?? undefined;
}

const stringRules = new WeakMap<StringSchema, Rule<string> | null>();

/**
 * `minLength`, `maxLength` (both in code points, as JSON Schema counts them) and `pattern` (a
 * regular expression with the `u` flag) of a string kind, map keys included. Well-formedness is not
 * here: a lone surrogate is refused by each format's UTF-8 writer (WK_ENCODE_UNSUPPORTED), because
 * it is a value no format can carry rather than one the schema forbids.
 */
export function stringRule(schema: StringSchema): Rule<string> | undefined {
  // Most strings have no constraint: the interpreters ask for every value, so answer before the lookup.
  if (schema.minLength === undefined && schema.maxLength === undefined && schema.pattern === undefined) {
    return undefined;
  }
  return cached(stringRules, schema, ({ minLength, maxLength, pattern }) => {
    const checks: Rule<string>[] = [];
    // `text.length` counts UTF-16 units, at least the code points and at most twice them, so the
    // count of code points is needed only near the bounds.
    if (minLength !== undefined) {
      const refusal: Refusal = { issue: 'too_short', message: `at least ${minLength} characters needed.` };
      checks.push((text) =>
        text.length < minLength * 2 && codePoints(text) < minLength ? refusal : undefined,
      );
    }
    if (maxLength !== undefined) {
      const refusal: Refusal = { issue: 'too_long', message: `at most ${maxLength} characters allowed.` };
      checks.push((text) => (text.length > maxLength && codePoints(text) > maxLength ? refusal : undefined));
    }
    if (pattern !== undefined) {
      const regexp = new RegExp(pattern, 'u');
      const refusal: Refusal = { issue: 'pattern_mismatch', message: `does not match /${pattern}/.` };
      checks.push((text) => (regexp.test(text) ? undefined : refusal));
    }
    return ruleOf(checks);
  });
}

/** The number of code points of `text`; a lone surrogate counts as one. */
function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

const intRules = new WeakMap<IntSchema, Rule<number> | null>();

/**
 * `min` and `max` of a small integer kind, for the format that must check a value it does not
 * write: Protocol Buffers leaves a 0 out, and reads an absent field as 0, so where the bounds leave
 * 0 out that default is held to them. Every other check of an integer's range reads `intRange`
 * (int-ranges.ts) where it checks the kind's, at no cost per value.
 */
export function intRule(schema: IntSchema): Rule<number> | undefined {
  if (schema.min === undefined && schema.max === undefined) return undefined;
  return cached(intRules, schema, (bounded) => {
    const [min, max] = intRange(bounded);
    const refusal: Refusal = { issue: 'out_of_range', message: `outside ${bounded.kind} (${min}..${max}).` };
    return ruleOf<number>([(value) => (value < min || value > max ? refusal : undefined)]);
  });
}

const floatRules = new WeakMap<FloatSchema, Rule<number> | null>();

/**
 * `min` and `max` of a float kind, inclusive; NaN is in no range, so a bounded float refuses it. A
 * float32's bounds are float32 values (builders.ts), so a value inside them stays inside once
 * rounded to float32: the encoder's check and the decoder's agree.
 */
export function floatRule(schema: FloatSchema): Rule<number> | undefined {
  if (schema.min === undefined && schema.max === undefined) return undefined;
  return cached(floatRules, schema, ({ kind, min = -Infinity, max = Infinity }) => {
    const refusal: Refusal = { issue: 'out_of_range', message: `outside ${kind} (${min}..${max}).` };
    // Written so that NaN, which compares false to everything, fails it.
    return ruleOf<number>([(value) => (value >= min && value <= max ? undefined : refusal)]);
  });
}

const bytesRules = new WeakMap<BytesSchema, Rule<Uint8Array> | null>();

/** `maxLength` of a bytes kind, or its exact `size`, in bytes. */
export function bytesRule(schema: BytesSchema): Rule<Uint8Array> | undefined {
  if (schema.maxLength === undefined && schema.size === undefined) return undefined;
  return cached(bytesRules, schema, ({ maxLength, size }) => {
    if (size !== undefined) {
      return ruleOf<Uint8Array>([
        (bytes) =>
          bytes.length === size
            ? undefined
            : {
                issue: bytes.length > size ? 'too_long' : 'too_short',
                message: `${bytes.length} bytes, exactly ${size} needed.`,
              },
      ]);
    }
    if (maxLength === undefined) return undefined;
    return ruleOf<Uint8Array>([
      (bytes) =>
        bytes.length > maxLength
          ? { issue: 'too_long', message: `${bytes.length} bytes, at most ${maxLength} allowed.` }
          : undefined,
    ]);
  });
}

const itemRules = new WeakMap<ArraySchema, Rule<number> | null>();

/** `minItems` and `maxItems` of an array kind; the rule takes the number of items. */
export function itemsRule(schema: ArraySchema): Rule<number> | undefined {
  if (schema.minItems === undefined && schema.maxItems === undefined) return undefined;
  return cached(itemRules, schema, ({ minItems, maxItems }) => {
    const checks: Rule<number>[] = [];
    if (minItems !== undefined) {
      checks.push((count) =>
        count < minItems
          ? { issue: 'too_short', message: `${count} items, at least ${minItems} needed.` }
          : undefined,
      );
    }
    if (maxItems !== undefined) {
      checks.push((count) =>
        count > maxItems
          ? { issue: 'too_long', message: `${count} items, at most ${maxItems} allowed.` }
          : undefined,
      );
    }
    return ruleOf(checks);
  });
}

const decimalRules = new WeakMap<DecimalSchema, Rule<string> | null>();

/** A decimal's text in a message, cut at 40 characters: the text may be the input's, of any length. */
function cut(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/**
 * A decimal kind's text: plain notation (schema/decimal.ts), at most `scale` digits after the point
 * (precision_loss: a format that stores the scaled integer would have to round) and at most
 * `precision - scale` before it (out_of_range). Every decimal has this rule, since the spelling is
 * checked whatever the schema declares.
 */
export function decimalRule(schema: DecimalSchema): Rule<string> {
  return cached(decimalRules, schema, ({ precision, scale }) => {
    const integerDigits = precision === undefined ? undefined : precision - (scale ?? 0);
    const spelling: Rule<string> = (text) =>
      decimalDigits(text) === undefined
        ? {
            issue: 'invalid_decimal',
            message: `${JSON.stringify(text.slice(0, 40))} is not a decimal number.`,
          }
        : undefined;
    const fraction = (text: string, digits: DecimalDigits): Refusal | undefined =>
      scale !== undefined && digits.fraction > scale
        ? {
            issue: 'precision_loss',
            message: `${cut(text)} has ${digits.fraction} decimals, scale is ${scale}.`,
          }
        : undefined;
    const integer = (text: string, digits: DecimalDigits): Refusal | undefined =>
      integerDigits !== undefined && digits.integer > integerDigits
        ? {
            issue: 'out_of_range',
            message: `${cut(text)} has too many integer digits for precision ${precision}.`,
          }
        : undefined;
    // One parse per value; `validate` also gets the second problem of a text that has two.
    const rule: Rule<string> = (text) => {
      const digits = decimalDigits(text);
      if (digits === undefined) return spelling(text);
      return fraction(text, digits) ?? integer(text, digits);
    };
    const withDigits =
      (check: (text: string, digits: DecimalDigits) => Refusal | undefined): Rule<string> =>
      (text) => {
        const digits = decimalDigits(text);
        return digits === undefined ? undefined : check(text, digits);
      };
    checksOf.set(rule as Rule<never>, [spelling, withDigits(fraction), withDigits(integer)] as Rule<never>[]);
    return rule;
  }) as Rule<string>;
}

/**
 * The widest instant each precision can store as a signed 64-bit count, in milliseconds either side
 * of the epoch: a Date's own range (8.64e15 ms) except for nanoseconds (2^63 ns).
 */
export const maxEpochMillis: Readonly<Record<TimePrecision, number>> = {
  s: 8.64e15,
  ms: 8.64e15,
  us: 8.64e15,
  ns: 9_223_372_036_854,
};

/**
 * The instants of years 0001 to 9999 in epoch milliseconds, to the last millisecond a Date holds:
 * google.protobuf.Timestamp's range (TimestampSchema.range '0001-9999').
 */
const yearsOneToNineThousand: readonly [number, number] = [-62_135_596_800_000, 253_402_300_799_999];

/**
 * Every way a Date can fail a timestamp: invalid, out of its unit's range or its declared one, finer
 * than its unit.
 */
export function timestampRefusal(schema: TimestampRules, date: Date): Refusal | undefined {
  const { precision } = schema;
  const millis = date.getTime();
  if (Number.isNaN(millis)) return { issue: 'invalid_date', message: 'the Date is invalid.' };
  if (Math.abs(millis) > maxEpochMillis[precision]) {
    return {
      issue: 'out_of_range',
      message: `${date.toISOString()} does not fit a 64-bit count of ${precision}.`,
    };
  }
  if (schema.range !== undefined) {
    const [min, max] = yearsOneToNineThousand;
    if (millis < min || millis > max) {
      return {
        issue: 'out_of_range',
        message: `${date.toISOString()} is outside the years ${schema.range}.`,
      };
    }
  }
  if (precision === 's' && millis % 1000 !== 0) {
    return { issue: 'precision_loss', message: 'the Date has milliseconds, but the precision is seconds.' };
  }
  return undefined;
}

/** What a timestamp's rule reads of its schema. */
type TimestampRules = Pick<TimestampSchema, 'precision' | 'range'>;

const timestampRules: Readonly<Record<TimePrecision, Rule<Date> | undefined>> = {
  s: (date) => timestampRefusal({ precision: 's' }, date),
  // A valid Date is all that ms and us need, and every format checks that with the type.
  ms: undefined,
  us: undefined,
  ns: (date) => timestampRefusal({ precision: 'ns' }, date),
};

/** Each declared range's rule, by precision (a valid Date can break it at every precision). */
const rangedRules = new Map<TimePrecision, Rule<Date>>(
  (['s', 'ms', 'us'] as const).map((precision) => [
    precision,
    (date: Date) => timestampRefusal({ precision, range: '0001-9999' }, date),
  ]),
);

/**
 * The rule of a timestamp, where a valid Date can still break it: at s and ns, and wherever a
 * range is declared.
 */
export function timestampRule(schema: TimestampRules): Rule<Date> | undefined {
  return schema.range === undefined ? timestampRules[schema.precision] : rangedRules.get(schema.precision);
}

/** Whether a number survives as a float32: finite ones must not overflow to an infinity. */
export function fitsFloat32(value: number): boolean {
  return !Number.isFinite(value) || Number.isFinite(Math.fround(value));
}

/** A float32's rule: in range (NaN and the infinities are float32 values too). */
export function float32Refusal(value: number): Refusal | undefined {
  return fitsFloat32(value) ? undefined : { issue: 'out_of_range', message: `${value} overflows float32.` };
}

/**
 * The error for a string-keyed map's key that every wirekit decoder refuses (`__proto__`,
 * `constructor`, `prototype`: WK_DECODE_UNSAFE_KEY), or undefined for any other key. The schema
 * allows such a key and `validate` accepts it, but no wirekit reader takes it back, so every
 * encoder refuses to write it (WK_ENCODE_UNSUPPORTED, the key as the last path segment).
 */
export function unreadableKey(key: string): WirekitError | undefined {
  if (!isUnsafeKey(key)) return undefined;
  return new WirekitError(
    'WK_ENCODE_UNSUPPORTED',
    `the key ${JSON.stringify(key)} is refused by every wirekit decoder, so it is not written.`,
    { path: [] },
  );
}

/**
 * Whether a value can stand for an object (or a union variant, or a string-keyed map): a non-null
 * object that is not an array, a Date, a byte array or a Map, each of which is a value of another
 * kind. Class instances and objects without a prototype are records.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  // Plain objects, the values of nearly every record, are answered by their prototype alone.
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Object.prototype || prototype === null) return true;
  return (
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !(value instanceof Uint8Array) &&
    !(value instanceof Map)
  );
}
