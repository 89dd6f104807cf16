/**
 * The RPC routes inside a Fastify app (h2c): the app's onRequest hook guards them, a gRPC caller
 * it turns away reads a gRPC status, wirekit's codecs pass Fastify's content-type parsing, and the
 * app's other routes keep working beside them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ClientHttp2Session } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { fastify } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rpcPlugin } from '../../../../src/boundaries/rpc/server/index.js';
import { createCodec } from '../../../../src/codecs/index.js';
import { toProto } from '../../../../src/schema/export/index.js';
import { frame, grpcCall, openSession } from './grpc-wire.js';
import {
  bigId,
  GetOrder,
  Order,
  OrderService,
  orderService,
  type Seen,
  sampleOrder,
} from './order-service.js';

const seen: Seen = { calls: [], contexts: [], aborted: [], timeouts: [] };
/** Fastify over cleartext HTTP/2, as gRPC needs. */
const h2cApp = () => fastify({ http2: true });
let app: ReturnType<typeof h2cApp>;
let url: string;
let dir: string;
let session: ClientHttp2Session;
type Callback = (error: grpc.ServiceError | null, value?: Record<string, unknown>) => void;
let Client: new (
  address: string,
  credentials: grpc.ChannelCredentials,
) => grpc.Client & { GetOrder(request: object, metadata: grpc.Metadata, callback: Callback): void };

beforeAll(async () => {
  app = h2cApp();
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/health')) return;
    if (request.headers.authorization !== 'Bearer good') {
      await reply.code(401).send({ message: 'a token is needed: Bearer <token>' });
    }
  });
  app.get('/health', async () => ({ ok: true }));
  await app.register(rpcPlugin, { services: [orderService(seen)] });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  session = openSession(url);
  dir = mkdtempSync(join(tmpdir(), 's42-rpc-server-fastify-'));
  const protoPath = join(dir, 'orders.proto');
  writeFileSync(protoPath, toProto(OrderService));
  const definition = protoLoader.loadSync(protoPath, { longs: String, includeDirs: ['/usr/include'] });
  Client = (
    grpc.loadPackageDefinition(definition) as unknown as { orders: { v1: { OrderService: typeof Client } } }
  ).orders.v1.OrderService;
});

afterAll(async () => {
  session?.close();
  await app?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

function call(token: string | undefined) {
  const peer = new Client(url.replace('http://', ''), grpc.credentials.createInsecure());
  const metadata = new grpc.Metadata();
  if (token !== undefined) metadata.set('authorization', `Bearer ${token}`);
  return new Promise<Record<string, unknown> | grpc.ServiceError>((resolve) =>
    peer.GetOrder({ id: bigId.toString() }, metadata, (error, value) => {
      peer.close();
      resolve(error ?? value ?? {});
    }),
  );
}

describe('rpcPlugin in a Fastify app', () => {
  test("the app's onRequest hook guards the RPC routes; a gRPC caller turned away reads UNAUTHENTICATED", async () => {
    const before = seen.calls.length;
    const refused = (await call(undefined)) as grpc.ServiceError;
    expect([refused.code, refused.details]).toEqual([
      grpc.status.UNAUTHENTICATED,
      'a token is needed: Bearer <token>',
    ]);
    const wrong = (await call('bad')) as grpc.ServiceError;
    expect(wrong.code).toBe(grpc.status.UNAUTHENTICATED);
    expect(seen.calls.length).toBe(before);

    const reply = (await call('good')) as Record<string, unknown>;
    expect(reply.id).toBe(bigId.toString());
    expect(seen.contexts.at(-1)?.requestHeader.get('authorization')).toBe('Bearer good');
  });

  test("wirekit's codecs pass Fastify's content-type parsing, answered in kind", async () => {
    const answer = await grpcCall(
      session,
      '/orders.v1.OrderService/GetOrder',
      'application/grpc+msgpack',
      frame(createCodec('msgpack', { schema: GetOrder }).encode({ id: 3n })),
      { authorization: 'Bearer good' },
    );
    expect(answer.headers['content-type']).toBe('application/grpc+msgpack');
    expect(answer.messages.map((bytes) => createCodec('msgpack', { schema: Order }).decode(bytes))).toEqual([
      sampleOrder(3n),
    ]);
  });

  test("the app's other routes keep working beside the RPC routes", async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const stream = session.request({ ':path': '/health' });
      let body = '';
      stream.on('data', (chunk) => {
        body += chunk;
      });
      stream.on('end', () => resolve(body));
      stream.on('error', reject);
      stream.end();
    });
    expect(JSON.parse(answer)).toEqual({ ok: true });
  });
});
