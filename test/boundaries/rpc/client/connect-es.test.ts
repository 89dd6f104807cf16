/**
 * wirekit's RPC client against Connect-ES's own server (its routers and protocol handlers,
 * protobuf-es messages of the descriptors describeServices makes) on node:http and node:http2:
 * Connect in Protocol Buffers and in ProtoJSON, gRPC-Web, and gRPC, with the values that need care,
 * the error forms of each protocol, GET for side-effect-free methods, gzip and deadlines.
 */
import http from 'node:http';
import http2 from 'node:http2';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  connectTransport,
  createRpcClient,
  grpcTransport,
  grpcWebTransport,
  type NodeRpcTransport,
  RpcError,
} from '../../../../src/boundaries/rpc/client/index.js';
import { listen, routes, type Served, seen } from './connect-es-peer.js';
import { anOrder, bigId, OrderService } from './order-service.js';

let h1: Served;
let h2: Served;
let noGzip: Served;
const transports: NodeRpcTransport[] = [];
const keep = <T extends NodeRpcTransport>(transport: T) => {
  transports.push(transport);
  return transport;
};

beforeAll(async () => {
  h1 = await listen(http.createServer(routes({})));
  h2 = await listen(http2.createServer(routes({}) as never));
  noGzip = await listen(http.createServer(routes({ acceptCompression: [] })));
});
afterAll(async () => {
  for (const transport of transports) transport.close();
  await Promise.all([h1.close(), h2.close(), noGzip.close()]);
});

async function* fromArray<T>(items: readonly T[]) {
  yield* items;
}

const cases = [
  ['Connect, proto, HTTP/1.1', () => keep(connectTransport({ baseUrl: h1.url }))],
  ['Connect, ProtoJSON, HTTP/1.1', () => keep(connectTransport({ baseUrl: h1.url, codec: 'json' }))],
  ['Connect, proto, HTTP/2', () => keep(connectTransport({ baseUrl: h2.url, httpVersion: '2' }))],
  [
    'Connect, ProtoJSON, HTTP/2',
    () => keep(connectTransport({ baseUrl: h2.url, httpVersion: '2', codec: 'json' })),
  ],
  ['gRPC-Web, proto, HTTP/1.1', () => keep(grpcWebTransport({ baseUrl: h1.url }))],
  ['gRPC-Web, ProtoJSON, HTTP/1.1', () => keep(grpcWebTransport({ baseUrl: h1.url, codec: 'json' }))],
  ['gRPC-Web, proto, HTTP/2', () => keep(grpcWebTransport({ baseUrl: h2.url, httpVersion: '2' }))],
  ['gRPC, proto', () => keep(grpcTransport({ baseUrl: h2.url }))],
  ['gRPC, ProtoJSON', () => keep(grpcTransport({ baseUrl: h2.url, codec: 'json' }))],
] as const;

describe.each(cases)('%s, against Connect-ES', (_name, transportOf) => {
  test('unary: 2^53 + 1, a Date, bytes, an enum, a decimal, an optional left out', async () => {
    const client = createRpcClient(OrderService, transportOf());
    expect(await client.GetOrder({ id: bigId })).toEqual({ ...anOrder, id: bigId });
  });

  test('the request arrives whole: the server decodes the Date and returns the order', async () => {
    const client = createRpcClient(OrderService, transportOf());
    seen.dates = [];
    const placed = await client.PlaceOrder({ ...anOrder, note: 'gift' });
    expect(placed).toEqual({ ...anOrder, note: 'gift' });
    expect(seen.dates).toEqual([anOrder.placedAt]);
  });

  test('server stream, and an error after replies ends the iteration with its status', async () => {
    const client = createRpcClient(OrderService, transportOf());
    const ids: bigint[] = [];
    for await (const order of client.WatchOrders({ count: 3 })) ids.push(order.id);
    expect(ids).toEqual([1n, 2n, 3n]);
    const before: bigint[] = [];
    const failure = await (async () => {
      try {
        for await (const order of client.WatchOrders({ count: 2 })) before.push(order.id);
      } catch (error) {
        return error;
      }
    })();
    expect(before).toEqual([1n, 2n]);
    expect(failure).toMatchObject({ status: 'DATA_LOSS', statusCode: 15, message: 'the stream broke' });
  });

  test('errors: the status, its message, and the details decoded', async () => {
    const client = createRpcClient(OrderService, transportOf());
    await expect(client.GetOrder({ id: 404n })).rejects.toMatchObject({
      status: 'NOT_FOUND',
      code: 'WK_RPC_STATUS',
      message: 'no order 404',
    });
    const error = (await client.GetOrder({ id: 3n }).catch((e: unknown) => e)) as RpcError;
    expect(error).toBeInstanceOf(RpcError);
    expect([error.code, error.status, error.at]).toEqual([
      'WK_VALIDATION_FAILED',
      'INVALID_ARGUMENT',
      'lines[1].sku',
    ]);
    expect(error.details.map((detail) => detail.type)).toEqual([
      'google.rpc.ErrorInfo',
      'google.rpc.BadRequest',
    ]);
  });

  test('the response headers and trailers reach onHeader and onTrailer, for a unary call and a stream', async () => {
    const client = createRpcClient(OrderService, transportOf());
    const seenBy: { header?: string | null; trailer?: string | null }[] = [];
    const read = () => {
      const got: { header?: string | null; trailer?: string | null } = {};
      seenBy.push(got);
      return {
        onHeader: (header: Headers) => {
          got.header = header.get('x-served-by');
        },
        onTrailer: (trailer: Headers) => {
          got.trailer = trailer.get('x-cost');
        },
      };
    };
    await client.GetOrder({ id: 1n }, read());
    const ids: bigint[] = [];
    const options = read();
    for await (const order of client.WatchOrders({ count: 2 + 1 }, options)) {
      // The headers come before the first reply; the trailers only after the last.
      expect(seenBy[1]).toEqual({ header: 'connect-es' });
      ids.push(order.id);
    }
    expect(ids).toEqual([1n, 2n, 3n]);
    expect(seenBy).toEqual([
      { header: 'connect-es', trailer: '7' },
      { header: 'connect-es', trailer: '7' },
    ]);
  });

  test('the deadline reaches the server as its timeout', async () => {
    const client = createRpcClient(OrderService, transportOf());
    await client.GetOrder({ id: 1n }, { timeoutMs: 5_000, headers: { 'x-tenant': 'acme' } });
    expect(seen.timeoutMs).toBeGreaterThan(0);
    expect(seen.timeoutMs).toBeLessThanOrEqual(5_000);
    expect(seen.tenant).toBe('acme');
  });
});

describe.each(cases.filter(([name]) => !name.includes('HTTP/1.1')))(
  '%s: client and bidi streams',
  (_name, transportOf) => {
    test('client stream and bidi stream', async () => {
      const client = createRpcClient(OrderService, transportOf());
      expect(await client.Upload(fromArray([anOrder, { ...anOrder, id: 2n }]))).toEqual({
        count: 2,
        totalIds: bigId + 2n,
      });
      const notes = [];
      for await (const order of client.Chat(
        fromArray([
          { ...anOrder, note: 'a' },
          { ...anOrder, note: 'b' },
        ]),
      ))
        notes.push(order.note);
      expect(notes).toEqual(['echo a', 'echo b']);
    });
  },
);

describe('Connect specifics', () => {
  test('useHttpGet sends a NO_SIDE_EFFECTS method as GET, others as POST', async () => {
    for (const codec of ['proto', 'json'] as const) {
      const client = createRpcClient(
        OrderService,
        keep(connectTransport({ baseUrl: h1.url, codec, useHttpGet: true })),
      );
      expect((await client.GetOrder({ id: bigId })).id).toBe(bigId);
      expect(seen.method).toBe('GET');
    }
    const post = createRpcClient(OrderService, keep(connectTransport({ baseUrl: h1.url })));
    await post.GetOrder({ id: 1n });
    expect(seen.method).toBe('POST');
  });

  test('gzip is sent when asked: a server that reads no gzip refuses it, one that does answers', async () => {
    const options = { sendCompression: 'gzip', compressMinBytes: 0 } as const;
    const refusing = createRpcClient(
      OrderService,
      keep(connectTransport({ baseUrl: noGzip.url, ...options })),
    );
    await expect(refusing.GetOrder({ id: 1n })).rejects.toMatchObject({ status: 'UNIMPLEMENTED' });
    const plain = createRpcClient(OrderService, keep(connectTransport({ baseUrl: noGzip.url })));
    expect((await plain.GetOrder({ id: 1n })).id).toBe(1n);
    for (const transport of [
      connectTransport({ baseUrl: h1.url, ...options }),
      grpcWebTransport({ baseUrl: h1.url, ...options }),
      grpcTransport({ baseUrl: h2.url, ...options }),
    ]) {
      expect((await createRpcClient(OrderService, keep(transport)).GetOrder({ id: bigId })).id).toBe(bigId);
    }
  });

  test('replies come gzipped by default, and as they are with acceptCompression: identity', async () => {
    // A reply past Connect-ES's 1 KiB threshold, which its server compresses where the client accepts it.
    const order = { ...anOrder, note: 'a long note '.repeat(200) };
    const transports = [
      ['content-encoding', (options: object) => connectTransport({ baseUrl: h1.url, ...options })],
      ['grpc-encoding', (options: object) => grpcWebTransport({ baseUrl: h1.url, ...options })],
      ['grpc-encoding', (options: object) => grpcTransport({ baseUrl: h2.url, ...options })],
    ] as const;
    for (const [name, transportOf] of transports) {
      for (const [options, encoding] of [
        [{}, 'gzip'],
        [{ acceptCompression: 'identity' }, null],
      ] as const) {
        const client = createRpcClient(OrderService, keep(transportOf(options)));
        let seen: string | null | undefined;
        const reply = await client.PlaceOrder(order, { onHeader: (header) => (seen = header.get(name)) });
        expect(reply).toEqual(order);
        expect(seen, `${name} with ${JSON.stringify(options)}`).toBe(encoding);
      }
    }
  });

  test('a reply larger than readMaxBytes is RESOURCE_EXHAUSTED', async () => {
    const small = createRpcClient(
      OrderService,
      keep(connectTransport({ baseUrl: h1.url, readMaxBytes: 16 })),
    );
    await expect(small.GetOrder({ id: 1n })).rejects.toMatchObject({ status: 'RESOURCE_EXHAUSTED' });
    const streamed = createRpcClient(
      OrderService,
      keep(grpcWebTransport({ baseUrl: h1.url, readMaxBytes: 16 })),
    );
    await expect(streamed.GetOrder({ id: 1n })).rejects.toMatchObject({ status: 'RESOURCE_EXHAUSTED' });
  });

  test('a request larger than writeMaxBytes is refused before it is sent', async () => {
    const client = createRpcClient(
      OrderService,
      keep(connectTransport({ baseUrl: h1.url, writeMaxBytes: 16 })),
    );
    seen.dates = [];
    await expect(client.PlaceOrder(anOrder)).rejects.toMatchObject({ status: 'RESOURCE_EXHAUSTED' });
    expect(seen.dates).toEqual([]);
  });
});
