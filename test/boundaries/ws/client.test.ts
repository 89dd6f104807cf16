/**
 * The typed socket client (over undici's WHATWG WebSocket, as on Node 20) against the real server
 * plugin on loopback: every format both ways, the client's order of preference, an offer the
 * server cannot serve, reconnecting after the server restarts (sends made meanwhile arrive), a
 * server's bad frames, and the client's bounded buffer of unread messages.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { WebSocket } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { WebSocketServer, WebSocket as WsWebSocket } from 'ws';
import { createSocketClient } from '../../../src/boundaries/ws/client-entry.js';
import {
  type SocketFormat,
  type SocketPluginOptions,
  socketFormats,
  wirekitSockets,
} from '../../../src/boundaries/ws/index.js';
import { allFormats } from '../../../src/codecs/registry.js';
import { WirekitError } from '../../../src/errors/index.js';
import { t } from '../../../src/index.js';
import { echo, listenSockets } from '../../support/ws.js';

const Tick = t.object('Tick', {
  symbol: t.string({ maxLength: 12 }),
  price: t.float64(),
  volume: t.uint32(),
  at: t.timestamp(),
});
type Tick = { symbol: string; price: number; volume: number; at: Date };
const tickAt = (i: number): Tick => ({
  symbol: 'ASML',
  price: 687.25 + i,
  volume: i,
  at: new Date(1_764_000_000_000 + i),
});

const entryOf = (name: SocketFormat) => {
  const entry = allFormats.find((candidate) => candidate.name === name);
  if (entry === undefined) throw new Error(name);
  return entry;
};

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An echo server: every message comes back; `options` may limit what it serves. */
async function echoServer(port = 0, options: SocketPluginOptions = {}) {
  const app: FastifyInstance = Fastify();
  await app.register(wirekitSockets, options);
  const route = app.wirekitSocket({
    url: '/ws',
    receive: Tick,
    send: Tick,
    handler: echo,
  });
  const base = await listenSockets(app, port);
  return { app, route, url: `${base}/ws`, port: Number(new URL(base).port) };
}

/** The next `count` messages of an iterator. */
async function take<T>(iterator: AsyncIterator<T>, count: number): Promise<T[]> {
  const out: T[] = [];
  while (out.length < count) {
    const next = await iterator.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
}

describe('the socket client', () => {
  test.each(socketFormats)('%s: offered, selected, sent and read back', async (format) => {
    const server = await echoServer();
    cleanups.push(() => server.app.close());
    const client = createSocketClient({
      url: server.url,
      receive: Tick,
      send: Tick,
      codecs: [entryOf(format)],
      WebSocket,
    });
    cleanups.push(() => client.close());
    await client.opened();
    expect(client.format).toBe(format);
    const sent = [tickAt(1), tickAt(2), tickAt(3)];
    for (const tick of sent) expect(client.send(tick)).toBe(true);
    expect(await take(client.messages[Symbol.asyncIterator](), 3)).toEqual(sent);
    expect(client.stats).toMatchObject({ connects: 1, sent: 3, received: 3, dropped: 0 });
  });

  test.each(['json', 'msgpack'] as const)(
    "%s: the ws package's WebSocket class works as undici's does",
    async (format) => {
      const server = await echoServer();
      cleanups.push(() => server.app.close());
      const client = createSocketClient({
        url: server.url,
        receive: Tick,
        send: Tick,
        codecs: [entryOf(format)],
        WebSocket: WsWebSocket,
      });
      cleanups.push(() => client.close());
      await client.opened();
      expect(client.format).toBe(format);
      const sent = [tickAt(1), tickAt(2)];
      for (const tick of sent) expect(client.send(tick)).toBe(true);
      expect(await take(client.messages[Symbol.asyncIterator](), 2)).toEqual(sent);
    },
  );

  test("the client's first format the server serves wins", async () => {
    const server = await echoServer(0, { formats: ['json', 'cbor'] });
    cleanups.push(() => server.app.close());
    const client = createSocketClient({
      url: server.url,
      receive: Tick,
      send: Tick,
      codecs: [entryOf('msgpack'), entryOf('cbor'), entryOf('json')],
      WebSocket,
    });
    cleanups.push(() => client.close());
    await client.opened();
    expect(client.format).toBe('cbor');
  });

  test('an offer the server cannot serve: the handshake fails, the client says why without retrying, the server cuts the dead socket', async () => {
    // The server serves JSON only and selects no protocol for `wirekit.msgpack`; a WHATWG socket
    // then fails the connection (1006) without closing its TCP socket, which the server's pings find.
    // The client sees the server's answer (Node shows it) and ends at once: retrying gets the same.
    const server = await echoServer(0, { formats: ['json'], pingIntervalMs: 100 });
    cleanups.push(() => server.app.close());
    const client = createSocketClient({
      url: server.url,
      receive: Tick,
      send: Tick,
      codecs: [entryOf('msgpack')],
      WebSocket,
      reconnect: { initialDelayMs: 10 },
    });
    cleanups.push(() => client.close());
    const failure = await client.opened().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(WirekitError);
    expect(failure).toMatchObject({ code: 'WK_WS_PROTOCOL' });
    expect((failure as Error).message).toMatch(/selected none of the protocols offered \(wirekit\.msgpack\)/);
    expect(client.state).toBe('closed');
    expect(client.stats.connects).toBe(0);
    await waitFor(() => server.route.stats.open === 0);
    expect(server.route.stats).toMatchObject({ opened: 1, timedOut: 1, received: 0 });
  });

  test('reconnects after the server restarts, and what was sent meanwhile arrives', async () => {
    let server = await echoServer();
    const port = server.port;
    const events: string[] = [];
    const client = createSocketClient({
      url: server.url,
      receive: Tick,
      send: Tick,
      codecs: [entryOf('msgpack')],
      WebSocket,
      reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
      onEvent: (event) => events.push(event.type),
    });
    cleanups.push(() => client.close());
    const messages = client.messages[Symbol.asyncIterator]();
    await client.opened();
    client.send(tickAt(1));
    expect(await take(messages, 1)).toEqual([tickAt(1)]);

    await server.app.close();
    await waitFor(() => client.state === 'reconnecting');
    // Sent while no server listens: checked now, delivered once connected again.
    expect(client.send(tickAt(2))).toBe(true);
    expect(() => client.send({ ...tickAt(3), symbol: 'x'.repeat(13) })).toThrow(
      /WK_VALIDATION_FAILED|symbol/,
    );
    server = await echoServer(port);
    cleanups.push(() => server.app.close());
    await client.opened();
    client.send(tickAt(3));
    expect(await take(messages, 2)).toEqual([tickAt(2), tickAt(3)]);
    expect(client.stats.connects).toBe(2);
    expect(events.filter((type) => type === 'open')).toHaveLength(2);
  });

  test("a server's frame that does not decode closes (4007) and ends the messages with its code; 'skip' counts it", async () => {
    // A server that is no wirekit server: it selects msgpack and sends garbage, then one good tick.
    const good = entryOf('msgpack').create({ schema: Tick }).encode(tickAt(7));
    const closes: number[] = [];
    const raw = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => 'wirekit.msgpack' });
    raw.on('connection', (socket) => {
      socket.on('close', (code) => closes.push(code));
      socket.send(Uint8Array.of(0xc1));
      socket.send(good);
    });
    cleanups.push(() => new Promise((resolve) => raw.close(resolve)));
    await new Promise((resolve) => raw.once('listening', resolve));
    const url = `ws://127.0.0.1:${(raw.address() as { port: number }).port}`;

    const strict = createSocketClient({
      url,
      receive: Tick,
      send: Tick,
      codecs: [entryOf('msgpack')],
      WebSocket,
    });
    await expect(take(strict.messages[Symbol.asyncIterator](), 2)).rejects.toMatchObject({
      code: expect.stringMatching(/^WK_DECODE_/),
    });
    await waitFor(() => closes.length === 1);
    expect(closes).toEqual([4007]);

    const lenient = createSocketClient({
      url,
      receive: Tick,
      send: Tick,
      codecs: [entryOf('msgpack')],
      WebSocket,
      onInvalid: 'skip',
    });
    cleanups.push(() => lenient.close());
    expect(await take(lenient.messages[Symbol.asyncIterator](), 1)).toEqual([tickAt(7)]);
    expect(lenient.stats.skipped).toBe(1);
  });

  test("a server's frame over maxFrameBytes is not decoded: closed with 4009 WK_LIMIT_INPUT, or skipped", async () => {
    const tick = entryOf('msgpack').create({ schema: Tick }).encode(tickAt(1));
    const closes: { code: number; reason: string }[] = [];
    const raw = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => 'wirekit.msgpack' });
    raw.on('connection', (socket) => {
      socket.on('close', (code, reason) => closes.push({ code, reason: reason.toString() }));
      socket.send(new Uint8Array(4096));
      socket.send(tick);
    });
    cleanups.push(() => new Promise((resolve) => raw.close(resolve)));
    await new Promise((resolve) => raw.once('listening', resolve));
    const url = `ws://127.0.0.1:${(raw.address() as { port: number }).port}`;
    const options = { url, receive: Tick, send: Tick, codecs: [entryOf('msgpack')], WebSocket };

    const strict = createSocketClient({ ...options, maxFrameBytes: 1024, reconnect: false });
    await expect(take(strict.messages[Symbol.asyncIterator](), 2)).rejects.toMatchObject({
      code: 'WK_LIMIT_INPUT',
    });
    await waitFor(() => closes.length === 1);
    expect(closes).toEqual([{ code: 4009, reason: 'WK_LIMIT_INPUT' }]);

    const lenient = createSocketClient({ ...options, maxFrameBytes: 1024, onInvalid: 'skip' });
    cleanups.push(() => lenient.close());
    expect(await take(lenient.messages[Symbol.asyncIterator](), 1)).toEqual([tickAt(1)]);
    expect(lenient.stats).toMatchObject({ skipped: 1, received: 1, receivedBytes: 4096 + tick.length });
  });

  test('messages nobody reads are held up to maxBufferedMessages, the rest dropped and counted', async () => {
    const app = Fastify();
    await app.register(wirekitSockets);
    app.wirekitSocket({
      url: '/burst',
      receive: Tick,
      send: Tick,
      handler: (connection) => {
        for (let i = 0; i < 100; i++) connection.send(tickAt(i));
      },
    });
    const base = await listenSockets(app);
    cleanups.push(() => app.close());
    const client = createSocketClient({
      url: `${base}/burst`,
      receive: Tick,
      send: Tick,
      codecs: [entryOf('cbor')],
      WebSocket,
      maxBufferedMessages: 10,
    });
    cleanups.push(() => client.close());
    await waitFor(() => client.stats.received === 100);
    expect(client.stats.dropped).toBe(90);
    // The first ten, in order: what was held was not overwritten by what came later.
    expect(await take(client.messages[Symbol.asyncIterator](), 10)).toEqual(
      Array.from({ length: 10 }, (_, i) => tickAt(i)),
    );
  });

  test('options are checked when the client is made', () => {
    const base = {
      url: 'ws://127.0.0.1:1',
      receive: Tick,
      send: Tick,
      WebSocket,
      reconnect: false as const,
    };
    expect(() => createSocketClient({ ...base, codecs: [entryOf('json')], maxBufferedMessages: 0 })).toThrow(
      /WK_OPTIONS_INVALID|maxBufferedMessages/,
    );
    expect(() =>
      createSocketClient({ ...base, codecs: allFormats.filter((e) => e.name === 'arrow') }),
    ).toThrow(expect.objectContaining({ code: 'WK_WS_PROTOCOL' }));
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
