// A new process's first cache operation: a `get` of a key the test wrote, through a Redis store
// made in this process, with the cache's default timeouts, from the built dist/ in plain Node.
// redis-connect.test.ts runs it several times; by hand:
// node test/boundaries/cache/first-get.mjs '{"url":"redis://127.0.0.1:6379","key":"k"}'
import { createCache, redisStore } from '../../../dist/boundaries/cache/index.js';

const { url, key } = JSON.parse(process.argv[2]);
const problems = [];
const cache = createCache({
  store: redisStore({ url }),
  onError: (error, event) =>
    problems.push({ code: error.code, reason: event.reason, message: error.message }),
});
const value = await cache.get(key);
await cache.close();
console.log(JSON.stringify({ value: value ?? null, problems }));
