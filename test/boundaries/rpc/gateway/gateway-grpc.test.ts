/**
 * The whole edge: REST requests with fetch to Fastify serving rpcGateway on a free port, each
 * crossing a real gRPC hop (grpc-js with wirekit's codecs, grpc-backend.ts) to the service and back.
 * GET with path and query (typed by the schema: int64, bool, enum, timestamp, repeated, nested),
 * POST with body '*', PATCH with a field body and a path variable inside it, a multi-segment
 * variable, a custom verb, a response body field; errors (validation 400 with the path, NOT_FOUND
 * 404, UNAVAILABLE 503); hostile input (an oversized body, a bad int64 in the path, `__proto__` in
 * the body and the query); and the hop carries Protocol Buffers bytes, as protoc's runtimes write.
 */
import * as grpc from '@grpc/grpc-js';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rpcGateway } from '../../../../src/boundaries/rpc/gateway/index.js';
import { createProtobufCodec } from '../../../../src/codecs/protobuf/index.js';
import { CreateOrderRequest, GetOrderRequest, OrderApi } from '../../../fixtures/gateway-service.js';
import { type GrpcBackend, startGrpcBackend } from './grpc-backend.js';

let backend: GrpcBackend;
let app: FastifyInstance;
let base: string;
const seenMetadata: Record<string, unknown>[] = [];

const big = 2n ** 62n + 1n;

beforeAll(async () => {
  backend = await startGrpcBackend(OrderApi, {
    GetOrder: (
      request: {
        id: bigint;
        view?: string;
        include_tags?: boolean;
        tags: string[];
        since?: Date;
        address?: object;
      },
      metadata,
    ) => {
      seenMetadata.push(metadata.getMap());
      if (request.id === 404n) throw { code: grpc.status.NOT_FOUND, details: 'order 404 not found' };
      if (request.id === 503n) throw { code: grpc.status.UNAVAILABLE, details: 'the order store is down' };
      return {
        id: request.id,
        customer_name: 'Ada',
        status: request.view ?? 'OPEN',
        total_cents: big,
        tags: request.tags,
        ...(request.since === undefined ? {} : { placed_at: request.since }),
        ...(request.address === undefined ? {} : { address: request.address }),
        note: request.include_tags === true ? 'tags included' : '',
      };
    },
    CreateOrder: (request: { shop: string; customer_name: string; total_cents: bigint; tags: string[] }) => ({
      id: 1n,
      customer_name: request.customer_name,
      status: 'OPEN',
      total_cents: request.total_cents,
      tags: request.tags,
      note: `shop ${request.shop}`,
    }),
    UpdateOrder: (request: { order: Record<string, unknown>; validate_only?: boolean }) => ({
      ...request.order,
      note: request.validate_only === true ? 'validated' : 'updated',
    }),
    GetNote: (request: { id: bigint }) => ({
      id: request.id,
      customer_name: 'Ada',
      status: 'PAID',
      total_cents: 0n,
      tags: [],
      note: `note of ${request.id}`,
    }),
    GetShelf: (request: { name: string }) => ({
      name: request.name,
      path: request.name.split('/').join(' > '),
    }),
  });
  app = Fastify({ logger: false });
  await app.register(rpcGateway(OrderApi, backend.call, { bodyLimit: 4096 }), { prefix: '/api' });
  base = `${await app.listen({ host: '127.0.0.1', port: 0 })}/api`;
});

afterAll(async () => {
  await app?.close();
  await backend?.close();
});

async function json(
  path: string,
  init: RequestInit = {},
  // biome-ignore lint/suspicious/noExplicitAny: a JSON answer, whose shape each test asserts.
): Promise<{ status: number; body: any; type: string | null }> {
  const response = await fetch(`${base}${path}`, init);
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? undefined : JSON.parse(text),
    type: response.headers.get('content-type'),
  };
}

const jsonBody = (value: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: typeof value === 'string' ? value : JSON.stringify(value),
});

describe('rpcGateway in front of a grpc-js service', () => {
  test('GET: the path binds id, the query the rest, each converted by its field type', async () => {
    const query =
      'view=ORDER_STATUS_PAID&include_tags=true&tags=a&tags=b%20c&since=2024-05-06T07:08:09.5Z&address.city=Paris&limit=5';
    const { status, body, type } = await json(`/v1/orders/${big}?${query}`);
    expect(status).toBe(200);
    expect(type).toBe('application/json');
    expect(body).toEqual({
      id: String(big),
      customerName: 'Ada',
      status: 'ORDER_STATUS_PAID',
      totalCents: String(big),
      tags: ['a', 'b c'],
      placedAt: '2024-05-06T07:08:09.500Z',
      address: { city: 'Paris' },
      note: 'tags included',
    });
    // lowerCamelCase names in the query are read too, and an enum by its number.
    const camel = await json('/v1/orders/7?includeTags=1&view=2');
    expect([camel.body.status, camel.body.note]).toEqual(['ORDER_STATUS_SHIPPED', 'tags included']);
  });

  test('the internal hop carries Protocol Buffers bytes: the request as wirekit (and protoc) encode it', async () => {
    backend.received.length = 0;
    await json('/v1/orders/42?tags=x&include_tags=false');
    expect(backend.received).toHaveLength(1);
    const [{ method, bytes }] = backend.received as [{ method: string; bytes: Buffer }];
    expect(method).toBe('GetOrder');
    const expected = createProtobufCodec({ schema: GetOrderRequest }).encode({
      id: 42n,
      include_tags: false,
      tags: ['x'],
    });
    expect(bytes.toString('hex')).toBe(Buffer.from(expected).toString('hex'));
    expect(bytes[0]).not.toBe('{'.charCodeAt(0));
  });

  test("POST with body '*': the body is the request, the path's field added", async () => {
    const { status, body } = await json(
      '/v1/shops/berlin/orders',
      jsonBody({ customerName: 'Grace', total_cents: '9007199254740993', tags: ['new'] }),
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: '1',
      customerName: 'Grace',
      totalCents: '9007199254740993',
      note: 'shop berlin',
    });
    // The path wins over a body that names the same field.
    const over = await json(
      '/v1/shops/paris/orders',
      jsonBody({ shop: 'rome', customer_name: 'X', total_cents: 1 }),
    );
    expect(over.body.note).toBe('shop paris');
  });

  test("PATCH with body 'order': the body is that field, the path's order.id inside it; the query the rest", async () => {
    const { status, body } = await json(
      '/v1/orders/77?validate_only=true',
      jsonBody(
        { id: '1', customerName: 'Lin', status: 'ORDER_STATUS_PAID', totalCents: '5', tags: [] },
        'PATCH',
      ),
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: '77',
      customerName: 'Lin',
      status: 'ORDER_STATUS_PAID',
      note: 'validated',
    });
  });

  test('a multi-segment variable, a custom verb, and a response body field', async () => {
    const shelf = await json('/v1/shelves/s1/books/b%2F2/c%20d');
    expect(shelf.status).toBe(200);
    expect(shelf.body).toEqual({
      name: 'shelves/s1/books/b%2F2/c d',
      path: 'shelves > s1 > books > b%2F2 > c d',
    });
    const verb = await json('/v1/orders/9:fetch');
    expect([verb.status, verb.body.id]).toEqual([200, '9']);
    const note = await json('/v1/orders/12/note');
    expect([note.status, note.body]).toEqual([200, 'note of 12']);
    const unknown = await json('/v1/shelves/s1');
    expect(unknown.status).toBe(404);
  });

  test('errors: validation is 400 with the path; NOT_FOUND 404 and UNAVAILABLE 503 with the status', async () => {
    const invalid = await json('/v1/orders/5?limit=500');
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ status: 400, code: 'WK_DECODE_SCHEMA_MISMATCH', path: 'limit' });
    const empty = await json('/v1/shops/x/orders', jsonBody({ customerName: '', totalCents: '1' }));
    expect(empty.status).toBe(400);
    expect(empty.body.path).toBe('customer_name');
    const missing = await json('/v1/orders/404');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      status: 404,
      code: 'WK_HTTP_STATUS',
      message: 'order 404 not found',
      grpcStatus: 'NOT_FOUND',
      grpcCode: 5,
    });
    const down = await json('/v1/orders/503');
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ grpcStatus: 'UNAVAILABLE', message: 'the order store is down' });
  });

  test('headers: authorization and grpc-metadata-* reach the service as metadata, nothing else', async () => {
    seenMetadata.length = 0;
    await json('/v1/orders/3', {
      headers: { authorization: 'Bearer t', 'grpc-metadata-tenant': 'acme', cookie: 'c=1' },
    });
    expect(seenMetadata[0]).toMatchObject({ authorization: 'Bearer t', tenant: 'acme' });
    expect(seenMetadata[0]).not.toHaveProperty('cookie');
  });
});

describe('rpcGateway: hostile input', () => {
  test('a body past the limit is 413, before any call', async () => {
    backend.received.length = 0;
    const { status, body } = await json(
      '/v1/shops/x/orders',
      jsonBody({ customerName: 'x'.repeat(10_000), totalCents: '1' }),
    );
    expect(status).toBe(413);
    expect(body).toMatchObject({ code: 'WK_HTTP_BODY_TOO_LARGE', limit: 4096 });
    expect(backend.received).toHaveLength(0);
  });

  test('a bad int64 in the path is 400 naming the field; malformed percent-encoding too', async () => {
    const word = await json('/v1/orders/abc');
    expect(word.status).toBe(400);
    expect(word.body).toMatchObject({ code: 'WK_DECODE_SCHEMA_MISMATCH', path: 'id' });
    const huge = await json('/v1/orders/99999999999999999999999');
    expect([huge.status, huge.body.path]).toEqual([400, 'id']);
    // Fastify's router refuses a path it cannot decode before any route runs.
    backend.received.length = 0;
    const broken = await json('/v1/orders/%E0%A4%A');
    expect(broken.status).toBe(400);
    expect(backend.received).toHaveLength(0);
  });

  test('__proto__ in the body and the query pollutes nothing and reaches nothing', async () => {
    backend.received.length = 0;
    const body =
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"customerName":"P","totalCents":"1"}';
    const created = await json('/v1/shops/x/orders', jsonBody(body));
    expect(created.status).toBe(200);
    const got = await json('/v1/orders/8?__proto__.polluted=1&constructor.prototype.polluted=1&__proto__=x');
    expect(got.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    const decoded = backend.received.map(({ method, bytes }) =>
      createProtobufCodec({ schema: method === 'CreateOrder' ? CreateOrderRequest : GetOrderRequest }).decode(
        bytes,
      ),
    );
    expect(decoded).toEqual([
      { shop: 'x', customer_name: 'P', total_cents: 1n, tags: [] },
      { id: 8n, tags: [] },
    ]);
  });

  test('a body that is not JSON is 415 or 400, never a call', async () => {
    backend.received.length = 0;
    const text = await json('/v1/shops/x/orders', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hi',
    });
    expect([text.status, text.body.code]).toEqual([415, 'WK_HTTP_UNSUPPORTED_MEDIA_TYPE']);
    const broken = await json('/v1/shops/x/orders', jsonBody('{"customerName":'));
    expect([broken.status, broken.body.code]).toEqual([400, 'WK_DECODE_MALFORMED']);
    const list = await json('/v1/orders/1', jsonBody('[1]', 'PATCH'));
    expect(list.status).toBe(400);
    expect(backend.received).toHaveLength(0);
  });
});
