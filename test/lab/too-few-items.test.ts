/**
 * A pick needs enough items behind it: a statuses file read as one record once got "bulk tabular
 * results: avro" from that single row. Each measured boundary now says how many items it had and
 * picks nothing below its threshold (recommend.ts, minimumItems); the boundaries picked by role
 * (public API, event stream) still pick. Real runs of the lab on tiny files, in their own processes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { minimumItems, recommend } from '../../dist/lab/recommend.js';
import { runLab } from '../../dist/lab/run.js';
import { labTable } from '../../dist/lab/table.js';

const dir = mkdtempSync(join(tmpdir(), 'wirekit-few-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const status = (i: number) => ({
  id: i + 1,
  text: `status number ${i}`,
  retweets: i * 3,
  sensitive: i % 2 === 0,
});

/** The lab on a file of `count` records, with a few formats, quick. */
async function labOn(count: number) {
  const file = join(dir, `statuses-${count}.json`);
  writeFileSync(
    file,
    JSON.stringify(count === 1 ? status(0) : Array.from({ length: count }, (_, i) => status(i))),
  );
  const run = await runLab({ file: { dataFile: file }, subjects: ['json', 'msgpack', 'avro'], quick: true });
  expect(run.failures).toEqual([]);
  return run;
}

const measured = ['internal RPC', 'cache behind compression', 'bulk tabular results'] as const;

describe('bench: a boundary whose pick rests on too few items picks nothing, and says why', () => {
  test.each([1, 3])(
    'a file of %i record(s)',
    async (count) => {
      const run = await labOn(count);
      const advice = recommend(run);
      for (const boundary of measured) {
        const r = advice.find((a) => a.boundary === boundary);
        expect(r?.format, boundary).toBeUndefined();
        const items = `${count} item${count === 1 ? '' : 's'}`;
        expect(r?.because).toContain(
          `no pick: ${items} on statuses-${count}.json, too few to judge ${boundary}`,
        );
        expect(r?.because).toContain(`it needs ${minimumItems[boundary].items.toLocaleString('en')}`);
        expect(r?.because).toContain('Give --path to the array of records');
        expect(r?.margin).toBeUndefined();
      }
      // Picks by role do not rest on the count.
      expect(advice.find((a) => a.boundary === 'public API (people read it)')?.format).toBe('json');
      expect(labTable(run)).toContain('bulk tabular results: no pick');
      // The threshold is an option: with it lowered, the same run picks.
      const lowered = recommend(run, { minItems: { 'bulk tabular results': 1, 'internal RPC': 1 } });
      expect(lowered.find((a) => a.boundary === 'bulk tabular results')?.format).toBeTypeOf('string');
      expect(lowered.find((a) => a.boundary === 'internal RPC')?.format).toBeTypeOf('string');
    },
    120_000,
  );
});
