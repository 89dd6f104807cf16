/**
 * A received message with a key the route's `receive` schema does not name, in every socket
 * format: skipped by default (the handler gets the value without it), or an invalid frame (1007
 * with WK_DECODE_SCHEMA_MISMATCH) on a route that says `unknownKeys: 'reject'`. The frames are
 * written with a newer client's schema, the field appended so that no field number moves.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { socketFormats, wirekitSockets } from '../../../src/boundaries/ws/index.js';
import { createCodec } from '../../../src/codecs/registry.js';
import { t } from '../../../src/index.js';
import { echo, listenSockets } from '../../support/ws.js';

const Tick = t.object('Tick', { symbol: t.string(), price: t.float64() });
const NewerTick = t.object('Tick', { symbol: t.string(), price: t.float64(), venue: t.string() });

let app: FastifyInstance;
let base = '';
beforeAll(async () => {
  app = Fastify();
  await app.register(wirekitSockets);
  app.wirekitSocket({ url: '/ticks', receive: Tick, send: Tick, handler: echo });
  app.wirekitSocket({ url: '/strict', receive: Tick, send: Tick, unknownKeys: 'reject', handler: echo });
  base = await listenSockets(app);
});
afterAll(() => app.close());

/** Sends one frame; resolves with the echoed bytes, or the close code and reason. */
function exchange(path: string, protocol: string, frame: Uint8Array | string) {
  return new Promise<{ data: Buffer } | { code: number; reason: string }>((resolve, reject) => {
    const socket = new WebSocket(`${base}${path}`, [protocol]);
    socket.on('open', () => socket.send(frame, { binary: typeof frame !== 'string' }));
    socket.on('message', (data) => {
      resolve({ data: data as Buffer });
      socket.close();
    });
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    socket.on('error', reject);
  });
}

// An Avro frame carries no writer schema: a newer client's bytes are another layout, not a key.
describe.each(socketFormats.filter((format) => format !== 'avro'))('wirekit.%s', (format) => {
  const encoded = createCodec(format, { schema: NewerTick }).encode({
    symbol: 'ASML',
    price: 1.5,
    venue: 'XAMS',
  });
  const frame = format === 'json' ? new TextDecoder().decode(encoded) : encoded;

  test('an unknown key is skipped by default: the echo has none', async () => {
    const reply = await exchange('/ticks', `wirekit.${format}`, frame);
    expect(
      'data' in reply && createCodec(format, { schema: Tick }).decode(new Uint8Array(reply.data)),
    ).toEqual({
      symbol: 'ASML',
      price: 1.5,
    });
  });

  test("on a route with unknownKeys: 'reject' the frame is invalid: 1007", async () => {
    expect(await exchange('/strict', `wirekit.${format}`, frame)).toEqual({
      code: 1007,
      reason: 'WK_DECODE_SCHEMA_MISMATCH',
    });
  });
});
