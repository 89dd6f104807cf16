/**
 * t.either in Avro: an Avro union of the branches in order (a tagged union's records in its place,
 * "null" first for a nullable either), written by the compiled and the interpreted encoder alike,
 * read back, read from other writers' unions by Avro's resolution rules, and read by avsc.
 */
import avsc from 'avsc';
import { describe, expect, test } from 'vitest';
import { createAvroCodec } from '../../../src/codecs/avro/index.js';
import { isWirekitError, type Schema, t } from '../../../src/index.js';
import { type AvroSchemaJson, toAvro } from '../../../src/schema/export/avro.js';

const Circle = t.object('Circle', { kind: t.literal('circle'), r: t.float64() });
const Rect = t.object('Rect', { kind: t.literal('rect'), w: t.float64() });
const Shape = t.union('Shape', 'kind', [Circle, Rect]);
const Spot = t.object('Spot', { lat: t.float64(), lon: t.float64() });

const Row = t.object('Row', {
  id: t.either([t.string(), t.int32(), t.float64()]),
  extra: t.nullable(t.either([t.bool(), Shape, t.array(t.string())])),
  where: t.optional(t.either([Spot, t.string()])),
});

const rows = [
  { id: 'a', extra: null },
  { id: 3, extra: true, where: 'home' },
  { id: 3.5, extra: { kind: 'rect', w: 2 }, where: { lat: 1, lon: 2 } },
  { id: -7, extra: ['x', 'y'] },
];

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

function thrown(body: () => unknown): { code: string; path: unknown; message: string } {
  try {
    body();
  } catch (error) {
    if (isWirekitError(error)) return { code: error.code, path: error.path, message: error.message };
    throw error;
  }
  throw new Error('expected a WirekitError, nothing was thrown');
}

describe('toAvro: an either is an Avro union of its branches', () => {
  test('in order; nullable puts "null" first; a tagged union adds its records in its place', () => {
    const avro = toAvro(Row) as { fields: { name: string; type: unknown }[] };
    expect(avro.fields.map((field) => field.type)).toEqual([
      ['string', 'int', 'double'],
      [
        'null',
        'boolean',
        { type: 'record', name: 'Circle', fields: [{ name: 'r', type: 'double' }] },
        { type: 'record', name: 'Rect', fields: [{ name: 'w', type: 'double' }] },
        { type: 'array', items: 'string' },
      ],
      [
        'null',
        {
          type: 'record',
          name: 'Spot',
          fields: [
            { name: 'lat', type: 'double' },
            { name: 'lon', type: 'double' },
          ],
        },
        'string',
      ],
    ]);
    expect(() => avsc.Type.forSchema(avro as avsc.Schema)).not.toThrow();
  });

  test('a default is written by the first branch; "null" goes last for a non-null default', () => {
    const Defaults = t.object('Defaults', {
      n: t.field(t.either([t.int64({ as: 'number' }), t.string()]), { default: 5 }),
      m: t.field(t.nullable(t.either([t.string(), t.bool()])), { default: 'x' }),
      o: t.field(t.nullable(t.either([t.string(), t.bool()])), { default: null }),
    });
    const avro = toAvro(Defaults) as { fields: unknown[] };
    expect(avro.fields).toEqual([
      { name: 'n', type: ['long', 'string'], default: 5 },
      { name: 'm', type: ['string', 'boolean', 'null'], default: 'x' },
      { name: 'o', type: ['null', 'string', 'boolean'], default: null },
    ]);
  });

  test('branches of two classes that are one Avro type are refused: a union holds each type once', () => {
    for (const either of [
      t.either([t.timestamp(), t.int64({ as: 'number' })]),
      t.either([t.map(t.int32(), t.string()), t.array(t.string())]),
    ]) {
      const error = thrown(() => toAvro(t.object('Twice', { v: either })));
      expect(error.code).toBe('WK_EXPORT_UNSUPPORTED');
      expect(error.message).toMatch(/two branches of the Avro type (long|array)/);
      expect(thrown(() => createAvroCodec({ schema: t.object('Twice', { v: either }) })).code).toBe(
        'WK_EXPORT_UNSUPPORTED',
      );
    }
  });

  test("a default of another branch than the first is refused: Avro reads it by the first branch's type", () => {
    const Late = t.object('Late', { n: t.field(t.either([t.string(), t.bool()]), { default: true }) });
    const error = thrown(() => toAvro(Late));
    expect(error.code).toBe('WK_EXPORT_UNSUPPORTED');
    expect(error.message).toMatch(/first branch.*put that branch first/);
  });
});

describe('the Avro codec writes the branch index as written in the schema, then the value', () => {
  test.each([true, false])('compile: %s', (compile) => {
    const codec = createAvroCodec({ schema: Row, compile });
    for (const row of rows) expect(codec.decode(codec.encode(row))).toEqual(row);
    // id: branch 1 (int) 3; extra: branch 1 (boolean) true; where: branch 2 (string) "home".
    expect(hex(codec.encode(rows[1]))).toBe('020602010408686f6d65');
    // id: branch 2 (double) 3.5; extra: branch 3 (Rect) w=2; where: branch 1 (Spot).
    expect(hex(codec.encode(rows[2]))).toBe(
      '04000000000000' + '0c40' + '06' + '0000000000000040' + '02' + '000000000000f03f' + '0000000000000040',
    );
  });

  test.each([true, false])('a value of no branch is refused at its path (compile: %s)', (compile) => {
    const codec = createAvroCodec({ schema: Row, compile });
    const error = thrown(() => codec.encode({ id: true, extra: null }));
    expect([error.code, error.path]).toEqual(['WK_VALIDATION_FAILED', ['id']]);
    const deep = thrown(() => codec.encode({ id: 1, extra: { kind: 'rect', w: 'wide' } }));
    expect([deep.code, deep.path]).toEqual(['WK_VALIDATION_FAILED', ['extra', 'w']]);
  });

  test('a root either travels in the wrapper record, as any root that is not an object', () => {
    const Id = t.either([t.string(), t.int32()]);
    expect(toAvro(Id)).toEqual({
      type: 'record',
      name: 'Root',
      fields: [{ name: 'value', type: ['string', 'int'] }],
    });
    for (const compile of [true, false]) {
      const codec = createAvroCodec({ schema: Id, compile });
      expect(hex(codec.encode(4))).toBe('0208');
      expect(codec.decode(codec.encode('z'))).toBe('z');
    }
  });

  test("avsc reads the bytes as the union value, and wirekit reads avsc's", () => {
    // Wrapped unions: avsc will not guess a branch of ["string", "int", "double"] by itself.
    const type = avsc.Type.forSchema(toAvro(Row) as avsc.Schema, { wrapUnions: true });
    const codec = createAvroCodec({ schema: Row });
    expect(type.fromBuffer(Buffer.from(codec.encode(rows[2])))).toEqual({
      id: { double: 3.5 },
      extra: { Rect: { w: 2 } },
      where: { Spot: { lat: 1, lon: 2 } },
    });
    expect(type.fromBuffer(Buffer.from(codec.encode(rows[3])))).toEqual({
      id: { int: -7 },
      extra: { array: ['x', 'y'] },
      where: null,
    });
    const theirs = new Uint8Array(type.toBuffer({ id: { int: 12 }, extra: { boolean: false }, where: null }));
    expect(codec.decode(theirs)).toEqual({ id: 12, extra: false });
  });
});

describe('resolution: other writers read into an either', () => {
  const read = (schema: Schema, writerSchema: AvroSchemaJson, value: unknown) => {
    const bytes = new Uint8Array(
      avsc.Type.forSchema(writerSchema as avsc.Schema, { wrapUnions: false }).toBuffer(value),
    );
    return createAvroCodec({ schema, writerSchema }).decode(bytes);
  };
  const record = (type: AvroSchemaJson): AvroSchemaJson => ({
    type: 'record',
    name: 'Row',
    fields: [{ name: 'v', type }],
  });
  const row = (schema: Schema) => t.object('Row', { v: schema });

  test("a writer union in another order: each writer branch is read by the reader's branch of its type", () => {
    const schema = row(t.either([t.int32(), t.string(), t.bool()]));
    const writer = record(['boolean', 'string', 'int']);
    expect(read(schema, writer, { v: 'x' })).toEqual({ v: 'x' });
    expect(read(schema, writer, { v: 9 })).toEqual({ v: 9 });
    expect(read(schema, writer, { v: false })).toEqual({ v: false });
  });

  test('a writer type with no branch of its own is read by the first branch it promotes to', () => {
    const schema = row(t.either([t.string(), t.float64()]));
    expect(read(schema, record('int'), { v: 7 })).toEqual({ v: 7 });
    expect(read(schema, record(['long', 'bytes']), { v: Buffer.from('hi') })).toEqual({ v: 'hi' });
  });

  test('a plain writer field read as a nullable either; "null" read as null', () => {
    const schema = row(t.nullable(t.either([t.string(), t.int64({ as: 'number' })])));
    expect(read(schema, record('long'), { v: 12 })).toEqual({ v: 12 });
    expect(read(schema, record(['null', 'string']), { v: null })).toEqual({ v: null });
  });

  test('a record is read by the object branch of its name', () => {
    const schema = row(t.either([t.string(), Spot]));
    const spot = {
      type: 'record',
      name: 'Spot',
      fields: [
        { name: 'lat', type: 'double' },
        { name: 'lon', type: 'double' },
      ],
    };
    expect(read(schema, record(['string', spot]), { v: { lat: 1, lon: 2 } })).toEqual({
      v: { lat: 1, lon: 2 },
    });
  });

  test('a writer branch no reader branch reads fails only when data selects it', () => {
    const schema = row(t.either([t.string(), t.int32()]));
    const writer = record(['string', 'boolean']);
    expect(read(schema, writer, { v: 'ok' })).toEqual({ v: 'ok' });
    const error = thrown(() => read(schema, writer, { v: true }));
    expect(error.code).toBe('WK_DECODE_SCHEMA_MISMATCH');
    expect(error.message).toContain('no branch of string or int32 reads the writer');
    expect(thrown(() => createAvroCodec({ schema, writerSchema: record('boolean') })).code).toBe(
      'WK_DECODE_SCHEMA_MISMATCH',
    );
  });
});
