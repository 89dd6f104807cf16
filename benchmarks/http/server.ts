/**
 * The server side of the HTTP load benchmark, run as a process of its own so that the load
 * generator does not share its event loop: the `users` dataset as one reply in every format, and a
 * streamed `timeseries` route. It samples its own heap while a stream runs and reports the peak at
 * GET /__stats. Prints `listening <port>` when ready.
 *
 *   node build/benchmarks/http/server.js [--users 100,10000]
 */
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { wirekit, wirekitRoute } from 'wirekit-ts/http';
import { flatten, Reading, User, users } from 'wirekit-ts/lab';
import { t } from 'wirekit-ts/schema';

const { values } = parseArgs({ options: { users: { type: 'string', default: '100,10000' } } });
const sizes = values.users.split(',').map(Number);
const lists = new Map(sizes.map((size) => [size, flatten(users(size, 1))]));

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024 });
await app.register(wirekit, { compression: false });

app.route(
  wirekitRoute({
    method: 'GET',
    url: '/users',
    reply: t.array(User),
    handler: async (request) => lists.get(Number((request.query as { count?: string }).count)) ?? [],
  }),
);

let peakHeap = 0;
let peakRss = 0;
let sampler: NodeJS.Timeout | undefined;
const sample = () => {
  const { heapUsed, rss } = process.memoryUsage();
  peakHeap = Math.max(peakHeap, heapUsed);
  peakRss = Math.max(peakRss, rss);
};

app.route(
  wirekitRoute({
    method: 'GET',
    url: '/timeseries',
    stream: Reading,
    batchSize: 16_384,
    // Memory is sampled every 10 ms from the handler until the reply has gone (onResponse).
    onResponse: async () => {
      clearInterval(sampler);
      sample();
    },
    handler: async (request) => {
      sampler = setInterval(sample, 10);
      // A synchronous generator: rows are made as the socket takes them, batch by batch.
      return readings(Number((request.query as { rows?: string }).rows ?? 1_000_000));
    },
  }),
);
app.get('/__stats', async () => {
  const stats = { peakHeapMb: peakHeap / 2 ** 20, peakRssMb: peakRss / 2 ** 20 };
  peakHeap = 0;
  peakRss = 0;
  return stats;
});

function* readings(count: number) {
  const start = Date.UTC(2026, 0, 1);
  const devices = Array.from({ length: 100 }, (_, i) => `device-${String(i).padStart(3, '0')}`);
  for (let i = 0; i < count; i++) {
    yield {
      timestamp: new Date(start + i * 10),
      deviceId: devices[i % 100] as string,
      temperature: Math.round((20 + ((i * 7919) % 1000) / 100) * 100) / 100,
      humidity: Math.round((0.3 + ((i * 104729) % 500) / 1000) * 100) / 100,
    };
  }
}

const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening ${new URL(address).port}\n`);
