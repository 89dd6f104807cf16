/**
 * Sized bytes and the declared Avro forms (schema/avro-forms.ts): what the builders refuse, the
 * schema JSON that carries them, JSON Schema's exact length for a size (agreeing with validate()
 * through ajv), and every decoder refusing bytes of another length that a writer of unsized bytes
 * sent, as the encoders refuse them (test/codecs/cross-format-outcomes.test.ts).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { formatNames } from '../../src/codecs/core/codec.js';
import { createCodec } from '../../src/codecs/registry.js';
import { isWirekitError } from '../../src/errors/index.js';
import { toAvro } from '../../src/schema/export/avro.js';
import { toJsonSchema } from '../../src/schema/export/json-schema.js';
import { schemaFromJsonSchema } from '../../src/schema/import/index.js';
import { schemaFromJson, schemaToJson, t, validate } from '../../src/schema/index.js';

describe('the builders refuse forms that do not fit', () => {
  test.each([
    ['size beside maxLength', () => t.bytes({ size: 4, maxLength: 4 })],
    ['a negative size', () => t.bytes({ size: -1 })],
    ['a fixed name without a size', () => t.bytes({ avro: { name: 'Hash' } })],
    ['a uuid of 15 bytes', () => t.bytes({ size: 15, avro: { name: 'Id', logicalType: 'uuid' } })],
    ['a duration of 16 bytes', () => t.bytes({ size: 16, avro: { name: 'D', logicalType: 'duration' } })],
    ['a fixed name that is no Avro name', () => t.bytes({ size: 4, avro: { name: '4x' } })],
    ['a date on an int16', () => t.int16({ avro: 'date' } as never)],
    ['a long form on an int32', () => t.int32({ avro: 'time-micros' as never })],
    ['an int form on an int64', () => t.int64({ avro: 'date' as never })],
    ['a logical type on a uint64', () => t.uint64({ avro: 'time-micros' } as never)],
    ['a string form that is not uuid', () => t.string({ avro: 'date' as never })],
    ['a fixed decimal without a scale', () => t.decimal({ precision: 4, avro: { name: 'M', size: 2 } })],
    // 2 bytes of two's complement hold 32767: four digits, not five.
    [
      'a fixed too small for the precision',
      () => t.decimal({ precision: 5, scale: 0, avro: { name: 'M', size: 2 } }),
    ],
  ])('%s', (_name, build) => {
    expect(build).toThrow(expect.objectContaining({ code: 'WK_SCHEMA_INVALID' }));
  });

  test('a fixed just wide enough is accepted', () => {
    expect(t.decimal({ precision: 4, scale: 0, avro: { name: 'M', size: 2 } }).avro).toEqual({
      name: 'M',
      size: 2,
    });
  });
});

const Forms = t.object('Forms', {
  day: t.int32({ avro: 'date' }),
  nanos: t.int64({ avro: 'local-timestamp-nanos' }),
  id: t.string({ avro: 'uuid' }),
  hash: t.bytes({ size: 16 }),
  span: t.bytes({
    size: 12,
    avro: { name: 'Span', namespace: 'time', aliases: ['Dur'], logicalType: 'duration' },
  }),
  money: t.decimal({ precision: 9, scale: 2, avro: { name: 'Money', size: 4 } }),
});

test('the schema JSON carries sizes and Avro forms, and reads them back', () => {
  const json = schemaToJson(Forms);
  expect(json.root).toMatchObject({
    fields: [
      { schema: { kind: 'int32', avro: 'date' } },
      { schema: { kind: 'int64', avro: 'local-timestamp-nanos' } },
      { schema: { kind: 'string', avro: 'uuid' } },
      { schema: { kind: 'bytes', size: 16 } },
      { schema: { kind: 'bytes', size: 12, avro: { name: 'Span', logicalType: 'duration' } } },
      { schema: { kind: 'decimal', avro: { name: 'Money', size: 4 } } },
    ],
  });
  const back = schemaFromJson(JSON.parse(JSON.stringify(json)));
  expect(schemaToJson(back)).toEqual(json);
  expect(toAvro(back)).toEqual(toAvro(Forms));
});

test('a schema document with a form its kind cannot declare is refused', () => {
  const document = schemaToJson(t.object('R', { n: t.int32({ avro: 'date' }) }));
  const text = JSON.stringify(document).replace('"int32"', '"int16"');
  expect(() => schemaFromJson(JSON.parse(text))).toThrow(
    expect.objectContaining({ code: 'WK_SCHEMA_INVALID' }),
  );
});

test('unnamed sized bytes are a fixed named after their field, one per field', () => {
  const avro = toAvro(t.object('Keys', { a: t.bytes({ size: 2 }), b: t.array(t.bytes({ size: 3 })) }));
  expect(avro).toMatchObject({
    fields: [
      { name: 'a', type: { type: 'fixed', name: 'Keys_a_Fixed', size: 2 } },
      { name: 'b', type: { type: 'array', items: { type: 'fixed', name: 'Keys_b_Fixed', size: 3 } } },
    ],
  });
});

test('two fixed types of one name that differ are refused by toAvro', () => {
  const schema = t.object('Twice', {
    a: t.bytes({ size: 2, avro: { name: 'Hash' } }),
    b: t.bytes({ size: 3, avro: { name: 'Hash' } }),
  });
  expect(() => toAvro(schema)).toThrow(expect.objectContaining({ code: 'WK_EXPORT_UNSUPPORTED' }));
});

describe('JSON Schema: the base64 text of exactly `size` bytes, as validate() decides', () => {
  test.each([1, 2, 3, 4, 16])('size %i', (size) => {
    const schema = t.bytes({ size });
    const check = new Ajv2020({ strict: true }).compile(toJsonSchema(schema) as object);
    for (const length of [0, size - 1, size, size + 1, size + 2].filter((n) => n >= 0)) {
      const bytes = new Uint8Array(length).fill(7);
      const text = Buffer.from(bytes).toString('base64');
      expect(check(text), `${length} bytes`).toBe(validate(schema, bytes).length === 0);
    }
    expect(check(Buffer.alloc(size + 1).toString('base64'))).toBe(false);
  });
});

test('with annotations, a size goes out as x-wirekit-size and comes back from schemaFromJsonSchema', () => {
  const schema = t.object('R', { b: t.bytes({ size: 16 }) });
  const document = toJsonSchema(schema, { annotations: true });
  expect(JSON.stringify(document)).toContain('"x-wirekit-size":16');
  expect(schemaToJson(schemaFromJsonSchema(document as never))).toEqual(schemaToJson(schema));
});

describe('decoders refuse bytes of another length that a writer of unsized bytes sent', () => {
  const sized = t.object('Holder', { b: t.bytes({ size: 4 }) });
  const unsized = t.object('Holder', { b: t.bytes() });
  const rows = (format: string, value: unknown) => (format === 'arrow' ? [value] : value);
  test.each(formatNames.flatMap((format) => [true, false].map((compile) => [format, compile] as const)))(
    '%s (compile: %s)',
    (format, compile) => {
      const writer = createCodec(format, { schema: unsized });
      const options =
        format === 'avro'
          ? { schema: sized, compile, writerSchema: JSON.stringify(toAvro(unsized)) }
          : { schema: sized, compile };
      const reader = createCodec(format, options as never);
      for (const length of [3, 5]) {
        const bytes = writer.encode(rows(format, { b: new Uint8Array(length) }) as never);
        let error: unknown;
        try {
          reader.decode(bytes);
        } catch (caught) {
          error = caught;
        }
        expect(isWirekitError(error) ? error.code : error, `${length} bytes`).toBe(
          'WK_DECODE_SCHEMA_MISMATCH',
        );
      }
      const bytes = writer.encode(rows(format, { b: Uint8Array.of(1, 2, 3, 4) }) as never);
      const read = reader.decode(bytes) as { b: Uint8Array } | { b: Uint8Array }[];
      expect(Array.isArray(read) ? read[0] : read).toEqual({ b: Uint8Array.of(1, 2, 3, 4) });
    },
  );
});
