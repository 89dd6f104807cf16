/**
 * Checks that the schema of incoming IPC data can be read as the codec's schema. Field names and
 * nesting must agree; each column must hold the same kind of value as the codec writes, though a
 * peer may store it in another physical type:
 * - integers of any width and signedness, for any integer kind (each value must fit it);
 * - floats of any precision, for float32 or float64 (a float32 must hold each value exactly);
 * - timestamps of any unit, and dates, for a timestamp (no value may have a part finer than the
 *   schema's unit);
 * - decimals of any width, precision and scale (each value must be exactly a decimal of the
 *   schema's precision and scale);
 * - Utf8, LargeUtf8 or Utf8View, plain or dictionary-encoded, for strings, enums and JSON text;
 * - Binary, LargeBinary, BinaryView or FixedSizeBinary for bytes; List, LargeList or FixedSizeList
 *   for arrays; an Interval of any unit for an object of the fields months, days and nanoseconds.
 * What other writers legitimately vary is let through as well: nullability (a null where the
 * codec's schema allows none fails when it is met), list and map child names, union child names
 * and type codes, timezone names, dictionary ids and index widths, and all metadata.
 *
 * The match also tells whether every column is stored exactly as the codec writes it: only then
 * may the generated row reader (src/codecs/arrow/compiled.ts) read the batches, since it reads
 * typed arrays of the codec's own types straight.
 */
import { type DataType, type Dictionary, type Field, Type } from 'apache-arrow';
import { mismatch } from '../core/errors.js';
import { intervalFields } from './interval.js';
import type { EnumPlan, Plan, RootPlan, StructPlan } from './plan.js';

/** What a dictionary's values decode to: an enum's members, or strings. */
export type DictionaryUse =
  | { readonly kind: 'enum'; readonly plan: EnumPlan; readonly type: Dictionary }
  | { readonly kind: 'strings'; readonly type: Dictionary };

/** The use of each incoming dictionary id. */
export type DictionaryUses = Map<number, DictionaryUse>;

export interface SchemaMatch {
  readonly dictionaries: DictionaryUses;
  /** Every column has the codec's own physical type (see the module comment). */
  readonly exact: boolean;
}

export function matchSchema(root: RootPlan, fields: readonly Field[], offset: number): SchemaMatch {
  const state = { dictionaries: new Map() as DictionaryUses, exact: true };
  const fail = (where: string, message: string): never => {
    throw mismatch(offset, `${where === '' ? 'the schema' : `field ${where}`}: ${message}`, 'arrow');
  };
  matchStruct(root.struct, fields, '', state, fail);
  return state;
}

type Fail = (where: string, message: string) => never;

interface State {
  readonly dictionaries: DictionaryUses;
  exact: boolean;
}

function matchStruct(
  plan: StructPlan,
  fields: readonly Field[],
  where: string,
  state: State,
  fail: Fail,
): void {
  const names = plan.columns.map((column) => column.name);
  const got = fields.map((field) => field.name);
  if (names.length !== got.length || names.some((name, i) => name !== got[i])) {
    fail(where, `expected the fields ${names.join(', ') || '(none)'}, got ${got.join(', ') || '(none)'}`);
  }
  plan.columns.forEach((column, i) => {
    matchType(
      column.plan,
      (fields[i] as Field).type,
      where === '' ? column.name : `${where}.${column.name}`,
      state,
      fail,
    );
  });
}

const textTypes = [Type.Utf8, Type.LargeUtf8, Type.Utf8View];

/** Binds dictionary `type` to `use`; one id serves one meaning. */
function bindDictionary(use: DictionaryUse, where: string, state: State, fail: Fail): void {
  const { type } = use;
  if (!textTypes.includes(type.dictionary.typeId) || type.indices.bitWidth > 64)
    fail(where, `a dictionary of ${type.dictionary} cannot hold ${use.kind === 'enum' ? 'an enum' : 'text'}`);
  const bound = state.dictionaries.get(type.id);
  const key = (entry: DictionaryUse) => (entry.kind === 'enum' ? entry.plan.members.join('\n') : '');
  if (bound !== undefined && (bound.kind !== use.kind || key(bound) !== key(use)))
    fail(where, `dictionary ${type.id} also serves another field`);
  state.dictionaries.set(type.id, use);
}

function matchType(plan: Plan, type: DataType, where: string, state: State, fail: Fail): void {
  const wrong = (): never => fail(where, `expected ${plan.type}, got ${type}`);
  if (!sameStorage(plan, type)) state.exact = false;
  switch (plan.k) {
    case 'enum':
      if (type.typeId === Type.Dictionary)
        bindDictionary({ kind: 'enum', plan, type: type as Dictionary }, where, state, fail);
      else if (!textTypes.includes(type.typeId)) wrong();
      return;
    case 'text':
      if (type.typeId === Type.Dictionary)
        bindDictionary({ kind: 'strings', type: type as Dictionary }, where, state, fail);
      else if (!textTypes.includes(type.typeId)) wrong();
      return;
    case 'int':
    case 'int64':
      if (type.typeId !== Type.Int) wrong();
      return;
    case 'float':
      if (type.typeId !== Type.Float) wrong();
      return;
    case 'timestamp':
      if (type.typeId !== Type.Timestamp && type.typeId !== Type.Date) wrong();
      return;
    case 'decimal':
      if (type.typeId !== Type.Decimal) wrong();
      return;
    case 'bytes':
      if (![Type.Binary, Type.LargeBinary, Type.BinaryView, Type.FixedSizeBinary].includes(type.typeId))
        wrong();
      return;
    case 'bool':
      if (type.typeId !== Type.Bool) wrong();
      return;
    case 'literal':
      matchType(plan.storage, type, where, state, fail);
      return;
    case 'struct':
      // An interval is read as an object of its months, days and nanoseconds (interval.ts).
      if (type.typeId === Type.Interval) matchStruct(plan, intervalFields, where, state, fail);
      else if (type.typeId !== Type.Struct) wrong();
      else matchStruct(plan, type.children, where, state, fail);
      return;
    case 'list':
      if (![Type.List, Type.LargeList, Type.FixedSizeList].includes(type.typeId)) wrong();
      matchType(plan.item, (type.children[0] as Field).type, `${where}[]`, state, fail);
      return;
    case 'map': {
      if (type.typeId !== Type.Map) wrong();
      const [key, value] = (type.children[0] as Field).type.children as Field[];
      if (key === undefined || value === undefined) {
        wrong();
        return;
      }
      matchType(plan.key, key.type, `${where}{key}`, state, fail);
      matchType(plan.value, value.type, `${where}{value}`, state, fail);
      return;
    }
    case 'union': {
      const children = type.children as Field[];
      if (
        type.typeId !== Type.Union ||
        (type as unknown as { mode: number }).mode !== 1 ||
        children.length !== plan.variants.length
      )
        wrong();
      plan.variants.forEach((variant, i) => {
        const child = (children[i] as Field).type;
        if (child.typeId !== Type.Struct) wrong();
        matchStruct(variant.plan, child.children, `${where}<${variant.tag}>`, state, fail);
      });
      return;
    }
  }
}

/**
 * Whether `type` stores values as the codec writes plan's column: the same type id and the
 * parameters that decide what the bytes are (children are matched on their own).
 */
function sameStorage(plan: Plan, type: DataType): boolean {
  const want = plan.type as unknown as Record<string, unknown>;
  const got = type as unknown as Record<string, unknown>;
  if (plan.k === 'enum') {
    const dictionary = type as Dictionary;
    return (
      type.typeId === Type.Dictionary &&
      dictionary.dictionary.typeId === Type.Utf8 &&
      dictionary.indices.bitWidth <= 32
    );
  }
  if (type.typeId !== plan.type.typeId) return false;
  const keys =
    type.typeId === Type.Int
      ? ['bitWidth', 'isSigned']
      : type.typeId === Type.Float
        ? ['precision']
        : type.typeId === Type.Timestamp
          ? ['unit']
          : type.typeId === Type.Decimal
            ? ['precision', 'scale', 'bitWidth']
            : [];
  return keys.every((key) => want[key] === got[key]);
}
