/**
 * The built `wirekit` on an Avro container file Debian's python3-avro writes, of a schema wirekit
 * never saw: `decode --format avro` reads it by the writer schema it carries, or resolves it into
 * --schema, while a single datum still needs the schema it was written with.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createCodec } from '../../src/codecs/registry.js';
import { schemaToJson, t } from '../../src/index.js';
import { runBuilt as wirekit } from '../support/cli.js';
import { has, python, withTempDir } from '../support/tools.js';

describe.skipIf(!has('python:avro'))('decode of an Avro container file', () => {
  /** A container python3-avro writes, of a schema wirekit never saw. */
  function pythonContainer(path: string): void {
    const script = `
import sys, datetime, avro.schema, avro.datafile, avro.io
schema = avro.schema.parse('''{"type": "record", "name": "Reading", "namespace": "plant", "fields": [
  {"name": "sensor", "type": "string"},
  {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
  {"name": "value", "type": "double"},
  {"name": "note", "type": ["null", "string"], "default": null}]}''')
with open(sys.argv[1], 'wb') as out:
    writer = avro.datafile.DataFileWriter(out, avro.io.DatumWriter(), schema, codec='deflate')
    writer.append({'sensor': 'a1', 'at': datetime.datetime.fromtimestamp(1700000000, datetime.timezone.utc), 'value': 1.5, 'note': None})
    writer.append({'sensor': 'b2', 'at': datetime.datetime.fromtimestamp(1700000001, datetime.timezone.utc), 'value': -2.25, 'note': 'hot'})
    writer.close()
`;
    const result = spawnSync(python, ['-c', script, path], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
  }

  test('without --schema, by the writer schema the file carries', () => {
    withTempDir((dir) => {
      const file = join(dir, 'readings.avro');
      pythonContainer(file);
      const { code, stdout, stderr } = wirekit(['decode', '--format', 'avro', '--in', file, '--ndjson']);
      expect([code, stderr]).toEqual([0, '']);
      expect(
        stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line)),
      ).toEqual([
        { sensor: 'a1', at: '2023-11-14T22:13:20.000Z', value: 1.5, note: null },
        { sensor: 'b2', at: '2023-11-14T22:13:21.000Z', value: -2.25, note: 'hot' },
      ]);
      // The same with --sequence, which reads the items as they come.
      const streamed = wirekit(['decode', '--format', 'avro', '--in', file, '--ndjson', '--sequence']);
      expect([streamed.code, streamed.stdout]).toEqual([0, stdout]);
    });
  });

  test('with --schema, resolved from the writer schema into the reader’s', () => {
    withTempDir((dir) => {
      const file = join(dir, 'readings.avro');
      pythonContainer(file);
      const reader = join(dir, 'reader.schema.json');
      const Reading = t.object('Reading', {
        sensor: t.string(),
        value: t.float64(),
        unit: t.field(t.string(), { default: 'C' }),
      });
      writeFileSync(reader, JSON.stringify(schemaToJson(Reading)));
      const { code, stdout, stderr } = wirekit([
        'decode',
        '--format',
        'avro',
        '--schema',
        reader,
        '--in',
        file,
        '--ndjson',
      ]);
      expect([code, stderr]).toEqual([0, '']);
      expect(stdout).toBe(
        '{"sensor":"a1","value":1.5,"unit":"C"}\n{"sensor":"b2","value":-2.25,"unit":"C"}\n',
      );
    });
  });

  test('a single datum still needs the schema it was written with', () => {
    const datum = createCodec('avro', { schema: t.object('P', { a: t.int32() }) }).encode({ a: 1 });
    const { code, stderr } = wirekit(['decode', '--format', 'avro'], datum);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^wirekit: WK_SCHEMA_REQUIRED: /);
  });
});
