/**
 * The WebSocket benchmark end to end on a tiny run (from dist/, built by `pretest`): every format
 * it is asked for gets a row with the bytes its clients really received, the server's own counts
 * (messages sent, CPU per message) and a ramp that found a rate held; the JSON file holds the same.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { createCodec } from 'wirekit-ts/codecs';
import { Tick, tickSource } from '../../examples/ws/tick.js';
import type { Row } from './report.js';

const run = promisify(execFile);
const main = fileURLToPath(new URL('../../build/benchmarks/ws/main.js', import.meta.url));

test('npm run bench:ws: a tiny run measures every format asked for', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wirekit-ws-bench-'));
  try {
    const json = join(dir, 'results.json');
    const args = ['--clients', '3', '--formats', 'native,json,msgpack,protobuf,avro', '--duration', '0.3'];
    args.push(
      '--repeats',
      '1',
      '--ramp-from',
      '300',
      '--max-steps',
      '2',
      '--max-loop-ms',
      '1000',
      '--json',
      json,
    );
    const { stdout } = await run(process.execPath, [main, ...args], { timeout: 120_000 });
    for (const format of ['native JSON', 'json', 'msgpack', 'protobuf', 'avro'])
      expect(stdout).toMatch(new RegExp(`^\\| 3 \\| ${format} \\| [\\d.]+ \\|`, 'm'));
    expect(stdout).toMatch(/Bytes saved per tick vs JSON: msgpack \d+ %/);

    const results = JSON.parse(readFileSync(json, 'utf8')) as { rows: Row[] };
    const row = (format: string) => results.rows.find((r) => r.format === format) as Row;
    expect(results.rows).toHaveLength(5);
    // The clients count what arrived: each format's bytes per message are those of its codec,
    // within the few bytes that ticks differ by (prices, volume and sequence vary in length).
    const tick = tickSource()(new Date());
    for (const format of ['json', 'msgpack', 'protobuf', 'avro'] as const) {
      const encoded = createCodec(format, { schema: Tick }).encode(tick).length;
      expect(Math.abs(row(format).bytesPerMessage - encoded)).toBeLessThan(12);
    }
    expect(row('native').bytesPerMessage).toBeCloseTo(row('json').bytesPerMessage, 0);
    expect(row('avro').bytesPerMessage).toBeLessThan(row('msgpack').bytesPerMessage);
    expect(row('msgpack').bytesPerMessage).toBeLessThan(row('json').bytesPerMessage);
    for (const r of results.rows) {
      // 3 clients at 100 ticks/s each for 0.3 s: most arrive within the window even on a busy
      // machine, the server measured itself, and the ramp held some rate.
      expect(r.delivered).toBeGreaterThan(0.5);
      expect(r.cpuUsPerMessage).toBeGreaterThan(0);
      expect(r.maxMessagesPerSecond).toBeGreaterThan(0);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 150_000);
