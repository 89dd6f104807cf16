/**
 * wirekit's gRPC-Web handler against Connect-ES's own gRPC-Web client (binary and JSON, over
 * HTTP/1.1 and h2c), and at the byte level with fetch: formats per call, the `-text` variant, the
 * status in the trailer frame, and hostile input answered with a status each.
 */
import { gzipSync } from 'node:zlib';
import { Code, ConnectError } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-node';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { messageSerializer, type RpcCodecName } from '../../../../src/boundaries/rpc/message-formats.js';
import { createGrpcWebHandlerFactory } from '../../../../src/boundaries/rpc/server/grpc-web-handler.js';
import { fromPeerOrder, peerGetOrder, peerOrder, shopClient } from './peer-messages.js';
import { serveTestService, type TestServer } from './router.js';
import { bigId, GetOrder, Order, ShopService, Summary, sampleOrder, shopHandlers } from './shop-service.js';
import { concat, envelope, grpcStatusOf, splitEnvelopes, text } from './wire.js';

const trailerFlag = 0x80;

describe.each([
  { httpVersion: '1.1', useBinaryFormat: true },
  { httpVersion: '1.1', useBinaryFormat: false },
  { httpVersion: '2', useBinaryFormat: true },
  { httpVersion: '2', useBinaryFormat: false },
] as const)(
  'Connect-ES gRPC-Web client, HTTP/$httpVersion, binary $useBinaryFormat',
  ({ httpVersion, useBinaryFormat }) => {
    let server: TestServer;
    const shop = shopHandlers();
    beforeAll(async () => {
      server = await serveTestService(ShopService, shop.handlers, [createGrpcWebHandlerFactory], {
        httpVersion,
      });
    });
    afterAll(() => server.close());
    const client = () =>
      shopClient(createGrpcWebTransport({ baseUrl: server.url, httpVersion, useBinaryFormat }));

    test('unary: an int64 past 2^53, a timestamp, bytes, an enum, an optional left out', async () => {
      const reply = await client().getOrder(peerGetOrder(bigId));
      expect(fromPeerOrder(reply)).toEqual(sampleOrder(bigId));
      const placed = await client().placeOrder(peerOrder({ ...sampleOrder(bigId), note: 'gift' }));
      expect(fromPeerOrder(placed)).toEqual({ ...sampleOrder(bigId + 1n), note: 'gift' });
    });

    test('server stream and client stream', async () => {
      const ids: bigint[] = [];
      for await (const order of client().watchOrders(peerGetOrder(bigId))) ids.push(order.id);
      expect(ids).toEqual([bigId, bigId + 1n, bigId + 2n]);
      async function* orders() {
        for (const id of [1n, 2n, bigId]) yield peerOrder(sampleOrder(id));
      }
      const summary = await client().upload(orders());
      expect([summary.count, summary.idSum]).toEqual([3, bigId + 3n]);
    });

    // Over HTTP/1.1 the router refuses a bidi call (505): a request and a response at once need HTTP/2.
    test(`bidi stream ${httpVersion === '2' ? 'served' : 'refused over HTTP/1.1'}`, async () => {
      async function* orders() {
        for (const id of [1n, bigId]) yield peerOrder(sampleOrder(id));
      }
      const ids: bigint[] = [];
      const outcome = (async () => {
        for await (const order of client().chat(orders())) ids.push(order.id);
      })();
      if (httpVersion === '2') {
        await outcome;
        expect(ids).toEqual([2n, bigId + 1n]);
      } else {
        const error = await outcome.then(
          () => undefined,
          (e: unknown) => ConnectError.from(e),
        );
        expect(error?.message).toMatch(/HTTP 505/);
      }
    });

    test('errors reach the client from the trailers: a validation error with its details, an unexpected one hidden', async () => {
      const invalid = await client()
        .getOrder(peerGetOrder(-1n))
        .catch((e: unknown) => ConnectError.from(e));
      expect(invalid.code).toBe(Code.InvalidArgument);
      expect(invalid.details.map((d: { type: string }) => d.type)).toEqual([
        'google.rpc.ErrorInfo',
        'google.rpc.BadRequest',
      ]);
      const internal = await client()
        .getOrder(peerGetOrder(13n))
        .catch((e: unknown) => ConnectError.from(e));
      expect([internal.code, internal.rawMessage]).toEqual([Code.Internal, 'internal error']);
    });
  },
);

describe('gRPC-Web at the byte level', () => {
  let server: TestServer;
  const shop = shopHandlers();
  beforeAll(async () => {
    server = await serveTestService(ShopService, shop.handlers, [createGrpcWebHandlerFactory], {
      httpVersion: '1.1',
    });
  });
  afterAll(() => server.close());

  async function call(
    method: string,
    contentType: string,
    body: Uint8Array | string,
    headers: Record<string, string> = {},
  ) {
    const response = await fetch(`${server.url}/shop.v1.ShopService/${method}`, {
      method: 'POST',
      headers: { 'content-type': contentType, ...headers },
      body,
    });
    return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
  }

  /** The trailer frame's fields, read as gRPC-Web writes them (`name:value` lines). */
  function trailersOf(frame: { flags: number; data: Uint8Array } | undefined): Record<string, string> {
    expect(frame?.flags).toBe(trailerFlag);
    const lines = text(frame?.data as Uint8Array)
      .split('\r\n')
      .filter(Boolean);
    return Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
    );
  }

  /** A `-text` body: every piece the server wrote is padded on its own, so decode piece by piece. */
  function fromTextBody(bytes: Uint8Array): Uint8Array {
    const pieces =
      text(bytes)
        .match(/[A-Za-z0-9+/]*={0,2}/g)
        ?.filter(Boolean) ?? [];
    return concat(...pieces.map((piece) => new Uint8Array(Buffer.from(piece, 'base64'))));
  }

  const good = async () => {
    const { bytes } = await call(
      'GetOrder',
      'application/grpc-web+msgpack',
      envelope(0, messageSerializer(GetOrder, 'msgpack').serialize({ id: 1n })),
    );
    return trailersOf(splitEnvelopes(bytes).at(-1))['grpc-status'];
  };

  test.each(['proto', 'json', 'msgpack', 'cbor', 'avro'] satisfies RpcCodecName[])(
    'application/grpc-web+%s is answered in kind, with grpc-status 0 in the trailer frame',
    async (codec) => {
      const request = envelope(0, messageSerializer(GetOrder, codec).serialize({ id: bigId }));
      const { response, bytes } = await call('GetOrder', `application/grpc-web+${codec}`, request);
      expect(response.headers.get('content-type')).toBe(`application/grpc-web+${codec}`);
      const [reply, trailer] = splitEnvelopes(bytes);
      expect(messageSerializer(Order, codec).parse(reply?.data as Uint8Array)).toEqual(sampleOrder(bigId));
      expect(trailersOf(trailer)['grpc-status']).toBe('0');
    },
  );

  test('application/grpc-web-text: a base64 body sent in padded pieces, answered as padded pieces', async () => {
    const orders = [1n, bigId].map((id) =>
      envelope(0, messageSerializer(Order, 'proto').serialize(sampleOrder(id))),
    );
    // Each envelope encoded on its own, so padding sits in the middle of the body, as the spec allows.
    const body = orders.map((bytes) => Buffer.from(bytes).toString('base64')).join('');
    expect(body.slice(0, -2)).toContain('=');
    const { response, bytes } = await call('Upload', 'application/grpc-web-text', body);
    expect(response.headers.get('content-type')).toBe('application/grpc-web-text+proto');
    // Every piece the server wrote is padded on its own: decode piece by piece.
    const pieces =
      text(bytes)
        .match(/[A-Za-z0-9+/]*={0,2}/g)
        ?.filter(Boolean) ?? [];
    const decoded = concat(...pieces.map((piece) => new Uint8Array(Buffer.from(piece, 'base64'))));
    const [reply, trailer] = splitEnvelopes(decoded);
    expect(messageSerializer(Summary, 'proto').parse(reply?.data as Uint8Array)).toEqual({
      count: 2,
      idSum: bigId + 1n,
    });
    expect(trailersOf(trailer)['grpc-status']).toBe('0');
  });

  test('a validation error: grpc-status 3, grpc-message, and wirekit details in grpc-status-details-bin', async () => {
    const request = envelope(0, messageSerializer(GetOrder, 'proto').serialize({ id: -1n }));
    const { bytes } = await call('GetOrder', 'application/grpc-web', request);
    const [trailer, ...rest] = splitEnvelopes(bytes);
    expect(rest).toEqual([]);
    const fields = trailersOf(trailer);
    expect(fields['grpc-status']).toBe('3');
    expect(decodeURIComponent(fields['grpc-message'] as string)).toMatch(/^id: /);
    const status = grpcStatusOf(fields['grpc-status-details-bin'] as string);
    expect(status.code).toBe(3);
    expect(status.details.map((any) => any.typeUrl)).toEqual([
      'type.googleapis.com/google.rpc.ErrorInfo',
      'type.googleapis.com/google.rpc.BadRequest',
    ]);
  });

  test('grpc-timeout: 0n is DEADLINE_EXCEEDED and the handler never runs', async () => {
    const runs = shop.runs();
    const orders = envelope(0, messageSerializer(Order, 'proto').serialize(sampleOrder(1n)));
    const { bytes } = await call('Upload', 'application/grpc-web+proto', orders, { 'grpc-timeout': '0n' });
    expect(trailersOf(splitEnvelopes(bytes)[0])['grpc-status']).toBe('4');
    expect(shop.runs()).toBe(runs);
    expect(await good()).toBe('0');
  });

  test('hostile bodies: a status each, and the next call is served', async () => {
    const status = async (
      method: string,
      contentType: string,
      body: Uint8Array | string,
      headers: Record<string, string> = {},
    ) => {
      const { bytes } = await call(method, contentType, body, headers);
      const frames = splitEnvelopes(contentType.includes('-text') ? fromTextBody(bytes) : bytes);
      return trailersOf(frames.at(-1))['grpc-status'];
    };
    const order = messageSerializer(Order, 'proto').serialize(sampleOrder(1n));
    // Bad MessagePack: INVALID_ARGUMENT from wirekit's decoder, not INTERNAL.
    expect(
      await status('GetOrder', 'application/grpc-web+msgpack', envelope(0, new Uint8Array([0xc1]))),
    ).toBe('3');
    // A length prefix past the end of the body.
    expect(await status('Upload', 'application/grpc-web+proto', envelope(0, order).subarray(0, 9))).toBe('3');
    // A frame claiming 2 GiB: refused from its prefix, nothing buffered.
    expect(await status('Upload', 'application/grpc-web+proto', envelope(0, order, 2 ** 31))).toBe('8');
    // A compressed frame in an encoding the server does not know.
    expect(
      await status('Upload', 'application/grpc-web+proto', envelope(1, order), { 'grpc-encoding': 'snappy' }),
    ).toBe('12');
    // 16 MiB of zeros gzipped to 16 KiB: stopped at the 4 MiB read limit while inflating.
    const bomb = envelope(1, new Uint8Array(gzipSync(new Uint8Array(16 * 1024 * 1024))));
    expect(await status('Upload', 'application/grpc-web+proto', bomb, { 'grpc-encoding': 'gzip' })).toBe('8');
    // Not base64 at all, and base64 that stops inside a group of four.
    expect(await status('Upload', 'application/grpc-web-text', '!!!!')).toBe('3');
    expect(await status('Upload', 'application/grpc-web-text', 'AAAAAAE')).toBe('3');
    expect(await good()).toBe('0');
  });
});
