/**
 * `gatewayCallOf`: the gateway in front of a real gRPC hop (grpc-backend.ts) through wirekit's RPC
 * client, with the replies' Protocol Buffers bytes written as ProtoJSON without being decoded. Two
 * gateways serve the same routes, one through `gatewayCallOf` and one through `createRpcClient`
 * (each reply decoded to a value, then written), and every answer must be the same, byte for byte:
 * full replies, a response body field, defaults written with `emitDefaults`, a failed call, and
 * replies no encoder writes (a field given twice, invalid UTF-8, a timestamp past ProtoJSON's
 * years). A spy shows the bytes were not decoded where they did not need to be.
 */
import * as grpc from '@grpc/grpc-js';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { createRpcClient, grpcTransport } from '../../../../src/boundaries/rpc/client/index.js';
import { EncodedReply } from '../../../../src/boundaries/rpc/encoded-reply.js';
import {
  type GatewayCall,
  gatewayCallOf,
  type RpcGatewayOptions,
  rpcGateway,
} from '../../../../src/boundaries/rpc/gateway/index.js';
import { OrderApi } from '../../../fixtures/gateway-service.js';
import { type GrpcBackend, startGrpcBackend } from './grpc-backend.js';

/** A reply whose note is this has its field 2 (customer_name) sent again after it: the last wins. */
const twice = 'customer sent twice';
/** A reply whose customer is this has the name's first byte made 0xff: not UTF-8. */
const notUtf8 = 'Xnot utf-8';

let backend: GrpcBackend;
const servers: FastifyInstance[] = [];
const transports: { close(): void }[] = [];

beforeAll(async () => {
  backend = await startGrpcBackend(
    OrderApi,
    {
      GetOrder: (request: { id: bigint; tags: string[]; view?: string }) => {
        if (request.id === 404n) throw { code: grpc.status.NOT_FOUND, details: 'order 404 not found' };
        const id = Number(request.id);
        return {
          id: request.id,
          customer_name: id === 2 ? notUtf8 : id === 0 ? '' : 'Ada "the first" \\ Lovelace\n',
          status: request.view ?? 'OPEN',
          total_cents: id === 0 ? 0n : -(2n ** 63n),
          tags: id === 0 ? [] : ['a', 'ünïcødé 🎉', ...request.tags],
          ...(id === 0 ? {} : { placed_at: new Date(Date.UTC(2024, 4, 6, 7, 8, 9, 500)) }),
          ...(id === 3 ? { placed_at: new Date('+010000-01-01T00:00:00Z') } : {}),
          ...(id === 0 ? {} : { address: { city: 'Paris' } }),
          note: id === 1 ? twice : '',
        };
      },
      GetNote: (request: { id: bigint }) => ({
        id: request.id,
        customer_name: 'Ada',
        status: 'PAID',
        total_cents: 0n,
        tags: [],
        note: request.id === 0n ? '' : `note of ${request.id}`,
      }),
    },
    (method, bytes) => {
      if (method !== 'GetOrder') return bytes;
      const at = bytes.indexOf(notUtf8);
      if (at >= 0) {
        const copy = Buffer.from(bytes);
        copy[at] = 0xff;
        return copy;
      }
      if (bytes.includes(twice)) return Buffer.concat([bytes, Buffer.from([0x12, 3]), Buffer.from('Zed')]);
      return bytes;
    },
  );
});

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const transport of transports.splice(0)) transport.close();
});

afterAll(async () => {
  await backend?.close();
});

/** A gateway on a free port, calling the backend through `call`; its base URL. */
async function gateway(call: GatewayCall, options: RpcGatewayOptions = {}): Promise<string> {
  const app = Fastify({ logger: false });
  servers.push(app);
  await app.register(rpcGateway(OrderApi, call, options));
  return app.listen({ host: '127.0.0.1', port: 0 });
}

/** The two gateways: replies left in their bytes, and replies decoded by the usual client. */
async function pair(options: RpcGatewayOptions = {}) {
  const baseUrl = `http://127.0.0.1:${backend.port}`;
  const encoded = grpcTransport({ baseUrl, codec: 'proto' });
  const decoded = grpcTransport({ baseUrl, codec: 'proto' });
  transports.push(encoded, decoded);
  const client = createRpcClient(OrderApi, decoded);
  const viaClient: GatewayCall = (method, request, callOptions) =>
    (client[method as 'GetOrder'] as (request: unknown, options: object) => Promise<unknown>)(
      request,
      callOptions,
    );
  return {
    transcoding: await gateway(gatewayCallOf(OrderApi, encoded), options),
    decoding: await gateway(viaClient, options),
  };
}

async function answer(base: string, path: string) {
  const response = await fetch(`${base}${path}`);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    code: response.headers.get('wirekit-error-code'),
    text: await response.text(),
  };
}

describe('gatewayCallOf answers as a gateway that decodes each reply', () => {
  const paths = [
    '/v1/orders/7?tags=b&tags=c',
    '/v1/orders/7?view=ORDER_STATUS_SHIPPED',
    '/v1/orders/0',
    '/v1/orders/7/note',
    '/v1/orders/0/note',
    '/v1/orders/404',
    '/v1/orders/1',
    '/v1/orders/2',
    '/v1/orders/3',
  ];

  for (const emitDefaults of [false, true]) {
    test(`the same answers, byte for byte${emitDefaults ? ', with emitDefaults' : ''}`, async () => {
      const { transcoding, decoding } = await pair({ emitDefaults });
      for (const path of paths) {
        const expected = await answer(decoding, path);
        expect(await answer(transcoding, path), path).toEqual(expected);
      }
    });
  }

  test('what each answer is', async () => {
    const { transcoding } = await pair();
    const full = JSON.parse((await answer(transcoding, '/v1/orders/7?tags=b')).text);
    expect(full).toEqual({
      id: '7',
      customerName: 'Ada "the first" \\ Lovelace\n',
      // status OPEN, the enum's first value, is its default: left out.
      totalCents: '-9223372036854775808',
      tags: ['a', 'ünïcødé 🎉', 'b'],
      placedAt: '2024-05-06T07:08:09.500Z',
      address: { city: 'Paris' },
    });
    expect(await answer(transcoding, '/v1/orders/0')).toMatchObject({ status: 200, text: '{}' });
    expect(await answer(transcoding, '/v1/orders/7/note')).toMatchObject({ text: '"note of 7"' });
    expect(JSON.parse((await answer(transcoding, '/v1/orders/1')).text).customerName).toBe('Zed');
    expect(await answer(transcoding, '/v1/orders/404')).toMatchObject({ status: 404 });
    // Bytes that do not decode fail the call, as the client's decoding fails it.
    expect(await answer(transcoding, '/v1/orders/2')).toMatchObject({
      status: 500,
      code: 'WK_DECODE_MALFORMED',
    });
    // A value with no ProtoJSON form is the gateway's 500, as for a decoded reply.
    expect(await answer(transcoding, '/v1/orders/3')).toMatchObject({
      status: 500,
      code: 'WK_ENCODE_UNSUPPORTED',
    });
  });

  test('a reply is decoded only where its bytes cannot be written as they are', async () => {
    const { transcoding } = await pair();
    const decode = vi.spyOn(EncodedReply.prototype, 'decode');
    try {
      for (const path of ['/v1/orders/7?tags=b', '/v1/orders/0', '/v1/orders/7/note']) {
        expect((await answer(transcoding, path)).status).toBe(200);
      }
      expect(decode).not.toHaveBeenCalled();
      await answer(transcoding, '/v1/orders/2');
      expect(decode).toHaveBeenCalledTimes(1);
    } finally {
      decode.mockRestore();
    }
  });
});
