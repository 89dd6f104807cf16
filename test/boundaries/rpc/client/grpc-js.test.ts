/**
 * wirekit's RPC client over gRPC against a grpc-js server (real HTTP/2 framing from an
 * implementation that shares no code with Connect): the four method kinds with values that need
 * care, status details, deadlines and cancellation as the server sees them, and retries.
 */
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRpcClient, grpcTransport, RpcError } from '../../../../src/boundaries/rpc/client/index.js';
import { BadRequest, ErrorInfo } from '../../../../src/boundaries/rpc/error-details.js';
import { createCodec } from '../../../../src/codecs/index.js';
import { isWirekitError } from '../../../../src/errors/index.js';
import { type GrpcJsPeer, grpcJsDefinition, startGrpcJsServer, statusDetailsBin } from './grpc-js-peer.js';
import { anOrder, bigId, OrderService } from './order-service.js';

const attempts = new Map<bigint, number>();
let placeOrderCalls = 0;
const seen: { deadline?: grpc.Deadline; cancelled: string[]; tenant?: string } = { cancelled: [] };
let waiting: (() => void) | undefined;

function cancelledPromise(
  call: grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerWritableStream<unknown, unknown>,
  label: string,
) {
  waiting?.();
  call.on('cancelled', () => seen.cancelled.push(label));
}

const errorInfo = createCodec('protobuf', { schema: ErrorInfo });
const badRequest = createCodec('protobuf', { schema: BadRequest });

const handlers: grpc.UntypedServiceImplementation = {
  GetOrder(call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) {
    const { id, failures } = call.request as { id: bigint; failures: number };
    seen.tenant = call.metadata.get('x-tenant')[0] as string | undefined;
    if (failures > 0) {
      const count = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, count);
      if (count <= failures)
        return callback({ code: grpc.status.UNAVAILABLE, details: `attempt ${count} refused` });
    }
    if (id === 404n) return callback({ code: grpc.status.NOT_FOUND, details: 'no order 404' });
    if (id === 3n) {
      const metadata = new grpc.Metadata();
      const message = 'lines[1].sku: at least 1 characters needed.';
      metadata.set(
        'grpc-status-details-bin',
        statusDetailsBin(grpc.status.INVALID_ARGUMENT, message, [
          {
            type: 'google.rpc.ErrorInfo',
            value: errorInfo.encode({
              reason: 'WK_VALIDATION_FAILED',
              domain: 'wirekit',
              metadata: { path: 'lines[1].sku' },
            }),
          },
          {
            type: 'google.rpc.BadRequest',
            value: badRequest.encode({
              fieldViolations: [{ field: 'lines[1].sku', description: 'too short', reason: 'TOO_SHORT' }],
            }),
          },
          { type: 'example.Unknown', value: new Uint8Array([8, 1]) },
        ]),
      );
      return callback({ code: grpc.status.INVALID_ARGUMENT, details: message, metadata });
    }
    if (id === 7n) {
      // Never answers: the client's deadline or signal ends the call.
      seen.deadline = call.getDeadline();
      cancelledPromise(call, 'GetOrder');
      return;
    }
    callback(null, { ...anOrder, id });
  },
  PlaceOrder(_call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) {
    placeOrderCalls += 1;
    callback({ code: grpc.status.UNAVAILABLE, details: 'try later' });
  },
  WatchOrders(call: grpc.ServerWritableStream<unknown, unknown>) {
    const { count } = call.request as { count: number };
    for (let index = 1; index <= count; index++) call.write({ ...anOrder, id: BigInt(index) });
    if (count === 0) {
      // One reply, then nothing until the client goes away.
      call.write({ ...anOrder, id: 1n });
      cancelledPromise(call, 'WatchOrders');
      return;
    }
    call.end();
  },
  Upload(call: grpc.ServerReadableStream<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) {
    let count = 0;
    let totalIds = 0n;
    call.on('data', (order: { id: bigint }) => {
      count += 1;
      totalIds += order.id;
    });
    call.on('end', () => callback(null, { count, totalIds }));
  },
  Chat(call: grpc.ServerDuplexStream<unknown, unknown>) {
    call.on('data', (order: { note?: string }) => call.write({ ...order, note: `echo ${order.note ?? ''}` }));
    call.on('end', () => call.end());
  },
};

let peer: GrpcJsPeer;
let transport: ReturnType<typeof grpcTransport>;

beforeAll(async () => {
  peer = await startGrpcJsServer(OrderService, handlers);
  transport = grpcTransport({ baseUrl: peer.url });
});
afterAll(async () => {
  transport.close();
  await peer.close();
});

const fastRetries = { initialBackoffMs: 1, maxBackoffMs: 5 };

async function* fromArray<T>(items: readonly T[]) {
  yield* items;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('the call succeeded'),
    (error: unknown) => error,
  );
}

describe('the four method kinds over gRPC, against grpc-js', () => {
  test('unary: a 64-bit id above 2^53, a Date, bytes, an enum, a decimal, an optional left out', async () => {
    const client = createRpcClient(OrderService, transport);
    const order = await client.GetOrder({ id: bigId });
    expect(order).toEqual({ ...anOrder, id: bigId });
    expect(order.id).toBe(9_007_199_254_740_993n);
    expect(order.placedAt).toBeInstanceOf(Date);
    expect(order.payload).toBeInstanceOf(Uint8Array);
    expect(order.note).toBeUndefined();
  });

  test('server stream: the replies as an async iterable', async () => {
    const client = createRpcClient(OrderService, transport);
    const ids: bigint[] = [];
    for await (const order of client.WatchOrders({ count: 3 })) ids.push(order.id);
    expect(ids).toEqual([1n, 2n, 3n]);
  });

  test('client stream: requests from an async iterable, defaults filled in, one reply', async () => {
    const client = createRpcClient(OrderService, transport);
    const { quantity: _filledIn, ...withoutQuantity } = anOrder;
    const summary = await client.Upload(fromArray([withoutQuantity, { ...anOrder, id: 2n }]));
    expect(summary).toEqual({ count: 2, totalIds: bigId + 2n });
  });

  test('bidi stream: each request echoed, the default quantity filled in by the client', async () => {
    const client = createRpcClient(OrderService, transport);
    const { quantity: _filledIn, ...withoutQuantity } = anOrder;
    const replies = [];
    for await (const order of client.Chat(
      fromArray([
        { ...withoutQuantity, note: 'a' },
        { ...anOrder, id: 5n },
      ]),
    ))
      replies.push(order);
    expect(replies.map((order) => [order.id, order.note, order.quantity])).toEqual([
      [bigId, 'echo a', 1],
      [5n, 'echo ', 3],
    ]);
  });

  test("a call's headers reach the server, and gzipped requests are read", async () => {
    const gzipped = grpcTransport({ baseUrl: peer.url, sendCompression: 'gzip', compressMinBytes: 0 });
    try {
      const client = createRpcClient(OrderService, gzipped);
      const order = await client.GetOrder({ id: 1n }, { headers: { 'x-tenant': 'acme' } });
      expect([order.id, seen.tenant]).toEqual([1n, 'acme']);
    } finally {
      gzipped.close();
    }
  });
});

describe('errors', () => {
  test('a status without wirekit details is an RpcError of WK_RPC_STATUS with its name and number', async () => {
    const client = createRpcClient(OrderService, transport);
    const error = await rejection(client.GetOrder({ id: 404n }));
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({
      code: 'WK_RPC_STATUS',
      status: 'NOT_FOUND',
      statusCode: 5,
      message: 'no order 404',
      details: [],
    });
  });

  test("details are decoded: wirekit's code from ErrorInfo, the field violations, unknown ones as bytes", async () => {
    const client = createRpcClient(OrderService, transport);
    const error = (await rejection(client.GetOrder({ id: 3n }))) as RpcError;
    expect(error.code).toBe('WK_VALIDATION_FAILED');
    expect([error.status, error.statusCode, error.at]).toEqual(['INVALID_ARGUMENT', 3, 'lines[1].sku']);
    expect(error.details).toEqual([
      {
        type: 'google.rpc.ErrorInfo',
        value: { reason: 'WK_VALIDATION_FAILED', domain: 'wirekit', metadata: { path: 'lines[1].sku' } },
      },
      {
        type: 'google.rpc.BadRequest',
        value: {
          fieldViolations: [{ field: 'lines[1].sku', description: 'too short', reason: 'TOO_SHORT' }],
        },
      },
    ]);
    expect(error.rawDetails).toEqual([{ type: 'example.Unknown', value: new Uint8Array([8, 1]) }]);
  });

  test('a reply that does not decode is the codec’s WirekitError, not a status', async () => {
    const definition = grpcJsDefinition(OrderService);
    const broken = {
      ...definition,
      GetOrder: { ...definition.GetOrder, responseSerialize: () => Buffer.from([0x0a, 0xff]) },
    };
    const server = new grpc.Server();
    server.addService(broken as grpc.ServiceDefinition, handlers);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) =>
        e ? reject(e) : resolve(p),
      ),
    );
    const brokenTransport = grpcTransport({ baseUrl: `http://127.0.0.1:${port}` });
    try {
      const error = await rejection(createRpcClient(OrderService, brokenTransport).GetOrder({ id: 1n }));
      expect(isWirekitError(error)).toBe(true);
      expect(error).not.toBeInstanceOf(RpcError);
      expect((error as { code: string }).code).toMatch(/^WK_DECODE_/);
    } finally {
      brokenTransport.close();
      server.forceShutdown();
    }
  });

  test('a refused connection is UNAVAILABLE', async () => {
    const nowhere = grpcTransport({ baseUrl: 'http://127.0.0.1:1' });
    try {
      const client = createRpcClient(OrderService, nowhere, { retry: false });
      expect(await rejection(client.GetOrder({ id: 1n }))).toMatchObject({
        status: 'UNAVAILABLE',
        code: 'WK_RPC_STATUS',
      });
    } finally {
      nowhere.close();
    }
  });
});

describe('deadlines and cancellation', () => {
  test('timeoutMs is sent as grpc-timeout and ends the call with DEADLINE_EXCEEDED; the server sees it cancelled', async () => {
    const client = createRpcClient(OrderService, transport);
    seen.cancelled = [];
    const started = Date.now();
    const error = await rejection(client.GetOrder({ id: 7n }, { timeoutMs: 300 }));
    expect(error).toMatchObject({ status: 'DEADLINE_EXCEEDED', statusCode: 4 });
    // The server was told the deadline: grpc-js turns grpc-timeout into a time about 300 ms ahead.
    const deadline = Number(seen.deadline);
    expect(deadline - started).toBeGreaterThan(0);
    expect(deadline - started).toBeLessThanOrEqual(300 + 1_000);
    await expect.poll(() => seen.cancelled).toContain('GetOrder');
  });

  test('a timeout of 0 fails at once without a call', async () => {
    const client = createRpcClient(OrderService, transport);
    attempts.delete(70n);
    const error = await rejection(client.GetOrder({ id: 70n, failures: 1 }, { timeoutMs: 0 }));
    expect(error).toMatchObject({ status: 'DEADLINE_EXCEEDED' });
    expect(attempts.get(70n)).toBeUndefined();
  });

  test('aborting the signal cancels a unary call, and the server sees it', async () => {
    const client = createRpcClient(OrderService, transport);
    seen.cancelled = [];
    const controller = new AbortController();
    const arrived = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    const call = rejection(client.GetOrder({ id: 7n }, { signal: controller.signal }));
    await arrived;
    controller.abort();
    expect(await call).toMatchObject({ status: 'CANCELLED', statusCode: 1 });
    await expect.poll(() => seen.cancelled).toContain('GetOrder');
  });

  test('leaving a reply stream early cancels the call on the server', async () => {
    const client = createRpcClient(OrderService, transport);
    seen.cancelled = [];
    for await (const order of client.WatchOrders({ count: 0 })) {
      expect(order.id).toBe(1n);
      break;
    }
    await expect.poll(() => seen.cancelled).toContain('WatchOrders');
  });
});

describe('retries', () => {
  test('an idempotent method is retried on UNAVAILABLE until it succeeds', async () => {
    const client = createRpcClient(OrderService, transport, { retry: fastRetries });
    attempts.delete(11n);
    const order = await client.GetOrder({ id: 11n, failures: 2 });
    expect(order.id).toBe(11n);
    expect(attempts.get(11n)).toBe(3);
  });

  test('at most maxAttempts, then the last UNAVAILABLE', async () => {
    const client = createRpcClient(OrderService, transport, { retry: { ...fastRetries, maxAttempts: 3 } });
    attempts.delete(12n);
    const error = await rejection(client.GetOrder({ id: 12n, failures: 10 }));
    expect(error).toMatchObject({ status: 'UNAVAILABLE', message: 'attempt 3 refused' });
    expect(attempts.get(12n)).toBe(3);
  });

  test('a method not marked idempotent is never retried', async () => {
    const client = createRpcClient(OrderService, transport, { retry: fastRetries });
    placeOrderCalls = 0;
    const error = await rejection(client.PlaceOrder(anOrder));
    expect(error).toMatchObject({ status: 'UNAVAILABLE' });
    expect(placeOrderCalls).toBe(1);
  });

  test('no retry starts past the deadline', async () => {
    const client = createRpcClient(OrderService, transport, {
      retry: { initialBackoffMs: 10_000, maxBackoffMs: 10_000, maxAttempts: 5 },
    });
    attempts.delete(13n);
    const error = await rejection(client.GetOrder({ id: 13n, failures: 10 }, { timeoutMs: 2_000 }));
    // The backoff (up to 10 s, jittered) would outlast the deadline unless it is very short: in
    // either case the call ends with the last status before the deadline, never after it.
    expect(error).toMatchObject({ status: expect.stringMatching(/^(UNAVAILABLE|DEADLINE_EXCEEDED)$/) });
    expect(attempts.get(13n)).toBeLessThanOrEqual(2);
  });
});
