/**
 * The dashboard demo end to end in headless Chromium: the demo server (DuckDB → wirekit's Fastify
 * plugin) on a small table, the page built by Vite, one fresh page per format. The chart must hold
 * the same points in Arrow, JSON and NDJSON, equal to what the server's JSON answers a plain Node
 * fetch (x and every y array, value for value), and something must be drawn. A JSON page must not
 * download apache-arrow. A refused request, a body cut short and text that does not parse all end
 * in the page's error state, never in a chart that looks whole.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dashboardDist, ensureDashboardPage } from '../../examples/dashboard/build.js';
import { monthsBefore } from '../../examples/dashboard/page/range.js';
import { startDashboard } from '../../examples/dashboard/server.js';
import { chromiumArgs, chromiumPath, freePort, has } from '../support/tools.js';

const formats = ['arrow', 'json', 'ndjson'] as const;
type Format = (typeof formats)[number];
const accept: Record<Format, string> = {
  arrow: 'application/vnd.apache.arrow.stream',
  json: 'application/json',
  ndjson: 'application/x-ndjson',
};

/** Where the screenshot of the Arrow chart is kept, for a person to look at after the run. */
export const screenshotPath = join(tmpdir(), 'wirekit-dashboard-screenshot.png');

interface DemoState {
  readonly state: string;
  readonly format?: string;
  readonly months?: number;
  readonly rows?: number;
  readonly points?: number;
  readonly bytes?: number | null;
  readonly firstBatchMs?: number;
  readonly renderedMs?: number;
  readonly heapPeakBytes?: number | null;
  readonly message?: string;
  readonly code?: string;
  readonly elapsedMs?: number;
}

interface Meta {
  readonly from: string;
  readonly to: string;
  readonly sensors: readonly number[];
}

interface JsonRow {
  readonly ts: string;
  readonly sensor_id: number;
  readonly value: number;
}

/** Runs in the page (a string: the tests compile without the DOM's types). */
const chartData = `window.wirekitDemoChart.data.map((column) => Array.from(column))`;
const settled = `['done', 'error'].includes(window.wirekitDemo?.state)`;
const colouredPixels = `(() => {
  const canvas = document.querySelector('#chart canvas');
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  let coloured = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] === 0) continue;
    if (Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) > 80) coloured++;
  }
  return coloured;
})()`;

/**
 * The aligned data the chart should hold, built from the JSON rows another way than the page
 * does: grouped by instant in a Map, then laid out in time order, one array per sensor of /meta.
 */
function expectedAligned(rows: readonly JsonRow[], sensors: readonly number[]): number[][] {
  const byInstant = new Map<number, Map<number, number>>();
  for (const row of rows) {
    const seconds = new Date(row.ts).getTime() / 1000;
    let values = byInstant.get(seconds);
    if (values === undefined) {
      values = new Map();
      byInstant.set(seconds, values);
    }
    values.set(row.sensor_id, row.value);
  }
  const instants = [...byInstant.keys()].sort((a, b) => a - b);
  return [
    instants,
    ...sensors.map((id) => instants.map((instant) => byInstant.get(instant)?.get(id) ?? Number.NaN)),
  ];
}

describe.skipIf(!has('chromium'))('dashboard demo in headless Chromium', () => {
  let browser: Browser;
  let server: { url: string; close(): Promise<void> };
  let dataDir: string;

  beforeAll(async () => {
    await ensureDashboardPage();
    dataDir = mkdtempSync(join(tmpdir(), 'wirekit-dashboard-'));
    server = await startDashboard({ port: await freePort(), host: '127.0.0.1', months: 2, dataDir });
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [...chromiumArgs],
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  interface Opened {
    readonly page: Page;
    readonly state: DemoState;
    /** The bundle's scripts the page downloaded (paths under /assets/). */
    readonly scripts: readonly string[];
    readonly errors: readonly string[];
    readonly foreign: readonly string[];
    close(): Promise<void>;
  }

  /** Opens `query` in a fresh context and waits for the page to finish its load. */
  async function open(query: string, prepare?: (page: Page) => Promise<unknown>): Promise<Opened> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const scripts: string[] = [];
    const errors: string[] = [];
    const foreign: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // Everything comes from the demo server: a page that needed a CDN would fail here.
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.origin !== server.url) {
        foreign.push(url.href);
        return route.abort();
      }
      if (url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js')) scripts.push(url.pathname);
      return route.fallback();
    });
    await prepare?.(page);
    await page.goto(`${server.url}/?${query}`);
    await page.waitForFunction(settled, undefined, { timeout: 60_000 });
    const state = (await page.evaluate('window.wirekitDemo')) as DemoState;
    return { page, state, scripts, errors, foreign, close: () => context.close() };
  }

  const assetText = (path: string) => readFileSync(join(dashboardDist, path), 'utf8');
  /** apache-arrow's IPC magic: in its bundle, and nowhere else. */
  const holdsArrow = (path: string) => assetText(path).includes('ARROW1');

  test('every format charts the same points as the server sends in JSON', async () => {
    const meta = (await (await fetch(`${server.url}/meta`)).json()) as Meta;
    const from = monthsBefore(meta.to, 1);
    const reply = await fetch(`${server.url}/series?${new URLSearchParams({ from, to: meta.to })}`, {
      headers: { accept: 'application/json' },
    });
    expect(reply.status).toBe(200);
    const rows = (await reply.json()) as JsonRow[];
    const expected = expectedAligned(rows, meta.sensors);
    expect(rows.length).toBeGreaterThan(1000);
    expect(rows.length % meta.sensors.length).toBe(0);

    const charted = new Map<Format, number[][]>();
    for (const format of formats) {
      const opened = await open(`format=${format}&months=1`);
      try {
        expect(opened.state, `${format}: ${opened.state.message}`).toMatchObject({
          state: 'done',
          format,
          months: 1,
          rows: rows.length,
          points: rows.length,
        });
        expect(opened.errors).toEqual([]);
        expect(opened.foreign).toEqual([]);
        expect(opened.state.firstBatchMs).toBeGreaterThan(0);
        expect(opened.state.renderedMs).toBeGreaterThanOrEqual(opened.state.firstBatchMs as number);
        // On the wire: Arrow's 20 bytes a row or JSON's ~60, never nothing.
        expect(opened.state.bytes).toBeGreaterThan(rows.length * 16);
        const data = (await opened.page.evaluate(chartData)) as number[][];
        expect(data).toHaveLength(meta.sensors.length + 1);
        expect(data[0]).toHaveLength(rows.length / meta.sensors.length);
        charted.set(format, data);
        expect(await opened.page.evaluate(colouredPixels), `${format} drew no lines`).toBeGreaterThan(5000);

        // Only the Arrow page downloads apache-arrow.
        const arrowScripts = opened.scripts.filter(holdsArrow);
        if (format === 'arrow') expect(arrowScripts).toHaveLength(1);
        else expect(arrowScripts).toEqual([]);

        if (format === 'arrow') {
          await opened.page.screenshot({ path: screenshotPath, fullPage: true });
          console.log(`dashboard screenshot: ${screenshotPath}`);
        }
      } finally {
        await opened.close();
      }
    }
    expect(charted.get('arrow')).toEqual(expected);
    expect(charted.get('json')).toEqual(expected);
    expect(charted.get('ndjson')).toEqual(expected);

    const png = readFileSync(screenshotPath);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(statSync(screenshotPath).size).toBeGreaterThan(30_000);
  }, 120_000);

  test("a bad parameter ends in the error state with the 400's code, in every format", async () => {
    const meta = (await (await fetch(`${server.url}/meta`)).json()) as Meta;
    const query = new URLSearchParams({ from: monthsBefore(meta.to, 1), to: meta.to, sensors: 'abc' });
    const reply = await fetch(`${server.url}/series?${query}`, { headers: { accept: 'application/json' } });
    expect(reply.status).toBe(400);
    const { code } = (await reply.json()) as { code: string };
    expect(code).toMatch(/^WK_/);
    for (const format of formats) {
      const opened = await open(`format=${format}&months=1&sensors=abc`);
      try {
        expect(opened.state).toMatchObject({ state: 'error', format, code });
        expect(opened.state.elapsedMs).toBeGreaterThan(0);
        expect(await opened.page.isVisible('#error')).toBe(true);
        expect(await opened.page.textContent('#error')).toContain(code);
        expect(await opened.page.evaluate('window.wirekitDemoChart === undefined')).toBe(true);
      } finally {
        await opened.close();
      }
    }
  }, 60_000);

  test('a body cut short or that does not parse is an error, not a shorter chart', async () => {
    const meta = (await (await fetch(`${server.url}/meta`)).json()) as Meta;
    const query = new URLSearchParams({ from: monthsBefore(meta.to, 1), to: meta.to });
    for (const format of formats) {
      const reply = await fetch(`${server.url}/series?${query}`, { headers: { accept: accept[format] } });
      const whole = new Uint8Array(await reply.arrayBuffer());
      // Cut two thirds in, inside a line for the text formats (a cut at a newline would be a
      // shorter but valid NDJSON body, which no reader can tell from a whole one).
      let cut = Math.floor((whole.length * 2) / 3);
      while (format !== 'arrow' && (whole[cut - 1] === 0x0a || whole[cut] === 0x0a)) cut++;
      const body = Buffer.from(whole.subarray(0, cut));
      const opened = await open(`format=${format}&months=1`, (page) =>
        page.route(
          (url) => url.pathname === '/series',
          (route) => route.fulfill({ status: 200, headers: { 'content-type': accept[format] }, body }),
        ),
      );
      try {
        expect(opened.state, `${format} read a cut body as whole`).toMatchObject({ state: 'error', format });
        // Arrow's is wirekit's decoder refusing a stream that ends inside a message.
        if (format === 'arrow') expect(opened.state.code).toMatch(/^WK_DECODE_/);
        expect(await opened.page.isVisible('#error')).toBe(true);
        expect(await opened.page.evaluate('window.wirekitDemoChart === undefined')).toBe(true);
      } finally {
        await opened.close();
      }
    }
  }, 60_000);

  test('an unknown format in the address is an error', async () => {
    const opened = await open('format=xml&months=1');
    try {
      expect(opened.state).toMatchObject({ state: 'error', format: 'xml' });
      expect(await opened.page.textContent('#error')).toContain('Unknown format');
    } finally {
      await opened.close();
    }
  });
});
