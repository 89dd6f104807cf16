/**
 * The registry's mode over Confluent's `/mode` API: READONLY refuses every write with 42205 while
 * reads, lookups and compatibility checks go on, per subject or for the whole registry; mode
 * changes stay allowed; the mode is a record of the log, so it survives a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { registryClient } from '../../../../src/boundaries/events/registry/client.js';
import { fileStore } from '../../../../src/boundaries/events/registry/file-store.js';
import {
  type RegistryServer,
  startRegistryServer,
} from '../../../../src/boundaries/events/registry/server.js';
import { call, subjectPath, userSchema } from './http.js';

const v1 = userSchema();
const v2 = userSchema({ name: 'age', type: 'int', default: 0 });

let server: RegistryServer;
const api = (method: string, path: string, body?: unknown) => call(server.url, method, path, body);

function expectRefused(reply: { status: number; body: unknown }, status: number, errorCode: number): void {
  expect({ status: reply.status, errorCode: (reply.body as { error_code?: unknown }).error_code }).toEqual({
    status,
    errorCode,
  });
}

describe('/mode', () => {
  beforeEach(async () => {
    server = await startRegistryServer();
    await api('POST', subjectPath('orders', '/versions'), { schema: v1 });
  });
  afterEach(async () => {
    await server.close();
  });

  test('READONLY refuses registrations, deletions and level changes with 42205; reads go on', async () => {
    expect((await api('GET', '/mode')).body).toEqual({ mode: 'READWRITE' });
    expect(await api('PUT', '/mode', { mode: 'READONLY' })).toMatchObject({
      status: 200,
      body: { mode: 'READONLY' },
    });
    expect((await api('GET', '/mode')).body).toEqual({ mode: 'READONLY' });

    const writes: [string, string, unknown?][] = [
      ['POST', subjectPath('orders', '/versions'), { schema: v2 }],
      ['POST', subjectPath('new', '/versions'), { schema: v1 }],
      ['DELETE', subjectPath('orders', '/versions/1')],
      ['DELETE', subjectPath('orders', '')],
      ['PUT', '/config', { compatibility: 'NONE' }],
      ['PUT', '/config/orders', { compatibility: 'NONE' }],
      ['DELETE', '/config'],
    ];
    for (const [method, path, body] of writes) {
      const reply = await api(method, path, body);
      expectRefused(reply, 422, 42205);
      expect((reply.body as { message: string }).message).toMatch(/read-only mode/);
    }
    expect((await api('GET', subjectPath('orders', '/versions'))).body).toEqual([1]);
    expect((await api('GET', '/config')).body).toEqual({ compatibilityLevel: 'BACKWARD' });

    // Reads, lookups and compatibility checks are no writes.
    expect((await api('GET', '/schemas/ids/1')).body).toEqual({ schema: v1 });
    expect((await api('POST', subjectPath('orders', ''), { schema: v1 })).body).toMatchObject({ id: 1 });
    const check = await api('POST', `/compatibility${subjectPath('orders', '/versions/latest')}`, {
      schema: v2,
    });
    expect(check.body).toEqual({ is_compatible: true });

    // wirekit's client reads the refusal as its own code.
    const client = registryClient({ url: server.url });
    await expect(client.register('orders', { schema: v2 })).rejects.toMatchObject({
      code: 'WK_REGISTRY_NOT_PERMITTED',
      details: { status: 422, errorCode: 42205 },
    });

    // The mode can always be changed back, and writes go on.
    expect((await api('PUT', '/mode', { mode: 'readwrite' })).body).toEqual({ mode: 'READWRITE' });
    expect((await api('POST', subjectPath('orders', '/versions'), { schema: v2 })).body).toEqual({ id: 2 });
  });

  test("a subject's own mode wins over the registry's, and can be removed", async () => {
    expectRefused(await api('GET', '/mode/orders'), 404, 40409);
    expect((await api('GET', '/mode/orders?defaultToGlobal=true')).body).toEqual({ mode: 'READWRITE' });
    expect((await api('PUT', '/mode/orders', { mode: 'READONLY' })).body).toEqual({ mode: 'READONLY' });
    expect((await api('GET', '/mode/orders')).body).toEqual({ mode: 'READONLY' });

    expectRefused(await api('POST', subjectPath('orders', '/versions'), { schema: v2 }), 422, 42205);
    expectRefused(await api('DELETE', '/config/orders'), 422, 42205);
    // Other subjects and the registry's own settings are not held by it.
    expect((await api('POST', subjectPath('others', '/versions'), { schema: v2 })).status).toBe(200);
    expect((await api('PUT', '/config', { compatibility: 'FULL' })).status).toBe(200);

    // A subject set READWRITE under a READONLY registry takes writes.
    await api('PUT', '/mode', { mode: 'READONLY' });
    await api('PUT', '/mode/orders', { mode: 'READWRITE' });
    expect((await api('POST', subjectPath('orders', '/versions'), { schema: v2 })).status).toBe(200);
    expectRefused(await api('POST', subjectPath('others', '/versions'), { schema: v1 }), 422, 42205);

    expect((await api('DELETE', '/mode/orders')).body).toEqual({ mode: 'READWRITE' });
    expectRefused(await api('DELETE', '/mode/orders'), 404, 40401);
    expectRefused(await api('POST', subjectPath('orders', '/versions'), { schema: v1 }), 422, 42205);
  });

  test('a mode this registry does not hold is 42204: IMPORT, unknown words, no mode at all', async () => {
    for (const body of [{ mode: 'IMPORT' }, { mode: 'SIDEWAYS' }, { mode: 3 }, {}]) {
      expectRefused(await api('PUT', '/mode', body), 422, 42204);
      expectRefused(await api('PUT', '/mode/orders', body), 422, 42204);
    }
    expect((await api('GET', '/mode')).body).toEqual({ mode: 'READWRITE' });
  });
});

describe('the mode is kept in the log', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wirekit-registry-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('a registry restarted on its file is still READONLY where it was', async () => {
    const path = join(dir, 'schemas.log');
    server = await startRegistryServer({ store: fileStore(path) });
    await api('PUT', '/mode', { mode: 'READONLY' });
    await api('PUT', '/mode/open', { mode: 'READWRITE' });
    await server.close();

    server = await startRegistryServer({ store: fileStore(path) });
    try {
      expect((await api('GET', '/mode')).body).toEqual({ mode: 'READONLY' });
      expectRefused(await api('POST', subjectPath('closed', '/versions'), { schema: v1 }), 422, 42205);
      expect((await api('POST', subjectPath('open', '/versions'), { schema: v1 })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
