/**
 * The socket client in a real browser: headless Chromium runs a page Vite built from the client
 * and the five socket formats, as an application would bundle them, against the real server
 * plugin. In every format the page reads the ticks the server sent (compared value for value,
 * timestamps as Dates), sends one back and reads the echo; across a server-side close it
 * reconnects and goes on with one iterable; a server's frame that does not decode ends the
 * messages with the wirekit error code, and the server sees the close as 4007. A server that
 * selects a protocol the page did not offer is retried up to maxAttempts: a browser does not show
 * a page the handshake's answer, so there the client cannot know the protocol is at fault.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { WebSocketServer } from 'ws';
import { Tick, tickSource } from '../../../examples/ws/tick.js';
import { type SocketFormat, socketFormats, wirekitSockets } from '../../../src/boundaries/ws/index.js';
import { createCodec } from '../../../src/codecs/registry.js';
import { chromiumArgs, chromiumPath, has } from '../../support/tools.js';
import { echo } from '../../support/ws.js';

const src = (path: string) => JSON.stringify(fileURLToPath(new URL(`../../../src/${path}`, import.meta.url)));

/** The page: every call resolves to plain JSON (values, or the error's name and code). */
const pageSource = `
import { createSocketClient } from ${src('boundaries/ws/client-entry.ts')};
import { jsonFormat } from ${src('codecs/json/index.ts')};
import { msgpackFormat } from ${src('codecs/msgpack/index.ts')};
import { cborFormat } from ${src('codecs/cbor/index.ts')};
import { protobufFormat } from ${src('codecs/protobuf/index.ts')};
import { avroFormat } from ${src('codecs/avro/index.ts')};
import { Tick } from ${JSON.stringify(fileURLToPath(new URL('../../../examples/ws/tick.ts', import.meta.url)))};

const entries = { json: jsonFormat, msgpack: msgpackFormat, cbor: cborFormat, protobuf: protobufFormat, avro: avroFormat };
const plain = (tick) => ({ ...tick, at: tick.at instanceof Date ? tick.at.toISOString() : 'not a Date' });
const failure = (error) => ({ ok: false, name: error?.name, code: error?.code, message: String(error?.message ?? error) });

async function read(iterator, count) {
  const out = [];
  while (out.length < count) {
    const next = await iterator.next();
    if (next.done) break;
    out.push(plain(next.value));
  }
  return out;
}

window.wirekitSocketPage = {
  /** Offers formats in order, reads count ticks, sends the first back and reads its echo. */
  async exchange(url, formats, count) {
    const client = createSocketClient({ url, receive: Tick, send: Tick, codecs: formats.map((f) => entries[f]), reconnect: false });
    try {
      await client.opened();
      const messages = client.messages[Symbol.asyncIterator]();
      const ticks = await read(messages, count);
      client.send({ ...ticks[0], at: new Date(ticks[0].at) });
      const [echoed] = await read(messages, 1);
      return { ok: true, format: client.format, ticks, echoed, stats: { ...client.stats } };
    } catch (error) {
      return failure(error);
    } finally {
      client.close();
    }
  },
  /** Reads count ticks through as many connections as it takes. */
  async across(url, format, count) {
    const client = createSocketClient({ url, receive: Tick, send: Tick, codecs: [entries[format]], reconnect: { initialDelayMs: 20, maxDelayMs: 100 } });
    try {
      const ticks = await read(client.messages[Symbol.asyncIterator](), count);
      return { ok: true, ticks, stats: { ...client.stats } };
    } catch (error) {
      return failure(error);
    } finally {
      client.close();
    }
  },
  /** Reads until the messages end; resolves how they ended. */
  async drain(url, format, reconnect = false) {
    const client = createSocketClient({ url, receive: Tick, send: Tick, codecs: [entries[format]], reconnect });
    let read = 0;
    try {
      for await (const _ of client.messages) read++;
      return { ok: true, read };
    } catch (error) {
      return { ...failure(error), read };
    }
  },
};
`;

/** The ticks the server sends on each connection: the same every time, for the test to compare. */
const startsAt = Date.UTC(2026, 11, 4, 9, 30);
function ticks(count: number): Tick[] {
  const next = tickSource();
  return Array.from({ length: count }, (_, i) => next(new Date(startsAt + i * 10)));
}
const asPlain = (tick: Tick) => ({ ...tick, at: tick.at.toISOString() });

const tickCount = 25;

async function serve(outDir: string): Promise<{ app: FastifyInstance; origin: string }> {
  const app = Fastify({ logger: false });
  await app.register(wirekitSockets);
  app.wirekitSocket({
    url: '/ticks',
    receive: Tick,
    send: Tick,
    handler: async (connection) => {
      for (const tick of ticks(tickCount)) connection.send(tick);
      await echo(connection);
    },
  });
  // Three ticks per connection, then a close the client is meant to survive (1012: service restart).
  let connections = 0;
  app.wirekitSocket({
    url: '/restarts',
    receive: Tick,
    send: Tick,
    handler: (connection) => {
      const all = ticks(9);
      const from = 3 * connections++;
      for (const tick of all.slice(from, from + 3)) connection.send(tick);
      connection.close(1012, 'restart');
    },
  });
  app.get('/', (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(readFileSync(join(outDir, 'index.html'))),
  );
  app.get('/assets/:name', (request, reply) => {
    const { name } = request.params as { name: string };
    if (!/^[\w.-]+\.js$/.test(name)) return reply.code(404).send();
    return reply.type('text/javascript').send(readFileSync(join(outDir, 'assets', name)));
  });
  return { app, origin: await app.listen({ host: '127.0.0.1', port: 0 }) };
}

describe.skipIf(!has('chromium'))('the socket client in headless Chromium', () => {
  let dir: string;
  let app: FastifyInstance;
  let origin: string;
  let browser: Browser;
  let page: Page;
  const warnings: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wirekit-ws-browser-'));
    writeFileSync(join(dir, 'page.js'), pageSource);
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><html><head><meta charset="utf-8"></head><body><script type="module" src="./page.js"></script></body></html>',
    );
    const vite = await import('vite');
    const logger = vite.createLogger('warn', { allowClearScreen: false });
    logger.warn = (message) => warnings.push(message);
    logger.warnOnce = logger.warn;
    const outDir = join(dir, 'dist');
    await vite.build({
      configFile: false,
      root: dir,
      logLevel: 'warn',
      customLogger: logger,
      build: { outDir, emptyOutDir: true, minify: true, reportCompressedSize: false, target: 'es2022' },
    });
    ({ app, origin } = await serve(outDir));
    browser = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs] });
    page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${origin}/`);
    await page.waitForFunction('window.wirekitSocketPage !== undefined', undefined, { timeout: 15_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ws = (path: string) => `${origin.replace(/^http/, 'ws')}${path}`;
  const call = <T>(method: string, ...args: unknown[]) =>
    page.evaluate<T>(`window.wirekitSocketPage.${method}(...${JSON.stringify(args)})`);

  test('the bundle has nothing Node-only in it', () => {
    // Vite says when it replaces a `node:` module (or any built-in) with an empty stub for the browser.
    expect(warnings.filter((warning) => /externalized|node:|built-in/i.test(warning))).toEqual([]);
  });

  test.each(socketFormats)('%s: the ticks the server sent, and one sent back echoed', async (format) => {
    const outcome = await call<Record<string, unknown>>('exchange', ws('/ticks'), [format], tickCount);
    const sent = ticks(tickCount);
    const expected = sent.map(asPlain);
    // The bytes the page counted are those of Node's encoding of the same ticks: one message a frame.
    const codec = createCodec(format, { schema: Tick });
    const size = (tick: Tick) => codec.encode(tick).length;
    expect(outcome).toEqual({
      ok: true,
      format,
      ticks: expected,
      echoed: expected[0],
      stats: {
        connects: 1,
        received: tickCount + 1,
        sent: 1,
        receivedBytes: sent.reduce((total, tick) => total + size(tick), 0) + size(sent[0] as Tick),
        sentBytes: size(sent[0] as Tick),
        dropped: 0,
        skipped: 0,
      },
    });
  });

  test("several offered: the page's first choice wins", async () => {
    const offered: SocketFormat[] = ['avro', 'msgpack', 'json'];
    const outcome = await call<{ format: string }>('exchange', ws('/ticks'), offered, 1);
    expect(outcome.format).toBe('avro');
  });

  test('the server closes the connection twice: the page reconnects and reads on, in order', async () => {
    const outcome = await call<{ ok: boolean; ticks: unknown[]; stats: { connects: number } }>(
      'across',
      ws('/restarts'),
      'cbor',
      9,
    );
    expect(outcome.ok).toBe(true);
    expect(outcome.ticks).toEqual(ticks(9).map(asPlain));
    expect(outcome.stats.connects).toBe(3);
  });

  test("a server frame that does not decode ends the page's messages with its code; the server sees 4007", async () => {
    const closes: { code: number; reason: string }[] = [];
    const raw = new WebSocketServer({
      host: '127.0.0.1',
      port: 0,
      handleProtocols: (offered) => [...offered][0] ?? false,
    });
    raw.on('connection', (socket) => {
      socket.on('close', (code, reason) => closes.push({ code, reason: reason.toString() }));
      // A never-used MessagePack byte, and a protobuf tag of wire type 7 (no such type).
      socket.send(socket.protocol === 'wirekit.msgpack' ? Uint8Array.of(0xc1) : Uint8Array.of(0x0f));
    });
    await new Promise((resolve) => raw.once('listening', resolve));
    try {
      const url = `ws://127.0.0.1:${(raw.address() as { port: number }).port}/`;
      for (const format of ['msgpack', 'protobuf']) {
        const outcome = await call<Record<string, unknown>>('drain', url, format);
        expect(outcome, format).toMatchObject({ ok: false, name: 'WirekitError', read: 0 });
        expect(outcome.code, format).toMatch(/^WK_DECODE_/);
      }
      await expect.poll(() => closes.length).toBe(2);
      for (const close of closes) {
        expect(close.code).toBe(4007);
        expect(close.reason).toMatch(/^WK_DECODE_/);
      }
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  test('a server selecting a protocol the page did not offer: a browser hides why, so maxAttempts ends it', async () => {
    let upgrades = 0;
    const raw = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'graphql-ws' });
    raw.on('connection', () => upgrades++);
    await new Promise((resolve) => raw.once('listening', resolve));
    try {
      const url = `ws://127.0.0.1:${(raw.address() as { port: number }).port}/`;
      const outcome = await call<Record<string, unknown>>('drain', url, 'cbor', {
        initialDelayMs: 10,
        maxAttempts: 2,
      });
      expect(outcome).toMatchObject({ ok: false, name: 'WirekitError', code: 'WK_WS_CLOSED', read: 0 });
      expect(outcome.message).toMatch(/after 2 retries in a row.*selected none of the protocols offered/);
      expect(upgrades).toBe(3);
    } finally {
      for (const client of raw.clients) client.terminate();
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  test('nothing was thrown in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
