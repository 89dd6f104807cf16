/**
 * Rows without a wirekit schema, read by the stream's own Arrow schema: this derives the plan the
 * column reader (columns.ts) follows from the schema's fields, and reads its leaves by the type
 * they were stored as. Each Arrow type has one JavaScript value (docs/mapping/arrow.md lists them):
 * integers as numbers while they are safe integers and as bigints beyond (the rule of the
 * schemaless MessagePack and CBOR readers), floats as numbers, timestamps and dates as Dates, times
 * of day as "HH:MM:SS.fff" text, durations as a count of their unit, intervals as { months, days,
 * nanoseconds }, decimals as exact text, binary as Uint8Array copies, lists as arrays, structs as
 * objects, maps as objects (string keys) or Maps, unions as their variant's value, and every null
 * as null. Wirekit's own metadata is honoured where it says what Arrow's types cannot: a
 * `wirekit.kind = json` column is parsed, and a union with `wirekit.union_tag` gets its tag back.
 *
 * The plan is made once per incoming schema, so a batch is read without looking at types again.
 * Limits hold as they do with a schema: nesting was checked when the schema was parsed, list
 * items and map entries are counted when a batch is loaded, strings and bytes are measured there,
 * and dictionaries are counted as they arrive (ipc-reader.ts).
 */
import { type Dictionary, type Field, Type } from 'apache-arrow';
import { isUnsafeKey, mismatch, unsafeKey } from '../../core/errors.js';
import type { ColumnPlan, StoredLeaf, StructRead } from './columns.js';
import { fault } from './fault.js';
import { intervalFields } from './interval.js';
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
  plainStringReader,
  storedUnit,
  timeOfDayReader,
  unscaledReader,
} from './physical.js';
import { isNull, jsonReader, nullsOf, type ReadContext, timestampReader } from './scalars.js';

type Data = import('apache-arrow').Data;

const textTypes = [Type.Utf8, Type.LargeUtf8, Type.Utf8View];

/** Every null decodes to null: without a schema, nothing says a value may not be null. */
const nulls = { nullable: true, nullValue: null } as const;

/** The plan of the rows: one object per row, one key per top-level field. */
export function planRows(fields: readonly Field[], offset: number): StructRead {
  // The decoded array of rows is level 1 and a row level 2, as with a schema.
  return planStruct(fields, 2, offset);
}

/** A leaf plan for a dictionary's values, to decode them when they arrive. */
export function storedLeaf(depth: number): StoredLeaf {
  return { k: 'stored', ...nulls, json: false, depth };
}

/**
 * A struct's plan; `tag`, for a variant of a union that wirekit's metadata tags, is the field its
 * objects start with, holding the variant's name.
 */
function planStruct(
  fields: readonly Field[],
  depth: number,
  offset: number,
  tag?: { readonly name: string; readonly value: string },
): StructRead {
  const seen = new Set<string>();
  const template: Record<string, unknown> = {};
  if (tag !== undefined) template[tag.name] = tag.value;
  const columns = fields.map((field) => {
    if (isUnsafeKey(field.name)) throw unsafeKey(offset, field.name);
    if (seen.has(field.name))
      throw mismatch(
        offset,
        `two fields are named ${JSON.stringify(field.name)}; a row object cannot hold both`,
        'arrow',
      );
    seen.add(field.name);
    template[field.name] = null;
    return { name: field.name, plan: planField(field, depth, offset) };
  });
  return { k: 'struct', ...nulls, template, columns };
}

/** `depth` is the level of the container holding the value, as in plan.ts. */
function planField(field: Field, depth: number, offset: number): ColumnPlan {
  const type = field.type;
  switch (type.typeId) {
    case Type.List:
    case Type.LargeList:
    case Type.FixedSizeList:
      return { k: 'list', ...nulls, item: planField(type.children[0] as Field, depth + 1, offset) };
    case Type.Struct:
      return planStruct(type.children, depth + 1, offset);
    case Type.Interval:
      return planStruct(intervalFields, depth + 1, offset);
    case Type.Map: {
      const [key, value] = (type.children[0] as Field).type.children as [Field, Field];
      const keyType = key.type.typeId === Type.Dictionary ? (key.type as Dictionary).dictionary : key.type;
      return {
        k: 'map',
        ...nulls,
        key: planField(key, depth + 1, offset),
        value: planField(value, depth + 1, offset),
        stringKeys: textTypes.includes(keyType.typeId),
      };
    }
    case Type.Union: {
      const tagName = field.metadata.get('wirekit.union_tag');
      const children = type.children as Field[];
      const structs = children.every((child) => child.type.typeId === Type.Struct);
      const tagged = tagName !== undefined && structs && !isUnsafeKey(tagName);
      // Variants are the union value's own values, at its level.
      const variants = children.map((child) => ({
        plan: tagged
          ? planStruct(child.type.children, depth + 1, offset, { name: tagName, value: child.name })
          : planField(child, depth, offset),
      }));
      return { k: 'union', ...nulls, variants };
    }
    case Type.Dictionary: {
      const values = (type as Dictionary).dictionary;
      if (!dictionaryLeaf(values.typeId))
        throw mismatch(offset, `a dictionary of ${values} is not read without a schema`, 'arrow');
      return storedLeaf(depth);
    }
    default: {
      const json = field.metadata.get('wirekit.kind') === 'json' && textTypes.includes(type.typeId);
      return { k: 'stored', ...nulls, json, depth };
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

/** The values of rows [start, start + count) of a leaf column, by the type it was stored as. */
export function readStored(
  plan: StoredLeaf,
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
  plan: StoredLeaf,
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
