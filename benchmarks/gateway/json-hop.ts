/**
 * The JSON → JSON hop, written by hand as an edge service usually is: a Fastify route per REST
 * path that reads the path parameter or query, checks it (a uint32, else 400), and POSTs it as
 * JSON to the backend's route for the method (bench:rpc's plain Fastify JSON service) over a pool
 * of HTTP/1.1 keep-alive connections (undici's Pool, opened once). The backend's reply is parsed
 * (`body.json()`: the gateway holds the value, as one that validates or reshapes it must) and
 * answered by Fastify's default serializer (JSON.stringify); a backend error's status and body are
 * passed on. No per-call deadline object: the pool's timeouts, set once, stand for it.
 */
import Fastify, { type FastifyReply } from 'fastify';
import { Pool } from 'undici';
import { serviceName } from '../rpc/service.js';
import type { RunningHop } from './running-hop.js';

const maxUint32 = 0xffff_ffff;
const jsonHeaders = { 'content-type': 'application/json' };

/** A uint32 from its decimal text, else undefined. */
function uint32Of(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,10}$/.test(text)) return undefined;
  const value = Number(text);
  return value <= maxUint32 ? value : undefined;
}

export async function startJsonHop(backendPort: number, connections: number): Promise<RunningHop> {
  const backend = new Pool(`http://127.0.0.1:${backendPort}`, {
    connections,
    pipelining: 1,
    headersTimeout: 5000,
    bodyTimeout: 5000,
  });
  const forward = async (method: string, request: object, reply: FastifyReply) => {
    const response = await backend.request({
      path: `/${serviceName}/${method}`,
      method: 'POST',
      headers: jsonHeaders,
      body: JSON.stringify(request),
    });
    const value = await response.body.json();
    return reply.code(response.statusCode).send(value);
  };
  const app = Fastify({ logger: false });
  app.get<{ Params: { id: string } }>('/v1/users/:id', async (request, reply) => {
    const id = uint32Of(request.params.id);
    if (id === undefined) return reply.code(400).send({ error: 'id: not a uint32' });
    return forward('GetUser', { id }, reply);
  });
  app.get<{ Querystring: { count?: string } }>('/v1/users', async (request, reply) => {
    const count = request.query.count === undefined ? 0 : uint32Of(request.query.count);
    if (count === undefined) return reply.code(400).send({ error: 'count: not a uint32' });
    return forward('ListUsers', { count }, reply);
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    port: Number(new URL(address).port),
    close: async () => {
      await app.close();
      await backend.close();
    },
  };
}
