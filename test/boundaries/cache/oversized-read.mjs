// One cache read of a key whose value is larger than the cache's maxValueBytes, in a fresh plain
// Node process (the built dist/), and what it cost this process: how it ended, how long it took,
// and how much resident memory and ArrayBuffer memory grew. oversized-values.test.ts runs it; run
// it by hand to measure (node test/boundaries/cache/oversized-read.mjs '{"url":"redis://…","key":"big"}').
import { createCache, redisStore } from '../../../dist/boundaries/cache/index.js';

const { url, key, timeoutMs, many } = JSON.parse(process.argv[2]);
const mib = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;

let problems = [];
const cache = createCache({
  store: redisStore({ url }),
  ...(timeoutMs === undefined ? {} : { timeoutMs }),
  onError: (error, event) =>
    problems.push({ code: error.code, outcome: event.outcome, reason: event.reason, bytes: event.bytes }),
});
// The connection is made, and a small key read, before the measurement starts.
await cache.get('warm-up');
problems = [];
const before = process.memoryUsage();
const started = performance.now();
const value = many ? await cache.getMany(['warm-up', key]) : await cache.get(key);
const ms = performance.now() - started;
const after = process.memoryUsage();
// Closing waits for the replies under way, so the peak includes a transfer the timeout gave up on.
await cache.close();
const maxRss = process.resourceUsage().maxRSS * 1024;
console.log(
  JSON.stringify({
    value: value === undefined ? null : Array.isArray(value) ? value.map((v) => v ?? null) : 'a value',
    problems,
    ms: Math.round(ms),
    rssBeforeMiB: mib(before.rss),
    rssAfterMiB: mib(after.rss),
    maxRssMiB: mib(maxRss),
    arrayBuffersGrowthMiB: mib(after.arrayBuffers - before.arrayBuffers),
  }),
);
