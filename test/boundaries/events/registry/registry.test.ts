/**
 * The registry without HTTP: one writer under concurrent calls, a store that fails or is slow, and
 * a log replayed into the same state. The HTTP shapes are server.test.ts's.
 */
import { describe, expect, test } from 'vitest';
import { memoryStore } from '../../../../src/boundaries/events/registry/memory-store.js';
import { createSchemaRegistry } from '../../../../src/boundaries/events/registry/registry.js';
import { isRegistryError } from '../../../../src/boundaries/events/registry/registry-error.js';
import type { RegistryRecord, RegistryStore } from '../../../../src/boundaries/events/registry/store.js';
import { isWirekitError } from '../../../../src/errors/index.js';
import { userSchema } from './http.js';

/** A field that each schema adds with a default: any two of these read each other's data. */
const variant = (index: number) => userSchema({ name: `extra${index}`, type: 'int', default: index });

describe('one writer', () => {
  test('20 concurrent registrations of one schema get one id and one version', async () => {
    const store = memoryStore();
    const registry = await createSchemaRegistry({ store });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => registry.register('s', { schema: variant(0) })),
    );
    expect(new Set(results.map((result) => result.id))).toEqual(new Set([1]));
    expect(registry.versions('s')).toEqual([1]);
    expect(store.records).toHaveLength(1);
  });

  test('20 concurrent registrations of different compatible schemas get consecutive versions and ids', async () => {
    const registry = await createSchemaRegistry({ store: memoryStore() });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => registry.register('s', { schema: variant(index) })),
    );
    expect(results.map((result) => result.version).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, index) => index + 1),
    );
    expect(new Set(results.map((result) => result.id)).size).toBe(20);
    expect(registry.versions('s')).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
  });

  test('a mutation is applied only once the store took it, and readers never wait for writers', async () => {
    let release: () => void = () => {};
    const appended: RegistryRecord[] = [];
    const slow: RegistryStore = {
      load: async () => [],
      append: (record) =>
        new Promise<void>((resolve) => {
          release = () => {
            appended.push(record);
            resolve();
          };
        }),
      close: async () => {},
    };
    const registry = await createSchemaRegistry({ store: slow });
    const pending = registry.register('s', { schema: variant(0) });
    const idle = release;
    // The schema is parsed (in the registry's worker) before the store is asked: wait for the append.
    while (release === idle) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(registry.subjects()).toEqual([]);
    release();
    expect(await pending).toEqual({ id: 1, version: 1 });
    expect(registry.subjects()).toEqual(['s']);
    expect(appended).toHaveLength(1);
  });

  test('a store that fails answers 50001 and changes nothing; the next mutation runs', async () => {
    let failing = true;
    const inner = memoryStore();
    const flaky: RegistryStore = {
      load: () => inner.load(),
      append: (record) => (failing ? Promise.reject(new Error('disk on fire')) : inner.append(record)),
      close: () => inner.close(),
    };
    const registry = await createSchemaRegistry({ store: flaky });
    const refused = await registry.register('s', { schema: variant(0) }).catch((error: unknown) => error);
    expect(isRegistryError(refused) && refused.errorCode).toBe(50001);
    expect(isWirekitError(refused, 'WK_REGISTRY_UNAVAILABLE')).toBe(true);
    expect(registry.subjects()).toEqual([]);
    failing = false;
    expect(await registry.register('s', { schema: variant(0) })).toEqual({ id: 1, version: 1 });
  });

  test('close waits for the mutations under way; later ones are refused with 50001', async () => {
    const store = memoryStore();
    const registry = await createSchemaRegistry({ store });
    const first = registry.register('s', { schema: variant(0) });
    await registry.close();
    expect(await first).toEqual({ id: 1, version: 1 });
    const late = await registry.setCompatibility('FULL').catch((error: unknown) => error);
    expect(isRegistryError(late) && late.errorCode).toBe(50001);
  });
});

describe('replay', () => {
  test("a registry built from another one's log answers the same", async () => {
    const store = memoryStore();
    const first = await createSchemaRegistry({ store });
    await first.register('a', { schema: variant(0) });
    await first.register('a', { schema: variant(1) });
    await first.register('b', { schema: variant(1) });
    await first.register('c', { schema: variant(2) });
    await first.setCompatibility('FULL');
    await first.setCompatibility('NONE', 'b');
    await first.deleteVersion('a', 1);
    await first.deleteSubject('c');
    await first.deleteSubject('c', { permanent: true });

    const second = await createSchemaRegistry({ store: memoryStore(store.records) });
    for (const registry of [first, second]) {
      expect(registry.subjects({ deleted: true })).toEqual(['a', 'b']);
      expect(registry.versions('a', { deleted: true })).toEqual([1, 2]);
      expect(registry.versions('a')).toEqual([2]);
      expect(registry.version('b', 'latest')).toMatchObject({ id: 2, version: 1 });
      expect(registry.compatibility()).toBe('FULL');
      expect(registry.compatibility('b')).toBe('NONE');
      expect(() => registry.schemaById(3)).toThrow(/Schema 3 not found/);
    }
    // The purged id 3 is not handed out again: the log still holds it.
    expect(await second.register('d', { schema: variant(3) })).toEqual({ id: 4, version: 1 });
  });

  test('the default level can be set for a registry', async () => {
    const registry = await createSchemaRegistry({ store: memoryStore(), defaultCompatibility: 'NONE' });
    expect(registry.compatibility()).toBe('NONE');
    expect(registry.compatibility('s', { defaultToGlobal: true })).toBe('NONE');
  });
});
