/**
 * Checks values against a schema and reports every problem as data. This is the reference
 * interpreter: codecs and any compiled validator must agree with it. The constraints beyond each
 * kind's type come from value-rules.ts, which the codecs' encoders and decoders use too.
 */
import {
  describeValue,
  formatPath,
  type IssueCode,
  type Path,
  ValidationError,
  type ValidationIssue,
} from '../errors/index.js';
import { effectiveDepth } from '../util/depth-ceiling.js';
import { isUnsafeKey } from '../util/unsafe-keys.js';
import { branchTable, describeBranches, isTextLikeNumber, selectBranch } from './either.js';
import { intRange, isSmallInt, largeIntRange } from './int-ranges.js';
import { type JsonProblem, walkJson } from './json-kind.js';
import { fieldOf, noSuchField } from './names.js';
import { oneofRule } from './oneofs.js';
import type {
  EitherSchema,
  EnumSchema,
  Infer,
  MapSchema,
  ObjectSchema,
  Schema,
  StringSchema,
  UnionSchema,
} from './types.js';
import {
  bytesRule,
  decimalRule,
  everyRefusal,
  float32Refusal,
  floatRule,
  isRecord,
  itemsRule,
  jsonRule,
  type Rule,
  refusalBy,
  stringRule,
  timestampRefusal,
} from './value-rules.js';

export interface ValidateOptions {
  /** Keys that the schema does not know: 'reject' (default) reports them, since encoders drop them. */
  readonly unknownKeys?: 'reject' | 'ignore';
  /** Stop after this many issues (default 100): a huge bad array should not build a huge report. */
  readonly maxIssues?: number;
  /**
   * Nesting limit (default 256): guards the stack against deep or cyclic values. Counted as at most
   * 1,000, the depth ceiling every codec shares (past it, recursion would depend on the stack left).
   */
  readonly maxDepth?: number;
}

interface Context {
  readonly issues: ValidationIssue[];
  /** Set once the depth limit is hit: a value that deep is pathological, one report is enough. */
  tooDeep: boolean;
  readonly rejectUnknown: boolean;
  readonly maxIssues: number;
  readonly maxDepth: number;
}

/** Every way `value` fails to match `schema`; an empty array means it matches. */
export function validate(schema: Schema, value: unknown, options: ValidateOptions = {}): ValidationIssue[] {
  const context: Context = {
    issues: [],
    tooDeep: false,
    rejectUnknown: options.unknownKeys !== 'ignore',
    maxIssues: options.maxIssues ?? 100,
    maxDepth: effectiveDepth(options.maxDepth ?? 256),
  };
  check(schema, value, [], 0, context);
  return context.issues;
}

export function is<S extends Schema>(
  schema: S,
  value: unknown,
  options?: ValidateOptions,
): value is Infer<S> {
  return validate(schema, value, { ...options, maxIssues: 1 }).length === 0;
}

/** Throws a ValidationError (code WK_VALIDATION_FAILED) listing every issue. */
export function assert<S extends Schema>(
  schema: S,
  value: unknown,
  options?: ValidateOptions,
): asserts value is Infer<S> {
  const issues = validate(schema, value, options);
  if (issues.length > 0) throw new ValidationError(issues);
}

function report(context: Context, code: IssueCode, path: Path, message: string): void {
  if (context.issues.length < context.maxIssues) {
    context.issues.push({ code, path: [...path], message: `${formatPath(path)}: ${message}` });
  }
}

/** Reports every refusal of `rule` (if the schema has one) for `value` at `path`. */
function checkRule<T>(rule: Rule<T> | undefined, value: T, path: Path, context: Context): void {
  if (rule === undefined || rule(value) === undefined) return;
  for (const refusal of everyRefusal(rule, value)) report(context, refusal.issue, path, refusal.message);
}

function check(schema: Schema, value: unknown, path: Path, depth: number, context: Context): void {
  if (context.issues.length >= context.maxIssues || context.tooDeep) return;
  if (depth > context.maxDepth) {
    tooDeep(context, path);
    return;
  }
  const expect = (ok: boolean, what: string): boolean => {
    if (!ok) report(context, 'expected_type', path, `expected ${what}, got ${describeValue(value)}.`);
    return ok;
  };
  if (isSmallInt(schema)) {
    if (!expect(typeof value === 'number', 'a number')) return;
    const n = value as number;
    const [min, max] = intRange(schema);
    if (!Number.isInteger(n))
      report(context, 'not_integer', path, `${schema.kind} needs an integer, got ${n}.`);
    else if (n < min || n > max)
      report(context, 'out_of_range', path, `${n} is outside ${schema.kind} (${min}..${max}).`);
    return;
  }
  switch (schema.kind) {
    case 'bool':
      expect(typeof value === 'boolean', 'a boolean');
      return;
    case 'int64':
    case 'uint64': {
      const [min, max] = largeIntRange[schema.kind];
      if (schema.as === 'bigint') {
        if (!expect(typeof value === 'bigint', 'a bigint')) return;
        const n = value as bigint;
        if (n < min || n > max) report(context, 'out_of_range', path, `${n} is outside ${schema.kind}.`);
        return;
      }
      if (!expect(typeof value === 'number', 'a number')) return;
      const n = value as number;
      if (!Number.isInteger(n))
        report(context, 'not_integer', path, `${schema.kind} needs an integer, got ${n}.`);
      else if (!Number.isSafeInteger(n) || (schema.kind === 'uint64' && n < 0)) {
        report(context, 'out_of_range', path, `${n} is not a safe ${schema.kind} number; use as: 'bigint'.`);
      }
      return;
    }
    case 'float32': {
      if (!expect(typeof value === 'number', 'a number')) return;
      const refusal = float32Refusal(value as number) ?? refusalBy(floatRule(schema), value);
      if (refusal !== undefined) report(context, refusal.issue, path, refusal.message);
      return;
    }
    case 'float64': {
      if (!expect(typeof value === 'number', 'a number')) return;
      const refusal = refusalBy(floatRule(schema), value);
      if (refusal !== undefined) report(context, refusal.issue, path, refusal.message);
      return;
    }
    case 'decimal':
      if (expect(typeof value === 'string', 'a decimal string'))
        checkRule(decimalRule(schema), value as string, path, context);
      return;
    case 'string':
      if (expect(typeof value === 'string', 'a string')) checkString(schema, value as string, path, context);
      return;
    case 'bytes':
      if (expect(value instanceof Uint8Array, 'a Uint8Array'))
        checkRule(bytesRule(schema), value as Uint8Array, path, context);
      return;
    case 'timestamp':
      if (expect(value instanceof Date, 'a Date')) {
        const refusal = timestampRefusal(schema, value as Date);
        if (refusal !== undefined) report(context, refusal.issue, path, refusal.message);
      }
      return;
    case 'enum':
      if (expect(typeof value === 'string', 'a string') && !memberSet(schema).has(value as string)) {
        report(
          context,
          'not_a_member',
          path,
          `${describeValue(value)} is not one of ${schema.members.join(', ')}.`,
        );
      }
      return;
    case 'literal':
      if (value !== schema.value) {
        report(
          context,
          'literal_mismatch',
          path,
          `expected ${JSON.stringify(schema.value)}, got ${describeValue(value)}.`,
        );
      }
      return;
    case 'object':
      if (expect(isRecord(value), 'an object'))
        checkObject(schema, value as Record<string, unknown>, path, depth, context);
      return;
    case 'array': {
      if (!expect(Array.isArray(value), 'an array')) return;
      const items = value as unknown[];
      const rule = itemsRule(schema);
      const refusal = rule?.(items.length);
      if (refusal !== undefined) {
        report(context, refusal.issue, path, refusal.message);
        // Past maxItems, the items themselves are not looked at: the array may be huge.
        if (refusal.issue === 'too_long') return;
      }
      for (let i = 0; i < items.length && context.issues.length < context.maxIssues; i++) {
        check(schema.items, items[i], [...path, i], depth + 1, context);
      }
      return;
    }
    case 'map':
      checkMap(schema, value, path, depth, context);
      return;
    case 'optional':
      if (value !== undefined) check(schema.inner, value, path, depth, context);
      return;
    case 'nullable':
      if (value !== null) check(schema.inner, value, path, depth, context);
      return;
    case 'union':
      if (expect(isRecord(value), 'an object'))
        checkUnion(schema, value as Record<string, unknown>, path, depth, context);
      return;
    case 'either':
      checkEither(schema, value, path, depth, context);
      return;
    case 'ref':
      check(schema.resolve(), value, path, depth, context);
      return;
    case 'json': {
      // A Struct's object or a ListValue's array first (JsonSchema.proto); then what it holds.
      const shape = jsonRule(schema)?.(value);
      if (shape !== undefined) report(context, shape.issue, path, shape.message);
      else checkJson(value, path, depth, context);
      return;
    }
  }
}

function checkString(schema: StringSchema, value: string, path: Path, context: Context): void {
  // Every wire format carries text as UTF-8, where a lone surrogate cannot exist: it would turn
  // into U+FFFD, so the value would not survive a round trip.
  if (!value.isWellFormed()) {
    report(context, 'not_well_formed', path, 'the string holds a lone surrogate, which UTF-8 cannot carry.');
  }
  checkRule(stringRule(schema), value, path, context);
}

const members = new WeakMap<EnumSchema, ReadonlySet<string>>();

/** The members of an enum as a set, made once per schema (the JSON readers check membership with it). */
export function memberSet(schema: EnumSchema): ReadonlySet<string> {
  let set = members.get(schema);
  if (set === undefined) {
    set = new Set(schema.members);
    members.set(schema, set);
  }
  return set;
}

const fieldNames = new WeakMap<ObjectSchema, ReadonlySet<string>>();

function checkObject(
  schema: ObjectSchema,
  value: Record<string, unknown>,
  path: Path,
  depth: number,
  context: Context,
): void {
  for (const field of schema.fields) {
    const fieldValue = fieldOf(value, field.name);
    if (fieldValue === undefined && field.schema.kind !== 'optional') {
      report(context, 'missing_field', [...path, field.name], `the required field is missing.`);
    } else {
      check(field.schema, fieldValue, [...path, field.name], depth + 1, context);
    }
  }
  const oneofs = oneofRule(schema);
  if (oneofs !== undefined) checkRule(oneofs, value, path, context);
  if (!context.rejectUnknown) return;
  let known = fieldNames.get(schema);
  if (known === undefined) {
    known = new Set(schema.fields.map((field) => field.name));
    fieldNames.set(schema, known);
  }
  for (const key of Object.keys(value)) {
    if (!known.has(key) && value[key] !== undefined) {
      report(context, 'unknown_field', [...path, key], noSuchField(schema.name, key));
    }
  }
}

function checkMap(schema: MapSchema, value: unknown, path: Path, depth: number, context: Context): void {
  if (schema.keys.kind === 'string') {
    if (!isRecord(value)) {
      report(
        context,
        'expected_type',
        path,
        `expected an object (a map with string keys), got ${describeValue(value)}.`,
      );
      return;
    }
    for (const key of Object.keys(value)) {
      if (isUnsafeKey(key)) reportUnsafeKey(context, [...path, key], key);
      checkString(schema.keys, key, [...path, key], context);
      check(schema.values, value[key], [...path, key], depth + 1, context);
    }
    return;
  }
  if (!(value instanceof Map)) {
    report(context, 'expected_type', path, `expected a Map (integer keys), got ${describeValue(value)}.`);
    return;
  }
  for (const [key, entry] of value) {
    const keyPath = [...path, typeof key === 'bigint' ? key.toString() : String(key)];
    check(schema.keys, key, keyPath, depth + 1, context);
    check(schema.values, entry, keyPath, depth + 1, context);
  }
}

function checkUnion(
  schema: UnionSchema,
  value: Record<string, unknown>,
  path: Path,
  depth: number,
  context: Context,
): void {
  const tag = value[schema.tag];
  const variant = schema.variants.find((candidate) =>
    candidate.fields.some(
      (f) => f.name === schema.tag && f.schema.kind === 'literal' && f.schema.value === tag,
    ),
  );
  if (variant === undefined) {
    report(
      context,
      'unknown_variant',
      [...path, schema.tag],
      `${describeValue(tag)} names no variant of ${schema.name}.`,
    );
    return;
  }
  checkObject(variant, value, path, depth, context);
}

/**
 * A value of the branch the value itself selects (either.ts), checked as that branch alone, so the
 * issues are the branch's own. An either adds no level: its branch's value is the value.
 */
function checkEither(
  schema: EitherSchema,
  value: unknown,
  path: Path,
  depth: number,
  context: Context,
): void {
  const index = selectBranch(schema, value);
  if (index !== undefined) {
    check(schema.branches[index] as Schema, value, path, depth, context);
    return;
  }
  if (isTextLikeNumber(branchTable(schema), value)) {
    report(
      context,
      'expected_type',
      path,
      `${value} beside a text branch: JSON would write it as text, read back as the text branch.`,
    );
    return;
  }
  // Among several object branches a record is refused for its keys; otherwise for its type.
  const isObject = isRecord(value) && branchTable(schema).objects.length > 0;
  report(
    context,
    isObject ? 'unknown_variant' : 'expected_type',
    path,
    isObject
      ? `the keys ${describeKeys(value)} fit no branch of ${describeBranches(schema)}.`
      : `expected ${describeBranches(schema)}, got ${describeValue(value)}.`,
  );
}

function describeKeys(value: Record<string, unknown>): string {
  const keys = Object.keys(value).filter((key) => value[key] !== undefined);
  return keys.length === 0 ? '(none)' : keys.slice(0, 8).join(', ') + (keys.length > 8 ? ', …' : '');
}

function tooDeep(context: Context, path: Path): void {
  context.tooDeep = true;
  report(
    context,
    'too_deep',
    path,
    `nested deeper than ${context.maxDepth} levels (or the value is cyclic).`,
  );
}

/**
 * A key that every wirekit decoder refuses (`__proto__`, `constructor`, `prototype`), in a map or a
 * json value: the value may be what the schema allows, but no format carries it (every encoder
 * refuses it with WK_ENCODE_UNSUPPORTED), and a value decoded elsewhere with such a key is the kind
 * that pollutes a prototype when merged by assignment.
 */
function reportUnsafeKey(context: Context, path: Path, key: string): void {
  report(
    context,
    'unsafe_key',
    path,
    `the key ${JSON.stringify(key)} is refused by every wirekit decoder (it can reach a prototype).`,
  );
}

/** A json value, by the json kind's rules (json-kind.ts): every problem is reported, in order. */
function checkJson(value: unknown, path: Path, depth: number, context: Context): void {
  if (context.tooDeep) return;
  // The walk counts the value's own container as one level more than the containers around it;
  // `check` counts a value as deep as the containers around it.
  walkJson(value, { depth: depth - 1, maxDepth: context.maxDepth }, undefined, (problem) => {
    const at = [...path, ...problem.path];
    reportJsonProblem(context, problem, at);
    return context.issues.length < context.maxIssues && !context.tooDeep;
  });
}

function reportJsonProblem(context: Context, problem: JsonProblem, at: Path): void {
  switch (problem.kind) {
    case 'not_json':
      report(context, 'expected_type', at, `expected a JSON value, got ${describeValue(problem.value)}.`);
      return;
    case 'not_finite':
      report(
        context,
        'expected_type',
        at,
        `${problem.value} is not a JSON number (JSON numbers are finite).`,
      );
      return;
    case 'unsafe_key':
      reportUnsafeKey(context, at, problem.value as string);
      return;
    case 'too_deep':
      tooDeep(context, at);
      return;
  }
}
