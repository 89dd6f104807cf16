/** The prom-client adapter: the cache's events as Prometheus series, several caches in one registry. */
import { Registry } from 'prom-client';
import { describe, expect, test } from 'vitest';
import { createCache } from '../../../src/boundaries/cache/index.js';
import { prometheusCacheEvents } from '../../../src/boundaries/cache/prometheus.js';
import { Product, products } from '../../../src/lab/datasets/index.js';

describe('prometheusCacheEvents', () => {
  test('counts outcomes, observes loop time and bytes, labels each cache', async () => {
    const registry = new Registry();
    const [item] = products(1);
    const a = createCache({
      schema: Product,
      compression: 'snappy',
      onEvent: prometheusCacheEvents({ registry, cache: 'a' }),
    });
    const b = createCache({
      schema: Product,
      format: 'json',
      onEvent: prometheusCacheEvents({ registry, cache: 'b' }),
    });
    await a.set('p', item as NonNullable<typeof item>);
    await a.get('p');
    await a.get('missing');
    await b.get('missing');
    const text = await registry.metrics();
    expect(text).toContain(
      'wirekit_cache_operations_total{cache="a",operation="set",outcome="written",format="avro"} 1',
    );
    expect(text).toContain(
      'wirekit_cache_operations_total{cache="a",operation="get",outcome="hit",format="avro"} 1',
    );
    expect(text).toContain(
      'wirekit_cache_operations_total{cache="a",operation="get",outcome="miss",format=""} 1',
    );
    expect(text).toContain(
      'wirekit_cache_operations_total{cache="b",operation="get",outcome="miss",format=""} 1',
    );
    expect(text).toMatch(
      /wirekit_cache_loop_seconds_count\{cache="a",operation="set",step="codec",format="avro"\} 1/,
    );
    expect(text).toMatch(
      /wirekit_cache_loop_seconds_count\{cache="a",operation="get",step="compression",format="snappy"\} 1/,
    );
    const sum = /wirekit_cache_value_bytes_sum\{cache="a",operation="set",format="avro"\} (\d+)/.exec(text);
    expect(Number(sum?.[1])).toBeGreaterThan(500);
  });
});
