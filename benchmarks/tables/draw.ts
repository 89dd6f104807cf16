/**
 * The dashboard chart's draw time, before and after the per-pixel-column (M4) reduction, in
 * headless Chromium: each range loaded (Arrow) in a fresh page with `reduce=off` (uPlot's own line
 * paths over every point, as the page drew before) and with the reduction, in turn. Once loaded,
 * the page redraws the whole data `--redraws` times: setData with what uPlot holds, the draw (a
 * microtask), then one pixel read back from the canvas, which makes Chromium rasterize what was
 * drawn (it records canvas commands and rasterizes later otherwise). The draw time of a page is the
 * median of its redraws (and of their part before rasterizing), and the table gives the median over
 * the pages (min–max), with the load's request start to chart rendered and the time the reduction
 * took while the rows came.
 *
 *   npm run bench:tables -- draw [--runs 5] [--months 1,12,24] [--redraws 5] [--data DIR]
 *     [--url URL] [--markdown FILE] [--json FILE]
 */
import { writeFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { median } from 'wirekit-ts/lab';
import { chromiumArgs, chromiumPath } from '../../test/support/servers/chromium.js';
import { freePort } from '../../test/support/servers/free-port.js';
import { benchArgs } from '../args.js';
import { startDemoServer } from './demo-server.js';

export const drawUsage = `Usage: npm run bench:tables -- draw [--runs 5] [--months 1,12,24] [--redraws 5]
         [--data DIR] [--port P] [--url URL] [--timeout-s 600] [--markdown FILE] [--json FILE]
The dashboard chart's draw time in headless Chromium, every point drawn by uPlot (before) and
each series reduced to its first, last, min and max per pixel column (after), per range.`;

const modes = ['before', 'after'] as const;
type Mode = (typeof modes)[number];

/** One page: a load, then its redraws. */
export interface DrawRun {
  readonly months: number;
  readonly mode: Mode;
  readonly run: number;
  readonly ok: boolean;
  readonly message?: string;
  readonly rows?: number;
  /** Each redraw of the whole data, rasterized, in ms. */
  readonly redrawMs?: readonly number[];
  /** The part of each redraw before rasterizing: uPlot's scales and paths, the lines' canvas commands. */
  readonly pathsMs?: readonly number[];
  /** The load's last draw (setData to uPlot's draw hook, not rasterized). */
  readonly lastDrawMs?: number;
  /** Reducing the rows as they came (after only). */
  readonly reduceMs?: number;
  readonly renderedMs?: number;
  /** The most points one series' line was drawn with (after only), and the plot's pixel columns. */
  readonly maxPoints?: number | null;
  readonly columns?: number;
}

/** Runs in the page: redraws the whole data `n` times, each rasterized, and returns their ms. */
const redraws = (n: number) => `(async () => {
  const u = window.wirekitDemoChart;
  const canvas = u.ctx;
  const redrawMs = [];
  const pathsMs = [];
  for (let i = 0; i < ${n}; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const start = performance.now();
    u.setData(u.data);
    await null; // uPlot draws in the microtask setData queued, before this one
    pathsMs.push(performance.now() - start);
    canvas.getImageData(0, 0, 1, 1);
    redrawMs.push(performance.now() - start);
  }
  return { redrawMs, pathsMs };
})()`;

export async function drawMain(args: readonly string[]): Promise<void> {
  const { values } = benchArgs(drawUsage, {
    args: [...args],
    options: {
      runs: { type: 'string', default: '5' },
      months: { type: 'string', default: '1,12,24' },
      redraws: { type: 'string', default: '5' },
      data: { type: 'string' },
      port: { type: 'string' },
      url: { type: 'string' },
      'timeout-s': { type: 'string', default: '600' },
      markdown: { type: 'string' },
      json: { type: 'string' },
    },
  });
  const ranges = values.months.split(',').map(Number);
  const runs = Number(values.runs);
  const redrawCount = Number(values.redraws);
  if (ranges.some((m) => !Number.isInteger(m) || m < 1) || !(runs >= 1) || !(redrawCount >= 1)) {
    process.stderr.write(`bad arguments\n\n${drawUsage}\n`);
    process.exit(2);
  }
  const { chromium } = await import('playwright-core');
  const server =
    values.url === undefined
      ? await startDemoServer({
          port: values.port === undefined ? await freePort() : Number(values.port),
          months: Math.max(...ranges),
          ...(values.data !== undefined && { dataDir: values.data }),
        })
      : { url: values.url.replace(/\/+$/, ''), stop: async () => {} };
  const browser = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs] });
  const results: DrawRun[] = [];
  try {
    for (const months of ranges) {
      for (let run = 1; run <= runs; run++) {
        // Before and after in turn, so drift on a busy machine touches both alike.
        for (const mode of modes) {
          const at = { months, mode, run };
          const result = await drawOnce(
            browser,
            server.url,
            at,
            redrawCount,
            Number(values['timeout-s']) * 1000,
          );
          results.push(result);
          process.stderr.write(
            `${months} mo ${mode.padEnd(6)} run ${run}: ${
              result.ok
                ? `redraws ${result.redrawMs?.map((ms) => ms.toFixed(0)).join(', ')} ms`
                : result.message
            }\n`,
          );
        }
      }
    }
    const markdown = drawMarkdown(results, { runs, redraws: redrawCount, chromium: browser.version() });
    process.stdout.write(`${markdown}\n`);
    if (values.markdown !== undefined) writeFileSync(values.markdown, `${markdown}\n`);
    if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

async function drawOnce(
  browser: Browser,
  url: string,
  at: { months: number; mode: Mode; run: number },
  redrawCount: number,
  timeoutMs: number,
): Promise<DrawRun> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    const reduce = at.mode === 'before' ? '&reduce=off' : '';
    await page.goto(`${url}/?format=arrow&months=${at.months}${reduce}`);
    await page.waitForFunction("['done', 'error'].includes(window.wirekitDemo?.state)", undefined, {
      timeout: timeoutMs,
      polling: 100,
    });
    const state = (await page.evaluate('window.wirekitDemo')) as {
      state: string;
      message?: string;
      rows: number;
      lastDrawMs: number;
      reduceMs: number;
      renderedMs: number;
    };
    if (state.state !== 'done') return { ...at, ok: false, message: state.message ?? state.state };
    const { redrawMs, pathsMs } = (await page.evaluate(redraws(redrawCount))) as {
      redrawMs: number[];
      pathsMs: number[];
    };
    const drawn = (await page.evaluate('window.wirekitDemoDrawn')) as {
      columns: number;
      points: (number | null)[];
    };
    const points = drawn.points.filter((p): p is number => p !== null);
    return {
      ...at,
      ok: true,
      rows: state.rows,
      redrawMs,
      pathsMs,
      lastDrawMs: state.lastDrawMs,
      reduceMs: state.reduceMs,
      renderedMs: state.renderedMs,
      maxPoints: points.length === 0 ? null : Math.max(...points),
      columns: drawn.columns,
    };
  } catch (error) {
    return { ...at, ok: false, message: (error as Error).message.split('\n')[0] };
  } finally {
    await context.close().catch(() => {});
  }
}

const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** "median (min–max)" of a list of ms, or "–" when no run finished. */
function spread(values: readonly number[]): string {
  if (values.length === 0) return '–';
  return `${count.format(median(values))} (${count.format(Math.min(...values))}–${count.format(Math.max(...values))})`;
}

export function drawMarkdown(
  results: readonly DrawRun[],
  setup: { runs: number; redraws: number; chromium: string },
): string {
  const lines = [
    `## Dashboard draw time, before and after M4 (Chromium ${setup.chromium}, ${setup.runs} pages each, median of ${setup.redraws} redraws per page)`,
    '',
    '| range | rows | redraw before, ms | redraw after, ms | after / before | of which paths, before → after, ms | load to chart rendered, before → after, ms | reducing as rows came, ms | points per series drawn (pixel columns) | failed |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const months of [...new Set(results.map((r) => r.months))]) {
    const of = (mode: Mode) => results.filter((r) => r.months === months && r.mode === mode && r.ok);
    const before = of('before');
    const after = of('after');
    const perPage = (runs: readonly DrawRun[], part: 'redrawMs' | 'pathsMs' = 'redrawMs') =>
      runs.map((r) => median(r[part] ?? []));
    const b = perPage(before);
    const a = perPage(after);
    const paths = `${spread(perPage(before, 'pathsMs'))} → ${spread(perPage(after, 'pathsMs'))}`;
    const ratio = b.length > 0 && a.length > 0 ? `${(median(a) / median(b)).toFixed(2)}×` : '–';
    const rendered = `${spread(before.map((r) => r.renderedMs ?? 0))} → ${spread(after.map((r) => r.renderedMs ?? 0))}`;
    const points = after.map((r) => r.maxPoints ?? 0);
    const columns = after[0]?.columns ?? 0;
    const failed = results.filter((r) => r.months === months && !r.ok).length;
    lines.push(
      `| ${months} mo | ${count.format(after[0]?.rows ?? before[0]?.rows ?? 0)} | ${spread(b)} | ${spread(a)} | ${ratio} | ${paths} | ${rendered} | ${spread(after.map((r) => r.reduceMs ?? 0))} | ≤ ${count.format(points.length === 0 ? 0 : Math.max(...points))} (${count.format(columns)}) | ${failed} |`,
    );
  }
  lines.push(
    '',
    'Redraw: setData with the whole data, the draw, and a pixel read back (which makes Chromium rasterize it);',
    "paths: the same up to the draw, before rasterizing (uPlot's scales and paths, the canvas commands).",
    'Reproduce: `npm run bench:tables -- draw --runs 5 --months 1,12,24`.',
  );
  return lines.join('\n');
}
