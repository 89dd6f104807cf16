/**
 * The registry server with Basic auth: no credentials, a wrong password or an unknown user is a
 * 401 (WWW-Authenticate, Confluent's body) before anything else is looked at; each role does what
 * it names and is refused past it with 403 (40301). Proven with clients wirekit did not write
 * (Confluent's Python client, @kafkajs/confluent-schema-registry) and with wirekit's own client
 * and event codec, credentials in the URL or given as an option.
 */
import { execFile } from 'node:child_process';
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eventCodec } from '../../../../src/boundaries/events/event-codec.js';
import type { RegistryUser } from '../../../../src/boundaries/events/registry/basic-auth.js';
import { registryClient } from '../../../../src/boundaries/events/registry/client.js';
import {
  type RegistryServer,
  startRegistryServer,
} from '../../../../src/boundaries/events/registry/server.js';
import { t } from '../../../../src/schema/index.js';
import { has, venvPython } from '../../../support/tools.js';
import { call, subjectPath, userSchema } from './http.js';

const users: RegistryUser[] = [
  { username: 'ops', password: 'correct horse battery staple', role: 'admin' },
  { username: 'orders-service', password: 'pä:ss wörd', role: 'write' },
  { username: 'dashboards', password: 'r3ad', role: 'read' },
];
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
const admin = { authorization: basic('ops', 'correct horse battery staple') };
const writer = { authorization: basic('orders-service', 'pä:ss wörd') };
const reader = { authorization: basic('dashboards', 'r3ad') };

const v1 = userSchema();
const v2 = userSchema({ name: 'age', type: 'int', default: 0 });

let server: RegistryServer;
beforeAll(async () => {
  server = await startRegistryServer({ auth: { users, realm: 'wirekit-test' } });
});
afterAll(async () => {
  await server.close();
});

const api = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  call(server.url, method, path, body, headers);

describe('who is asking', () => {
  test.each([
    ['no credentials', {}],
    ['a wrong password', { authorization: basic('ops', 'wrong') }],
    ['a password that is a prefix of the right one', { authorization: basic('dashboards', 'r3a') }],
    ['an unknown user', { authorization: basic('mallory', 'r3ad') }],
    ['no colon', { authorization: `Basic ${Buffer.from('ops').toString('base64')}` }],
    ['another scheme', { authorization: 'Bearer correct horse battery staple' }],
    ['base64 that is not', { authorization: 'Basic !!!' }],
  ])('%s is 401 with WWW-Authenticate and a Confluent body, on every path', async (_, headers) => {
    for (const [method, path, body] of [
      ['GET', '/subjects', undefined],
      ['GET', '/no/such/path', undefined],
      ['POST', subjectPath('s', '/versions'), { schema: v1 }],
      ['DELETE', subjectPath('s', '?permanent=true'), undefined],
      ['PUT', '/mode', { mode: 'READONLY' }],
    ] as const) {
      const reply = await call(server.url, method, path, body, headers);
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ error_code: 401, message: 'Unauthorized' });
      const response = await fetch(`${server.url}${path}`, { method: 'GET', headers });
      expect(response.headers.get('www-authenticate')).toBe('Basic realm="wirekit-test", charset="UTF-8"');
      await response.arrayBuffer();
    }
    expect((await api('GET', '/subjects', admin)).body).toEqual([]);
  });

  test('the scheme name is case-insensitive, as RFC 7617 has it', async () => {
    const lower = { authorization: reader.authorization.replace('Basic', 'basic') };
    expect((await api('GET', '/schemas/types', lower)).status).toBe(200);
  });
});

describe('what each role may do', () => {
  test('read: reads, lookups and compatibility checks; nothing that writes', async () => {
    expect((await api('POST', subjectPath('roles-read', '/versions'), admin, { schema: v1 })).status).toBe(
      200,
    );
    expect((await api('GET', subjectPath('roles-read', '/versions'), reader)).body).toEqual([1]);
    expect((await api('GET', '/schemas/ids/1', reader)).status).toBe(200);
    expect((await api('POST', subjectPath('roles-read', ''), reader, { schema: v1 })).status).toBe(200);
    const check = `/compatibility${subjectPath('roles-read', '/versions/latest')}`;
    expect((await api('POST', check, reader, { schema: v2 })).body).toEqual({ is_compatible: true });
    for (const [method, path, body] of [
      ['POST', subjectPath('roles-read', '/versions'), { schema: v2 }],
      ['DELETE', subjectPath('roles-read', '/versions/1'), undefined],
      ['PUT', '/config', { compatibility: 'NONE' }],
      ['PUT', '/mode', { mode: 'READONLY' }],
    ] as const) {
      const reply = await api(method, path, reader, body);
      expect({ status: reply.status, body: reply.body }).toMatchObject({
        status: 403,
        body: { error_code: 40301 },
      });
    }
    expect((await api('GET', subjectPath('roles-read', '/versions'), reader)).body).toEqual([1]);
  });

  test('write: registers; deletes, level changes and modes stay with admin', async () => {
    expect((await api('POST', subjectPath('roles-write', '/versions'), writer, { schema: v1 })).body).toEqual(
      {
        id: 1,
      },
    );
    for (const [method, path, body] of [
      ['DELETE', subjectPath('roles-write', '')],
      ['DELETE', subjectPath('roles-write', '/versions/1')],
      ['PUT', '/config/roles-write', { compatibility: 'NONE' }],
      ['DELETE', '/config'],
      ['PUT', '/mode/roles-write', { mode: 'READONLY' }],
    ] as [string, string, unknown?][]) {
      expect((await api(method, path, writer, body)).status).toBe(403);
    }
    // It may pin the level in force (as @kafkajs/confluent-schema-registry does), not change it.
    expect((await api('PUT', '/config/roles-write', writer, { compatibility: 'backward' })).status).toBe(200);
    expect((await api('GET', '/config/roles-write', writer)).body).toEqual({
      compatibilityLevel: 'BACKWARD',
    });
    expect((await api('DELETE', subjectPath('roles-write', ''), admin)).body).toEqual([1]);
    expect((await api('PUT', '/mode/roles-write', admin, { mode: 'READONLY' })).status).toBe(200);
  });

  test('a refusal for the role comes before the body is read or judged', async () => {
    const reply = await api('POST', subjectPath('roles-body', '/versions'), reader, 'not json');
    expect(reply.status).toBe(403);
  });
});

describe("wirekit's client and event codec send the credentials", () => {
  test('user:password in the URL (percent-encoded), and basicAuth as an option', async () => {
    const url = new URL(server.url);
    url.username = encodeURIComponent('orders-service');
    url.password = encodeURIComponent('pä:ss wörd');
    const fromUrl = registryClient({ url: url.href });
    expect(await fromUrl.register('client-url', { schema: v1 })).toBe(1);
    const fromOption = registryClient({
      url: server.url,
      basicAuth: { username: 'orders-service', password: 'pä:ss wörd' },
    });
    expect(await fromOption.register('client-option', { schema: v2 })).toBe(2);

    const anonymous = registryClient({ url: server.url });
    await expect(anonymous.subjects()).rejects.toMatchObject({
      code: 'WK_REGISTRY_AUTH',
      details: { status: 401, attempts: 1 },
    });
    const asReader = registryClient({
      url: server.url,
      basicAuth: { username: 'dashboards', password: 'r3ad' },
    });
    await expect(asReader.register('client-reader', { schema: v1 })).rejects.toMatchObject({
      code: 'WK_REGISTRY_AUTH',
      details: { status: 403, errorCode: 40301 },
    });
  });

  test('the event codec registers with the URL credentials of a writer, and a reader decodes', async () => {
    const Order = t.object('Order', { id: t.string(), qty: t.int32() }, { namespace: 'auth' });
    const url = (user: string, password: string) => {
      const u = new URL(server.url);
      u.username = encodeURIComponent(user);
      u.password = encodeURIComponent(password);
      return u.href;
    };
    const producer = eventCodec({
      schema: Order,
      registry: url('orders-service', 'pä:ss wörd'),
      subject: 'o-value',
    });
    const bytes = await producer.encode({ id: 'o-1', qty: 3 });
    const consumer = eventCodec({ schema: Order, registry: url('dashboards', 'r3ad') });
    expect(await consumer.decode(bytes)).toMatchObject({ value: { id: 'o-1', qty: 3 } });
    const reading = eventCodec({ schema: Order, registry: url('dashboards', 'r3ad'), subject: 'o2-value' });
    await expect(reading.encode({ id: 'o-2', qty: 1 })).rejects.toMatchObject({ code: 'WK_REGISTRY_AUTH' });
    const stranger = eventCodec({ schema: Order, registry: server.url });
    await expect(stranger.decode(bytes)).rejects.toMatchObject({ code: 'WK_REGISTRY_AUTH' });
  });
});

describe('@kafkajs/confluent-schema-registry with auth', () => {
  test('registers and decodes as a writer; is refused without credentials', async () => {
    const schema = JSON.stringify({
      type: 'record',
      name: 'Reading',
      namespace: 'kafkajs',
      fields: [{ name: 'celsius', type: 'double' }],
    });
    const client = new SchemaRegistry({
      host: server.url,
      auth: { username: 'orders-service', password: 'pä:ss wörd' },
    });
    const { id } = await client.register({ type: SchemaType.AVRO, schema }, { subject: 'kafkajs-value' });
    const bytes = await client.encode(id, { celsius: 21.5 });
    const fresh = new SchemaRegistry({
      host: server.url,
      auth: { username: 'dashboards', password: 'r3ad' },
    });
    expect(await fresh.decode(bytes)).toEqual({ celsius: 21.5 });
    const anonymous = new SchemaRegistry({ host: server.url, retry: { retries: 0 } });
    await expect(anonymous.getSchema(id)).rejects.toMatchObject({ status: 401 });
  });
});

const python = has('venv:confluent_kafka');

function runPython(args: readonly string[]): Promise<Record<string, Record<string, unknown>>> {
  const script = new URL('../../../support/peers/confluent_registry_client.py', import.meta.url).pathname;
  return new Promise((resolve, reject) => {
    execFile(venvPython, [script, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

describe.skipIf(!python)("Confluent's Python client with basic.auth.user.info", () => {
  const schema = JSON.stringify({
    type: 'record',
    name: 'Py',
    namespace: 'python',
    fields: [{ name: 'n', type: 'long' }],
  });

  test('a writer registers and reads back, and may not delete; wrong credentials are 401', async () => {
    const asWriter = await runPython([
      JSON.stringify({ url: server.url, 'basic.auth.user.info': 'orders-service:pä:ss wörd' }),
      'python-value',
      schema,
    ]);
    expect(asWriter.register).toEqual({ ok: expect.any(Number) });
    expect(asWriter.schema).toEqual({ ok: schema });
    expect(asWriter.delete).toEqual({ status: 403, error_code: 40301 });

    const wrong = await runPython([
      JSON.stringify({ url: server.url, 'basic.auth.user.info': 'orders-service:nope' }),
      'python-value',
      schema,
    ]);
    expect(wrong.register).toEqual({ status: 401, error_code: 401 });

    const asAdmin = await runPython([
      JSON.stringify({ url: server.url, 'basic.auth.user.info': 'ops:correct horse battery staple' }),
      'python-value',
      schema,
    ]);
    expect(asAdmin.delete).toEqual({ ok: [1] });
  });
});
