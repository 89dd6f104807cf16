/**
 * The public gateway: JSON for people (browsers, curl, webhooks), and a binary format on the hop
 * to the internal service, through the wirekit client. Switching that hop's format is one setting
 * (INTERNAL_FORMAT); no handler changes.
 *
 *   INTERNAL_URL=http://127.0.0.1:3001 INTERNAL_FORMAT=msgpack PORT=3000 npx tsx examples/http/gateway.ts
 */
import Fastify from 'fastify';
import { allFormats, type FormatName } from 'wirekit-ts/codecs';
import { createClient, HttpResponseError, wirekit, wirekitRoute } from 'wirekit-ts/http';
// The bench's datasets, which the package does not export: fixtures of this repository.
import { Reading } from 'wirekit-ts/lab';
import { t } from 'wirekit-ts/schema';
import { getUser, listUsers, timeseries } from './endpoints.js';

const PublicUser = t.object('PublicUser', {
  id: t.uint32(),
  name: t.string(),
  country: t.string(),
  memberSince: t.timestamp(),
});

export async function startGateway(port: number, internalUrl: string, internalFormat: FormatName) {
  const internal = createClient({ baseUrl: internalUrl, format: internalFormat, codecs: allFormats });
  const app = Fastify({ logger: false });
  // The public side speaks JSON (and NDJSON for streams) only: people read it.
  await app.register(wirekit, { formats: ['json'] });

  app.route(
    wirekitRoute({
      method: 'GET',
      url: '/api/users',
      query: t.object('PublicFilter', {
        country: t.field(t.string({ maxLength: 2 }), { default: 'DE' }),
        limit: t.field(t.uint16(), { default: 20 }),
      }),
      reply: t.array(PublicUser),
      handler: async (request) => {
        const found = await internal.call(listUsers, { query: request.query });
        return found.map((user) => ({
          id: user.id,
          name: user.name,
          country: user.country,
          memberSince: user.createdAt,
        }));
      },
    }),
  );

  app.route(
    wirekitRoute({
      method: 'GET',
      url: '/api/users/:id',
      params: getUser.params,
      reply: PublicUser,
      handler: async (request, reply) => {
        try {
          const user = await internal.call(getUser, { params: request.params });
          return { id: user.id, name: user.name, country: user.country, memberSince: user.createdAt };
        } catch (error) {
          if (error instanceof HttpResponseError && error.status === 404) return reply.code(404).send();
          throw error;
        }
      },
    }),
  );

  // Rows stream through: each one is passed on as soon as it arrives from the internal service,
  // and a client that leaves stops the internal stream too (the signal aborts the upstream fetch).
  app.route(
    wirekitRoute({
      method: 'GET',
      url: '/api/timeseries',
      query: t.object('PublicWindow', { rows: t.field(t.uint32(), { default: 1000 }) }),
      stream: Reading,
      handler: async (request) =>
        internal.stream(timeseries.url, {
          row: timeseries.stream,
          query: request.query,
          signal: request.wirekit?.signal,
        }),
    }),
  );

  await app.listen({ host: '127.0.0.1', port });
  return app;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.env.PORT ?? 3000);
  const format = (process.env.INTERNAL_FORMAT ?? 'msgpack') as FormatName;
  await startGateway(port, process.env.INTERNAL_URL ?? 'http://127.0.0.1:3001', format);
  console.log(`gateway on http://127.0.0.1:${port} (internal hop: ${format})`);
}
