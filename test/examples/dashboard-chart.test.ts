/**
 * The dashboard's chart as a reader sees it, in headless Chromium: a legend naming every sensor in
 * its own colour, axes that say what and when, a sensor choice that changes what is fetched and
 * drawn, a zoom that redraws the range from the full-resolution rows, and at 24 months (10.45 M
 * rows) lines of at most about four points per pixel column. Screenshots are kept for a person.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureDashboardPage } from '../../examples/dashboard/build.js';
import { startDashboard } from '../../examples/dashboard/server.js';
import { chromiumArgs, chromiumPath, freePort, has } from '../support/tools.js';

/** Where the screenshots are kept, for a person to look at after the run. */
export const chartScreenshots = {
  sensors: join(tmpdir(), 'wirekit-dashboard-sensors.png'),
  zoomed: join(tmpdir(), 'wirekit-dashboard-zoomed.png'),
  twoYears: join(tmpdir(), 'wirekit-dashboard-24-months.png'),
};

interface DemoState {
  readonly state: string;
  readonly rows?: number;
  readonly bytes?: number | null;
  readonly reduced?: boolean;
  readonly message?: string;
}

interface Drawn {
  readonly columns: number;
  readonly points: readonly (number | null)[];
  readonly view: readonly [number, number];
}

const settled = `['done', 'error'].includes(window.wirekitDemo?.state)`;
/** The legend's series (not the time row): label, marker colour. Runs in the page. */
const legend = `[...document.querySelectorAll('#chart .u-legend .u-series')].slice(1).map((row) => ({
  label: row.querySelector('.u-label').textContent,
  colour: getComputedStyle(row.querySelector('.u-marker')).borderColor,
  value: row.querySelector('.u-value').textContent,
}))`;

async function startBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs] });
}

interface Opened {
  readonly page: Page;
  readonly state: DemoState;
  /** The query of every /series request the page made. */
  readonly seriesQueries: URLSearchParams[];
  readonly errors: string[];
  close(): Promise<void>;
}

async function open(browser: Browser, url: string): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  const errors: string[] = [];
  const seriesQueries: URLSearchParams[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => {
    const address = new URL(request.url());
    if (address.pathname === '/series') seriesQueries.push(address.searchParams);
  });
  await page.goto(url);
  await page.waitForFunction(settled, undefined, { timeout: 240_000 });
  const state = (await page.evaluate('window.wirekitDemo')) as DemoState;
  return { page, state, seriesQueries, errors, close: () => context.close() };
}

describe.skipIf(!has('chromium'))('the dashboard chart in headless Chromium', () => {
  let browser: Browser;
  let server: { url: string; close(): Promise<void> };
  let dataDir: string;

  beforeAll(async () => {
    await ensureDashboardPage();
    dataDir = mkdtempSync(join(tmpdir(), 'wirekit-dashboard-chart-'));
    server = await startDashboard({ port: await freePort(), months: 2, dataDir, log: () => {} });
    browser = await startBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  test('a legend names every sensor in its own colour; the axes say temperature in °C and UTC dates', async () => {
    const opened = await open(browser, `${server.url}/?format=arrow&months=2`);
    try {
      expect(opened.state, opened.state.message).toMatchObject({ state: 'done', reduced: true });
      const rows = (await opened.page.evaluate(legend)) as { label: string; colour: string }[];
      expect(rows.map((row) => row.label)).toEqual(Array.from({ length: 25 }, (_, i) => `sensor ${i + 1}`));
      expect(new Set(rows.map((row) => row.colour)).size).toBe(25);
      // The legend's colour is the line's.
      const strokes = (await opened.page.evaluate(
        `window.wirekitDemoChart.series.slice(1).map((s) => s._stroke)`,
      )) as string[];
      expect(new Set(strokes).size).toBe(25);
      const labels = (await opened.page.evaluate(
        `window.wirekitDemoChart.axes.map((a) => a.label)`,
      )) as string[];
      expect(labels).toEqual(['time (UTC)', 'temperature (°C)']);
      // Under the cursor the legend reads a UTC date and each sensor's value in °C.
      await opened.page.mouse.move(...(await plotPoint(opened.page, 0.5)));
      const time = await opened.page.textContent('#chart .u-legend .u-series:first-child .u-value');
      expect(time).toMatch(/^2026-1[01]-\d\d \d\d:\d\d$/);
      const hovered = (await opened.page.evaluate(legend)) as { value: string }[];
      for (const row of hovered) expect(row.value).toMatch(/^\d+\.\d\d °C$/);
    } finally {
      await opened.close();
    }
  }, 120_000);

  test('choosing sensors fetches and draws those only, in the same colours', async () => {
    const whole = await open(browser, `${server.url}/?format=arrow&months=1`);
    const colours = (await whole.page.evaluate(legend)) as { label: string; colour: string }[];
    const wholeState = whole.state;
    await whole.close();

    const opened = await open(browser, `${server.url}/?format=arrow&months=1`);
    try {
      const { page } = opened;
      await page.click('#sensors button:text("none")');
      await page.check('#sensors input[value="3"]');
      await page.check('#sensors input[value="17"]');
      await page.click('#load');
      await page.waitForFunction(
        `window.wirekitDemo.state === 'done' && window.wirekitDemoChart.series.length === 3`,
      );
      const state = (await page.evaluate('window.wirekitDemo')) as DemoState;
      // Fetched: the server was asked for two sensors, and sent their rows only.
      expect(opened.seriesQueries.at(-1)?.get('sensors')).toBe('3,17');
      expect(new URL(page.url()).searchParams.get('sensors')).toBe('3,17');
      expect(state.rows).toBe(((wholeState.rows as number) * 2) / 25);
      expect(state.bytes).toBeLessThan((wholeState.bytes as number) / 8);
      // Drawn: two lines, named and coloured as in the whole chart.
      const rows = (await page.evaluate(legend)) as { label: string; colour: string }[];
      expect(rows).toEqual([colours[2], colours[16]].map((row) => ({ ...row, value: expect.any(String) })));
      const drawn = (await page.evaluate('window.wirekitDemoDrawn')) as Drawn;
      expect(drawn.points).toHaveLength(2);
      await page.screenshot({ path: chartScreenshots.sensors, fullPage: true });
      console.log(`dashboard screenshot (two sensors): ${chartScreenshots.sensors}`);

      // None chosen: the page says so and fetches nothing.
      const requests = opened.seriesQueries.length;
      await page.click('#sensors button:text("none")');
      await page.click('#load');
      expect(await page.textContent('#error')).toContain('at least one sensor');
      expect(opened.seriesQueries).toHaveLength(requests);
      expect(opened.errors).toEqual([]);
    } finally {
      await opened.close();
    }
  }, 120_000);

  test('a zoom redraws the range in view from the full-resolution rows', async () => {
    const opened = await open(browser, `${server.url}/?format=arrow&months=2`);
    try {
      const { page } = opened;
      const before = (await page.evaluate('window.wirekitDemoDrawn')) as Drawn;
      const instants = (await page.evaluate('window.wirekitDemoChart.data[0].length')) as number;
      // Two months hold more instants than 4 points a column: the whole view is reduced.
      for (const points of before.points) expect(points).toBeLessThan(instants);
      for (const points of before.points) expect(points).toBeLessThanOrEqual(4 * before.columns + 8);

      // Drag across a twentieth of the plot, as a reader selects a range.
      const [x0, y] = await plotPoint(page, 0.4);
      const [x1] = await plotPoint(page, 0.45);
      await page.mouse.move(x0, y);
      await page.mouse.down();
      await page.mouse.move(x1, y, { steps: 5 });
      await page.mouse.up();
      await page.waitForFunction(`window.wirekitDemoDrawn.view[0] !== ${before.view[0]}`);
      const zoomed = (await page.evaluate('window.wirekitDemoDrawn')) as Drawn;
      const inView = (await page.evaluate(
        `window.wirekitDemoChart.data[0].filter((x) => x >= ${zoomed.view[0]} && x <= ${zoomed.view[1]}).length`,
      )) as number;
      expect(inView).toBeGreaterThan(50);
      expect(inView).toBeLessThan(zoomed.columns);
      // Fewer instants than pixel columns: every row in view is drawn (and one either side).
      for (const points of zoomed.points) {
        expect(points).toBeGreaterThanOrEqual(inView);
        expect(points).toBeLessThanOrEqual(inView + 2);
      }
      await page.screenshot({ path: chartScreenshots.zoomed, fullPage: true });
      console.log(`dashboard screenshot (zoomed): ${chartScreenshots.zoomed}`);

      // A double-click goes back to the whole range, reduced again.
      await page.mouse.dblclick(x0, y);
      await page.waitForFunction(`window.wirekitDemoDrawn.view[0] === ${before.view[0]}`);
      const back = (await page.evaluate('window.wirekitDemoDrawn')) as Drawn;
      expect(back.points).toEqual(before.points);
      expect(opened.errors).toEqual([]);
    } finally {
      await opened.close();
    }
  }, 120_000);
});

/** A point on the plotting area, `fraction` of the way across, half way down (page pixels). */
async function plotPoint(page: Page, fraction: number): Promise<[number, number]> {
  const box = await page.locator('#chart .u-over').boundingBox();
  if (box === null) throw new Error('the chart has no plotting area');
  return [box.x + box.width * fraction, box.y + box.height / 2];
}

describe.skipIf(!has('chromium'))('the dashboard chart at 24 months in headless Chromium', () => {
  let browser: Browser;
  let server: { url: string; close(): Promise<void> };
  let dataDir: string;

  beforeAll(async () => {
    await ensureDashboardPage();
    dataDir = mkdtempSync(join(tmpdir(), 'wirekit-dashboard-24m-'));
    server = await startDashboard({ port: await freePort(), months: 24, dataDir, log: () => {} });
    browser = await startBrowser();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  test('10.45 M rows draw at most about four points per pixel column a series', async () => {
    const opened = await open(browser, `${server.url}/?format=arrow&months=24`);
    try {
      expect(opened.state, opened.state.message).toMatchObject({
        state: 'done',
        rows: 10_454_400,
        reduced: true,
      });
      const drawn = (await opened.page.evaluate('window.wirekitDemoDrawn')) as Drawn;
      const plotWidth = (await opened.page.evaluate('window.wirekitDemoChart.bbox.width')) as number;
      expect(drawn.columns).toBe(Math.round(plotWidth));
      expect(drawn.points).toHaveLength(25);
      for (const points of drawn.points) {
        // Four a column, and the one column either side of the range.
        expect(points).toBeLessThanOrEqual(4 * drawn.columns + 8);
        expect(points).toBeGreaterThan(2 * drawn.columns);
      }
      // uPlot still holds every row, for a zoom.
      expect(await opened.page.evaluate('window.wirekitDemoChart.data[0].length')).toBe(10_454_400 / 25);
      await opened.page.screenshot({ path: chartScreenshots.twoYears, fullPage: true });
      console.log(`dashboard screenshot (24 months): ${chartScreenshots.twoYears}`);
      expect(statSync(chartScreenshots.twoYears).size).toBeGreaterThan(30_000);
      expect(opened.errors).toEqual([]);
    } finally {
      await opened.close();
    }
  }, 300_000);
});
