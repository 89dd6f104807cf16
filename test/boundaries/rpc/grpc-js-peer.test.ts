/**
 * wirekit's services on `@grpc/grpc-js` (test/support/servers/grpc-js.ts, the host the RPC interop
 * tests serve reflection, health and test services with), called by grpc-js's client with
 * `@grpc/proto-loader` reading the `.proto` toProto writes: protobufjs decodes wirekit's bytes on
 * the client, so both sides agree on the file, not on one codec. Each method kind, an error with
 * its details, and a stream cancelled or past its deadline, whose handler sees its signal abort.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHealth, ErrorInfo } from '../../../src/boundaries/rpc/index.js';
import { createProtobufCodec } from '../../../src/codecs/protobuf/index.js';
import { t } from '../../../src/index.js';
import { toProto } from '../../../src/schema/export/index.js';
import { bigId, ShopService, shopHandlers } from '../../fixtures/shop-service.js';
import { type GrpcJsServer, serveOnGrpcJs } from '../../support/servers/grpc-js.js';

type Callback = (error: grpc.ServiceError | null, reply: Record<string, unknown>) => void;
interface ShopClient extends grpc.Client {
  GetOrder(request: object, callback: Callback): grpc.ClientUnaryCall;
  WatchOrders(
    request: object,
    options?: grpc.CallOptions,
  ): grpc.ClientReadableStream<Record<string, unknown>>;
  Upload(callback: Callback): grpc.ClientWritableStream<object>;
  Chat(): grpc.ClientDuplexStream<object, Record<string, unknown>>;
}

let server: GrpcJsServer;
let client: ShopClient;
let dir: string;
const watching: string[] = [];
const health = createHealth();

beforeAll(async () => {
  server = await serveOnGrpcJs([
    {
      service: ShopService,
      handlers: {
        ...shopHandlers,
        // A stream of count 0 runs until its call ends: the test sees it start, then abort.
        async *WatchOrders(request: { fromId: bigint; count: number }, context: { signal: AbortSignal }) {
          if (request.count === 0) {
            watching.push('started');
            context.signal.addEventListener('abort', () => watching.push('aborted'));
          }
          yield* shopHandlers.WatchOrders(request, context);
        },
      },
    },
    health,
  ]);
  dir = mkdtempSync(join(tmpdir(), 's42-rpc-reflection-'));
  const file = join(dir, 'shop.proto');
  writeFileSync(file, toProto(ShopService));
  // Longs as strings and enums as names: protobufjs's own reading of wirekit's bytes.
  const definition = protoLoader.loadSync(file, { longs: String, enums: String, defaults: true });
  const Client = grpc.loadPackageDefinition(definition).shop as unknown as {
    v1: { OrderService: new (address: string, credentials: grpc.ChannelCredentials) => ShopClient };
  };
  client = new Client.v1.OrderService(server.address, grpc.credentials.createInsecure());
});

afterAll(async () => {
  client?.close();
  await server?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const unary = (request: object) =>
  new Promise<Record<string, unknown>>((resolve, reject) =>
    client.GetOrder(request, (error, reply) => (error === null ? resolve(reply) : reject(error))),
  );

const collect = <T>(stream: NodeJS.ReadableStream) =>
  new Promise<T[]>((resolve, reject) => {
    const items: T[] = [];
    stream.on('data', (item: T) => items.push(item));
    stream.on('error', reject);
    stream.on('end', () => resolve(items));
  });

describe('wirekit services on grpc-js, called by grpc-js + proto-loader', () => {
  test('unary: an int64 past 2^53, a timestamp, a decimal, an optional left out', async () => {
    const reply = await unary({ id: String(bigId) });
    expect(reply).toMatchObject({
      id: String(bigId),
      placedAt: { seconds: '1796632200', nanos: 123_000_000 },
      total: '1234.50',
      lines: [{ sku: `sku-${bigId}`, quantity: 2 }],
    });
    expect(reply.note).toBeUndefined();
  });

  test('server stream, client stream and bidi', async () => {
    const watched = await collect<{ id: string }>(client.WatchOrders({ fromId: '10', count: 3 }));
    expect(watched.map((order) => order.id)).toEqual(['10', '11', '12']);

    const summary = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const upload = client.Upload((error, reply) => (error === null ? resolve(reply) : reject(error)));
      for (const quantity of [1, 2, 3]) upload.write({ sku: 'a', quantity });
      upload.end();
    });
    expect(summary).toEqual({ lines: '3', quantity: '6' });

    const chat = client.Chat();
    const echoed = collect<{ quantity: number }>(chat);
    for (const quantity of [1, -5]) chat.write({ sku: 'b', quantity });
    chat.end();
    expect((await echoed).map((line) => line.quantity)).toEqual([2, -10]);
  });

  test("errors: an RpcError's status, a WirekitError's with its details in grpc-status-details-bin", async () => {
    await expect(unary({ id: '0' })).rejects.toMatchObject({
      code: grpc.status.NOT_FOUND,
      details: 'no order 0',
    });
    const error = (await unary({ id: '-1' }).catch((e: unknown) => e)) as grpc.ServiceError;
    expect(error.code).toBe(grpc.status.INVALID_ARGUMENT);
    const [bytes] = error.metadata.get('grpc-status-details-bin') as Buffer[];
    const status = createProtobufCodec<{ code: number; details: { type_url: string; value: Uint8Array }[] }>({
      schema: t.object('Status', {
        code: t.int32({ proto: 'int32' }),
        message: t.string(),
        details: t.array(t.object('Any', { type_url: t.string(), value: t.bytes() })),
      }),
    }).decode(bytes as Buffer);
    expect(status.code).toBe(3);
    expect(status.details.map((detail) => detail.type_url)).toEqual([
      'type.googleapis.com/google.rpc.ErrorInfo',
    ]);
    expect(createProtobufCodec({ schema: ErrorInfo }).decode(status.details[0]?.value as Uint8Array)).toEqual(
      {
        reason: 'WK_VALIDATION_FAILED',
        domain: 'wirekit',
        metadata: { path: 'id' },
      },
    );
  });

  test("a client that cancels a stream: the handler's signal aborts", async () => {
    const stream = client.WatchOrders({ fromId: '1', count: 0 });
    const ended = new Promise<grpc.ServiceError>((resolve) => stream.on('error', resolve));
    await expect.poll(() => watching).toEqual(['started']);
    stream.cancel();
    expect((await ended).code).toBe(grpc.status.CANCELLED);
    await expect.poll(() => watching).toEqual(['started', 'aborted']);
  });

  test("a deadline that passes: DEADLINE_EXCEEDED, and the handler's signal aborts", async () => {
    watching.length = 0;
    const stream = client.WatchOrders({ fromId: '1', count: 0 }, { deadline: Date.now() + 500 });
    const ended = new Promise<grpc.ServiceError>((resolve) => stream.on('error', resolve));
    expect((await ended).code).toBe(grpc.status.DEADLINE_EXCEEDED);
    await expect.poll(() => watching).toEqual(['started', 'aborted']);
  });
});
