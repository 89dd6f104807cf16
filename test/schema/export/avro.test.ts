import { describe, expect, test } from 'vitest';
import { type Schema, t } from '../../../src/index.js';
import { type AvroSchemaJson, avroTypeName, toAvro } from '../../../src/schema/export/avro.js';
import { Person } from '../../fixtures/avro-defaults.js';
import { EveryKind, Shape } from '../../fixtures/every-kind.js';
import { codeOf } from '../../support/code-of.js';

interface AvroField {
  readonly name: string;
  readonly type: AvroSchemaJson;
  readonly default?: unknown;
}

/** A lookup of an exported record's fields by name; undefined for a field the record lacks. */
function fields(record: AvroSchemaJson): (name: string) => AvroField {
  const list = (record as unknown as { fields: AvroField[] }).fields;
  return (name) => list.find((field) => field.name === name) as AvroField;
}

describe('toAvro: mapping', () => {
  test('EveryKind maps each kind as documented', () => {
    const avro = toAvro(EveryKind, { namespace: 'com.example' });
    const f = fields(avro);
    expect(avro).toMatchObject({ type: 'record', name: 'EveryKind', namespace: 'com.example' });
    expect([f('i8').type, f('u16').type, f('u32').type, f('i64').type, f('u64').type]).toEqual([
      'int',
      'int',
      'long',
      'long',
      'long',
    ]);
    expect([f('f32').type, f('f64').type, f('flag').type, f('blob').type, f('extra').type]).toEqual([
      'float',
      'double',
      'boolean',
      'bytes',
      'string',
    ]);
    expect(f('price').type).toEqual({ type: 'bytes', logicalType: 'decimal', precision: 12, scale: 2 });
    expect(f('createdAt').type).toEqual({ type: 'long', logicalType: 'timestamp-millis' });
    expect(f('updatedAt').type).toEqual({ type: 'long', logicalType: 'timestamp-micros' });
    expect(f('version')).toBeUndefined();
    expect(f('name')).toEqual({
      name: 'name',
      type: 'string',
      doc: 'Display name',
      aliases: ['title'],
      default: 'anonymous',
    });
    expect(f('work')).toEqual({ name: 'work', type: ['null', 'Address'], default: null });
    expect(f('manager')).toEqual({ name: 'manager', type: ['null', 'string'] });
    expect(f('scores').type).toEqual({ type: 'map', values: 'double' });
    expect(f('byId').type).toEqual({
      type: 'array',
      items: {
        type: 'record',
        name: 'EveryKind_byId_Entry',
        fields: [
          { name: 'key', type: 'int' },
          { name: 'value', type: 'Address' },
        ],
      },
    });
    expect((f('shape').type as { name: string }[]).map((branch) => branch.name)).toEqual(['Circle', 'Rect']);
    expect(f('shapes').type).toEqual({ type: 'array', items: ['Circle', 'Rect'] });
    expect(f('legacy')).toEqual({
      name: 'legacy',
      type: 'string',
      doc: 'Use name instead (Deprecated.)',
      deprecated: true,
    });
    expect(f('category').type).toMatchObject({ type: 'record', name: 'Category' });
  });

  test('union variants drop the tag field; a nullable union gains one "null" branch', () => {
    const Holder = t.object('Holder', { a: t.nullable(Shape), b: t.optional(t.nullable(Shape)) });
    const f = fields(toAvro(Holder));
    expect((f('a').type as AvroSchemaJson[])[0]).toBe('null');
    expect((f('a').type as { fields: unknown[] }[])[1]).toEqual({
      type: 'record',
      name: 'Circle',
      fields: [{ name: 'radius', type: 'double' }],
    });
    expect(f('b')).toEqual({ name: 'b', type: ['null', 'Circle', 'Rect'], default: null });
  });

  test('a non-null default puts the value type first', () => {
    const f = fields(toAvro(Person));
    expect(f('age')).toEqual({ name: 'age', type: ['int', 'null'], default: 42 });
    expect(f('manager')).toEqual({ name: 'manager', type: ['string', 'null'], default: 'boss' });
    expect(f('shape').default).toEqual({ radius: 1.5 });
    expect(f('lastShape').default).toBeNull();
    expect((f('lastShape').type as AvroSchemaJson[])[0]).toBe('null');
  });

  test('defaults use Avro JSON encoding', () => {
    const f = fields(toAvro(Person));
    expect(f('blob').default).toBe('hi');
    expect(f('seen').default).toBe(1_704_164_645_678_000);
    expect(f('big').default).toBe(1e18);
    expect(f('byId').default).toEqual([{ key: 1, value: 'x' }]);
    expect(f('price').default).toBe('d');
    expect(f('home').default).toEqual({ street: 'Elm', flat: null });
    const dec = (value: string, scale = 2) =>
      fields(toAvro(t.object('D', { d: t.field(t.decimal({ precision: 9, scale }), { default: value }) })))(
        'd',
      ).default;
    expect([dec('12.50'), dec('-1'), dec('0'), dec('128', 0), dec('-128', 0)]).toEqual([
      '\u0004\u00e2',
      '\u009c',
      '\u0000',
      '\u0000\u0080',
      '\u0080',
    ]);
    const bytes = fields(
      toAvro(t.object('B', { b: t.field(t.bytes(), { default: new Uint8Array([0, 200, 255]) }) })),
    );
    expect(bytes('b').default).toBe('\u0000\u00c8\u00ff');
  });

  test('roots other than objects and unions are wrapped in a record', () => {
    expect(toAvro(t.array(t.int32()))).toEqual({
      type: 'record',
      name: 'Root',
      fields: [{ name: 'value', type: { type: 'array', items: 'int' } }],
    });
    expect(toAvro(t.optional(t.string()), { rootName: 'Box', namespace: 'a.b' })).toEqual({
      type: 'record',
      name: 'Box',
      namespace: 'a.b',
      fields: [{ name: 'value', type: ['null', 'string'], default: null }],
    });
    expect(toAvro(Shape)).toEqual([
      { type: 'record', name: 'Circle', fields: [{ name: 'radius', type: 'double' }] },
      {
        type: 'record',
        name: 'Rect',
        fields: [
          { name: 'width', type: 'float' },
          { name: 'height', type: 'float' },
        ],
      },
    ]);
    expect(toAvro(t.timestamp({ precision: 'ns' }))).toMatchObject({
      fields: [{ type: { type: 'long', logicalType: 'timestamp-nanos' } }],
    });
    expect(fields(toAvro(t.decimal({ precision: 5 })))('value').type).toBe('string');
  });

  test('entry records never take a name already in use', () => {
    const Taken = t.object('Holder_m_Entry', { x: t.int32() });
    const Holder = t.object('Holder', { taken: Taken, m: t.map(t.uint32(), t.map(t.int64(), t.string())) });
    const m = fields(toAvro(Holder))('m').type as { items: { name: string; fields: { type: unknown }[] } };
    expect(m.items.name).toBe('Holder_m_Entry2');
    expect(m.items.fields[0]?.type).toBe('long');
    expect(m.items.fields[1]?.type).toMatchObject({ items: { name: 'Holder_m_Entry2_value_Entry' } });
  });

  test("types without a namespace take the root type's, or the option's", () => {
    const Inner = t.object('Inner', { x: t.int32() });
    const Outer = t.object('Outer', { inner: Inner, list: t.array(Inner) }, { namespace: 'n' });
    expect(fields(toAvro(Outer))('list').type).toEqual({ type: 'array', items: 'Inner' });
    expect(fields(toAvro(Outer, { namespace: 'm' }))('list').type).toEqual({
      type: 'array',
      items: 'm.Inner',
    });
  });

  test('a type in the null namespace inside a namespaced record resets it', () => {
    const Inner = t.object('Inner', { x: t.int32() });
    const Once = t.object('Top', { mid: t.object('Mid', { inner: Inner }, { namespace: 'n' }) });
    expect(fields(fields(toAvro(Once))('mid').type as AvroSchemaJson)('inner').type).toMatchObject({
      name: 'Inner',
      namespace: '',
    });
    // Avro has no way to name a null-namespace type from inside a namespace.
    const Twice = t.object('Top', { mid: t.object('Mid', { a: Inner, b: Inner }, { namespace: 'n' }) });
    expect(codeOf(() => toAvro(Twice))).toBe('WK_EXPORT_UNSUPPORTED');
    expect(fields(fields(toAvro(Twice, { namespace: 'm' }))('mid').type as AvroSchemaJson)('b').type).toBe(
      'm.Inner',
    );
  });
});

describe('avroTypeName', () => {
  /** The name of an Avro type as written: a primitive or reference, a union (array), or a complex type. */
  const writtenName = (type: AvroSchemaJson): string =>
    typeof type === 'string' ? type : Array.isArray(type) ? 'union' : String(type.type);

  // The Avro codec's resolver orders an either's branches by avroTypeName, so it must name exactly
  // the type toAvro writes, for every kind: one mapping, one home.
  test.each(EveryKind.fields.filter((field) => field.schema.kind !== 'literal'))(
    'names the type toAvro writes for $name',
    (field) => {
      const written = fields(toAvro(t.object('Holder', { v: field.schema })))('v').type;
      expect(avroTypeName(field.schema)).toBe(writtenName(written));
    },
  );

  test('an either and a string-valued decimal too', () => {
    for (const schema of [t.either([t.string(), t.int32()]), t.decimal({ precision: 5 }), t.literal(2)]) {
      const written = fields(toAvro(t.object('Holder', { v: t.array(schema) })))('v').type;
      expect(avroTypeName(schema)).toBe(writtenName((written as { items: AvroSchemaJson }).items));
    }
  });
});

describe('toAvro: refusals', () => {
  const refused = (schema: Schema, options?: Parameters<typeof toAvro>[1]) =>
    codeOf(() => toAvro(schema, options));

  test.each([
    ['an enum member that is not an Avro symbol', t.enum('E', ['ok', 'not-ok'])],
    ['a field name that is not an Avro name', t.object('O', { 'a-b': t.int32() })],
    [
      'a union default that is not the first variant',
      t.object('O', { s: t.field(Shape, { default: { kind: 'rect', width: 1, height: 2 } }) }),
    ],
    [
      'a long default with no exact JSON number',
      t.object('O', { n: t.field(t.int64(), { default: 2n ** 60n }) }),
    ],
    ['a uint64 default beyond a long', t.object('O', { n: t.field(t.uint64(), { default: 2n ** 63n }) })],
    ['a NaN default', t.object('O', { n: t.field(t.float64(), { default: Number.NaN }) })],
    [
      'a decimal default finer than the scale',
      t.object('O', { n: t.field(t.decimal({ precision: 4, scale: 1 }), { default: '1.25' }) }),
    ],
    [
      'a default that misses a required field',
      t.object('O', { h: t.field(t.object('H', { x: t.int32() }), { default: {} as { x: number } }) }),
    ],
    [
      'a nested null default where null is not first',
      t.object('O', {
        h: t.field(t.object('H', { m: t.field(t.nullable(t.int32()), { default: 1 }) }), {
          default: { m: null },
        }),
      }),
    ],
  ])('%s', (_, schema) => {
    expect(refused(schema as Schema)).toBe('WK_EXPORT_UNSUPPORTED');
  });

  test('bad options and a clashing root wrapper', () => {
    expect(refused(t.int32(), { rootName: 'not valid' })).toBe('WK_EXPORT_UNSUPPORTED');
    expect(refused(t.int32(), { namespace: 'a..b' })).toBe('WK_EXPORT_UNSUPPORTED');
    expect(refused(t.array(t.object('Root', { x: t.int32() })))).toBe('WK_EXPORT_UNSUPPORTED');
    const Two = t.object('Two', {
      a: t.object('A', { x: t.int32() }),
      b: t.object('A', { y: t.int32() }, { namespace: 'n' }),
    });
    expect(refused(Two, { namespace: 'n' })).toBe('WK_EXPORT_UNSUPPORTED');
  });
});
