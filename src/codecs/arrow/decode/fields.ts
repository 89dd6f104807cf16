/**
 * A schema's field tree (Schema.fbs), read by the checked FlatBuffers reader into apache-arrow
 * Field objects, so that decoded batches and tables are apache-arrow's own types. Types wirekit
 * does not read are refused here, by name and field, before any batch arrives.
 */
import {
  Binary,
  BinaryView,
  Bool,
  type DataType,
  Date_,
  Decimal,
  DenseUnion,
  Dictionary,
  Duration,
  Field,
  FixedSizeBinary,
  FixedSizeList,
  Float16,
  Float32,
  Float64,
  Int32,
  IntervalDayTime,
  IntervalMonthDayNano,
  IntervalYearMonth,
  LargeBinary,
  LargeList,
  LargeUtf8,
  List,
  Map_,
  Null,
  SparseUnion,
  Struct,
  Time,
  Timestamp,
  Type,
  Utf8,
  Utf8View,
} from 'apache-arrow';
import { arrowIntType } from '../../../schema/export/arrow-types.js';
import { mismatch, tooDeep } from '../../core/errors.js';
import type { DecodeLimits } from '../../core/limits.js';
import type { FlatReader } from './flatbuf.js';

/** A Schema table: its fields, its metadata, and the byte order of the bodies that follow it. */
export interface SchemaTable {
  readonly fields: readonly Field[];
  readonly metadata: Map<string, string>;
  /** Schema.fbs Endianness: the writer's byte order, which every buffer of its batches is in. */
  readonly bigEndian: boolean;
}

export function readSchema(fb: FlatReader, schema: number, limits: DecodeLimits): SchemaTable {
  const endianness = fb.int16(schema, 0, 0);
  if (endianness !== 0 && endianness !== 1) fb.fail(schema, `endianness ${endianness} is unknown`);
  const [start, length] = fb.vector(schema, 1, 4);
  const fields: Field[] = [];
  // Top-level fields sit in a row (level 2) of the decoded array of rows (level 1).
  const dictionaries = new Map<number, DataType>();
  for (let i = 0; i < length; i++) fields.push(readField(fb, fb.tableAt(start, i), 3, limits, dictionaries));
  return { fields, metadata: fb.metadata(schema, 2), bigEndian: endianness === 1 };
}

/**
 * A field and its children, depth first. `depth` is the level this field's values would nest at;
 * checking it before descending keeps a hostile 100,000-level nest off the stack.
 */
/**
 * `dictionaries` holds the value type of each dictionary id met so far: fields that share a
 * dictionary (apache-arrow's writer shares one between columns of one vector) share its type, as
 * apache-arrow's Schema requires.
 */
function readField(
  fb: FlatReader,
  table: number,
  depth: number,
  limits: DecodeLimits,
  dictionaries: Map<number, DataType>,
): Field {
  const [start, count] = fb.vector(table, 5, 4);
  const typeType = fb.uint8(table, 2, 0);
  // An interval's value is an object too (interval.ts), though it has no children.
  if ((count > 0 || typeType === typeInterval) && depth > limits.maxDepth)
    throw tooDeep(fb.offsetOf(table), limits);
  const children: Field[] = [];
  // Union children are the union value's own variants, at its level, not one below.
  const childDepth = typeType === typeUnion ? depth : depth + 1;
  for (let i = 0; i < count; i++)
    children.push(readField(fb, fb.tableAt(start, i), childDepth, limits, dictionaries));
  const name = fb.string(table, 0) ?? '';
  let type = typeOf(fb, typeType, fb.subTable(table, 3), children, table, name);
  const dictionary = fb.subTable(table, 4);
  if (dictionary !== 0) {
    const indexTable = fb.subTable(dictionary, 1);
    const indices = indexTable === 0 ? new Int32() : intType(fb, indexTable);
    const id = fb.count(dictionary, 0);
    const shared = dictionaries.get(id);
    if (shared !== undefined && String(shared) !== String(type))
      fb.fail(dictionary, `dictionary ${id} holds ${shared} for one field and ${type} for another`);
    dictionaries.set(id, shared ?? type);
    type = new Dictionary(shared ?? type, indices as Int32, id, fb.bool(dictionary, 2));
  }
  const metadata = fb.metadata(table, 6);
  return new Field(name, type, fb.bool(table, 1), metadata.size > 0 ? metadata : null);
}

const typeInterval = 11;
const typeUnion = 14;

/** Type numbers (Schema.fbs) whose table has no fields, so a writer may leave it out. */
const bare = new Set([1, 4, 5, 6, 12, 13, 19, 20, 21, 23, 24]);

/**
 * Schema.fbs TimeUnit: SECOND, MILLISECOND, MICROSECOND, NANOSECOND. Its default differs by type:
 * SECOND for Timestamp (none declared), MILLISECOND for Time and Duration.
 */
function timeUnit(fb: FlatReader, table: number, fallback: number): number {
  const unit = fb.int16(table, 0, fallback);
  if (unit < 0 || unit > 3) fb.fail(table, `time unit ${unit} is unknown`);
  return unit;
}

function typeOf(
  fb: FlatReader,
  typeType: number,
  table: number,
  children: Field[],
  at: number,
  name: string,
): DataType {
  const arity = (n: number) => {
    if (children.length !== n) fb.fail(at, `an Arrow type ${typeType} field has ${children.length} children`);
  };
  if (table === 0 && !bare.has(typeType)) fb.fail(at, 'a field has no type');
  switch (typeType) {
    case 1:
      arity(0);
      return new Null();
    case 2:
      arity(0);
      return intType(fb, table);
    case 3: {
      arity(0);
      const precision = fb.int16(table, 0, 0);
      if (precision === 0) return new Float16();
      if (precision === 1) return new Float32();
      if (precision === 2) return new Float64();
      return fb.fail(table, `floating-point precision ${precision} is unknown`);
    }
    case 4:
      arity(0);
      return new Binary();
    case 5:
      arity(0);
      return new Utf8();
    case 6:
      arity(0);
      return new Bool();
    case 7: {
      arity(0);
      const bitWidth = fb.int32(table, 2, 128);
      if (![32, 64, 128, 256].includes(bitWidth)) fb.fail(table, `Decimal${bitWidth} is unknown`);
      const precision = fb.int32(table, 0, 0);
      const scale = fb.int32(table, 1, 0);
      // More digits than the width holds describe no value; a scale is kept within as many digits
      // again, so that a value's text stays short.
      const digits = maxDecimalDigits[bitWidth as 32];
      if (precision < 1 || precision > digits || Math.abs(scale) > 76)
        fb.fail(table, `Decimal${bitWidth}(${precision}, ${scale}) is not a valid decimal type`);
      return new Decimal(scale, precision, bitWidth);
    }
    case 8: {
      arity(0);
      const unit = fb.int16(table, 0, 1);
      if (unit !== 0 && unit !== 1) fb.fail(table, `date unit ${unit} is unknown`);
      return new Date_(unit);
    }
    case 9: {
      arity(0);
      const unit = timeUnit(fb, table, 1);
      const bitWidth = fb.int32(table, 1, 32);
      // Seconds and milliseconds of a day fit 32 bits; micro- and nanoseconds take 64.
      if (bitWidth !== (unit < 2 ? 32 : 64))
        fb.fail(table, `a ${bitWidth}-bit time in unit ${unit} is invalid`);
      return new Time(unit, bitWidth as 32);
    }
    case 10:
      arity(0);
      return new Timestamp(timeUnit(fb, table, 0), fb.string(table, 1) ?? null);
    case 11: {
      arity(0);
      // Schema.fbs IntervalUnit: YEAR_MONTH, DAY_TIME, MONTH_DAY_NANO.
      const unit = fb.int16(table, 0, 0);
      if (unit === 0) return new IntervalYearMonth();
      if (unit === 1) return new IntervalDayTime();
      if (unit === 2) return new IntervalMonthDayNano();
      return fb.fail(table, `interval unit ${unit} is unknown`);
    }
    case 12:
      arity(1);
      return new List(children[0] as Field);
    case 13:
      return new Struct(children);
    case typeUnion: {
      const [start, length] = fb.vector(table, 1, 4);
      const typeIds =
        start === 0 ? children.map((_, i) => i) : Array.from({ length }, (_, i) => fb.int32At(start + 4 * i));
      if (
        typeIds.length !== children.length ||
        new Set(typeIds).size !== typeIds.length ||
        typeIds.some((id) => id < 0 || id > 127)
      )
        fb.fail(table, 'union type ids do not match its children');
      return fb.int16(table, 0, 0) === 1
        ? new DenseUnion(typeIds, children)
        : new SparseUnion(typeIds, children);
    }
    case 15: {
      arity(0);
      const byteWidth = fb.int32(table, 0, 0);
      if (byteWidth < 1) fb.fail(table, `a fixed-size binary of width ${byteWidth} is invalid`);
      return new FixedSizeBinary(byteWidth);
    }
    case 16: {
      arity(1);
      const listSize = fb.int32(table, 0, 0);
      if (listSize < 0) fb.fail(table, `a fixed-size list of size ${listSize} is invalid`);
      return new FixedSizeList(listSize, children[0] as Field);
    }
    case 17: {
      arity(1);
      const entries = children[0] as Field;
      if (!(entries.type instanceof Struct) || entries.type.children.length !== 2)
        fb.fail(at, 'map entries are not a struct of key and value');
      return new Map_(entries as Field<Struct>, fb.bool(table, 0));
    }
    case 18:
      arity(0);
      return new Duration(timeUnit(fb, table, 1));
    case 19:
      arity(0);
      return new LargeBinary();
    case 20:
      arity(0);
      return new LargeUtf8();
    case 21:
      arity(1);
      return new LargeList(children[0] as Field);
    case 23:
      arity(0);
      return new BinaryView();
    case 24:
      arity(0);
      return new Utf8View();
    default: {
      const kind = unreadTypes[typeType] ?? `type ${typeType}`;
      throw mismatch(
        fb.offsetOf(at),
        `field ${JSON.stringify(name)}: ${kind} is not read by wirekit (docs/mapping/arrow.md lists what is)`,
        'arrow',
      );
    }
  }
}

/** The most decimal digits each width of Decimal holds. */
const maxDecimalDigits = { 32: 9, 64: 18, 128: 38, 256: 76 } as const;

/** Arrow types wirekit does not read, for the error that names them. */
const unreadTypes: Record<number, string> = {
  22: 'RunEndEncoded',
  25: 'ListView',
  26: 'LargeListView',
};

function intType(fb: FlatReader, table: number): DataType {
  const bitWidth = fb.int32(table, 0, 0);
  const signed = fb.bool(table, 1);
  if (bitWidth !== 8 && bitWidth !== 16 && bitWidth !== 32 && bitWidth !== 64) {
    return fb.fail(table, `integer width ${bitWidth} is unknown`);
  }
  return arrowIntType(bitWidth, signed);
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
