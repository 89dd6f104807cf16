/**
 * The Redis store against a real redis-server (test/support/redis.ts): bytes as they are (every
 * byte value, the empty value, Uint8Arrays that are not Buffers), MGET order with misses, TTLs
 * (PX, read back with PTTL), key prefixes, the batching (counted on the server with INFO
 * commandstats), errors that carry Redis's own, close(), and a server killed under a running store:
 * operations reject at once rather than wait, and succeed again, on the same store, once the
 * server is back.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { redisStore } from '../../../src/boundaries/cache/redis-store.js';
import type { CacheStore } from '../../../src/boundaries/cache/store.js';
import { hasRedis, type RedisServer, startRedis } from '../../support/redis.js';

const bytesOf = (text: string) => new TextEncoder().encode(text);
const textsOf = (values: readonly ({ bytes: Uint8Array } | undefined)[]) =>
  values.map((value) => (value === undefined ? undefined : new TextDecoder().decode(value.bytes)));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a promise takes to settle, and how. */
async function settle(promise: Promise<unknown>): Promise<{ ms: number; error?: Error }> {
  const started = performance.now();
  try {
    await promise;
    return { ms: performance.now() - started };
  } catch (error) {
    return { ms: performance.now() - started, error: error as Error };
  }
}

/** Calls per command since the last CONFIG RESETSTAT, from INFO commandstats. */
async function commandCalls(admin: Redis): Promise<Record<string, number>> {
  const info = await admin.info('commandstats');
  const calls: Record<string, number> = {};
  for (const match of info.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm))
    calls[match[1] as string] = Number(match[2]);
  return calls;
}

describe.skipIf(!hasRedis())('redisStore (standalone)', () => {
  let server: RedisServer;
  let admin: Redis;
  let store: CacheStore;

  beforeAll(async () => {
    server = await startRedis();
    admin = new Redis(server.url);
    store = redisStore({ url: server.url });
  }, 30_000);

  afterAll(async () => {
    await store?.close();
    admin?.disconnect();
    await server?.stop();
  });

  test('bytes round-trip exactly: every byte value, the empty value, views and plain Uint8Arrays', async () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const backing = new Uint8Array(64).fill(0xee);
    backing.set([0, 13, 10, 255], 20);
    const view = backing.subarray(20, 24);
    await store.write([
      { key: 'bin:all', bytes: all },
      { key: 'bin:empty', bytes: new Uint8Array(0) },
      { key: 'bin:view', bytes: view },
      { key: 'bin:buffer', bytes: Buffer.from([1, 2, 3]) },
    ]);
    const [gotAll, gotEmpty, gotView, gotBuffer] = await store.read([
      'bin:all',
      'bin:empty',
      'bin:view',
      'bin:buffer',
    ]);
    expect(gotAll?.bytes).toEqual(all);
    expect(gotEmpty?.bytes).toEqual(new Uint8Array(0));
    expect(gotView?.bytes).toEqual(new Uint8Array([0, 13, 10, 255]));
    expect(gotBuffer?.bytes).toEqual(new Uint8Array([1, 2, 3]));
    // Plain Uint8Arrays come out, not Buffers (whose slice() shares memory).
    expect(Object.getPrototypeOf(gotAll?.bytes)).toBe(Uint8Array.prototype);
    // What Redis holds is the bytes themselves (a Uint8Array is not stringified on the way).
    expect(await admin.getBuffer('bin:all')).toEqual(Buffer.from(all));
    expect(await admin.strlen('bin:view')).toBe(4);
    expect(await admin.exists('bin:empty')).toBe(1);
  });

  test('a read answers in key order, undefined for misses and for keys that hold no string', async () => {
    await store.write([
      { key: 'order:a', bytes: bytesOf('A') },
      { key: 'order:c', bytes: bytesOf('C') },
    ]);
    await admin.rpush('order:list', 'x');
    const read = await store.read(['order:c', 'order:missing', 'order:a', 'order:list', 'order:a']);
    expect(textsOf(read)).toEqual(['C', undefined, 'A', undefined, 'A']);
    expect(await store.read([])).toEqual([]);
  });

  test('one MGET per read, one MSET per write without TTLs, SET PX in one pipeline with them, one DEL', async () => {
    const keys = Array.from({ length: 50 }, (_, i) => `batch:${i}`);
    await admin.config('RESETSTAT');
    await store.write(keys.map((key) => ({ key, bytes: bytesOf(key) })));
    await store.read(keys);
    await store.write(
      keys.map((key, i) => ({ key, bytes: bytesOf(key), ...(i % 2 ? { ttlMs: 60_000 } : {}) })),
    );
    await store.read(keys, { withTtl: true });
    await store.delete(keys);
    const calls = await commandCalls(admin);
    expect(calls).toMatchObject({ mset: 1, mget: 2, set: 50, pttl: 50, del: 1 });
    expect(await admin.exists(...keys)).toBe(0);
  });

  test('TTL: written with PX, reported with withTtl, gone once it passes', async () => {
    await store.write([
      { key: 'ttl:short', bytes: bytesOf('s'), ttlMs: 150 },
      { key: 'ttl:long', bytes: bytesOf('l'), ttlMs: 60_000 },
      { key: 'ttl:none', bytes: bytesOf('n') },
    ]);
    const pttl = await admin.pttl('ttl:short');
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(150);
    const [short, long, none, missing] = await store.read(
      ['ttl:short', 'ttl:long', 'ttl:none', 'ttl:missing'],
      {
        withTtl: true,
      },
    );
    expect(short?.ttlMs).toBeGreaterThan(0);
    expect(short?.ttlMs).toBeLessThanOrEqual(150);
    expect(long?.ttlMs).toBeGreaterThan(59_000);
    expect(long?.ttlMs).toBeLessThanOrEqual(60_000);
    expect(none).toEqual({ bytes: bytesOf('n') });
    expect(missing).toBeUndefined();
    // Without withTtl nothing is asked for or reported.
    expect((await store.read(['ttl:long']))[0]).toEqual({ bytes: bytesOf('l') });
    await sleep(250);
    expect(textsOf(await store.read(['ttl:short', 'ttl:none']))).toEqual([undefined, 'n']);
    // A single timed write is a plain SET ... PX.
    await store.write([{ key: 'ttl:one', bytes: bytesOf('1'), ttlMs: 5_000 }]);
    expect(await admin.pttl('ttl:one')).toBeGreaterThan(4_000);
  });

  test('a key prefix is put in front of every key, and only there', async () => {
    const prefixed = redisStore({ url: server.url, keyPrefix: 'app:v1:' });
    try {
      await prefixed.write([{ key: 'user:1', bytes: bytesOf('ann'), ttlMs: 10_000 }]);
      expect(await admin.getBuffer('app:v1:user:1')).toEqual(Buffer.from('ann'));
      expect(await admin.exists('user:1')).toBe(0);
      expect(textsOf(await prefixed.read(['user:1']))).toEqual(['ann']);
      expect(await store.read(['user:1'])).toEqual([undefined]);
      await prefixed.delete(['user:1']);
      expect(await admin.exists('app:v1:user:1')).toBe(0);
    } finally {
      await prefixed.close();
    }
  });

  test('a Redis error rejects the operation with an Error whose cause is Redis', async () => {
    await admin.config('SET', 'maxmemory', '1');
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    try {
      const { error } = await settle(store.write([{ key: 'oom', bytes: bytesOf('x') }]));
      expect(error).toBeInstanceOf(Error);
      expect(error?.message).toMatch(/^Redis write failed: OOM/);
      expect((error?.cause as Error | undefined)?.message).toMatch(/^OOM command not allowed/);
    } finally {
      await admin.config('SET', 'maxmemory', '0');
    }
  });

  test('close() closes the connection the store made, and leaves a client it was given open', async () => {
    const clients = async () =>
      String(await admin.client('LIST'))
        .split('\n')
        .filter(Boolean).length;
    const before = await clients();
    const made = redisStore({ url: server.url });
    await made.read(['x']);
    expect(await clients()).toBe(before + 1);
    await made.close();
    await expect(made.read(['x'])).rejects.toThrow(/closed/);
    await sleep(50);
    expect(await clients()).toBe(before);

    const mine = new Redis(server.url);
    const borrowing = redisStore({ client: mine });
    expect(borrowing.kind).toBe('redis');
    await borrowing.write([{ key: 'mine', bytes: bytesOf('m') }]);
    await borrowing.close();
    expect(await mine.get('mine')).toBe('m');

    const owning = redisStore({ client: mine, closeClient: true });
    await owning.read(['mine']);
    await owning.close();
    expect(mine.status).toBe('end');
  });

  test('a store whose Redis is down at first use rejects fast, then works once Redis is there', async () => {
    const late = await startRedis();
    await late.kill();
    const store = redisStore({ url: late.url });
    try {
      const first = await settle(store.read(['k']));
      // The refused first connection, by its code and address.
      expect(first.error).toMatchObject({ code: 'WK_CACHE_CONNECT_FAILED' });
      expect(first.error?.message).toContain(`127.0.0.1:${late.port}`);
      expect(first.ms).toBeLessThan(1_000);
      // Past the first connection, an operation goes to ioredis, which refuses it at once.
      expect((await settle(store.read(['k']))).error?.message).toMatch(/^Redis read failed/);
      await late.start();
      await eventually(() => store.write([{ key: 'k', bytes: bytesOf('v') }]));
      expect(textsOf(await store.read(['k']))).toEqual(['v']);
    } finally {
      await store.close();
      await late.stop();
    }
  });

  test('Redis killed: operations reject within a bound, in flight or new; restarted: the same store works', async () => {
    const own = await startRedis();
    const store = redisStore({ url: own.url });
    const other = new Redis(own.url, { enableOfflineQueue: false, retryStrategy: () => 50 });
    other.on('error', () => {});
    try {
      await store.write([{ key: 'k', bytes: bytesOf('before') }]);
      // A command in flight when the server dies: pause it on the server, then kill the server.
      await other.client('PAUSE', 10_000, 'ALL');
      const inFlight = settle(store.read(['k']));
      await sleep(50);
      const killedAt = performance.now();
      await own.kill();
      const pending = await inFlight;
      expect(pending.error?.message).toMatch(/^Redis read failed/);
      expect(performance.now() - killedAt).toBeLessThan(1_000);

      // While it is down every operation is refused at once: nothing queues behind a dead server.
      for (const operation of [
        () => store.read(['k']),
        () => store.read(['k'], { withTtl: true }),
        () => store.write([{ key: 'k', bytes: bytesOf('x') }]),
        () => store.delete(['k']),
      ]) {
        const outcome = await settle(operation());
        expect(outcome.error).toBeInstanceOf(Error);
        expect(outcome.ms).toBeLessThan(200);
      }

      await own.start();
      const back = performance.now();
      await eventually(() => store.write([{ key: 'k', bytes: bytesOf('after') }]));
      // Reconnection retries at least once a second (plus jitter).
      expect(performance.now() - back).toBeLessThan(3_000);
      expect(textsOf(await store.read(['k']))).toEqual(['after']);
      // The write refused while Redis was down was not replayed behind the later one.
      await sleep(100);
      expect(textsOf(await store.read(['k']))).toEqual(['after']);
    } finally {
      other.disconnect();
      await store.close();
      await own.stop();
    }
  }, 20_000);
});

/** Retries `operation` every 50 ms until it resolves (10 s at most). */
async function eventually(operation: () => Promise<unknown>): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await operation();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(50);
    }
  }
}
