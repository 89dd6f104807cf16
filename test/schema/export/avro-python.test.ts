/**
 * Python's avro 1.11 (Debian's) as the judge of toAvro's exports: it parses EveryKind and targeted
 * schemas without a warning (but for timestamp-nanos, a logical type it does not know), and fills a
 * record's missing fields from the exported defaults, by the first union branch, as wirekit means
 * them. The mapping itself is tested in avro.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { type Schema, t } from '../../../src/index.js';
import { type AvroSchemaJson, toAvro } from '../../../src/schema/export/avro.js';
import { Person } from '../../fixtures/avro-defaults.js';
import { Category, Circle, EveryKind, Rect, Shape } from '../../fixtures/every-kind.js';
import { runPythonText } from '../../support/python.js';
import { has } from '../../support/tools.js';

/** Runs Python with `script`, the text on stdin; returns the JSON it prints. */
const runPython = (script: string, input: string): unknown => JSON.parse(runPythonText(script, input));

const parseScript = `
import json, sys, warnings
import avro.schema
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    schema = avro.schema.parse(sys.stdin.read())
print(json.dumps({'type': schema.type, 'name': getattr(schema, 'fullname', None),
                  'warnings': [str(w.message) for w in caught]}))
`;

/** Python avro's verdict on an export: its type and any warnings (ignored logical types). */
function parseInPython(avro: AvroSchemaJson): { type: string; name: string | null; warnings: string[] } {
  return runPython(parseScript, JSON.stringify(avro, null, 2)) as {
    type: string;
    name: string | null;
    warnings: string[];
  };
}

// Reads a record written without any of Person's fields except id: Avro fills the rest from the
// reader schema's defaults, and takes a union's default by its first branch, so this proves the
// exporter's branch order and default encoding agree with Avro's own reader.
const defaultsScript = `
import io, json, sys
import avro.io, avro.schema
reader = avro.schema.parse(sys.stdin.read())
writer = avro.schema.parse(json.dumps({'type': 'record', 'name': 'Person', 'namespace': 'com.example',
                                      'fields': [{'name': 'id', 'type': 'long'}]}))
buf = io.BytesIO()
avro.io.DatumWriter(writer).write({'id': 7}, avro.io.BinaryEncoder(buf))
buf.seek(0)
datum = avro.io.DatumReader(writer, reader).read(avro.io.BinaryDecoder(buf))
print(json.dumps(datum, default=lambda b: list(b)))
`;

describe.skipIf(!has('python:avro'))('toAvro: Python avro 1.11 accepts the exports', () => {
  test('EveryKind (with and without a namespace)', () => {
    for (const options of [{}, { namespace: 'com.example' }]) {
      const verdict = parseInPython(toAvro(EveryKind, options));
      expect(verdict.type).toBe('record');
      expect(verdict.name).toBe('namespace' in options ? 'com.example.EveryKind' : 'EveryKind');
      expect(verdict.warnings).toEqual([]);
    }
  });

  test('targeted schemas', () => {
    const Inner = t.object('Inner', { x: t.int32() });
    const schemas: Schema[] = [
      Person,
      Shape,
      Category,
      t.object('Holder', {
        a: t.nullable(Shape),
        b: t.optional(t.nullable(Shape)),
        c: t.array(t.nullable(t.string())),
      }),
      t.object(
        'Outer',
        { inner: Inner, again: t.array(t.object('Other', { i: t.optional(Inner) })) },
        { namespace: 'n' },
      ),
      t.object('Maps', {
        m: t.map(t.uint32(), t.map(t.int64(), t.nullable(Circle))),
        r: Rect,
        s: t.map(t.string(), Rect),
      }),
      t.array(t.int32()),
      t.literal('x'),
      t.map(t.int8(), t.string()),
      t.object('Lits', {
        tag: t.literal('a'),
        opt: t.optional(t.literal(3)),
        list: t.array(t.literal(true)),
      }),
    ];
    for (const schema of schemas) expect(parseInPython(toAvro(schema)).warnings).toEqual([]);
  });

  test('timestamp-nanos is an unknown logical type to 1.11 and reads as a long', () => {
    const verdict = parseInPython(toAvro(t.timestamp({ precision: 'ns' })));
    expect(verdict.warnings).toEqual([expect.stringContaining('timestamp-nanos')]);
  });

  test('Avro fills defaults from the first union branch as exported', () => {
    const datum = runPython(defaultsScript, JSON.stringify(toAvro(Person)));
    expect(datum).toEqual({
      id: 7,
      name: 'anonymous',
      nickname: null,
      age: 42,
      manager: 'boss',
      shape: { radius: 1.5 },
      lastShape: null,
      tags: ['a', 'b'],
      blob: [104, 105],
      seen: 1_704_164_645_678_000,
      big: 1e18,
      byId: [{ key: 1, value: 'x' }],
      price: [100],
      color: 'green',
      home: { street: 'Elm', flat: null },
    });
  });
});
