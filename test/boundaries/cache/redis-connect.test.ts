/**
 * Connecting to Redis, against a real redis-server (test/support/redis.ts): connecting has its own
 * timeout (`connectTimeoutMs`), apart from the cache's per-operation `timeoutMs`, so the first
 * operations of a new process wait for the connection rather than miss; `ready()` resolves once
 * connected and rejects with WK_CACHE_CONNECT_FAILED, naming the address, when the connection is
 * refused or not ready in time. A slow connection is a TCP proxy that holds each connection before
 * it forwards anything (test/support/servers/delaying-proxy.ts), not a stand-in for ioredis.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createCache } from '../../../src/boundaries/cache/cache.js';
import { redisStore } from '../../../src/boundaries/cache/redis-store.js';
import { isWirekitError } from '../../../src/errors/index.js';
import { hasRedis, type RedisServer, startRedis } from '../../support/redis.js';
import { type DelayingProxy, startDelayingProxy } from '../../support/servers/delaying-proxy.js';
import { freePort } from '../../support/servers/free-port.js';

const value = { greeting: 'hello', n: 42 };

/** How a promise settled: its error, if it rejected. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('it resolved');
}

describe.skipIf(!hasRedis())('connecting to Redis', () => {
  let server: RedisServer;

  beforeAll(async () => {
    server = await startRedis();
    // A generous timeout: what is tested is the reader's first operation, not this write.
    const writer = createCache({ store: redisStore({ url: server.url }), timeoutMs: 10_000 });
    expect(await writer.set('greeting', value)).toBe(true);
    await writer.close();
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
  });

  test("a new process's first get hits, six processes out of six", async () => {
    const runs = [];
    for (let i = 0; i < 6; i++) runs.push(await firstGetInNewProcess({ url: server.url, key: 'greeting' }));
    expect(runs).toEqual(Array.from({ length: 6 }, () => ({ value, problems: [] })));
  }, 120_000);

  test('ready() resolves once connected, on the store and on the cache', async () => {
    const store = redisStore({ url: server.url });
    const cache = createCache({ store });
    try {
      await cache.ready();
      await store.ready();
      expect(((await store.client()) as { status: string }).status).toBe('ready');
      expect(await cache.get('greeting')).toEqual(value);
    } finally {
      await cache.close();
    }
  });

  test('ready() on a closed port rejects with WK_CACHE_CONNECT_FAILED naming host:port, before the timeout', async () => {
    const port = await freePort();
    const cache = createCache({
      store: redisStore({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 60_000 }),
    });
    try {
      const error = await rejection(cache.ready());
      expect(isWirekitError(error, 'WK_CACHE_CONNECT_FAILED')).toBe(true);
      expect((error as Error).message).toBe(
        `cannot connect to Redis at 127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}.`,
      );
      expect((error as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      await cache.close();
    }
  });

  describe('through a proxy that delays each connection', () => {
    let slow: DelayingProxy;
    let silent: DelayingProxy;

    beforeAll(async () => {
      // Four times the cache's default operation timeout (250 ms), well within the connect timeout (5 s).
      slow = await startDelayingProxy(server.port, 1_000);
      silent = await startDelayingProxy(server.port, Number.POSITIVE_INFINITY);
    });

    afterAll(async () => {
      await slow?.close();
      await silent?.close();
    });

    test('operations issued while connecting wait for the connection, then hit', async () => {
      const events: string[] = [];
      const cache = createCache({
        store: redisStore({ url: slow.url }),
        onEvent: (event) => events.push(`${event.operation} ${event.outcome} ${event.reason ?? ''}`.trim()),
      });
      try {
        const found = await Promise.all([
          cache.get('greeting'),
          cache.getMany(['greeting', 'nothing']),
          cache.getOrSet('greeting', () => ({ greeting: 'loaded', n: 0 })),
        ]);
        expect(found).toEqual([value, [value, undefined], value]);
        expect(events.sort()).toEqual(['get hit', 'getMany hit', 'getMany miss', 'getOrSet hit']);
      } finally {
        await cache.close();
      }
    });

    test('a connection not ready within connectTimeoutMs: ready() rejects, operations miss with it as the cause', async () => {
      const problems: unknown[] = [];
      const cache = createCache({
        store: redisStore({ url: silent.url, connectTimeoutMs: 300 }),
        onError: (error, event) =>
          problems.push({ code: event.code, reason: event.reason, cause: error.cause }),
      });
      try {
        const [error, found] = await Promise.all([rejection(cache.ready()), cache.get('greeting')]);
        expect(isWirekitError(error, 'WK_CACHE_CONNECT_FAILED')).toBe(true);
        expect((error as Error).message).toBe(
          `Redis at 127.0.0.1:${silent.port} was not ready within 300 ms (connectTimeoutMs).`,
        );
        expect(found).toBeUndefined();
        expect(problems).toEqual([
          {
            code: 'WK_CACHE_STORE_UNAVAILABLE',
            reason: 'store',
            cause: expect.objectContaining({ code: 'WK_CACHE_CONNECT_FAILED' }),
          },
        ]);
      } finally {
        await cache.close();
      }
    });
  });
});

/** first-get.mjs (a cache's first get, from the built dist/) in a fresh plain Node process. */
function firstGetInNewProcess(input: { url: string; key: string }): Promise<unknown> {
  const script = fileURLToPath(new URL('first-get.mjs', import.meta.url));
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
      if (code === 0) resolve(JSON.parse(stdout.trim().split('\n').pop() ?? 'null'));
      else reject(new Error(`first-get.mjs exited with ${code}: ${stderr}`));
    });
  });
}
