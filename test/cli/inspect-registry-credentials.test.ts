/**
 * `wirekit inspect --registry` against a registry that asks for Basic credentials: they come from
 * WIREKIT_REGISTRY_USER_INFO (`user:password`, as Confluent's basic.auth.user.info), so no password
 * goes on the command line; credentials in the URL win. The built CLI runs in a child process with
 * the variable in its environment, as a user's shell would start it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { writeConfluentFrame } from '../../src/boundaries/events/framing.js';
import type { RegistryUser } from '../../src/boundaries/events/registry/basic-auth.js';
import { registryClient } from '../../src/boundaries/events/registry/client.js';
import { type RegistryServer, startRegistryServer } from '../../src/boundaries/events/registry/server.js';
import { createCodec } from '../../src/codecs/registry.js';
import { t } from '../../src/index.js';
import { toAvro } from '../../src/schema/export/avro.js';

const main = new URL('../../dist/cli/main.js', import.meta.url).pathname;
const users: RegistryUser[] = [
  { username: 'admin', password: 'admin-pw', role: 'admin' },
  { username: 'reader', password: 'r:e:a:d', role: 'read' },
];
const Ping = t.object('Ping', { n: t.int32() });

let server: RegistryServer;
let dir: string;
let payload: string;
beforeAll(async () => {
  server = await startRegistryServer({ auth: { users } });
  dir = await mkdtemp(join(tmpdir(), 'wirekit-inspect-credentials-'));
  const admin = registryClient({ url: server.url, basicAuth: { username: 'admin', password: 'admin-pw' } });
  const id = await admin.register('ping-value', { schema: JSON.stringify(toAvro(Ping)) });
  payload = join(dir, 'ping.bin');
  await writeFile(payload, writeConfluentFrame(id, createCodec('avro', { schema: Ping }).encode({ n: 7 })));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/**
 * The built CLI's `inspect --registry URL payload`, with `userInfo` (if any) in its environment; in
 * a child process run asynchronously, since the registry answers from this process's event loop.
 */
function inspect(
  url: string,
  userInfo?: string,
): Promise<{ status: number; stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env.WIREKIT_REGISTRY_USER_INFO;
  if (userInfo !== undefined) env.WIREKIT_REGISTRY_USER_INFO = userInfo;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [main, 'inspect', '--registry', url, payload],
      { env },
      (error, stdout, stderr) => {
        resolve({ status: error === null ? 0 : Number(error.code), stdout, stderr });
      },
    );
  });
}

test('without credentials the registry refuses, and inspect says so with its code', async () => {
  const result = await inspect(server.url);
  expect(result.status).not.toBe(0);
  expect(result.stderr).toContain('WK_REGISTRY_AUTH');
});

test('WIREKIT_REGISTRY_USER_INFO gives the credentials (a password may hold colons), never shown', async () => {
  const result = await inspect(server.url, 'reader:r:e:a:d');
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  expect(result.stdout).toContain('"n": 7');
  expect(result.stdout + result.stderr).not.toContain('r:e:a:d');
});

test('credentials in the URL win over the variable', async () => {
  const withUser = server.url.replace('http://', 'http://reader:r%3Ae%3Aa%3Ad@');
  expect((await inspect(withUser, 'reader:wrong')).status).toBe(0);
  expect((await inspect(server.url, 'reader:wrong')).stderr).toContain('WK_REGISTRY_AUTH');
});

test('a variable without user:password is a usage error', async () => {
  const result = await inspect(server.url, 'just-a-token');
  expect(result.status).toBe(2);
  expect(result.stderr).toContain('WIREKIT_REGISTRY_USER_INFO takes user:password');
});
