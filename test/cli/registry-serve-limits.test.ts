/**
 * `wirekit registry serve`'s schema bounds and parsed-schema cache as flags: a schema past
 * --max-schema-nodes or --max-schema-length is refused (422, 42201), one within is registered, and
 * a flag that is not a positive whole number (or an http URL, for --advertised-url) is a usage
 * error (exit 2).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { avroIntRecord } from '../fixtures/avro-texts.js';

const main = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL');
});

function serve(args: readonly string[]): Promise<string> {
  const child = spawn(process.execPath, [main, 'registry', 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0] as string);
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}; stderr: ${stderr}`)));
  });
}

const record = (fields: number) => avroIntRecord('R', fields);

async function register(url: string, subject: string, schema: string) {
  const response = await fetch(`${url}/subjects/${subject}/versions`, {
    method: 'POST',
    headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
    body: JSON.stringify({ schema }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

test('--max-schema-nodes and --max-schema-length bound the schemas the server takes', async () => {
  const url = await serve([
    '--max-schema-nodes',
    '100',
    '--max-schema-length',
    '2000',
    '--parsed-cache-schemas',
    '2',
  ]);
  // 3 nodes a field, 4 for the record around them.
  expect(await register(url, 'small', record(32))).toMatchObject({ status: 200 });
  expect(await register(url, 'many', record(40))).toMatchObject({
    status: 422,
    body: { error_code: 42201, message: expect.stringMatching(/more than 100 JSON values/) },
  });
  const long = JSON.stringify({ type: 'record', name: 'R', doc: 'x'.repeat(3_000), fields: [] });
  expect(await register(url, 'long', long)).toMatchObject({
    status: 422,
    body: { error_code: 42201, message: expect.stringMatching(/over the limit of 2000/) },
  });
});

test.each([
  ['--max-schema-nodes', '0'],
  ['--max-schema-length', 'lots'],
  ['--parsed-cache-length', '-1'],
  ['--kafka-session-timeout', '0'],
  ['--advertised-url', 'ftp://registry:8081'],
])('%s %s is a usage error', async (flag, value) => {
  const child = spawn(process.execPath, [main, 'registry', 'serve', '--port', '0', flag, value], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code).toBe(2);
  expect(stderr).toContain(flag);
});
