/**
 * Rows without a wirekit schema, read by the stream's own Arrow schema. Each Arrow type has one
 * JavaScript value (docs/mapping/arrow.md lists them): integers as numbers while they are safe
 * integers and as bigints beyond (the rule of the schemaless MessagePack and CBOR readers), floats
 * as numbers, timestamps and dates as Dates, times of day as "HH:MM:SS.fff" text, durations as a
 * count of their unit, intervals as { months, days, nanoseconds }, decimals as exact text, binary as Uint8Array copies, lists as arrays,
 * structs as objects, maps as objects (string keys) or Maps, unions as their variant's value, and
 * every null as null. Wirekit's own metadata is honoured where it says what Arrow's types cannot:
 * a `wirekit.kind = json` column is parsed, and a union with `wirekit.union_tag` gets its tag back.
 *
 * The plan is made once per incoming schema, so a batch is read without looking at types again.
 * Limits hold as they do with a schema: nesting was checked when the schema was parsed, list
 * items and map entries are counted when a batch is loaded, strings and bytes are measured there,
 * and dictionaries are counted as they arrive (ipc-reader.ts).
 */
import { type DataType, type Dictionary, type Field, Type } from 'apache-arrow';
import { isUnsafeKey, mismatch, unsafeKey } from '../../core/errors.js';
import { mapValue, readChildren } from './entries.js';
import { fault, rethrowAt, ValueFault } from './fault.js';
import { intervalFields, isInterval, readIntervals } from './interval.js';
import {
  bytesReader,
  dateReader,
  decimalText,
  decimalTypeOf,
  dictionaryId,
  dictionaryReader,
  durationReader,
  floatReader,
  integerReader,
  offsetsOf,
  plainStringReader,
  storedUnit,
  timeOfDayReader,
  unscaledReader,
} from './physical.js';
import { isNull, jsonReader, nullsOf, type ReadContext, timestampReader } from './scalars.js';

type Data = import('apache-arrow').Data;

const textTypes = [Type.Utf8, Type.LargeUtf8, Type.Utf8View];

/** How one column is read: its Arrow type and what its values become. */
export type AnyPlan =
  | { readonly k: 'leaf'; readonly type: DataType; readonly json: boolean; readonly depth: number }
  | { readonly k: 'list'; readonly type: DataType; readonly item: AnyPlan }
  | { readonly k: 'struct'; readonly type: DataType; readonly fields: readonly AnyField[] }
  | {
      readonly k: 'map';
      readonly type: DataType;
      readonly key: AnyPlan;
      readonly value: AnyPlan;
      readonly stringKeys: boolean;
    }
  | {
      readonly k: 'union';
      readonly type: DataType;
      readonly variants: readonly AnyPlan[];
      readonly typeIds: readonly number[];
      /** The variant names, when wirekit's metadata says which field holds them. */
      readonly tag: { readonly name: string; readonly values: readonly string[] } | undefined;
    };

interface AnyField {
  readonly name: string;
  readonly plan: AnyPlan;
}

/** The plan of the rows: one object per row, one key per top-level field. */
export function planRows(fields: readonly Field[], offset: number): AnyPlan & { k: 'struct' } {
  // The decoded array of rows is level 1 and a row level 2, as with a schema.
  return planStruct(fields, 2, offset);
}

function planStruct(fields: readonly Field[], depth: number, offset: number): AnyPlan & { k: 'struct' } {
  const seen = new Set<string>();
  const planned = fields.map((field) => {
    if (isUnsafeKey(field.name)) throw unsafeKey(offset, field.name);
    if (seen.has(field.name))
      throw mismatch(
        offset,
        `two fields are named ${JSON.stringify(field.name)}; a row object cannot hold both`,
        'arrow',
      );
    seen.add(field.name);
    return { name: field.name, plan: planField(field, depth, offset) };
  });
  return { k: 'struct', type: undefined as unknown as DataType, fields: planned };
}

/** `depth` is the level of the container holding the value, as in plan.ts. */
function planField(field: Field, depth: number, offset: number): AnyPlan {
  const type = field.type;
  switch (type.typeId) {
    case Type.List:
    case Type.LargeList:
    case Type.FixedSizeList:
      return { k: 'list', type, item: planField(type.children[0] as Field, depth + 1, offset) };
    case Type.Struct:
      return { ...planStruct(type.children, depth + 1, offset), type };
    case Type.Interval:
      return { ...planStruct(intervalFields, depth + 1, offset), type };
    case Type.Map: {
      const [key, value] = (type.children[0] as Field).type.children as [Field, Field];
      const keyType = key.type.typeId === Type.Dictionary ? (key.type as Dictionary).dictionary : key.type;
      return {
        k: 'map',
        type,
        key: planField(key, depth + 1, offset),
        value: planField(value, depth + 1, offset),
        stringKeys: textTypes.includes(keyType.typeId),
      };
    }
    case Type.Union: {
      const tagName = field.metadata.get('wirekit.union_tag');
      const children = type.children as Field[];
      const structs = children.every((child) => child.type.typeId === Type.Struct);
      const tag =
        tagName !== undefined && structs && !isUnsafeKey(tagName)
          ? { name: tagName, values: children.map((child) => child.name) }
          : undefined;
      return {
        k: 'union',
        type,
        // Variants are the union value's own values, at its level.
        variants: children.map((child) => planField(child, depth, offset)),
        typeIds: Array.from((type as unknown as { typeIds: ArrayLike<number> }).typeIds),
        tag,
      };
    }
    case Type.Dictionary: {
      const values = (type as Dictionary).dictionary;
      if (!dictionaryLeaf(values.typeId))
        throw mismatch(offset, `a dictionary of ${values} is not read without a schema`, 'arrow');
      return { k: 'leaf', type, json: false, depth };
    }
    default: {
      const json = field.metadata.get('wirekit.kind') === 'json' && textTypes.includes(type.typeId);
      return { k: 'leaf', type, json, depth };
    }
  }
}

/**
 * Dictionary value types read without a schema: those whose values are immutable (or, for
 * dates, small), so that every row using an entry can share its decoded value.
 */
function dictionaryLeaf(typeId: Type): boolean {
  return [
    Type.Null,
    Type.Int,
    Type.Float,
    Type.Bool,
    Type.Decimal,
    Type.Utf8,
    Type.LargeUtf8,
    Type.Utf8View,
    Type.Date,
    Type.Time,
    Type.Timestamp,
    Type.Duration,
  ].includes(typeId);
}

/** The values of rows [start, start + count) of a column. */
export function readAny(
  plan: AnyPlan,
  data: Data,
  start: number,
  count: number,
  ctx: ReadContext,
): unknown[] {
  switch (plan.k) {
    case 'struct':
      return readStruct(plan, data, start, count, ctx);
    case 'list':
      return readList(plan, data, start, count, ctx);
    case 'map':
      return readMap(plan, data, start, count, ctx);
    case 'union':
      return readUnion(plan, data, start, count, ctx);
    default:
      return readLeaves(plan, data, start, count, ctx);
  }
}

function readStruct(
  plan: AnyPlan & { k: 'struct' },
  data: Data,
  start: number,
  count: number,
  ctx: ReadContext,
): unknown[] {
  if (isInterval(data)) return readIntervals(readStruct, plan, data, start, count, ctx);
  const template: Record<string, null> = {};
  for (const field of plan.fields) template[field.name] = null;
  const bits = nullsOf(data);
  const out = new Array<Record<string, unknown> | null>(count);
  for (let k = 0; k < count; k++) out[k] = isNull(bits, start + k) ? null : { ...template };
  let c = 0;
  for (const field of plan.fields) {
    let values: unknown[];
    try {
      values = readAny(field.plan, data.children[c++] as Data, start, count, ctx);
    } catch (error) {
      return rethrowAt(error, error instanceof ValueFault ? error.index : 0, field.name);
    }
    for (let k = 0; k < count; k++) {
      const object = out[k];
      if (object !== null && object !== undefined) object[field.name] = values[k];
    }
  }
  return out;
}

function readList(
  plan: AnyPlan & { k: 'list' },
  data: Data,
  start: number,
  count: number,
  ctx: ReadContext,
): unknown[] {
  const offsets = offsetsOf(data);
  const items = readChildren(readAny, plan.item, data.children[0] as Data, offsets, start, count, ctx);
  const first = offsets[start] as number;
  const bits = nullsOf(data);
  const out = new Array<unknown>(count);
  for (let k = 0; k < count; k++) {
    const i = start + k;
    out[k] = isNull(bits, i)
      ? null
      : items.slice((offsets[i] as number) - first, (offsets[i + 1] as number) - first);
  }
  return out;
}

function readMap(
  plan: AnyPlan & { k: 'map' },
  data: Data,
  start: number,
  count: number,
  ctx: ReadContext,
): unknown[] {
  const offsets = data.valueOffsets as Int32Array;
  const entries = data.children[0] as Data;
  const keys = readChildren(readAny, plan.key, entries.children[0] as Data, offsets, start, count, ctx);
  const values = readChildren(readAny, plan.value, entries.children[1] as Data, offsets, start, count, ctx);
  const first = offsets[start] as number;
  const bits = nullsOf(data);
  const out = new Array<unknown>(count);
  for (let k = 0; k < count; k++) {
    const i = start + k;
    if (isNull(bits, i)) {
      out[k] = null;
      continue;
    }
    const from = (offsets[i] as number) - first;
    const to = (offsets[i + 1] as number) - first;
    out[k] = mapValue(keys, values, from, to, plan.stringKeys, ctx.offset);
  }
  return out;
}

function readUnion(
  plan: AnyPlan & { k: 'union' },
  data: Data,
  start: number,
  count: number,
  ctx: ReadContext,
): unknown[] {
  const typeIds = data.typeIds as Int8Array;
  const offsets = data.valueOffsets as Int32Array | undefined;
  const childOf = new Int8Array(128);
  plan.typeIds.forEach((code, x) => {
    childOf[code] = x;
  });
  const out = new Array<unknown>(count);
  // Each entry is read on its own: offsets into one child increase (load.ts), so none is read twice.
  for (let k = 0; k < count; k++) {
    const i = start + k;
    const x = childOf[typeIds[i] as number] as number;
    const at = offsets === undefined ? i : (offsets[i] as number);
    let value: unknown;
    try {
      value = readAny(plan.variants[x] as AnyPlan, data.children[x] as Data, at, 1, ctx)[0];
    } catch (error) {
      rethrowAt(error, i);
    }
    if (plan.tag !== undefined && value !== null)
      value = { [plan.tag.name]: plan.tag.values[x], ...(value as object) };
    out[k] = value;
  }
  return out;
}

function readLeaves(
  plan: AnyPlan & { k: 'leaf' },
  data: Data,
  start: number,
  count: number,
  ctx: ReadContext,
): unknown[] {
  const bits = nullsOf(data);
  const out = new Array<unknown>(count);
  if (storedAsNumbers(data)) {
    // Numbers straight from their typed array: the common columns skip a call per value.
    const values = data.values as ArrayLike<number>;
    for (let k = 0; k < count; k++) out[k] = values[start + k];
    if (bits !== undefined) for (let k = 0; k < count; k++) if (isNull(bits, start + k)) out[k] = null;
    return out;
  }
  const read = leafReader(plan, data, start, count, ctx);
  for (let k = 0; k < count; k++) {
    const i = start + k;
    out[k] = isNull(bits, i) ? null : read(i);
  }
  return out;
}

/** Integers narrower than 64 bits, and float32 or float64: typed arrays of plain numbers. */
function storedAsNumbers(data: Data): boolean {
  const type = data.type as unknown as { bitWidth?: number; precision?: number };
  if (data.typeId === Type.Int) return (type.bitWidth as number) < 64;
  return data.typeId === Type.Float && type.precision !== 0;
}

/** Entry i of a leaf column, as its JavaScript value. */
function leafReader(
  plan: AnyPlan & { k: 'leaf' },
  data: Data,
  start: number,
  count: number,
  ctx: ReadContext,
): (i: number) => unknown {
  switch (data.typeId) {
    case Type.Null:
      return () => null;
    case Type.Bool: {
      const values = data.values as Uint8Array;
      return (i) => (((values[i >> 3] as number) >> (i & 7)) & 1) === 1;
    }
    case Type.Int:
      return integerReader(data);
    case Type.Float:
      return floatReader(data);
    case Type.Decimal: {
      const read = unscaledReader(data);
      const { precision, scale } = decimalTypeOf(data);
      const limit = 10n ** BigInt(precision);
      return (i) => {
        const unscaled = read(i);
        if (unscaled >= limit || -unscaled >= limit) fault(i, `a decimal has more than ${precision} digits`);
        return decimalText(unscaled, scale);
      };
    }
    case Type.Utf8:
    case Type.LargeUtf8:
    case Type.Utf8View: {
      const text = plainStringReader(data, start, count);
      return plan.json ? jsonReader(text, plan.depth, ctx) : text;
    }
    case Type.Binary:
    case Type.LargeBinary:
    case Type.BinaryView:
    case Type.FixedSizeBinary:
      return bytesReader(data);
    case Type.Date:
      return dateReader(data, storedUnit(data));
    case Type.Timestamp:
      return timestampReader(storedUnit(data), data, ctx);
    case Type.Time:
      return timeOfDayReader(data);
    case Type.Duration:
      return durationReader(data);
    case Type.Dictionary: {
      const values = ctx.dictionaries.get(dictionaryId(data)) as readonly unknown[];
      const read = dictionaryReader(data, values, (i) => fault(i, 'a dictionary entry is missing'));
      const dates = (data.type as Dictionary).dictionary.typeId;
      // Dates are mutable: each row gets its own.
      if (dates === Type.Date || dates === Type.Timestamp)
        return (i) => {
          const value = read(i);
          return value instanceof Date ? new Date(value.getTime()) : value;
        };
      return read;
    }
    default:
      throw mismatch(ctx.offset, `${data.type} is not read without a schema`, 'arrow');
  }
}

/** Every dictionary-encoded field of a schema, depth first, with its Dictionary type. */
export function dictionariesOf(fields: readonly Field[], out = new Map<number, Dictionary>()) {
  for (const field of fields) {
    if (field.type.typeId === Type.Dictionary)
      out.set((field.type as Dictionary).id, field.type as Dictionary);
    dictionariesOf(field.type.children ?? [], out);
  }
  return out;
}

/** A leaf plan for a dictionary's values, to decode them when they arrive. */
export function dictionaryValuesPlan(type: Dictionary, depth: number): AnyPlan {
  return { k: 'leaf', type: type.dictionary, json: false, depth };
}
