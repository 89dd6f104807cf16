/**
 * The demo's `/typical/series` (the typical JSON API the benchmark compares against) is bounded:
 * a range of more rows than its cap is a 413 with the count, the cap and why (counted before any
 * row is read); ranges within it are served whole, and requests in flight together wait for their
 * share rather than all holding their rows at once. The real demo server, on a two-month table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Dashboard, startDashboard } from '../../examples/dashboard/server.js';
import { freePort } from '../support/tools.js';

/** Rows in the last 1 and 2 months of the table (data.ts). */
const oneMonth = 81_675;
const twoMonths = 163_350;

describe('the typical JSON route of the dashboard demo', () => {
  let dataDir: string;
  let capped: Dashboard;
  let byDefault: Dashboard;
  const lastMonth = '?from=2026-11-01T00:00:00Z';

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'wirekit-typical-'));
    const log = () => {};
    capped = await startDashboard({
      port: await freePort(),
      months: 2,
      dataDir,
      typicalMaxRows: 100_000,
      log,
    });
    byDefault = await startDashboard({ port: await freePort(), months: 2, dataDir, log });
  }, 180_000);

  afterAll(async () => {
    await capped?.close();
    await byDefault?.close();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  });

  test('a range past the cap is a 413 that says the count, the cap and why', async () => {
    const response = await fetch(`${capped.url}/typical/series`);
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { code: string; message: string };
    expect(body.code).toBe('WK_LIMIT_ELEMENTS');
    expect(body.message).toContain(`holds ${twoMonths} rows, more than the 100000`);
    expect(body.message).toContain('GET /series');
  });

  test('a range within the cap is served whole', async () => {
    const rows = (await (await fetch(`${capped.url}/typical/series${lastMonth}`)).json()) as unknown[];
    expect(rows).toHaveLength(oneMonth);
    expect(rows[0]).toEqual({ ts: '2026-11-01T00:00:00.000Z', sensor_id: 1, value: expect.any(Number) });
  });

  test('requests that together pass the cap wait their turn, and each is served whole', async () => {
    const replies = await Promise.all(
      Array.from({ length: 3 }, async () => {
        const response = await fetch(`${capped.url}/typical/series${lastMonth}`);
        return { status: response.status, rows: ((await response.json()) as unknown[]).length };
      }),
    );
    expect(replies).toEqual(Array.from({ length: 3 }, () => ({ status: 200, rows: oneMonth })));
  });

  test('the default cap (1,000,000 rows) serves the whole two-month table', async () => {
    const rows = (await (await fetch(`${byDefault.url}/typical/series`)).json()) as unknown[];
    expect(rows).toHaveLength(twoMonths);
  });

  test('a bad parameter is still a 400, checked before anything is counted', async () => {
    const response = await fetch(`${capped.url}/typical/series?from=yesterday`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('WK_VALIDATION_FAILED');
  });
});
