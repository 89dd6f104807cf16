/**
 * The registry benchmark's measurements, each run as the orchestrator runs it (the built worker in
 * a process of its own, `pretest` builds dist/), on small sizes: a parse by each reader of each
 * shape, and the memory of a server taking a few large schemas.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import type { MemoryResult, ParseResult } from './worker.js';

const run = promisify(execFile);
const worker = fileURLToPath(new URL('../../build/benchmarks/registry/worker.js', import.meta.url));

async function measure<T>(args: readonly string[]): Promise<T> {
  const { stdout } = await run(process.execPath, ['--expose-gc', worker, ...args], { encoding: 'utf8' });
  return JSON.parse(stdout) as T;
}

describe('npm run bench:registry', () => {
  test.each(['oneof', 'fields', 'messages'])('parses a %s file with both readers', async (shape) => {
    for (const reader of ['wirekit', 'protobufjs']) {
      const result = await measure<ParseResult>(['parse', shape, '200', reader]);
      expect(result.ms).toBeGreaterThan(0);
      expect(result.chars).toBeGreaterThan(200 * 10);
    }
  });

  test("measures a server's memory as it takes large schemas", { timeout: 120_000 }, async () => {
    const result = await measure<MemoryResult>(['memory', '2']);
    expect(result.schemaChars).toBeGreaterThan(0.85 * 2 ** 20);
    for (const snapshot of [result.before, result.after, result.afterTwice]) {
      expect(snapshot.rssMb).toBeGreaterThan(snapshot.heapMb);
    }
    // The main thread keeps the texts: two more schemas, about two texts more.
    expect(result.afterTwice.heapMb - result.after.heapMb).toBeGreaterThan(1.5);
  });
});
