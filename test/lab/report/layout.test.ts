/**
 * The HTML report on a laptop screen, in headless Chromium: a report of a real quick run of every
 * default format (`wirekit bench --quick --datasets orders,users`, kept as a fixture) at 1280×800
 * and 1366×768. Nothing is wider than the window, no table needs its scroll box, and in every chart
 * each series has a label and a colour of its own (read from the chart's legend), a format keeping
 * its colour from one dataset to the next. A screenshot of each width is kept for a person to see.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { labHtml } from '../../../src/lab/report/html.js';
import type { LabRun } from '../../../src/lab/run.js';
import { chromiumArgs, chromiumPath, has } from '../../support/tools.js';

const run = JSON.parse(
  readFileSync(new URL('../../fixtures/lab-run-all-formats.json', import.meta.url), 'utf8'),
) as LabRun;
const chartCount = new Set(run.results.map((r) => r.spec.dataset)).size * 3;

interface Box {
  readonly what: string;
  readonly left: number;
  readonly right: number;
}

interface Layout {
  readonly scrollWidth: number;
  readonly innerWidth: number;
  /** The page's content column, which every table and chart must stay inside. */
  readonly main: { readonly left: number; readonly right: number };
  readonly boxes: readonly Box[];
  /** Table boxes whose content is wider than the box (they would scroll). */
  readonly scrolling: readonly string[];
  readonly charts: readonly {
    readonly kind: string;
    readonly dataset: string;
    readonly series: readonly { readonly label: string; readonly colour: string }[];
  }[];
}

/** Runs in the page; a string because the tests compile without the DOM's types. */
const measure = `(() => {
  const box = (what, el) => {
    const r = el.getBoundingClientRect();
    return { what, left: r.left, right: r.right };
  };
  const main = document.querySelector('main').getBoundingClientRect();
  return {
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: innerWidth,
    main: { left: main.left, right: main.right },
    boxes: [
      ...[...document.querySelectorAll('main table')].map((t, i) => box('table ' + i + ' (' + (t.closest('.u-legend') ? 'a chart legend' : t.className || 'a table') + ')', t)),
      ...[...document.querySelectorAll('.chart')].map((c) => box(c.dataset.chart + ' chart of ' + c.dataset.dataset, c)),
      ...[...document.querySelectorAll('.chart canvas')].map((c, i) => box('canvas ' + i, c)),
    ],
    scrolling: [...document.querySelectorAll('.table-wrap')]
      .filter((w) => w.scrollWidth > w.clientWidth)
      .map((w) => w.closest('section').id),
    charts: [...document.querySelectorAll('.chart')].map((place) => ({
      kind: place.dataset.chart,
      dataset: place.dataset.dataset,
      // uPlot's legend: one row per series (no row for the x values, as the legend is not live).
      series: [...place.querySelectorAll('.u-legend .u-series')].map((row) => {
        const marker = getComputedStyle(row.querySelector('.u-marker'));
        return { label: row.querySelector('.u-label').textContent.trim(), colour: marker.backgroundColor };
      }),
    })),
  };
})()`;

describe.skipIf(!has('chromium'))('HTML report layout on a laptop screen', () => {
  test('every table and chart fits 1280 and 1366 px; every series has its own colour and label', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-report-layout-'));
    const screenshots = mkdtempSync(join(tmpdir(), 'wirekit-report-screens-'));
    try {
      const file = join(dir, 'report.html');
      writeFileSync(file, labHtml(run));
      const browser = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs] });
      try {
        for (const viewport of [
          { width: 1280, height: 800 },
          { width: 1366, height: 768 },
        ]) {
          const page = await browser.newPage({ viewport });
          await page.goto(pathToFileURL(file).href);
          await page.waitForSelector(`body[data-chart-ready="${chartCount}"]`, { timeout: 20_000 });
          const layout = await page.evaluate<Layout>(measure);
          const at = `at ${viewport.width} px`;

          expect(layout.innerWidth).toBe(viewport.width);
          expect(layout.scrollWidth, `the page scrolls sideways ${at}`).toBeLessThanOrEqual(
            layout.innerWidth,
          );
          for (const box of layout.boxes) {
            expect(box.left, `${box.what} starts left of the page ${at}`).toBeGreaterThanOrEqual(
              layout.main.left - 0.5,
            );
            expect(box.right, `${box.what} ends right of the page ${at}`).toBeLessThanOrEqual(
              layout.main.right + 0.5,
            );
          }
          expect(layout.scrolling, `tables that scroll in their box ${at}`).toEqual([]);

          expect(layout.charts).toHaveLength(chartCount);
          for (const chart of layout.charts) {
            const what = `${chart.kind} chart of ${chart.dataset} ${at}`;
            expect(chart.series.length, what).toBeGreaterThan(1);
            const labels = chart.series.map((s) => s.label);
            expect(
              labels.every((label) => label !== ''),
              `${what}: a series without a label`,
            ).toBe(true);
            expect(new Set(labels).size, `${what}: two series with one label`).toBe(labels.length);
            const colours = chart.series.map((s) => s.colour);
            expect(new Set(colours).size, `${what}: two series share a colour (${colours})`).toBe(
              colours.length,
            );
          }
          // Every default format is drawn, and keeps its colour from one dataset's scatter to the next.
          const scatters = layout.charts.filter((chart) => chart.kind === 'scatter');
          expect(scatters[0]?.series.length).toBe(new Set(run.results.map((r) => r.label)).size);
          const colourOf = (chart: (typeof scatters)[number]) =>
            Object.fromEntries(chart.series.map((s) => [s.label, s.colour]));
          for (const chart of scatters.slice(1))
            expect(colourOf(chart)).toEqual(colourOf(scatters[0] as (typeof scatters)[number]));

          const screenshot = join(screenshots, `report-${viewport.width}.png`);
          await page.screenshot({ path: screenshot, fullPage: true });
          console.log(`report screenshot ${at}: ${screenshot}`);
          await page.close();
        }
      } finally {
        await browser.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
