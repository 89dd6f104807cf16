/**
 * The socket client (over undici's WHATWG WebSocket, as on Node 20) against servers that do one
 * hostile or broken thing each, on loopback: accept every upgrade and close at once, select a
 * protocol the client did not offer (or none), take the TCP connection and never answer the
 * upgrade, and send large frames faster than anyone reads them.
 */
import { createServer, type Socket as NetSocket } from 'node:net';
import { WebSocket } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { createSocketClient, type SocketClientEvent } from '../../../src/boundaries/ws/client-entry.js';
import { allFormats } from '../../../src/codecs/registry.js';
import { WirekitError } from '../../../src/errors/index.js';
import { t } from '../../../src/index.js';
import { rawSocketServer } from '../../support/ws.js';

const Blob = t.object('Blob', { seq: t.uint32(), data: t.bytes() });
const msgpack = allFormats.find((entry) => entry.name === 'msgpack');
if (msgpack === undefined) throw new Error('msgpack is not registered');
const base = { receive: Blob, send: Blob, codecs: [msgpack], WebSocket };

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** How a promise settled, or 'pending' if it had not within `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const pending = new Promise((resolve) => {
    timer = setTimeout(() => resolve('pending'), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => 'opened',
        (error: unknown) => error,
      ),
      pending,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe('a server that accepts every upgrade and closes at once', () => {
  test('the connections count as failed tries: the backoff grows and maxAttempts ends the client', async () => {
    const server = await rawSocketServer(
      () => 'wirekit.msgpack',
      (socket) => socket.close(1000),
    );
    cleanups.push(server.close);
    const closes: SocketClientEvent[] = [];
    const client = createSocketClient({
      ...base,
      url: server.url,
      reconnect: { initialDelayMs: 20, maxDelayMs: 1000, maxAttempts: 3 },
      onEvent: (event) => event.type === 'close' && closes.push(event),
    });
    cleanups.push(() => client.close());
    const ended = await settledWithin(drain(client.messages), 5000);
    expect(ended).toBeInstanceOf(WirekitError);
    expect(ended).toMatchObject({ code: 'WK_WS_CLOSED' });
    expect((ended as Error).message).toMatch(/after 3 retries in a row/);
    // The first try and three retries, each of which opened and closed at once.
    expect(client.stats.connects).toBe(4);
    expect(server.upgrades()).toBe(4);
    const waits = closes.map((event) => (event.type === 'close' ? event.retryInMs : -1));
    expect(waits).toHaveLength(4);
    expect(waits[3]).toBeUndefined();
    // Each wait lies between half and all of its doubled ceiling: 20, 40, 80 ms.
    for (const [i, wait] of waits.slice(0, 3).entries()) {
      expect(wait).toBeGreaterThanOrEqual((20 * 2 ** i) / 2);
      expect(wait).toBeLessThanOrEqual(20 * 2 ** i);
    }
  });

  test('without maxAttempts it goes on trying, at a rate the backoff bounds', async () => {
    const server = await rawSocketServer(
      () => 'wirekit.msgpack',
      (socket) => socket.close(1000),
    );
    cleanups.push(server.close);
    const client = createSocketClient({ ...base, url: server.url, reconnect: { initialDelayMs: 20 } });
    cleanups.push(() => client.close());
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Waits of 10-20, 20-40, … ms: at most 8 tries fit in 1.5 s (the issue measured 54 in 10 s at 250 ms).
    expect(server.upgrades()).toBeGreaterThanOrEqual(3);
    expect(server.upgrades()).toBeLessThanOrEqual(8);
    expect(client.state).not.toBe('closed');
  });

  test('a connection that stays open stableAfterMs starts the backoff afresh when it drops', async () => {
    const server = await rawSocketServer(
      () => 'wirekit.msgpack',
      (socket) => setTimeout(() => socket.close(1000), 150),
    );
    cleanups.push(server.close);
    const waits: (number | undefined)[] = [];
    const client = createSocketClient({
      ...base,
      url: server.url,
      reconnect: { initialDelayMs: 20, stableAfterMs: 100, maxAttempts: 1 },
      onEvent: (event) => event.type === 'close' && waits.push(event.retryInMs),
    });
    cleanups.push(() => client.close());
    await expect.poll(() => client.stats.connects, { timeout: 5000 }).toBeGreaterThanOrEqual(4);
    // Every drop came after a stable connection, so each wait is the first one's and none gives up.
    for (const wait of waits) expect(wait).toBeLessThanOrEqual(20);
    expect(client.state).not.toBe('closed');
  });
});

describe('a server that selects a protocol the client did not offer', () => {
  test('ends with WK_WS_PROTOCOL and no retry, though undici fails the handshake first (1006)', async () => {
    const server = await rawSocketServer(
      () => 'graphql-ws',
      () => {},
    );
    cleanups.push(server.close);
    const client = createSocketClient({ ...base, url: server.url, reconnect: { initialDelayMs: 10 } });
    cleanups.push(() => client.close());
    const failure = await settledWithin(client.opened(), 3000);
    expect(failure).toBeInstanceOf(WirekitError);
    expect(failure).toMatchObject({ code: 'WK_WS_PROTOCOL' });
    expect((failure as Error).message).toMatch(/selected "graphql-ws", which this client did not offer/);
    await expect(drain(client.messages)).rejects.toMatchObject({ code: 'WK_WS_PROTOCOL' });
    expect(client.state).toBe('closed');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.upgrades()).toBe(1);
  });

  test('a server that accepts the upgrade and selects no protocol: WK_WS_PROTOCOL too', async () => {
    const server = await rawSocketServer(
      () => false,
      () => {},
    );
    cleanups.push(server.close);
    const client = createSocketClient({ ...base, url: server.url, reconnect: { initialDelayMs: 10 } });
    cleanups.push(() => client.close());
    const failure = await settledWithin(client.opened(), 3000);
    expect(failure).toMatchObject({ code: 'WK_WS_PROTOCOL' });
    expect((failure as Error).message).toMatch(/selected none of the protocols offered \(wirekit\.msgpack\)/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.upgrades()).toBe(1);
  });

  test('a server that refuses the upgrade with an HTTP status is retried, and the status is named', async () => {
    const server = await silentServer((socket) =>
      socket.end('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'),
    );
    const client = createSocketClient({
      ...base,
      url: server.url,
      reconnect: { initialDelayMs: 10, maxAttempts: 2 },
    });
    cleanups.push(() => client.close());
    const failure = await settledWithin(client.opened(), 3000);
    expect(failure).toMatchObject({ code: 'WK_WS_CLOSED' });
    expect((failure as Error).message).toMatch(/refused the upgrade with HTTP 503/);
    expect(server.upgrades()).toBe(3);
  });
});

describe('a server that takes the connection and never answers the upgrade', () => {
  test('the handshake times out, the TCP connection is closed and the try counts as failed', async () => {
    const server = await silentServer(() => {});

    const once = createSocketClient({ ...base, url: server.url, handshakeTimeoutMs: 200, reconnect: false });
    const started = performance.now();
    const failure = await settledWithin(once.opened(), 3000);
    expect(failure).toMatchObject({ code: 'WK_WS_CLOSED' });
    expect((failure as Error).message).toMatch(/handshake timed out after 200 ms/);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(once.state).toBe('closed');
    expect(server.upgrades()).toBe(1);
    // Every connection the client made is closed (undici opens a spare one after an abort, and closes it).
    await expect.poll(() => server.open(), { timeout: 2000 }).toBe(0);

    const retrying = createSocketClient({
      ...base,
      url: server.url,
      handshakeTimeoutMs: 100,
      reconnect: { initialDelayMs: 10, maxAttempts: 2 },
    });
    const retried = await settledWithin(retrying.opened(), 3000);
    expect(retried).toMatchObject({ code: 'WK_WS_CLOSED' });
    expect((retried as Error).message).toMatch(/after 2 retries in a row/);
    expect(server.upgrades()).toBe(1 + 3);
    await expect.poll(() => server.open(), { timeout: 2000 }).toBe(0);
  });
});

/**
 * A TCP server that is no WebSocket server: `onRequest` gets each connection once its first bytes
 * (the upgrade request) arrive. It counts those requests and the connections still open.
 */
async function silentServer(onRequest: (socket: NetSocket) => void) {
  const sockets = new Set<NetSocket>();
  let upgrades = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.once('data', () => {
      upgrades++;
      onRequest(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  return {
    url: `ws://127.0.0.1:${(server.address() as { port: number }).port}/`,
    upgrades: () => upgrades,
    open: () => sockets.size,
  };
}

describe('messages nobody reads', () => {
  /** A server that selects msgpack and sends `count` frames of `size` bytes of data at once. */
  async function blobServer(count: number, size: number) {
    const codec = msgpack?.create({ schema: Blob });
    const server = await rawSocketServer(
      () => 'wirekit.msgpack',
      (socket) => {
        for (let seq = 0; seq < count; seq++)
          socket.send(codec?.encode({ seq, data: new Uint8Array(size).fill(seq) }) as Uint8Array);
      },
    );
    cleanups.push(server.close);
    return server;
  }

  test('are held up to maxBufferedBytes of payload, the rest dropped and counted', async () => {
    const server = await blobServer(40, 256 * 1024);
    const client = createSocketClient({ ...base, url: server.url, maxBufferedBytes: 1024 * 1024 });
    cleanups.push(() => client.close());
    await expect.poll(() => client.stats.received, { timeout: 10_000 }).toBe(40);
    // Three frames of 256 KiB and a few bytes fit in 1 MiB; a fourth would not.
    expect(client.stats.dropped).toBe(37);
    const held = await take(client.messages[Symbol.asyncIterator](), 3);
    expect(held.map((blob) => [blob.seq, blob.data.length, blob.data[0]])).toEqual([
      [0, 256 * 1024, 0],
      [1, 256 * 1024, 1],
      [2, 256 * 1024, 2],
    ]);
  });

  test('by default at most 16 MiB of them are held, however many frames come', async () => {
    const server = await blobServer(24, 1_000_000);
    const client = createSocketClient({ ...base, url: server.url });
    cleanups.push(() => client.close());
    await expect.poll(() => client.stats.received, { timeout: 10_000 }).toBe(24);
    // 16 frames of 1,000,000 bytes (and their framing) fit in 16 MiB; the other 8 were dropped.
    expect(client.stats.dropped).toBe(8);
  });

  test('once read, the room is free again', async () => {
    const server = await blobServer(8, 256 * 1024);
    const client = createSocketClient({ ...base, url: server.url, maxBufferedBytes: 1024 * 1024 });
    cleanups.push(() => client.close());
    const messages = client.messages[Symbol.asyncIterator]();
    // Read as they come: nothing is dropped, since the queue never holds more than the limit.
    const read = await take(messages, 8);
    expect(read.map((blob) => blob.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(client.stats.dropped).toBe(0);
  });
});

test('the new limits are checked when the client is made', () => {
  const options = { ...base, url: 'ws://127.0.0.1:1', reconnect: false as const };
  const code = (make: () => unknown) => {
    try {
      make();
    } catch (error) {
      return (error as WirekitError).code;
    }
    return 'made';
  };
  expect(code(() => createSocketClient({ ...options, handshakeTimeoutMs: 0 }))).toBe('WK_OPTIONS_INVALID');
  expect(code(() => createSocketClient({ ...options, maxBufferedBytes: 1000, maxFrameBytes: 2000 }))).toBe(
    'WK_OPTIONS_INVALID',
  );
  expect(code(() => createSocketClient({ ...options, reconnect: { stableAfterMs: Number.NaN } }))).toBe(
    'WK_OPTIONS_INVALID',
  );
  expect(code(() => createSocketClient({ ...options, reconnect: { maxAttempts: 1.5 } }))).toBe(
    'WK_OPTIONS_INVALID',
  );
});

/** Reads the messages to their end; resolves if they end cleanly, rejects with their error. */
async function drain(messages: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of messages);
}

async function take<T>(iterator: AsyncIterator<T>, count: number): Promise<T[]> {
  const out: T[] = [];
  while (out.length < count) {
    const next = await iterator.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
}
