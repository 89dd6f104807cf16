/**
 * The web client (`wirekit-ts/rpc/web`) in a real browser: headless Chromium runs a page Vite built
 * from it, as an application would bundle it, against Connect-ES's own server over Connect (binary
 * Protocol Buffers and ProtoJSON) and gRPC-Web, from the same origin: a unary call whose 64-bit id
 * is above 2^53 comes back exact with its Date and bytes, a server stream arrives in order, and a
 * failed call is an RpcError with the server's status and wirekit code.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumArgs, chromiumPath, has } from '../../../support/tools.js';
import { listen, routes, type Served } from './connect-es-peer.js';
import { anOrder } from './order-service.js';

const here = (path: string) => JSON.stringify(fileURLToPath(new URL(path, import.meta.url)));

/** The page: each call resolves to plain JSON, so that nothing but JSON crosses to the test. */
const pageSource = `
import { connectTransport, createRpcClient, grpcWebTransport, RpcError } from ${here('../../../../src/boundaries/rpc/client/web.ts')};
import { OrderService } from ${here('./order-service.ts')};

const transports = {
  connect: (codec) => connectTransport({ baseUrl: location.origin, codec }),
  'grpc-web': (codec) => grpcWebTransport({ baseUrl: location.origin, codec }),
};
const plain = (order) => ({
  id: String(order.id),
  idIsBigint: typeof order.id === 'bigint',
  placedAt: order.placedAt instanceof Date ? order.placedAt.toISOString() : 'not a Date',
  payload: order.payload instanceof Uint8Array ? [...order.payload] : 'not bytes',
  status: order.status,
  total: order.total,
  note: order.note ?? null,
});
const failure = (error) => ({
  ok: false,
  isRpcError: error instanceof RpcError,
  name: error?.name,
  code: error?.code,
  status: error?.status,
  at: error?.at,
  message: String(error?.message ?? error),
});

window.rpcPage = {
  async unary(protocol, codec, id) {
    try {
      const client = createRpcClient(OrderService, transports[protocol](codec));
      return { ok: true, order: plain(await client.GetOrder({ id: BigInt(id) })) };
    } catch (error) {
      return failure(error);
    }
  },
  async stream(protocol, codec, count) {
    try {
      const client = createRpcClient(OrderService, transports[protocol](codec));
      const ids = [];
      for await (const order of client.WatchOrders({ count })) ids.push(String(order.id));
      return { ok: true, ids };
    } catch (error) {
      return failure(error);
    }
  },
};
`;

/** What the page puts on the window. */
interface RpcPage {
  readonly rpcPage: {
    unary(protocol: string, codec: string, id: string): Promise<unknown>;
    stream(protocol: string, codec: string, count: number): Promise<unknown>;
  };
}

const expectedOrder = {
  id: '9007199254740993',
  idIsBigint: true,
  placedAt: anOrder.placedAt.toISOString(),
  payload: [...anOrder.payload],
  status: anOrder.status,
  total: anOrder.total,
  note: null,
};

describe.skipIf(!has('chromium'))('the web RPC client in headless Chromium', () => {
  let dir: string;
  let served: Served;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 's42-rpc-client-browser-'));
    writeFileSync(join(dir, 'page.js'), pageSource);
    writeFileSync(
      join(dir, 'index.html'),
      '<!doctype html><html><head><meta charset="utf-8"></head><body><script type="module" src="./page.js"></script></body></html>',
    );
    const vite = await import('vite');
    const outDir = join(dir, 'dist');
    await vite.build({
      configFile: false,
      root: dir,
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true, minify: true, reportCompressedSize: false, target: 'es2022' },
    });
    // The page and the service on one origin: Connect's routes, the page's files otherwise.
    const fallback: http.RequestListener = (request, response) => {
      const path = request.url === '/' ? 'index.html' : (request.url ?? '').slice(1);
      if (!/^(index\.html|assets\/[\w.-]+\.js)$/.test(path)) {
        response.writeHead(404).end();
        return;
      }
      const type = path.endsWith('.html') ? 'text/html; charset=utf-8' : 'text/javascript';
      response.writeHead(200, { 'content-type': type }).end(readFileSync(join(outDir, path)));
    };
    served = await listen(http.createServer(routes({ fallback: fallback as never })));
    browser = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs] });
    page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${served.url}/`);
    await page.waitForFunction('window.rpcPage !== undefined', undefined, { timeout: 15_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  const cases = [
    ['connect', 'proto'],
    ['connect', 'json'],
    ['grpc-web', 'proto'],
  ] as const;

  test.each(cases)(
    '%s in %s: a unary call, the 64-bit id exact, the Date and bytes intact',
    async (protocol, codec) => {
      const outcome = await page.evaluate(
        ([p, c]) => (globalThis as never as RpcPage).rpcPage.unary(p, c, '9007199254740993'),
        [protocol, codec] as const,
      );
      expect(outcome).toEqual({ ok: true, order: expectedOrder });
    },
  );

  test.each(cases)('%s in %s: a server stream, in order', async (protocol, codec) => {
    const outcome = await page.evaluate(
      ([p, c]) => (globalThis as never as RpcPage).rpcPage.stream(p, c, 3),
      [protocol, codec] as const,
    );
    expect(outcome).toEqual({ ok: true, ids: ['1', '2', '3'] });
  });

  test.each(cases)(
    '%s in %s: a failed call is an RpcError with the status and wirekit code',
    async (protocol, codec) => {
      const outcome = await page.evaluate(
        ([p, c]) => (globalThis as never as RpcPage).rpcPage.unary(p, c, '3'),
        [protocol, codec] as const,
      );
      expect(outcome).toMatchObject({
        ok: false,
        isRpcError: true,
        name: 'RpcError',
        code: 'WK_VALIDATION_FAILED',
        status: 'INVALID_ARGUMENT',
        at: 'lines[1].sku',
      });
      expect(pageErrors).toEqual([]);
    },
  );
});
