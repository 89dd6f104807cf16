/**
 * `bench --data` on a file of 64-bit ids: JSON.parse rounds 505874924095815681 to …700, so a lab
 * that read the file with it measured the rounded ids and called the round trip lossless. The
 * file is read with such integers exact (bigints, an int64 field), the note says so before the
 * tables, and native JSON's row shows the rounding as the loss it is.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runLab } from '../../../dist/lab/run.js';
import { datasetFromFile } from '../../../src/lab/datasets/from-file.js';
import { inferSchema, type ObjectSchema } from '../../../src/schema/index.js';
import { withTempDir } from '../../support/tools.js';

const id = '505874924095815681';
const statuses = `[{"id": ${id}, "id_str": "${id}", "text": "first", "n": 1},
 {"id": 505874924095815682, "id_str": "505874924095815682", "text": "a \\"quoted\\" 9007199254740993 in text", "n": 2}]`;

function fromText(name: string, text: string) {
  return withTempDir((dir) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return datasetFromFile({ dataFile: file });
  });
}

describe('bench --data: integers beyond 2^53 stay exact', () => {
  test('read as bigints into an int64 field; strings of the same digits stay strings', () => {
    const dataset = fromText('statuses.json', statuses);
    const [first, second] = dataset.generate() as Record<string, unknown>[];
    expect(first?.id).toBe(505874924095815681n);
    expect(second?.id).toBe(505874924095815682n);
    expect(first?.id_str).toBe(id);
    expect(second?.text).toBe('a "quoted" 9007199254740993 in text');
    expect(first?.n).toBe(1);
    const field = dataset.schema.fields.find((f) => f.name === 'id')?.schema;
    expect(field).toMatchObject({ kind: 'int64', as: 'bigint' });
    expect(dataset.integers).toEqual({
      text: `2 integers beyond 2^53 read exactly, as int64 (bigint): the first, ${id} at $[0].id, is one JSON.parse would have rounded to 505874924095815700.`,
      warning: false,
      exact: 2,
    });
  });

  test('NDJSON names the line; a file without big integers says nothing', () => {
    const ndjson = `{"id": 1}\n{"id": ${id}}\n`;
    expect(fromText('s.ndjson', ndjson).integers?.text).toContain(`the first, ${id} at $.id on line 2`);
    expect(fromText('small.json', '[{"id": 9007199254740991}, {"id": 2}]').integers).toBeUndefined();
  });

  test('an integer past 64 bits cannot be int64: the lab warns that JSON.parse rounded it', () => {
    const dataset = fromText('huge.json', '[{"id": 123456789012345678901234}, {"id": 1}]');
    expect(dataset.integers?.warning).toBe(true);
    expect(dataset.integers?.text).toContain('lie beyond 64 bits (the first: 123456789012345678901234)');
    expect(dataset.integers?.text).toContain('JSON.parse rounded them');
  });

  test('inference: bigint samples make int64, or uint64 past int64', () => {
    const schema = (values: unknown[]) =>
      inferSchema(
        values.map((id) => ({ id })),
        { name: 'S' },
      ) as ObjectSchema;
    expect(schema([2n ** 60n, 5]).fields[0]?.schema).toMatchObject({ kind: 'int64', as: 'bigint' });
    expect(schema([-(2n ** 62n), 2n ** 62n]).fields[0]?.schema).toMatchObject({ kind: 'int64' });
    expect(schema([2n ** 63n, 7]).fields[0]?.schema).toMatchObject({ kind: 'uint64', as: 'bigint' });
  });

  test('the lab measures them exact: wirekit round trips are lossless, native JSON shows the rounding', async () => {
    // withTempDir removes its folder when the body returns; the lab reads the file in its children later.
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-big-'));
    const file = join(dir, 'statuses.json');
    writeFileSync(file, statuses);
    const run = await runLab({
      file: { dataFile: file },
      subjects: ['json', 'msgpack', 'json-native'],
      quick: true,
    }).finally(() => rmSync(dir, { recursive: true, force: true }));
    expect(run.failures).toEqual([]);
    expect(run.notes).toContain(
      `2 integers beyond 2^53 read exactly, as int64 (bigint): the first, ${id} at $[0].id, is one JSON.parse would have rounded to 505874924095815700.`,
    );
    const loss = (label: string) => run.results.find((r) => r.label === label)?.loss;
    expect(loss('json')).toBeUndefined();
    expect(loss('msgpack')).toBeUndefined();
    expect(loss('JSON (native)')).toBe(`$[0].id: ${id} became 505874924095815700`);
  }, 60_000);
});
