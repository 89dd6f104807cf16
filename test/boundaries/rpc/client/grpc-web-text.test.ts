/**
 * gRPC-Web's text variant (`application/grpc-web-text`): the body as base64. Connect-ES's server
 * refuses it, so the test puts a translating proxy in front of it, as Envoy's gRPC-Web filter is
 * deployed: it decodes the client's base64 (each chunk padded on its own), forwards binary gRPC-Web,
 * and answers in base64 cut the awkward ways a server may cut it: two separately padded runs, one
 * of them split across writes in the middle of a group of four.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { base64Decoded } from '../../../../src/boundaries/rpc/client/base64-stream.js';
import {
  createRpcClient,
  grpcWebTransport,
  type NodeRpcTransport,
} from '../../../../src/boundaries/rpc/client/index.js';
import { listen, routes, type Served } from './connect-es-peer.js';
import { anOrder, bigId, OrderService } from './order-service.js';

const textType = 'application/grpc-web-text+proto';

let upstream: Served;
let proxy: http.Server;
let proxyUrl: string;
const seenTypes: string[] = [];
let transport: NodeRpcTransport;

function fromPaddedRuns(text: string): Buffer {
  const runs = text.match(/[A-Za-z0-9+/]+={0,2}/g) ?? [];
  return Buffer.concat(runs.map((run) => Buffer.from(run, 'base64')));
}

beforeAll(async () => {
  upstream = await listen(http.createServer(routes({})));
  proxy = http.createServer(async (request, response) => {
    seenTypes.push(request.headers['content-type'] ?? '');
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const upstreamResponse = await fetch(`${upstream.url}${request.url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/grpc-web+proto', 'x-grpc-web': '1' },
      body: fromPaddedRuns(Buffer.concat(chunks).toString('latin1')),
    });
    const body = Buffer.from(await upstreamResponse.arrayBuffer());
    response.writeHead(upstreamResponse.status, { 'content-type': textType });
    // Two runs, each padded: cut at an odd offset so both need padding.
    const cut = body.length > 7 ? 7 : 1;
    const first = body.subarray(0, cut).toString('base64');
    const second = body.subarray(cut).toString('base64');
    response.write(first.slice(0, 3)); // inside a group of four
    response.write(first.slice(3));
    response.end(second);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  transport = grpcWebTransport({ baseUrl: proxyUrl, text: true });
});

afterAll(async () => {
  transport?.close();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await upstream.close();
});

describe('gRPC-Web text through a translating proxy', () => {
  test('unary and server stream, the request sent as base64 text', async () => {
    const client = createRpcClient(OrderService, transport);
    seenTypes.length = 0;
    expect(await client.GetOrder({ id: bigId })).toEqual({ ...anOrder, id: bigId });
    const ids: bigint[] = [];
    for await (const order of client.WatchOrders({ count: 3 })) ids.push(order.id);
    expect(ids).toEqual([1n, 2n, 3n]);
    expect(seenTypes).toEqual([textType, textType]);
  });

  test('errors travel in the base64 trailer frame', async () => {
    const client = createRpcClient(OrderService, transport);
    await expect(client.GetOrder({ id: 3n })).rejects.toMatchObject({
      status: 'INVALID_ARGUMENT',
      code: 'WK_VALIDATION_FAILED',
    });
  });
});

describe('the base64 body decoder', () => {
  async function* chunks(...parts: string[]) {
    for (const part of parts) yield new TextEncoder().encode(part);
  }
  async function decoded(...parts: string[]) {
    const out: number[] = [];
    for await (const bytes of base64Decoded(chunks(...parts))) out.push(...bytes);
    return out;
  }

  test('groups split across chunks, padded runs one after another, line breaks skipped', async () => {
    const bytes = [0, 1, 2, 250, 251, 252, 253];
    const a = Buffer.from(bytes.slice(0, 1)).toString('base64'); // "AA=="
    const b = Buffer.from(bytes.slice(1)).toString('base64');
    expect(await decoded(a.slice(0, 2), a.slice(2) + b.slice(0, 5), '\r\n', b.slice(5))).toEqual(bytes);
  });

  test('a body ending inside a group, or holding other characters, is refused', async () => {
    await expect(decoded('AAE')).rejects.toMatchObject({ code: 3 });
    await expect(decoded('AA*=')).rejects.toMatchObject({ code: 3 });
  });
});
