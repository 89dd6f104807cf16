/**
 * `?format=resolved` (Confluent's, for Avro): the schema with the named types of its references
 * written in, transitively, so a reader needs no second fetch. avsc, which knows nothing of the
 * registry, reads the answer on its own; the schema as registered it cannot read. Other types
 * ignore the format, as Confluent's server does.
 */
import avsc from 'avsc';
import { expect, test } from 'vitest';
import { registryPerTest, subjectPath } from './http.js';

const api = registryPerTest();
const point = { type: 'record', name: 'Point', namespace: 'geo', fields: [{ name: 'lat', type: 'double' }] };
// Address names geo.Point (another subject); Customer names shop.Address, then Address by its short name.
const address = {
  type: 'record',
  name: 'Address',
  namespace: 'shop',
  doc: 'where',
  fields: [
    { name: 'city', type: 'string' },
    { name: 'at', type: 'geo.Point' },
  ],
};
const customer = {
  type: 'record',
  name: 'Customer',
  namespace: 'shop',
  fields: [
    { name: 'home', type: 'shop.Address' },
    { name: 'work', type: ['null', 'Address'], default: null },
  ],
};

async function registerAll(): Promise<number> {
  await api('POST', subjectPath('point-value', '/versions'), { schema: JSON.stringify(point) });
  await api('POST', subjectPath('address-value', '/versions'), {
    schema: JSON.stringify(address),
    references: [{ name: 'geo.Point', subject: 'point-value', version: 1 }],
  });
  const reply = await api('POST', subjectPath('customer-value', '/versions'), {
    schema: JSON.stringify(customer),
    references: [{ name: 'shop.Address', subject: 'address-value', version: 1 }],
  });
  return (reply.body as { id: number }).id;
}

test('an Avro schema comes with its references written in, where each type is first named', async () => {
  const id = await registerAll();
  for (const path of [`/schemas/ids/${id}`, subjectPath('customer-value', '/versions/1')]) {
    const { schema, references } = (await api('GET', `${path}?format=resolved`)).body as {
      schema: string;
      references: unknown[];
    };
    expect(references).toHaveLength(1);
    const resolved = JSON.parse(schema);
    expect(resolved.fields[0].type).toEqual({
      ...address,
      fields: [address.fields[0], { name: 'at', type: point }],
    });
    expect(resolved.fields[1].type).toEqual(['null', 'Address']);
    // A reader with no registry reads it, and it describes the same data.
    const type = avsc.Type.forSchema(resolved);
    const value = { home: { city: 'Oslo', at: { lat: 59.9 } }, work: null };
    expect(type.fromBuffer(type.toBuffer(value))).toEqual(value);
    // The text as registered names types it does not define.
    const plain = (await api('GET', path)).body as { schema: string };
    expect(JSON.parse(plain.schema)).toEqual(customer);
    expect(() => avsc.Type.forSchema(JSON.parse(plain.schema))).toThrow(/undefined type name/);
  }
});

test('a schema without references, and other types, ignore the format', async () => {
  await registerAll();
  const pointRead = (await api('GET', '/schemas/ids/1?format=resolved')).body as { schema: string };
  expect(JSON.parse(pointRead.schema)).toEqual(point);
  const proto = 'syntax = "proto3";\npackage p;\nmessage M { string s = 1; }\n';
  const reply = await api('POST', subjectPath('proto-value', '/versions'), {
    schemaType: 'PROTOBUF',
    schema: proto,
  });
  const { id } = reply.body as { id: number };
  expect(((await api('GET', `/schemas/ids/${id}?format=resolved`)).body as { schema: string }).schema).toBe(
    proto,
  );
});
