/**
 * The overhead benchmark end to end on a tiny run: the built orchestrator (dist/, built by
 * `pretest`) spawns a worker per case and dataset, and prints one Markdown table per dataset,
 * with a row that says why where a library cannot hold a dataset's shape.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';

const run = promisify(execFile);
const main = fileURLToPath(new URL('../../build/benchmarks/overhead/main.js', import.meta.url));

/** The rows of the table under `### <dataset>`, as cells. */
function rowsOf(markdown: string, dataset: string): string[][] {
  const section = markdown.split('### ').find((part) => part.startsWith(`${dataset} ×`));
  if (section === undefined) throw new Error(`no table for ${dataset} in:\n${markdown}`);
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| case'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

describe('npm run bench:overhead', () => {
  test('one table per dataset, a ratio to native JSON per case, and n/a where a library cannot go', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        main,
        '--dataset',
        'records,users,timeseries,products,documents,documents-each,messages,accounts',
        '--count',
        '40',
        '--processes',
        '1',
        '--rounds',
        '2',
        'avro wirekit',
        'fury',
        'arrow wirekit',
      ],
      { timeout: 120_000 },
    );
    // Tables only on stdout: nothing else (a worker's output, say) may come before them.
    expect(stdout.trimStart().startsWith('### records × 40, one array per call')).toBe(true);
    const perItem = ['documents-each', 'messages'];
    expect(stdout).toContain('### messages × 40, one call per item');
    for (const dataset of [
      'records',
      'users',
      'timeseries',
      'products',
      'documents',
      ...perItem,
      'accounts',
    ]) {
      const [avro, fury, arrow] = rowsOf(stdout, dataset) as [string[], string[], string[]];
      expect(avro[0]).toBe('wirekit avro');
      const ratio = Number(avro[5]?.split(' ')[0]);
      expect(ratio).toBeGreaterThan(0);
      expect(Number.isFinite(ratio)).toBe(true);
      // Fury holds every dataset here (string maps as Maps, 64-bit ids within 2^53 as doubles).
      expect(fury[0], dataset).toBe('@furyjs/fury');
      // Arrow is a table format: one table per tiny message is no use anyone makes of it, and the
      // row says why instead of a figure.
      if (perItem.includes(dataset)) {
        expect(arrow[0]).toBe('arrow wirekit');
        expect(arrow[1]).toMatch(/^n\/a: a table format/);
      } else expect(arrow[0]).toBe('wirekit arrow');
    }
  }, 150_000);

  test("issue 35's shapes: statuses and the id-keyed catalog, both ways, with every peer library", async () => {
    const peers = [
      'protobuf protobufjs',
      'avro avsc',
      'msgpack msgpackr',
      'msgpack msgpackr-records',
      'cbor cbor-x',
      'fury',
      'arrow apache-arrow',
    ];
    const { stdout } = await run(
      process.execPath,
      [
        main,
        '--dataset',
        // One way each (the other differs only in the unit, which the test above covers).
        'statuses-each,catalog',
        '--count',
        '1',
        '--processes',
        '1',
        '--rounds',
        '2',
        'protobuf wirekit',
        'json wirekit',
        ...peers,
      ],
      { timeout: 400_000 },
    );
    expect(stdout).toContain('### statuses-each × 1, one call per item');
    expect(stdout).toContain('### catalog × 1, one array per call');
    for (const dataset of ['statuses-each', 'catalog']) {
      const rows = rowsOf(stdout, dataset);
      expect(rows.map((row) => row[0])).toEqual([
        'wirekit protobuf',
        'wirekit json',
        'protobufjs',
        'avsc',
        'msgpackr (plain)',
        'msgpackr (records)',
        'cbor-x',
        '@furyjs/fury',
        dataset.endsWith('-each') ? 'arrow apache-arrow' : 'apache-arrow (row builder)',
      ]);
      // Every library holds both shapes (maps of thousands of ids, nullable nested objects).
      for (const row of rows.slice(0, dataset.endsWith('-each') ? -1 : undefined)) {
        const ratio = Number(row[5]?.split(' ')[0]);
        expect(ratio, `${dataset}: ${row.join(' | ')}`).toBeGreaterThan(0);
      }
    }
  }, 450_000);

  test('an unknown case or dataset is refused before anything runs', async () => {
    await expect(run(process.execPath, [main, 'no such case'])).rejects.toThrow(/unknown case/);
    await expect(run(process.execPath, [main, '--dataset', 'nope'])).rejects.toThrow(/unknown dataset/);
  });
});
