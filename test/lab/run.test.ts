/**
 * The lab end to end on a tiny run. It spawns the built case runner (dist/, built by `pretest`),
 * because every case must run in a process of its own.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { recommend } from '../../dist/lab/recommend.js';
import { labHtml } from '../../dist/lab/report/html.js';
import { labMarkdown } from '../../dist/lab/report/markdown.js';
import { type LabRun, runLab } from '../../dist/lab/run.js';
import { labTable } from '../../dist/lab/table.js';
import { isolatedTempDir } from '../support/packed-package.js';

describe('wirekit bench lab', () => {
  test('measures each subject in its own process and reports sizes, times, ratios and losses', async () => {
    const progress: string[] = [];
    const run = await runLab({
      datasets: ['records', 'orders'],
      subjects: ['json', 'msgpack', 'avro', 'json-native'],
      counts: { records: 200, orders: 10 },
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
    expect(rpc?.because).toMatch(/on orders: \d+\.\d\d× JSON's time at \d+ % of its size/);
    // 200 rows are too few to judge bulk tables (it needs 1,000): no pick, and the count said.
    expect(advice[4]?.format).toBeUndefined();
    expect(advice[4]?.because).toContain('no pick: 200 items on records');
    expect(recommend(run, { minItems: { 'bulk tabular results': 200 } })[4]?.because).toContain(
      'records, 200 rows',
    );
    // The cache verdict compares with wirekit's JSON after zstd (same values; native JSON spells bytes as objects).
    const jsonZstd = Math.round(get('orders', 'json')?.compressed.zstd?.bytes ?? Number.NaN);
    expect(advice[2]?.because).toContain(`against JSON's ${jsonZstd} B after zstd`);

    const table = labTable(run);
    expect(table).toContain('Recommendations (from the numbers above):');
    expect(table).toContain('records: 200 items as one batch');
    expect(table).toContain('orders: per item (10 items)');
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

/** A fresh folder for peers, removed after `body`; `files` are written into it first. */
async function inPeerFolder<T>(files: Record<string, string>, body: (dir: string) => Promise<T>): Promise<T> {
  // Node looks for a package in every folder above this one too: isolatedTempDir has none there.
  const dir = isolatedTempDir('wirekit-peers-');
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A package named like Fury whose entry point runs `code`: an install that is there but broken. */
const brokenFury = (code: string) => ({
  'node_modules/@furyjs/fury/package.json': JSON.stringify({
    name: '@furyjs/fury',
    version: '0.0.0',
    main: 'index.js',
  }),
  'node_modules/@furyjs/fury/index.js': code,
});

const furyCase = (peersFrom?: string) =>
  runLab({
    datasets: ['records'],
    subjects: ['fury', 'msgpack', 'json'],
    counts: { records: 100 },
    quick: true,
    ...(peersFrom === undefined ? {} : { peersFrom }),
  });

describe('wirekit bench: a case that cannot run', () => {
  test('Fury where it is not installed: "not installed", the whole reason in every output, no part in any pick', async () => {
    await inPeerFolder({}, async (empty) => {
      // The lab loads peers as Node resolves packages: from this folder, Node finds no Fury.
      expect(() => createRequire(join(empty, 'x.js')).resolve('@furyjs/fury')).toThrow(/Cannot find module/);
      const run: LabRun = await furyCase(empty);
      expect(run.results.map((r) => r.spec.subject)).toEqual(['msgpack', 'json']);
      expect(run.failures).toHaveLength(1);
      const [failure] = run.failures;
      expect(failure).toMatchObject({
        dataset: 'records',
        subject: 'fury',
        kind: 'unavailable',
        expected: true,
      });
      const reason = failure?.error ?? '';
      expect(reason).toContain('fury needs @furyjs/fury, an optional peer that wirekit-ts does not install');
      expect(reason).toContain(`not installed where the lab looked (from ${empty})`);
      expect(reason).toMatch(/npm install @furyjs\/fury@\d/);
      expect(reason).toContain('--peers DIR');

      // The whole reason, in the terminal table, the Markdown, the HTML and the JSON.
      const flat = (text: string) => text.replace(/\s+/g, ' ');
      expect(flat(labTable(run))).toContain(`records × fury (not installed): ${reason}`);
      expect(flat(labMarkdown(run))).toContain(reason);
      expect(flat(labHtml(run))).toContain(reason);
      expect((JSON.parse(JSON.stringify(run)) as LabRun).failures[0]?.error).toBe(reason);

      // Recommendations rank results only, and say which cases they could not consider.
      for (const advice of recommend(run)) {
        expect(advice.format ?? '').not.toMatch(/fury/);
        expect(advice.because).not.toMatch(/fury/);
      }
      expect(flat(labTable(run))).toContain('Not considered, because they could not run');
    });
  }, 120_000);

  test('the same case where Fury is installed (beside wirekit, as in this repository) runs', async () => {
    const run: LabRun = await furyCase();
    expect(run.failures).toEqual([]);
    expect(run.results.find((r) => r.spec.subject === 'fury')?.implementation).toBe('@furyjs/fury');
  }, 120_000);

  test('a peer that is installed but fails to load: "failed", with its own message', async () => {
    const files = brokenFury("throw new Error('broken install: lib/fury.js is missing');");
    await inPeerFolder(files, async (dir) => {
      const run: LabRun = await furyCase(dir);
      expect(run.failures).toEqual([
        {
          dataset: 'records',
          subject: 'fury',
          kind: 'error',
          expected: true,
          error: expect.stringMatching(/^Error: broken install: lib\/fury\.js is missing \(at /),
        },
      ]);
      expect(labTable(run)).toContain('records × fury (failed):');
    });
  }, 120_000);

  test('a case whose process dies without a word: "its process died", with how it ended', async () => {
    const files = brokenFury(
      "process.stderr.write('about to die\\n'); process.kill(process.pid, 'SIGKILL');",
    );
    await inPeerFolder(files, async (dir) => {
      const run: LabRun = await furyCase(dir);
      expect(run.failures).toHaveLength(1);
      expect(run.failures[0]).toMatchObject({ subject: 'fury', kind: 'crash', expected: true });
      expect(run.failures[0]?.error).toBe(
        "the case's process was killed by SIGKILL before reporting a result; the end of its stderr:\nabout to die",
      );
      expect(run.results.map((r) => r.spec.subject)).toEqual(['msgpack', 'json']);
      expect(labTable(run)).toContain('records × fury (its process died):');
    });
  }, 120_000);

  test("several processes per case keep each one's figures, which the recommendations judge the noise by", async () => {
    const run: LabRun = await runLab({
      datasets: ['records'],
      subjects: ['msgpack', 'avro', 'protobuf'],
      counts: { records: 100 },
      quick: true,
      processes: 2,
    });
    for (const result of run.results) {
      expect(result.processes).toHaveLength(2);
      for (const p of result.processes ?? []) expect(p.jsonEncodeMs).toBeGreaterThan(0);
      // The result's median is the median of the processes' medians.
      const [a, b] = (result.processes ?? []).map((p) => p.encodeMs) as [number, number];
      expect(result.encode.median).toBeCloseTo((a + b) / 2, 9);
    }
    // 100 rows keep the run short; the threshold for bulk tables is lowered to judge them.
    const bulk = recommend(run, { minItems: { 'bulk tabular results': 100 } }).find(
      (r) => r.boundary === 'bulk tabular results',
    );
    expect(['clear', 'within noise']).toContain(bulk?.margin?.verdict);
    // Ratios to native JSON reach two digits on a loaded machine (16.97× seen in CI).
    expect(bulk?.margin?.text).toMatch(
      /across 2 processes each, \w+ took \d+\.\d\d-\d+\.\d\d× and \w+ \d+\.\d\d-\d+\.\d\d×/,
    );
  }, 120_000);
});
