/**
 * The compression benchmark end to end on a tiny run. It spawns the built orchestrator (dist/,
 * built by `pretest`), which spawns a worker per case, because every case must run in a process
 * of its own.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';

const run = promisify(execFile);
const main = fileURLToPath(new URL('../../build/benchmarks/compression/main.js', import.meta.url));
const compressors = ['snappy', 'lz4', 'zstd', 'gzip', 'brotli'];
const modes = ['sync', 'async'];
const encodings = ['msgpack (wirekit)', 'JSON (native)'];

/** The first number in a table cell: "8.3 µs (8.1-9.0)" → 8.3, "12,345" → 12345. */
function numberIn(cell: string): number {
  const match = cell.replace(/,/g, '').match(/\d+(?:\.\d+)?/);
  return match === null ? Number.NaN : Number(match[0]);
}

describe('npm run bench:compression', () => {
  test('reports every compressor × mode, sync and async, beside the codec, in a table and as JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-compression-bench-'));
    try {
      const json = join(dir, 'results.json');
      const args = ['--quick', '--processes', '1', '--payloads', 'products', '--items', '4'];
      const { stdout } = await run(
        process.execPath,
        [main, ...args, '--budget-ms', '10', '--stream-ms', '30', '--json', json],
        { encoding: 'utf8' },
      );
      const lines = stdout.split('\n');
      // The command that reproduces the table comes first.
      expect(lines[0]).toMatch(/^command: node \S*main\.js --quick --processes 1 --payloads products/);
      expect(stdout).toContain('products: one item per operation (4 items cycled)');

      const rows = lines
        .filter((line) => line.startsWith('| ') && !line.startsWith('| encoding'))
        .map((line) =>
          line
            .slice(1, -1)
            .split('|')
            .map((cell) => cell.trim()),
        );
      // Per encoding: the codec alone, then each compressor in both modes.
      expect(rows).toHaveLength(encodings.length * (1 + compressors.length * modes.length));
      for (const encoding of encodings) {
        expect(rows.find((cells) => cells[0] === encoding && cells[1] === '(codec only)')).toBeDefined();
        for (const compressor of compressors) {
          for (const mode of modes) {
            const cells = rows.find((c) => c[0] === encoding && c[1] === compressor && c[2] === mode);
            expect(cells, `${encoding} ${compressor} ${mode}`).toBeDefined();
            const [encode, decode] = (cells?.[6] ?? '').split(' / ');
            const numbers = [
              ...(cells ?? []).slice(3, 6),
              encode ?? '',
              decode ?? '',
              ...(cells ?? []).slice(7),
            ];
            expect(numbers).toHaveLength(10);
            for (const cell of numbers) {
              const value = numberIn(cell);
              expect(
                Number.isFinite(value) && value > 0,
                `${encoding} ${compressor} ${mode}: "${cell}"`,
              ).toBe(true);
            }
          }
        }
      }

      const raw = JSON.parse(readFileSync(json, 'utf8')) as {
        command: string;
        results: { spec: { compressor: string }; results: { sync: unknown; async: unknown }[] }[];
        summary: {
          compressor: string;
          mode: string;
          compressUs: { median: number };
          opsPerSec: { median: number };
        }[];
      };
      expect(raw.command).toBe(lines[0]?.slice('command: '.length));
      expect(raw.results.map((r) => r.spec.compressor)).toEqual(compressors);
      for (const row of raw.summary.filter((r) => r.compressor !== 'none')) {
        expect(row.compressUs.median).toBeGreaterThan(0);
        expect(row.opsPerSec.median).toBeGreaterThan(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
