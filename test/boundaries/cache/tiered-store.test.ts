/**
 * The tiered store: two instances on one real Redis (test/support/redis.ts), each with its own
 * near tier, invalidating each other through real pub/sub. Read-through and near hits (told apart
 * by changing Redis behind the stores' backs), invalidation by writes and deletes, an instance's
 * own messages, near TTLs under the far tier's, the race of an invalidation with a read on its way
 * back from Redis (held at a gate), the subscriber's connection lost and back, Redis killed and
 * restarted, and invalidation across the nodes of a Redis Cluster.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { memoryStore } from '../../../src/boundaries/cache/memory-store.js';
import { redisStore } from '../../../src/boundaries/cache/redis-store.js';
import type { CacheStore } from '../../../src/boundaries/cache/store.js';
import {
  defaultInvalidationChannel,
  type TieredStore,
  type TieredStoreOptions,
  tieredStore,
} from '../../../src/boundaries/cache/tiered-store.js';
import { hasRedis, type RedisServer, startRedis, startRedisCluster } from '../../support/redis.js';

const bytesOf = (text: string) => new TextEncoder().encode(text);
const textOf = (value: { bytes: Uint8Array } | undefined) =>
  value === undefined ? undefined : new TextDecoder().decode(value.bytes);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds (5 s at most). */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(10);
  }
}

/**
 * Runs `change` (writes or deletes on another instance) and waits until `listener` has heard of it.
 * Until then a read of `listener` may keep a value that the late invalidation then drops again.
 */
async function heard(listener: TieredStore, change: () => Promise<void>): Promise<void> {
  const before = listener.stats().invalidationsReceived;
  await change();
  await until(() => listener.stats().invalidationsReceived > before, 'the invalidation arrives');
}

async function readText(store: CacheStore, key: string): Promise<string | undefined> {
  return textOf((await store.read([key]))[0]);
}

/** A far tier whose next read (or write), once Redis has answered it, waits at a gate until released. */
function gated(inner: CacheStore) {
  let gate: { operation: 'read' | 'write'; arrived: () => void; opened: Promise<void> } | undefined;
  const pass = async (operation: 'read' | 'write') => {
    const held = gate;
    if (held?.operation !== operation) return;
    gate = undefined;
    held.arrived();
    await held.opened;
  };
  const store: CacheStore = {
    kind: inner.kind,
    async read(keys, options) {
      const values = await inner.read(keys, options);
      await pass('read');
      return values;
    },
    async write(entries) {
      await inner.write(entries);
      await pass('write');
    },
    delete: (keys) => inner.delete(keys),
    close: () => inner.close(),
  };
  const hold = (operation: 'read' | 'write' = 'read') => {
    let arrived = () => {};
    let open = () => {};
    const atGate = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    gate = { operation, arrived, opened };
    return { atGate, open };
  };
  return { store, hold };
}

describe.skipIf(!hasRedis())('tieredStore', () => {
  let server: RedisServer;
  let admin: Redis;
  const opened: TieredStore[] = [];

  const instance = (options: Partial<TieredStoreOptions> = {}, url = server.url) => {
    const store = tieredStore({
      near: memoryStore(),
      far: redisStore({ url }),
      invalidation: { url },
      ...options,
    });
    opened.push(store);
    return store;
  };

  beforeAll(async () => {
    server = await startRedis();
    admin = new Redis(server.url);
  }, 30_000);

  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close()));
    admin?.disconnect();
    await server?.stop();
  });

  test('reads go through to Redis and stay in the near tier; writes and deletes invalidate the other instance', async () => {
    const a = instance();
    const b = instance();
    await Promise.all([a.subscribed(), b.subscribed()]);
    expect(a.kind).toBe('tiered');
    expect(a.instanceId).not.toBe(b.instanceId);

    await heard(b, () => a.write([{ key: 'k', bytes: bytesOf('v1') }]));
    expect(await admin.get('k')).toBe('v1');
    expect(await readText(b, 'k')).toBe('v1');
    expect(b.stats().near.entries).toBe(1);
    // A near hit: Redis changed behind the stores' backs, and b still answers from its near tier.
    await admin.set('k', 'behind');
    expect(await readText(b, 'k')).toBe('v1');

    await heard(b, () => a.write([{ key: 'k', bytes: bytesOf('v2') }]));
    expect(await readText(b, 'k')).toBe('v2');

    await heard(b, () => a.delete(['k']));
    expect(await readText(b, 'k')).toBeUndefined();
    expect(a.stats().invalidationsSent).toBe(3);
    expect(b.stats().invalidationsReceived).toBe(3);
  });

  test('an instance ignores its own invalidations and keeps what it wrote', async () => {
    const a = instance();
    const b = instance();
    await Promise.all([a.subscribed(), b.subscribed()]);
    // Once b has the message, a has had its own too.
    await heard(b, () =>
      a.write([
        { key: 'own:1', bytes: bytesOf('mine') },
        { key: 'own:2', bytes: bytesOf('mine too') },
      ]),
    );
    await sleep(20);
    expect(a.stats().invalidationsReceived).toBe(0);
    await admin.del('own:1', 'own:2');
    expect((await a.read(['own:1', 'own:2'])).map(textOf)).toEqual(['mine', 'mine too']);
  });

  test('the near tier keeps a value no longer than the far TTL left or nearTtlMs, and reports the far TTL', async () => {
    const a = instance();
    const b = instance({ nearTtlMs: 300 });
    await Promise.all([a.subscribed(), b.subscribed()]);
    await heard(b, () =>
      a.write([
        { key: 'ttl:long', bytes: bytesOf('long'), ttlMs: 20_000 },
        { key: 'ttl:short', bytes: bytesOf('short'), ttlMs: 150 },
      ]),
    );
    const [long, short] = await b.read(['ttl:long', 'ttl:short'], { withTtl: true });
    expect(long?.ttlMs).toBeGreaterThan(19_000);
    expect(short?.ttlMs).toBeLessThanOrEqual(150);
    // From the near tier now (Redis no longer has it), still with what Redis had left.
    await admin.del('ttl:long');
    const [again] = await b.read(['ttl:long'], { withTtl: true });
    expect(textOf(again)).toBe('long');
    expect(again?.ttlMs).toBeGreaterThan(19_000);
    expect((await b.read(['ttl:long']))[0]).toEqual({ bytes: bytesOf('long') });
    // nearTtlMs passes: b asks Redis again, which has nothing.
    await sleep(350);
    expect(await b.read(['ttl:long', 'ttl:short'])).toEqual([undefined, undefined]);
  });

  test('an invalidation that arrives while a read is on its way back keeps the older value out of the near tier', async () => {
    const a = instance();
    const far = gated(redisStore({ url: server.url }));
    const b = instance({ far: far.store });
    await Promise.all([a.subscribed(), b.subscribed()]);
    await heard(b, () => a.write([{ key: 'race', bytes: bytesOf('old') }]));

    const gate = far.hold();
    const reading = b.read(['race']);
    await gate.atGate; // Redis has answered 'old'; the answer waits here.
    await heard(b, () => a.write([{ key: 'race', bytes: bytesOf('new') }]));
    gate.open();
    // The read that started before the write answers what it found...
    expect(textOf((await reading)[0])).toBe('old');
    // ...but did not keep it: the next read goes to Redis.
    expect(b.stats().near.entries).toBe(0);
    expect(await readText(b, 'race')).toBe('new');
  });

  test("a write of the instance's own while its read is on the way back wins over that read", async () => {
    const far = gated(redisStore({ url: server.url }));
    const b = instance({ far: far.store });
    await b.subscribed();
    await admin.set('own-race', 'old');
    const gate = far.hold();
    const reading = b.read(['own-race']);
    await gate.atGate;
    await b.write([{ key: 'own-race', bytes: bytesOf('new') }]);
    gate.open();
    expect(textOf((await reading)[0])).toBe('old');
    await admin.set('own-race', 'behind');
    // The near tier holds b's write, not the read's older value.
    expect(await readText(b, 'own-race')).toBe('new');
  });

  test("a write of the instance's own, overtaken in Redis by another's before it is answered, is not kept", async () => {
    const far = gated(redisStore({ url: server.url }));
    const a = instance({ far: far.store });
    const b = instance();
    await Promise.all([a.subscribed(), b.subscribed()]);
    const gate = far.hold('write');
    const writing = a.write([{ key: 'overtaken', bytes: bytesOf('first') }]);
    await gate.atGate; // Redis has a's value; a has not heard back yet.
    await heard(a, () => b.write([{ key: 'overtaken', bytes: bytesOf('second') }]));
    gate.open();
    await writing;
    expect(await admin.get('overtaken')).toBe('second');
    expect(await readText(a, 'overtaken')).toBe('second');
  });

  test('the subscriber losing its connection clears the near tier, which is used again once subscribed', async () => {
    const b = instance();
    await b.subscribed();
    await b.write([{ key: 'lost', bytes: bytesOf('before') }]);
    await admin.set('lost', 'behind');
    expect(await readText(b, 'lost')).toBe('before');
    const clears = b.stats().nearClears;
    await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    await until(() => b.stats().nearClears > clears, 'the near tier is cleared');
    await b.subscribed();
    // Whatever changed while it could not hear is read from Redis.
    expect(await readText(b, 'lost')).toBe('behind');
    await admin.set('lost', 'behind again');
    expect(await readText(b, 'lost')).toBe('behind');
  });

  test('a message on the channel that is not an invalidation is counted and reported, nothing else', async () => {
    const errors: Error[] = [];
    const b = instance({ onError: (error) => errors.push(error) });
    await b.subscribed();
    await b.write([{ key: 'bad', bytes: bytesOf('kept') }]);
    for (const message of ['not json', '{"i":"x"}', '{"i":"x","k":[1]}', 'null']) {
      await admin.publish(defaultInvalidationChannel, message);
    }
    await until(() => b.stats().badMessages === 4, 'the messages arrive');
    expect(errors).toHaveLength(4);
    await admin.set('bad', 'behind');
    expect(await readText(b, 'bad')).toBe('kept');
  });

  test('Redis killed: reads do not fall back on a near tier that cannot hear; restarted: the same store works', async () => {
    const own = await startRedis();
    const a = instance({}, own.url);
    try {
      await a.subscribed();
      await a.write([{ key: 'k', bytes: bytesOf('v') }]);
      await own.kill();
      await until(() => !a.stats().subscribed, 'the subscription is lost');
      expect(a.stats().near.entries).toBe(0);
      const started = performance.now();
      await expect(a.read(['k'])).rejects.toThrow(/^Redis read failed/);
      await expect(a.write([{ key: 'k', bytes: bytesOf('w') }])).rejects.toThrow(/^Redis write failed/);
      expect(performance.now() - started).toBeLessThan(500);
      await own.start();
      await a.subscribed();
      await until(
        () =>
          a.write([{ key: 'k', bytes: bytesOf('again') }]).then(
            () => true,
            () => false,
          ),
        'writes succeed',
      );
      expect(await readText(a, 'k')).toBe('again');
      expect(a.stats().near.entries).toBe(1);
    } finally {
      await a.close();
      await own.stop();
    }
  }, 20_000);

  test('close() closes both tiers and the connections it made; then everything rejects', async () => {
    const clients = async () =>
      String(await admin.client('LIST'))
        .split('\n')
        .filter(Boolean).length;
    const before = await clients();
    const near = memoryStore();
    const store = tieredStore({
      near,
      far: redisStore({ url: server.url }),
      invalidation: { url: server.url },
    });
    await store.subscribed();
    await store.write([{ key: 'c', bytes: bytesOf('c') }]);
    expect(await clients()).toBe(before + 3);
    await store.close();
    await until(async () => (await clients()) === before, 'the connections are gone');
    await expect(store.read(['c'])).rejects.toThrow(/closed/);
    await expect(near.read(['c'])).rejects.toThrow(/closed/);
  });

  test('a Redis Cluster as the far tier, the instances listening on different nodes', async () => {
    const cluster = await startRedisCluster();
    const [first, second] = cluster.nodes as [RedisServer, RedisServer];
    const on = (node: RedisServer) =>
      tieredStore({
        near: memoryStore(),
        far: redisStore({ cluster: { nodes: [...cluster.startupNodes] } }),
        invalidation: { url: node.url },
      });
    const a = on(first);
    const b = on(second);
    try {
      await Promise.all([a.subscribed(), b.subscribed()]);
      const keys = Array.from({ length: 200 }, (_, i) => `spread:${i}`);
      await heard(b, () => a.write(keys.map((key) => ({ key, bytes: bytesOf('one') }))));
      expect((await b.read(keys)).every((value) => textOf(value) === 'one')).toBe(true);
      expect(b.stats().near.entries).toBe(200);
      // Published through a's node, heard on b's.
      await heard(b, () => a.write(keys.map((key) => ({ key, bytes: bytesOf('two') }))));
      expect(b.stats().near.entries).toBe(0);
      expect((await b.read(keys)).every((value) => textOf(value) === 'two')).toBe(true);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await cluster.stop();
    }
  }, 30_000);
});
