/**
 * createRpcServer on node:http2: HTTP/2 and HTTP/1.1 on one port (told apart by the HTTP/2
 * client preface, even when it arrives in pieces), the SETTINGS it advertises, and a close that
 * lets calls finish for a grace period, then aborts their handlers.
 */
import { connect as connectTcp } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { createRpcServer } from '../../../../src/boundaries/rpc/server/index.js';
import { protocolOfPreface } from '../../../../src/boundaries/rpc/server/one-port.js';
import { createCodec } from '../../../../src/codecs/index.js';
import { frame, grpcCall, openSession, parseFrames } from './grpc-wire.js';
import { GetOrder, Order, orderService, type Seen, sampleOrder } from './order-service.js';

const preface = 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n';

describe('createRpcServer', () => {
  test('the preface decides: HTTP/2 once all 24 bytes match, HTTP/1.1 at the first byte that does not', () => {
    expect(protocolOfPreface(Buffer.from(preface))).toBe('h2');
    expect(protocolOfPreface(Buffer.from(preface.slice(0, 10)))).toBeUndefined();
    expect(protocolOfPreface(Buffer.from('POST /orders.v1.OrderService/GetOrder HTTP/1.1\r\n'))).toBe(
      'http/1.1',
    );
    expect(protocolOfPreface(Buffer.from('PRI * HTTP/1.1'))).toBe('http/1.1');
    expect(protocolOfPreface(Buffer.alloc(0))).toBeUndefined();
  });

  test('HTTP/1.1 and h2c on one port', async () => {
    const server = await createRpcServer({ services: [orderService()] });
    try {
      expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
      // HTTP/1.1 (fetch): Connect's gRPC handler answers there too.
      const body = frame(createCodec('msgpack', { schema: GetOrder }).encode({ id: 4n }));
      const response = await fetch(`${server.url}/orders.v1.OrderService/GetOrder`, {
        method: 'POST',
        headers: { 'content-type': 'application/grpc+msgpack' },
        body,
      });
      expect(response.status).toBe(200);
      const { messages } = parseFrames(Buffer.from(await response.arrayBuffer()));
      expect(createCodec('msgpack', { schema: Order }).decode(messages[0] ?? new Uint8Array())).toEqual(
        sampleOrder(4n),
      );
      expect((await fetch(`${server.url}/nothing`)).status).toBe(404);
      // h2c on the same port.
      const session = openSession(server.url);
      const answer = await grpcCall(
        session,
        '/orders.v1.OrderService/GetOrder',
        'application/grpc+msgpack',
        body,
      );
      expect(answer.trailers['grpc-status']).toBe('0');
      session.close();
    } finally {
      await server.close();
    }
  });

  test('a preface that arrives in pieces still opens HTTP/2', async () => {
    const server = await createRpcServer({ services: [orderService()] });
    const socket = connectTcp(server.port, '127.0.0.1');
    try {
      await new Promise((resolve) => socket.once('connect', resolve));
      const received: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      // The first 5 bytes could begin either protocol: the server waits for the rest.
      socket.write(preface.slice(0, 5));
      await sleep(50);
      expect(received).toEqual([]);
      // The rest of the preface, then an empty SETTINGS frame (length 0, type 4, stream 0).
      socket.write(preface.slice(5));
      socket.write(Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]));
      while (received.length === 0) await sleep(10);
      // The server's first frame is its own SETTINGS: HTTP/2 answered, not an HTTP/1.1 error.
      expect(Buffer.concat(received)[3]).toBe(4);
    } finally {
      socket.destroy();
      await server.close();
    }
  });

  test('it advertises 100 concurrent streams per connection by default, or what it is told', async () => {
    for (const [options, expected] of [
      [{}, 100],
      [{ maxConcurrentStreams: 7 }, 7],
    ] as const) {
      const server = await createRpcServer({ services: [orderService()], ...options });
      const session = openSession(server.url);
      try {
        await new Promise((resolve) => session.once('remoteSettings', resolve));
        expect(session.remoteSettings.maxConcurrentStreams).toBe(expected);
      } finally {
        session.close();
        await server.close();
      }
    }
  });

  test('close() lets a call in flight run for the grace period, then aborts its signal', async () => {
    const seen: Seen = { calls: [], contexts: [], aborted: [], timeouts: [] };
    const server = await createRpcServer({ services: [orderService(seen)], shutdownTimeoutMs: 200 });
    const session = openSession(server.url);
    const slow = grpcCall(
      session,
      '/orders.v1.OrderService/GetOrder',
      'application/grpc',
      frame(createCodec('protobuf', { schema: GetOrder }).encode({ id: 1n, failWith: 'slow' })),
    ).catch((error: unknown) => error);
    while (seen.calls.length === 0) await sleep(10);
    await server.close();
    expect(seen.aborted).toEqual(['GetOrder']);
    await slow;
    session.destroy();
  });
});
