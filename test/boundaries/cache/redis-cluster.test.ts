/**
 * The Redis store on a real three-node Redis Cluster (test/support/redis.ts): the hash slot as
 * Redis computes it (CLUSTER KEYSLOT), batches of 1,000 keys spread over every node, hash-tagged
 * keys in one MGET, keys on which ioredis's own slot function disagrees with Redis, TTLs, deletes
 * and a key prefix, with no CROSSSLOT error anywhere, and the batching counted on the nodes.
 */
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createCache } from '../../../src/boundaries/cache/cache.js';
import { keySlot } from '../../../src/boundaries/cache/key-slot.js';
import { type RedisStore, redisStore } from '../../../src/boundaries/cache/redis-store.js';
import { Product, products } from '../../../src/lab/datasets/index.js';
import { hasRedis, type RedisCluster, startRedisCluster } from '../../support/redis.js';

const bytesOf = (text: string) => new TextEncoder().encode(text);
/** A connection to one node, for looking at it from outside the store (quiet while the node is down). */
const connectTo = (url: string) => new Redis(url, { retryStrategy: () => 200 }).on('error', () => {});
const textOf = (value: { bytes: Uint8Array } | undefined) =>
  value === undefined ? undefined : new TextDecoder().decode(value.bytes);

describe.skipIf(!hasRedis())('redisStore (cluster)', () => {
  let cluster: RedisCluster;
  let nodes: Redis[];
  let store: RedisStore;

  /** Calls of `command` on every node since the last CONFIG RESETSTAT. */
  const calls = async (command: string) => {
    let total = 0;
    for (const node of nodes) {
      const info = await node.info('commandstats');
      total += Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(info)?.[1] ?? 0);
    }
    return total;
  };
  const resetStats = () => Promise.all(nodes.map((node) => node.config('RESETSTAT')));

  beforeAll(async () => {
    cluster = await startRedisCluster();
    nodes = cluster.nodes.map((node) => connectTo(node.url));
    store = redisStore({ cluster: { nodes: [...cluster.startupNodes] } });
  }, 60_000);

  afterAll(async () => {
    await store?.close();
    for (const node of nodes ?? []) node.disconnect();
    await cluster?.stop();
  });

  test('the slot of a key is the one Redis computes, hash tags and odd keys included', async () => {
    const keys = [
      '123456789',
      'user:1000',
      '{user:1000}:following',
      '{user:1000}:followers',
      'foo{}{bar}',
      'foo{{bar}}zap',
      'foo{bar}{zap}',
      '{}',
      '{',
      '}{',
      'a{}b{c}',
      'é{ü}x',
      '日本語のキー',
      'emoji:\u{1f600}',
      '',
      ...Array.from({ length: 200 }, (_, i) => `random:${(i * 7919).toString(36)}:${i}`),
    ];
    for (const key of keys)
      expect(keySlot(key), JSON.stringify(key)).toBe(await nodes[0]?.cluster('KEYSLOT', key));
  });

  test('getMany/setMany of 1,000 keys across every node: values in key order, misses in place', async () => {
    expect(store.kind).toBe('redis-cluster');
    const keys = Array.from({ length: 1_000 }, (_, i) => `item:${i}`);
    await store.write(keys.map((key) => ({ key, bytes: bytesOf(`value of ${key}`) })));
    // Every node holds a share, and together they hold them all.
    const sizes = await Promise.all(nodes.map((node) => node.dbsize()));
    for (const size of sizes) expect(size).toBeGreaterThan(200);
    expect(sizes.reduce((a, b) => a + b)).toBe(1_000);

    const asked = keys.flatMap((key, i) => (i % 10 === 0 ? [key, `absent:${i}`] : [key]));
    const read = await store.read(asked);
    expect(read.map(textOf)).toEqual(
      asked.map((key) => (key.startsWith('absent:') ? undefined : `value of ${key}`)),
    );

    // One MGET per slot (no more: they travel in one pipeline per node); never a CROSSSLOT.
    await resetStats();
    await store.read(keys);
    expect(await calls('mget')).toBe(new Set(keys.map(keySlot)).size);

    await store.delete(keys.filter((_, i) => i % 2 === 0));
    const after = await store.read(keys);
    expect(after.map((value) => value !== undefined)).toEqual(keys.map((_, i) => i % 2 === 1));
    await store.delete(keys);
    expect((await Promise.all(nodes.map((node) => node.dbsize()))).reduce((a, b) => a + b)).toBe(0);
  });

  test('a typed cache on the cluster: setMany and getMany of products across slots', async () => {
    const items = products(60);
    const cache = createCache({
      store: redisStore({ cluster: { nodes: [...cluster.startupNodes] } }),
      schema: Product,
      ttl: 30,
    });
    try {
      const keys = items.map((item) => `product:${item.id}`);
      expect(new Set(keys.map(keySlot)).size).toBeGreaterThan(30);
      expect(await cache.setMany(items.map((value, i) => ({ key: keys[i] as string, value })))).toEqual(
        items.map(() => true),
      );
      expect(await cache.getMany([...keys, 'product:none'])).toEqual([...items, undefined]);
      expect(cache.metrics().problems).toEqual({});
    } finally {
      await cache.close();
    }
  });

  test('hash-tagged keys share a slot: one MGET, one MSET, one DEL for the whole batch', async () => {
    const keys = Array.from({ length: 100 }, (_, i) => `{cart:42}:line:${i}`);
    await resetStats();
    await store.write(keys.map((key) => ({ key, bytes: bytesOf(key) })));
    const read = await store.read(keys);
    await store.delete(keys);
    expect(read.map(textOf)).toEqual(keys);
    expect(await calls('mset')).toBe(1);
    expect(await calls('mget')).toBe(1);
    expect(await calls('del')).toBe(1);
  });

  test('TTLs across slots: SET PX written, PTTL read back', async () => {
    const keys = Array.from({ length: 300 }, (_, i) => `timed:${i}`);
    await store.write(
      keys.map((key, i) => ({ key, bytes: bytesOf(key), ...(i % 3 ? { ttlMs: 30_000 } : {}) })),
    );
    const read = await store.read(keys, { withTtl: true });
    read.forEach((value, i) => {
      expect(textOf(value)).toBe(keys[i]);
      if (i % 3 === 0) expect(value?.ttlMs).toBeUndefined();
      else {
        expect(value?.ttlMs).toBeGreaterThan(25_000);
        expect(value?.ttlMs).toBeLessThanOrEqual(30_000);
      }
    });
    await store.delete(keys);
  });

  test('keys whose slot ioredis computes differently still round-trip', async () => {
    // ioredis's cluster-key-slot hashes these apart from Redis (an empty tag before a tag, lone
    // surrogates): the store sends them again on their own, and ioredis follows the MOVED.
    const keys = [
      'a{}b{c}',
      'x{}{y}',
      'lone:\ud800',
      'lone:\udc00:x',
      'c',
      'y',
      ...['p', 'q'].map((k) => `{c}${k}`),
    ];
    const values = keys.map((key, i) => ({ key, bytes: Uint8Array.of(i, 0, 255) }));
    await store.write(values);
    await store.write(values.map((value) => ({ ...value, ttlMs: 20_000 })));
    const read = await store.read(keys, { withTtl: true });
    expect(read.map((value) => value?.bytes)).toEqual(values.map((value) => value.bytes));
    for (const value of read) expect(value?.ttlMs).toBeGreaterThan(10_000);
    await store.delete(keys);
    expect(await store.read(keys)).toEqual(keys.map(() => undefined));
  });

  test('a key prefix with the cluster, and a Cluster client of your own', async () => {
    const mine = new Cluster([...cluster.startupNodes]);
    const prefixed = redisStore({ client: mine, keyPrefix: 'tenant:7:' });
    try {
      expect(prefixed.kind).toBe('redis-cluster');
      const keys = Array.from({ length: 100 }, (_, i) => `k${i}`);
      await prefixed.write(keys.map((key) => ({ key, bytes: bytesOf(key) })));
      expect(await mine.get('tenant:7:k5')).toBe('k5');
      expect((await prefixed.read(keys)).map(textOf)).toEqual(keys);
      await prefixed.delete(keys);
      expect(await mine.exists('tenant:7:k5')).toBe(0);
      await prefixed.close();
      expect(mine.status).toBe('ready');
    } finally {
      mine.disconnect();
    }
  });

  // Last: it restarts a node (empty).
  test('a node killed: batches touching it reject at once; restarted: the same store works again', async () => {
    const keys = Array.from({ length: 100 }, (_, i) => `survivor:${i}`);
    const write = () => store.write(keys.map((key) => ({ key, bytes: bytesOf(key) })));
    await write();
    const victim = cluster.nodes[0] as (typeof cluster.nodes)[number];
    await victim.kill();
    for (let attempt = 0; attempt < 5; attempt++) {
      const started = performance.now();
      await expect(store.read(keys)).rejects.toThrow(/^Redis read failed/);
      // No waiting on ioredis's failover retries: the cache's own timeout and breaker decide.
      expect(performance.now() - started).toBeLessThan(500);
    }
    await victim.start();
    const deadline = Date.now() + 15_000;
    for (;;) {
      try {
        await write();
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    expect((await store.read(keys)).map(textOf)).toEqual(keys);
    await store.delete(keys);
  }, 30_000);
});
