/**
 * `wirekit bench` as a user runs it: the built CLI (dist/, built by `pretest`) in a process of its
 * own, since every case spawns the built case runner anyway. Small, quick runs: what is checked is
 * what the command says and its exit code, not the figures.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { type ObjectSchema, schemaToJson, t } from '../../src/index.js';
import type { LabRun } from '../../src/lab/run.js';
import { isolatedTempDir } from '../support/packed-package.js';

const main = new URL('../../dist/cli/main.js', import.meta.url).pathname;
// Node looks for a peer in every folder above --peers DIR too: isolatedTempDir has none there.
const dir = isolatedTempDir('wirekit-bench-cli-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `wirekit ...args`; resolves with the exit code and both outputs, whatever the code. */
async function wirekit(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [main, ...args], {
      maxBuffer: 8 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const orders = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, sku: `A-${i}`, qty: (i % 4) + 1 }));

describe('wirekit bench --help', () => {
  test('says which formats need an optional install, and how to point at it', async () => {
    const { code, stdout } = await wirekit('bench', '--help');
    expect(code).toBe(0);
    const help = stdout.replace(/\s+/g, ' ');
    expect(help).toMatch(/Optional peers run only when named here, and only where you installed them/);
    expect(help).toMatch(/fury needs @furyjs\/fury \(npm install @furyjs\/fury@[\w.-]+\)/);
    expect(help).toContain('--peers DIR');
    expect(help).toContain('--path P');
    expect(help).toContain('Exit code 1 when a case that was expected to run could not');
  });
});

describe('wirekit bench: cases that cannot run and the exit code', () => {
  test('a named format that is not installed: every output says why, and the exit code is 1', async () => {
    const empty = mkdtempSync(join(dir, 'no-peers-'));
    const json = join(dir, 'fury.json');
    const markdown = join(dir, 'fury.md');
    const { code, stdout, stderr } = await wirekit(
      'bench',
      ...['--datasets', 'records', '--count', 'records=100', '--formats', 'json,fury', '--quick'],
      ...['--peers', empty, '--json', json, '--markdown', markdown],
    );
    expect(code).toBe(1);
    expect(stderr).toContain('wirekit: 1 case could not run: fury on records');
    expect(stdout).toMatch(/^json {2}/m); // the case that could run is measured
    expect(stdout).toContain('records × fury (not installed):');
    expect(stdout.replace(/\s+/g, ' ')).toContain('npm install @furyjs/fury@');
    const run = JSON.parse(readFileSync(json, 'utf8')) as LabRun;
    expect(run.failures).toMatchObject([{ subject: 'fury', kind: 'unavailable', expected: true }]);
    expect(readFileSync(markdown, 'utf8')).toContain('- records × fury (not installed):');
  }, 60_000);

  test("a default format that cannot hold the user's data is reported, and the exit code stays 0", async () => {
    // A recursive schema: Arrow's types are finite trees, so its case cannot run on this data.
    interface Tree {
      label: string;
      children: Tree[];
    }
    const Tree: ObjectSchema<Tree> = t.object('Tree', {
      label: t.string(),
      children: t.array(t.lazy(() => Tree)),
    });
    const schema = join(dir, 'tree.schema.json');
    writeFileSync(schema, JSON.stringify(schemaToJson(Tree)));
    const data = join(dir, 'tree.ndjson');
    writeFileSync(
      data,
      '{"label":"a","children":[{"label":"b","children":[]}]}\n{"label":"c","children":[]}\n',
    );
    const { code, stdout, stderr } = await wirekit('bench', '--data', data, '--schema', schema, '--quick');
    expect(stderr).not.toContain('could not run');
    expect(code).toBe(0);
    expect(stdout).toContain('tree.ndjson × arrow (failed):');
    expect(stdout.replace(/\s+/g, ' ')).toContain('WK_EXPORT_UNSUPPORTED: [arrow] Tree contains itself');
    expect(stdout).toMatch(/^avro {2}/m);
  }, 120_000);
});

describe('wirekit bench --data: one object around the records', () => {
  const wrapped = join(dir, 'orders.json');
  writeFileSync(wrapped, JSON.stringify({ orders, page: 1 }));

  test('says it measured one value, and offers --path', async () => {
    const { code, stdout } = await wirekit('bench', '--data', wrapped, '--formats', 'json', '--quick');
    expect(code).toBe(0);
    const text = stdout.replace(/\s+/g, ' ');
    expect(text).toContain(`Measured: 1 value from ${wrapped} (one JSON value), with an inferred schema.`);
    expect(text).toContain('WARNING: ');
    expect(text).toContain('so the lab measured it as ONE value');
    expect(text).toContain(
      'not the 30 items of its "orders" array. To measure those items, run it again with --path orders.',
    );
    expect(stdout).toContain('orders.json: 1 item as one batch');
  }, 60_000);

  test('--path orders measures the items', async () => {
    const { code, stdout } = await wirekit(
      'bench',
      '--data',
      wrapped,
      '--path',
      'orders',
      '--formats',
      'json',
      '--quick',
    );
    expect(code).toBe(0);
    expect(stdout.replace(/\s+/g, ' ')).toContain(
      `Measured: 30 values from ${wrapped} (the array at orders), with an inferred schema.`,
    );
    expect(stdout).not.toContain('WARNING');
    expect(stdout).toContain('orders.json: 30 items as one batch');
  }, 60_000);

  test('a bare JSON array and NDJSON are measured item by item, without a warning', async () => {
    const array = join(dir, 'array.json');
    writeFileSync(array, JSON.stringify(orders));
    const lines = join(dir, 'lines.ndjson');
    writeFileSync(lines, orders.map((o) => JSON.stringify(o)).join('\n'));
    for (const [file, shape] of [
      [array, 'a JSON array'],
      [lines, 'NDJSON, one value per line'],
    ] as const) {
      const { code, stdout } = await wirekit('bench', '--data', file, '--formats', 'json', '--quick');
      expect(code).toBe(0);
      expect(stdout.replace(/\s+/g, ' ')).toContain(`Measured: 30 values from ${file} (${shape})`);
      expect(stdout).not.toContain('WARNING');
    }
  }, 60_000);

  test('a --path that leads nowhere is an input error; --path without --data a usage error', async () => {
    const nowhere = await wirekit('bench', '--data', wrapped, '--path', 'order', '--quick');
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain('WK_CLI_INPUT: --path order:');
    expect(nowhere.stderr).toContain(
      'has nothing at order (the top level is an object with "orders", "page")',
    );
    const alone = await wirekit('bench', '--path', 'orders');
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--schema, --path, --per-item and --max-input-bytes go with --data FILE.');
    const empty = await wirekit('bench', '--data', wrapped, '--path', 'data..items');
    expect(empty.code).toBe(2);
  });
});
