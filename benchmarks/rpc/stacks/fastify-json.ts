/**
 * The edge's baseline: plain Fastify over HTTP/1.1, a JSON body POSTed to the method's path and a
 * JSON reply written by Fastify's default serializer (JSON.stringify), the users as the application
 * holds them (Dates become ISO strings). No stream: a JSON POST has one reply.
 */
import Fastify from 'fastify';
import { benchUsers, serviceName, type Workload } from '../service.js';
import { anyId, Payload, type RunningStack, type StackOptions } from './stack.js';

export async function startFastifyJson(options: StackOptions): Promise<RunningStack> {
  if (options.codec !== 'json') throw new Error('plain Fastify: json only');
  const payload = new Payload(
    benchUsers(options.users),
    (user) => user.id,
    (list) => ({ users: list }),
  );
  const app = Fastify({ logger: false, bodyLimit: 4 * 2 ** 20 });
  app.post<{ Body: { id: number } }>(`/${serviceName}/GetUser`, async (request) =>
    payload.user(request.body.id),
  );
  app.post<{ Body: { count: number } }>(`/${serviceName}/ListUsers`, async (request) =>
    payload.list(request.body.count),
  );
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const first = payload.user(anyId(payload));
  return {
    port: Number(new URL(address).port),
    serializeOnce(workload: Workload) {
      if (workload === 'small') JSON.stringify(first);
      else if (workload === 'list') JSON.stringify(payload.list(payload.users.length));
      else throw new Error('plain Fastify has no stream case');
    },
    close: () => app.close(),
  };
}
