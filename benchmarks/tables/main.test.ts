/**
 * `npm run bench:tables` end to end on the smallest run (from dist/, built by `pretest`; the page
 * built here): it starts the demo server itself, loads one month in every format in Chromium, and
 * writes the raw runs and the Markdown, beside the published table, with the targets it can judge.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { ensureDashboardPage } from '../../examples/dashboard/build.js';
import { has } from '../../test/support/tools.js';
import type { BrowserBench } from './browser.js';

const run = promisify(execFile);
const main = fileURLToPath(new URL('../../build/benchmarks/tables/main.js', import.meta.url));

describe.skipIf(!has('chromium'))('npm run bench:tables', () => {
  test('one month, one run per format: every run measured and reported', async () => {
    await ensureDashboardPage();
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-tables-bench-'));
    try {
      const json = join(dir, 'runs.json');
      const markdown = join(dir, 'tables.md');
      const args = ['--months', '1', '--runs', '1', '--warmups', '0', '--data', join(dir, 'data')];
      const { stdout } = await run(
        process.execPath,
        [main, 'browser', ...args, '--json', json, '--markdown', markdown],
        {
          timeout: 240_000,
        },
      );
      const bench = JSON.parse(readFileSync(json, 'utf8')) as BrowserBench;
      expect(bench.results.map((r) => r.format)).toEqual(['arrow', 'json', 'ndjson']);
      for (const result of bench.results) {
        expect(result, result.message).toMatchObject({ months: 1, run: 1, ok: true });
        expect(result.rows).toBeGreaterThan(1000);
        expect(result.points).toBe(result.rows);
        expect(result.renderedMs).toBeGreaterThanOrEqual(result.firstBatchMs as number);
        expect(result.bytes).toBeGreaterThan(0);
        expect(result.serverPeakHeap).toBeGreaterThan(0);
        expect(result.browserPeakHeap).toBeGreaterThan(0);
      }
      const rows = bench.results.map((r) => r.rows);
      expect(new Set(rows).size).toBe(1);
      // Arrow's 20 bytes a row against JSON's ~60.
      const [arrow, json_, ndjson] = bench.results.map((r) => r.bytes as number);
      expect(arrow).toBeLessThan(json_ as number);
      expect(arrow).toBeLessThan(ndjson as number);

      expect(readFileSync(markdown, 'utf8')).toBe(`${stdout}`);
      expect(stdout).toContain('## Beside the published table');
      expect(stdout).toMatch(
        /\| 1 mo \| [\d,]+ \(81,675\) \| [\d,.]+ \| [\d,.]+ \| [\d.]+× \| 111\.7 \| 337\.8 \| 3\.0× \|/,
      );
      expect(stdout).toContain('at 24 months (10.5 M rows): –, not measured');
      expect(stdout).toMatch(
        /Arrow's first rows within 268 ms at every range \(median of the slowest range\): [\d,.]+ ms \(slowest single run [\d,.]+ ms\), (met|NOT met)/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
