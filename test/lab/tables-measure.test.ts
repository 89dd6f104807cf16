/**
 * Bulk tabular results used to be picked from the row-object round trip, so Arrow was judged on
 * what it is not for. The tables boundary is now measured as it serves: Arrow through the tables
 * source (column vectors → record batches → an IPC stream) and a client reading columns, against
 * the row formats' encode → decode, in the same fresh-process case runner with its JSON baseline;
 * the bulk pick rests on that measure and says so. Structure only: which measure, not who wins.
 */
import { describe, expect, test } from 'vitest';
import { recommend } from '../../dist/lab/recommend.js';
import { runLab } from '../../dist/lab/run.js';
import { labTable } from '../../dist/lab/table.js';

describe('bench: the tables boundary is measured on the path Arrow serves', () => {
  test('timeseries: Arrow has the columns measure, the row formats theirs, and the pick rests on it', async () => {
    const run = await runLab({
      datasets: ['timeseries'],
      subjects: ['json', 'msgpack', 'arrow', 'json-native'],
      counts: { timeseries: 5_000 },
      quick: true,
    });
    expect(run.failures).toEqual([]);
    const get = (label: string) => run.results.find((r) => r.label === label);
    const arrow = get('arrow')?.tables;
    expect(arrow).toMatchObject({ path: 'columns', batchRows: 65_536 });
    expect(arrow?.serverMs).toBeGreaterThan(0);
    expect(arrow?.clientMs).toBeGreaterThan(0);
    // One batch of 5,000 rows: its buffers and its IPC bytes, at least the stream's bytes.
    expect(arrow?.serverPeakBytes).toBeGreaterThan(5_000 * 8 * 3);
    expect(get('msgpack')?.tables).toMatchObject({ path: 'rows', batchRows: 5_000 });
    expect(get('msgpack')?.tables?.serverPeakBytes).toBe(get('msgpack')?.bytes);
    // Libraries used directly are no tables boundary of wirekit's.
    expect(get('JSON (native)')?.tables).toBeUndefined();

    const bulk = recommend(run).find((r) => r.boundary === 'bulk tabular results');
    expect(bulk?.measure).toBe('tables measure');
    expect(bulk?.because).toMatch(/^fastest on the tables measure \(timeseries, 5,000 rows; /);
    expect(bulk?.because).toContain('the server holding at most');
    if (bulk?.format !== 'arrow') expect(bulk?.because).toContain("Arrow's columns path took");
    expect(bulk?.margin?.verdict).toBe('not judged');
    expect(labTable(run)).toContain('fastest on the tables measure');
  }, 120_000);

  test('a schema the tables source has no column for: the pick says it rests on the row round trip, and why', async () => {
    // records carries a list of strings per row (tags).
    const run = await runLab({
      datasets: ['records'],
      subjects: ['msgpack', 'arrow'],
      counts: { records: 1_000 },
      quick: true,
    });
    expect(run.results.find((r) => r.label === 'arrow')?.tablesUnavailable).toMatch(/tags is array$/);
    const bulk = recommend(run).find((r) => r.boundary === 'bulk tabular results');
    expect(bulk?.measure).toBe('round trip');
    expect(bulk?.because).toContain('This rests on the row round trip, not on the tables measure');
    expect(bulk?.because).toContain('tags is array.');
  }, 120_000);
});
