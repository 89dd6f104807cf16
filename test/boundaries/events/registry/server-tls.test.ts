/**
 * The registry server over TLS, with a certificate authority made for the test (openssl): clients
 * that trust it talk HTTPS with Basic auth (wirekit's client, Confluent's Python client,
 * @kafkajs/confluent-schema-registry), clients that do not are refused at the handshake, and with
 * `requestCert` only clients holding a certificate the CA signed get in. A socket that connects
 * and never starts its handshake is cut by the idle timer.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent as HttpsAgent } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { registryClient } from '../../../../src/boundaries/events/registry/client.js';
import {
  type RegistryServer,
  startRegistryServer,
} from '../../../../src/boundaries/events/registry/server.js';
import { hasOpenssl, makeCertificates, type TestCertificates } from '../../../support/tls.js';
import { has, venvPython } from '../../../support/tools.js';
import { userSchema } from './http.js';

const users = [{ username: 'svc', password: 'tls-pass', role: 'admin' as const }];
const basicAuth = { username: 'svc', password: 'tls-pass' };

/** A fetch whose connections trust `ca` (and present `cert` and `key` when given). */
function fetchWith(tls: { ca: Buffer; cert?: Buffer; key?: Buffer }): typeof fetch {
  const dispatcher = new Agent({ connect: tls });
  return ((input: string, init?: object) => undiciFetch(input, { ...init, dispatcher })) as typeof fetch;
}

describe.skipIf(!hasOpenssl())('the registry over TLS', () => {
  let dir: string;
  let certs: TestCertificates;
  let server: RegistryServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wirekit-tls-'));
    certs = makeCertificates(dir);
    server = await startRegistryServer({
      auth: { users },
      tls: { key: certs.key, cert: certs.cert },
      idleTimeoutMs: 500,
    });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('its URL is https, and a client that trusts the CA registers with Basic auth', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const client = registryClient({ url: server.url, basicAuth, fetch: fetchWith({ ca: certs.ca }) });
    expect(await client.register('tls-value', { schema: userSchema() })).toBe(1);
  });

  test('a client that does not trust the certificate, or speaks plain HTTP, gets nothing', async () => {
    const untrusting = registryClient({ url: server.url, basicAuth, retries: 0 });
    await expect(untrusting.subjects()).rejects.toMatchObject({ code: 'WK_REGISTRY_UNAVAILABLE' });
    const plain = registryClient({ url: server.url.replace('https:', 'http:'), basicAuth, retries: 0 });
    await expect(plain.subjects()).rejects.toMatchObject({ code: 'WK_REGISTRY_UNAVAILABLE' });
  });

  test('@kafkajs/confluent-schema-registry through an https.Agent that trusts the CA', async () => {
    const client = new SchemaRegistry({
      host: server.url,
      auth: basicAuth,
      agent: new HttpsAgent({ ca: certs.ca }),
    });
    const schema = JSON.stringify({
      type: 'record',
      name: 'T',
      namespace: 'tls',
      fields: [{ name: 'x', type: 'int' }],
    });
    const { id } = await client.register({ type: SchemaType.AVRO, schema }, { subject: 'kafkajs-tls-value' });
    expect(await client.decode(await client.encode(id, { x: 7 }))).toEqual({ x: 7 });
  });

  test.skipIf(!has('venv:confluent_kafka'))("Confluent's Python client with ssl.ca.location", async () => {
    expect(server.url).toMatch(/^https:/);
    const script = new URL('../../../support/peers/confluent_registry_client.py', import.meta.url).pathname;
    const config = {
      url: server.url,
      'ssl.ca.location': certs.files.ca,
      'basic.auth.user.info': 'svc:tls-pass',
    };
    const schema = JSON.stringify({
      type: 'record',
      name: 'P',
      namespace: 'tls',
      fields: [{ name: 'y', type: 'long' }],
    });
    const out = await new Promise<Record<string, unknown>>((resolve, reject) => {
      execFile(
        venvPython,
        [script, JSON.stringify(config), 'python-tls-value', schema],
        { timeout: 60_000 },
        (error, stdout, stderr) => {
          if (error) reject(new Error(`${error.message}\n${stderr}`));
          else resolve(JSON.parse(stdout));
        },
      );
    });
    expect(out.register).toEqual({ ok: expect.any(Number) });
    expect(out.schema).toEqual({ ok: schema });
  });

  test('a socket that connects and never starts its handshake is cut by the idle timer', async () => {
    const socket = connect({ port: server.port, host: '127.0.0.1' });
    socket.on('error', () => {});
    const opened = performance.now();
    await new Promise((resolve) => socket.on('close', resolve));
    // The idle timer is 0.5 s here; Node's own handshake timer would wait 120 s.
    expect(performance.now() - opened).toBeLessThan(5_000);
  });
});

describe.skipIf(!hasOpenssl())('client certificates', () => {
  let dir: string;
  let certs: TestCertificates;
  let server: RegistryServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wirekit-mtls-'));
    certs = makeCertificates(dir);
    server = await startRegistryServer({
      tls: { key: certs.key, cert: certs.cert, ca: certs.ca, requestCert: true },
    });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('with requestCert, only a client holding a certificate the CA signed gets in', async () => {
    const withCert = registryClient({
      url: server.url,
      fetch: fetchWith({ ca: certs.ca, cert: certs.clientCert, key: certs.clientKey }),
    });
    expect(await withCert.subjects()).toEqual([]);
    const without = registryClient({ url: server.url, retries: 0, fetch: fetchWith({ ca: certs.ca }) });
    await expect(without.subjects()).rejects.toMatchObject({ code: 'WK_REGISTRY_UNAVAILABLE' });
    // The server's own certificate is no client certificate: its key usage is serverAuth only.
    const wrongKind = registryClient({
      url: server.url,
      retries: 0,
      fetch: fetchWith({ ca: certs.ca, cert: certs.cert, key: certs.key }),
    });
    await expect(wrongKind.subjects()).rejects.toMatchObject({ code: 'WK_REGISTRY_UNAVAILABLE' });
  });
});
