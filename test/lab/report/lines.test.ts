/**
 * linesHtml, the lab's page of line charts (bench:events --mode lag draws its lag curves with it),
 * in headless Chromium offline: every chart draws through the lab's chart script, with its series
 * in colour, and nothing is fetched. The page's JSON carries exactly the charts it was given.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { type LineChart, linesHtml } from '../../../src/lab/report/lines.js';
import { chromiumArgs, chromiumPath, has } from '../../support/tools.js';

// Two series sampled at different moments, one with a gap: uPlot.join must align them.
const ramp = (scale: number, step: number) =>
  Array.from({ length: 40 }, (_, i) => [i * step, i === 7 ? null : Math.sin(i / 6) * scale + scale] as const);
const charts: LineChart[] = [
  {
    title: 'first',
    xLabel: 's',
    yLabel: 'lag, s',
    series: [
      { label: 'order', points: ramp(3, 0.25) },
      { label: 'document', points: ramp(5, 0.3) },
    ],
  },
  { title: 'second', xLabel: 's', yLabel: 'lag, s', series: [{ label: 'order', points: ramp(1, 0.25) }] },
];

/** Saturated pixels per chart canvas (the series; axes and grid are grey). A string: no DOM types here. */
const colouredPixels = `[...document.querySelectorAll('.chart')].map((place) => {
  const canvas = place.querySelector('canvas');
  if (canvas === null) return 0;
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  let coloured = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] !== 0 && Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) > 80) coloured++;
  }
  return coloured;
})`;

describe('linesHtml', () => {
  test('holds the charts as given, with the page facts and text escaped', () => {
    const html = linesHtml({ title: 'lag <run>', facts: [['load', '1 & 2']], charts, text: '| a | <b> |' });
    const json = /<script type="application\/json" id="lab-run">(.*?)<\/script>/s.exec(html)?.[1] ?? '';
    expect(JSON.parse(json)).toEqual({ lines: JSON.parse(JSON.stringify(charts)) });
    expect(html.match(/data-chart="lines"/g)).toHaveLength(2);
    expect(html).toContain('lag &lt;run&gt;');
    expect(html).toContain('1 &amp; 2');
    expect(html).toContain('| a | &lt;b&gt; |');
  });

  test.skipIf(!has('chromium'))(
    'draws every chart offline in headless Chromium',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'wirekit-lines-'));
      try {
        const file = join(dir, 'lines.html');
        writeFileSync(file, linesHtml({ title: 'lines', facts: [], charts }));
        const url = pathToFileURL(file).href;
        const browser = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs] });
        try {
          const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
          const errors: string[] = [];
          const blocked: string[] = [];
          page.on('pageerror', (error) => errors.push(error.message));
          await page.route('**/*', (route) => {
            if (route.request().url() === url) return route.continue();
            blocked.push(route.request().url());
            return route.abort();
          });
          await page.goto(url);
          await page.waitForSelector('body[data-chart-ready="2"]', { timeout: 15_000 });
          expect(errors).toEqual([]);
          expect(blocked).toEqual([]);
          expect(await page.getAttribute('body', 'data-chart-error')).toBeNull();
          const coloured = await page.evaluate<number[]>(colouredPixels);
          expect(coloured).toHaveLength(2);
          for (const pixels of coloured) expect(pixels).toBeGreaterThan(200);
        } finally {
          await browser.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
