/**
 * The lab end to end on a tiny run. It spawns the built case runner (dist/, built by `pretest`),
 * because every case must run in a process of its own.
 */
import { describe, expect, test } from 'vitest';
import { recommend } from '../../dist/bench/lab/recommend.js';
import { runLab } from '../../dist/bench/lab/run.js';
import { labTable } from '../../dist/bench/lab/table.js';

describe('wirekit bench lab', () => {
  test('measures each subject in its own process and reports sizes, times, ratios and losses', async () => {
    const progress: string[] = [];
    const run = await runLab({
      datasets: ['records', 'orders'],
      subjects: ['json', 'msgpack', 'avro', 'json-native'],
      counts: { records: 200, orders: 5 },
      quick: true,
      onProgress: (done, total, label) => progress.push(`${done}/${total} ${label}`),
    });
    expect(run.failures).toEqual([]);
    expect(run.results).toHaveLength(8);
    expect(progress.at(-1)).toBe('8/8 done');
    for (const result of run.results) {
      expect(result.bytes).toBeGreaterThan(0);
      expect(result.encode.median).toBeGreaterThan(0);
      expect(result.jsonEncode.median).toBeGreaterThan(0);
      expect(Object.keys(result.compressed).sort()).toEqual(['brotli', 'gzip', 'lz4', 'snappy', 'zstd']);
    }
    const get = (dataset: string, label: string) =>
      run.results.find((r) => r.spec.dataset === dataset && r.label === label);
    // wirekit's codecs bring every value back; native JSON turns Dates into strings, and says so.
    expect(get('records', 'msgpack')?.loss).toBeUndefined();
    expect(get('orders', 'avro')?.loss).toBeUndefined();
    expect(get('records', 'JSON (native)')?.loss).toBe('$[0].createdAt: Date became string');
    // Avro carries no field names, so it is smaller than JSON on records.
    expect((get('records', 'avro')?.bytes ?? 0) / (get('records', 'avro')?.jsonBytes ?? 1)).toBeLessThan(0.6);
    expect(get('orders', 'json')?.unit).toBe('item');

    const advice = recommend(run);
    expect(advice.map((a) => a.boundary)).toEqual([
      'public API (people read it)',
      'internal RPC',
      'cache behind compression',
      'event stream with an evolving schema',
      'bulk tabular results',
    ]);
    // Per-item data (orders) decides the RPC pick, among lossless binary formats, and names its numbers.
    const rpc = advice[1];
    expect(['msgpack', 'avro']).toContain(rpc?.format);
    expect(rpc?.because).toMatch(/on orders: \d\.\d\d× JSON's time at \d+ % of its size/);
    expect(advice[4]?.because).toContain('records, 200 rows');
    // The cache verdict compares with wirekit's JSON after zstd (same values; native JSON spells bytes as objects).
    const jsonZstd = Math.round(get('orders', 'json')?.compressed.zstd?.bytes ?? Number.NaN);
    expect(advice[2]?.because).toContain(`against JSON's ${jsonZstd} B after zstd`);

    const table = labTable(run);
    expect(table).toContain('Recommendations (from the numbers above):');
    expect(table).toContain('records: 200 items as one batch');
    expect(table).toContain('orders: per item (5 items)');
    expect(table).toMatch(/JSON \(native\) \*.*LOSS \$\[0\]\.createdAt/);
  }, 120_000);
});

describe('wirekit bench --data', () => {
  test('measures a user file with an inferred schema, values read through the JSON form', async () => {
    const run = await runLab({
      file: { dataFile: 'examples/data/users.ndjson' },
      subjects: ['json', 'protobuf', 'json-native'],
      quick: true,
    });
    expect(run.failures).toEqual([]);
    expect(run.results.map((r) => r.spec.dataset)).toEqual(Array(3).fill('users.ndjson'));
    const protobuf = run.results.find((r) => r.label === 'protobuf');
    expect(protobuf?.itemsPerUnit).toBe(5);
    expect(run.results.find((r) => r.label === 'json')?.loss).toBeUndefined();
    // `manager` is inferred as optional(nullable(...)); proto3 has one absence, so the lab reports the
    // null that came back absent (docs/survival.md) instead of hiding it.
    expect(protobuf?.loss).toBe('$[3].manager: null became undefined');
    // The file's timestamps were read as Dates, so native JSON gives strings back: a loss it reports.
    expect(run.results.find((r) => r.label === 'JSON (native)')?.loss).toMatch(/created: Date became string/);
  }, 120_000);

  test('a missing file fails before any child starts', async () => {
    await expect(runLab({ file: { dataFile: 'no/such/file.ndjson' }, quick: true })).rejects.toMatchObject({
      code: 'WK_CLI_INPUT',
    });
  });
});
