/**
 * schemaFromAvro and Avro's naming rules across one file: a nested definition inherits the
 * enclosing namespace, its own namespace (or "", the null namespace) overrides it, and a reference
 * may use the short name within the namespace or the full name anywhere. The imported names are
 * the ones Avro resolves, and avsc's bytes for the file decode through the import. Types another
 * schema defines (a registry's references) are imported from that schema's JSON.
 */
import avsc from 'avsc';
import { describe, expect, test } from 'vitest';
import { createAvroCodec } from '../../../src/codecs/avro/index.js';
import { schemaFromAvro } from '../../../src/codecs/avro/schema-from-avro.js';
import { type JsonValue, type Schema, schemaToJson } from '../../../src/schema/index.js';

const avro = {
  type: 'record',
  name: 'Order',
  namespace: 'shop.orders',
  fields: [
    // Inherits shop.orders: shop.orders.Line.
    { name: 'first', type: { type: 'record', name: 'Line', fields: [{ name: 'sku', type: 'string' }] } },
    // The short name, within shop.orders, and the full name.
    { name: 'second', type: 'Line' },
    { name: 'third', type: 'shop.orders.Line' },
    // Its own namespace, and the null namespace.
    {
      name: 'status',
      type: { type: 'enum', name: 'Status', namespace: 'shop.common', symbols: ['OPEN', 'DONE'] },
    },
    { name: 'again', type: 'shop.common.Status' },
    {
      name: 'tag',
      type: { type: 'record', name: 'Tag', namespace: '', fields: [{ name: 'v', type: 'int' }] },
    },
    // A name given with dots carries its own namespace, and names inside it inherit that one.
    {
      name: 'meta',
      type: {
        type: 'record',
        name: 'audit.Meta',
        fields: [
          { name: 'by', type: { type: 'record', name: 'User', fields: [{ name: 'id', type: 'long' }] } },
        ],
      },
    },
    { name: 'user', type: 'audit.User' },
  ],
};

function fieldSchema(schema: Schema, name: string): Schema {
  if (schema.kind !== 'object') throw new Error('not an object');
  const field = schema.fields.find((f) => f.name === name);
  if (field === undefined) throw new Error(`no field ${name}`);
  return field.schema;
}

test('each named type gets the name and namespace Avro resolves', () => {
  const schema = schemaFromAvro(avro as never);
  const names = ['first', 'status', 'tag', 'meta', 'user'].map((name) => {
    const type = fieldSchema(schema, name) as { name: string; namespace?: string };
    return [type.name, type.namespace];
  });
  expect(names).toEqual([
    ['Line', 'shop.orders'],
    ['Status', 'shop.common'],
    ['Tag', undefined],
    ['Meta', 'audit'],
    ['User', 'audit'],
  ]);
  // A reference is the type defined before, not a copy of it.
  expect(fieldSchema(schema, 'second')).toBe(fieldSchema(schema, 'first'));
  expect(fieldSchema(schema, 'third')).toBe(fieldSchema(schema, 'first'));
  expect(fieldSchema(schema, 'again')).toBe(fieldSchema(schema, 'status'));
});

test("avsc's bytes decode through the import and re-encode to the same bytes", () => {
  const type = avsc.Type.forSchema(avro as never);
  const value = {
    first: { sku: 'a' },
    second: { sku: 'b' },
    third: { sku: 'c' },
    status: 'DONE',
    again: 'OPEN',
    tag: { v: -3 },
    meta: { by: { id: 7 } },
    user: { id: 8 },
  };
  const bytes = type.toBuffer(value);
  const schema = schemaFromAvro(avro as never);
  const decoded = createAvroCodec({ schema, writerSchema: JSON.stringify(avro) }).decode(bytes);
  expect(decoded).toEqual({ ...value, meta: { by: { id: 7n } }, user: { id: 8n } });
  expect(Buffer.from(createAvroCodec({ schema }).encode(decoded))).toEqual(bytes);
});

test.each([
  [
    'timestamp-nanos',
    { type: 'long', logicalType: 'timestamp-nanos' },
    { kind: 'timestamp', precision: 'ns' },
  ],
  ['local-timestamp-nanos', { type: 'long', logicalType: 'local-timestamp-nanos' }, { kind: 'int64' }],
  ['duration (fixed 12)', { type: 'fixed', name: 'D', size: 12, logicalType: 'duration' }, { kind: 'bytes' }],
  [
    'decimal on bytes',
    { type: 'bytes', logicalType: 'decimal', precision: 5, scale: 2 },
    { kind: 'decimal', precision: 5, scale: 2 },
  ],
])('%s imports as the mapping says', (_name, avroType, expected) => {
  expect(
    schemaFromAvro({ type: 'record', name: 'R', fields: [{ name: 'v', type: avroType }] } as never),
  ).toMatchObject({ fields: [{ schema: expected }] });
});

describe('references', () => {
  // A registry's writer schema may name a type another subject's schema defines.
  const address: JsonValue = {
    type: 'record',
    name: 'Address',
    namespace: 'shop',
    fields: [
      { name: 'city', type: 'string', doc: 'The city.' },
      { name: 'zip', type: 'string', default: '00000' },
    ],
  };
  const customer = {
    type: 'record',
    name: 'Customer',
    namespace: 'shop',
    fields: [{ name: 'home', type: 'shop.Address' }],
  };

  test("a type named from a reference is imported with the reference's docs and defaults", () => {
    const root = schemaToJson(schemaFromAvro(customer, [address])).root as {
      fields: { schema: { fields: unknown[] } }[];
    };
    expect(root.fields[0]?.schema.fields).toEqual([
      { name: 'city', id: 1, doc: 'The city.', schema: { kind: 'string' } },
      { name: 'zip', id: 2, schema: { kind: 'string' }, default: '00000' },
    ]);
    expect(() => schemaFromAvro(customer)).toThrow(/shop\.Address/);
  });
});
