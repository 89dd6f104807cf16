/**
 * The cache on a real redis-server: every format × compression through Redis, the report's
 * migration (values written by the old pipelines' own libraries, read by a cache that writes
 * wirekit's envelope from then on), TTL expiry in Redis, and the faults: Redis killed mid-test
 * (requests served from the loader, breaker open) and restarted (breaker closed, cache used again),
 * Redis paused (timeouts, not waits).
 */
import { execFileSync } from 'node:child_process';
import { encode as msgpackEncode } from '@msgpack/msgpack';
import { Redis } from 'ioredis';
import { pack } from 'msgpackr';
import { compressSync } from 'snappy';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createCache } from '../../../src/boundaries/cache/index.js';
import { redisStore } from '../../../src/boundaries/cache/redis-store.js';
import { formatNames } from '../../../src/codecs/core/codec.js';
import { compressionNames } from '../../../src/compression/index.js';
import { Product, products } from '../../../src/lab/datasets/index.js';
import { hasRedis, type RedisServer, startRedis } from '../../support/redis.js';

const items = products(20);
const item = items[0] as (typeof items)[number];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!hasRedis())('the cache on Redis', () => {
  let redis: RedisServer;
  let raw: Redis;

  beforeAll(async () => {
    redis = await startRedis();
    raw = new Redis(redis.port, '127.0.0.1', { lazyConnect: true });
    await raw.connect();
  });

  afterAll(async () => {
    raw?.disconnect();
    await redis?.stop();
  });

  test('every format × compression round-trips through Redis', async () => {
    const cache = createCache({ store: redisStore({ url: redis.url }), schema: Product });
    try {
      for (const format of formatNames) {
        for (const compression of compressionNames) {
          const writer = createCache({
            store: redisStore({ url: redis.url }),
            schema: Product,
            format,
            compression,
          });
          const key = `rt:${format}:${compression}`;
          expect(await writer.set(key, item), key).toBe(true);
          await writer.close();
          // Read by a cache with the default settings: the value says how it was written.
          expect(await cache.get(key), key).toEqual(item);
        }
      }
      expect(cache.metrics().outcomes['get hit']).toBe(formatNames.length * compressionNames.length);
    } finally {
      await cache.close();
    }
  });

  test("the report's migration: values the old libraries wrote stay readable until their TTLs end", async () => {
    const value = JSON.parse(JSON.stringify(item)) as Record<string, unknown>;
    // As the report's helpers wrote them, byte for byte: JSON text, snappy around it, @msgpack/msgpack
    // after a JSON round trip with and without snappy, and msgpackr's default pack.
    await raw.set('old:json', Buffer.from(JSON.stringify(value)));
    await raw.set('old:json+snappy', compressSync(Buffer.from(JSON.stringify(value))));
    await raw.set(
      'old:msgpack+snappy',
      compressSync(Buffer.from(msgpackEncode(JSON.parse(JSON.stringify(value))))),
    );
    await raw.set('old:msgpack', Buffer.from(msgpackEncode(value)));
    await raw.set('old:msgpackr', pack(value));
    const cache = createCache({
      store: redisStore({ url: redis.url }),
      legacy: ['json+snappy', 'msgpack+snappy', 'json', 'msgpack'],
    });
    try {
      for (const key of [
        'old:json',
        'old:json+snappy',
        'old:msgpack+snappy',
        'old:msgpack',
        'old:msgpackr',
      ]) {
        expect(await cache.get(key), key).toEqual(value);
      }
      const { outcomes } = cache.metrics();
      expect(outcomes['get legacy-hit']).toBe(5);
      // New writes go in the envelope; the old value under the same key is replaced, not merged.
      await cache.set('old:json', value, { ttl: 60 });
      const stored = await raw.getBuffer('old:json');
      expect([...(stored?.subarray(0, 3) ?? [])]).toEqual([0x89, 0x57, 0x4b]);
      expect(await cache.get('old:json')).toEqual(value);
    } finally {
      await cache.close();
    }
  });

  test('a schemaless cache with the legacy readers the issue names, as an outside check would use it', async () => {
    const cache = createCache({
      store: redisStore({ url: redis.url }),
      legacy: ['json', 'json+snappy', 'msgpack+snappy'],
    });
    try {
      await raw.set('garbage', Buffer.from([0xc1, 0xff, 0x00, 0x13]));
      expect(await cache.get('garbage')).toBeUndefined();
      expect(await cache.get('nothing-here')).toBeUndefined();
      await cache.set('fresh', { a: 1, b: ['x'] }, { ttl: 1 });
      expect(await cache.get('fresh')).toEqual({ a: 1, b: ['x'] });
      expect(await raw.pttl('fresh')).toBeGreaterThan(0);
      await sleep(1100);
      expect(await cache.get('fresh')).toBeUndefined();
      expect(cache.metrics().problems).toMatchObject({ WK_DECODE_MALFORMED: 1 });
    } finally {
      await cache.close();
    }
  });

  test('getMany and setMany go in one round trip each and keep the keys in order', async () => {
    const cache = createCache({ store: redisStore({ url: redis.url }), schema: Product, ttl: 30 });
    try {
      const keys = items.map((_, i) => `many:${i}`);
      expect(await cache.setMany(items.map((value, i) => ({ key: keys[i] as string, value })))).toEqual(
        items.map(() => true),
      );
      const read = await cache.getMany([...keys, 'many:none']);
      expect(read).toEqual([...items, undefined]);
    } finally {
      await cache.close();
    }
  });

  test('Redis paused: reads time out as misses and getOrSet answers from the loader, in bounded time', async () => {
    const cache = createCache({
      store: redisStore({ url: redis.url }),
      schema: Product,
      timeoutMs: 150,
      breaker: false,
    });
    try {
      await cache.set('slow', item);
      execFileSync('redis-cli', ['-p', String(redis.port), 'client', 'pause', '1200', 'ALL']);
      const started = performance.now();
      expect(await cache.get('slow')).toBeUndefined();
      expect(await cache.getOrSet('slow', () => items[1] as typeof item)).toEqual(items[1]);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(cache.metrics().problems['WK_CACHE_STORE_UNAVAILABLE timeout']).toBeGreaterThanOrEqual(2);
      await sleep(1300);
      expect(await cache.get('slow')).toBeDefined();
    } finally {
      await cache.close();
    }
  });

  test('Redis killed: requests succeed from the loader, the breaker opens; restarted: it closes and the cache is used again', async () => {
    const cache = createCache({
      store: redisStore({ url: redis.url }),
      schema: Product,
      timeoutMs: 200,
      breaker: { failures: 3, cooldownMs: 300 },
    });
    let loads = 0;
    const loader = () => {
      loads++;
      return item;
    };
    try {
      await cache.getOrSet('k', loader);
      await cache.getOrSet('k', loader);
      expect(loads).toBe(1);

      await redis.kill();
      const started = performance.now();
      for (let i = 0; i < 10; i++) expect(await cache.getOrSet('k', loader)).toEqual(item);
      expect(loads).toBe(11);
      // Three failures open the breaker; the rest do not wait on Redis at all.
      expect(performance.now() - started).toBeLessThan(3 * 200 * 2 + 1000);
      expect(cache.breakerState).toBe('open');
      const problems = cache.metrics().problems;
      expect(problems['WK_CACHE_STORE_UNAVAILABLE breaker-open']).toBeGreaterThan(0);

      await redis.start();
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        await cache.getOrSet('k', loader);
        if (cache.breakerState === 'closed' && (await cache.get('k')) !== undefined) break;
        await sleep(100);
      }
      expect(cache.breakerState).toBe('closed');
      const before = loads;
      expect(await cache.getOrSet('k', loader)).toEqual(item);
      expect(loads).toBe(before);
    } finally {
      await cache.close();
    }
  }, 30_000);
});
