/**
 * Unknown keys written by independent implementations, read by wirekit under both `unknownKeys`
 * values: a newer message from `protoc --encode`, a newer Avro container from Debian's python3-avro,
 * a wider table (another column order, an extra column, an extra field in a nested struct) from
 * pyarrow. 'ignore' reads the reader's value, 'reject' refuses with WK_DECODE_SCHEMA_MISMATCH.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { UnknownKeys } from '../../src/codecs/core/codec.js';
import { createCodec } from '../../src/codecs/registry.js';
import { t } from '../../src/index.js';
import { codeOf } from '../support/code-of.js';
import { has, python, venvPython, withTempDir } from '../support/tools.js';

const both: readonly UnknownKeys[] = ['ignore', 'reject'];

describe.skipIf(!has('protoc'))('Protocol Buffers: a newer message from protoc --encode', () => {
  // The reader's Order is toProto(Order), fields 1 and 2; the writer's appends 3 (a string) and 4
  // (a message).
  const Order = t.object('Order', { id: t.int32(), qty: t.int32() });
  const newer = `syntax = "proto3";
message Note { string text = 1; }
message Order { sint32 id = 1; sint32 qty = 2; string coupon = 3; Note note = 4; }
`;
  test.each(both)('%s', (unknownKeys) => {
    withTempDir((dir) => {
      writeFileSync(join(dir, 'newer.proto'), newer);
      const bytes = execFileSync('protoc', [`-I${dir}`, '--encode=Order', 'newer.proto'], {
        cwd: dir,
        input: 'id: 7 qty: 2 coupon: "SPRING" note { text: "gift" }',
      });
      for (const compile of [true, false]) {
        const codec = createCodec('protobuf', { schema: Order, compile, unknownKeys });
        if (unknownKeys === 'ignore') expect(codec.decode(new Uint8Array(bytes))).toEqual({ id: 7, qty: 2 });
        else expect(codeOf(() => codec.decode(new Uint8Array(bytes)))).toBe('WK_DECODE_SCHEMA_MISMATCH');
      }
    });
  });
});

describe.skipIf(!has('python:avro'))('Avro: a newer container from python3-avro', () => {
  const Reading = t.object('Reading', { sensor: t.string(), value: t.float64() });
  const script = `
import sys, avro.schema, avro.datafile, avro.io
schema = avro.schema.parse('''{"type": "record", "name": "Reading", "fields": [
  {"name": "sensor", "type": "string"}, {"name": "value", "type": "double"},
  {"name": "unit", "type": "string"}, {"name": "note", "type": ["null", "string"], "default": null}]}''')
with open(sys.argv[1], 'wb') as out:
    writer = avro.datafile.DataFileWriter(out, avro.io.DatumWriter(), schema)
    writer.append({'sensor': 'a1', 'value': 1.5, 'unit': 'C', 'note': None})
    writer.close()
`;
  test.each(both)('%s', (unknownKeys) => {
    withTempDir((dir) => {
      const file = join(dir, 'readings.avro');
      const result = spawnSync(python, ['-c', script, file], { encoding: 'utf8' });
      expect(result.status, result.stderr).toBe(0);
      const bytes = new Uint8Array(readFileSync(file));
      for (const compile of [true, false]) {
        const codec = createCodec('avro', { schema: Reading, compile, unknownKeys });
        if (unknownKeys === 'ignore')
          expect(codec.decodeSequence(bytes)).toEqual([{ sensor: 'a1', value: 1.5 }]);
        // `unit` holds a value; `note` holds the null that leaves a field out, and is no key.
        else expect(() => codec.decodeSequence(bytes)).toThrow(/Reading has no field "unit"/);
      }
    });
  });
});

describe.skipIf(!has('venv:pyarrow'))('Arrow: a wider table from pyarrow', () => {
  const Row = t.object('Row', { id: t.int32(), place: t.object('Place', { city: t.string() }) });
  const script = `
import sys, pyarrow as pa
place = pa.struct([pa.field('zip', pa.string()), pa.field('city', pa.string())])
table = pa.table({
  'extra': pa.array([True, False]),
  'place': pa.array([{'zip': '1011', 'city': 'Amsterdam'}, {'zip': '3011', 'city': 'Rotterdam'}], type=place),
  'id': pa.array([1, 2], type=pa.int32()),
})
with pa.OSFile(sys.argv[1], 'wb') as sink:
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
`;
  test.each(both)('%s', (unknownKeys) => {
    withTempDir((dir) => {
      const file = join(dir, 'rows.arrows');
      const result = spawnSync(venvPython, ['-c', script, file], { encoding: 'utf8' });
      expect(result.status, result.stderr).toBe(0);
      const bytes = new Uint8Array(readFileSync(file));
      for (const compile of [true, false]) {
        const codec = createCodec('arrow', { schema: Row, compile, unknownKeys });
        if (unknownKeys === 'ignore')
          expect(codec.decode(bytes)).toEqual([
            { id: 1, place: { city: 'Amsterdam' } },
            { id: 2, place: { city: 'Rotterdam' } },
          ]);
        else expect(codeOf(() => codec.decode(bytes))).toBe('WK_DECODE_SCHEMA_MISMATCH');
      }
    });
  });
});
