/**
 * registryClient over real HTTP, against a peer that answers as Confluent's registry documents
 * (confluent-peer.ts): what the client sends (paths, escapes, bodies, headers, credentials), what
 * it makes of each answer, and every way an answer can go wrong — error bodies and their codes,
 * 5xx and dropped connections (retried), timeouts on headers and on bodies, oversized and
 * malformed bodies (not retried), a closed port. Cache and dedupe are counted at the server.
 */
import { createServer } from 'node:net';
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { SchemaDefinition } from '../../../../src/boundaries/events/registry/api.js';
import {
  RegistryClientError,
  type RegistryClientOptions,
  registryClient,
} from '../../../../src/boundaries/events/registry/client.js';
import { startRegistryServer } from '../../../../src/boundaries/events/registry/server.js';
import { isWirekitError } from '../../../../src/errors/index.js';
import { type ConfluentPeer, send, startConfluentPeer } from './confluent-peer.js';

const avro = (name: string): SchemaDefinition => ({
  schema: JSON.stringify({ type: 'record', name, fields: [{ name: 'id', type: 'long' }] }),
});
const proto: SchemaDefinition = {
  schemaType: 'PROTOBUF',
  schema: 'syntax = "proto3";\nmessage M { int64 id = 1; }\n',
};

let peer: ConfluentPeer;
beforeAll(async () => {
  peer = await startConfluentPeer();
});
afterAll(() => peer.close());
afterEach(() => {
  peer.override = undefined;
  peer.seen.length = 0;
});

/** A client of the peer with quick retries, so failure paths take milliseconds. */
const client = (options: Partial<RegistryClientOptions> = {}) =>
  registryClient({ url: peer.url, retryDelayMs: 5, ...options });

/** The RegistryClientError a promise rejects with (fails the test if it resolves or throws another). */
async function failure(promise: Promise<unknown>): Promise<RegistryClientError> {
  const error = await promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(RegistryClientError);
  return error as RegistryClientError;
}

describe('requests as Confluent documents them', () => {
  test('register posts the schema to /subjects/S/versions with the registry media type, and returns the id', async () => {
    const c = client();
    const id = await c.register('orders-value', avro('Order'));
    expect(id).toBe(1);
    const [request] = peer.seen;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/subjects/orders-value/versions');
    expect(request?.headers['content-type']).toBe('application/vnd.schemaregistry.v1+json');
    expect(request?.headers.accept).toBe('application/vnd.schemaregistry.v1+json, application/json');
    // AVRO is the default and is not named; no references, no key for them.
    expect(JSON.parse(request?.body ?? '')).toEqual({ schema: avro('Order').schema });
  });

  test('Protobuf names its schemaType; references are sent as name, subject, version', async () => {
    const c = client();
    const withRef: SchemaDefinition = {
      ...proto,
      references: [{ name: 'common.proto', subject: 'common', version: 2 }],
    };
    await c.register('refs-value', withRef);
    expect(JSON.parse(peer.seen[0]?.body ?? '')).toEqual({
      schema: proto.schema,
      schemaType: 'PROTOBUF',
      references: [{ name: 'common.proto', subject: 'common', version: 2 }],
    });
    const id = await c.register('refs-value', withRef);
    const fetched = await c.schemaById(id);
    expect(fetched).toEqual(withRef);
  });

  test('subjects are percent-encoded into one path segment', async () => {
    const c = client();
    const subject = 'a/b c?d%e#f.ü';
    await c.register(subject, avro('Odd'));
    expect(peer.seen[0]?.url).toBe(`/subjects/${encodeURIComponent(subject)}/versions`);
    expect(await c.subjects()).toContain(subject);
    expect(await c.versions(subject)).toEqual([1]);
    expect((await c.version(subject, 'latest')).subject).toBe(subject);
  });

  test('lookup, version, versions, subjects and subjectVersionsById read their documented bodies', async () => {
    const c = client();
    const id1 = await c.register('users-value', avro('User'));
    const id2 = await c.register('users-value', avro('UserV2'));
    await c.register('users-copy', avro('User'));
    expect(await c.lookup('users-value', avro('User'))).toEqual({
      subject: 'users-value',
      version: 1,
      id: id1,
      schemaType: 'AVRO',
      schema: avro('User').schema,
    });
    expect(await c.version('users-value', 2)).toMatchObject({ version: 2, id: id2 });
    expect(await c.version('users-value', 'latest')).toMatchObject({ version: 2, id: id2 });
    expect(await c.versions('users-value')).toEqual([1, 2]);
    expect(await c.subjects()).toEqual(expect.arrayContaining(['users-value', 'users-copy']));
    expect(await c.subjectVersionsById(id1)).toEqual([
      { subject: 'users-value', version: 1 },
      { subject: 'users-copy', version: 1 },
    ]);
    expect(peer.seen.map((r) => `${r.method} ${r.url}`)).toContain(
      'GET /subjects/users-value/versions/latest',
    );
    expect(peer.seen.map((r) => `${r.method} ${r.url}`)).toContain(`GET /schemas/ids/${id1}/versions`);
  });

  test('testCompatibility asks verbosely and returns the messages; a subject with no versions accepts anything', async () => {
    const c = client();
    await c.register('compat-value', avro('C'));
    expect(await c.testCompatibility('compat-value', avro('C2'))).toEqual({ compatible: true, messages: [] });
    expect(peer.seen.at(-1)?.url).toBe('/compatibility/subjects/compat-value/versions/latest?verbose=true');
    const no = await c.testCompatibility('compat-value', { schema: '"INCOMPATIBLE"' }, 1);
    expect(no).toEqual({ compatible: false, messages: ['READER_FIELD_MISSING_DEFAULT_VALUE at /fields/1'] });
    expect(peer.seen.at(-1)?.url).toBe('/compatibility/subjects/compat-value/versions/1?verbose=true');
    expect(await c.testCompatibility('never-registered', avro('N'))).toEqual({
      compatible: true,
      messages: [],
    });
    // Against a version named outright, a missing subject stays an error.
    expect((await failure(c.testCompatibility('never-registered', avro('N'), 1))).code).toBe(
      'WK_REGISTRY_NOT_FOUND',
    );
  });

  test('compatibility levels: global from /config, a subject with defaultToGlobal; set with PUT', async () => {
    const c = client();
    expect(await c.compatibility()).toBe('BACKWARD');
    expect(await c.compatibility('levels-value')).toBe('BACKWARD');
    expect(peer.seen.at(-1)?.url).toBe('/config/levels-value?defaultToGlobal=true');
    await c.setCompatibility('FULL_TRANSITIVE', 'levels-value');
    expect(peer.seen.at(-1)).toMatchObject({ method: 'PUT', url: '/config/levels-value' });
    expect(JSON.parse(peer.seen.at(-1)?.body ?? '')).toEqual({ compatibility: 'FULL_TRANSITIVE' });
    expect(await c.compatibility('levels-value')).toBe('FULL_TRANSITIVE');
    await c.setCompatibility('NONE');
    expect(await c.compatibility()).toBe('NONE');
    await c.setCompatibility('BACKWARD');
  });

  test('arguments the registry could only refuse are refused before any request', async () => {
    const c = client();
    const local = [
      c.version('s', 0),
      c.version('s', 1.5),
      c.version('s', 'newest' as 'latest'),
      c.schemaById(-1),
      c.schemaById(2 ** 32),
      c.register('', avro('E')),
      c.register('s', { schema: 'x', schemaType: 'JSON' as 'AVRO' }),
      c.setCompatibility('SIDEWAYS' as 'NONE'),
    ];
    for (const promise of local) expect((await failure(promise)).code).toBe('WK_REGISTRY_REQUEST');
    expect(peer.seen).toEqual([]);
  });
});

describe('credentials and the base URL', () => {
  test('user:pass in the URL becomes a Basic Authorization header and leaves the URL', async () => {
    const url = new URL(peer.url);
    url.username = 'app%40team';
    url.password = 'p%3As%20s';
    const c = registryClient({ url: url.href });
    expect(c.url).toBe(peer.url);
    await c.subjects();
    const expected = `Basic ${Buffer.from('app@team:p:s s').toString('base64')}`;
    expect(peer.seen[0]?.headers.authorization).toBe(expected);
  });

  test('headers are sent, and an Authorization among them wins over URL credentials', async () => {
    const url = new URL(peer.url);
    url.username = 'u';
    url.password = 'p';
    const c = registryClient({ url: url.href, headers: { Authorization: 'Bearer t0k', 'X-Tenant': 'blue' } });
    await c.subjects();
    expect(peer.seen[0]?.headers).toMatchObject({ authorization: 'Bearer t0k', 'x-tenant': 'blue' });
  });

  test('basicAuth sends the credentials without a URL holding them, and wins over URL credentials', async () => {
    const url = new URL(peer.url);
    url.username = 'old';
    url.password = 'old';
    const c = registryClient({ url: url.href, basicAuth: { username: 'app', password: 'pä:ss' } });
    await c.subjects();
    const expected = `Basic ${Buffer.from('app:pä:ss').toString('base64')}`;
    expect(peer.seen[0]?.headers.authorization).toBe(expected);
    const colon = () => registryClient({ url: peer.url, basicAuth: { username: 'a:b', password: 'p' } });
    expect(colon).toThrow(expect.objectContaining({ code: 'WK_OPTIONS_INVALID' }));
  });

  test('a path prefix is kept and a trailing slash dropped', async () => {
    const c = registryClient({ url: `${peer.url}/registry/` });
    expect(c.url).toBe(`${peer.url}/registry`);
    await failure(c.schemaById(1));
    expect(peer.seen[0]?.url).toBe('/registry/schemas/ids/1');
  });

  test.each([['not a url'], ['ftp://host/registry'], ['http://host/registry?x=1']])(
    '%s is refused at construction',
    (url) => {
      expect(() => registryClient({ url })).toThrow(expect.objectContaining({ code: 'WK_REGISTRY_REQUEST' }));
    },
  );

  test('options out of range are refused at construction', () => {
    for (const bad of [
      { timeoutMs: 0 },
      { retries: -1 },
      { cacheSize: 1.5 },
      { maxResponseBytes: Number.NaN },
    ]) {
      expect(() => registryClient({ url: peer.url, ...bad })).toThrow(
        expect.objectContaining({ code: 'WK_REGISTRY_REQUEST' }),
      );
    }
  });
});

describe('caching and shared requests', () => {
  test('100 concurrent calls for one uncached id make one request; later calls none', async () => {
    const id = await client().register('dedupe-value', avro('Dedupe'));
    peer.seen.length = 0;
    // Slow answers, so that every call arrives while the first is under way.
    peer.override = async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return false;
    };
    const c = client();
    const all = await Promise.all(Array.from({ length: 100 }, () => c.schemaById(id)));
    expect(new Set(all).size).toBe(1);
    expect(all[0]).toEqual({ schemaType: 'AVRO', schema: avro('Dedupe').schema });
    expect(peer.count(`GET /schemas/ids/${id}`)).toBe(1);
    await c.schemaById(id);
    expect(peer.count(`GET /schemas/ids/${id}`)).toBe(1);
  });

  test('register and lookup are cached per subject, type and schema text; concurrent registrations share one', async () => {
    const c = client();
    const ids = await Promise.all(
      Array.from({ length: 20 }, () => c.register('cache-value', avro('Cached'))),
    );
    expect(new Set(ids).size).toBe(1);
    expect(peer.count('POST /subjects/cache-value/versions')).toBe(1);
    await c.register('cache-value', avro('Cached'));
    expect(peer.count('POST /subjects/cache-value/versions')).toBe(1);
    // Another subject, another text, another type: each is its own request.
    await c.register('cache-other', avro('Cached'));
    await c.register('cache-value', avro('Cached2'));
    await c.register('cache-value', { ...proto });
    expect(peer.count('POST /subjects/cache-value/versions')).toBe(3);
    expect(peer.count('POST /subjects/cache-other/versions')).toBe(1);
    await c.lookup('cache-value', avro('Cached'));
    await c.lookup('cache-value', avro('Cached'));
    expect(peer.count('POST /subjects/cache-value')).toBe(1);
  });

  test('failures are not cached: the next call asks again and can succeed', async () => {
    const c = client({ retries: 0 });
    let down = true;
    peer.override = (request, res) =>
      down && request.url.startsWith('/schemas/ids/') ? send(res, 503, {}) : false;
    const id = await c.register('flaky-value', avro('Flaky'));
    expect((await failure(c.schemaById(id))).code).toBe('WK_REGISTRY_UNAVAILABLE');
    down = false;
    expect(await c.schemaById(id)).toMatchObject({ schema: avro('Flaky').schema });
    expect(peer.count(`GET /schemas/ids/${id}`)).toBe(2);
    // Not found is not remembered either (the id may be registered a moment later).
    expect((await failure(c.schemaById(9999))).code).toBe('WK_REGISTRY_NOT_FOUND');
    expect((await failure(c.schemaById(9999))).code).toBe('WK_REGISTRY_NOT_FOUND');
    expect(peer.count('GET /schemas/ids/9999')).toBe(2);
  });

  test('the id cache holds cacheSize schemas, the oldest leaving first', async () => {
    const writer = client();
    const [a, b, c] = [
      await writer.register('lru-a', avro('LruA')),
      await writer.register('lru-b', avro('LruB')),
      await writer.register('lru-c', avro('LruC')),
    ];
    peer.seen.length = 0;
    const reader = client({ cacheSize: 2 });
    for (const id of [a, b, c, c, b]) await reader.schemaById(id);
    expect([
      peer.count(`GET /schemas/ids/${a}`),
      peer.count(`GET /schemas/ids/${b}`),
      peer.count(`GET /schemas/ids/${c}`),
    ]).toEqual([1, 1, 1]);
    await reader.schemaById(a);
    expect(peer.count(`GET /schemas/ids/${a}`)).toBe(2);
    const none = client({ cacheSize: 0 });
    await none.schemaById(a);
    await none.schemaById(a);
    expect(peer.count(`GET /schemas/ids/${a}`)).toBe(4);
  });
});

describe('error bodies become codes, with status and error_code in details', () => {
  test.each([
    [404, 40401, 'WK_REGISTRY_NOT_FOUND'],
    [404, 40402, 'WK_REGISTRY_NOT_FOUND'],
    [404, 40403, 'WK_REGISTRY_NOT_FOUND'],
    [409, 409, 'WK_REGISTRY_INCOMPATIBLE'],
    [422, 42201, 'WK_REGISTRY_SCHEMA_INVALID'],
    [422, 42202, 'WK_REGISTRY_REQUEST'],
    [422, 42203, 'WK_REGISTRY_REQUEST'],
    [401, 401, 'WK_REGISTRY_AUTH'],
    [403, 40301, 'WK_REGISTRY_AUTH'],
    [422, 42205, 'WK_REGISTRY_NOT_PERMITTED'],
    [429, 42901, 'WK_REGISTRY_REQUEST'],
  ])('%i with error_code %i is %s, asked once', async (status, errorCode, code) => {
    peer.override = (_request, res) =>
      send(res, status, { error_code: errorCode, message: `said ${errorCode}` });
    const error = await failure(client().register('errors-value', avro('E')));
    expect(error.code).toBe(code);
    expect(error.details).toEqual({
      method: 'POST',
      path: '/subjects/errors-value/versions',
      status,
      errorCode,
      attempts: 1,
    });
    expect(error.message).toContain(`said ${errorCode}`);
    expect(peer.seen).toHaveLength(1);
  });

  test("the peer's own refusals: a missing subject on lookup, an invalid and an incompatible schema", async () => {
    const c = client();
    expect((await failure(c.lookup('nobody-value', avro('X')))).details.errorCode).toBe(40401);
    await c.register('known-value', avro('Known'));
    const missing = await failure(c.lookup('known-value', avro('Unknown')));
    expect([missing.code, missing.details.errorCode]).toEqual(['WK_REGISTRY_NOT_FOUND', 40403]);
    expect((await failure(c.register('known-value', { schema: '"INVALID"' }))).code).toBe(
      'WK_REGISTRY_SCHEMA_INVALID',
    );
    expect((await failure(c.register('known-value', { schema: '"INCOMPATIBLE"' }))).code).toBe(
      'WK_REGISTRY_INCOMPATIBLE',
    );
  });

  test('a 4xx without a Confluent body (a proxy page) is WK_REGISTRY_REQUEST with the status alone', async () => {
    peer.override = (_request, res) => {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end('<html><body><h1>Not Found</h1></body></html>');
      return true;
    };
    const error = await failure(client().schemaById(1));
    expect(error.code).toBe('WK_REGISTRY_REQUEST');
    expect(error.details).toEqual({ method: 'GET', path: '/schemas/ids/1', status: 404, attempts: 1 });
    expect(error.message).toContain('Not Found');
  });

  test("a hostile server message is cut short in the error's message", async () => {
    peer.override = (_request, res) => send(res, 422, { error_code: 42201, message: 'x'.repeat(100_000) });
    const error = await failure(client().register('long-value', avro('L')));
    expect(error.message.length).toBeLessThan(1000);
  });
});

describe('retries: connection failures and 5xx, with backoff; 4xx never', () => {
  test('5xx is retried `retries` times, then WK_REGISTRY_UNAVAILABLE with the last status', async () => {
    peer.override = (_request, res) =>
      send(res, 500, { error_code: 50001, message: 'Error in the backend data store' });
    const error = await failure(client({ retries: 2 }).schemaById(1));
    expect(error.code).toBe('WK_REGISTRY_UNAVAILABLE');
    expect(error.details).toMatchObject({ status: 500, errorCode: 50001, attempts: 3 });
    expect(peer.count('GET /schemas/ids/1')).toBe(3);
  });

  test('a 503 then a good answer succeeds on the retry, after the backoff', async () => {
    const id = await client().register('retry-value', avro('Retry'));
    let failures = 2;
    peer.override = (_request, res) => (failures-- > 0 ? send(res, 503, {}) : false);
    const started = Date.now();
    expect(await client({ retryDelayMs: 40 }).schemaById(id)).toMatchObject({ schema: avro('Retry').schema });
    // 40 ms, then 80 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    expect(peer.count(`GET /schemas/ids/${id}`)).toBe(3);
  });

  test('a connection dropped before any answer is retried', async () => {
    const id = await client().register('drop-value', avro('Drop'));
    let drops = 2;
    peer.override = (_request, res) => {
      if (drops-- <= 0) return false;
      res.socket?.destroy();
      return true;
    };
    expect(await client().schemaById(id)).toMatchObject({ schema: avro('Drop').schema });
    expect(peer.count(`GET /schemas/ids/${id}`)).toBe(3);
  });

  test('a connection dropped in the middle of the body is retried, and fails as unavailable when it keeps dropping', async () => {
    peer.override = (_request, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      res.write('{"schema": "');
      setTimeout(() => res.socket?.destroy(), 10);
      return true;
    };
    const error = await failure(client({ retries: 1 }).schemaById(1));
    expect(error.code).toBe('WK_REGISTRY_UNAVAILABLE');
    expect(error.details.attempts).toBe(2);
    expect(error.cause).toBeDefined();
  });

  test('nothing listening: WK_REGISTRY_UNAVAILABLE with the connection error as cause, after the retries', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const error = await failure(
      registryClient({ url: `http://127.0.0.1:${port}`, retries: 1, retryDelayMs: 1 }).subjects(),
    );
    expect(error.code).toBe('WK_REGISTRY_UNAVAILABLE');
    expect(error.details).toEqual({ method: 'GET', path: '/subjects', attempts: 2 });
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.cause).toBeInstanceOf(Error);
  });
});

describe('timeouts and limits', () => {
  test('no answer within timeoutMs is WK_REGISTRY_UNAVAILABLE, each attempt timed on its own', async () => {
    peer.override = () => true; // never answers
    const started = Date.now();
    const error = await failure(client({ timeoutMs: 150, retries: 1 }).schemaById(1));
    expect(error.code).toBe('WK_REGISTRY_UNAVAILABLE');
    expect(error.message).toContain('150 ms');
    expect(error.details.attempts).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('headers in time but a body that stalls times out too', async () => {
    peer.override = (_request, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"schema": ');
      return true;
    };
    const error = await failure(client({ timeoutMs: 150, retries: 0 }).schemaById(1));
    expect(error.code).toBe('WK_REGISTRY_UNAVAILABLE');
    expect(error.message).toContain('150 ms');
  });

  test('a slow answer within the deadline is read', async () => {
    const id = await client().register('slow-value', avro('Slow'));
    peer.override = async (_request, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const body = JSON.stringify({ schema: avro('Slow').schema });
      for (const part of [body.slice(0, 10), body.slice(10, 20), body.slice(20)]) {
        res.write(part);
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
      res.end();
      return true;
    };
    expect(await client({ timeoutMs: 2000 }).schemaById(id)).toMatchObject({ schema: avro('Slow').schema });
  });

  test('a declared Content-Length past maxResponseBytes is refused unread, and not retried', async () => {
    peer.override = (_request, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(10 * 1024 * 1024) });
      res.write('{"schema":"');
      return true;
    };
    const error = await failure(client({ maxResponseBytes: 1024 }).schemaById(1));
    expect(error.code).toBe('WK_REGISTRY_UNAVAILABLE');
    expect(error.message).toContain('maxResponseBytes');
    expect(peer.seen).toHaveLength(1);
  });

  test('a chunked body that grows past maxResponseBytes is cut off there', async () => {
    let written = 0;
    peer.override = (_request, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"schema":"');
      const chunk = 'a'.repeat(64 * 1024);
      const pump = () => {
        // Stops when the client goes away; without the limit this would run for 64 MiB.
        while (written < 64 * 1024 * 1024 && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return res.once('drain', pump);
        }
        res.end();
      };
      pump();
      res.on('close', () => undefined);
      return true;
    };
    const error = await failure(client({ maxResponseBytes: 256 * 1024 }).schemaById(1));
    expect(error.code).toBe('WK_REGISTRY_UNAVAILABLE');
    expect(error.message).toContain('maxResponseBytes');
    expect(peer.seen).toHaveLength(1);
    expect(written).toBeLessThan(32 * 1024 * 1024);
  });
});

describe('answers of the wrong shape are typed errors, not crashes', () => {
  const cases: [string, (c: ReturnType<typeof client>) => Promise<unknown>, unknown][] = [
    ['register with a string id', (c) => c.register('shape', avro('S')), { id: 'x' }],
    ['register with a fractional id', (c) => c.register('shape', avro('S')), { id: 1.5 }],
    ['register with a negative id', (c) => c.register('shape', avro('S')), { id: -3 }],
    ['schemaById without schema', (c) => c.schemaById(1), { id: 1 }],
    ['schemaById with a numeric schemaType', (c) => c.schemaById(1), { schema: '"int"', schemaType: 7 }],
    [
      'schemaById with bad references',
      (c) => c.schemaById(1),
      { schema: '"int"', references: [{ name: 1 }] },
    ],
    [
      'lookup without a version',
      (c) => c.lookup('shape', avro('S')),
      { subject: 'shape', id: 1, schema: 's' },
    ],
    ['version as an array', (c) => c.version('shape', 1), [1, 2]],
    ['subjects with a number', (c) => c.subjects(), ['a', 2]],
    ['versions with zero', (c) => c.versions('shape'), [0, 1]],
    ['subjectVersionsById with a missing version', (c) => c.subjectVersionsById(1), [{ subject: 'a' }]],
    ['compatibility as a string', (c) => c.testCompatibility('shape', avro('S')), 'true'],
    [
      'compatibility with messages not strings',
      (c) => c.testCompatibility('shape', avro('S')),
      { is_compatible: false, messages: [1] },
    ],
    ['config with an unknown level', (c) => c.compatibility(), { compatibilityLevel: 'SIDEWAYS' }],
    ['null', (c) => c.schemaById(1), null],
  ];
  test.each(cases)('%s', async (_name, call, body) => {
    peer.override = (_request, res) => send(res, 200, body);
    const error = await failure(call(client()));
    expect(error.code).toBe('WK_REGISTRY_UNAVAILABLE');
    expect(error.details.status).toBe(200);
    expect(peer.seen).toHaveLength(1);
  });

  test('HTML with status 200 (not a registry at that URL) is WK_REGISTRY_UNAVAILABLE naming it', async () => {
    peer.override = (_request, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>Welcome to nginx!</title>');
      return true;
    };
    const error = await failure(client().schemaById(1));
    expect(error.code).toBe('WK_REGISTRY_UNAVAILABLE');
    expect(error.message).toContain('nginx');
    expect(peer.seen).toHaveLength(1);
  });

  test('a schema type wirekit does not read (JSON Schema) is WK_REGISTRY_SCHEMA_INVALID', async () => {
    peer.override = (_request, res) => send(res, 200, { schema: '{"type":"object"}', schemaType: 'JSON' });
    expect((await failure(client().schemaById(1))).code).toBe('WK_REGISTRY_SCHEMA_INVALID');
  });

  test('fuzz: any JSON answer to any call is a value of the right shape or a WirekitError', async () => {
    const calls: ((c: ReturnType<typeof client>) => Promise<unknown>)[] = [
      (c) => c.register('fuzz', avro('F')),
      (c) => c.lookup('fuzz', avro('F')),
      (c) => c.schemaById(1),
      (c) => c.version('fuzz', 'latest'),
      (c) => c.subjects(),
      (c) => c.versions('fuzz'),
      (c) => c.testCompatibility('fuzz', avro('F')),
      (c) => c.compatibility('fuzz'),
      (c) => c.subjectVersionsById(1),
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: calls.length - 1 }),
        fc.oneof(
          fc.jsonValue(),
          fc.record({
            id: fc.jsonValue(),
            schema: fc.jsonValue(),
            subject: fc.jsonValue(),
            version: fc.jsonValue(),
          }),
        ),
        fc.constantFrom(200, 201, 400, 404, 409, 422, 500),
        async (which, body, status) => {
          peer.override = (_request, res) => send(res, status, body);
          try {
            await (calls[which] as (c: ReturnType<typeof client>) => Promise<unknown>)(
              client({ retries: 0 }),
            );
          } catch (error) {
            if (!isWirekitError(error)) throw error;
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** The two servers the shared tests run against: the peer above, and wirekit's own registry server. */
const servers: [string, () => Promise<{ url: string; close(): Promise<void> }>][] = [
  ['the Confluent peer', startConfluentPeer],
  ["wirekit's registry server", () => startRegistryServer()],
];

describe.each(servers)('against %s', (_name, start) => {
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await start();
  });
  afterAll(() => server.close());

  const order = (fields: object[] = []) =>
    JSON.stringify({
      type: 'record',
      name: 'Order',
      namespace: 'shop',
      fields: [{ name: 'id', type: 'long' }, ...fields],
    });

  test('register, lookup, schemaById, version, versions, subjects, subjectVersionsById', async () => {
    const c = registryClient({ url: server.url });
    const id = await c.register('orders-value', { schema: order() });
    const id2 = await c.register('orders-value', {
      schema: order([{ name: 'note', type: 'string', default: '' }]),
    });
    expect(id2).not.toBe(id);
    expect(await c.register('orders-value', { schema: order() })).toBe(id);
    expect(await c.lookup('orders-value', { schema: order() })).toMatchObject({
      subject: 'orders-value',
      version: 1,
      id,
    });
    expect(await c.schemaById(id)).toMatchObject({ schemaType: 'AVRO' });
    expect(JSON.parse((await c.schemaById(id)).schema)).toEqual(JSON.parse(order()));
    expect(await c.version('orders-value', 'latest')).toMatchObject({ version: 2, id: id2 });
    expect(await c.versions('orders-value')).toEqual([1, 2]);
    expect(await c.subjects()).toContain('orders-value');
    expect(await c.subjectVersionsById(id2)).toEqual([{ subject: 'orders-value', version: 2 }]);
  });

  test('not found: an unknown id, subject, version', async () => {
    const c = registryClient({ url: server.url, retries: 0 });
    for (const [promise, errorCode] of [
      [c.schemaById(424_242), 40403],
      [c.versions('nobody-value'), 40401],
      [c.version('nobody-value', 1), 40401],
    ] as const) {
      const error = await failure(promise);
      expect([error.code, error.details.errorCode]).toEqual(['WK_REGISTRY_NOT_FOUND', errorCode]);
    }
    await c.register('one-version', { schema: order() });
    expect((await failure(c.version('one-version', 7))).details.errorCode).toBe(40402);
  });

  test('Protobuf and a subject with characters that need escaping', async () => {
    const c = registryClient({ url: server.url });
    const subject = 'team/a orders?-value';
    const id = await c.register(subject, proto);
    expect(await c.schemaById(id)).toMatchObject({ schemaType: 'PROTOBUF' });
    expect(await c.lookup(subject, proto)).toMatchObject({ subject, id });
  });

  test('interop: what @kafkajs/confluent-schema-registry registers, the client finds under the same id, and back', async () => {
    const theirs = new SchemaRegistry({ host: server.url });
    const click = JSON.stringify({
      type: 'record',
      name: 'Click',
      fields: [{ name: 'url', type: 'string' }],
    });
    const { id } = await theirs.register(
      { type: SchemaType.AVRO, schema: click },
      { subject: 'clicks-value' },
    );
    const ours = registryClient({ url: server.url });
    expect(await ours.lookup('clicks-value', { schema: click })).toMatchObject({ id, version: 1 });
    expect(await ours.register('clicks-value', { schema: click })).toBe(id);
    const view = JSON.stringify({ type: 'record', name: 'View', fields: [{ name: 'page', type: 'string' }] });
    const viewId = await ours.register('views-value', { schema: view });
    expect(await theirs.getLatestSchemaId('views-value')).toBe(viewId);
    expect(await theirs.getRegistryIdBySchema('views-value', { type: SchemaType.AVRO, schema: view })).toBe(
      viewId,
    );
    // Their frame names the id ours resolves to the same schema.
    const frame = await theirs.encode(viewId, { page: '/home' });
    expect(frame.readUInt32BE(1)).toBe(viewId);
    expect(JSON.parse((await ours.schemaById(frame.readUInt32BE(1))).schema)).toEqual(JSON.parse(view));
    expect(await theirs.decode(frame)).toEqual({ page: '/home' });
  });

  test('interop with Protobuf: their registration is ours to read', async () => {
    const theirs = new SchemaRegistry({ host: server.url });
    const text = 'syntax = "proto3";\npackage ev;\nmessage Ping { string from = 1; }\n';
    const { id } = await theirs.register(
      { type: SchemaType.PROTOBUF, schema: text },
      { subject: 'pings-value' },
    );
    const ours = registryClient({ url: server.url });
    expect(await ours.schemaById(id)).toMatchObject({ schemaType: 'PROTOBUF' });
    expect(await ours.lookup('pings-value', { schemaType: 'PROTOBUF', schema: text })).toMatchObject({ id });
  });
});

describe("wirekit's registry server: its compatibility rules and refusals, through the client", () => {
  let server: Awaited<ReturnType<typeof startRegistryServer>>;
  beforeAll(async () => {
    server = await startRegistryServer();
  });
  afterAll(() => server.close());

  const v1 = JSON.stringify({ type: 'record', name: 'Event', fields: [{ name: 'id', type: 'long' }] });
  const withDefault = JSON.stringify({
    type: 'record',
    name: 'Event',
    fields: [
      { name: 'id', type: 'long' },
      { name: 'source', type: 'string', default: 'web' },
    ],
  });
  const withoutDefault = JSON.stringify({
    type: 'record',
    name: 'Event',
    fields: [
      { name: 'id', type: 'long' },
      { name: 'source', type: 'string' },
    ],
  });

  test('BACKWARD: a field added with a default registers; without one it is 409 and testCompatibility says why', async () => {
    const c = registryClient({ url: server.url, retries: 0 });
    await c.register('events-value', { schema: v1 });
    expect(await c.testCompatibility('events-value', { schema: withDefault })).toEqual({
      compatible: true,
      messages: [],
    });
    const verdict = await c.testCompatibility('events-value', { schema: withoutDefault });
    expect(verdict.compatible).toBe(false);
    expect(verdict.messages.join('\n')).toMatch(/source/);
    const refused = await failure(c.register('events-value', { schema: withoutDefault }));
    expect([refused.code, refused.details.status]).toEqual(['WK_REGISTRY_INCOMPATIBLE', 409]);
    expect(await c.register('events-value', { schema: withDefault })).toBeGreaterThan(0);
    expect(await c.versions('events-value')).toEqual([1, 2]);
  });

  test('levels: set per subject, read back; NONE lets the breaking change in', async () => {
    const c = registryClient({ url: server.url, retries: 0 });
    await c.register('loose-value', { schema: v1 });
    expect(await c.compatibility('loose-value')).toBe('BACKWARD');
    await c.setCompatibility('NONE', 'loose-value');
    expect(await c.compatibility('loose-value')).toBe('NONE');
    expect(await c.compatibility()).toBe('BACKWARD');
    expect(await c.register('loose-value', { schema: withoutDefault })).toBeGreaterThan(0);
  });

  test('an invalid schema is WK_REGISTRY_SCHEMA_INVALID (42201); a JSON Schema too', async () => {
    const c = registryClient({ url: server.url, retries: 0 });
    const invalid = await failure(c.register('bad-value', { schema: '{"type":"record","name":"X"}' }));
    expect([invalid.code, invalid.details.errorCode]).toEqual(['WK_REGISTRY_SCHEMA_INVALID', 42201]);
    const badProto = await failure(c.register('bad-value', { schemaType: 'PROTOBUF', schema: 'message {' }));
    expect(badProto.code).toBe('WK_REGISTRY_SCHEMA_INVALID');
  });
});
