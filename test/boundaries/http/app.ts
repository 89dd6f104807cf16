/**
 * The Fastify app the HTTP tests drive: one route of each kind the plugin serves, plus a plain
 * Fastify route to show that the plugin leaves other routes alone.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { type WirekitPluginOptions, wirekit, wirekitRoute } from '../../../src/boundaries/http/index.js';
import { Reading } from '../../../src/lab/datasets/timeseries.js';
import { User, users } from '../../../src/lab/datasets/users.js';
import { t } from '../../../src/schema/index.js';

export const sampleUsers = users(40, 7);
export const UserList = t.array(User);
export const Note = t.object('Note', { text: t.string({ maxLength: 50 }) });

export interface Producer {
  produced: number;
  finished: boolean;
  /** Resolves when the producer's finally block has run. */
  done: Promise<void>;
}

/** The reading at `i` of what GET /readings streams. */
function readingAt(i: number) {
  return {
    timestamp: new Date(1_700_000_000_000 + i * 1000),
    deviceId: `d${i % 7}`,
    temperature: 20 + (i % 10) / 4,
    humidity: 0.5,
  };
}

/** The readings that GET /readings?count=N streams, as a list. */
export function readings(count: number) {
  return Array.from({ length: count }, (_, i) => readingAt(i));
}

/** GET `url` from `app` asking for `accept`: the response, and its body as bytes. */
export async function getBytes(app: FastifyInstance, url: string, accept: string) {
  const response = await app.inject({ method: 'GET', url, headers: { accept } });
  return { response, bytes: new Uint8Array(response.rawPayload) };
}

/** Readings 0..count-1, counting what was produced; `pause` waits before each row after the first. */
function readingRows(count: number, producer: Producer, pause?: () => Promise<void>) {
  let finish: () => void = () => {};
  producer.done = new Promise((resolve) => {
    finish = resolve;
  });
  return (async function* () {
    try {
      for (let i = 0; i < count; i++) {
        if (i > 0 && pause !== undefined) await pause();
        producer.produced++;
        yield readingAt(i);
      }
    } finally {
      producer.finished = true;
      finish();
    }
  })();
}

export async function buildApp(
  plugin: WirekitPluginOptions = {},
  server: FastifyServerOptions = {},
  hooks: { producer?: Producer; pause?: () => Promise<void> } = {},
): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, ...server });
  await app.register(wirekit, plugin);
  app.route(
    wirekitRoute({ method: 'GET', url: '/users', reply: UserList, handler: async () => sampleUsers }),
  );
  app.route(
    wirekitRoute({
      method: 'POST',
      url: '/users',
      body: User,
      reply: User,
      handler: async (request) => ({ ...request.body, name: request.body.name.toUpperCase() }),
    }),
  );
  app.route(
    wirekitRoute({
      method: 'POST',
      url: '/small',
      bodyLimit: 1000,
      body: Note,
      reply: t.object('Length', { length: t.uint32() }),
      handler: async (request) => ({ length: request.body.text.length }),
    }),
  );
  // No schemas: the schemaless formats only.
  app.route(
    wirekitRoute({
      method: 'POST',
      url: '/echo',
      body: undefined,
      handler: async (request) => request.body ?? null,
    }),
  );
  app.route(
    wirekitRoute({
      method: 'GET',
      url: '/readings',
      stream: Reading,
      batchSize: 100,
      handler: async (request) => {
        const count = Number((request.query as { count?: string }).count ?? 250);
        const producer = hooks.producer ?? { produced: 0, finished: false, done: Promise.resolve() };
        return readingRows(count, producer, hooks.pause);
      },
    }),
  );
  app.post('/plain', async (request) => ({ got: request.body }));
  app.get('/fails', { config: { wirekit: { reply: User } } }, async () => {
    throw new Error('database password is hunter2');
  });
  return app;
}
