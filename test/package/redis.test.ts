/**
 * The packed package with ioredis and prom-client (both CommonJS), as a user's Node runs it
 * (test/support/packed-package.ts), against a real redis-server: the Redis store under a tiered
 * store and its invalidation, the Prometheus metrics, and `wirekit inspect redis://`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { installPacked, type PackedProject } from '../support/packed-package.js';
import { hasRedis, type RedisServer, startRedis } from '../support/redis.js';

describe.skipIf(!hasRedis())('the packed package with ioredis and prom-client, in plain Node', () => {
  let server: RedisServer;
  let project: PackedProject;

  beforeAll(async () => {
    project = installPacked();
    server = await startRedis();
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    project?.remove();
  });

  test('two tiered stores share Redis and invalidate each other; prom-client counts every event', async () => {
    const result = await project.runScript<{ first: unknown; second: unknown; hits: string[] }>(
      'redis-cache.mjs',
      { url: server.url },
    );
    expect(result.first).toEqual({ id: 1, title: 'lamp', price: 24.5 });
    expect(result.second).toEqual({ id: 1, title: 'lamp', price: 19.9 });
    expect(result.hits).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^wirekit_cache_operations_total\{cache="a",operation="set",outcome="written",.*\} 2$/,
        ),
        expect.stringMatching(
          /^wirekit_cache_operations_total\{cache="b",operation="get",outcome="hit",.*\} 2$/,
        ),
      ]),
    );

    const inspected = await project.runCli(['inspect', `${server.url}/product:1`, '--json']);
    expect(inspected.stderr).toBe('');
    expect(inspected.code).toBe(0);
    expect(JSON.parse(inspected.stdout)).toMatchObject({ key: 'product:1', detected: 'envelope' });
  }, 60_000);
});
