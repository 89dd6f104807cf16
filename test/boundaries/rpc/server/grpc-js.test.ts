/**
 * wirekit's gRPC server called by @grpc/grpc-js, the common Node gRPC stack, with message classes
 * @grpc/proto-loader (protobufjs) builds from the `.proto` that `toProto(service)` writes: all four
 * method kinds, values that need care, errors with readable messages, deadlines and cancellation,
 * gzip both ways.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRpcServer, type RpcServer } from '../../../../src/boundaries/rpc/server/index.js';
import { toProto } from '../../../../src/schema/export/index.js';
import { bigId, OrderService, orderService, type Seen } from './order-service.js';

type Callback = (error: grpc.ServiceError | null, value?: Record<string, unknown>) => void;
interface OrderClient extends grpc.Client {
  GetOrder(
    request: object,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: Callback,
  ): grpc.ClientUnaryCall;
  GetOrder(request: object, callback: Callback): grpc.ClientUnaryCall;
  WatchOrders(request: object): grpc.ClientReadableStream<Record<string, unknown>>;
  Upload(callback: Callback): grpc.ClientWritableStream<object>;
  Chat(): grpc.ClientDuplexStream<object, Record<string, unknown>>;
}

const seen: Seen = { calls: [], contexts: [], aborted: [], timeouts: [] };
let server: RpcServer;
let dir: string;
let Client: new (address: string, credentials: grpc.ChannelCredentials, options?: object) => OrderClient;

beforeAll(async () => {
  server = await createRpcServer({ services: [orderService(seen)] });
  dir = mkdtempSync(join(tmpdir(), 's42-rpc-server-grpcjs-'));
  const protoPath = join(dir, 'orders.proto');
  writeFileSync(protoPath, toProto(OrderService));
  // longs as strings, bytes as Buffers, as grpc-js users configure proto-loader for int64.
  const definition = protoLoader.loadSync(protoPath, {
    longs: String,
    defaults: false,
    includeDirs: ['/usr/include'],
  });
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    orders: { v1: { OrderService: typeof Client } };
  };
  Client = loaded.orders.v1.OrderService;
});

afterAll(async () => {
  await server?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

function client(options: object = {}): OrderClient {
  return new Client(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure(), options);
}

function unary(
  peer: OrderClient,
  request: object,
  options: grpc.CallOptions = {},
  metadata = new grpc.Metadata(),
) {
  return new Promise<Record<string, unknown>>((resolve, reject) =>
    peer.GetOrder(request, metadata, options, (error, value) =>
      error ? reject(error) : resolve(value ?? {}),
    ),
  );
}

const timestamp = { seconds: '1796630400', nanos: 123_000_000 };
const order = (id: string, note?: string) => ({
  id,
  placedAt: timestamp,
  payload: Buffer.from([0, 1, 2, 250, 255]),
  total: '12345678901234567890.25',
  quantity: 3,
  ...(note === undefined ? {} : { note }),
});

describe('wirekit gRPC server ← @grpc/grpc-js + proto-loader', () => {
  test('unary: an int64 above 2^53, a timestamp, bytes, a decimal string, an optional left out', async () => {
    const peer = client();
    try {
      const reply = await unary(peer, { id: bigId.toString() });
      expect(reply).toEqual({
        id: bigId.toString(),
        placedAt: timestamp,
        payload: Buffer.from([0, 1, 2, 250, 255]),
        total: '12345678901234567890.25',
        quantity: 3,
      });
      expect(reply).not.toHaveProperty('note');
      const context = seen.contexts.at(-1);
      expect([context?.protocol, context?.codec]).toEqual(['grpc', 'proto']);
    } finally {
      peer.close();
    }
  });

  test('server stream, client stream and bidi stream', async () => {
    const peer = client();
    try {
      const streamed: unknown[] = [];
      for await (const message of peer.WatchOrders({ id: '3' }))
        streamed.push((message as { id: string }).id);
      expect(streamed).toEqual([0n, 1n, 2n].map((i) => (bigId + i).toString()));

      const summary = await new Promise<Record<string, unknown>>((resolve, reject) => {
        const call = peer.Upload((error, value) => (error ? reject(error) : resolve(value ?? {})));
        for (const id of ['1', '9007199254740993', '3']) call.write(order(id));
        call.end();
      });
      expect(summary).toEqual({ count: 3, ids: ['1', '9007199254740993', '3'] });

      const chat = peer.Chat();
      const echoed: unknown[] = [];
      const done = (async () => {
        for await (const message of chat) echoed.push((message as { note: string }).note);
      })();
      chat.write(order('1', 'hello'));
      chat.write(order('2'));
      chat.end();
      await done;
      expect(echoed).toEqual(['echo hello', 'echo (none)']);
    } finally {
      peer.close();
    }
  });

  test('a gzip-compressed request is read (raw-http2.test.ts checks compressed replies byte by byte)', async () => {
    // grpc.default_compression_algorithm 2 is gzip.
    const peer = client({ 'grpc.default_compression_algorithm': 2 });
    try {
      const reply = await unary(peer, { id: '7' });
      expect(reply.id).toBe('7');
      expect(seen.contexts.at(-1)?.requestHeader.get('grpc-encoding')).toBe('gzip');
    } finally {
      peer.close();
    }
  });

  test('errors reach grpc-js with their status and a readable message', async () => {
    const peer = client();
    try {
      const notFound = await unary(peer, { id: '1', failWith: 'wirekit' }).catch((e: grpc.ServiceError) => e);
      expect([(notFound as grpc.ServiceError).code, (notFound as grpc.ServiceError).details]).toEqual([
        grpc.status.NOT_FOUND,
        'no order: 42',
      ]);
      const internal = await unary(peer, { id: '1', failWith: 'plain' }).catch((e: grpc.ServiceError) => e);
      expect([(internal as grpc.ServiceError).code, (internal as grpc.ServiceError).details]).toEqual([
        grpc.status.INTERNAL,
        'internal error',
      ]);
      const midway: unknown[] = [];
      const stream = peer.WatchOrders({ id: '5', failWith: 'midway' });
      const failure = await (async () => {
        try {
          for await (const message of stream) midway.push(message);
        } catch (error) {
          return error as grpc.ServiceError;
        }
      })();
      expect(midway).toHaveLength(2);
      expect(failure?.code).toBe(grpc.status.NOT_FOUND);
    } finally {
      peer.close();
    }
  });

  test('an unknown method is UNIMPLEMENTED, in one trailers-only answer', async () => {
    const peer = client();
    try {
      const error = await new Promise<grpc.ServiceError>((resolve) =>
        peer.makeUnaryRequest(
          '/orders.v1.OrderService/Nope',
          () => Buffer.alloc(0),
          (b: Buffer) => b,
          {},
          (e) => resolve(e as grpc.ServiceError),
        ),
      );
      expect([error.code, error.details]).toEqual([
        grpc.status.UNIMPLEMENTED,
        'unknown method /orders.v1.OrderService/Nope',
      ]);
    } finally {
      peer.close();
    }
  });

  test("the handler's signal aborts when the client cancels", async () => {
    const peer = client();
    try {
      const before = seen.calls.length;
      const call = peer.GetOrder({ id: '1', failWith: 'slow' }, () => undefined);
      while (seen.calls.length === before) await new Promise((resolve) => setTimeout(resolve, 10));
      call.cancel();
      while (!seen.aborted.includes('GetOrder')) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(seen.contexts.at(-1)?.signal.aborted).toBe(true);
    } finally {
      peer.close();
    }
  });

  test('a deadline reaches the handler as timeoutMs and aborts its signal when it passes', async () => {
    const peer = client();
    const abortedBefore = seen.aborted.length;
    try {
      const error = await unary(peer, { id: '1', failWith: 'slow' }, { deadline: Date.now() + 300 }).catch(
        (e: grpc.ServiceError) => e,
      );
      expect((error as grpc.ServiceError).code).toBe(grpc.status.DEADLINE_EXCEEDED);
      const left = seen.timeouts.at(-1);
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThanOrEqual(300);
      // The server's own timer aborts the handler (the client gave up at the same moment).
      while (seen.aborted.length === abortedBefore) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(seen.contexts.at(-1)?.signal.aborted).toBe(true);
    } finally {
      peer.close();
    }
  });
});
