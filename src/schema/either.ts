/**
 * The untagged union, `t.either([...branches])`: a value of any one branch, told apart by the value
 * itself rather than by a tag field (TypeScript's `string | number`, an Avro union, JSON Schema's
 * `anyOf`). It reads beside `t.union`, the tagged union of objects.
 *
 * One rule picks the branch in every format, and it has to hold where the value travels as itself
 * (JSON, MessagePack, CBOR), so a branch is chosen by the *class* of the value, which is what
 * every one of those wires keeps:
 *
 *   | class   | the value                    | branches of that class                                 |
 *   |---------|------------------------------|--------------------------------------------------------|
 *   | boolean | a boolean                    | bool, a boolean literal                                |
 *   | number  | a number or a bigint         | int8…uint32, float32/64, int64/uint64, a number literal |
 *   | text    | a string, Uint8Array or Date | string, decimal, enum, a string literal, bytes, timestamp, int64/uint64 as bigint |
 *   | array   | an array                     | array                                                  |
 *   | object  | an object or a Map           | object (by its keys, below), map, union                 |
 *
 * Bytes and timestamps are text because JSON writes them as text (base64, RFC 3339); a 64-bit
 * integer held as a bigint is both number and text, because JSON writes it as a string of digits
 * and MessagePack and CBOR as an integer. Two branches of one class could both match some value
 * in some format, so they are refused when the schema is built (`WK_SCHEMA_INVALID`, naming both
 * branches), with two exceptions, numbers and objects.
 *
 * Numbers: one integer branch whose values are numbers (int8…uint32, int64/uint64 as number) may
 * sit beside one float branch (float32/float64), as in Avro's ["int", "double"]. The branch is then
 * chosen by the number's value, never by how a wire spelled it: a number that is an integer within
 * the integer branch's range goes to that branch, any other number (a fraction, NaN, an infinity,
 * an integer past the range) to the float branch (`branchOfNumber`). JSON spells 3 and 3.0 alike,
 * MessagePack and CBOR may write a whole float as an integer, and a peer may write 3.0 in the float
 * branch of an Avro union: each reads back as the number 3, which is the integer branch's, in every
 * format. -0 is an integer (JSON writes it as 0), so it goes to the integer branch and reads back as
 * 0. An int64 held as a bigint beside a float stays refused (its class is number and text), as do
 * two integer branches, two float branches, and a number literal beside any number branch.
 *
 * Objects: several `t.object` branches may share the object class
 * when no value can have the keys of two of them: for every pair, one of them requires a key (a
 * field neither optional nor defaulted) that the other does not have. An object value then goes
 * to the branch whose required keys it has and whose fields name every key it holds; if no branch
 * names every key (a newer writer's extra key), to the one branch whose required keys it has.
 * A map or a tagged union accepts objects of any keys, so it is the only object branch.
 *
 * Not a branch: `optional` and `nullable` (write `t.nullable(t.either([...]))`: null then has one
 * meaning, the absent value, in every format), `json` (it matches every class) and another
 * `either` (list its branches in this one).
 */
import { describeValue, WirekitError } from '../errors/index.js';
import { intRange, isSmallInt } from './int-ranges.js';
import type { EitherSchema, ObjectSchema, Schema } from './types.js';
import { isRecord } from './value-rules.js';

export type ValueClass = 'boolean' | 'number' | 'text' | 'array' | 'object';

/** Which branch each class goes to, worked out once per schema. */
export interface BranchTable {
  /**
   * The branch of a class, for every class but objects split by keys. For numbers beside an
   * integer branch (`integers`), the float branch: ask `branchOfNumber` for a number's branch.
   */
  readonly byClass: ReadonlyMap<ValueClass, number>;
  /** The object branches told apart by their keys (empty unless there are two or more). */
  readonly objects: readonly KeyedBranch[];
  /** An integer branch that shares the number class with a float branch, and the integers it takes. */
  readonly integers?: IntegerBranch | undefined;
}

/** The integer branch of an integer + float pair: integers from `min` to `max` go to it. */
export interface IntegerBranch {
  readonly index: number;
  readonly min: number;
  readonly max: number;
}

interface KeyedBranch {
  readonly index: number;
  readonly required: readonly string[];
  readonly fields: ReadonlySet<string>;
}

/** A short name for a branch in messages: its kind and, for a named type, its name. */
function describeBranch(schema: Schema): string {
  const target = schema.kind === 'ref' ? schema.resolve() : schema;
  if (target.kind === 'object' || target.kind === 'enum' || target.kind === 'union') {
    return `${target.kind} ${target.name}`;
  }
  if (target.kind === 'literal') return `literal ${JSON.stringify(target.value)}`;
  if ((target.kind === 'int64' || target.kind === 'uint64') && target.as === 'number') {
    return `${target.kind} (as number)`;
  }
  return target.kind;
}

function invalid(message: string): never {
  throw new WirekitError('WK_SCHEMA_INVALID', message);
}

/** The classes of values a branch accepts; refuses the kinds that cannot be a branch. */
export function classesOf(schema: Schema): readonly ValueClass[] {
  const target = schema.kind === 'ref' ? schema.resolve() : schema;
  switch (target.kind) {
    case 'bool':
      return ['boolean'];
    case 'int8':
    case 'int16':
    case 'int32':
    case 'uint8':
    case 'uint16':
    case 'uint32':
    case 'float32':
    case 'float64':
      return ['number'];
    case 'int64':
    case 'uint64':
      return target.as === 'bigint' ? ['number', 'text'] : ['number'];
    case 'literal':
      return [
        typeof target.value === 'boolean' ? 'boolean' : typeof target.value === 'number' ? 'number' : 'text',
      ];
    case 'decimal':
    case 'string':
    case 'enum':
    case 'bytes':
    case 'timestamp':
      return ['text'];
    case 'array':
      return ['array'];
    case 'object':
    case 'map':
    case 'union':
      return ['object'];
    case 'optional':
    case 'nullable':
      return invalid(
        `either: a branch cannot be ${target.kind}; wrap the whole either instead (t.nullable(t.either([...]))).`,
      );
    case 'json':
      return invalid('either: a json branch would match every value; use t.json() alone.');
    case 'either':
      return invalid('either: a branch cannot be another either; list its branches in this one.');
  }
}

const tables = new WeakMap<EitherSchema, BranchTable>();

/**
 * The branch table of an either, built and checked on first need. The builder asks for it at once;
 * a branch that is a `t.lazy` whose target is not defined yet postpones the check to first use.
 */
export function branchTable(schema: EitherSchema): BranchTable {
  const known = tables.get(schema);
  if (known !== undefined) return known;
  const byClass = new Map<ValueClass, number>();
  const objectBranches: number[] = [];
  let integers: IntegerBranch | undefined;
  schema.branches.forEach((branch, index) => {
    for (const valueClass of classesOf(branch)) {
      const other = byClass.get(valueClass);
      if (other !== undefined && valueClass === 'number' && integers === undefined) {
        integers = integerAndFloat(schema, other, index);
        if (integers !== undefined) {
          byClass.set('number', integers.index === other ? index : other);
          continue;
        }
      }
      if (other !== undefined && !(valueClass === 'object' && keyed(schema, other) && keyed(schema, index))) {
        const why = `both take ${valueClass === 'text' ? 'text' : `${valueClass}s`}`;
        const pair = [schema.branches[other] as Schema, schema.branches[index] as Schema];
        const hint = pair.some(isFloat) && pair.some(isBigIntBranch);
        ambiguous(
          schema,
          other,
          index,
          why,
          hint ? " Beside a float, hold it as a number: { as: 'number' }." : '',
        );
      }
      byClass.set(valueClass, index);
      if (valueClass === 'object') objectBranches.push(index);
    }
  });
  const objects = objectBranches.length < 2 ? [] : objectBranches.map((index) => keyedBranch(schema, index));
  for (let i = 0; i < objects.length; i++) {
    for (let j = i + 1; j < objects.length; j++) {
      const a = objects[i] as KeyedBranch;
      const b = objects[j] as KeyedBranch;
      const apart =
        a.required.some((key) => !b.fields.has(key)) || b.required.some((key) => !a.fields.has(key));
      if (!apart) ambiguous(schema, a.index, b.index, 'an object could have the keys of both');
    }
  }
  if (objects.length > 0) byClass.delete('object');
  const table: BranchTable = { byClass, objects, integers };
  tables.set(schema, table);
  return table;
}

/**
 * The integers a branch holds as numbers, its bounds included (an integer past them goes to the
 * float branch, as JSON Schema's anyOf of a bounded integer and a number accepts it), or undefined
 * for any other branch.
 */
function integerRange(schema: Schema): readonly [number, number] | undefined {
  const target = schema.kind === 'ref' ? schema.resolve() : schema;
  if (isSmallInt(target)) return intRange(target);
  if ((target.kind === 'int64' || target.kind === 'uint64') && target.as === 'number') {
    return [target.kind === 'int64' ? Number.MIN_SAFE_INTEGER : 0, Number.MAX_SAFE_INTEGER];
  }
  return undefined;
}

/** A 64-bit integer held as a bigint, which beside a float is refused with a hint. */
function isBigIntBranch(schema: Schema): boolean {
  const target = schema.kind === 'ref' ? schema.resolve() : schema;
  return (target.kind === 'int64' || target.kind === 'uint64') && target.as === 'bigint';
}

function isFloat(schema: Schema): boolean {
  const target = schema.kind === 'ref' ? schema.resolve() : schema;
  return target.kind === 'float32' || target.kind === 'float64';
}

/** The integer branch of two number branches, when they are one integer and one float branch. */
function integerAndFloat(schema: EitherSchema, first: number, second: number): IntegerBranch | undefined {
  const [a, b] = [schema.branches[first] as Schema, schema.branches[second] as Schema];
  const [index, range] = isFloat(b) ? [first, integerRange(a)] : isFloat(a) ? [second, integerRange(b)] : [];
  if (index === undefined || range === undefined) return undefined;
  return { index, min: range[0], max: range[1] };
}

function keyed(schema: EitherSchema, index: number): boolean {
  const branch = schema.branches[index] as Schema;
  return (branch.kind === 'ref' ? branch.resolve() : branch).kind === 'object';
}

function keyedBranch(schema: EitherSchema, index: number): KeyedBranch {
  const branch = schema.branches[index] as Schema;
  const target = (branch.kind === 'ref' ? branch.resolve() : branch) as ObjectSchema;
  return {
    index,
    required: target.fields
      .filter((field) => field.schema.kind !== 'optional' && field.default === undefined)
      .map((field) => field.name),
    fields: new Set(target.fields.map((field) => field.name)),
  };
}

function ambiguous(schema: EitherSchema, first: number, second: number, why: string, hint = ''): never {
  const a = describeBranch(schema.branches[first] as Schema);
  const b = describeBranch(schema.branches[second] as Schema);
  return invalid(
    `either: branches ${first} (${a}) and ${second} (${b}) are ambiguous: ${why}, so no format could tell which one a value is.${hint}`,
  );
}

/** The class of a value, or undefined for a value no branch can take (null, undefined, a function…). */
function classOfValue(value: unknown): ValueClass | undefined {
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'number':
    case 'bigint':
      return 'number';
    case 'string':
      return 'text';
    case 'object':
      if (value === null) return undefined;
      if (Array.isArray(value)) return 'array';
      if (value instanceof Uint8Array || value instanceof Date) return 'text';
      return 'object';
    default:
      return undefined;
  }
}

/**
 * The branch index for `value`: by its class, and for an object among several object branches by
 * its keys. Undefined when no branch takes the value.
 */
export function selectBranch(schema: EitherSchema, value: unknown): number | undefined {
  const table = branchTable(schema);
  const valueClass = classOfValue(value);
  if (valueClass === undefined || isTextLikeNumber(table, value)) return undefined;
  if (valueClass === 'number') return branchOfNumber(table, value as number | bigint);
  if (valueClass !== 'object' || table.objects.length === 0) return table.byClass.get(valueClass);
  if (!isRecord(value)) return undefined;
  return selectByKeys(
    table.objects,
    Object.keys(value).filter((key) => value[key] !== undefined),
  );
}

/**
 * The branch of a number (or bigint) in an either's table: beside an integer + float pair, the
 * integer branch for an integer within its range and the float branch for any other number (this
 * module's comment); otherwise the one number branch. Codecs reading a number call it, so that the
 * branch follows from the value read, whatever the wire's spelling of it.
 */
export function branchOfNumber(table: BranchTable, value: number | bigint): number | undefined {
  const integers = table.integers;
  if (
    integers !== undefined &&
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= integers.min &&
    value <= integers.max
  ) {
    return integers.index;
  }
  return table.byClass.get('number');
}

/**
 * NaN and the infinities beside a text branch: JSON writes them as the text "NaN", "Infinity",
 * which would read back as the text branch's value, so no format takes them there.
 */
export function isTextLikeNumber(table: BranchTable, value: unknown): boolean {
  return typeof value === 'number' && !Number.isFinite(value) && table.byClass.has('text');
}

/** The branch schema for `value` (selectBranch's rule), or undefined when no branch takes it. */
export function branchOf(schema: EitherSchema, value: unknown): Schema | undefined {
  const index = selectBranch(schema, value);
  return index === undefined ? undefined : schema.branches[index];
}

/**
 * The branch index for `value`, or a WK_VALIDATION_FAILED naming the branches (the JSON codec's
 * compiled writer calls it, and writes the branch's projection).
 */
export function branchIndex(schema: EitherSchema, value: unknown): number {
  const index = selectBranch(schema, value);
  if (index === undefined) {
    throw new WirekitError(
      'WK_VALIDATION_FAILED',
      `expected ${describeBranches(schema)}, got ${describeValue(value)}.`,
      {
        path: [],
      },
    );
  }
  return index;
}

/**
 * The branch for an object holding `keys`, for a reader that meets an object's keys before its
 * values (MessagePack, CBOR): selectBranch's rule, given the keys alone. Undefined when no branch takes them.
 */
export function selectBranchByKeys(schema: EitherSchema, keys: readonly string[]): number | undefined {
  const table = branchTable(schema);
  return table.objects.length === 0 ? table.byClass.get('object') : selectByKeys(table.objects, keys);
}

/** The object branch for an object holding `keys` (the rule in this module's comment). */
function selectByKeys(objects: readonly KeyedBranch[], keys: readonly string[]): number | undefined {
  const present = new Set(keys);
  const candidates = objects.filter((branch) => branch.required.every((key) => present.has(key)));
  const exact = candidates.find((branch) => keys.every((key) => branch.fields.has(key)));
  if (exact !== undefined) return exact.index;
  return candidates.length === 1 ? candidates[0]?.index : undefined;
}

/** What the branches are, for messages: "string, float64 or object Point". */
export function describeBranches(schema: EitherSchema): string {
  const names = schema.branches.map(describeBranch);
  return names.length === 1 ? (names[0] as string) : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
