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
 * and type codes, timezone names, dictionary ids and index widths, all metadata, and the order of
 * a struct's fields, which are matched by name. A field the codec's schema does not name is an
 * unknown key (CodecOptions.unknownKeys): refused, or left out of what is read (project.ts).
 *
 * The match also tells whether every column is stored exactly as the codec writes it: only then
 * may the generated row reader (src/codecs/arrow/compiled.ts) read the batches, since it reads
 * typed arrays of the codec's own types straight.
 */
import { type DataType, type Dictionary, type Field, Type } from 'apache-arrow';
import { noSuchField } from '../../../schema/names.js';
import { mismatch } from '../../core/errors.js';
import type { EnumPlan, Plan, RootPlan, StructPlan } from '../plan.js';
import { dictionariesOf } from './fields.js';
import { intervalFields } from './interval.js';
import {
  listProjection,
  mapProjection,
  type Projection,
  structProjection,
  unionProjection,
} from './project.js';

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
  /** How to read the codec's columns out of the incoming ones, where they differ (project.ts). */
  readonly projection: Projection | undefined;
  /** The dictionaries of fields left out, by id: loaded and checked with their fields, never decoded. */
  readonly ignored: ReadonlyMap<number, Dictionary>;
}

export interface MatchOptions {
  /** A field the codec's schema does not name: refused, or left out of what is read. */
  readonly rejectUnknown: boolean;
  /**
   * The fields must be the schema's, in its order, with none besides: what a writer of the schema
   * passes on as it is (a table source's batches).
   */
  readonly inOrder?: boolean;
}

export function matchSchema(
  root: RootPlan,
  fields: readonly Field[],
  offset: number,
  options: MatchOptions = { rejectUnknown: false },
): SchemaMatch {
  const state: State = { dictionaries: new Map(), exact: true, ignored: new Map(), options };
  const fail = (where: string, message: string): never => {
    throw mismatch(offset, `${where === '' ? 'the schema' : `field ${where}`}: ${message}`, 'arrow');
  };
  const projection = matchStruct(root.struct, fields, '', state, fail);
  for (const id of state.dictionaries.keys()) state.ignored.delete(id);
  return { dictionaries: state.dictionaries, exact: state.exact, projection, ignored: state.ignored };
}

type Fail = (where: string, message: string) => never;

interface State {
  readonly dictionaries: DictionaryUses;
  exact: boolean;
  readonly ignored: Map<number, Dictionary>;
  readonly options: MatchOptions;
}

function matchStruct(
  plan: StructPlan,
  fields: readonly Field[],
  where: string,
  state: State,
  fail: Fail,
): Projection | undefined {
  const names = plan.columns.map((column) => column.name);
  const got = fields.map((field) => field.name);
  const fieldsText = () =>
    `expected the fields ${names.join(', ') || '(none)'}, got ${got.join(', ') || '(none)'}`;
  if (state.options.inOrder && (names.length !== got.length || names.some((name, i) => name !== got[i])))
    fail(where, fieldsText());
  const at = new Map<string, number>();
  got.forEach((name, i) => {
    if (at.has(name)) fail(where, `the field ${name} appears twice`);
    at.set(name, i);
  });
  const children = plan.columns.map((column) => {
    const from = at.get(column.name);
    if (from === undefined) return fail(where, fieldsText());
    const inner = matchType(
      column.plan,
      (fields[from] as Field).type,
      where === '' ? column.name : `${where}.${column.name}`,
      state,
      fail,
    );
    return { from, inner };
  });
  if (children.length < fields.length) {
    const known = new Set(names);
    const unknown = fields.filter((field) => !known.has(field.name));
    if (state.options.rejectUnknown) fail(where, noSuchField(plan.typeName, (unknown[0] as Field).name));
    dictionariesOf(unknown, state.ignored);
  }
  return structProjection(fields, children);
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

function matchType(
  plan: Plan,
  type: DataType,
  where: string,
  state: State,
  fail: Fail,
): Projection | undefined {
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
      return matchType(plan.storage, type, where, state, fail);
    case 'struct':
      // An interval is read as an object of its months, days and nanoseconds (interval.ts), which
      // is converted from the interval as it is read: there is no struct column to project, so the
      // schema's object must name exactly those three, in that order.
      if (type.typeId === Type.Interval) {
        if (matchStruct(plan, intervalFields, where, state, fail) !== undefined) wrong();
        return;
      }
      if (type.typeId !== Type.Struct) wrong();
      return matchStruct(plan, type.children, where, state, fail);
    case 'list':
      if (![Type.List, Type.LargeList, Type.FixedSizeList].includes(type.typeId)) wrong();
      return listProjection(
        type,
        matchType(plan.item, (type.children[0] as Field).type, `${where}[]`, state, fail),
      );
    case 'map': {
      if (type.typeId !== Type.Map) wrong();
      const [key, value] = (type.children[0] as Field).type.children as Field[];
      if (key === undefined || value === undefined) return wrong();
      return mapProjection(
        type,
        matchType(plan.key, key.type, `${where}{key}`, state, fail),
        matchType(plan.value, value.type, `${where}{value}`, state, fail),
      );
    }
    case 'union': {
      const children = type.children as Field[];
      if (
        type.typeId !== Type.Union ||
        (type as unknown as { mode: number }).mode !== 1 ||
        children.length !== plan.variants.length
      )
        wrong();
      return unionProjection(
        type,
        plan.variants.map((variant, i) => {
          const child = (children[i] as Field).type;
          if (child.typeId !== Type.Struct) wrong();
          return matchStruct(variant.plan, child.children, `${where}<${variant.tag}>`, state, fail);
        }),
      );
    }
    case 'either': {
      // Dense as wirekit writes it, or sparse as another producer may: both name a child per entry.
      const children = type.children as Field[];
      if (type.typeId !== Type.Union || children.length !== plan.branches.length) wrong();
      return unionProjection(
        type,
        plan.branches.map((branch, i) =>
          matchType(branch, (children[i] as Field).type, `${where}<${i}>`, state, fail),
        ),
      );
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
