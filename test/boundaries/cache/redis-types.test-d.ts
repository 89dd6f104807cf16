import type { Cluster, ClusterNode, ClusterOptions, Redis, RedisOptions } from 'ioredis';
import { describe, expectTypeOf, test } from 'vitest';
import type { RedisStoreOptions } from '../../../src/boundaries/cache/redis-store.js';
import type {
  RedisClientLike,
  RedisClusterNode,
  RedisClusterOptions,
  RedisConnectionOptions,
} from '../../../src/boundaries/cache/redis-types.js';
import type { InvalidationConfig } from '../../../src/boundaries/cache/tiered-store.js';

// The store's types are declared by shape so its declarations need no ioredis; ioredis's own
// types must still fit them, or a user with ioredis could not pass their client or options.
describe('the Redis stores take what ioredis makes', () => {
  test("ioredis's clients are RedisClientLike, and a store's or tier's client", () => {
    expectTypeOf<Redis>().toExtend<RedisClientLike>();
    expectTypeOf<Cluster>().toExtend<RedisClientLike>();
    expectTypeOf<{ client: Redis }>().toExtend<RedisStoreOptions>();
    expectTypeOf<{ client: Cluster }>().toExtend<RedisStoreOptions>();
    expectTypeOf<{ client: Redis }>().toExtend<InvalidationConfig>();
  });

  test("ioredis's options and startup nodes fit the store's", () => {
    expectTypeOf<RedisOptions>().toExtend<RedisConnectionOptions>();
    expectTypeOf<ClusterOptions>().toExtend<RedisClusterOptions>();
    expectTypeOf<ClusterNode>().toExtend<RedisClusterNode>();
    expectTypeOf<{ redisOptions: RedisOptions }>().toExtend<RedisStoreOptions>();
    expectTypeOf<{
      cluster: { nodes: ClusterNode[]; options: ClusterOptions };
    }>().toExtend<RedisStoreOptions>();
  });

  test('the named options are still checked', () => {
    expectTypeOf<{ port: string }>().not.toExtend<RedisConnectionOptions>();
    expectTypeOf<{ status: string }>().not.toExtend<RedisClientLike>();
  });
});
