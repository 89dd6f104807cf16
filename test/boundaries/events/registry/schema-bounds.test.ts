/**
 * What one schema may cost the registry: a schema past the node bound (or the length bound) is
 * refused as invalid (422, 42201) whatever its type, and the bounds are options; names are data,
 * so a Protobuf field or message called `__proto__` is part of its schema like any other name.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type RegistryServer,
  startRegistryServer,
} from '../../../../src/boundaries/events/registry/server.js';
import { avroIntRecord } from '../../../fixtures/avro-texts.js';
import { call, subjectPath } from './http.js';

let server: RegistryServer;
let raised: RegistryServer;
const internalErrors: unknown[] = [];

beforeAll(async () => {
  const onInternalError = (error: unknown) => internalErrors.push(error);
  server = await startRegistryServer({ schemaLimits: { maxSchemaNodes: 1_000 }, onInternalError });
  raised = await startRegistryServer({ schemaLimits: { maxSchemaNodes: 5_000 }, onInternalError });
});
afterAll(async () => {
  await Promise.all([server.close(), raised.close()]);
  expect(internalErrors).toEqual([]);
});

/** A schema of each type with about `n` nodes. */
const schemas = (n: number) => ({
  // Three nodes a field: the field object, its name, its type.
  AVRO: avroIntRecord('R', Math.floor(n / 3)),
  PROTOBUF: `syntax = "proto3"; message M { ${Array.from({ length: n - 1 }, (_, i) => `int32 f${i} = ${i + 1};`).join(' ')} }`,
  WIREKIT: JSON.stringify({
    format: 'wirekit-schema',
    version: 1,
    // Four nodes a field: the field object, its name, its schema object, the kind.
    root: {
      kind: 'object',
      name: 'R',
      fields: Array.from({ length: Math.floor(n / 4) - 2 }, (_, i) => ({
        name: `f${i}`,
        schema: { kind: 'int32' },
      })),
    },
  }),
});

describe('the node bound', () => {
  test.each(['AVRO', 'PROTOBUF', 'WIREKIT'] as const)(
    '%s: a schema past it is refused with 42201 by registration, lookup and the compatibility check',
    async (schemaType) => {
      const schema = schemas(1_200)[schemaType];
      const body = { schemaType, schema };
      for (const path of [
        subjectPath(`past-${schemaType}`, '/versions'),
        subjectPath('anything'),
        '/compatibility/subjects/anything/versions',
      ]) {
        const reply = await call(server.url, 'POST', path, body);
        expect(reply.status, reply.text).toBe(422);
        expect(reply.body).toMatchObject({ error_code: 42201 });
        expect((reply.body as { message: string }).message).toMatch(/more than 1000 .*node limit/);
      }
      // Within the bound of the other server, the same schema is registered.
      expect(
        (await call(raised.url, 'POST', subjectPath(`past-${schemaType}`, '/versions'), body)).status,
      ).toBe(200);
      // And within this one's, a smaller one.
      const small = { schemaType, schema: schemas(900)[schemaType] };
      expect(
        (await call(server.url, 'POST', subjectPath(`within-${schemaType}`, '/versions'), small)).status,
      ).toBe(200);
    },
  );
});

describe('names are data', () => {
  const file = (field: string | undefined, type = 'int32') =>
    `syntax = "proto3";\nmessage Order {\n  int64 id = 1;\n${field === undefined ? '' : `  ${type} ${field} = 2;\n`}}\n`;

  test('a field called __proto__ makes another schema, with its own id and text', async () => {
    const register = (subject: string, schema: string) =>
      call(server.url, 'POST', subjectPath(subject, '/versions'), { schemaType: 'PROTOBUF', schema });
    const without = await register('names-a', file(undefined));
    const proto = await register('names-b', file('__proto__'));
    expect(without.status).toBe(200);
    expect(proto.status).toBe(200);
    expect((proto.body as { id: number }).id).not.toBe((without.body as { id: number }).id);
    const served = await call(server.url, 'GET', `/schemas/ids/${(proto.body as { id: number }).id}`);
    expect((served.body as { schema: string }).schema).toBe(file('__proto__'));
    const message = await register(
      'names-c',
      'syntax = "proto3";\nmessage __proto__ { int32 constructor = 1; }\n',
    );
    expect(message.status).toBe(200);
    expect((message.body as { id: number }).id).not.toBe((without.body as { id: number }).id);
  });

  test('an int32 field called __proto__ turned string breaks FULL', async () => {
    const subject = 'names-full';
    await call(server.url, 'PUT', `/config/${subject}`, { compatibility: 'FULL' });
    const first = await call(server.url, 'POST', subjectPath(subject, '/versions'), {
      schemaType: 'PROTOBUF',
      schema: file('__proto__'),
    });
    expect(first.status).toBe(200);
    const changed = await call(
      server.url,
      'POST',
      `/compatibility/subjects/${subject}/versions?verbose=true`,
      {
        schemaType: 'PROTOBUF',
        schema: file('__proto__', 'string'),
      },
    );
    expect(changed.body).toMatchObject({ is_compatible: false });
    expect(JSON.stringify(changed.body)).toContain('FIELD_SCALAR_KIND_CHANGED');
    const refused = await call(server.url, 'POST', subjectPath(subject, '/versions'), {
      schemaType: 'PROTOBUF',
      schema: file('__proto__', 'string'),
    });
    expect(refused.status).toBe(409);
  });
});
