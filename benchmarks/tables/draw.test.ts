/**
 * `npm run bench:tables -- draw` end to end on the smallest run (from build/, the page built here):
 * it starts the demo server itself, loads one month before (every point) and after (M4) in
 * Chromium, redraws each, and writes the runs and the table with the command that reproduces it.
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
import type { DrawRun } from './draw.js';

const run = promisify(execFile);
const main = fileURLToPath(new URL('../../build/benchmarks/tables/main.js', import.meta.url));

describe.skipIf(!has('chromium'))('npm run bench:tables -- draw', () => {
  test('one month, one page before and after: both measured, the table printed', async () => {
    await ensureDashboardPage();
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-draw-bench-'));
    try {
      const json = join(dir, 'runs.json');
      const args = ['--months', '1', '--runs', '1', '--redraws', '2', '--data', join(dir, 'data')];
      const { stdout } = await run(process.execPath, [main, 'draw', ...args, '--json', json], {
        timeout: 240_000,
      });
      const results = JSON.parse(readFileSync(json, 'utf8')) as DrawRun[];
      expect(results.map((r) => r.mode)).toEqual(['before', 'after']);
      for (const result of results) {
        expect(result, result.message).toMatchObject({ months: 1, run: 1, ok: true, rows: 81_675 });
        expect(result.redrawMs).toHaveLength(2);
        expect(result.pathsMs).toHaveLength(2);
        for (const ms of result.redrawMs ?? []) expect(ms).toBeGreaterThan(0);
      }
      // Before, uPlot draws every point itself; after, each line has at most ~4 points a column.
      const [before, after] = results as [DrawRun, DrawRun];
      expect(before.maxPoints).toBeNull();
      expect(after.maxPoints).toBeLessThanOrEqual(4 * (after.columns as number) + 8);
      expect(after.reduceMs).toBeGreaterThan(0);
      expect(stdout).toMatch(/\| 1 mo \| 81,675 \| [\d,]+ \([\d,]+–[\d,]+\) \| [\d,]+ \(/);
      expect(stdout).toContain('`npm run bench:tables -- draw --runs 5 --months 1,12,24`');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
