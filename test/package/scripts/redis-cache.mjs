// The Redis cache store, the tiered store's invalidation and the prom-client metrics, from the
// installed package in plain Node: two instances share a Redis; one writes, the other reads it,
// one overwrites it and the other sees the change; every event is counted in a prom-client registry.

import { Registry } from 'prom-client';
import { createCache, memoryStore, redisStore, tieredStore } from 'wirekit-ts/cache';
import { prometheusCacheEvents } from 'wirekit-ts/cache/prometheus';
import { t } from 'wirekit-ts/schema';

const { url } = JSON.parse(process.argv[2]);
const Product = t.object('Product', { id: t.uint32(), title: t.string(), price: t.float64() });
const registry = new Registry();

const instance = (name) => {
  const store = tieredStore({
    near: memoryStore(),
    far: redisStore({ url }),
    invalidation: { url },
  });
  const cache = createCache({
    store,
    schema: Product,
    ttl: 60,
    onEvent: prometheusCacheEvents({ registry, cache: name }),
  });
  return { store, cache };
};

const a = instance('a');
const b = instance('b');
await Promise.all([a.store.subscribed(), b.store.subscribed()]);

await a.cache.set('product:1', { id: 1, title: 'lamp', price: 24.5 });
const first = await b.cache.get('product:1');
// The first set's invalidation may reach b before or after its first get: wait for the second's.
const received = b.store.stats().invalidationsReceived;
await a.cache.set('product:1', { id: 1, title: 'lamp', price: 19.9 });
const deadline = Date.now() + 5_000;
while (b.store.stats().invalidationsReceived === received && Date.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, 10));
}
const second = await b.cache.get('product:1');
await Promise.all([a.cache.close(), b.cache.close()]);

const metrics = await registry.metrics();
const hits = metrics.split('\n').filter((line) => line.startsWith('wirekit_cache_operations_total{'));
console.log(JSON.stringify({ first, second, hits }));
