/**
 * rpcGateway with `call` a plain function (no RPC library): what `call` is given (method, request,
 * deadline, headers, a signal that aborts when the REST client leaves), how each shape of failure
 * is answered (a gRPC status by name or number, a WirekitError, anything else as a hidden 500), the
 * options (unknownKeys, maxQueryParameters, a prefix), and the refusals at registration.
 */
import http from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import {
  type GatewayCall,
  type RpcGatewayOptions,
  rpcGateway,
} from '../../../../src/boundaries/rpc/gateway/index.js';
import { ValidationError, WirekitError } from '../../../../src/errors/index.js';
import { t } from '../../../../src/index.js';
import { OrderApi } from '../../../fixtures/gateway-service.js';
import { codeOf } from '../../../support/code-of.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const order = { id: 1n, customer_name: 'Ada', status: 'OPEN', total_cents: 5n, tags: [], note: '' };

async function serve(call: GatewayCall, options: RpcGatewayOptions = {}) {
  app = Fastify({ logger: false });
  await app.register(rpcGateway(OrderApi, call, options));
  return app;
}

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await (app as FastifyInstance).inject({ method: 'GET', url: path, headers });
  return { status: response.statusCode, body: response.json(), code: response.headers['wirekit-error-code'] };
}

describe('rpcGateway with a function as the call', () => {
  test('call gets the method, the decoded request, the deadline and the forwarded headers', async () => {
    const calls: unknown[] = [];
    await serve(
      async (method, request, options) => {
        calls.push({ method, request, timeoutMs: options.timeoutMs, headers: options.headers });
        return order;
      },
      { timeoutMs: 1500, forwardHeaders: ['x-request-id'] },
    );
    const { status, body } = await get('/v1/orders/12?since=2020-01-01T00:00:00Z', {
      'x-request-id': 'r1',
      authorization: 'secret',
    });
    expect(status).toBe(200);
    // ProtoJSON leaves fields at their defaults out (OPEN is the enum's zero, '' and [] too).
    expect(body).toEqual({ id: '1', customerName: 'Ada', totalCents: '5' });
    expect(calls).toEqual([
      {
        method: 'GetOrder',
        request: { id: 12n, tags: [], since: new Date('2020-01-01T00:00:00Z') },
        timeoutMs: 1500,
        headers: { 'x-request-id': 'r1' },
      },
    ]);
  });

  test('every shape of failure: status names and numbers, WirekitErrors, and a hidden 500 for the rest', async () => {
    const failures: Record<string, unknown> = {
      '1': { status: 'PERMISSION_DENIED', message: 'not yours' },
      '2': Object.assign(new Error('6 ALREADY_EXISTS: dup'), { code: 6, details: 'dup' }),
      '3': Object.assign(new Error('[not_found] gone'), { code: 5, rawMessage: 'gone' }),
      '4': new ValidationError([{ path: ['order', 'total'], code: 'out_of_range', message: 'too big' }]),
      '5': new WirekitError('WK_CACHE_STORE_UNAVAILABLE', 'redis is away'),
      '6': new Error('connect ECONNREFUSED 10.0.0.3:5432'),
      '7': {
        status: 'INVALID_ARGUMENT',
        message: 'bad id',
        details: [
          {
            type: 'google.rpc.ErrorInfo',
            value: { reason: 'WK_VALIDATION_FAILED', domain: 'wirekit', metadata: { path: 'id' } },
          },
        ],
      },
      // A reply that did not decode, as wirekit's client throws it: the service's fault.
      '8': new WirekitError('WK_DECODE_MALFORMED', 'a varint runs past the end', { offset: 3 }),
      '9': new WirekitError('WK_LIMIT_LENGTH', 'a string of 9 MB is past the limit'),
    };
    await serve(async (_method, request) => {
      throw failures[String((request as { id: bigint }).id)];
    });
    const answers = [];
    for (const id of Object.keys(failures)) answers.push(await get(`/v1/orders/${id}`));
    expect(answers.map(({ status, body }) => [status, body.grpcStatus, body.code, body.message])).toEqual([
      [403, 'PERMISSION_DENIED', 'WK_HTTP_STATUS', 'not yours'],
      [409, 'ALREADY_EXISTS', 'WK_HTTP_STATUS', 'dup'],
      [404, 'NOT_FOUND', 'WK_HTTP_STATUS', 'gone'],
      [400, 'INVALID_ARGUMENT', 'WK_VALIDATION_FAILED', expect.stringContaining('too big')],
      [503, 'UNAVAILABLE', 'WK_CACHE_STORE_UNAVAILABLE', 'redis is away'],
      [500, 'INTERNAL', 'WK_HTTP_STATUS', 'internal error'],
      [400, 'INVALID_ARGUMENT', 'WK_VALIDATION_FAILED', 'bad id'],
      [500, 'INTERNAL', 'WK_DECODE_MALFORMED', 'a varint runs past the end'],
      [500, 'INTERNAL', 'WK_LIMIT_LENGTH', 'a string of 9 MB is past the limit'],
    ]);
    expect(answers[3]?.body.path).toBe('order.total');
    expect(answers[6]?.body.path).toBe('id');
    expect(answers.map((answer) => answer.code)).toEqual(answers.map((answer) => answer.body.code));
  });

  test('a reply that does not fit the output schema is a 500, not a half-written body', async () => {
    await serve(async () => ({ ...order, total_cents: 'lots' }));
    const { status, body } = await get('/v1/orders/1');
    expect(status).toBe(500);
    expect(body.status).toBe(500);
  });

  test('the signal aborts when the REST client leaves before the answer', async () => {
    let aborted: Promise<boolean> | undefined;
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    await serve(async (_method, _request, { signal }) => {
      aborted = new Promise((resolve) => signal.addEventListener('abort', () => resolve(true)));
      started();
      await aborted;
      return order;
    });
    const base = new URL(await (app as FastifyInstance).listen({ host: '127.0.0.1', port: 0 }));
    // A raw request whose socket is destroyed: the client is gone, as a closed browser tab is.
    const request = http.get({ host: base.hostname, port: base.port, path: '/v1/orders/1' });
    request.on('error', () => {});
    await running;
    request.destroy();
    expect(await aborted).toBe(true);
  });

  test("unknownKeys 'reject' refuses a query parameter or body key no field has; the default skips them", async () => {
    await serve(async () => order);
    expect((await get('/v1/orders/1?colour=red')).status).toBe(200);
    await app?.close();
    await serve(async () => order, { unknownKeys: 'reject' });
    const query = await get('/v1/orders/1?colour=red');
    expect([query.status, query.body.code]).toEqual([400, 'WK_DECODE_SCHEMA_MISMATCH']);
    expect(query.body.message).toContain('"colour" names no field of GetOrderRequest');
    const bound = await get('/v1/orders/1?id=2');
    expect(bound.body.message).toContain('"id" is bound by the path or the body');
    const response = await (app as FastifyInstance).inject({
      method: 'POST',
      url: '/v1/shops/x/orders',
      payload: { customerName: 'A', totalCents: '1', __proto__: null, colour: 'red' },
    });
    expect([response.statusCode, response.json().code]).toEqual([400, 'WK_DECODE_SCHEMA_MISMATCH']);
  });

  test('maxQueryParameters caps the query; a scalar given twice is refused', async () => {
    await serve(async () => order, { maxQueryParameters: 3 });
    const many = await get('/v1/orders/1?tags=a&tags=b&tags=c&tags=d');
    expect([many.status, many.body.code]).toEqual([400, 'WK_LIMIT_ELEMENTS']);
    const twice = await get('/v1/orders/1?limit=1&limit=2');
    expect([twice.status, twice.body.path]).toEqual([400, 'limit']);
  });

  test('registration refuses a service with no mapped method', () => {
    const Bare = t.service('x.v1.Bare', { Ping: t.unary(t.object('Ping', {}), t.object('Pong', {})) });
    expect(codeOf(() => rpcGateway(Bare, async () => ({})))).toBe('WK_OPTIONS_INVALID');
  });
});
