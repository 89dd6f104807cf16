/**
 * Hostile input against wirekit's gRPC server, frame by frame over a bare node:http2 client: each
 * answer is a status, nothing is buffered past the limits, and the server keeps serving others.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRpcServer, type RpcServer, rpcService } from '../../../src/boundaries/rpc/server/index.js';
import { createCodec } from '../../../src/codecs/index.js';
import { t } from '../../../src/index.js';
import { frame, grpcCall, openSession } from './server/grpc-wire.js';
import { GetOrder, orderService } from './server/order-service.js';

const Flood = t.object('Flood', { count: t.int32() });
const Chunk = t.object('Chunk', { index: t.int32(), text: t.string() });
const FloodService = t.service('hostile.v1.FloodService', { Flood: t.serverStream(Flood, Chunk) });
let yielded = 0;
const flood = rpcService(FloodService, {
  async *Flood(request) {
    for (let index = 0; index < request.count; index++) {
      yielded++;
      yield { index, text: 'x'.repeat(1000) };
    }
  },
});

let server: RpcServer;
const getOrder = '/orders.v1.OrderService/GetOrder';
const request = frame(createCodec('protobuf', { schema: GetOrder }).encode({ id: 1n }));

beforeAll(async () => {
  server = await createRpcServer({ services: [orderService(), flood] });
});

afterAll(async () => {
  await server?.close();
});

/** A call that must still succeed after each attack. */
async function stillServes() {
  const session = openSession(server.url);
  try {
    const answer = await grpcCall(session, getOrder, 'application/grpc', request);
    expect(answer.trailers['grpc-status']).toBe('0');
  } finally {
    session.close();
  }
}

async function attack(body: Uint8Array, headers: Record<string, string> = {}) {
  const session = openSession(server.url);
  try {
    return await grpcCall(session, getOrder, 'application/grpc', body, headers);
  } finally {
    session.close();
  }
}

describe('hostile gRPC input', () => {
  test('a length prefix past the end of the body is INVALID_ARGUMENT', async () => {
    const body = Buffer.from(request);
    body.writeUInt32BE(body.length + 100, 1);
    const answer = await attack(body);
    expect(answer.trailers['grpc-status']).toBe('3');
    await stillServes();
  });

  test('a frame claiming 2 GiB is RESOURCE_EXHAUSTED at its prefix, nothing buffered', async () => {
    const head = Buffer.from([0, 0x80, 0, 0, 0, 1, 2, 3]);
    const answer = await attack(head);
    expect(answer.trailers['grpc-status']).toBe('8');
    expect(String(answer.trailers['grpc-message'])).toContain('readMaxBytes');
    await stillServes();
  });

  test('a compressed flag without grpc-encoding is INTERNAL, with an unknown one UNIMPLEMENTED', async () => {
    const compressed = frame(gzipSync(request.subarray(5)), true);
    expect((await attack(compressed)).trailers['grpc-status']).toBe('13');
    const unknown = await attack(compressed, { 'grpc-encoding': 'snappy' });
    expect(unknown.trailers['grpc-status']).toBe('12');
    await stillServes();
  });

  test('a gzip bomb is RESOURCE_EXHAUSTED by the decompression caps', async () => {
    // 64 MiB of zeros in ~64 KiB: far past both the 4 MiB message limit and the 1,000x ratio.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
    expect(bomb.length).toBeLessThan(100 * 1024);
    const answer = await attack(frame(bomb, true), { 'grpc-encoding': 'gzip' });
    expect(answer.trailers['grpc-status']).toBe('8');
    await stillServes();
  });

  test('2,000 streams on one connection: the server admits 100 at a time and serves them all or refuses', async () => {
    const session = openSession(server.url);
    try {
      await new Promise((resolve) => session.once('remoteSettings', resolve));
      expect(session.remoteSettings.maxConcurrentStreams).toBe(100);
      const outcomes = await Promise.all(
        Array.from({ length: 2000 }, () =>
          grpcCall(session, getOrder, 'application/grpc', request).then(
            (answer) => String(answer.trailers['grpc-status']),
            (error: NodeJS.ErrnoException) => error.code ?? 'error',
          ),
        ),
      );
      const served = outcomes.filter((outcome) => outcome === '0').length;
      // node:http2's client queues streams past the peer's limit; whatever it does not send is
      // refused on the client's side, never left hanging.
      expect(served).toBeGreaterThanOrEqual(100);
      expect(outcomes.every((outcome) => outcome === '0' || /HTTP2/.test(outcome))).toBe(true);
    } finally {
      session.destroy();
    }
    await stillServes();
  }, 60_000);

  test('a client that never reads a server stream holds back the handler, and others are served', async () => {
    const session = openSession(server.url);
    const stream = session.request({
      ':method': 'POST',
      ':path': '/hostile.v1.FloodService/Flood',
      'content-type': 'application/grpc',
      te: 'trailers',
    });
    stream.pause();
    stream.end(frame(createCodec('protobuf', { schema: Flood }).encode({ count: 1_000_000 })));
    try {
      // Wait until the handler stops producing: HTTP/2 flow control fills, then Node's buffers.
      let last = -1;
      while (yielded !== last) {
        last = yielded;
        await sleep(200);
      }
      // A million replies of ~1 KB were asked for; what was produced is bounded by the windows
      // (64 KiB per stream by default) and a few stream buffers, not by the client's request.
      expect(yielded).toBeGreaterThan(0);
      expect(yielded).toBeLessThan(2000);
      await stillServes();
    } finally {
      stream.destroy();
      session.destroy();
    }
  }, 30_000);
});
