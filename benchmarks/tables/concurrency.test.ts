/**
 * The concurrency part of bench:tables, at its smallest: two concurrent requests for one month of
 * a one-month table, against a real demo server started by the bench, for every case. It checks the
 * bench measures what it says (every reply whole and of one size, the peaks read back from the
 * server), not how fast anything is.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { concurrencyCases, concurrencyMarkdown, runConcurrencyCase } from './concurrency.js';

const dataDir = mkdtempSync(join(tmpdir(), 'wirekit-concurrency-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('bench:tables concurrency', () => {
  test('every case serves every request whole and reports the server peaks', {
    timeout: 120_000,
  }, async () => {
    const options = { dataDir, months: 1, rangeMonths: 1, requests: 2 };
    const results = [];
    for (const testCase of concurrencyCases) results.push(await runConcurrencyCase(testCase, options));
    for (const result of results) {
      expect(result, result.name).toMatchObject({ survived: true, completed: 2, failure: undefined });
      expect(result.peakHeapBytes).toBeGreaterThan(0);
      expect(result.peakRssBytes).toBeGreaterThanOrEqual(result.peakHeapBytes as number);
    }
    const [typical, json, arrow] = results;
    // The same rows: the two JSON replies are the same text, and Arrow's is far smaller.
    expect(json?.bytesPerRequest).toBe(typical?.bytesPerRequest);
    expect(arrow?.bytesPerRequest).toBeLessThan((json?.bytesPerRequest ?? 0) / 2);
    expect(concurrencyMarkdown(results, options)).toContain('| wirekit Arrow | yes | 2/2 |');
  });
});
