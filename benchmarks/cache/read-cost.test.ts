/**
 * The cache read-cost benchmark end to end on a tiny run: the built orchestrator (dist/, built by
 * `pretest`) starts its own redis-server and a worker per case and read. What must hold whatever the
 * machine's speed: a row per case and read with positive figures, the commands Redis ran being the
 * store's (GETRANGE for the cache's bounded read, no script; one MGET without a limit), and the JSON.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { hasRedis } from '../../test/support/redis.js';

const run = promisify(execFile);
const main = fileURLToPath(new URL('../../build/benchmarks/cache/read-cost.js', import.meta.url));

describe.skipIf(!hasRedis())('npm run bench:cache-read', () => {
  test("reports the cache's bounded read beside MGET, per case, as Redis and the client pay for them", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-cache-read-bench-'));
    try {
      const json = join(dir, 'results.json');
      const args = ['--processes', '1', '--reads', '30', '--cases', '1x512,3x2048', '--json', json];
      const { stdout } = await run(process.execPath, [main, ...args], { encoding: 'utf8' });
      const lines = stdout.split('\n');
      expect(lines[0]).toMatch(/^command: node \S*read-cost\.js --processes 1 --reads 30/);
      const rows = lines
        .filter((line) => line.startsWith('| ') && !line.startsWith('| case'))
        .map((line) =>
          line
            .slice(1, -1)
            .split('|')
            .map((cell) => cell.trim()),
        );
      expect(rows.map((cells) => [cells[0]?.split(' × ')[0], cells[1], cells[2]])).toEqual([
        ['1', "the cache's read (size-limited)", 'getrange 1'],
        ['1', 'MGET (no limit)', 'mget 1'],
        ['3', "the cache's read (size-limited)", 'exists 1, getrange 3'],
        ['3', 'MGET (no limit)', 'mget 1'],
      ]);
      for (const cells of rows) {
        // What Redis holds per key: about the bytes asked for (the envelope and Avro's length inside).
        const stored = Number(/× (\d+) B/.exec(cells[0] ?? '')?.[1]);
        expect(Math.abs(stored - (cells[0]?.startsWith('1 ') ? 512 : 2048))).toBeLessThanOrEqual(4);
        for (const cell of cells.slice(3)) expect(Number.parseFloat(cell), cell).toBeGreaterThan(0);
      }
      const raw = JSON.parse(readFileSync(json, 'utf8')) as { command: string; results: unknown[] };
      expect(raw.command).toMatch(/read-cost\.js/);
      expect(raw.results).toHaveLength(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
