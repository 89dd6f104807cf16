/**
 * The schema registry's rule tables (Avro, Protobuf, wirekit), run through `wirekit schema check`:
 * this file imports the tables, so their rows run here as they do in their own files and are
 * recorded, and then each row's writer and reader go to the command as files (OLD the writer, NEW
 * the reader, BACKWARD). The command must give the registry's verdict as its exit code (0
 * compatible, 1 not) and the same error types in its --json answer.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { askedRows } from '../boundaries/events/compatibility/support.js';
import { cli } from '../support/cli.js';

await import('../boundaries/events/compatibility/avro.test.js');
await import('../boundaries/events/compatibility/protobuf.test.js');
await import('../boundaries/events/compatibility/wirekit.test.js');

const dir = mkdtempSync(join(tmpdir(), 'wirekit-schema-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const extensions = { AVRO: '.avsc', PROTOBUF: '.proto', WIREKIT: '.schema.json' } as const;

describe('wirekit schema check gives the registry verdict on every row of its rule tables', () => {
  test('each row: exit code and error types', async () => {
    // The tables ran first (they were registered first); each type must have given rows.
    const types = new Set(askedRows.map((row) => row.schemaType));
    expect([...types].sort()).toEqual(['AVRO', 'PROTOBUF', 'WIREKIT']);
    const mismatches: string[] = [];
    for (const [index, row] of askedRows.entries()) {
      const extension = extensions[row.schemaType as keyof typeof extensions];
      const writer = join(dir, `writer-${index}${extension}`);
      const reader = join(dir, `reader-${index}${extension}`);
      writeFileSync(writer, row.writer);
      writeFileSync(reader, row.reader);
      const { code, text, stderr } = await cli(['schema', 'check', writer, reader, '--json']);
      const expectedCode = row.verdict.compatible ? 0 : 1;
      const answer = code === 2 ? undefined : (JSON.parse(text) as { issues: { errorType: string }[] });
      const errorTypes = [...new Set(answer?.issues.map((issue) => issue.errorType))].sort();
      if (code !== expectedCode || JSON.stringify(errorTypes) !== JSON.stringify(row.verdict.errorTypes)) {
        mismatches.push(
          `${row.schemaType} row ${index}: exit ${code} ${JSON.stringify(errorTypes)} ${stderr}`,
        );
      }
    }
    expect(mismatches).toEqual([]);
    expect(askedRows.length).toBeGreaterThan(150);
  }, 120_000);
});
