/**
 * The `x-wirekit-*` annotations: `toJsonSchema(s, { annotations: true })` writes what JSON Schema
 * cannot say and `schemaFromJsonSchema` reads it back, so export → import gives back the schema
 * itself; every annotation is checked, and one that is unknown, misplaced or wrong is refused by name.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isWirekitError, type WirekitError } from '../../../src/errors/index.js';
import { toJsonSchema, wirekitJsonSchemaKeywords } from '../../../src/schema/export/index.js';
import { schemaFromJsonSchema } from '../../../src/schema/import/index.js';
import { type JsonValue, schemaToJson, t, validate } from '../../../src/schema/index.js';
import { EveryKind } from '../../fixtures/every-kind.js';
import { annotatedSchema } from './annotated-schemas.js';

// ajv-formats is CommonJS: under NodeNext its default import is the module object around the plugin.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** Ajv in its default, strict mode, with the formats fastify adds. */
function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020();
  addFormats(ajv);
  return ajv;
}

function refusal(document: JsonValue): WirekitError {
  try {
    schemaFromJsonSchema(document);
  } catch (error) {
    if (isWirekitError(error, 'WK_SCHEMA_IMPORT')) return error;
    throw error;
  }
  throw new Error('the document was imported');
}

function keywordsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keywordsIn(item, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key.startsWith('x-wirekit-')) found.add(key);
      keywordsIn(item, found);
    }
  }
  return found;
}

describe('export → import with annotations gives back the schema', () => {
  test('every kind of the shared fixture, bytes and int64 as bigint included', () => {
    const document = toJsonSchema(EveryKind, { annotations: true });
    expect(schemaToJson(schemaFromJsonSchema(document))).toEqual(schemaToJson(EveryKind));
  });

  test('generated schemas: kinds, bounds, proto types, precisions, fields, groups, unions', () => {
    fc.assert(
      fc.property(annotatedSchema, (schema) => {
        const document = toJsonSchema(schema, { annotations: true });
        const imported = schemaFromJsonSchema(document);
        expect(schemaToJson(imported)).toEqual(schemaToJson(schema));
        // And export → import → export writes the same document.
        expect(toJsonSchema(imported, { annotations: true })).toEqual(document);
      }),
      { numRuns: 300 },
    );
  });

  test('the generated schemas need the annotations: without them few come back', () => {
    const schemas = fc.sample(annotatedSchema, { numRuns: 100, seed: 32 });
    const same = schemas.filter((schema) => {
      try {
        const back = schemaFromJsonSchema(toJsonSchema(schema));
        return JSON.stringify(schemaToJson(back)) === JSON.stringify(schemaToJson(schema));
      } catch {
        return false;
      }
    });
    expect(same.length).toBeLessThan(10);
  });

  test('the generated documents use every annotation', () => {
    const used = new Set<string>();
    for (const schema of fc.sample(annotatedSchema, { numRuns: 200, seed: 7 })) {
      keywordsIn(toJsonSchema(schema, { annotations: true }), used);
    }
    expect([...used].sort()).toEqual([...wirekitJsonSchemaKeywords].sort());
  });
});

describe('toJsonSchema writes annotations only when asked', () => {
  test('by default a document holds none, and strict Ajv compiles it', () => {
    const document = toJsonSchema(EveryKind);
    expect(keywordsIn(document).size).toBe(0);
    expect(() => strictAjv().compile(document as object)).not.toThrow();
  });

  test('strict Ajv refuses the annotated document until told the keywords, which change no verdict', () => {
    const document = toJsonSchema(t.object('Price', { amount: t.decimal({ precision: 6, scale: 2 }) }), {
      annotations: true,
    });
    expect(() => strictAjv().compile(document as object)).toThrow(/unknown keyword: "x-wirekit-/);
    const told = strictAjv();
    told.addVocabulary([...wirekitJsonSchemaKeywords]);
    const check = told.compile(document as object);
    const plain = strictAjv().compile(toJsonSchema(schemaFromJsonSchema(document)) as object);
    for (const amount of ['1234.56', '12345.6', '0.123', '-0.5', 12]) {
      expect(check({ amount })).toBe(plain({ amount }));
    }
  });

  test('each fact sits on the node it belongs to', () => {
    const Color = t.enum('Color', ['red', 'green'], { numbers: [0, 3], aliases: ['Colour'] });
    const document = toJsonSchema(
      t.object(
        'Row',
        {
          n: t.field(t.int16({ min: 0, max: 9, proto: 'sfixed32' }), {
            id: 20,
            aliases: ['num'],
            presence: 'explicit',
          }),
          big: t.int64(),
          at: t.timestamp({ precision: 'us' }),
          blob: t.bytes({ maxLength: 10 }),
          flags: t.array(t.bool(), { packed: false }),
          maybe: t.nullable(t.string(), { proto: 'wrapper' }),
          byId: t.map(t.uint32(), t.string()),
          color: Color,
        },
        { reserved: [30] },
      ),
      { annotations: true },
    ) as { $defs: Record<string, { properties: Record<string, JsonValue> } & Record<string, JsonValue>> };
    const row = document.$defs.Row;
    expect(row?.['x-wirekit-reserved']).toEqual([30]);
    expect(row?.properties.n).toEqual({
      type: 'integer',
      minimum: 0,
      maximum: 9,
      'x-wirekit-kind': 'int16',
      'x-wirekit-proto': 'sfixed32',
      'x-wirekit-id': 20,
      'x-wirekit-aliases': ['num'],
      'x-wirekit-presence': 'explicit',
    });
    expect(row?.properties.big).toMatchObject({ type: 'string', 'x-wirekit-kind': 'int64' });
    expect(row?.properties.at).toMatchObject({ format: 'date-time', 'x-wirekit-precision': 'us' });
    expect(row?.properties.blob).toMatchObject({ maxLength: 16, 'x-wirekit-max-bytes': 10 });
    expect(row?.properties.flags).toMatchObject({ 'x-wirekit-packed': false });
    expect(row?.properties.maybe).toMatchObject({ 'x-wirekit-proto': 'wrapper' });
    expect(row?.properties.byId).toMatchObject({ propertyNames: { 'x-wirekit-kind': 'uint32' } });
    expect(document.$defs.Color).toMatchObject({
      'x-wirekit-numbers': [0, 3],
      'x-wirekit-aliases': ['Colour'],
    });
  });
});

describe('the model options of imported .proto and .avsc files', () => {
  const Imported = t.object('Imported', {
    at: t.timestamp({ precision: 'us', range: '0001-9999' }),
    any: t.json({ proto: 'value' }),
    struct: t.json({ proto: 'struct' }),
    list: t.json({ proto: 'list' }),
    day: t.int32({ avro: 'date' }),
    wall: t.int64({ avro: 'local-timestamp-micros' }),
    id: t.string({ avro: 'uuid' }),
    raw: t.bytes({
      size: 16,
      avro: { name: 'Guid', namespace: 'acme', aliases: ['Id'], logicalType: 'uuid' },
    }),
    price: t.decimal({ precision: 9, scale: 2, avro: { name: 'Money', size: 5 } }),
  });

  test('each is written on its node and read back', () => {
    const document = toJsonSchema(Imported, { annotations: true }) as {
      $defs: { Imported: { properties: Record<string, JsonValue> } };
    };
    const { properties } = document.$defs.Imported;
    expect(properties.at).toMatchObject({
      type: 'string',
      format: 'date-time',
      'x-wirekit-precision': 'us',
      'x-wirekit-range': '0001-9999',
    });
    expect(properties.any).toMatchObject({ 'x-wirekit-proto': 'value' });
    expect(properties.any).not.toHaveProperty('type');
    expect(properties.struct).toMatchObject({ type: 'object', 'x-wirekit-proto': 'struct' });
    expect(properties.list).toMatchObject({ type: 'array', 'x-wirekit-proto': 'list' });
    expect(properties.day).toMatchObject({ 'x-wirekit-kind': 'int32', 'x-wirekit-avro': 'date' });
    expect(properties.wall).toMatchObject({
      'x-wirekit-kind': 'int64',
      'x-wirekit-avro': 'local-timestamp-micros',
    });
    expect(properties.id).toMatchObject({ type: 'string', 'x-wirekit-avro': 'uuid' });
    expect(properties.raw).toMatchObject({
      'x-wirekit-size': 16,
      'x-wirekit-avro': { name: 'Guid', namespace: 'acme', aliases: ['Id'], logicalType: 'uuid' },
    });
    expect(properties.price).toMatchObject({ 'x-wirekit-avro': { name: 'Money', size: 5 } });
    expect(schemaToJson(schemaFromJsonSchema(document as unknown as JsonValue))).toEqual(
      schemaToJson(Imported),
    );
  });

  test('a Struct is an object and a ListValue an array, to Ajv and to validate() alike', () => {
    const Message = t.object('Message', {
      struct: t.json({ proto: 'struct' }),
      list: t.json({ proto: 'list' }),
    });
    for (const annotations of [false, true]) {
      const ajv = strictAjv();
      ajv.addVocabulary([...wirekitJsonSchemaKeywords]);
      const check = ajv.compile(toJsonSchema(Message, { annotations }) as object);
      const samples: JsonValue[] = [{}, { a: [1] }, [], [1, 'x'], 'text', 3, null, true];
      for (const struct of samples) {
        for (const list of samples) {
          const value = { struct, list };
          expect(check(value), JSON.stringify(value)).toBe(validate(Message, value).length === 0);
        }
      }
    }
  });
});

describe('annotations are checked: unknown, misplaced or wrong ones are refused by name', () => {
  const digits = (toJsonSchema(t.int64()) as { pattern: string }).pattern;
  test.each([
    [
      'an unknown annotation',
      { type: 'string', 'x-wirekit-color': 'red' },
      '#/x-wirekit-color',
      /no wirekit annotation/,
    ],
    [
      'an unknown kind',
      { type: 'integer', 'x-wirekit-kind': 'int128' },
      '#/x-wirekit-kind',
      /must be one of/,
    ],
    [
      'a kind beside another type',
      { type: 'string', 'x-wirekit-kind': 'int16' },
      '#',
      /read only beside type "integer"/,
    ],
    [
      'an int16 whose bounds pass its range',
      { type: 'integer', minimum: 0, maximum: 40_000, 'x-wirekit-kind': 'int16' },
      '#',
      /int16: max must be an integer from -32768 to 32767/,
    ],
    [
      'an int16 without bounds (a validator would take any integer)',
      { type: 'integer', 'x-wirekit-kind': 'int16' },
      '#',
      /no bounds/,
    ],
    [
      'an int64 over any text',
      { type: 'string', 'x-wirekit-kind': 'int64' },
      '#',
      /read only on the JSON Schema wirekit writes for it/,
    ],
    [
      'a decimal whose pattern is not its precision and scale',
      { type: 'string', pattern: '^-?[0-9]+$', 'x-wirekit-kind': 'decimal', 'x-wirekit-scale': 2 },
      '#',
      /read only on the JSON Schema wirekit writes for it/,
    ],
    [
      'a declared proto type of another kind',
      { type: 'string', pattern: digits, 'x-wirekit-kind': 'int64', 'x-wirekit-proto': 'fixed32' },
      '#',
      /proto must be one of int64, sint64, sfixed64/,
    ],
    [
      'a proto type without the kind',
      { type: 'integer', minimum: 0, maximum: 9, 'x-wirekit-proto': 'fixed32' },
      '#/x-wirekit-proto',
      /means nothing here/,
    ],
    [
      'a precision on a plain string',
      { type: 'string', 'x-wirekit-precision': 'us' },
      '#/x-wirekit-precision',
      /means nothing here/,
    ],
    [
      'a timestamp unit that is none',
      { type: 'string', format: 'date-time', 'x-wirekit-precision': 'minutes' },
      '#/x-wirekit-precision',
      /one of s, ms, us, ns/,
    ],
    [
      'a field number of 0',
      {
        type: 'object',
        properties: { a: { type: 'boolean', 'x-wirekit-id': 0 } },
        additionalProperties: false,
      },
      '#/properties/a/x-wirekit-id',
      /positive integer/,
    ],
    [
      'a field number outside a property',
      { type: 'boolean', 'x-wirekit-id': 3 },
      '#/x-wirekit-id',
      /means nothing here/,
    ],
    [
      'packed true',
      { type: 'array', items: { type: 'boolean' }, 'x-wirekit-packed': true },
      '#/x-wirekit-packed',
      /only be false/,
    ],
    [
      'aliases on an untagged union',
      { anyOf: [{ type: 'string' }, { type: 'boolean' }], 'x-wirekit-aliases': ['Old'] },
      '#/x-wirekit-aliases',
      /named type/,
    ],
    [
      'a wrapper on no nullable',
      { anyOf: [{ type: 'string' }, { type: 'boolean' }], 'x-wirekit-proto': 'wrapper' },
      '#/x-wirekit-proto',
      /only on a nullable/,
    ],
    ['enum numbers of the wrong count', { enum: ['a', 'b'], 'x-wirekit-numbers': [0] }, '#', /numbers/],
    [
      'oneofs whose not says something else',
      {
        type: 'object',
        properties: { a: { type: 'boolean' }, b: { type: 'boolean' } },
        additionalProperties: false,
        'x-wirekit-oneofs': [{ name: 'pick', fields: ['a', 'b'] }],
        not: { required: ['a'] },
      },
      '#/not',
      /no two members of a group present/,
    ],
    [
      'not without oneofs',
      {
        type: 'object',
        properties: { a: { type: 'boolean' } },
        additionalProperties: false,
        not: { required: ['a'] },
      },
      '#/not',
      /"not" is not read for objects/,
    ],
    [
      'a Struct over any JSON',
      { 'x-wirekit-proto': 'struct' },
      '#',
      /x-wirekit-proto "struct" is read only on \{"type":"object"\}/,
    ],
    [
      'a ListValue over objects',
      { type: 'object', 'x-wirekit-proto': 'list' },
      '#',
      /read only on \{"type":"array"\}/,
    ],
    [
      'a timestamp range that is none',
      { type: 'string', format: 'date-time', 'x-wirekit-range': '1970-2038' },
      '#',
      /range must be '0001-9999'/,
    ],
    [
      'a range on a plain string',
      { type: 'string', 'x-wirekit-range': '0001-9999' },
      '#/x-wirekit-range',
      /means nothing here/,
    ],
    [
      'an Avro logical type of another kind',
      { type: 'string', 'x-wirekit-avro': 'date' },
      '#',
      /avro must be one of uuid/,
    ],
    [
      'an Avro fixed with a key it has not',
      {
        type: 'string',
        contentEncoding: 'base64',
        pattern: (toJsonSchema(t.bytes({ size: 2 })) as { pattern: string }).pattern,
        'x-wirekit-kind': 'bytes',
        'x-wirekit-size': 2,
        'x-wirekit-avro': { name: 'Two', size: 2 },
      },
      '#/x-wirekit-avro',
      /an object of name, namespace, aliases, logicalType/,
    ],
    [
      'integer keys over any text',
      {
        type: 'object',
        propertyNames: { type: 'string', 'x-wirekit-kind': 'int32' },
        additionalProperties: true,
      },
      '#/propertyNames',
      /read only with propertyNames/,
    ],
  ] as const)('%s', (_, document, pointer, message) => {
    const error = refusal(document as JsonValue);
    expect(error.message.startsWith(`${pointer}: `), error.message).toBe(true);
    expect(error.message).toMatch(message);
  });

  test('hand-written places: an OpenAPI 3.0 nullable beside a kind, a nullable enum with aliases', () => {
    const digits = (toJsonSchema(t.uint64()) as { pattern: string }).pattern;
    const document = {
      openapi: '3.0.3',
      components: {
        schemas: {
          Order: {
            type: 'object',
            properties: {
              total: { type: 'string', pattern: digits, nullable: true, 'x-wirekit-kind': 'uint64' },
              // On a property, aliases are the field's; the enum's own go on its node in $defs.
              state: { $ref: '#/components/schemas/State', 'x-wirekit-aliases': ['status'] },
            },
            required: ['total', 'state'],
            additionalProperties: false,
          },
          State: {
            enum: ['open', 'shut', null],
            'x-wirekit-aliases': ['Status'],
            'x-wirekit-numbers': [1, 2],
          },
        },
      },
    };
    const schema = schemaFromJsonSchema(document, { at: '#/components/schemas/Order' });
    const State = t.enum('State', ['open', 'shut'], { aliases: ['Status'], numbers: [1, 2] });
    const expected = t.object('Order', {
      total: t.nullable(t.uint64()),
      state: t.field(t.nullable(State), { aliases: ['status'] }),
    });
    expect(schemaToJson(schema)).toEqual(schemaToJson(expected));
  });

  test('a oneof group of 5,000 members is refused before its 12,497,500 pairs are built', () => {
    const names = Array.from({ length: 5000 }, (_, i) => `f${i}`);
    const error = refusal({
      type: 'object',
      properties: Object.fromEntries(names.map((name) => [name, { type: 'boolean' }])),
      additionalProperties: false,
      'x-wirekit-oneofs': [{ name: 'all', fields: names }],
      not: { anyOf: [{ properties: { f0: true, f1: true }, required: ['f0', 'f1'] }] },
    });
    expect(error.message).toMatch(/^#\/not: .*an anyOf of 12497500 /);
  });

  test('other x- extensions are annotations and are read past', () => {
    const schema = schemaFromJsonSchema({ type: 'string', 'x-internal': true, 'x-go-type': 'string' });
    expect(schemaToJson(schema)).toEqual(schemaToJson(t.string()));
  });
});
