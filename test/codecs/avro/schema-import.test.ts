/**
 * schemaFromAvro: Avro schemas read as wirekit schemas, the reader side for Avro data whose only
 * description is an Avro schema (a registry's writer schema). Checked three ways: wirekit's own
 * exports come back exactly (toAvro of the import is the export, and the bytes re-encode the same);
 * a foreign schema with every construct the mapping covers decodes avsc's bytes to the expected
 * values; random schemas with avsc's random values survive decode and re-encode byte for byte.
 */
import avsc from 'avsc';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createAvroCodec } from '../../../src/codecs/avro/index.js';
import { schemaFromAvro } from '../../../src/codecs/avro/schema-from-avro.js';
import { isWirekitError } from '../../../src/errors/index.js';
import { datasets } from '../../../src/lab/datasets/index.js';
import { toAvro } from '../../../src/schema/export/avro.js';
import { type JsonValue, type Schema, toJsonValue } from '../../../src/schema/index.js';
import { avroValue } from '../../fixtures/avro-values.js';
import { EveryKind } from '../../fixtures/every-kind.js';

/** Decodes avsc's bytes of `avro` through the imported schema, as JSON. */
function readWith(avro: unknown, bytes: Uint8Array): { schema: Schema; json: JsonValue; value: unknown } {
  const text = JSON.stringify(avro);
  const schema = schemaFromAvro(text);
  const value = createAvroCodec({ schema, writerSchema: text }).decode(bytes);
  return { schema, value, json: toJsonValue(schema, value) };
}

describe("wirekit's own exports come back as they were", () => {
  const cases: [string, Schema, unknown[]][] = [
    ...Object.values(datasets).map((d): [string, Schema, unknown[]] => [d.name, d.schema, d.generate(3, 7)]),
    ['EveryKind', EveryKind, [avroValue()]],
  ];
  test.each(cases)(
    '%s: toAvro(schemaFromAvro(toAvro(s))) is toAvro(s), and values re-encode to the same bytes',
    (_name, schema, values) => {
      const exported = toAvro(schema);
      const imported = schemaFromAvro(JSON.stringify(exported));
      expect(toAvro(imported)).toEqual(exported);
      const original = createAvroCodec({ schema });
      const reader = createAvroCodec({ schema: imported, writerSchema: JSON.stringify(exported) });
      const writer = createAvroCodec({ schema: imported });
      for (const value of values) {
        const bytes = original.encode(value).slice();
        expect(Buffer.from(writer.encode(reader.decode(bytes)))).toEqual(Buffer.from(bytes));
      }
    },
  );
});

describe('a foreign schema', () => {
  const expr = {
    type: 'record',
    name: 'Expr',
    namespace: 'calc',
    doc: 'an expression',
    aliases: ['Expression'],
    fields: [
      {
        name: 'op',
        type: { type: 'enum', name: 'Op', symbols: ['ADD', 'MUL'], doc: 'operator' },
        default: 'ADD',
      },
      {
        name: 'args',
        type: {
          type: 'array',
          items: ['null', { type: 'record', name: 'Lit', fields: [{ name: 'v', type: 'double' }] }, 'Expr'],
        },
      },
      { name: 'when', type: { type: 'long', logicalType: 'timestamp-micros' } },
      { name: 'tags', type: { type: 'map', values: 'string' }, default: { a: 'b' } },
      { name: 'id', type: { type: 'fixed', name: 'Id', size: 4 } },
      {
        name: 'amount',
        type: { type: 'bytes', logicalType: 'decimal', precision: 6, scale: 2 },
        default: '\u0004\u00d2',
      },
      { name: 'note', type: ['null', 'string'], default: null, aliases: ['comment'], doc: 'free text' },
    ],
  };
  const leaf = {
    op: 'ADD',
    args: [],
    when: 5,
    tags: {},
    id: Buffer.from([1, 2, 3, 4]),
    amount: Buffer.from([0xff]),
    note: null,
  };
  const value = {
    op: 'MUL',
    args: [null, { 'calc.Lit': { v: 1.5 } }, { 'calc.Expr': leaf }],
    when: 1_700_000_000_123_456,
    tags: { x: 'y' },
    id: Buffer.from([9, 8, 7, 6]),
    amount: Buffer.from([0x04, 0xd2]),
    note: { string: 'hi' },
  };

  test("avsc's bytes decode to the values, unions of records tagged by full name, recursion and all", () => {
    const bytes = avsc.Type.forSchema(expr as never, { wrapUnions: true }).toBuffer(value);
    const { json } = readWith(expr, bytes);
    expect(json).toEqual({
      type: 'calc.Expr',
      op: 'MUL',
      args: [
        null,
        { type: 'calc.Lit', v: 1.5 },
        {
          type: 'calc.Expr',
          op: 'ADD',
          args: [],
          when: '1970-01-01T00:00:00.000Z',
          tags: {},
          id: 'AQIDBA==',
          amount: '-0.01',
          note: null,
        },
      ],
      when: '2023-11-14T22:13:20.123Z',
      tags: { x: 'y' },
      id: 'CQgHBg==',
      amount: '12.34',
      note: 'hi',
    });
  });

  test('names, docs, aliases and defaults carry over', () => {
    const schema = schemaFromAvro(JSON.stringify(expr));
    if (schema.kind !== 'object') throw new Error('an object');
    expect(schema).toMatchObject({
      name: 'Expr',
      namespace: 'calc',
      doc: 'an expression',
      aliases: ['Expression'],
    });
    const field = (name: string) => schema.fields.find((f) => f.name === name);
    expect(field('op')).toMatchObject({
      default: 'ADD',
      schema: { kind: 'enum', name: 'Op', doc: 'operator' },
    });
    expect(field('tags')?.default).toEqual({ a: 'b' });
    expect(field('amount')).toMatchObject({
      default: '12.34',
      schema: { kind: 'decimal', precision: 6, scale: 2 },
    });
    expect(field('note')).toMatchObject({ default: null, aliases: ['comment'], doc: 'free text' });
    expect(field('type')?.schema).toEqual({ kind: 'literal', value: 'calc.Expr' });
    expect(schema.fields.map((f) => f.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  test.each([
    ['date', { type: 'int', logicalType: 'date' }, 19_000, 19_000],
    ['time-millis', { type: 'int', logicalType: 'time-millis' }, 3_600_000, 3_600_000],
    ['time-micros', { type: 'long', logicalType: 'time-micros' }, 3_600_000_001, '3600000001'],
    ['local-timestamp-millis', { type: 'long', logicalType: 'local-timestamp-millis' }, 1_000, '1000'],
    [
      'timestamp-millis',
      { type: 'long', logicalType: 'timestamp-millis' },
      1_000,
      '1970-01-01T00:00:01.000Z',
    ],
    [
      'uuid',
      { type: 'string', logicalType: 'uuid' },
      '0e3c5a5e-1b7e-4b43-9f0c-0c4ef0d1d0a4',
      '0e3c5a5e-1b7e-4b43-9f0c-0c4ef0d1d0a4',
    ],
    ['an unknown logical type', { type: 'long', logicalType: 'wirekit-epoch-days' }, 7, '7'],
    ['fixed', { type: 'fixed', name: 'Hash', size: 2 }, Buffer.from([1, 2]), 'AQI='],
    [
      'fixed decimal',
      { type: 'fixed', name: 'Money', size: 3, logicalType: 'decimal', precision: 6, scale: 3 },
      Buffer.from([0, 0x30, 0x39]),
      '12.345',
    ],
    [
      // 3 bytes hold 6 digits at most: the spec says to ignore such a logical type.
      'a fixed decimal wider than its size',
      { type: 'fixed', name: 'Money', size: 3, logicalType: 'decimal', precision: 7, scale: 3 },
      Buffer.from([0, 0x30, 0x39]),
      'ADA5',
    ],
    ['null alone', 'null', null, null],
    ['null last', ['string', 'null'], 'x', 'x'],
    ['a primitive root', 'string', 'plain', 'plain'],
  ])('%s', (_name, type, written, shown) => {
    const avro = { type: 'record', name: 'R', fields: [{ name: 'f', type }] };
    const wrapped = avsc.Type.forSchema(avro as never, { wrapUnions: false });
    if (typeof type === 'string' && type !== 'null') {
      // A root that is not a record: the datum is the value itself.
      const bytes = avsc.Type.forSchema(type as never).toBuffer(written);
      expect(readWith(type, bytes).json).toEqual(shown);
      return;
    }
    expect(readWith(avro, wrapped.toBuffer({ f: written })).json).toEqual({ f: shown });
  });

  test('a schema nested under "type" is read as the inner one', () => {
    const nested = {
      type: 'record',
      name: 'R',
      fields: [{ name: 'f', type: { type: { type: 'array', items: 'int' } } }],
    };
    const plain = {
      type: 'record',
      name: 'R',
      fields: [{ name: 'f', type: { type: 'array', items: 'int' } }],
    };
    const bytes = avsc.Type.forSchema(plain as never).toBuffer({ f: [1, 2] });
    expect(readWith(nested, bytes).json).toEqual({ f: [1, 2] });
  });

  test('a union of records at the root, with null', () => {
    const union = [
      'null',
      { type: 'record', name: 'Cat', namespace: 'pets', fields: [{ name: 'lives', type: 'int' }] },
      { type: 'record', name: 'Dog', namespace: 'pets', fields: [{ name: 'type', type: 'string' }] },
    ];
    const type = avsc.Type.forSchema(union as never, { wrapUnions: true });
    // Dog has a field named "type", so the tag takes the next free name.
    expect(readWith(union, type.toBuffer({ 'pets.Dog': { type: 'husky' } })).json).toEqual({
      kind: 'pets.Dog',
      type: 'husky',
    });
    expect(readWith(union, type.toBuffer({ 'pets.Cat': { lives: 9 } })).json).toEqual({
      kind: 'pets.Cat',
      lives: 9,
    });
    expect(readWith(union, type.toBuffer(null)).json).toBeNull();
  });

  test('one union used by two fields is one named type, so the import exports again', () => {
    const a = { type: 'record', name: 'A', fields: [{ name: 'x', type: 'int' }] };
    const b = { type: 'record', name: 'B', fields: [{ name: 'y', type: 'int' }] };
    const avro = {
      type: 'record',
      name: 'Pair',
      fields: [
        { name: 'first', type: [a, b] },
        { name: 'second', type: ['A', 'B'] },
        { name: 'alone', type: 'A' },
      ],
    };
    const schema = schemaFromAvro(JSON.stringify(avro));
    expect(() => toAvro(schema)).not.toThrow();
    const bytes = avsc.Type.forSchema(avro as never, { wrapUnions: true }).toBuffer({
      first: { A: { x: 1 } },
      second: { B: { y: 2 } },
      alone: { x: 3 },
    });
    expect(readWith(avro, bytes).json).toEqual({
      first: { type: 'A', x: 1 },
      second: { type: 'B', y: 2 },
      alone: { type: 'A', x: 3 },
    });
  });
});

describe('what has no wirekit form is refused with WK_SCHEMA_IMPORT', () => {
  test.each([
    [
      'a union of int and long (no value tells the branches apart)',
      { type: 'record', name: 'R', fields: [{ name: 'f', type: ['int', 'long'] }] },
    ],
    ['a union of a string and bytes (both text in JSON)', ['string', 'bytes']],
    [
      'a default of the wrong type',
      { type: 'record', name: 'R', fields: [{ name: 'f', type: 'int', default: 'x' }] },
    ],
    [
      'a long default past 2^53',
      { type: 'record', name: 'R', fields: [{ name: 'f', type: 'long', default: 2 ** 60 }] },
    ],
    [
      'an enum default not a symbol',
      {
        type: 'record',
        name: 'R',
        fields: [{ name: 'f', type: { type: 'enum', name: 'E', symbols: ['A'] }, default: 'B' }],
      },
    ],
    ['bytes past 255', { type: 'record', name: 'R', fields: [{ name: 'f', type: 'bytes', default: 'Ā' }] }],
    [
      'a record default missing a field',
      {
        type: 'record',
        name: 'R',
        fields: [
          {
            name: 'f',
            type: { type: 'record', name: 'In', fields: [{ name: 'x', type: 'int' }] },
            default: {},
          },
        ],
      },
    ],
    ['a __proto__ field', { type: 'record', name: 'R', fields: [{ name: '__proto__', type: 'int' }] }],
    ['not an Avro schema', { type: 'nonsense' }],
    ['not JSON', '{"type": "record", '],
  ])('%s', (_name, avro) => {
    expect(() => schemaFromAvro(typeof avro === 'string' ? avro : JSON.stringify(avro))).toThrow(
      expect.objectContaining({ code: 'WK_SCHEMA_IMPORT' }),
    );
  });

  test('fuzz: any JSON is a schema or a WirekitError', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (json) => {
        try {
          schemaFromAvro(json as JsonValue);
        } catch (error) {
          if (!isWirekitError(error)) throw error;
        }
      }),
      { numRuns: 2000 },
    );
  });
});

// fixed is left out here: it becomes bytes, whose length prefix re-encodes differently (its decoding
// is checked above).
describe('random schemas: avsc writes random values, wirekit reads them and writes the same bytes', () => {
  let counter = 0;
  const name = () => `T${counter++}`;
  const leaf = fc.constantFrom('boolean', 'int', 'long', 'float', 'double', 'string', 'bytes');
  const avroType: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    type: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      leaf,
      tie('record'),
      fc.record({ type: fc.constant('array'), items: tie('type') }),
      fc.record({ type: fc.constant('map'), values: tie('type') }),
      leaf.map((inner) => ['null', inner]),
      fc
        .integer({ min: 1, max: 4 })
        .map((n) => ({ type: 'enum', name: name(), symbols: Array.from({ length: n }, (_, i) => `S${i}`) })),
      fc.tuple(tie('record'), tie('record')).map((records) => ['null', ...records]),
    ),
    record: fc.array(tie('type'), { maxLength: 4 }).map((types) => ({
      type: 'record',
      name: name(),
      fields: types.map((type, i) => ({ name: `f${i}`, type })),
    })),
  })).record;

  test('decode then re-encode is the identity on the bytes', () => {
    fc.assert(
      fc.property(avroType, fc.integer({ min: 1, max: 5 }), (avro, count) => {
        const type = avsc.Type.forSchema(avro as never, { wrapUnions: true });
        const text = JSON.stringify(avro);
        const schema = schemaFromAvro(text);
        const reader = createAvroCodec({ schema, writerSchema: text });
        const writer = createAvroCodec({ schema });
        for (let i = 0; i < count; i++) {
          const bytes = type.toBuffer(type.random());
          expect(Buffer.from(writer.encode(reader.decode(bytes)))).toEqual(bytes);
        }
      }),
      { numRuns: 150 },
    );
  });
});
