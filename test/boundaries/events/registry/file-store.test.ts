/**
 * The file store: a registry server restarted on the same file answers as before (ids, versions,
 * levels, deletions), a crash's torn last line is dropped and cut away, and damage anywhere else
 * stops the start with StoreCorruptError naming the line.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fileStore } from '../../../../src/boundaries/events/registry/file-store.js';
import { StoreCorruptError } from '../../../../src/boundaries/events/registry/record-json.js';
import { startRegistryServer } from '../../../../src/boundaries/events/registry/server.js';
import { isWirekitError } from '../../../../src/errors/index.js';
import { call, subjectPath, userSchema } from './http.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wirekit-registry-'));
  path = join(dir, 'schemas.log');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const v1 = userSchema();
const v2 = userSchema({ name: 'age', type: 'int', default: 0 });
const v3 = userSchema({ name: 'email', type: 'string', default: '' });

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('across a restart', () => {
  test('ids, versions, levels and deletions are what they were', async () => {
    const first = await startRegistryServer({ store: fileStore(path) });
    const api = (method: string, route: string, body?: unknown) => call(first.url, method, route, body);
    await api('POST', subjectPath('orders', '/versions'), { schema: v1 });
    await api('POST', subjectPath('orders', '/versions'), { schema: v2 });
    await api('POST', subjectPath('copies', '/versions'), { schema: v2 });
    await api('POST', subjectPath('gone', '/versions'), { schema: v3 });
    await api('PUT', '/config', { compatibility: 'FULL' });
    await api('PUT', '/config/orders', { compatibility: 'NONE' });
    await api('DELETE', subjectPath('orders', '/versions/1'));
    await api('DELETE', subjectPath('gone', ''));
    await api('DELETE', subjectPath('gone', '?permanent=true'));
    await first.close();

    const second = await startRegistryServer({ store: fileStore(path) });
    try {
      const again = (method: string, route: string, body?: unknown) =>
        call(second.url, method, route, body).then((reply) => reply.body);
      expect(await again('GET', '/subjects')).toEqual(['copies', 'orders']);
      expect(await again('GET', subjectPath('orders', '/versions'))).toEqual([2]);
      expect(await again('GET', subjectPath('orders', '/versions?deleted=true'))).toEqual([1, 2]);
      expect(await again('GET', subjectPath('copies', '/versions/1'))).toEqual({
        subject: 'copies',
        version: 1,
        id: 2,
        schema: v2,
      });
      expect(await again('GET', '/schemas/ids/1')).toEqual({ schema: v1 });
      expect(await again('GET', '/schemas/ids/3')).toMatchObject({ error_code: 40403 });
      expect(await again('GET', '/config')).toEqual({ compatibilityLevel: 'FULL' });
      expect(await again('GET', '/config/orders')).toEqual({ compatibilityLevel: 'NONE' });
      // The same schema keeps its id; a new one gets an id past every one the log holds.
      expect(await again('POST', subjectPath('orders', '/versions'), { schema: v2 })).toEqual({ id: 2 });
      expect(await again('POST', subjectPath('orders', '/versions'), { schema: v3 })).toEqual({ id: 4 });
      expect(await again('GET', subjectPath('orders', '/versions'))).toEqual([2, 3]);
    } finally {
      await second.close();
    }
  });

  test('the file is one JSON record per line, in the order they were made', async () => {
    const server = await startRegistryServer({ store: fileStore(path) });
    await call(server.url, 'POST', subjectPath('s', '/versions'), { schema: v1 });
    await call(server.url, 'PUT', '/config/s', { compatibility: 'FULL' });
    await call(server.url, 'DELETE', subjectPath('s', '/versions/1'));
    await server.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    const schema = { subject: 's', version: 1, id: 1, schemaType: 'AVRO', schema: v1, references: [] };
    expect(lines.slice(0, -1).map((line) => JSON.parse(line))).toEqual([
      { kind: 'schema', ...schema, deleted: false },
      { kind: 'config', subject: 's', compatibility: 'FULL' },
      { kind: 'schema', ...schema, deleted: true },
    ]);
  });
});

describe('a crash mid-write', () => {
  test('a torn last line is ignored and cut away; appends go on after the good lines', async () => {
    const store = fileStore(path);
    await store.load();
    await store.append({ kind: 'config', subject: null, compatibility: 'FULL' });
    await store.close();
    const good = statSync(path).size;
    appendFileSync(path, '{"kind":"schema","subject":"s","vers');

    const server = await startRegistryServer({ store: fileStore(path) });
    expect(statSync(path).size).toBe(good);
    expect((await call(server.url, 'GET', '/config')).body).toEqual({ compatibilityLevel: 'FULL' });
    expect((await call(server.url, 'POST', subjectPath('s', '/versions'), { schema: v1 })).body).toEqual({
      id: 1,
    });
    await server.close();
    const reloaded = fileStore(path);
    expect(await reloaded.load()).toHaveLength(2);
    await reloaded.close();
  });

  test('a torn first line leaves an empty registry', async () => {
    writeFileSync(path, '{"kind":"con');
    const store = fileStore(path);
    expect(await store.load()).toEqual([]);
    await store.close();
    expect(statSync(path).size).toBe(0);
  });
});

describe('damage elsewhere fails loudly', () => {
  const config = `${JSON.stringify({ kind: 'config', subject: null, compatibility: 'FULL' })}\n`;

  test.each([
    ['a line that is not JSON', 'not json\n'],
    ['a line cut short, then ended', '{"kind":\n'],
    ['an unknown kind', '{"kind":"other"}\n'],
    ['a version of 0', '{"kind":"purge","subject":"s","version":0}\n'],
    ['an unknown level', '{"kind":"config","subject":null,"compatibility":"SIDEWAYS"}\n'],
    [
      'an unknown schema type',
      '{"kind":"schema","subject":"s","version":1,"id":1,"schemaType":"JSON","schema":"x","references":[],"deleted":false}\n',
    ],
    [
      'a reference without a version',
      '{"kind":"schema","subject":"s","version":1,"id":1,"schemaType":"AVRO","schema":"x","references":[{"name":"a","subject":"b"}],"deleted":false}\n',
    ],
    ['an array', '[]\n'],
  ])('%s', async (_, line) => {
    writeFileSync(path, `${config}${line}${config}`);
    const error = await failureOf(fileStore(path).load());
    expect(error).toBeInstanceOf(StoreCorruptError);
    expect((error as StoreCorruptError).location).toBe(`${path}:2`);
    expect(isWirekitError(error, 'WK_REGISTRY_UNAVAILABLE')).toBe(true);
    expect((error as StoreCorruptError).offset).toBe(config.length);
  });

  test('a last line that ended with its newline is no torn write: damage there fails too', async () => {
    writeFileSync(path, `${config}{"kind":"con\n`);
    const error = await failureOf(fileStore(path).load());
    expect((error as StoreCorruptError).location).toBe(`${path}:2`);
  });

  test('the server does not start on a damaged file', async () => {
    writeFileSync(path, `not json\n${config}`);
    expect(await failureOf(startRegistryServer({ store: fileStore(path) }))).toBeInstanceOf(
      StoreCorruptError,
    );
  });

  test('a path that is no regular file is refused, not read forever', async () => {
    const error = await failureOf(fileStore('/dev/zero').load());
    expect((error as Error).message).toMatch(/not a regular file/);
  });

  test('blank lines are not damage', async () => {
    writeFileSync(path, `\n${config}\n\n${config}`);
    const store = fileStore(path);
    expect(await store.load()).toHaveLength(2);
    await store.close();
  });
});
