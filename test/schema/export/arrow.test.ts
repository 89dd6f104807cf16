import { type Field as FlechetteField, Type as FlechetteType, tableFromIPC } from '@uwdata/flechette';
import { DataType, type Field, makeBuilder, RecordBatch, Struct, Table, tableToIPC } from 'apache-arrow';
import { describe, expect, test } from 'vitest';
import { type ObjectSchema, t } from '../../../src/index.js';
import { arrowMetadataKeys, arrowSchemaToJson, toArrowSchema } from '../../../src/schema/export/arrow.js';
import { Category, EveryKind, EveryKindFlat, everyKindValue, Shape } from '../../fixtures/every-kind.js';
import { codeOf } from '../../support/code-of.js';

/** What an independent reader should see of each field: the type's telling properties. */
type Expected = Record<string, unknown> & { typeId: number; nullable?: boolean };

const int = (bitWidth: number, signed: boolean): Expected => ({
  typeId: FlechetteType.Int,
  bitWidth,
  signed,
});
const utf8: Expected = { typeId: FlechetteType.Utf8 };
const struct = (...names: string[]): Expected => ({ typeId: FlechetteType.Struct, children: names });

const expected: Record<string, Expected> = {
  flag: { typeId: FlechetteType.Bool },
  i8: int(8, true),
  i16: int(16, true),
  i32: int(32, true),
  u8: int(8, false),
  u16: int(16, false),
  u32: int(32, false),
  i64: int(64, true),
  u64: int(64, false),
  i64n: int(64, true),
  f32: { typeId: FlechetteType.Float, precision: 1 },
  f64: { typeId: FlechetteType.Float, precision: 2 },
  price: { typeId: FlechetteType.Decimal, precision: 12, scale: 2, bitWidth: 128 },
  name: utf8,
  blob: { typeId: FlechetteType.Binary },
  createdAt: { typeId: FlechetteType.Timestamp, unit: 1, timezone: 'UTC' },
  updatedAt: { typeId: FlechetteType.Timestamp, unit: 2, timezone: 'UTC' },
  color: { typeId: FlechetteType.Dictionary },
  home: struct('street', 'zip'),
  work: { ...struct('street', 'zip'), nullable: true },
  tags: { typeId: FlechetteType.List, children: ['item'] },
  matrix: { typeId: FlechetteType.List, children: ['item'] },
  scores: { typeId: FlechetteType.Map, keysSorted: false, children: ['entries'] },
  byId: { typeId: FlechetteType.Map, keysSorted: false, children: ['entries'] },
  nickname: { ...utf8, nullable: true },
  manager: { ...utf8, nullable: true },
  shape: { typeId: FlechetteType.Union, mode: 1, typeIds: [0, 1], children: ['circle', 'rect'] },
  shapes: { typeId: FlechetteType.List, children: ['item'] },
  extra: utf8,
  legacy: utf8,
};

/** The properties of a flechette field that `want` names, for comparison. */
function seen(field: FlechetteField, want: Expected): Record<string, unknown> {
  const type = field.type as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { nullable: field.nullable };
  for (const key of Object.keys(want)) {
    if (key === 'children') out.children = (type.children as FlechetteField[]).map((child) => child.name);
    else if (key !== 'nullable') out[key] = type[key];
  }
  return out;
}

function childrenOf(field: FlechetteField | undefined): FlechetteField[] {
  return ((field?.type as { children?: FlechetteField[] } | undefined)?.children ?? []) as FlechetteField[];
}

function ipcRoundTrip(table: Table) {
  return tableFromIPC(tableToIPC(table, 'stream'), { useBigInt: true, useDecimalInt: true, useMap: true });
}

describe('toArrowSchema: EveryKindFlat read back by flechette', () => {
  const schema = toArrowSchema(EveryKindFlat);

  test('every field has the documented type and nullability', () => {
    const fields = ipcRoundTrip(new Table(schema)).schema.fields;
    expect(fields.map((field) => field.name)).toEqual(Object.keys(expected));
    for (const field of fields) {
      const want = expected[field.name] as Expected;
      expect(seen(field, want), field.name).toEqual({ nullable: false, ...want });
    }
  });

  test('nested types and metadata survive IPC', () => {
    const fields = ipcRoundTrip(new Table(schema)).schema.fields;
    const byName = (name: string) => fields.find((field) => field.name === name) as FlechetteField;
    const color = byName('color').type as { dictionary: { typeId: number }; indices: { bitWidth: number } };
    expect([color.dictionary.typeId, color.indices.bitWidth]).toEqual([FlechetteType.Utf8, 8]);
    expect(byName('color').metadata.get(arrowMetadataKeys.enumMembers)).toBe('["red","green","blue"]');
    const [key, value] = childrenOf(childrenOf(byName('byId'))[0]);
    expect([key?.name, key?.nullable, key?.type]).toEqual([
      'key',
      false,
      expect.objectContaining({ bitWidth: 32 }),
    ]);
    expect([value?.name, value?.type.typeId, value?.metadata.get(arrowMetadataKeys.type)]).toEqual([
      'value',
      FlechetteType.Struct,
      'Address',
    ]);
    const [inner] = childrenOf(childrenOf(byName('matrix'))[0]);
    expect(inner?.type).toMatchObject({ typeId: FlechetteType.Int, bitWidth: 32 });
    expect(byName('shape').metadata.get(arrowMetadataKeys.unionTag)).toBe('kind');
    expect(byName('extra').metadata.get(arrowMetadataKeys.kind)).toBe('json');
    expect(Object.fromEntries(byName('legacy').metadata)).toEqual({
      [arrowMetadataKeys.doc]: 'Use name instead',
      [arrowMetadataKeys.deprecated]: 'true',
    });
  });

  test('a row of everyKindValue() written by apache-arrow reads back in flechette', () => {
    const value = everyKindValue();
    const row = {
      ...value,
      i64n: BigInt(value.i64n),
      price: decimal128(-123_456_789_012n),
      createdAt: value.createdAt.getTime(),
      updatedAt: value.updatedAt.getTime(),
      extra: JSON.stringify(value.extra),
    };
    const type = new Struct(schema.fields);
    const builder = makeBuilder(builderOptions(type, undefined));
    builder.append(row);
    const table = new Table(new RecordBatch(schema, builder.finish().flush()));
    const back = ipcRoundTrip(table).get(0) as Record<string, unknown>;
    expect(back).toEqual({
      flag: true,
      i8: -128,
      i16: 32_767,
      i32: -2_147_483_648,
      u8: 255,
      u16: 65_535,
      u32: 4_294_967_295,
      i64: -9_223_372_036_854_775_808n,
      u64: 18_446_744_073_709_551_615n,
      i64n: 9_007_199_254_740_991n,
      f32: 1.5,
      f64: -0.1,
      price: -123_456_789_012n,
      name: 'Zoë 🚀',
      blob: value.blob,
      createdAt: value.createdAt.getTime(),
      updatedAt: value.updatedAt.getTime(),
      color: 'green',
      home: value.home,
      work: null,
      tags: value.tags,
      scores: new Map(Object.entries(value.scores)),
      byId: value.byId,
      nickname: null,
      manager: null,
      shape: { radius: 2 },
      shapes: [{ width: 1, height: 2.5 }, { radius: 0 }],
      matrix: [Int32Array.of(1, 2), Int32Array.of(), Int32Array.of(3)],
      extra: JSON.stringify(value.extra),
      legacy: 'old',
    });
  });
});

type BuilderOptions = Parameters<typeof makeBuilder>[0];

/** Builder options for a type: nulls for absent values, and union children chosen by tag. */
function builderOptions(type: DataType, field: Field | undefined): BuilderOptions {
  const children = (type.children as Field[] | undefined) ?? [];
  const options: BuilderOptions & { valueToChildTypeId?: unknown } = {
    type,
    nullValues: [null, undefined],
    children: children.map((child) => builderOptions(child.type, child)),
  };
  const tag = field?.metadata.get(arrowMetadataKeys.unionTag);
  if (DataType.isUnion(type) && tag !== undefined) {
    options.valueToChildTypeId = (_: unknown, value: Record<string, unknown>) =>
      children.findIndex((child) => child.name === value[tag]);
  }
  return options;
}

/** A 128-bit two's complement integer as the four little-endian words apache-arrow's builder takes. */
function decimal128(value: bigint): Uint32Array {
  const bits = BigInt.asUintN(128, value);
  return Uint32Array.from([0n, 32n, 64n, 96n], (shift) => Number((bits >> shift) & 0xffff_ffffn));
}

describe('toArrowSchema: targeted mappings', () => {
  test('a non-object root is one field named value', () => {
    const schema = toArrowSchema(t.nullable(t.array(t.nullable(t.int16()))));
    expect(arrowSchemaToJson(schema)).toEqual({
      fields: [
        {
          name: 'value',
          nullable: true,
          type: { name: 'list' },
          children: [
            {
              name: 'item',
              nullable: true,
              type: { name: 'int', bitWidth: 16, isSigned: true },
              children: [],
            },
          ],
        },
      ],
    });
  });

  test('the root object names the schema; literal fields are left out', () => {
    const Root = t.object(
      'Root',
      { kind: t.literal('x'), n: t.int32(), maybe: t.optional(t.literal(3)) },
      { doc: 'hi' },
    );
    const json = arrowSchemaToJson(toArrowSchema(Root)) as { fields: { name: string }[]; metadata: unknown };
    expect(json.fields.map((field) => field.name)).toEqual(['n', 'maybe']);
    expect(json.fields[1]).toMatchObject({
      nullable: true,
      type: { name: 'floatingpoint', precision: 'DOUBLE' },
      metadata: [{ key: arrowMetadataKeys.literal, value: '3' }],
    });
    expect(json.metadata).toEqual([
      { key: arrowMetadataKeys.type, value: 'Root' },
      { key: arrowMetadataKeys.typeDoc, value: 'hi' },
    ]);
  });

  test('decimals: 128 bits to precision 38, 256 bits to 76, text beyond or without both', () => {
    const type = (options: Parameters<typeof t.decimal>[0]) =>
      (arrowSchemaToJson(toArrowSchema(t.decimal(options))) as { fields: { type: unknown }[] }).fields[0]
        ?.type;
    expect(type({ precision: 38, scale: 2 })).toEqual({
      name: 'decimal',
      precision: 38,
      scale: 2,
      bitWidth: 128,
    });
    expect(type({ precision: 39, scale: 0 })).toEqual({
      name: 'decimal',
      precision: 39,
      scale: 0,
      bitWidth: 256,
    });
    expect(type({ precision: 77, scale: 0 })).toEqual({ name: 'utf8' });
    expect(type({ precision: 10 })).toEqual({ name: 'utf8' });
  });

  test('enums: index width by member count, dictionary ids numbered per export', () => {
    const members = Array.from({ length: 200 }, (_, i) => `m${i}`);
    const Big = t.object('Big', {
      a: t.enum('Wide', members),
      b: t.enum('Narrow', ['x']),
      c: t.timestamp({ precision: 'ns' }),
    });
    const json = arrowSchemaToJson(toArrowSchema(Big)) as { fields: Record<string, unknown>[] };
    expect(json.fields[0]).toMatchObject({
      type: { name: 'utf8' },
      dictionary: { id: 0, indexType: { name: 'int', bitWidth: 16, isSigned: true }, isOrdered: false },
    });
    expect(json.fields[1]?.dictionary).toEqual({
      id: 1,
      indexType: { name: 'int', bitWidth: 8, isSigned: true },
      isOrdered: false,
    });
    expect(json.fields[2]?.type).toEqual({ name: 'timestamp', unit: 'NANOSECOND', timezone: 'UTC' });
    expect(arrowSchemaToJson(toArrowSchema(Big))).toEqual(json);
  });

  test('a nullable union makes its variant children nullable', () => {
    const json = arrowSchemaToJson(toArrowSchema(t.object('H', { s: t.nullable(Shape) }))) as {
      fields: { nullable: boolean; type: unknown; children: { name: string; nullable: boolean }[] }[];
    };
    const [s] = json.fields;
    expect(s?.type).toEqual({ name: 'union', mode: 'DENSE', typeIds: [0, 1] });
    expect(s?.children.map((child) => [child.name, child.nullable])).toEqual([
      ['circle', true],
      ['rect', true],
    ]);
  });

  test('a reference that does not recurse is expanded', () => {
    const Leaf: ObjectSchema<{ x: number }> = t.object('Leaf', { x: t.int32() });
    const Node = t.object('Node', { a: t.lazy(() => Leaf), b: t.array(t.lazy(() => Leaf)) });
    const json = arrowSchemaToJson(toArrowSchema(Node)) as { fields: { type: unknown }[] };
    expect(json.fields.map((field) => field.type)).toEqual([{ name: 'struct' }, { name: 'list' }]);
  });
});

describe('toArrowSchema: refusals', () => {
  test('recursion cannot be expressed', () => {
    expect(codeOf(() => toArrowSchema(EveryKind))).toBe('WK_EXPORT_UNSUPPORTED');
    expect(codeOf(() => toArrowSchema(Category))).toBe('WK_EXPORT_UNSUPPORTED');
    expect(codeOf(() => toArrowSchema(t.array(Category)))).toBe('WK_EXPORT_UNSUPPORTED');
  });
});
