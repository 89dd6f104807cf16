/**
 * The field report's measurement in a real browser: the dashboard page (examples/dashboard) loads
 * each range in each format from the demo server (DuckDB → wirekit's Fastify plugin) and reports
 * request start → chart rendered, time to first rows, rows, bytes on the wire and the browser's
 * peak JS heap; the server's peak heap comes from its /stats (reset before each run).
 *
 *   npm run bench:tables [-- browser] [--runs 3] [--large] [--months 1,2,6,12]
 *     [--formats arrow,json,ndjson] [--data DIR] [--markdown FILE] [--json FILE]
 *
 * Every run is a fresh browser context (no cache, no warm JIT from the run before) in one Chromium
 * started with --enable-precise-memory-info; runs of a range go format by format in turn so drift on
 * a noisy machine touches each alike. One untimed warm-up load per format comes first (the
 * server's JIT and DuckDB's caches). A run that fails (the browser cannot hold 10 M rows of JSON
 * text, say) is kept, with its message, and reported as failed.
 */
import { writeFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../../test/support/servers/chromium.js';
import { freePort } from '../../test/support/servers/free-port.js';
import { benchArgs } from '../args.js';
import { startDemoServer } from './demo-server.js';
import { browserMarkdown } from './report.js';

export const usage = `Usage: npm run bench:tables [-- browser] [--runs 3] [--large] [--months 1,2,6,12]
         [--formats arrow,json,ndjson] [--data DIR] [--port P] [--url URL] [--timeout-s 600]
         [--warmups 1] [--markdown FILE] [--json FILE]
The dashboard page in headless Chromium: request start to chart rendered per range and format,
beside the field report's table. --large adds the 24-month range (10.5 M rows). The demo server
is started (on --port, with its table in --data) unless --url names one already running.`;

export const formats = ['arrow', 'json', 'ndjson'] as const;
export type TableFormat = (typeof formats)[number];

/** What the page measures of one load, as a run reports it unchanged. */
export interface PageMeasures {
  readonly rows?: number;
  readonly points?: number;
  /** Body bytes on the wire. */
  readonly bytes?: number | null;
  readonly firstBatchMs?: number;
  readonly renderedMs?: number;
  readonly rowsPerSecond?: number;
}

/** One load of the page, as it ended. */
export interface BrowserRun extends PageMeasures {
  readonly months: number;
  readonly format: TableFormat;
  /** 1-based index among the runs of this range and format. */
  readonly run: number;
  readonly ok: boolean;
  /** Why a failed run failed (the page's error, a crash, a timeout). */
  readonly message?: string;
  /** The wirekit error code the page reported, when there was one. */
  readonly code?: string;
  /** For a failed run: request start to the failure, as the page measured it. */
  readonly failedAfterMs?: number;
  readonly browserPeakHeap?: number | null;
  readonly serverPeakHeap?: number;
  readonly serverPeakRss?: number;
}

export interface BrowserBench {
  readonly startedAt: string;
  readonly runs: number;
  readonly ranges: readonly number[];
  readonly formats: readonly TableFormat[];
  readonly chromium: string;
  readonly node: string;
  readonly results: readonly BrowserRun[];
}

/** What the page leaves in window.wirekitDemo (examples/dashboard/page/main.ts). */
interface PageState extends PageMeasures {
  readonly state: string;
  readonly message?: string;
  readonly code?: string;
  readonly elapsedMs?: number;
  readonly heapPeakBytes?: number | null;
}

interface ServerStats {
  readonly peakHeapUsed: number;
  readonly peakRss: number;
}

export async function browserMain(args: readonly string[]): Promise<void> {
  const { values } = benchArgs(usage, {
    args: [...args],
    options: {
      runs: { type: 'string', default: '3' },
      large: { type: 'boolean', default: false },
      months: { type: 'string' },
      formats: { type: 'string', default: formats.join(',') },
      data: { type: 'string' },
      port: { type: 'string' },
      url: { type: 'string' },
      'timeout-s': { type: 'string', default: '600' },
      warmups: { type: 'string', default: '1' },
      markdown: { type: 'string' },
      json: { type: 'string' },
    },
  });
  const ranges = (values.months ?? (values.large ? '1,2,6,12,24' : '1,2,6,12')).split(',').map(Number);
  const chosen = values.formats.split(',') as TableFormat[];
  const runs = Number(values.runs);
  const warmups = Number(values.warmups);
  const timeoutMs = Number(values['timeout-s']) * 1000;
  const bad = chosen.filter((format) => !formats.includes(format));
  if (
    bad.length > 0 ||
    ranges.some((m) => !Number.isInteger(m) || m < 1) ||
    !(runs >= 1) ||
    !(warmups >= 0)
  ) {
    process.stderr.write(
      `bad arguments${bad.length > 0 ? `: unknown format ${bad.join(', ')}` : ''}\n\n${usage}\n`,
    );
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
  const results: BrowserRun[] = [];
  try {
    for (let i = 0; i < warmups; i++) {
      for (const format of chosen) {
        const warm = await loadOnce(browser, server.url, format, Math.min(...ranges), 0, timeoutMs);
        log(
          `warm-up ${format}: ${warm.ok ? `${warm.renderedMs?.toFixed(0)} ms` : `failed: ${warm.message}`}`,
        );
      }
    }
    for (const months of ranges) {
      for (let run = 1; run <= runs; run++) {
        for (const format of chosen) {
          const result = await loadOnce(browser, server.url, format, months, run, timeoutMs);
          results.push(result);
          log(describeRun(result));
        }
      }
    }
    const bench: BrowserBench = {
      startedAt: new Date().toISOString(),
      runs,
      ranges,
      formats: chosen,
      chromium: browser.version(),
      node: process.version,
      results,
    };
    const markdown = browserMarkdown(bench);
    process.stdout.write(`${markdown}\n`);
    if (values.markdown !== undefined) writeFileSync(values.markdown, `${markdown}\n`);
    if (values.json !== undefined) writeFileSync(values.json, `${JSON.stringify(bench, null, 2)}\n`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** One load of `?format=…&months=…` in a fresh context, with the server's peaks for it. */
export async function loadOnce(
  browser: Browser,
  url: string,
  format: TableFormat,
  months: number,
  run: number,
  timeoutMs: number,
): Promise<BrowserRun> {
  const at = { months, format, run };
  await fetch(`${url}/stats/reset`, { method: 'POST' }).then((response) => response.arrayBuffer());
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  let state: PageState;
  try {
    const page = await context.newPage();
    const crashed = new Promise<PageState>((resolve) => {
      page.once('crash', () => resolve({ state: 'error', message: 'the page crashed (out of memory?)' }));
    });
    const settled = (async (): Promise<PageState> => {
      await page.goto(`${url}/?format=${format}&months=${months}`);
      await page.waitForFunction("['done', 'error'].includes(window.wirekitDemo?.state)", undefined, {
        timeout: timeoutMs,
        polling: 100,
      });
      return (await page.evaluate('window.wirekitDemo')) as PageState;
    })();
    state = await Promise.race([settled, crashed]).catch(
      (error: Error): PageState => ({ state: 'error', message: error.message.split('\n')[0] }),
    );
    settled.catch(() => {});
  } finally {
    await context.close().catch(() => {});
  }
  const stats = await serverStats(url);
  const server =
    stats === undefined ? {} : { serverPeakHeap: stats.peakHeapUsed, serverPeakRss: stats.peakRss };
  if (state.state !== 'done') {
    return {
      ...at,
      ok: false,
      message: state.message ?? `the page ended in state ${state.state}`,
      ...(state.code !== undefined && { code: state.code }),
      ...(state.elapsedMs !== undefined && { failedAfterMs: state.elapsedMs }),
      ...server,
    };
  }
  return {
    ...at,
    ok: true,
    rows: state.rows as number,
    points: state.points as number,
    bytes: state.bytes ?? null,
    firstBatchMs: state.firstBatchMs as number,
    renderedMs: state.renderedMs as number,
    rowsPerSecond: state.rowsPerSecond as number,
    browserPeakHeap: state.heapPeakBytes ?? null,
    ...server,
  };
}

async function serverStats(url: string): Promise<ServerStats | undefined> {
  try {
    const response = await fetch(`${url}/stats`);
    return response.ok ? ((await response.json()) as ServerStats) : undefined;
  } catch {
    return undefined; // a server that died is seen in the next run's failure
  }
}

function describeRun(result: BrowserRun): string {
  const head = `${result.months} mo ${result.format.padEnd(6)} run ${result.run}`;
  if (!result.ok) return `${head}: FAILED ${result.message}`;
  return `${head}: ${result.rows?.toLocaleString('en-US')} rows, rendered ${result.renderedMs?.toFixed(1)} ms, first rows ${result.firstBatchMs?.toFixed(1)} ms`;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}
