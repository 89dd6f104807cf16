/**
 * Values too large to read stay in Redis: a read with `maxBytes` receives at most `maxBytes + 1`
 * bytes of each (GETRANGE, redis-read.ts), and then their size, standalone, in a Cluster (where
 * `scaleReads` sends the reads to replicas) and behind a tiered store, and the cache counts them as
 * misses with WK_LIMIT_INPUT. The large values are made on the server with SETRANGE, so not even
 * the test sends them. A 200 MiB value read through the cache, in a fresh process, costs that
 * process neither the transfer's time nor its memory. The bounded read answers what MGET answers
 * for every other key (missing, another type, an empty value), and costs Redis about what MGET does.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createCache } from '../../../src/boundaries/cache/cache.js';
import { memoryStore } from '../../../src/boundaries/cache/memory-store.js';
import { type RedisStore, redisStore } from '../../../src/boundaries/cache/redis-store.js';
import type { CacheStore, ReadOptions } from '../../../src/boundaries/cache/store.js';
import { tieredStore } from '../../../src/boundaries/cache/tiered-store.js';
import { t } from '../../../src/schema/index.js';
import {
  hasRedis,
  type RedisCluster,
  type RedisServer,
  startRedis,
  startRedisCluster,
} from '../../support/redis.js';

const mib = 1024 * 1024;
const textOf = (value: { bytes: Uint8Array } | undefined) =>
  value === undefined ? undefined : new TextDecoder().decode(value.bytes);

/** Reads `keys` with `options`, and what `onOversized` was told (key index → size). */
async function readBounded(store: CacheStore, keys: readonly string[], options: ReadOptions) {
  const oversized: [number, number][] = [];
  const values = await store.read(keys, { ...options, onOversized: (i, size) => oversized.push([i, size]) });
  return { texts: values.map(textOf), ttls: values.map((value) => value?.ttlMs), oversized };
}

/** Bytes the store's own connection has read from its socket so far. */
async function bytesReceived(store: RedisStore): Promise<number> {
  const client = (await store.client()) as Redis;
  return client.stream.bytesRead;
}

describe.skipIf(!hasRedis())('values larger than maxBytes stay in Redis', () => {
  let server: RedisServer;
  let admin: Redis;
  let store: RedisStore;

  beforeAll(async () => {
    server = await startRedis();
    admin = new Redis(server.url);
    store = redisStore({ url: server.url });
    await admin.set('fits', 'a small value', 'PX', 60_000);
    await admin.setrange('large', 2 * mib - 1, 'x');
    await admin.hset('not-a-string', 'field', 'value');
    await admin.set('empty', '');
    await admin.setrange('at-limit', mib - 1, 'y');
    await admin.setrange('past-limit', mib, 'z');
  }, 30_000);

  afterAll(async () => {
    await store?.close();
    admin?.disconnect();
    await server?.stop();
  });

  test('a batch answers the values that fit, a size for each larger one, misses where nothing is', async () => {
    await store.read(['fits'], { maxBytes: mib });
    const received = await bytesReceived(store);
    const keys = ['fits', 'large', 'missing', 'not-a-string', 'fits'];
    const read = await readBounded(store, keys, { maxBytes: mib });
    expect(read.texts).toEqual(['a small value', undefined, undefined, undefined, 'a small value']);
    expect(read.oversized).toEqual([[1, 2 * mib]]);
    // Of the 2 MiB value, no more than maxBytes + 1 bytes crossed the wire (the rest is a few dozen bytes).
    expect((await bytesReceived(store)) - received).toBeLessThan(mib + 1024);

    const timed = await readBounded(store, keys, { maxBytes: mib, withTtl: true });
    expect(timed.texts).toEqual(read.texts);
    expect(timed.oversized).toEqual([[1, 2 * mib]]);
    expect(timed.ttls[0]).toBeGreaterThan(50_000);
    expect(timed.ttls[0]).toBeLessThanOrEqual(60_000);
  });

  test('a value of exactly maxBytes is handed over; one byte more is not', async () => {
    const read = await readBounded(store, ['at-limit', 'past-limit'], { maxBytes: mib });
    expect(read.texts[0]?.length).toBe(mib);
    expect(read.texts[1]).toBeUndefined();
    expect(read.oversized).toEqual([[1, mib + 1]]);
  });

  test('one key at a time, each answers as it does in a batch', async () => {
    for (const withTtl of [false, true]) {
      const one = async (key: string) => readBounded(store, [key], { maxBytes: mib, withTtl });
      expect((await one('fits')).texts).toEqual(['a small value']);
      expect(await one('large')).toMatchObject({ texts: [undefined], oversized: [[0, 2 * mib]] });
      for (const key of ['missing', 'not-a-string']) {
        expect(await one(key)).toMatchObject({ texts: [undefined], oversized: [] });
      }
      expect(await one('empty')).toMatchObject({ texts: [''], oversized: [] });
    }
  });

  test('an empty value and a missing key answer what MGET answers, alone and among others', async () => {
    const batches = [
      ['empty'],
      ['missing'],
      ['empty', 'missing'],
      ['fits', 'missing', 'missing'],
      ['fits', 'empty', 'not-a-string', 'missing', 'empty'],
    ];
    for (const keys of batches) {
      for (const withTtl of [false, true]) {
        const unbounded = await store.read(keys, { withTtl });
        const bounded = await store.read(keys, { withTtl, maxBytes: mib });
        expect(bounded.map(textOf), keys.join()).toEqual(unbounded.map(textOf));
        // 'fits' has a TTL: the two reads see it a few milliseconds apart.
        const ttlOf = (value: { ttlMs?: number } | undefined) =>
          value?.ttlMs === undefined ? undefined : Math.round(value.ttlMs / 10_000);
        expect(bounded.map(ttlOf)).toEqual(unbounded.map(ttlOf));
      }
    }
    expect((await store.read(['empty', 'missing'], { maxBytes: mib })).map(textOf)).toEqual(['', undefined]);
  });

  test('the cache counts an empty value and a missing key as it did: a miss, the empty one with its problem', async () => {
    // The same cache over the same Redis, once through a store asked without a limit (MGET, as
    // reads were before they were bounded), once as it ships.
    const outcomes = async (bounded: boolean) => {
      const problems: (string | undefined)[] = [];
      const redis = redisStore({ url: server.url });
      const cache = createCache({
        store: bounded
          ? redis
          : { ...redis, read: (keys, options) => redis.read(keys, { withTtl: options?.withTtl }) },
        schema: t.string(),
        onError: (error) => problems.push((error as { code?: string }).code),
      });
      try {
        const values = [
          await cache.get('empty'),
          await cache.get('missing'),
          ...(await cache.getMany(['empty', 'missing', 'empty'])),
        ];
        return { values, problems, metrics: cache.metrics().outcomes };
      } finally {
        await cache.close();
      }
    };
    const before = await outcomes(false);
    expect(before.problems).toEqual(['WK_ENVELOPE_INVALID', 'WK_ENVELOPE_INVALID', 'WK_ENVELOPE_INVALID']);
    expect(await outcomes(true)).toEqual(before);
  });

  test('a bounded read runs no script, and costs Redis about what an MGET does', async () => {
    const keys = Array.from({ length: 20 }, (_, i) => `six-kb:${i}`);
    await admin.mset(Object.fromEntries(keys.map((key, i) => [key, `${i}`.padEnd(6 * 1024, '.')])));
    for (let i = 0; i < 50; i++) await store.read(keys, { maxBytes: mib });
    await admin.config('RESETSTAT');
    // Taking turns, so that whatever else the machine does falls on both alike.
    for (let i = 0; i < 1000; i++) {
      await store.read(keys, { maxBytes: mib });
      await store.read(keys);
    }
    const stats = await admin.info('commandstats');
    const usec = (command: string) =>
      Number(new RegExp(`^cmdstat_${command}:calls=\\d+,usec=(\\d+)`, 'm').exec(stats)?.[1] ?? 0);
    const calls = (command: string) =>
      Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0);
    expect(calls('evalsha') + calls('eval')).toBe(0);
    expect(calls('getrange')).toBe(20 * 1000);
    expect(calls('mget')).toBe(1000);
    // Through a Lua script (STRLEN, then GET) the bounded read cost Redis 20-50 times an MGET's time.
    expect(usec('getrange') + usec('exists')).toBeLessThan(5 * usec('mget'));
  });

  test('without maxBytes a read is the MGET it was, and hands over every value', async () => {
    const [large] = await store.read(['large']);
    expect(large?.bytes.length).toBe(2 * mib);
  });

  test('a tiered store asks its far tier with the limit, and names the keys as its caller gave them', async () => {
    const tiered = tieredStore({
      near: memoryStore(),
      far: redisStore({ url: server.url }),
      invalidation: { url: server.url },
    });
    try {
      await tiered.subscribed();
      await tiered.read(['fits']); // now in the near tier: the far read below is for the others only
      const read = await readBounded(tiered, ['fits', 'missing', 'large'], { maxBytes: mib });
      expect(read.texts).toEqual(['a small value', undefined, undefined]);
      expect(read.oversized).toEqual([[2, 2 * mib]]);
    } finally {
      await tiered.close();
    }
  });

  test('the cache counts a value past maxValueBytes as a miss with WK_LIMIT_INPUT, in get and getMany', async () => {
    const problems: { code?: string; outcome: string; bytes?: number }[] = [];
    const cache = createCache({
      store: redisStore({ url: server.url }),
      schema: t.string(),
      maxValueBytes: mib,
      onError: (error, event) =>
        problems.push({
          code: (error as { code?: string }).code,
          outcome: event.outcome,
          bytes: event.bytes,
        }),
    });
    try {
      await cache.set('typed', 'hello');
      expect(await cache.get('large')).toBeUndefined();
      expect(await cache.getMany(['typed', 'large'])).toEqual(['hello', undefined]);
      expect(problems).toEqual([
        { code: 'WK_LIMIT_INPUT', outcome: 'miss', bytes: 2 * mib },
        { code: 'WK_LIMIT_INPUT', outcome: 'miss', bytes: 2 * mib },
      ]);
      expect(cache.metrics().problems).toEqual({ WK_LIMIT_INPUT: 2 });
    } finally {
      await cache.close();
    }
  });

  test('a 200 MiB value: a miss at once, and the reading process does not grow by it', async () => {
    await admin.setrange('huge', 200 * mib - 1, 'x');
    try {
      // The default timeout (250 ms): reading the value whole outlasted it, and grew the process to ~490 MB.
      const result = await readInFreshProcess({ url: server.url, key: 'huge' });
      expect(result.value).toBeNull();
      expect(result.problems).toEqual([{ code: 'WK_LIMIT_INPUT', outcome: 'miss', bytes: 200 * mib }]);
      expect(result.ms).toBeLessThan(200);
      // What crosses the wire is the cache's limit (8 MiB + 65 bytes), not the value: the process
      // holds it about twice while ioredis joins the reply's chunks (~16 MiB), never the 200 MiB.
      expect(result.maxRssMiB - result.rssBeforeMiB).toBeLessThan(50);
      expect(result.arrayBuffersGrowthMiB).toBeLessThan(3 * 8);
    } finally {
      await admin.del('huge');
    }
  }, 60_000);
});

describe.skipIf(!hasRedis())('values larger than maxBytes stay in a Redis Cluster', () => {
  let cluster: RedisCluster;
  let nodes: Redis[];
  let store: RedisStore;

  beforeAll(async () => {
    cluster = await startRedisCluster();
    nodes = cluster.nodes.map((node) => new Redis(node.url));
    store = redisStore({ cluster: { nodes: [...cluster.startupNodes] } });
  }, 60_000);

  afterAll(async () => {
    await store?.close();
    for (const node of nodes ?? []) node.disconnect();
    await cluster?.stop();
  });

  test('keys across slots and nodes: the values that fit in key order, a size for each larger one', async () => {
    // Keys alone in their slot, and hash-tagged ones that share one (several keys in a slot group).
    const keys = [
      ...Array.from({ length: 60 }, (_, i) => `item:${i}`),
      ...Array.from({ length: 10 }, (_, i) => `{cart}:line:${i}`),
    ];
    await store.write(keys.map((key) => ({ key, bytes: new TextEncoder().encode(`value of ${key}`) })));
    const large = keys.filter((_, i) => i % 7 === 3);
    const client = (await store.client()) as Cluster;
    for (const key of large) await client.setrange(key, 64 * 1024, 'x');
    await client.set('{cart}:empty', '');
    await client.hset('{cart}:hash', 'field', 'value');
    await client.set('empty', '');
    await client.hset('hash', 'field', 'value');
    const others = ['{item:1}:missing', '{cart}:missing', '{cart}:empty', '{cart}:hash', 'empty', 'hash'];

    const read = await readBounded(store, [...keys, ...others], { maxBytes: 64 * 1024 });
    expect(read.texts).toEqual([
      ...keys.map((key) => (large.includes(key) ? undefined : `value of ${key}`)),
      ...[undefined, undefined, '', undefined, '', undefined],
    ]);
    // Told per slot group as the nodes answer, so in no particular order.
    expect(read.oversized.sort(([a], [b]) => a - b)).toEqual(
      keys.flatMap((key, i) => (large.includes(key) ? [[i, 64 * 1024 + 1]] : [])),
    );
    const timed = await readBounded(store, [...keys, ...others], { maxBytes: 64 * 1024, withTtl: true });
    expect(timed.texts).toEqual(read.texts);
  });
});

describe.skipIf(!hasRedis())('bounded reads in a Redis Cluster with replicas', () => {
  let cluster: RedisCluster;
  let nodes: Redis[];

  beforeAll(async () => {
    cluster = await startRedisCluster(3, { replicas: 1 });
    nodes = cluster.nodes.map((node) => new Redis(node.url));
  }, 90_000);

  afterAll(async () => {
    for (const node of nodes ?? []) node.disconnect();
    await cluster?.stop();
  });

  test("scaleReads: 'slave' sends them to the replicas, as it does MGET", async () => {
    const store = redisStore({
      cluster: { nodes: [...cluster.startupNodes], options: { scaleReads: 'slave' } },
    });
    try {
      const keys = Array.from({ length: 60 }, (_, i) => `replicated:${i}`);
      await store.write(keys.map((key) => ({ key, bytes: new TextEncoder().encode(key) })));
      const roles = await Promise.all(
        nodes.map(async (node) => /^role:(\w+)/m.exec(await node.info('replication'))?.[1]),
      );
      const masters = nodes.filter((_, i) => roles[i] === 'master');
      const replicas = nodes.filter((_, i) => roles[i] === 'slave');
      expect([masters.length, replicas.length]).toEqual([3, 3]);
      // Every write reached a replica before the reads.
      for (const master of masters) expect(await master.call('WAIT', '1', '5000')).toBe(1);
      await Promise.all(nodes.map((node) => node.config('RESETSTAT')));

      const read = await readBounded(store, keys, { maxBytes: 1024 });
      expect(read.texts).toEqual(keys);
      const calls = async (group: Redis[], command: string) => {
        let total = 0;
        for (const node of group) {
          const info = await node.info('commandstats');
          total += Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(info)?.[1] ?? 0);
        }
        return total;
      };
      expect(await calls(replicas, 'getrange')).toBe(keys.length);
      expect(await calls(masters, 'getrange')).toBe(0);
      expect((await calls(masters, 'evalsha')) + (await calls(masters, 'eval'))).toBe(0);
    } finally {
      await store.close();
    }
  }, 30_000);
});

interface FreshRead {
  readonly value: unknown;
  readonly problems: unknown[];
  readonly ms: number;
  readonly rssBeforeMiB: number;
  readonly maxRssMiB: number;
  readonly arrayBuffersGrowthMiB: number;
}

/** oversized-read.mjs (a cache read in plain Node, from the built dist/) in a fresh process. */
function readInFreshProcess(input: { url: string; key: string }): Promise<FreshRead> {
  const script = fileURLToPath(new URL('oversized-read.mjs', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, JSON.stringify(input)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(JSON.parse(stdout) as FreshRead);
      else reject(new Error(`oversized-read.mjs exited with ${code}: ${stderr}`));
    });
  });
}
