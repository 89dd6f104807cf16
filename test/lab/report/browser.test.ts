/**
 * The HTML report in a real browser, offline: headless Chromium loads it from a file:// URL with
 * every other request refused, waits until each chart has drawn, then checks each chart's canvas
 * holds coloured pixels (the series: axes and grid are grey) and takes a screenshot.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { labHtml } from '../../../src/lab/report/html.js';
import type { LabRun } from '../../../src/lab/run.js';
import { chromiumArgs, chromiumPath, has } from '../../support/tools.js';

const run = JSON.parse(
  readFileSync(new URL('../../fixtures/lab-run.json', import.meta.url), 'utf8'),
) as LabRun;
const chartCount = new Set(run.results.map((r) => r.spec.dataset)).size * 3;

interface ChartPixels {
  readonly kind: string;
  /** Pixels drawn at all (axes, grid, labels, series). */
  readonly painted: number;
  /** Saturated pixels: the series palette, never the grey axes and grid. */
  readonly coloured: number;
}

/** Runs in the page; a string because the tests compile without the DOM's types. */
const countPixels = `[...document.querySelectorAll('.chart')].map((place) => {
  const canvas = place.querySelector('canvas');
  if (canvas === null) return { kind: place.dataset.chart, painted: 0, coloured: 0 };
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  let painted = 0;
  let coloured = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] === 0) continue;
    painted++;
    if (Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) > 80) coloured++;
  }
  return { kind: place.dataset.chart, painted, coloured };
})`;

/** Where the last screenshot is kept, for a person to look at after the run. */
export const screenshotPath = join(tmpdir(), 'wirekit-report-screenshot.png');

describe.skipIf(!has('chromium'))('HTML report in headless Chromium', () => {
  test('renders every chart offline and screenshots the page', async () => {
    // Not withTempDir: it is synchronous and would remove the folder before the browser reads it.
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-report-'));
    try {
      const file = join(dir, 'report.html');
      writeFileSync(file, labHtml(run));
      const url = pathToFileURL(file).href;
      const browser = await chromium.launch({
        executablePath: chromiumPath,
        args: [...chromiumArgs],
      });
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        const blocked: string[] = [];
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        // Only the page itself may load: a report that needed a CDN would fail here.
        await page.route('**/*', (route) => {
          if (route.request().url() === url) return route.continue();
          blocked.push(route.request().url());
          return route.abort();
        });
        await page.goto(url);
        await page.waitForSelector(`body[data-chart-ready="${chartCount}"]`, { timeout: 15_000 });
        expect(errors).toEqual([]);
        expect(blocked).toEqual([]);
        expect(await page.getAttribute('body', 'data-chart-error')).toBeNull();

        const charts = await page.evaluate<ChartPixels[]>(countPixels);
        expect(charts).toHaveLength(chartCount);
        for (const chart of charts) {
          expect(chart.painted, `${chart.kind} chart is blank`).toBeGreaterThan(1000);
          // Scatter points are small; bars fill far more.
          expect(chart.coloured, `${chart.kind} chart drew no series`).toBeGreaterThan(
            chart.kind === 'scatter' ? 100 : 1000,
          );
        }

        await page.screenshot({ path: screenshotPath, fullPage: true });
        const png = readFileSync(screenshotPath);
        expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
        // IHDR: the width and height of the full page, big enough to hold the charts.
        expect(png.readUInt32BE(16)).toBe(1280); // nothing wider than the viewport
        expect(png.readUInt32BE(20)).toBeGreaterThan(1500);
        expect(statSync(screenshotPath).size).toBeGreaterThan(50_000);
      } finally {
        await browser.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
