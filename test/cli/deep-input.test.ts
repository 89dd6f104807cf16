/**
 * `wirekit decode` and `wirekit inspect` of input nested far past maxDepth (20 KB and 1 MB of
 * opening brackets), at the root, in a scalar field, in an unknown field and in a json value, in
 * JSON, MessagePack and CBOR: each ends in the decoder's code on one line of stderr and exit 1, as
 * any input error does, never "internal error" (an unknown field is skipped, as docs/values.md
 * says: JSON reads without it, MessagePack and CBOR walk it and find it too deep). The error
 * message once walked the value and overflowed the stack. The built command is run once too, as a
 * shell runs it.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { schemaToJson, t } from '../../src/index.js';
import { cli } from '../support/cli.js';

const Row = t.object('Row', { id: t.int32(), data: t.optional(t.json()) });
const positions = ['root', 'scalar field', 'unknown field', 'json field'] as const;
type Position = (typeof positions)[number];
const formats = ['json', 'msgpack', 'cbor'] as const;

function jsonInput(where: Position, levels: number): Buffer {
  const deep = `${'['.repeat(levels)}${']'.repeat(levels)}`;
  const text =
    where === 'root'
      ? deep
      : where === 'scalar field'
        ? `{"id":${deep}}`
        : `{"id":1,"${where === 'unknown field' ? 'extra' : 'data'}":${deep}}`;
  return Buffer.from(text);
}

/** MessagePack or CBOR, built by hand: arrays of one item, one inside the next. */
function keyedInput(where: Position, levels: number, cbor: boolean): Buffer {
  const deep = Buffer.alloc(levels, cbor ? 0x81 : 0x91);
  deep[levels - 1] = cbor ? 0x80 : 0x90;
  const text = (value: string) => [(cbor ? 0x60 : 0xa0) | value.length, ...Buffer.from(value)];
  const map = (entries: number) => (cbor ? 0xa0 : 0x80) | entries;
  const head =
    where === 'root'
      ? []
      : where === 'scalar field'
        ? [map(1), ...text('id')]
        : [map(2), ...text('id'), 1, ...text(where === 'unknown field' ? 'extra' : 'data')];
  return Buffer.concat([Buffer.from(head), deep]);
}

const input = (format: (typeof formats)[number], where: Position, levels: number) =>
  format === 'json' ? jsonInput(where, levels) : keyedInput(where, levels, format === 'cbor');

let dir: string;
let schema: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wirekit-deep-'));
  schema = join(dir, 'row.json');
  await writeFile(schema, JSON.stringify(schemaToJson(Row)));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** One line on stderr naming an input error's code, and exit 1. */
function expectInputError(result: { code: number; stderr: string }): void {
  expect(result.stderr).toMatch(/^wirekit: WK_(LIMIT_DEPTH|DECODE_SCHEMA_MISMATCH): [^\n]{0,400}\n$/);
  expect(result.code).toBe(1);
}

describe.each([20_000, 1_000_000])('%i levels', (levels) => {
  for (const format of formats) {
    test.each(positions)(`decode --format ${format} --schema, in the %s`, async (where) => {
      const path = join(dir, `${format}-${where}-${levels}`);
      await writeFile(path, input(format, where, levels));
      const result = await cli(['decode', '--format', format, '--schema', schema, '--in', path]);
      if (format === 'json' && where === 'unknown field') {
        expect(result.stderr).toBe('');
        expect(JSON.parse(result.text)).toEqual({ id: 1 });
      } else expectInputError(result);
    });

    test.each(positions)(`inspect --format ${format} --schema, in the %s`, async (where) => {
      const path = join(dir, `inspect-${format}-${where}-${levels}`);
      await writeFile(path, input(format, where, levels));
      const result = await cli(['inspect', '--format', format, '--schema', schema, path]);
      if (format === 'json' && where === 'unknown field') {
        expect(result.code).toBe(0);
        return;
      }
      // inspect prints what it found about the input's framing first, then the error.
      expect(result.stderr).toMatch(/^wirekit: WK_(LIMIT_DEPTH|DECODE_SCHEMA_MISMATCH): [^\n]{0,400}\n$/);
      expect(result.code).toBe(1);
    });
  }

  test('decode --format json without a schema: WK_LIMIT_DEPTH', async () => {
    const path = join(dir, `schemaless-${levels}`);
    await writeFile(path, jsonInput('root', levels));
    const result = await cli(['decode', '--format', 'json', '--in', path]);
    expect(result.stderr).toMatch(/^wirekit: WK_LIMIT_DEPTH: /);
    expect(result.code).toBe(1);
  });
});

test('the built command answers a million levels in a scalar field with the code and exit 1', async () => {
  const main = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
  expect(existsSync(main), 'dist/cli/main.js is missing: run npm run build').toBe(true);
  const path = join(dir, 'spawned.json');
  await writeFile(path, jsonInput('scalar field', 1_000_000));
  const result = await new Promise<{ code: number; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [main, 'decode', '--format', 'json', '--schema', schema, '--in', path],
      (error, _stdout, stderr) => resolve({ code: (error as { code?: number } | null)?.code ?? 0, stderr }),
    );
  });
  expectInputError(result);
  expect(result.stderr).not.toMatch(/internal error/);
});
