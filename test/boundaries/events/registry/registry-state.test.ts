/**
 * What a log may say: one id names one schema for the log's whole life, and a version keeps its id.
 * A log that breaks either (hand-edited, or written by two registries on one store) is refused
 * at start with StoreCorruptError naming the record, whichever store holds it; and a registration
 * that would take an id or version past 2^31-1 is refused before anything is written. The Kafka
 * store's cases are in kafka-store.test.ts, against a real broker.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fileStore } from '../../../../src/boundaries/events/registry/file-store.js';
import { memoryStore } from '../../../../src/boundaries/events/registry/memory-store.js';
import { StoreCorruptError } from '../../../../src/boundaries/events/registry/record-json.js';
import { createSchemaRegistry } from '../../../../src/boundaries/events/registry/registry.js';
import { isRegistryError } from '../../../../src/boundaries/events/registry/registry-error.js';
import { startRegistryServer } from '../../../../src/boundaries/events/registry/server.js';
import type { RegistryRecord } from '../../../../src/boundaries/events/registry/store.js';
import { isWirekitError } from '../../../../src/errors/index.js';
import { call, subjectPath, userSchema } from './http.js';

const v1 = userSchema();
const v2 = userSchema({ name: 'age', type: 'int', default: 0 });
const maxInt32 = 2 ** 31 - 1;

const version = (
  subject: string,
  number: number,
  id: number,
  schema: string,
  deleted = false,
): RegistryRecord => ({
  kind: 'schema',
  subject,
  version: number,
  id,
  schemaType: 'AVRO',
  schema,
  references: [],
  deleted,
});

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('a log that gives one id to two schemas is refused (memory store)', () => {
  test.each([
    ['two subjects, one id, two schemas', [version('a', 1, 1, v1), version('b', 1, 1, v2)], 2],
    ['one subject rewritten with another schema', [version('a', 1, 1, v1), version('a', 1, 1, v2)], 2],
    [
      'a purged id given to another schema',
      [
        version('a', 1, 1, v1),
        version('a', 1, 1, v1, true),
        { kind: 'purge', subject: 'a', version: 1 } as const,
        version('b', 1, 1, v2),
      ],
      4,
    ],
    ['a version moved to another id', [version('a', 1, 1, v1), version('a', 1, 2, v1)], 2],
  ])('%s', async (_, records, at) => {
    const error = await failureOf(createSchemaRegistry({ store: memoryStore(records) }));
    expect(error).toBeInstanceOf(StoreCorruptError);
    expect(isWirekitError(error, 'WK_REGISTRY_UNAVAILABLE')).toBe(true);
    expect((error as StoreCorruptError).location).toBe(`record ${at} of the log`);
  });

  test('what the registry itself writes is accepted: one schema under many subjects, deletes, re-registration', async () => {
    const reformatted = JSON.stringify(JSON.parse(v1), null, 2);
    const records: RegistryRecord[] = [
      version('a', 1, 1, v1),
      version('b', 1, 1, v1),
      version('a', 1, 1, v1, true),
      // The same schema in other words (whitespace) shares its id.
      version('a', 2, 1, reformatted),
      version('b', 1, 1, v1, true),
      { kind: 'purge', subject: 'b', version: 1 },
      version('c', 1, 2, v2),
    ];
    const registry = await createSchemaRegistry({ store: memoryStore(records) });
    expect(registry.schemaById(1).schema).toBe(v1);
    expect(registry.version('a', 'latest')).toMatchObject({ id: 1, version: 2 });
    expect(registry.version('c', 1)).toMatchObject({ id: 2, schema: v2 });
    await registry.close();
  });

  test('the issue: subjects no longer serve each other schema after a restart', async () => {
    // Two registries on one log each gave their own first schema id 1.
    const store = memoryStore([version('orders', 1, 1, v1), version('payments', 1, 1, v2)]);
    const error = await failureOf(startRegistryServer({ store }));
    expect((error as Error).message).toMatch(/record 2 of the log: id 1 already names another schema/);
  });
});

describe('the file store names the line', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wirekit-registry-'));
    path = join(dir, 'schemas.log');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('a hand-edited log giving id 1 to a second schema stops the start at its line', async () => {
    const first = await startRegistryServer({ store: fileStore(path) });
    await call(first.url, 'POST', subjectPath('orders', '/versions'), { schema: v1 });
    await call(first.url, 'PUT', '/config', { compatibility: 'FULL' });
    await first.close();
    // The edit: a version of another subject, under id 1, with another schema (after a blank line).
    const edited = JSON.stringify(version('payments', 1, 1, v2));
    writeFileSync(path, `${readFileSync(path, 'utf8')}\n${edited}\n`);

    const error = await failureOf(startRegistryServer({ store: fileStore(path) }));
    expect(error).toBeInstanceOf(StoreCorruptError);
    expect((error as StoreCorruptError).location).toBe(`${path}:4`);
    expect((error as Error).message).toMatch(/id 1 already names another schema/);
    // The store was closed: the file can be repaired and loaded again.
    writeFileSync(path, readFileSync(path, 'utf8').replace(`${edited}\n`, ''));
    const repaired = await startRegistryServer({ store: fileStore(path) });
    expect((await call(repaired.url, 'GET', subjectPath('orders', '/versions/1'))).body).toMatchObject({
      id: 1,
      schema: v1,
    });
    await repaired.close();
  });

  test('at id 2^31-1 the next registration is refused, and the log still loads', async () => {
    writeFileSync(path, `${JSON.stringify(version('big', 1, maxInt32, v1))}\n`);
    const server = await startRegistryServer({ store: fileStore(path) });
    const reply = await call(server.url, 'POST', subjectPath('next', '/versions'), { schema: v2 });
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({ error_code: 42205 });
    // The schema already under that id is still served and found again.
    expect((await call(server.url, 'POST', subjectPath('other', '/versions'), { schema: v1 })).body).toEqual({
      id: maxInt32,
    });
    await server.close();
    const again = await startRegistryServer({ store: fileStore(path) });
    expect((await call(again.url, 'GET', '/subjects')).body).toEqual(['big', 'other']);
    await again.close();
  });
});

describe('ids and versions stop at 2^31-1 (memory store)', () => {
  test('a new schema after id 2^31-1 is refused with 42205, and nothing is written', async () => {
    const store = memoryStore([version('big', 1, maxInt32, v1)]);
    const registry = await createSchemaRegistry({ store });
    const error = await failureOf(registry.register('next', { schema: v2 }));
    expect(isRegistryError(error) && error.errorCode).toBe(42205);
    expect(isWirekitError(error, 'WK_REGISTRY_NOT_PERMITTED')).toBe(true);
    expect(store.records).toHaveLength(1);
    await registry.close();
    // The log stays one a registry starts from.
    await (await createSchemaRegistry({ store: memoryStore(store.records) })).close();
  });

  test('a new version after version 2^31-1 is refused the same way', async () => {
    const store = memoryStore([version('long', maxInt32, 1, v1)]);
    const registry = await createSchemaRegistry({ store });
    await registry.setCompatibility('NONE', 'long');
    const error = await failureOf(registry.register('long', { schema: v2 }));
    expect(isWirekitError(error, 'WK_REGISTRY_NOT_PERMITTED')).toBe(true);
    expect((error as Error).message).toMatch(/next version of subject long/);
    expect(store.records.filter((record) => record.kind === 'schema')).toHaveLength(1);
    await registry.close();
  });
});
