/**
 * `wirekit registry serve` as a process (the built dist/cli/main.js, which `pretest` builds): it
 * prints its URL once listening (the port it got for --port 0), serves Confluent's API, keeps a
 * file store's records across a restart, stops with exit 0 on SIGINT and SIGTERM, and refuses a
 * wrong command line with exit 2. Over HTTPS: registry-serve-tls.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { run } from '../../src/cli/main.js';
import { freePort } from '../support/tools.js';
import { serve, stopServers } from './registry-process.js';

const main = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

afterEach(stopServers);

const schema = JSON.stringify({ type: 'record', name: 'Event', fields: [{ name: 'id', type: 'long' }] });

/** Runs the CLI to its end, for the command lines it refuses. */
function runToEnd(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [main, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

const register = (url: string, subject: string) =>
  fetch(`${url}/subjects/${subject}/versions`, {
    method: 'POST',
    headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
    body: JSON.stringify({ schema }),
  }).then((response) => response.json());

describe('wirekit registry serve', () => {
  test('--port 0 prints the URL with the port it got, serves the API, and stops on SIGTERM with 0', async () => {
    const server = await serve(['--port', '0']);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
    expect(server.url).not.toMatch(/:0$/);
    expect(await register(server.url, 'events-value')).toEqual({ id: 1 });
    expect(await fetch(`${server.url}/subjects`).then((r) => r.json())).toEqual(['events-value']);
    expect(server.stderr()).toContain('store memory');
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  test('a given port and host are used; SIGINT stops it with 0', async () => {
    const port = await freePort();
    const server = await serve(['--port', String(port), '--host', '127.0.0.1', '--compatibility', 'full']);
    expect(server.url).toBe(`http://127.0.0.1:${port}`);
    expect(await fetch(`${server.url}/config`).then((r) => r.json())).toEqual({ compatibilityLevel: 'FULL' });
    server.child.kill('SIGINT');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toContain('stopped');
  });

  test('--store file:PATH keeps the registry across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-registry-cli-'));
    try {
      const store = `file:${join(dir, 'schemas.log')}`;
      const first = await serve(['--port', '0', '--store', store]);
      expect(await register(first.url, 'a')).toEqual({ id: 1 });
      first.child.kill('SIGTERM');
      expect((await first.exited).code).toBe(0);
      const second = await serve(['--port', '0', '--store', store]);
      expect(await fetch(`${second.url}/subjects/a/versions/1`).then((r) => r.json())).toMatchObject({
        id: 1,
      });
      expect(await register(second.url, 'b')).toEqual({ id: 1 });
      second.child.kill('SIGTERM');
      expect((await second.exited).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test.each([
    [['registry'], /needs a subcommand/],
    [['registry', 'start'], /unknown subcommand/],
    [['registry', 'serve', '--port', '70000'], /--port/],
    [['registry', 'serve', '--store', 'redis:x'], /--store/],
    [['registry', 'serve', '--store', 'kafka:'], /--store kafka/],
    [['registry', 'serve', '--store', 'kafka:host/'], /--store kafka/],
    [['registry', 'serve', '--compatibility', 'SIDEWAYS'], /--compatibility/],
    [['registry', 'serve', '--verbose'], /verbose/],
    [['registry', 'serve', '--host', '0.0.0.0'], /not loopback: give users .* or --allow-anonymous-remote/],
    [['registry', 'serve', '--host', '::'], /not loopback/],
    [['registry', 'serve', '--tls-cert', 'c.pem'], /--tls-cert and --tls-key go together/],
    [['registry', 'serve', '--tls-ca', 'ca.pem'], /--tls-ca needs/],
    [['registry', 'serve', '--max-connections-per-address', '0'], /--max-connections-per-address/],
    [['registry', 'serve', '--password', 'x'], /password/],
  ])('%j is a usage error (exit 2)', async (args, message) => {
    // In-process: none of these gets as far as starting a server.
    let stderr = '';
    const io: CliIo = {
      stdin: (async function* () {})(),
      stdout: { write: () => true },
      stderr: { write: (text) => (stderr += text) },
    };
    expect(await run(args, io)).toBe(2);
    expect(stderr).toMatch(message);
  });

  test('a port in use is an error with its code (exit 1), not a crash', async () => {
    const server = await serve(['--port', '0']);
    const port = new URL(server.url).port;
    const { code, stderr } = await runToEnd(['registry', 'serve', '--port', port]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/WK_REGISTRY_UNAVAILABLE: .*EADDRINUSE/);
  });

  test('a damaged file store stops the start with its code (exit 1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-registry-cli-'));
    try {
      const path = join(dir, 'schemas.log');
      writeFileSync(path, 'not json\n');
      const { code, stderr } = await runToEnd([
        'registry',
        'serve',
        '--port',
        '0',
        '--store',
        `file:${path}`,
      ]);
      expect(code).toBe(1);
      expect(stderr).toMatch(/WK_REGISTRY_UNAVAILABLE: .*corrupt at .*schemas\.log:1/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('users from --users-file and the environment: 401 without credentials, each role as given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-registry-cli-'));
    try {
      const users = join(dir, 'users');
      writeFileSync(users, '# role user:password\nadmin ops:file pass\n', { mode: 0o600 });
      const server = await serve(['--port', '0', '--users-file', users], {
        WIREKIT_REGISTRY_WRITER: 'producer:env:pass',
      });
      const as = (user: string, password: string) => ({
        authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
      });
      const anonymous = await fetch(`${server.url}/subjects`);
      expect([anonymous.status, anonymous.headers.get('www-authenticate')]).toEqual([
        401,
        'Basic realm="schema-registry", charset="UTF-8"',
      ]);
      const registered = await fetch(`${server.url}/subjects/s/versions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...as('producer', 'env:pass') },
        body: JSON.stringify({ schema }),
      });
      expect(await registered.json()).toEqual({ id: 1 });
      const denied = await fetch(`${server.url}/subjects/s`, {
        method: 'DELETE',
        headers: as('producer', 'env:pass'),
      });
      expect(denied.status).toBe(403);
      const deleted = await fetch(`${server.url}/subjects/s`, {
        method: 'DELETE',
        headers: as('ops', 'file pass'),
      });
      expect(await deleted.json()).toEqual([1]);
      expect(server.stderr()).toContain('2 users');
      expect(server.stderr()).not.toMatch(/file pass|env:pass/);
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a users file others may read is served, with a warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-registry-cli-'));
    try {
      const users = join(dir, 'users');
      writeFileSync(users, 'read dash:pw\n', { mode: 0o644 });
      const server = await serve(['--port', '0', '--users-file', users]);
      expect(server.stderr()).toMatch(/warning: .*users holds passwords and others may read it/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('--host 0.0.0.0 is served with users, or with --allow-anonymous-remote and a warning', async () => {
    const open = await serve(['--port', '0', '--host', '0.0.0.0', '--allow-anonymous-remote']);
    expect(open.stderr()).toMatch(/warning: anyone who reaches 0\.0\.0\.0 can register/);
    expect((await fetch(`${open.url.replace('0.0.0.0', '127.0.0.1')}/subjects`)).status).toBe(200);
    const closed = await serve(['--port', '0', '--host', '0.0.0.0'], { WIREKIT_REGISTRY_ADMIN: 'ops:pw' });
    expect(closed.stderr()).toMatch(/warning: without --tls-cert, Basic credentials cross the network/);
    expect((await fetch(`${closed.url.replace('0.0.0.0', '127.0.0.1')}/subjects`)).status).toBe(401);
  });

  test('a users file with a mistake stops the start naming the line, without its text (exit 1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-registry-cli-'));
    try {
      const users = join(dir, 'users');
      writeFileSync(users, 'admin ops:ok\nroot mallory:hunter2\n', { mode: 0o600 });
      const { code, stderr } = await runToEnd(['registry', 'serve', '--port', '0', '--users-file', users]);
      expect(code).toBe(1);
      expect(stderr).toMatch(/WK_OPTIONS_INVALID: .*users:2/);
      expect(stderr).not.toMatch(/hunter2|mallory/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('wirekit registry --help prints its usage', async () => {
    const child = spawn(process.execPath, [main, 'registry', '--help'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let stdout = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(stdout).toContain('wirekit registry serve');
  });
});
