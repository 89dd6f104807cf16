/**
 * `wirekit schema import` of an .avsc with fixed types and every logical type, then `schema export
 * --to avro` of the schema JSON it wrote: the Avro schema that comes out is the one that went in.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { cli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'wirekit-avro-forms-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const avsc = {
  type: 'record',
  name: 'Visit',
  namespace: 'shop',
  fields: [
    { name: 'day', type: { type: 'int', logicalType: 'date' } },
    { name: 'at', type: { type: 'long', logicalType: 'local-timestamp-micros' } },
    { name: 'id', type: { type: 'string', logicalType: 'uuid' } },
    { name: 'digest', type: { type: 'fixed', name: 'Md5', aliases: ['Hash'], size: 16 } },
    { name: 'previous', type: ['null', 'Md5'], default: null },
    { name: 'stay', type: { type: 'fixed', name: 'Stay', size: 12, logicalType: 'duration' } },
    {
      name: 'paid',
      type: { type: 'fixed', name: 'Money', size: 8, logicalType: 'decimal', precision: 18, scale: 2 },
    },
  ],
};

test('schema import then schema export --to avro gives the .avsc back', async () => {
  const source = join(dir, 'visit.avsc');
  writeFileSync(source, JSON.stringify(avsc));
  const imported = await cli(['schema', 'import', source, '--to', 'json']);
  expect(imported.code, imported.stderr).toBe(0);
  const schemaFile = join(dir, 'visit.json');
  writeFileSync(schemaFile, imported.text);
  const exported = await cli(['schema', 'export', '--to', 'avro', schemaFile]);
  expect(exported.code, exported.stderr).toBe(0);
  expect(JSON.parse(exported.text)).toEqual(avsc);
});
