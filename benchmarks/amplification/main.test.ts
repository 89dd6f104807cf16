/**
 * The amplification inputs of the allocation budget (../../benchmarks/amplification/cases.ts), each decoded
 * by the built package in a fresh process under a 400 MB heap, as `npm run bench:amplification`
 * does: every one must be refused with its WK_LIMIT_ code, none may exhaust the heap. Without the
 * budget each of them builds between 1 and 2 GB and the child dies of it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { AmplificationResult } from './main.js';

/** Each case and the refusal it must end in. */
const expected: Record<string, string> = {
  'msgpack-empty-maps': 'WK_LIMIT_ALLOCATION',
  'msgpack-empty-maps-schema': 'WK_LIMIT_ALLOCATION',
  'cbor-empty-maps': 'WK_LIMIT_ALLOCATION',
  'json-empty-arrays': 'WK_LIMIT_ALLOCATION',
  'protobuf-empty-messages': 'WK_LIMIT_ALLOCATION',
  'avro-empty-records': 'WK_LIMIT_ALLOCATION',
  'arrow-null-rows': 'WK_LIMIT_ALLOCATION',
  // The ratio cap refuses the brotli bomb before anything is decoded; with it off, the budget does.
  'envelope-brotli-decodeAny': 'WK_LIMIT_DECOMPRESSED',
  'envelope-brotli-cli': 'WK_LIMIT_DECOMPRESSED',
  'envelope-brotli-decodeAny-no-ratio': 'WK_LIMIT_ALLOCATION',
  'envelope-brotli-cli-no-ratio': 'WK_LIMIT_ALLOCATION',
};

const dir = mkdtempSync(join(tmpdir(), 'wirekit-amplification-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('amplification inputs under --max-old-space-size=400', () => {
  test('each is refused with its WK_LIMIT_ code, in a process that never runs out of heap', () => {
    const main = new URL('../../build/benchmarks/amplification/main.js', import.meta.url).pathname;
    const json = join(dir, 'results.json');
    execFileSync(process.execPath, [main, '--heap-mb', '400', '--json', json, ...Object.keys(expected)], {
      stdio: 'pipe',
    });
    const results = JSON.parse(readFileSync(json, 'utf8')) as AmplificationResult[];
    const outcomes = Object.fromEntries(results.map((result) => [result.case, result.outcome]));
    expect(outcomes).toEqual(expected);
    for (const result of results) {
      // The child's exit handler wrote its peak: it ended on its own, under the heap it was given.
      expect(result.peakRssMiB, result.case).toBeGreaterThan(0);
      expect(result.message, result.case).toMatch(
        /^(wirekit: )?WK_LIMIT_|max(AllocatedBytes|DecompressionRatio)/,
      );
    }
  }, 240_000);
});
