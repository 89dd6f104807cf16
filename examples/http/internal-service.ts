/**
 * The internal service: serves the `users` dataset and a streamed `timeseries` route in every
 * format wirekit speaks. The handlers return plain values and rows; the plugin picks the format
 * from each request's Accept header.
 *
 *   PORT=3001 npx tsx examples/http/internal-service.ts
 */
import Fastify from 'fastify';
import { wirekit, wirekitRoute } from 'wirekit-ts/http';
// The bench's datasets, which the package does not export: fixtures of this repository.
import { users } from 'wirekit-ts/lab';
import { getUser, listUsers, timeseries } from './endpoints.js';

const everyone = users(10_000, 1);
const byId = new Map(everyone.map((user) => [user.id, user]));

export async function startInternalService(port: number) {
  const app = Fastify({ logger: false });
  await app.register(wirekit); // every format; JSON for requests without a preference

  app.route(
    wirekitRoute({
      ...listUsers,
      handler: async (request) => {
        const { country, limit } = request.query; // string | undefined, number | undefined
        const chosen = country === undefined ? everyone : everyone.filter((user) => user.country === country);
        return chosen.slice(0, limit ?? chosen.length);
      },
    }),
  );

  app.route(
    wirekitRoute({
      ...getUser,
      handler: async (request, reply) => {
        const user = byId.get(request.params.id); // a number: /users/abc is a 400 naming params.id
        if (user === undefined) return reply.code(404).send();
        return user;
      },
    }),
  );

  // Rows are made as the client reads them: memory stays at one batch however many are asked for.
  app.route(
    wirekitRoute({
      ...timeseries,
      batchSize: 8192,
      handler: async (request) => readings(request.query.rows, request.wirekit?.signal),
    }),
  );

  await app.listen({ host: '127.0.0.1', port });
  return app;
}

/** Sensor readings from 50 devices, one per second each, until `count` or the client leaves. */
function* readings(count: number, signal: AbortSignal | undefined) {
  const start = Date.UTC(2026, 0, 1);
  for (let i = 0; i < count && signal?.aborted !== true; i++) {
    yield {
      timestamp: new Date(start + Math.floor(i / 50) * 1000),
      deviceId: `sensor-${i % 50}`,
      temperature: Math.round((20 + 5 * Math.sin(i / 5000) + (i % 7) / 10) * 100) / 100,
      humidity: Math.round((0.4 + 0.1 * Math.cos(i / 3000)) * 100) / 100,
    };
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.env.PORT ?? 3001);
  await startInternalService(port);
  console.log(`internal service on http://127.0.0.1:${port}`);
}
