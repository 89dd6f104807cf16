/**
 * The registry server applying real compatibility rules (src/boundaries/events/compatibility):
 * 409 for an incompatible version under each level, 42201 for a schema that does not parse, the
 * same id for texts that differ only in layout, and the levels' scopes (latest only, every version,
 * soft-deleted versions left out). These need the real module, not its placeholder.
 */
import { describe, expect, test } from 'vitest';
import { memoryStore } from '../../../../src/boundaries/events/registry/memory-store.js';
import { startRegistryServer } from '../../../../src/boundaries/events/registry/server.js';
import { call, registryPerTest, subjectPath, userSchema } from './http.js';

const api = registryPerTest();
const register = (subject: string, schema: string, schemaType?: string) =>
  api('POST', subjectPath(subject, '/versions'), {
    schema,
    ...(schemaType === undefined ? {} : { schemaType }),
  });

const v1 = userSchema();
const withAgeDefault = userSchema({ name: 'age', type: 'int', default: 0 });
const withAgeRequired = userSchema({ name: 'age', type: 'int' });

function expectError(reply: { status: number; body: unknown }, status: number, errorCode: number): void {
  expect({ status: reply.status, errorCode: (reply.body as { error_code?: unknown }).error_code }).toEqual({
    status,
    errorCode,
  });
}

describe('incompatible versions are refused with 409', () => {
  test('BACKWARD (the default): a field added without a default', async () => {
    await register('s', v1);
    const refused = await register('s', withAgeRequired);
    expectError(refused, 409, 409);
    expect((refused.body as { message: string }).message).toMatch(/incompatible/);
    expect((await api('GET', subjectPath('s', '/versions'))).body).toEqual([1]);
  });

  test('the compatibility test says why, with verbose', async () => {
    await register('s', v1);
    const tested = await api('POST', '/compatibility/subjects/s/versions/latest?verbose=true', {
      schema: withAgeRequired,
    });
    expect(tested.status).toBe(200);
    const body = tested.body as { is_compatible: boolean; messages: string[] };
    expect(body.is_compatible).toBe(false);
    expect(body.messages.length).toBeGreaterThan(0);
    expect(
      (await api('POST', '/compatibility/subjects/s/versions/1', { schema: withAgeRequired })).body,
    ).toEqual({
      is_compatible: false,
    });
  });

  test('FORWARD: a field removed that the old schema needs', async () => {
    await api('PUT', '/config/s', { compatibility: 'FORWARD' });
    await register('s', withAgeRequired);
    expectError(await register('s', v1), 409, 409);
    expect(
      (await register('s', userSchema({ name: 'age', type: 'int' }, { name: 'x', type: 'int' }))).status,
    ).toBe(200);
  });

  test('BACKWARD checks the latest only; BACKWARD_TRANSITIVE every version', async () => {
    await register('plain', v1);
    await register('plain', withAgeDefault);
    expect((await register('plain', withAgeRequired)).body).toEqual({ id: 3 });

    await api('PUT', '/config/transitive', { compatibility: 'BACKWARD_TRANSITIVE' });
    await register('transitive', v1);
    await register('transitive', withAgeDefault);
    expectError(await register('transitive', withAgeRequired), 409, 409);
    const all = await api('POST', '/compatibility/subjects/transitive/versions', { schema: withAgeRequired });
    expect(all.body).toEqual({ is_compatible: false });
  });

  test('the global level applies where the subject sets none; NONE checks nothing', async () => {
    await api('PUT', '/config', { compatibility: 'NONE' });
    await register('s', v1);
    expect((await register('s', withAgeRequired)).status).toBe(200);
    await api('PUT', '/config/s', { compatibility: 'FULL' });
    expectError(await register('s', userSchema({ name: 'other', type: 'string' })), 409, 409);
  });

  test('soft-deleted versions are not checked against', async () => {
    await register('s', v1);
    expectError(await register('s', withAgeRequired), 409, 409);
    await api('DELETE', subjectPath('s', '/versions/1'));
    expect((await register('s', withAgeRequired)).body).toEqual({ id: 2 });
    expect((await api('GET', subjectPath('s', '/versions?deleted=true'))).body).toEqual([1, 2]);
  });

  test('a version of another schema type is incompatible', async () => {
    await register('s', v1);
    const proto = 'syntax = "proto3";\npackage test;\nmessage User { string name = 1; }\n';
    expectError(await register('s', proto, 'PROTOBUF'), 409, 409);
  });
});

describe('schemas that do not parse are refused with 42201', () => {
  test.each([
    ['Avro that is not JSON', '{"type": "record"', undefined],
    ['Avro naming an unknown type', '{"type": "nope"}', undefined],
    ['a record without fields', '{"type": "record", "name": "X"}', undefined],
    ['Protobuf that does not parse', 'message { string = ; }', 'PROTOBUF'],
    ['a wirekit schema that is not one', '{"kind": "nope"}', 'WIREKIT'],
  ])('%s', async (_, schema, schemaType) => {
    expectError(await register('s', schema, schemaType), 422, 42201);
    expectError(
      await api('POST', '/compatibility/subjects/s/versions/latest', { schema, schemaType }),
      422,
      42201,
    );
    expectError(await api('POST', subjectPath('s', ''), { schema, schemaType }), 422, 42201);
  });
});

describe('a log older than the rules', () => {
  test('a stored version the rules no longer parse is still served, and a new version is checked as incompatible', async () => {
    const store = memoryStore([
      {
        kind: 'schema',
        subject: 'old',
        version: 1,
        id: 1,
        schemaType: 'AVRO',
        schema: '{"type": "record", "name": "Legacy"}',
        references: [],
        deleted: false,
      },
    ]);
    const replayed = await startRegistryServer({ store });
    try {
      expect((await call(replayed.url, 'GET', '/schemas/ids/1')).body).toEqual({
        schema: '{"type": "record", "name": "Legacy"}',
      });
      const refused = await call(replayed.url, 'POST', subjectPath('old', '/versions'), { schema: v1 });
      expectError(refused, 409, 409);
      expect((refused.body as { message: string }).message).toMatch(/no longer parses/);
      await call(replayed.url, 'PUT', '/config/old', { compatibility: 'NONE' });
      expect(
        (await call(replayed.url, 'POST', subjectPath('old', '/versions'), { schema: v1 })).body,
      ).toEqual({
        id: 2,
      });
    } finally {
      await replayed.close();
    }
  });
});

// The rest of what references do: references.test.ts.
describe('references', () => {
  test('a schema that defines again a named type its reference defines is refused (42201)', async () => {
    await register('address', v1);
    const references = [{ name: 'test.User', subject: 'address', version: 1 }];
    expectError(
      await api('POST', subjectPath('order', '/versions'), { schema: withAgeDefault, references }),
      422,
      42201,
    );
  });
});

describe('the same schema, laid out differently', () => {
  test('Avro texts differing in whitespace and key order get one id, and one version', async () => {
    const spaced = JSON.stringify(JSON.parse(v1), null, 4);
    const reordered = JSON.stringify({
      fields: [{ type: 'string', name: 'name' }],
      namespace: 'test',
      name: 'User',
      type: 'record',
    });
    expect((await register('a', v1)).body).toEqual({ id: 1 });
    expect((await register('a', spaced)).body).toEqual({ id: 1 });
    expect((await register('b', reordered)).body).toEqual({ id: 1 });
    expect((await api('GET', subjectPath('a', '/versions'))).body).toEqual([1]);
    expect((await api('POST', subjectPath('a', ''), { schema: reordered })).body).toMatchObject({
      version: 1,
      id: 1,
    });
  });
});
