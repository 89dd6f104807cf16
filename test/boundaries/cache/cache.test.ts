/**
 * The cache core on the embedded store: every format × compression both ways, format changes
 * without a flush, the refusals (another schema's value, a corrupt or oversized one) as counted
 * misses, single-flight, stale-while-revalidate, and what the metrics and hooks see.
 */
import { describe, expect, test } from 'vitest';
import { type CacheEvent, createCache } from '../../../src/boundaries/cache/index.js';
import { memoryStore } from '../../../src/boundaries/cache/memory-store.js';
import { formatNames } from '../../../src/codecs/core/codec.js';
import { compressionNames } from '../../../src/compression/index.js';
import { Product, products } from '../../../src/lab/datasets/index.js';
import { t } from '../../../src/schema/index.js';

const items = products(12);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A value larger than compressAbove, so compression really runs. */
const item = items[3] as (typeof items)[number];

describe('round trips', () => {
  test.each(formatNames)('%s with every compression, typed by the products schema', async (format) => {
    for (const compression of compressionNames) {
      const cache = createCache({ schema: Product, format, compression });
      expect(await cache.set('p', item)).toBe(true);
      expect(await cache.get('p')).toEqual(item);
      const written = cache.metrics().outcomes['set written'];
      expect(written, `${format} + ${compression}`).toBe(1);
      await cache.close();
    }
  });

  test.each(['json', 'msgpack', 'cbor'] as const)(
    '%s without a schema keeps schemaless values',
    async (format) => {
      const cache = createCache({ format });
      const value = { name: 'café', tags: ['a', 'b'], nested: { n: 42, f: 1.5, ok: true, none: null } };
      await cache.set('v', value);
      expect(await cache.get('v')).toEqual(value);
      await cache.close();
    },
  );

  test('a schemaless cache refuses a format that needs a schema, when it is made', () => {
    expect(() => createCache({ format: 'avro' })).toThrow(
      expect.objectContaining({ code: 'WK_SCHEMA_REQUIRED' }),
    );
  });

  test('compression applies from compressAbove bytes, and each value says what it used', async () => {
    const events: CacheEvent[] = [];
    const cache = createCache({
      schema: Product,
      compression: 'lz4',
      compressAbove: 100_000,
      onEvent: (e) => events.push(e),
    });
    await cache.set('small', item);
    const big = createCache({
      schema: Product,
      compression: 'lz4',
      compressAbove: 16,
      onEvent: (e) => events.push(e),
    });
    await big.set('big', item);
    expect(events.map((e) => e.compression)).toEqual(['none', 'lz4']);
    expect(events[1]?.bytes).toBeLessThan(events[0]?.bytes as number);
  });

  test('values at or above asyncAbove go through the thread pool and read back', async () => {
    const cache = createCache({ schema: t.array(Product), compression: 'zstd', asyncAbove: 1024 });
    await cache.set('all', items);
    expect(await cache.get('all')).toEqual(items);
  });
});

describe('changing format or compression without a flush', () => {
  test('a cache reads what a cache with other settings wrote to the same store', async () => {
    const store = memoryStore();
    const before = createCache({ store, schema: Product, format: 'msgpack', compression: 'snappy' });
    await before.setMany(items.map((value, i) => ({ key: `p${i}`, value })));
    const after = createCache({ store, schema: Product, format: 'avro', compression: 'lz4' });
    expect(await after.getMany(items.map((_, i) => `p${i}`))).toEqual(items);
    await after.set('p0', items[0] as (typeof items)[number]);
    // Old and new entries side by side, each read as it was written.
    const events: CacheEvent[] = [];
    const reader = createCache({
      store,
      schema: Product,
      format: 'protobuf',
      onEvent: (e) => events.push(e),
    });
    await reader.getMany(['p0', 'p1']);
    expect(events.map((e) => [e.outcome, e.format, e.compression])).toEqual([
      ['hit', 'avro', 'lz4'],
      ['hit', 'msgpack', 'snappy'],
    ]);
  });
});

describe('values the cache must not return', () => {
  const Other = t.object('Other', { id: t.uint32(), name: t.string() });

  test("another schema's value is a counted miss reported to onError, never the wrong type", async () => {
    const store = memoryStore();
    await createCache({ store, schema: Other, format: 'msgpack' }).set('k', { id: 1, name: 'x' });
    const errors: [Error, CacheEvent][] = [];
    const cache = createCache({
      store,
      schema: Product,
      format: 'msgpack',
      onError: (e, ev) => errors.push([e, ev]),
    });
    expect(await cache.get('k')).toBeUndefined();
    expect(errors.map(([e, ev]) => [(e as { code?: string }).code, ev.outcome])).toEqual([
      ['WK_ENVELOPE_SCHEMA', 'miss'],
    ]);
    expect(cache.metrics().problems).toEqual({ WK_ENVELOPE_SCHEMA: 1 });
  });

  test('corrupt and truncated values are counted misses, never exceptions', async () => {
    const store = memoryStore();
    const writer = createCache({ store, schema: Product, compression: 'snappy' });
    await writer.set('good', item);
    const [stored] = await store.read(['good']);
    const bytes = stored?.bytes as Uint8Array;
    const damaged = [
      bytes.subarray(0, 5),
      bytes.subarray(0, bytes.length - 7),
      Uint8Array.from(bytes, (b, i) => (i > 20 && i % 3 === 0 ? b ^ 0xff : b)),
      new Uint8Array([0x89, 0x57, 0x4b, 9, 1, 0, 0]),
      new TextEncoder().encode('not a cached value'),
      new Uint8Array(0),
    ];
    await store.write(damaged.map((value, i) => ({ key: `bad${i}`, bytes: value })));
    const codes: string[] = [];
    const cache = createCache({
      store,
      schema: Product,
      onError: (e) => codes.push((e as unknown as { code: string }).code),
    });
    expect(await cache.getMany(damaged.map((_, i) => `bad${i}`))).toEqual(damaged.map(() => undefined));
    expect(codes).toHaveLength(damaged.length);
    for (const code of codes) expect(code).toMatch(/^WK_/);
    expect(cache.metrics().outcomes['getMany miss']).toBe(damaged.length);
  });

  test('a value over maxValueBytes is refused on write and not decoded on read', async () => {
    const store = memoryStore();
    const codes: string[] = [];
    const cache = createCache({
      store,
      schema: Product,
      maxValueBytes: 1000,
      onError: (e) => codes.push((e as unknown as { code: string }).code),
    });
    expect(await cache.set('big', item)).toBe(false);
    expect(
      await cache.setMany([
        { key: 'a', value: item },
        { key: 'b', value: item },
      ]),
    ).toEqual([false, false]);
    expect(await store.read(['big', 'a'])).toEqual([undefined, undefined]);
    // Written by a cache with a larger limit: the small one does not decode it.
    await createCache({ store, schema: Product }).set('big', item);
    expect(await cache.get('big')).toBeUndefined();
    expect(codes).toEqual([
      'WK_CACHE_VALUE_TOO_LARGE',
      'WK_CACHE_VALUE_TOO_LARGE',
      'WK_CACHE_VALUE_TOO_LARGE',
      'WK_LIMIT_INPUT',
    ]);
    expect(cache.metrics().outcomes['set refused']).toBe(1);
  });

  test('a value the schema refuses throws from set (the caller bug), and nothing is written', async () => {
    const store = memoryStore();
    const cache = createCache({ store, schema: Product });
    await expect(cache.set('x', { id: -1 } as never)).rejects.toMatchObject({
      code: expect.stringMatching(/^WK_/),
    });
    expect(await store.read(['x'])).toEqual([undefined]);
  });

  test('a hook that throws does not fail the request', async () => {
    const cache = createCache({
      schema: Product,
      onEvent: () => {
        throw new Error('metrics are down');
      },
      onError: () => {
        throw new Error('logging is down');
      },
    });
    await cache.set('p', item);
    expect(await cache.get('p')).toEqual(item);
    expect(await cache.get('missing')).toBeUndefined();
  });
});

describe('getOrSet', () => {
  test('100 concurrent misses for one key run the loader once', async () => {
    const cache = createCache({ schema: Product });
    let calls = 0;
    const loader = async () => {
      calls++;
      await sleep(20);
      return item;
    };
    const results = await Promise.all(Array.from({ length: 100 }, () => cache.getOrSet('p', loader)));
    expect(calls).toBe(1);
    for (const result of results) expect(result).toEqual(item);
    expect(await cache.getOrSet('p', loader)).toEqual(item);
    expect(calls).toBe(1);
    // Distinct keys do not share a flight.
    await Promise.all(['a', 'b', 'c'].map((key) => cache.getOrSet(key, loader)));
    expect(calls).toBe(4);
  });

  test("a loader's rejection reaches every waiter and is not cached", async () => {
    const cache = createCache({ schema: Product });
    let calls = 0;
    const failing = async () => {
      calls++;
      await sleep(5);
      throw new Error('database down');
    };
    const settled = await Promise.allSettled(Array.from({ length: 5 }, () => cache.getOrSet('p', failing)));
    expect(settled.map((s) => s.status)).toEqual(Array(5).fill('rejected'));
    expect(calls).toBe(1);
    expect(await cache.getOrSet('p', () => item)).toEqual(item);
  });

  test('TTL: a value expires and the loader runs again', async () => {
    const cache = createCache({ schema: Product, ttl: 0.05 });
    let calls = 0;
    const loader = () => {
      calls++;
      return item;
    };
    await cache.getOrSet('p', loader);
    await cache.getOrSet('p', loader);
    expect(calls).toBe(1);
    await sleep(80);
    expect(await cache.get('p')).toBeUndefined();
    await cache.getOrSet('p', loader);
    expect(calls).toBe(2);
    await cache.set('q', item, { ttl: 30 });
    await sleep(60);
    expect(await cache.get('q')).toEqual(item);
  });

  test('stale-while-revalidate answers the stale value at once and refreshes it once', async () => {
    const cache = createCache({
      schema: t.object('Versioned', { v: t.uint32() }),
      ttl: 0.05,
      staleWhileRevalidate: 10,
    });
    let version = 0;
    const loader = async () => {
      await sleep(30);
      version++;
      return { v: version };
    };
    expect(await cache.getOrSet('k', loader)).toEqual({ v: 1 });
    await sleep(70);
    // Past its TTL: get does not answer it, getOrSet does while one refresh runs.
    expect(await cache.get('k')).toBeUndefined();
    const stale = await Promise.all([cache.getOrSet('k', loader), cache.getOrSet('k', loader)]);
    expect(stale).toEqual([{ v: 1 }, { v: 1 }]);
    await sleep(60);
    expect(version).toBe(2);
    expect(await cache.get('k')).toEqual({ v: 2 });
    expect(cache.metrics().outcomes['getOrSet stale-hit']).toBeGreaterThanOrEqual(1);
  });
});

describe('metrics', () => {
  test('loop time, bytes and outcomes per operation and format', async () => {
    const events: CacheEvent[] = [];
    const cache = createCache({
      schema: Product,
      format: 'protobuf',
      compression: 'snappy',
      onEvent: (e) => events.push(e),
    });
    for (const [i, value] of items.entries()) await cache.set(`p${i}`, value);
    await cache.getMany(items.map((_, i) => `p${i}`).concat('missing'));
    const snapshot = cache.metrics();
    expect(snapshot.outcomes).toEqual({
      'set written': items.length,
      'getMany hit': items.length,
      'getMany miss': 1,
    });
    const encode = snapshot.loopMicros['set codec protobuf'];
    expect(encode?.count).toBe(items.length);
    expect(encode?.sum).toBeGreaterThan(0);
    expect(encode?.p99).toBeGreaterThanOrEqual(encode?.p50 as number);
    expect(snapshot.loopMicros['getMany compression snappy']?.count).toBe(items.length);
    const sizes = snapshot.bytes['set protobuf'];
    expect(sizes?.sum).toBe(
      events.filter((e) => e.operation === 'set').reduce((sum, e) => sum + (e.bytes ?? 0), 0),
    );
    expect(events.at(-1)).toMatchObject({ operation: 'getMany', key: 'missing', outcome: 'miss' });
  });
});

describe('bytes a store hands over as Node Buffers', () => {
  test('decoded byte fields are plain copies, not views of the Buffer', async () => {
    const Blob = t.object('Blob', { data: t.bytes() });
    const store = memoryStore();
    const writer = createCache({ store, schema: Blob, format: 'msgpack', compression: 'none' });
    await writer.set('b', { data: new Uint8Array([1, 2, 3]) });
    const [stored] = await store.read(['b']);
    // As ioredis would: a Buffer view into a larger (pooled) buffer.
    const pool = Buffer.alloc(4096, 0xee);
    const reply = pool.subarray(100, 100 + (stored?.bytes.length ?? 0));
    reply.set(stored?.bytes as Uint8Array);
    const returning = { ...store, read: async () => [{ bytes: reply }] };
    const value = await createCache({ store: returning, schema: Blob }).get('b');
    expect(value?.data.constructor).toBe(Uint8Array);
    pool.fill(0);
    expect([...(value?.data ?? [])]).toEqual([1, 2, 3]);
  });
});
