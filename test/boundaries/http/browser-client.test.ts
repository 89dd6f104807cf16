/**
 * The fetch client in a real browser: headless Chromium loads the pages Vite built (the bundle
 * benchmark's JSON and Arrow pages) from a Fastify server that also serves the wirekit plugin's
 * streamed routes, one origin for both. The Arrow page reads record batches and rows and reports
 * counts and sums that must be what the server sent; a route whose connection the server destroys
 * after three batches, and one that ends without Arrow's end-of-stream marker, must reach the page
 * as WirekitErrors with WK_DECODE_TRUNCATED. The browser's own requests show which chunks each
 * page loaded: the JSON page never fetches the Arrow codec.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { wirekit, wirekitRoute } from '../../../src/boundaries/http/index.js';
import { createArrowCodec } from '../../../src/codecs/arrow/index.js';
import { t } from '../../../src/schema/index.js';
import {
  type BuiltPages,
  buildPages,
  codecChunk,
  type PageOutcome,
  type PageRow,
} from '../../support/browser-pages.js';
import { chromiumArgs, chromiumPath, has } from '../../support/tools.js';

/** The pages' row schema (pageRowSource), on the server's side. */
const Row = t.object('Row', { id: t.int32(), label: t.string(), value: t.float64() });
const rowAt = (i: number): PageRow => ({
  id: i,
  label: i % 4 === 0 ? `größe ${i} ✓` : `row ${i}`,
  value: i / 2,
});
const rowCount = 1000;
const sentBeforeBreak = 300;
const sum = (count: number, of: (i: number) => number) =>
  Array.from({ length: count }, (_, i) => of(i)).reduce((a, b) => a + b, 0);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const src = (path: string) => fileURLToPath(new URL(`../../../src/${path}`, import.meta.url));
const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
};

const withoutEnd = (() => {
  const bytes = createArrowCodec({ schema: Row, batchSize: 100 }).encode(
    Array.from({ length: 250 }, (_, i) => rowAt(i)),
  );
  return bytes.subarray(0, bytes.length - 8);
})();

async function serve(pages: BuiltPages): Promise<{ app: FastifyInstance; baseUrl: string }> {
  const app = Fastify({ logger: false });
  await app.register(wirekit);
  app.route(
    wirekitRoute({
      method: 'GET',
      url: '/rows',
      stream: Row,
      batchSize: 100,
      handler: async () => Array.from({ length: rowCount }, (_, i) => rowAt(i)),
    }),
  );
  app.route(
    wirekitRoute({
      method: 'GET',
      url: '/breaks',
      stream: Row,
      batchSize: 100,
      handler: async (request) =>
        (async function* () {
          for (let i = 0; i < rowCount; i++) {
            if (i === sentBeforeBreak) {
              await pause(150);
              request.raw.socket.destroy();
              await pause(100);
            }
            yield rowAt(i);
          }
        })(),
    }),
  );
  app.get('/unended', (_request, reply) => {
    reply.type('application/vnd.apache.arrow.stream').send(Buffer.from(withoutEnd));
  });
  app.get('/favicon.ico', (_request, reply) => reply.code(204).send());
  // The built pages and their chunks, from the same origin as the routes.
  app.get('/*', (request, reply) => {
    const path = normalize((request.params as { '*': string })['*']);
    const type = contentTypes[extname(path)];
    if (path.startsWith('..') || type === undefined) return reply.code(404).send();
    try {
      return reply.type(type).send(readFileSync(join(pages.outDir, path)));
    } catch {
      return reply.code(404).send();
    }
  });
  return { app, baseUrl: await app.listen({ host: '127.0.0.1', port: 0 }) };
}

describe.skipIf(!has('chromium'))('the fetch client in headless Chromium', () => {
  let dir: string;
  let pages: BuiltPages;
  let app: FastifyInstance;
  let baseUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wirekit-browser-'));
    pages = await buildPages(
      dir,
      { client: src('boundaries/http/client-entry.ts'), schema: src('schema/index.ts') },
      true,
    );
    ({ app, baseUrl } = await serve(pages));
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [...chromiumArgs],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A page loaded and ready, with the paths it requests and any error it throws or logs. */
  async function open(
    name: 'json' | 'arrow',
  ): Promise<{ page: Page; requested: string[]; errors: string[] }> {
    const page = await browser.newPage();
    const requested: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
    });
    await page.goto(`${baseUrl}/${name}.html`);
    await page.waitForFunction('window.wirekitPage !== undefined', undefined, { timeout: 15_000 });
    return { page, requested, errors };
  }

  const call = (page: Page, method: string, path: string) =>
    page.evaluate<PageOutcome>(`window.wirekitPage.${method}(${JSON.stringify(path)})`);

  test('the Arrow page reads batches and rows as the server sent them', async () => {
    const { page, requested, errors } = await open('arrow');
    try {
      const batches = await call(page, 'batches', '/rows');
      expect(batches).toEqual({
        ok: true,
        batches: Array(10).fill(100),
        rows: rowCount,
        idSum: sum(rowCount, (i) => i),
        valueSum: sum(rowCount, (i) => i / 2),
        lastLabel: rowAt(rowCount - 1).label,
      });
      const rows = await call(page, 'stream', '/rows');
      expect(rows).toEqual({
        ok: true,
        rows: rowCount,
        idSum: sum(rowCount, (i) => i),
        valueSum: sum(rowCount, (i) => i / 2),
        first: rowAt(0),
        last: rowAt(rowCount - 1),
      });
      expect(requested).toContain(`/${codecChunk(pages, 'arrow').fileName}`);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  test('a reply the server breaks off after three batches is WK_DECODE_TRUNCATED in the page', async () => {
    const { page } = await open('arrow');
    try {
      for (const method of ['batches', 'stream']) {
        const outcome = await call(page, method, '/breaks');
        expect(outcome, method).toMatchObject({
          ok: false,
          name: 'WirekitError',
          code: 'WK_DECODE_TRUNCATED',
        });
        expect(outcome.ok === false && outcome.message, method).toMatch(
          /^the reply broke off after [1-9]\d* bytes/,
        );
        expect(outcome.ok === false && outcome.progress, method).toEqual(
          method === 'batches' ? { batches: [100, 100, 100] } : { rows: sentBeforeBreak },
        );
      }
    } finally {
      await page.close();
    }
  });

  test('an Arrow stream without its end-of-stream marker is WK_DECODE_TRUNCATED in the page', async () => {
    const { page } = await open('arrow');
    try {
      const batches = await call(page, 'batches', '/unended');
      expect(batches).toMatchObject({
        ok: false,
        code: 'WK_DECODE_TRUNCATED',
        progress: { batches: [100, 100, 50] },
      });
      expect(batches.ok === false && batches.message).toContain('no end-of-stream marker');
      expect(await call(page, 'stream', '/unended')).toMatchObject({
        ok: false,
        code: 'WK_DECODE_TRUNCATED',
        progress: { rows: 250 },
      });
    } finally {
      await page.close();
    }
  });

  test('the JSON page reads its rows and never fetches the Arrow codec', async () => {
    const { page, requested, errors } = await open('json');
    try {
      const whole = await call(page, 'get', '/rows');
      expect(whole).toMatchObject({
        ok: true,
        rows: rowCount,
        idSum: sum(rowCount, (i) => i),
        last: rowAt(rowCount - 1),
      });
      expect(await call(page, 'stream', '/rows')).toEqual(whole);
      expect(requested).toContain(`/${codecChunk(pages, 'json').fileName}`);
      for (const format of ['arrow', 'msgpack', 'cbor', 'protobuf', 'avro', 'flatbuffers']) {
        expect(requested, format).not.toContain(`/${codecChunk(pages, format).fileName}`);
      }
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
