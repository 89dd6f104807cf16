/**
 * The cache benchmark end to end on a tiny run: the built orchestrator (dist/, built by `pretest`)
 * starts its own redis-server, spawns a worker per case, and stops the server. The values are the
 * user's own (`--data`, a small NDJSON file with an inferred schema), as a user would run it. What
 * is checked is the output's shape and what must hold whatever the machine's speed: every subject
 * reported with positive figures, ratios against the yardstick consistent with the bytes, compression
 * making the stored values smaller, threshold batches reaching their sizes, and no server left behind.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { hasRedis } from '../../test/support/redis.js';

const run = promisify(execFile);
const main = fileURLToPath(new URL('../../build/benchmarks/cache/main.js', import.meta.url));

/** The first number in a table cell: "8.3 µs (1.2 µs)" → 8.3, "12,345 / 6 / 7" → 12345. */
function numberIn(cell: string): number {
  const match = cell.replace(/,/g, '').match(/-?\d+(?:\.\d+)?/);
  return match === null ? Number.NaN : Number(match[0]);
}

/** The rows of the Markdown table whose header starts with `first`, as trimmed cells. */
function tableRows(stdout: string, first: string): string[][] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| ${first}`));
  expect(start, `a table headed "${first}"`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

function portIsClosed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

const words = ['alpha', 'beta', 'gamma', 'delta', 'cache', 'value', 'redis', 'snappy'];

describe.skipIf(!hasRedis())('npm run bench:cache', () => {
  test('a tiny run on the user’s own data reports every subject, the ratios and the threshold', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-cache-bench-'));
    try {
      const data = join(dir, 'items.ndjson');
      const lines = Array.from({ length: 6 }, (_, i) =>
        JSON.stringify({
          id: i + 1,
          name: `item ${i + 1}`,
          active: i % 2 === 0,
          score: i * 1.5,
          createdAt: new Date(Date.UTC(2024, 0, i + 1)).toISOString(),
          tags: words.slice(0, 2 + (i % 3)),
          // Repetitive text, so that snappy has something to shrink.
          description: Array.from({ length: 40 }, (_, k) => words[(i + k) % words.length]).join(' '),
        }),
      );
      writeFileSync(data, `${lines.join('\n')}\n`);
      const json = join(dir, 'results.json');
      const args = [
        '--quick',
        '--processes',
        '1',
        '--data',
        data,
        '--formats',
        'msgpack,protobuf',
        '--compressions',
        'none,snappy',
        '--threshold-sources',
        'records',
        '--threshold-formats',
        'msgpack',
        '--threshold-compressions',
        'snappy,zstd',
        '--sizes',
        '256,4096',
        '--budget-ms',
        '5',
        '--stream-ms',
        '30',
        '--steady-ms',
        '60',
        '--json',
        json,
      ];
      const { stdout } = await run(process.execPath, [main, ...args], { encoding: 'utf8', timeout: 150_000 });

      expect(stdout.split('\n')[0]).toMatch(/^command: node \S*main\.js --quick --processes 1 --data /);
      expect(stdout).toMatch(/redis-server [\d.]+ on loopback/);
      expect(stdout).toContain('Measured: 6 values from');
      expect(stdout).toContain('with an inferred schema, one cache entry each');

      const labels = [
        'old pipeline (JSON round trip → @msgpack/msgpack → snappy)',
        'new pipeline (JSON + async snappy)',
        'msgpackr records + snappy',
        'msgpackr records + snappy (async)',
        'wirekit cache default (avro + snappy)',
        'wirekit msgpack',
        'wirekit msgpack + snappy',
        'wirekit msgpack + snappy (async)',
        'wirekit protobuf',
        'wirekit protobuf + snappy',
        'wirekit protobuf + snappy (async)',
      ];
      const subjects = tableRows(stdout, 'subject | encode');
      expect(subjects.map((cells) => cells[0])).toEqual(labels);
      for (const cells of subjects) {
        expect(cells).toHaveLength(8);
        for (const cell of cells.slice(1))
          expect(numberIn(cell), `${cells[0]}: "${cell}"`).toBeGreaterThan(0);
        // Every compressing subject breaks encode and decode into its stages, each timed.
        if (cells[0]?.includes('snappy')) {
          for (const cell of cells.slice(1, 3)) expect(cell).toMatch(/^[\d.]+ µs \([\d.]+ \+ [\d.]+\)$/);
        }
      }
      // The yardstick against itself.
      const yardstick = subjects.find((cells) => cells[0] === 'new pipeline (JSON + async snappy)') ?? [];
      expect(yardstick.slice(5)).toEqual(['1.00', '1.00 (1.00-1.00)', '1.00 (1.00-1.00)']);

      const redis = tableRows(stdout, 'subject | SET ops/s');
      expect(redis.map((cells) => cells[0])).toEqual(labels);
      expect(redis.find((cells) => cells[0] === yardstick[0])?.[4]).toBe('1.00 (1.00-1.00)');
      for (const cells of redis) {
        for (const cell of [cells[1], cells[2]]) {
          const perCallers = (cell ?? '').split(' / ').map(numberIn);
          expect(perCallers).toHaveLength(3);
          for (const opsPerSec of perCallers) expect(opsPerSec, `${cells[0]}: "${cell}"`).toBeGreaterThan(0);
        }
        for (const cell of cells.slice(3))
          expect(numberIn(cell), `${cells[0]}: "${cell}"`).toBeGreaterThan(0);
      }
      expect(stdout).toMatch(/Target, on .*items\.ndjson: at most 0\.5× .* and 0\.8× its stored bytes/);
      expect(stdout).toMatch(/- least loop time \(codec alone\), wirekit: wirekit /);

      const thresholds = tableRows(stdout, 'values | format | compression');
      expect(thresholds.map((cells) => cells.slice(0, 3))).toEqual([
        ['records', 'msgpack', 'snappy'],
        ['records', 'msgpack', 'zstd'],
      ]);
      const detail = tableRows(stdout, 'size | compression');
      expect(detail.map((cells) => cells[1])).toEqual(['snappy', 'zstd', 'snappy', 'zstd']);
      for (const cells of detail) expect(['yes', 'no']).toContain(cells[10]);

      const raw = JSON.parse(readFileSync(json, 'utf8')) as {
        command: string;
        redis: { version: string; port: number };
        summaries: { id: string; label: string; bytesTotal: number; bytesRatio: number; values: number }[];
        failures: unknown[];
        results: {
          subject: { codec: { bytes: { total: number } }; redis: { steady: { ops: number } } };
          yardstick: { codec: { bytes: { total: number } } };
        }[];
        thresholdResults: { points: { target: number; plainBytes: number; compressedBytes: number }[] }[];
      };
      expect(raw.command).toBe(stdout.split('\n')[0]?.slice('command: '.length));
      expect(raw.failures).toEqual([]);
      expect(raw.results).toHaveLength(labels.length);
      const byId = new Map(raw.summaries.map((s) => [s.id, s]));
      const yardstickBytes = byId.get('new')?.bytesTotal as number;
      for (const summary of raw.summaries) {
        expect(summary.values).toBe(6);
        expect(summary.bytesRatio).toBeCloseTo(summary.bytesTotal / yardstickBytes, 10);
      }
      for (const format of ['msgpack', 'protobuf']) {
        const plain = byId.get(`wirekit:${format}:none:sync`)?.bytesTotal as number;
        const sync = byId.get(`wirekit:${format}:snappy:sync`)?.bytesTotal as number;
        const async = byId.get(`wirekit:${format}:snappy:async`)?.bytesTotal as number;
        expect(sync).toBeLessThan(plain);
        // One compressor, two modes: the same bytes.
        expect(async).toBe(sync);
      }
      for (const result of raw.results) {
        expect(result.yardstick.codec.bytes.total).toBe(yardstickBytes);
        expect(result.subject.redis.steady.ops).toBeGreaterThan(0);
      }
      for (const { points } of raw.thresholdResults) {
        expect(points.map((p) => p.target)).toEqual([256, 4096]);
        for (const point of points) expect(point.plainBytes).toBeGreaterThanOrEqual(point.target);
        expect((points[1]?.compressedBytes as number) < (points[1]?.plainBytes as number)).toBe(true);
      }
      // The bench stopped the server it started.
      expect(await portIsClosed(raw.redis.port)).toBe(true);

      // A saved run's report, printed again from the file alone, is the same report.
      const again = await run(process.execPath, [main, '--summarize', json], { encoding: 'utf8' });
      expect(again.stdout).toBe(stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
