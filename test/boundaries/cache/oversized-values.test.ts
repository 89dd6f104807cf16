/**
 * Values too large to read stay in Redis: a read with `maxBytes` learns their size, not their
 * bytes (redis-read.ts), standalone, in a Cluster and behind a tiered store, and the cache counts
 * them as misses with WK_LIMIT_INPUT. The large values are made on the server with SETRANGE, so not
 * even the test sends them. A 200 MiB value read through the cache, in a fresh process, costs that
 * process neither the transfer's time nor its memory.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
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
    // The 2 MiB value never crossed the wire: the whole answer is a few dozen bytes.
    expect((await bytesReceived(store)) - received).toBeLessThan(1024);

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

  test('after SCRIPT FLUSH the script is sent again in full, and reads go on', async () => {
    await admin.script('FLUSH');
    const read = await readBounded(store, ['fits', 'large'], { maxBytes: mib });
    expect(read.texts).toEqual(['a small value', undefined]);
    expect(read.oversized).toEqual([[1, 2 * mib]]);
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
      expect(result.maxRssMiB - result.rssBeforeMiB).toBeLessThan(50);
      expect(result.arrayBuffersGrowthMiB).toBeLessThan(10);
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
    const keys = Array.from({ length: 60 }, (_, i) => `item:${i}`);
    await store.write(keys.map((key) => ({ key, bytes: new TextEncoder().encode(`value of ${key}`) })));
    const large = keys.filter((_, i) => i % 7 === 3);
    const client = await store.client();
    for (const key of large) await client.setrange(key, 64 * 1024, 'x');

    const expectRead = async () => {
      const read = await readBounded(store, [...keys, '{item:1}:missing'], { maxBytes: 64 * 1024 });
      expect(read.texts).toEqual([
        ...keys.map((key) => (large.includes(key) ? undefined : `value of ${key}`)),
        undefined,
      ]);
      // Told per slot group as the nodes answer, so in no particular order.
      expect(read.oversized.sort(([a], [b]) => a - b)).toEqual(
        keys.flatMap((key, i) => (large.includes(key) ? [[i, 64 * 1024 + 1]] : [])),
      );
    };
    await expectRead();
    // Every node forgets the script: each pipeline's groups fail with NOSCRIPT, and are sent again on their own.
    await Promise.all(nodes.map((node) => node.script('FLUSH')));
    await expectRead();
  });
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
