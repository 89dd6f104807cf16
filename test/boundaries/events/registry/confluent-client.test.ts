/**
 * Interop: @kafkajs/confluent-schema-registry 3.9.0, a Confluent client wirekit did not write,
 * against wirekit's registry server. It registers (reading and setting the subject's level on the
 * way, as it does), finds the latest id, frames values (magic 0, the 4-byte id) and reads them back
 * through the server's schema by id. Its Protobuf path writes no message indexes after the id, so
 * only its own decoder reads those bytes: the test checks the round trip and the id, nothing more.
 */
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import avro from 'avsc';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type RegistryServer,
  startRegistryServer,
} from '../../../../src/boundaries/events/registry/server.js';
import { call } from './http.js';

let server: RegistryServer;
let client: SchemaRegistry;

beforeAll(async () => {
  server = await startRegistryServer({ port: 0 });
  client = new SchemaRegistry({ host: server.url }, {});
});
afterAll(async () => {
  await server.close();
});

const avroSchema = JSON.stringify({
  type: 'record',
  name: 'Reading',
  namespace: 'sensors',
  fields: [
    { name: 'sensor', type: 'string' },
    { name: 'celsius', type: 'double' },
  ],
});

describe('@kafkajs/confluent-schema-registry against the server', () => {
  test('Avro: register, getLatestSchemaId, encode and decode, getSchema', async () => {
    const { id } = await client.register(
      { type: SchemaType.AVRO, schema: avroSchema },
      { subject: 'readings-value' },
    );
    expect(id).toBe(1);
    // The client set the subject's level on its first registration; the server kept it.
    expect((await call(server.url, 'GET', '/config/readings-value')).body).toEqual({
      compatibilityLevel: 'BACKWARD',
    });
    expect(await client.getLatestSchemaId('readings-value')).toBe(id);

    const value = { sensor: 'boiler-1', celsius: 71.5 };
    const bytes = await client.encode(id, value);
    expect(bytes[0]).toBe(0);
    expect(bytes.readUInt32BE(1)).toBe(id);
    // The bytes after the frame are the Avro datum of the schema the server holds under the id.
    const held = (await call(server.url, 'GET', `/schemas/ids/${id}`)).body as { schema: string };
    expect(avro.Type.forSchema(JSON.parse(held.schema)).fromBuffer(bytes.subarray(5))).toEqual(value);

    // A fresh client has nothing cached: decode asks the server for the schema by id.
    const fresh = new SchemaRegistry({ host: server.url });
    expect(await fresh.decode(bytes)).toEqual(value);
    const schema = (await fresh.getSchema(id)) as unknown as { name?: string };
    expect(schema.name).toBe('sensors.Reading');
  });

  test('registering the same schema again answers the same id; a second version is found as latest', async () => {
    const again = await client.register(
      { type: SchemaType.AVRO, schema: avroSchema },
      { subject: 'readings-value' },
    );
    expect(again.id).toBe(1);
    const next = JSON.parse(avroSchema);
    next.fields.push({ name: 'site', type: 'string', default: 'unknown' });
    const { id } = await client.register(
      { type: SchemaType.AVRO, schema: JSON.stringify(next) },
      { subject: 'readings-value' },
    );
    expect(id).toBe(2);
    expect(await client.getLatestSchemaId('readings-value')).toBe(2);
    expect(await client.getRegistryId('readings-value', 1)).toBe(1);
    expect(
      await client.getRegistryIdBySchema('readings-value', { type: SchemaType.AVRO, schema: avroSchema }),
    ).toBe(1);
  });

  test('a level that differs from the one the client asks for is seen by the client', async () => {
    await call(server.url, 'PUT', '/config/strict-value', { compatibility: 'FULL' });
    const refused = await client
      .register({ type: SchemaType.AVRO, schema: avroSchema }, { subject: 'strict-value' })
      .catch((error: unknown) => error);
    expect((refused as Error).name).toBe('ConfluentSchemaRegistryCompatibilityError');
  });

  test('Protobuf: register, encode and decode through its own (index-less) framing, getSchema', async () => {
    const proto =
      'syntax = "proto3";\npackage sensors;\nmessage Ping {\n  string source = 1;\n  int32 count = 2;\n}\n';
    const { id } = await client.register(
      { type: SchemaType.PROTOBUF, schema: proto },
      { subject: 'pings-value' },
    );
    expect((await call(server.url, 'GET', `/schemas/ids/${id}`)).body).toEqual({
      schemaType: 'PROTOBUF',
      schema: proto,
    });
    const bytes = await client.encode(id, { source: 'edge', count: 3 });
    expect(bytes[0]).toBe(0);
    expect(bytes.readUInt32BE(1)).toBe(id);
    const fresh = new SchemaRegistry({ host: server.url });
    expect(await fresh.decode(bytes)).toMatchObject({ source: 'edge', count: 3 });
  });

  test("an unknown id is the client's 404", async () => {
    const refused = await new SchemaRegistry({ host: server.url }, {})
      .getSchema(99)
      .catch((error: unknown) => error);
    expect((refused as { status?: number }).status).toBe(404);
  });
});
