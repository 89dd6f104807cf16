/**
 * The HTTP load benchmark end to end on a tiny run (from dist/, built by `pretest`), and the claim
 * its stream numbers rest on: a server streaming a million rows holds a batch, not the result. The
 * server runs under a 40 MB heap cap, far below the 38 MB of Arrow it writes plus the hundreds of
 * MB that a million row objects would take if they were ever held at once.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { allFormats } from 'wirekit-ts/codecs';
import { createClient } from 'wirekit-ts/http';
import { Reading } from 'wirekit-ts/lab';

const run = promisify(execFile);
const dist = (file: string) => fileURLToPath(new URL(`../../build/benchmarks/http/${file}`, import.meta.url));

function startServer(nodeArgs: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...nodeArgs, dist('server.js'), '--users', '10'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    child.stdout?.on('data', (data: Buffer) => {
      const match = /listening (\d+)/.exec(data.toString());
      if (match) resolve({ url: `http://127.0.0.1:${match[1]}`, child });
    });
  });
}

describe('npm run bench:http', () => {
  test('a tiny run reports every format and every stream kind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-http-bench-'));
    try {
      const json = join(dir, 'results.json');
      const args = ['--duration', '1', '--users', '20', '--rows', '20000', '--repeats', '1', '--json', json];
      const { stdout } = await run(process.execPath, [dist('main.js'), ...args], { timeout: 120_000 });
      for (const format of ['json', 'msgpack', 'cbor', 'protobuf', 'avro', 'flatbuffers', 'arrow']) {
        expect(stdout).toMatch(new RegExp(`\\| 20 \\| ${format} \\| [\\d,]+ \\| [\\d,]+ \\|`));
      }
      const results = JSON.parse(readFileSync(json, 'utf8')) as {
        load: { requestsPerSecond: number; errors: number }[];
        streams: { kind: string; rows: number; rowsPerSecond: number; ttfbMs: number }[];
      };
      expect(results.load).toHaveLength(7);
      for (const row of results.load) {
        expect(row.requestsPerSecond).toBeGreaterThan(0);
        expect(row.errors).toBe(0);
      }
      expect(results.streams.map((row) => row.kind)).toEqual([
        'json (array)',
        'ndjson',
        'arrow (rows)',
        'arrow (batches)',
      ]);
      for (const row of results.streams) {
        expect(row.rows).toBe(20_000);
        expect(row.ttfbMs).toBeGreaterThan(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);

  test('a million streamed rows pass through a server capped at a 40 MB heap', async () => {
    const server = await startServer(['--max-old-space-size=40']);
    try {
      const client = createClient({ baseUrl: server.url, codecs: allFormats, format: 'arrow' });
      let rows = 0;
      for await (const batch of client.batches('/timeseries', { row: Reading, query: { rows: 1_000_000 } })) {
        rows += batch.numRows;
      }
      expect(rows).toBe(1_000_000);
      expect(server.child.exitCode).toBeNull();
    } finally {
      server.child.kill();
    }
  }, 60_000);
});
