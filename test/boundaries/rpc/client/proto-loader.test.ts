/**
 * wirekit's gRPC client against the common Node gRPC stack as its users write it: grpc-js with
 * @grpc/proto-loader reading the `.proto` that `toProto(service)` writes, its messages protobufjs
 * objects (64-bit integers as strings, enums by name, Timestamp as seconds and nanos). The bytes on
 * the wire are protobufjs's, so the client's codec meets an independent encoder and decoder.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  createRpcClient,
  grpcTransport,
  type NodeRpcTransport,
} from '../../../../src/boundaries/rpc/client/index.js';
import { toProto } from '../../../../src/schema/export/index.js';
import { anOrder, bigId, OrderService } from './order-service.js';

interface LoadedOrder {
  id: string;
  placedAt: { seconds: string; nanos: number };
  payload: Buffer;
  status: string;
  total: string;
  note?: string;
  quantity: number;
}

const received: LoadedOrder[] = [];
const reply = (id: string): LoadedOrder => ({
  id,
  placedAt: { seconds: String(Math.floor(anOrder.placedAt.getTime() / 1000)), nanos: 123_000_000 },
  payload: Buffer.from(anOrder.payload),
  status: 'STATUS_SHIPPED',
  total: anOrder.total,
  quantity: anOrder.quantity,
});

let dir: string;
let server: grpc.Server;
let transport: NodeRpcTransport;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 's42-rpc-client-proto-'));
  const file = join(dir, 'orders.proto');
  writeFileSync(file, toProto(OrderService));
  const definition = protoLoader.loadSync(file, {
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    orders: { v1: { OrderService: { service: grpc.ServiceDefinition } } };
  };
  server = new grpc.Server();
  server.addService(loaded.orders.v1.OrderService.service, {
    GetOrder: (call: grpc.ServerUnaryCall<{ id: string }, unknown>, callback: grpc.sendUnaryData<unknown>) =>
      callback(null, reply(call.request.id)),
    PlaceOrder: (call: grpc.ServerUnaryCall<LoadedOrder, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      received.push(call.request);
      callback(null, call.request);
    },
    WatchOrders: (call: grpc.ServerWritableStream<{ count: number }, unknown>) => {
      for (let index = 1; index <= call.request.count; index++) call.write(reply(String(index)));
      call.end();
    },
    Upload: (
      call: grpc.ServerReadableStream<LoadedOrder, unknown>,
      callback: grpc.sendUnaryData<unknown>,
    ) => {
      let count = 0;
      let totalIds = 0n;
      call.on('data', (order: LoadedOrder) => {
        count += 1;
        totalIds += BigInt(order.id);
      });
      call.on('end', () => callback(null, { count, totalIds: String(totalIds) }));
    },
    Chat: (call: grpc.ServerDuplexStream<LoadedOrder, unknown>) => {
      call.on('data', (order: LoadedOrder) => call.write({ ...order, note: `echo ${order.note ?? ''}` }));
      call.on('end', () => call.end());
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error === null ? resolve(bound) : reject(error),
    ),
  );
  transport = grpcTransport({ baseUrl: `http://127.0.0.1:${port}` });
});

afterAll(() => {
  transport?.close();
  server?.forceShutdown();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

async function* fromArray<T>(items: readonly T[]) {
  yield* items;
}

test('unary: protobufjs encodes the reply wirekit decodes, 2^53 + 1 exact', async () => {
  const client = createRpcClient(OrderService, transport);
  expect(await client.GetOrder({ id: bigId })).toEqual({ ...anOrder, id: bigId });
});

test('the request as protobufjs reads it: the id as digits, the enum by name, the optional absent', async () => {
  const client = createRpcClient(OrderService, transport);
  received.length = 0;
  const echoed = await client.PlaceOrder(anOrder);
  expect(echoed).toEqual(anOrder);
  const [order] = received;
  expect(order?.id).toBe('9007199254740993');
  expect(order?.status).toBe('STATUS_SHIPPED');
  expect(order?.total).toBe(anOrder.total);
  expect([...(order?.payload ?? [])]).toEqual([...anOrder.payload]);
  expect(order && 'note' in order ? order.note : undefined).toBeUndefined();
});

test('server stream, client stream and bidi stream', async () => {
  const client = createRpcClient(OrderService, transport);
  const ids: bigint[] = [];
  for await (const order of client.WatchOrders({ count: 3 })) ids.push(order.id);
  expect(ids).toEqual([1n, 2n, 3n]);
  expect(await client.Upload(fromArray([anOrder, { ...anOrder, id: 2n }]))).toEqual({
    count: 2,
    totalIds: bigId + 2n,
  });
  const notes: (string | undefined)[] = [];
  for await (const order of client.Chat(fromArray([{ ...anOrder, note: 'a' }]))) notes.push(order.note);
  expect(notes).toEqual(['echo a']);
});
