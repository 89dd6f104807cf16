/**
 * Every route of the registry server over real HTTP: the success body and the error bodies
 * (status and Confluent error_code) Confluent's API answers with. Rules that need the real
 * compatibility module (a schema that does not parse, an incompatible one) are in
 * compatibility-rules.test.ts.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { registryMediaType } from '../../../../src/boundaries/events/registry/api.js';
import { memoryStore } from '../../../../src/boundaries/events/registry/memory-store.js';
import {
  type RegistryServer,
  startRegistryServer,
} from '../../../../src/boundaries/events/registry/server.js';
import type { RegistryRecord } from '../../../../src/boundaries/events/registry/store.js';
import { call, subjectPath, userSchema } from './http.js';

let server: RegistryServer;
const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  call(server.url, method, path, body, headers);

const v1 = userSchema();
const v2 = userSchema({ name: 'age', type: 'int', default: 0 });
const proto = 'syntax = "proto3";\npackage test;\nmessage Ping { string id = 1; }\n';

beforeEach(async () => {
  server = await startRegistryServer({ port: 0 });
});
afterEach(async () => {
  await server.close();
});

function expectError(reply: { status: number; body: unknown }, status: number, errorCode: number): void {
  expect({ status: reply.status, errorCode: (reply.body as { error_code?: unknown }).error_code }).toEqual({
    status,
    errorCode,
  });
  expect(typeof (reply.body as { message?: unknown }).message).toBe('string');
}

describe('root and schema types', () => {
  test('GET / answers {} in the registry media type', async () => {
    const reply = await api('GET', '/');
    expect(reply).toMatchObject({ status: 200, body: {}, contentType: registryMediaType });
  });

  test('GET /schemas/types lists the types the registry takes', async () => {
    expect((await api('GET', '/schemas/types')).body).toEqual(['AVRO', 'PROTOBUF', 'WIREKIT']);
  });

  test('GET /mode says the registry takes writes', async () => {
    expect((await api('GET', '/mode')).body).toEqual({ mode: 'READWRITE' });
  });
});

describe('POST /subjects/{subject}/versions', () => {
  test('registers, answers {"id"}, and gives the same schema the same id again', async () => {
    expect(await api('POST', subjectPath('users-value', '/versions'), { schema: v1 })).toMatchObject({
      status: 200,
      body: { id: 1 },
      contentType: registryMediaType,
    });
    expect((await api('POST', subjectPath('users-value', '/versions'), { schema: v1 })).body).toEqual({
      id: 1,
    });
    expect((await api('GET', subjectPath('users-value', '/versions'))).body).toEqual([1]);
  });

  test('the same schema under another subject gets the same id, at its own version 1', async () => {
    await api('POST', subjectPath('a', '/versions'), { schema: v1 });
    await api('POST', subjectPath('a', '/versions'), { schema: v2 });
    expect((await api('POST', subjectPath('b', '/versions'), { schema: v2 })).body).toEqual({ id: 2 });
    expect((await api('GET', subjectPath('b', '/versions/latest'))).body).toMatchObject({
      version: 1,
      id: 2,
    });
  });

  test('a new schema gets the next id and the next version', async () => {
    await api('POST', subjectPath('users-value', '/versions'), { schema: v1 });
    expect((await api('POST', subjectPath('users-value', '/versions'), { schema: v2 })).body).toEqual({
      id: 2,
    });
    expect((await api('GET', subjectPath('users-value', '/versions'))).body).toEqual([1, 2]);
  });

  test('takes application/json and application/vnd.schemaregistry+json too', async () => {
    for (const type of ['application/json', 'application/vnd.schemaregistry+json; charset=utf-8']) {
      const reply = await api(
        'POST',
        subjectPath('s', '/versions'),
        { schema: v1 },
        { 'content-type': type },
      );
      expect(reply.body).toEqual({ id: 1 });
    }
  });

  test('a Protobuf schema is kept with its type', async () => {
    await api('POST', subjectPath('pings', '/versions'), { schema: proto, schemaType: 'PROTOBUF' });
    expect((await api('GET', '/schemas/ids/1')).body).toEqual({ schemaType: 'PROTOBUF', schema: proto });
  });

  test('refusals: not JSON (400), not an object (422), no schema or an unknown type (42201)', async () => {
    const path = subjectPath('s', '/versions');
    expectError(await api('POST', path, '{"schema": '), 400, 400);
    expectError(await api('POST', path, '[1, 2]'), 422, 422);
    expectError(await api('POST', path, '"text"'), 422, 422);
    expectError(await api('POST', path, {}), 422, 42201);
    expectError(await api('POST', path, { schema: 5 }), 422, 42201);
    expectError(await api('POST', path, { schema: '' }), 422, 42201);
    expectError(await api('POST', path, { schema: v1, schemaType: 'JSON' }), 422, 42201);
    expectError(await api('POST', path, { schema: v1, schemaType: 7 }), 422, 42201);
    expectError(await api('POST', path, { schema: v1, references: 'none' }), 422, 42201);
    expectError(await api('POST', path, { schema: v1, references: [{ name: 'x' }] }), 422, 42201);
    expect((await api('GET', '/subjects')).body).toEqual([]);
  });

  test('an empty subject, or one with control characters, is refused (42208)', async () => {
    expectError(await api('POST', '/subjects//versions', { schema: v1 }), 422, 42208);
    expectError(await api('POST', subjectPath('a\u0001b', '/versions'), { schema: v1 }), 422, 42208);
  });

  test('a Content-Type that is not JSON is refused (415)', async () => {
    const reply = await api('POST', subjectPath('s', '/versions'), JSON.stringify({ schema: v1 }), {
      'content-type': 'text/plain',
    });
    expectError(reply, 415, 415);
  });
});

describe('subjects with any characters', () => {
  test('slashes, colons, dots, spaces and non-ASCII survive the path, percent-encoded', async () => {
    const subjects = [
      'team/orders:v1.value',
      ':.ctx:orders',
      'a b',
      'zäöü€',
      'a..b',
      '.hidden',
      '%2F',
      'a+b&c=d?e#f',
    ];
    for (const subject of subjects) {
      expect((await api('POST', subjectPath(subject, '/versions'), { schema: v1 })).body).toEqual({ id: 1 });
      expect((await api('GET', subjectPath(subject, '/versions/1'))).body).toMatchObject({ subject });
    }
    expect((await api('GET', '/subjects')).body).toEqual([...subjects].sort());
  });

  test('broken percent-encoding is a 400 with a body', async () => {
    expectError(await api('GET', '/subjects/%E0%A4%A/versions'), 400, 400);
    expectError(await api('GET', '/subjects/%zz'), 400, 400);
  });
});

describe('reading subjects and versions', () => {
  beforeEach(async () => {
    await api('POST', subjectPath('b', '/versions'), { schema: v1 });
    await api('POST', subjectPath('b', '/versions'), { schema: v2 });
    await api('POST', subjectPath('a', '/versions'), { schema: v1 });
  });

  test('GET /subjects lists them sorted', async () => {
    expect((await api('GET', '/subjects')).body).toEqual(['a', 'b']);
  });

  test('GET /subjects/{s}/versions; 40401 for an unknown subject', async () => {
    expect((await api('GET', subjectPath('b', '/versions'))).body).toEqual([1, 2]);
    expectError(await api('GET', subjectPath('nope', '/versions')), 404, 40401);
  });

  test('GET /subjects/{s}/versions/{v}: a number, latest or -1; no schemaType for Avro', async () => {
    const second = { subject: 'b', version: 2, id: 2, schema: v2 };
    expect((await api('GET', subjectPath('b', '/versions/2'))).body).toEqual(second);
    expect((await api('GET', subjectPath('b', '/versions/latest'))).body).toEqual(second);
    expect((await api('GET', subjectPath('b', '/versions/-1'))).body).toEqual(second);
    expect((await api('GET', subjectPath('b', '/versions/1'))).body).toEqual({
      subject: 'b',
      version: 1,
      id: 1,
      schema: v1,
    });
  });

  test('versions: 40402 for one that does not exist, 40401 for no subject, 42202 for no version', async () => {
    expectError(await api('GET', subjectPath('b', '/versions/3')), 404, 40402);
    expectError(await api('GET', subjectPath('nope', '/versions/1')), 404, 40401);
    expectError(await api('GET', subjectPath('nope', '/versions/latest')), 404, 40401);
    for (const version of ['0', '-2', 'abc', '1.5', '2147483648', '99999999999999999999999', '1e3', '0x1']) {
      expectError(await api('GET', subjectPath('b', `/versions/${version}`)), 422, 42202);
    }
    expect((await api('GET', subjectPath('b', '/versions/2147483647'))).status).toBe(404);
  });

  test('GET /subjects/{s}/versions/{v}/schema answers the schema text itself', async () => {
    const reply = await api('GET', subjectPath('b', '/versions/2/schema'));
    expect(reply.status).toBe(200);
    expect(reply.text).toBe(v2);
    expectError(await api('GET', subjectPath('b', '/versions/9/schema')), 404, 40402);
  });

  test('POST /subjects/{s} finds the version of a schema; 40403 when not there, 40401 with no subject', async () => {
    expect((await api('POST', subjectPath('b', ''), { schema: v1 })).body).toEqual({
      subject: 'b',
      version: 1,
      id: 1,
      schema: v1,
    });
    const other = userSchema({ name: 'other', type: 'string', default: '' });
    expectError(await api('POST', subjectPath('b', ''), { schema: other }), 404, 40403);
    expectError(await api('POST', subjectPath('nope', ''), { schema: v1 }), 404, 40401);
    expectError(await api('POST', subjectPath('b', ''), { nothing: true }), 422, 42201);
  });
});

describe('schemas by id', () => {
  beforeEach(async () => {
    await api('POST', subjectPath('a', '/versions'), { schema: v1 });
    await api('POST', subjectPath('b', '/versions'), { schema: v1 });
  });

  test('GET /schemas/ids/{id}, and its /schema text', async () => {
    expect((await api('GET', '/schemas/ids/1')).body).toEqual({ schema: v1 });
    expect((await api('GET', '/schemas/ids/1/schema')).text).toBe(v1);
  });

  test('GET /schemas/ids/{id}/versions and /subjects list who uses the id', async () => {
    expect((await api('GET', '/schemas/ids/1/versions')).body).toEqual([
      { subject: 'a', version: 1 },
      { subject: 'b', version: 1 },
    ]);
    expect((await api('GET', '/schemas/ids/1/subjects')).body).toEqual(['a', 'b']);
  });

  test('40403 for an id that is not there, whatever the id looks like', async () => {
    for (const id of ['2', '0', 'abc', '-1', '99999999999999999999', '1.0']) {
      expectError(await api('GET', `/schemas/ids/${id}`), 404, 40403);
    }
    expectError(await api('GET', '/schemas/ids/7/versions'), 404, 40403);
    expectError(await api('GET', '/schemas/ids/7/subjects'), 404, 40403);
    expectError(await api('GET', '/schemas/ids/7/schema'), 404, 40403);
  });
});

describe('references', () => {
  // The compatibility module refuses to register schemas with references (compatibility-rules.test.ts),
  // but a log may hold them (one written by Confluent's registry): they are served and guarded.
  const references = [{ name: 'test.User', subject: 'address', version: 1 }];
  const logged = (subject: string, id: number, schema: string, refs: typeof references): RegistryRecord => ({
    kind: 'schema',
    subject,
    version: 1,
    id,
    schemaType: 'AVRO',
    schema,
    references: refs,
    deleted: false,
  });

  test('a logged schema that references another is served, listed by /referencedby, and blocks its deletion (42206)', async () => {
    const store = memoryStore([logged('address', 1, v1, []), logged('order', 2, v2, references)]);
    const replayed = await startRegistryServer({ store });
    const at = (method: string, path: string) => call(replayed.url, method, path);
    try {
      expect((await at('GET', subjectPath('order', '/versions/1'))).body).toMatchObject({ references });
      expect((await at('GET', '/schemas/ids/2')).body).toEqual({ references, schema: v2 });
      expect((await at('GET', subjectPath('address', '/versions/1/referencedby'))).body).toEqual([2]);
      expect((await at('GET', subjectPath('order', '/versions/1/referencedby'))).body).toEqual([]);
      expectError(await at('DELETE', subjectPath('address', '/versions/1')), 422, 42206);
      expectError(await at('DELETE', subjectPath('address', '')), 422, 42206);
      await at('DELETE', subjectPath('order', ''));
      expect((await at('DELETE', subjectPath('address', '/versions/1'))).body).toBe(1);
    } finally {
      await replayed.close();
    }
  });

  test('a reference must name a version that exists (42201)', async () => {
    const missing = [{ name: 'test.User', subject: 'missing', version: 1 }];
    expectError(
      await api('POST', subjectPath('s', '/versions'), { schema: v1, references: missing }),
      422,
      42201,
    );
  });
});

describe('compatibility tests', () => {
  beforeEach(async () => {
    await api('POST', subjectPath('s', '/versions'), { schema: v1 });
  });

  test('POST /compatibility/subjects/{s}/versions/{v|latest} answers is_compatible, with messages when verbose', async () => {
    const latest = await api('POST', '/compatibility/subjects/s/versions/latest', { schema: v2 });
    expect(latest).toMatchObject({ status: 200, body: { is_compatible: true } });
    expect(latest.body).not.toHaveProperty('messages');
    const verbose = await api('POST', '/compatibility/subjects/s/versions/1?verbose=true', { schema: v2 });
    expect(verbose.body).toEqual({ is_compatible: true, messages: [] });
    const all = await api('POST', '/compatibility/subjects/s/versions?verbose=true', { schema: v2 });
    expect(all.body).toEqual({ is_compatible: true, messages: [] });
  });

  test('a subject without versions is compatible with anything at latest', async () => {
    expect((await api('POST', '/compatibility/subjects/new/versions/latest', { schema: v1 })).body).toEqual({
      is_compatible: true,
    });
  });

  test('refusals: 40402 no such version, 40401 no such subject, 42202 bad version, 42201 bad body', async () => {
    expectError(await api('POST', '/compatibility/subjects/s/versions/2', { schema: v2 }), 404, 40402);
    expectError(await api('POST', '/compatibility/subjects/nope/versions/1', { schema: v2 }), 404, 40401);
    expectError(await api('POST', '/compatibility/subjects/s/versions/first', { schema: v2 }), 422, 42202);
    expectError(await api('POST', '/compatibility/subjects/s/versions/latest', { schema: 1 }), 422, 42201);
  });
});

describe('config', () => {
  test('GET /config is BACKWARD by default; PUT answers {"compatibility"}; DELETE resets and answers the old level', async () => {
    expect((await api('GET', '/config')).body).toEqual({ compatibilityLevel: 'BACKWARD' });
    expect((await api('PUT', '/config', { compatibility: 'FULL' })).body).toEqual({ compatibility: 'FULL' });
    expect((await api('GET', '/config')).body).toEqual({ compatibilityLevel: 'FULL' });
    expect((await api('DELETE', '/config')).body).toEqual({ compatibilityLevel: 'FULL' });
    expect((await api('GET', '/config')).body).toEqual({ compatibilityLevel: 'BACKWARD' });
  });

  test('levels are read in any case and answered upper-case', async () => {
    expect((await api('PUT', '/config', { compatibility: 'forward_transitive' })).body).toEqual({
      compatibility: 'FORWARD_TRANSITIVE',
    });
  });

  test('a subject level: 40408 until set, defaultToGlobal falls back, DELETE answers it (then 40401)', async () => {
    expectError(await api('GET', '/config/s'), 404, 40408);
    expect((await api('GET', '/config/s?defaultToGlobal=true')).body).toEqual({
      compatibilityLevel: 'BACKWARD',
    });
    expect((await api('PUT', '/config/s', { compatibility: 'NONE' })).body).toEqual({
      compatibility: 'NONE',
    });
    expect((await api('GET', '/config/s')).body).toEqual({ compatibilityLevel: 'NONE' });
    expect((await api('GET', '/config')).body).toEqual({ compatibilityLevel: 'BACKWARD' });
    expect((await api('DELETE', '/config/s')).body).toEqual({ compatibilityLevel: 'NONE' });
    expectError(await api('DELETE', '/config/s'), 404, 40401);
  });

  test('an unknown level or a body without one is 42203', async () => {
    expectError(await api('PUT', '/config', { compatibility: 'SIDEWAYS' }), 422, 42203);
    expectError(await api('PUT', '/config/s', { level: 'FULL' }), 422, 42203);
    expectError(await api('PUT', '/config', { compatibility: 5 }), 422, 42203);
    expectError(await api('PUT', '/config', '["FULL"]'), 422, 422);
  });
});

describe('deletes', () => {
  beforeEach(async () => {
    await api('POST', subjectPath('s', '/versions'), { schema: v1 });
    await api('POST', subjectPath('s', '/versions'), { schema: v2 });
  });

  test('a soft-deleted version is hidden, readable with ?deleted=true and by id; twice is 40406', async () => {
    expect((await api('DELETE', subjectPath('s', '/versions/1'))).body).toBe(1);
    expectError(await api('DELETE', subjectPath('s', '/versions/1')), 404, 40406);
    expectError(await api('GET', subjectPath('s', '/versions/1')), 404, 40402);
    expect((await api('GET', subjectPath('s', '/versions'))).body).toEqual([2]);
    expect((await api('GET', subjectPath('s', '/versions?deleted=true'))).body).toEqual([1, 2]);
    expect((await api('GET', subjectPath('s', '/versions/1?deleted=true'))).body).toMatchObject({ id: 1 });
    expect((await api('GET', '/schemas/ids/1')).body).toEqual({ schema: v1 });
    expect((await api('GET', '/schemas/ids/1/versions')).body).toEqual([]);
    expect((await api('GET', '/schemas/ids/1/versions?deleted=true')).body).toEqual([
      { subject: 's', version: 1 },
    ]);
    expectError(await api('POST', subjectPath('s', ''), { schema: v1 }), 404, 40403);
    expect((await api('POST', subjectPath('s', '?deleted=true'), { schema: v1 })).body).toMatchObject({
      version: 1,
    });
  });

  test('DELETE .../versions/latest soft-deletes the newest live version', async () => {
    expect((await api('DELETE', subjectPath('s', '/versions/latest'))).body).toBe(2);
    expect((await api('DELETE', subjectPath('s', '/versions/latest'))).body).toBe(1);
    expectError(await api('DELETE', subjectPath('s', '/versions/latest')), 404, 40401);
  });

  test('a version is purged only after a soft delete (40407); then it is gone, and so is its id', async () => {
    expectError(await api('DELETE', subjectPath('s', '/versions/1?permanent=true')), 404, 40407);
    await api('DELETE', subjectPath('s', '/versions/1'));
    expect((await api('DELETE', subjectPath('s', '/versions/1?permanent=true'))).body).toBe(1);
    expectError(await api('GET', subjectPath('s', '/versions/1?deleted=true')), 404, 40402);
    expectError(await api('GET', '/schemas/ids/1'), 404, 40403);
    expectError(await api('DELETE', subjectPath('s', '/versions/1?permanent=true')), 404, 40402);
    expect((await api('GET', '/schemas/ids/2')).status).toBe(200);
  });

  test('registering a soft-deleted schema again makes a new version with the same id', async () => {
    await api('DELETE', subjectPath('s', '/versions/2'));
    expect((await api('POST', subjectPath('s', '/versions'), { schema: v2 })).body).toEqual({ id: 2 });
    expect((await api('GET', subjectPath('s', '/versions'))).body).toEqual([1, 3]);
  });

  test('DELETE /subjects/{s} soft-deletes every version (twice: 40404); permanent only after (40405)', async () => {
    expectError(await api('DELETE', subjectPath('s', '?permanent=true')), 404, 40405);
    expect((await api('DELETE', subjectPath('s', ''))).body).toEqual([1, 2]);
    expectError(await api('DELETE', subjectPath('s', '')), 404, 40404);
    expect((await api('GET', '/subjects')).body).toEqual([]);
    expect((await api('GET', '/subjects?deleted=true')).body).toEqual(['s']);
    expectError(await api('GET', subjectPath('s', '/versions')), 404, 40401);
    expect((await api('GET', '/schemas/ids/2')).body).toEqual({ schema: v2 });
    expect((await api('DELETE', subjectPath('s', '?permanent=true'))).body).toEqual([1, 2]);
    expect((await api('GET', '/subjects?deleted=true')).body).toEqual([]);
    expectError(await api('GET', '/schemas/ids/2'), 404, 40403);
    expectError(await api('DELETE', subjectPath('s', '')), 404, 40401);
  });

  test('a subject purged and registered again starts at version 1, with a new id', async () => {
    await api('PUT', '/config/s', { compatibility: 'NONE' });
    await api('DELETE', subjectPath('s', ''));
    await api('DELETE', subjectPath('s', '?permanent=true'));
    expectError(await api('GET', '/config/s'), 404, 40408);
    expect((await api('POST', subjectPath('s', '/versions'), { schema: v1 })).body).toEqual({ id: 3 });
    expect((await api('GET', subjectPath('s', '/versions'))).body).toEqual([1]);
  });

  test('40401 for deleting what was never there', async () => {
    expectError(await api('DELETE', subjectPath('nope', '')), 404, 40401);
    expectError(await api('DELETE', subjectPath('nope', '/versions/1')), 404, 40401);
    expectError(await api('DELETE', subjectPath('s', '/versions/7')), 404, 40402);
    expectError(await api('DELETE', subjectPath('s', '/versions/x')), 422, 42202);
  });
});

describe('requests no route reads', () => {
  test('an unknown path is a 404 with a body', async () => {
    for (const path of ['/nope', '/subjects/s/versions/1/extra', '/schemas', '/schemas/ids', '/config/a/b']) {
      expectError(await api('GET', path), 404, 404);
    }
  });

  test('a known path asked with another method is a 405 naming the methods it takes', async () => {
    const reply = await fetch(`${server.url}/config`, { method: 'PATCH' });
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('GET, PUT, DELETE');
    expect(await reply.json()).toMatchObject({ error_code: 405 });
    expectError(await api('POST', '/schemas/types', {}), 405, 405);
    expectError(await api('PATCH', '/subjects'), 405, 405);
    expect(await api('HEAD', '/subjects')).toMatchObject({ status: 200, text: '' });
  });

  test('a trailing slash reads as the same path', async () => {
    expect((await api('GET', '/subjects/')).body).toEqual([]);
  });
});

describe('concurrent registrations over HTTP', () => {
  const variant = (index: number) => userSchema({ name: `extra${index}`, type: 'int', default: index });

  test('20 at once of one schema get one id', async () => {
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => api('POST', subjectPath('s', '/versions'), { schema: v1 })),
    );
    expect(replies.map((reply) => reply.body)).toEqual(Array(20).fill({ id: 1 }));
    expect((await api('GET', subjectPath('s', '/versions'))).body).toEqual([1]);
  });

  test('20 at once of different compatible schemas get versions 1 to 20', async () => {
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        api('POST', subjectPath('s', '/versions'), { schema: variant(index) }),
      ),
    );
    const ids = replies.map((reply) => (reply.body as { id: number }).id);
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    expect((await api('GET', subjectPath('s', '/versions'))).body).toEqual(
      Array.from({ length: 20 }, (_, index) => index + 1),
    );
    for (const [index, id] of ids.entries()) {
      expect((await api('GET', `/schemas/ids/${id}`)).body).toEqual({ schema: variant(index) });
    }
  });
});

describe('closing', () => {
  test('a registration under way when close is called is answered and kept', async () => {
    const inner = memoryStore();
    const slow = {
      load: () => inner.load(),
      append: async (record: RegistryRecord) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        await inner.append(record);
      },
      close: () => inner.close(),
    };
    const closing = await startRegistryServer({ store: slow });
    const pending = call(closing.url, 'POST', subjectPath('s', '/versions'), { schema: v1 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await closing.close();
    expect((await pending).body).toEqual({ id: 1 });
    expect(inner.records).toHaveLength(1);
  });
});
