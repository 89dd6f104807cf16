/**
 * The WebSocket boundary's server half against a real `ws` client over loopback: each protocol
 * negotiated and echoed in its own frame kind, JSON in text frames for a client that asks for
 * nothing, 1007 with the error code for a frame that does not decode, 1009 for one too large.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { type SocketRouteHandle, socketFormats, wirekitSockets } from '../../../src/boundaries/ws/index.js';
import { createCodec } from '../../../src/codecs/registry.js';
import { t } from '../../../src/index.js';
import { echo, listenSockets } from '../../support/ws.js';

const Tick = t.object('Tick', {
  symbol: t.string({ maxLength: 12 }),
  price: t.float64(),
  volume: t.uint32(),
  at: t.timestamp(),
});
const tick = { symbol: 'ASML', price: 687.25, volume: 1200, at: new Date('2026-12-03T12:00:00.000Z') };

let app: FastifyInstance;
let echoRoute: SocketRouteHandle<unknown>;
let base = '';

beforeAll(async () => {
  app = Fastify();
  await app.register(wirekitSockets, { maxFrameBytes: 4096 });
  echoRoute = app.wirekitSocket({
    url: '/ws',
    receive: Tick,
    send: Tick,
    handler: echo,
  });
  app.wirekitSocket({
    url: '/lenient',
    receive: Tick,
    send: t.object('Skipped', { skipped: t.uint32() }),
    onInvalid: 'skip',
    handler: async (connection) => {
      for await (const _ of connection.messages) connection.send({ skipped: connection.skipped });
    },
  });
  // A plugin with a prefix and an authentication hook: both must apply to its socket routes.
  await app.register(
    async (child) => {
      child.addHook('onRequest', async (request, reply) => {
        if (request.headers.authorization !== 'Bearer open-sesame') await reply.code(401).send();
      });
      child.wirekitSocket({ url: '/ws', receive: Tick, send: Tick, handler: echo });
    },
    { prefix: '/private' },
  );
  base = await listenSockets(app);
});

afterAll(() => app.close());

interface Reply {
  readonly protocol: string;
  readonly data: Buffer;
  readonly isBinary: boolean;
}

/** Opens a socket, sends `frames`, and resolves with the first reply or the close code and reason. */
function exchange(path: string, protocols: string[], frames: (Uint8Array | string)[]) {
  return new Promise<Reply | { code: number; reason: string }>((resolve, reject) => {
    const socket = new WebSocket(`${base}${path}`, protocols);
    socket.on('open', () => {
      for (const frame of frames) socket.send(frame, { binary: typeof frame !== 'string' });
    });
    socket.on('message', (data, isBinary) => {
      resolve({ protocol: socket.protocol, data: data as Buffer, isBinary });
      socket.close();
    });
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    socket.on('error', reject);
  });
}

describe('wirekit sockets', () => {
  test.each(socketFormats)('wirekit.%s: negotiated, echoed in its own frame kind', async (format) => {
    const codec = createCodec(format, { schema: Tick });
    const encoded = codec.encode(tick);
    const frame = format === 'json' ? new TextDecoder().decode(encoded) : encoded;
    const before = { ...echoRoute.stats };
    const reply = (await exchange('/ws', [`wirekit.${format}`], [frame])) as Reply;
    expect(reply.protocol).toBe(`wirekit.${format}`);
    expect(reply.isBinary).toBe(format !== 'json');
    expect(codec.decode(new Uint8Array(reply.data))).toEqual(tick);
    // One message each way, counted with its payload bytes.
    expect(echoRoute.stats).toMatchObject({
      received: before.received + 1,
      sent: before.sent + 1,
      receivedBytes: before.receivedBytes + encoded.length,
      sentBytes: before.sentBytes + encoded.length,
    });
  });

  test("several offered: the client's first the server serves", async () => {
    const encoded = createCodec('cbor', { schema: Tick }).encode(tick);
    const reply = (await exchange(
      '/ws',
      ['chat', 'wirekit.flatbuffers', 'wirekit.cbor', 'wirekit.json'],
      [encoded],
    )) as Reply;
    expect(reply.protocol).toBe('wirekit.cbor');
  });

  test('no protocol offered: JSON in text frames, readable as it is', async () => {
    const text = new TextDecoder().decode(createCodec('json', { schema: Tick }).encode(tick));
    const reply = (await exchange('/ws', [], [text])) as Reply;
    expect(reply.protocol).toBe('');
    expect(reply.isBinary).toBe(false);
    expect(JSON.parse(reply.data.toString())).toEqual({ ...tick, at: tick.at.toISOString() });
  });

  test('a frame that does not decode or validate closes with 1007 and the error code', async () => {
    const msgpack = createCodec('msgpack', { schema: undefined });
    // 0xc1 is no MessagePack item: the codec's own code comes back as the reason.
    const garbage = (await exchange('/ws', ['wirekit.msgpack'], [Uint8Array.of(0xc1)])) as {
      code: number;
      reason: string;
    };
    expect(garbage.code).toBe(1007);
    expect(garbage.reason).toMatch(/^WK_DECODE_/);
    const wrong = msgpack.encode({ symbol: 'x'.repeat(13), price: 1, volume: 1, at: new Date(0) });
    const closed = (await exchange('/ws', ['wirekit.msgpack'], [wrong])) as { code: number; reason: string };
    expect(closed.code).toBe(1007);
    expect(closed.reason).toMatch(/^WK_/);
    // A text frame where the protocol is binary.
    expect(await exchange('/ws', ['wirekit.cbor'], ['{}'])).toEqual({
      code: 1007,
      reason: 'WK_DECODE_MALFORMED',
    });
  });

  test('a frame over maxFrameBytes closes with 1009', async () => {
    const closed = (await exchange('/ws', ['wirekit.msgpack'], [new Uint8Array(5000)])) as { code: number };
    expect(closed.code).toBe(1009);
  });

  test("a plugin's prefix and hooks apply: the upgrade is refused without the token and echoes with it", async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const socket = new WebSocket(`${base}/private/ws`, ['wirekit.json']);
      socket.on('unexpected-response', (_request, response) => {
        resolve(response.statusCode);
        socket.terminate();
      });
      socket.on('open', () => {
        resolve(undefined);
        socket.close();
      });
      socket.on('error', reject);
    });
    expect(status).toBe(401);
    const json = createCodec('json', { schema: Tick });
    const reply = await new Promise<Buffer>((resolve, reject) => {
      const socket = new WebSocket(`${base}/private/ws`, ['wirekit.json'], {
        headers: { authorization: 'Bearer open-sesame' },
      });
      socket.on('open', () => socket.send(new TextDecoder().decode(json.encode(tick))));
      socket.on('message', (data: Buffer) => {
        resolve(data);
        socket.close();
      });
      socket.on('error', reject);
    });
    expect(json.decode(new Uint8Array(reply))).toEqual(tick);
  });

  test("onInvalid 'skip': bad frames are counted and the connection goes on", async () => {
    const codec = createCodec('avro', { schema: Tick });
    const reply = (await exchange(
      '/lenient',
      ['wirekit.avro'],
      [Uint8Array.of(1, 2, 3), Uint8Array.of(0xff), codec.encode(tick)],
    )) as Reply;
    const skipped = createCodec('avro', { schema: t.object('Skipped', { skipped: t.uint32() }) });
    expect(skipped.decode(new Uint8Array(reply.data))).toEqual({ skipped: 2 });
  });
});
