/**
 * Binary frames readable in the log: with `debugFrames`, a server whose logger prints debug lines
 * logs every frame both ways as the value's JSON (cut to maxChars) and a frame that did not decode
 * as hex; at info level nothing is rendered; without the option nothing is logged. A refused frame
 * is reported at info level with its code. A handler that throws closes its connection with 1011
 * and the code, and the error is logged.
 */
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { type FrameLogEntry, wirekitSockets } from '../../../src/boundaries/ws/index.js';
import { createCodec } from '../../../src/codecs/registry.js';
import { t } from '../../../src/index.js';
import { echo, listenSockets } from '../../support/ws.js';

const Quote = t.object('Quote', { symbol: t.string(), price: t.float64(), at: t.timestamp() });
const quote = { symbol: 'SAP', price: 236.15, at: new Date('2026-12-04T09:30:00.000Z') };
const msgpack = createCodec('msgpack', { schema: Quote });

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A server at `level` echoing Quotes on /q (and failing on /fail); its log lines are kept. */
async function server(level: string, debugFrames: boolean | { maxChars: number } | undefined) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  app = Fastify({ logger: { level, stream } });
  await app.register(wirekitSockets, { debugFrames });
  app.wirekitSocket({
    url: '/q',
    receive: Quote,
    send: Quote,
    onInvalid: 'skip',
    handler: echo,
  });
  app.wirekitSocket({
    url: '/fail',
    receive: Quote,
    send: Quote,
    handler: async (connection) => {
      for await (const _ of connection.messages) throw new Error('the handler broke');
    },
  });
  const url = await listenSockets(app);
  const frames = () => lines.flatMap((line) => (line.wsFrame ? [line.wsFrame as FrameLogEntry] : []));
  return { url, lines, frames };
}

/** Sends `frames` on a msgpack socket to `path`; resolves the replies and the close once `replies` came. */
function talk(url: string, frames: Uint8Array[], replies: number) {
  return new Promise<{ replies: Buffer[]; close?: { code: number; reason: string } }>((resolve, reject) => {
    const socket = new WebSocket(url, ['wirekit.msgpack']);
    const got: Buffer[] = [];
    socket.on('open', () => {
      for (const frame of frames) socket.send(frame);
    });
    socket.on('message', (data: Buffer) => {
      got.push(data);
      if (got.length === replies) socket.close();
    });
    socket.on('close', (code, reason) =>
      resolve({ replies: got, close: { code, reason: reason.toString() } }),
    );
    socket.on('error', reject);
  });
}

describe('debugFrames', () => {
  test('at debug level each frame is logged as JSON both ways, an undecodable one as hex', async () => {
    const { url, frames } = await server('debug', true);
    await talk(`${url}/q`, [Uint8Array.of(0xc1, 0x00, 0xff), msgpack.encode(quote)], 1);
    const logged = frames();
    const json = '{"symbol":"SAP","price":236.15,"at":"2026-12-04T09:30:00.000Z"}';
    expect(logged).toEqual([
      { direction: 'in', format: 'msgpack', bytes: 3, frame: 'c100ff' },
      { direction: 'in', format: 'msgpack', bytes: msgpack.encode(quote).length, frame: json },
      { direction: 'out', format: 'msgpack', bytes: msgpack.encode(quote).length, frame: json },
    ]);
  });

  test('maxChars cuts a long rendering and says how much is left out', async () => {
    const { url, frames } = await server('debug', { maxChars: 20 });
    const long = { ...quote, symbol: 'S'.repeat(500) };
    await talk(`${url}/q`, [msgpack.encode(long)], 1);
    const [first] = frames();
    const text = new TextDecoder().decode(createCodec('json', { schema: Quote }).encode(long));
    expect(first?.frame).toBe(`${text.slice(0, 20)}… (${text.length - 20} more chars)`);
  });

  test('at info level, or without the option, no frame is logged', async () => {
    for (const [level, option] of [
      ['info', true],
      ['debug', undefined],
    ] as const) {
      const { url, frames } = await server(level, option);
      await talk(`${url}/q`, [msgpack.encode(quote)], 1);
      expect(frames()).toEqual([]);
      await app?.close();
      app = undefined;
    }
  });
});

test('a refused frame is reported at info level with its code, skipped or closed', async () => {
  const { url, lines } = await server('info', undefined);
  const refused = () => lines.flatMap((line) => (line.wsRefused ? [line.wsRefused] : []));
  await talk(`${url}/q`, [Uint8Array.of(0xc1), msgpack.encode(quote)], 1);
  expect(refused()).toEqual([{ code: expect.stringMatching(/^WK_DECODE_/), bytes: 1, action: 'skipped' }]);
  // Well-formed MessagePack the schema refuses (a price as text) closes /fail, which does not skip.
  const schemaless = createCodec('msgpack', { schema: undefined });
  const { close } = await talk(`${url}/fail`, [schemaless.encode({ ...quote, price: 'high' })], 1);
  expect(close?.code).toBe(1007);
  expect(refused()[1]).toEqual({ code: close?.reason, bytes: expect.any(Number), action: 'closed' });
});

test('a handler that throws closes its connection with 1011 WK_WS_HANDLER_FAILED and is logged', async () => {
  const { url, lines } = await server('info', undefined);
  const { close, replies } = await talk(`${url}/fail`, [msgpack.encode(quote)], 1);
  expect(replies).toEqual([]);
  expect(close).toEqual({ code: 1011, reason: 'WK_WS_HANDLER_FAILED' });
  const logged = lines.find((line) => line.msg === 'wirekit socket handler failed');
  expect((logged?.err as { message?: string } | undefined)?.message).toBe('the handler broke');
});
