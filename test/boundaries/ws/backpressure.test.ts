/**
 * The WebSocket boundary under pressure, with real sockets on loopback. Outgoing: a producer
 * broadcasts 16 KiB chunks to a client that reads and to one that has stopped reading (its TCP
 * socket paused, so the kernel's buffers fill and then ws's); the slow one's queue never passes
 * maxQueuedBytes, its drops are counted, and every chunk is either received in order or counted
 * as dropped, while the reading client gets them all. With `onSlowConsumer: 'close'` the slow one
 * is closed with 1008 and the code instead. Incoming: a handler that does not read pauses the
 * socket at maxQueuedMessages, and once it reads it gets every message in order.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { type SocketRouteHandle, wirekitSockets } from '../../../src/boundaries/ws/index.js';
import { createCodec } from '../../../src/codecs/registry.js';
import { t } from '../../../src/index.js';
import { listenSockets } from '../../support/ws.js';

const Chunk = t.object('Chunk', { sequence: t.uint32(), pad: t.bytes() });
type Chunk = { sequence: number; pad: Uint8Array };
const msgpack = createCodec('msgpack', { schema: Chunk });
const chunkBytes = 16 * 1024;
const maxQueuedBytes = 256 * 1024;

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A server whose /chunks route records each connection's largest send queue seen. */
async function chunkServer(onSlowConsumer: 'drop' | 'close') {
  app = Fastify();
  await app.register(wirekitSockets, { maxQueuedBytes, onSlowConsumer });
  const peaks: number[] = [];
  const route: SocketRouteHandle<Chunk> = app.wirekitSocket({
    url: '/chunks',
    receive: Chunk,
    send: Chunk,
    handler: async (connection) => {
      const index = peaks.push(0) - 1;
      const watch = setInterval(() => {
        peaks[index] = Math.max(peaks[index] as number, connection.bufferedBytes);
      }, 1);
      connection.signal.addEventListener('abort', () => clearInterval(watch));
      for await (const _ of connection.messages);
    },
  });
  const url = await listenSockets(app);
  return { route, peaks, url: `${url}/chunks` };
}

/** A msgpack client that keeps the sequence numbers it receives and the close it gets. */
function chunkClient(url: string) {
  const socket = new WebSocket(url, ['wirekit.msgpack']);
  const sequences: number[] = [];
  socket.on('message', (data: Buffer) => {
    sequences.push((msgpack.decode(new Uint8Array(data)) as Chunk).sequence);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  /** Stops reading the TCP socket: the server's writes back up, as with a client that stalls. */
  const stall = () => (socket as unknown as { _socket: { pause(): void } })._socket.pause();
  const unstall = () => (socket as unknown as { _socket: { resume(): void } })._socket.resume();
  return { socket, sequences, closed, opened, stall, unstall };
}

/** Broadcasts `count` chunks, one every millisecond or so; resolves the sequences each connection took. */
async function produce(route: SocketRouteHandle<Chunk>, count: number): Promise<number> {
  const pad = new Uint8Array(chunkBytes).fill(7);
  for (let sequence = 1; sequence <= count; sequence++) {
    route.broadcast({ sequence, pad });
    if (sequence % 4 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return count;
}

const settle = async (until: () => boolean, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!until() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe('a slow consumer under a fast producer', () => {
  test("'drop': its queue stays under maxQueuedBytes, drops are counted, the others get everything", async () => {
    const { route, peaks, url } = await chunkServer('drop');
    const fast = chunkClient(url);
    const slow = chunkClient(url);
    await Promise.all([fast.opened, slow.opened]);
    slow.stall();
    // 2,000 chunks of 16 KiB: 32 MiB, far more than loopback's kernel buffers hold.
    const sent = await produce(route, 2000);
    await settle(() => fast.sequences.length === sent);
    expect(fast.sequences).toEqual(Array.from({ length: sent }, (_, i) => i + 1));
    expect(route.stats.dropped).toBeGreaterThan(0);
    // The bound: what was waiting never passed the limit (a frame's header is the only slack).
    for (const peak of peaks) expect(peak).toBeLessThanOrEqual(maxQueuedBytes + 64);
    expect(Math.max(...peaks)).toBeGreaterThan(maxQueuedBytes / 2);

    // Once it reads again it gets what was queued, in order; nothing else is missing but the drops.
    slow.unstall();
    await settle(() => slow.sequences.length + route.stats.dropped === sent);
    expect(slow.sequences.length + route.stats.dropped).toBe(sent);
    expect(slow.sequences).toEqual([...slow.sequences].sort((a, b) => a - b));
    expect(slow.sequences[0]).toBe(1);
    expect(route.stats.sent).toBe(sent + slow.sequences.length);
    expect(route.stats.closedSlow).toBe(0);
    fast.socket.close();
    slow.socket.close();
  }, 30_000);

  test("'close': the slow connection is closed with 1008 WK_WS_SLOW_CONSUMER and counted", async () => {
    const { route, url } = await chunkServer('close');
    const fast = chunkClient(url);
    const slow = chunkClient(url);
    await Promise.all([fast.opened, slow.opened]);
    slow.stall();
    const sent = await produce(route, 2000);
    await settle(() => fast.sequences.length === sent);
    expect(fast.sequences).toHaveLength(sent);
    expect(route.stats.closedSlow).toBe(1);
    expect(route.stats.dropped).toBe(0);
    slow.unstall();
    expect(await slow.closed).toEqual({ code: 1008, reason: 'WK_WS_SLOW_CONSUMER' });
    expect(slow.sequences.length).toBeLessThan(sent);
    await settle(() => route.stats.open === 1);
    expect(route.stats.open).toBe(1);
    fast.socket.close();
  }, 30_000);
});

describe('a handler that reads slowly', () => {
  test('the socket pauses at maxQueuedMessages; every message then arrives, in order', async () => {
    app = Fastify();
    await app.register(wirekitSockets, { maxQueuedMessages: 16 });
    const Note = t.object('Note', { sequence: t.uint32(), text: t.string() });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const read: number[] = [];
    const route = app.wirekitSocket({
      url: '/notes',
      receive: Note,
      send: t.object('Count', { count: t.uint32() }),
      handler: async (connection) => {
        await gate;
        for await (const note of connection.messages) {
          read.push(note.sequence);
          if (read.length === 20_000) connection.send({ count: read.length });
        }
      },
    });
    const url = await listenSockets(app);
    const socket = new WebSocket(`${url}/notes`, ['wirekit.msgpack']);
    await new Promise((resolve) => socket.once('open', resolve));
    const codec = createCodec('msgpack', { schema: Note });
    const text = 'x'.repeat(200);
    for (let sequence = 1; sequence <= 20_000; sequence++) socket.send(codec.encode({ sequence, text }));
    // 20,000 messages of ~210 bytes (4 MB) sent at once; the handler reads none of them yet.
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Paused: the server decoded a bounded number (16, plus the rest of the TCP chunk ws was parsing),
    // and the client's own send buffer holds what the server would not read.
    expect(route.stats.received).toBeLessThan(2_000);
    expect(socket.bufferedAmount).toBeGreaterThan(0);
    const counted = new Promise<Buffer>((resolve) => socket.once('message', resolve));
    open();
    await counted;
    expect(read).toEqual(Array.from({ length: 20_000 }, (_, i) => i + 1));
    expect(route.stats.received).toBe(20_000);
    socket.close();
  }, 30_000);
});
