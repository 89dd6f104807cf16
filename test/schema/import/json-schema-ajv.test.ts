/**
 * For every keyword the importer accepts, Ajv and wirekit give the same verdict on the same JSON
 * values: hand-picked near misses at each keyword's edges, then random JSON values (fast-check).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { toJsonSchema } from '../../../src/schema/export/index.js';
import { schemaFromJsonSchema } from '../../../src/schema/import/index.js';
import { type JsonValue, type Schema, schemaToJson, t } from '../../../src/schema/index.js';
import { ajvFor, disagreements, type Reading, wirekitAccepts } from './agreement.js';

const dialect = 'https://json-schema.org/draft/2020-12/schema';

interface Case {
  readonly keyword: string;
  readonly document: JsonValue;
  /** Values at the keyword's edges; each case must hold both accepted and refused ones. */
  readonly values: readonly JsonValue[];
  readonly reading?: Reading;
  /**
   * Values on which the verdicts are known to differ, each for a reason given where it is listed;
   * the test holds the list exact, so a fix on either side shows up as a failure to update it.
   */
  readonly known?: readonly JsonValue[];
}

const person = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0, maximum: 255 } },
  required: ['name'],
  additionalProperties: false,
};

/** The annotated documents toJsonSchema writes for these kinds. */
const annotated = (schema: Schema): JsonValue => toJsonSchema(schema, { annotations: true });

const cases: readonly Case[] = [
  {
    keyword: 'x-wirekit-kind int64: a bigint as its digits',
    document: annotated(t.int64({ proto: 'sfixed64' })),
    values: [
      '0',
      '-0',
      '9223372036854775807',
      '-9223372036854775808',
      '9223372036854775808',
      '-9223372036854775809',
      '9999999999999999999',
      '10000000000000000000',
      '01',
      '1.5',
      '',
      5,
      null,
    ],
  },
  {
    keyword: 'x-wirekit-kind uint64: a bigint as its digits',
    document: annotated(t.uint64()),
    values: ['0', '18446744073709551615', '18446744073709551616', '99999999999999999999', '-1', 7],
  },
  {
    keyword: 'x-wirekit-kind decimal with precision and scale',
    document: annotated(t.decimal({ precision: 6, scale: 2 })),
    values: ['1234.56', '-1234.5', '0', '0.1', '12345.6', '0.123', '1e3', '.5', '1.', '01.5', 12, null],
  },
  { keyword: 'type boolean', document: { type: 'boolean' }, values: [true, false, 0, 'true', null] },
  {
    keyword: 'type number, minimum and maximum (float64 bounds)',
    document: { type: 'number', minimum: -1.5, maximum: 1 },
    values: [-1.5, 1, 0, 1.0000000000000002, -1.5000000000000002, 1e308, '1', null],
  },
  {
    keyword: 'type number, exclusive bounds (2020-12 and draft-07 numbers)',
    document: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    values: [5e-324, 0.5, 0.9999999999999999, 0, -0, 1, -5e-324],
  },
  {
    keyword: 'type number, both minimum and exclusiveMinimum',
    document: { type: 'number', minimum: 2, exclusiveMinimum: 2, maximum: 3, exclusiveMaximum: 4 },
    values: [2, 2.0000000000000004, 3, 3.0000000000000004],
  },
  {
    keyword: 'type integer, int8 bounds',
    document: { type: 'integer', minimum: -128, maximum: 127 },
    values: [-128, 127, 0, -129, 128, 1.5, '1', null],
  },
  {
    keyword: 'type integer, uint32 bounds',
    document: { type: 'integer', minimum: 0, maximum: 4_294_967_295 },
    values: [0, 4_294_967_295, 4_294_967_296, -1, 2.5],
  },
  {
    keyword: 'type integer, safe-integer bounds (zod int)',
    document: { type: 'integer', minimum: -9_007_199_254_740_991, maximum: 9_007_199_254_740_991 },
    values: [0, 9_007_199_254_740_991, -9_007_199_254_740_991, 9_007_199_254_740_992, 1.5, '5'],
  },
  {
    keyword: 'format int32',
    document: { type: 'integer', format: 'int32' },
    values: [2_147_483_647, -2_147_483_648, 2_147_483_648, 0.5],
  },
  { keyword: 'type number', document: { type: 'number' }, values: [0, -1.5, 1e308, '1', null, 'NaN'] },
  {
    keyword: "the exporter's float (NaN and infinities as strings)",
    document: { anyOf: [{ type: 'number' }, { enum: ['NaN', 'Infinity', '-Infinity'] }] },
    values: [1.5, 'NaN', 'Infinity', '-Infinity', 'nan', 'inf', null],
    // These strings are the JSON form of the non-finite floats, which this spelling exists to carry.
    reading: { floatSpellings: true },
  },
  { keyword: 'type string', document: { type: 'string' }, values: ['', 'x', 'Zoë 🚀', 1, null] },
  {
    keyword: 'minLength, maxLength (code points)',
    document: { type: 'string', minLength: 2, maxLength: 3 },
    values: ['a', 'ab', 'abc', 'abcd', '🚀', '🚀🚀', '🚀🚀🚀', '🚀🚀🚀🚀', 'é́'],
  },
  {
    keyword: 'pattern (unanchored, unicode)',
    document: { type: 'string', pattern: '[0-9]{3}' },
    values: ['123', 'a123b', '12', '', 'x1y2z3', '١٢٣'],
  },
  {
    keyword: 'pattern (anchored, with a unicode class)',
    document: { type: 'string', pattern: '^\\p{L}+$' },
    values: ['abc', 'Zoë', 'a1', '', '日本'],
  },
  {
    keyword: 'format uuid',
    document: { type: 'string', format: 'uuid' },
    values: [
      '123e4567-e89b-12d3-a456-426614174000',
      '123E4567-E89B-12D3-A456-426614174000',
      'urn:uuid:123e4567-e89b-12d3-a456-426614174000',
      '123e4567-e89b-12d3-a456-42661417400',
      '123e4567e89b12d3a456426614174000',
      'g23e4567-e89b-12d3-a456-426614174000',
    ],
  },
  {
    keyword: 'format date-time',
    document: { type: 'string', format: 'date-time' },
    values: [
      '2024-02-29T12:34:56Z',
      '2024-02-29T12:34:56.789Z',
      '2024-02-29T12:34:56.123456789+05:30',
      '2024-02-29t12:34:56z',
      '2023-02-29T12:34:56Z',
      '2024-02-29T24:00:00Z',
      '2024-02-29T12:34:56',
      '2024-02-29',
      '12:34:56Z',
      '',
      '2024-02-29T12:34:56+0530',
      '2024-02-29T12:34:56+05',
      '2016-12-31T23:59:60Z',
      '+275760-09-13T00:00:00.000Z',
    ],
    known: [
      // ajv-formats takes offsets without the colon RFC 3339 requires; wirekit does not.
      '2024-02-29T12:34:56+0530',
      '2024-02-29T12:34:56+05',
      // A leap second: RFC 3339 text, but no Date holds it.
      '2016-12-31T23:59:60Z',
      // The expanded year toISOString writes past 9999, which wirekit reads back and RFC 3339 lacks.
      '+275760-09-13T00:00:00.000Z',
    ],
  },
  {
    keyword: 'prefixItems of one schema, items: false (zod and arktype tuples)',
    document: {
      $schema: dialect,
      type: 'array',
      prefixItems: [
        { type: 'integer', minimum: 0, maximum: 9 },
        { type: 'integer', minimum: 0, maximum: 9 },
      ],
      items: false,
      minItems: 1,
    },
    values: [[1], [1, 2], [], [1, 2, 3], [1, 10], ['a'], [1.5], 'ab', null],
  },
  {
    keyword: 'prefixItems with the same schema after them',
    document: {
      $schema: dialect,
      type: 'array',
      prefixItems: [{ type: 'string' }],
      items: { type: 'string' },
      minItems: 1,
      maxItems: 3,
    },
    values: [['a'], ['a', 'b', 'c'], [], ['a', 'b', 'c', 'd'], ['a', 1], [1]],
  },
  {
    keyword: 'draft-07 items list with additionalItems: false (valibot’s strictTuple)',
    document: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'string' }, { type: 'string' }],
      additionalItems: false,
    },
    values: [[], ['a'], ['a', 'b'], ['a', 'b', 'c'], [1], ['a', null]],
  },
  {
    keyword: 'draft-07 items list with the same schema as additionalItems',
    document: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'boolean' }],
      additionalItems: { type: 'boolean' },
      minItems: 2,
    },
    values: [[true, false], [true, false, true], [true], [true, 1], []],
  },
  {
    keyword: 'string consts in an anyOf, with null (valibot’s union of literals)',
    document: { anyOf: [{ const: 'a' }, { type: 'string', const: 'b' }, { type: 'null' }] },
    values: ['a', 'b', null, 'c', 'A', 1],
  },
  {
    keyword: 'string consts in a oneOf',
    document: { oneOf: [{ const: 'a' }, { const: 'b' }] },
    values: ['a', 'b', 'c', null],
  },
  {
    keyword: 'texts in an anyOf told apart by pattern, format and const, a format beside',
    document: {
      format: 'hostname',
      anyOf: [{ type: 'string', pattern: '^a' }, { type: 'string', format: 'ipv4' }, { const: 'localhost' }],
    },
    values: ['abc.com', 'a-', '1.2.3.4', 'localhost', 'b.com', '', 'a..b', 1, null],
  },
  {
    keyword: 'enum of strings',
    document: { enum: ['red', 'green'] },
    values: ['red', 'green', 'blue', 'Red', 0, null],
  },
  {
    keyword: 'enum with null',
    document: { type: ['string', 'null'], enum: ['a', 'b', null] },
    values: ['a', null, 'c', 0],
  },
  { keyword: 'enum of one number', document: { enum: [3] }, values: [3, 3.0, 4, '3'] },
  { keyword: 'const string', document: { const: 'v1' }, values: ['v1', 'v2', 1, null] },
  { keyword: 'const number', document: { type: 'number', const: 1.5 }, values: [1.5, 1, '1.5'] },
  { keyword: 'const boolean', document: { const: false }, values: [false, true, 0, null] },
  {
    keyword: 'type [T, "null"]',
    document: { type: ['integer', 'null'], minimum: 0, maximum: 255 },
    values: [0, 255, null, 256, -1, 'x'],
  },
  {
    keyword: 'anyOf [T, null]',
    document: { anyOf: [{ type: 'string', maxLength: 2 }, { type: 'null' }] },
    values: ['ab', null, 'abc', 1],
  },
  {
    keyword: 'array: items, minItems, maxItems',
    document: { type: 'array', items: { type: 'boolean' }, minItems: 1, maxItems: 2 },
    values: [[true], [true, false], [], [true, true, true], [1], 'x', null],
  },
  { keyword: 'array without items', document: { type: 'array' }, values: [[], [1, 'a', null], {}] },
  {
    keyword: 'object: properties, required, additionalProperties false',
    document: person,
    values: [
      { name: 'a' },
      { name: 'a', age: 3 },
      { age: 3 },
      { name: 'a', age: 300 },
      { name: 'a', other: 1 },
      { name: 'a', age: null },
      { name: 1 },
      [],
      null,
    ],
  },
  {
    keyword: 'additionalProperties: schema (a map)',
    document: { type: 'object', additionalProperties: { type: 'integer', minimum: 0, maximum: 255 } },
    values: [{}, { a: 1, b: 255 }, { a: 256 }, { a: 'x' }, [], null],
  },
  {
    keyword: 'propertyNames on a map',
    document: {
      type: 'object',
      propertyNames: { pattern: '^[a-z]+$', maxLength: 3 },
      additionalProperties: { type: 'boolean' },
    },
    values: [{ ab: true }, { abcd: true }, { A: true }, { ab: 1 }],
  },
  {
    keyword: 'type object alone (a map of any JSON)',
    document: { type: 'object' },
    values: [{}, { a: [1, { b: null }] }, [], 'x', null, { constructor: 1 }, { a: { prototype: 2 } }],
    // The keys that reach a prototype are refused by every wirekit reader, and so by validate().
    known: [{ constructor: 1 }, { a: { prototype: 2 } }],
  },
  {
    keyword: '$ref into $defs, recursion',
    document: {
      $schema: dialect,
      $ref: '#/$defs/Node',
      $defs: {
        Node: {
          type: 'object',
          properties: {
            label: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/Node' } },
          },
          required: ['label', 'children'],
          additionalProperties: false,
        },
      },
    },
    values: [
      { label: 'a', children: [] },
      { label: 'a', children: [{ label: 'b', children: [] }] },
      { label: 'a', children: [{ label: 'b' }] },
      { label: 'a', children: [{ label: 1, children: [] }] },
      { label: 'a' },
    ],
  },
  {
    keyword: 'definitions (draft-07), recursion through the root',
    document: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { value: { $ref: '#/definitions/Count' }, next: { $ref: '#' } },
      required: ['value'],
      additionalProperties: false,
      definitions: { Count: { type: 'integer', minimum: 0, maximum: 65_535 } },
    },
    values: [
      { value: 1 },
      { value: 1, next: { value: 2 } },
      { value: 1, next: { value: -2 } },
      { value: 70_000 },
    ],
  },
  {
    keyword: 'oneOf with a const discriminator (tagged union)',
    document: {
      oneOf: [
        {
          type: 'object',
          properties: { kind: { const: 'circle' }, radius: { type: 'number' } },
          required: ['kind', 'radius'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { kind: { type: 'string', const: 'square' }, side: { type: 'number' } },
          required: ['kind', 'side'],
          additionalProperties: false,
        },
      ],
    },
    values: [
      { kind: 'circle', radius: 1 },
      { kind: 'square', side: 2 },
      { kind: 'circle', side: 2 },
      { kind: 'hexagon', radius: 1 },
      { radius: 1 },
      'circle',
    ],
  },
  {
    keyword: 'minimum, maximum: the narrowest kind, bounds kept (uint8 1..10)',
    document: { type: 'integer', minimum: 1, maximum: 10 },
    values: [1, 10, 5, 0, 11, 255, -1, 1.5, '5'],
  },
  {
    keyword: 'exclusiveMinimum, exclusiveMaximum, fractional bounds',
    document: { type: 'integer', exclusiveMinimum: -3, exclusiveMaximum: 40_000, minimum: -2.5 },
    values: [-2, -3, 39_999, 40_000, 0, -2.5],
  },
  {
    keyword: 'minimum, maximum only uint32 holds',
    document: { type: 'integer', minimum: 3_000_000_000, maximum: 4_000_000_000 },
    values: [3_000_000_000, 4_000_000_000, 2_999_999_999, 4_000_000_001, 0],
  },
  {
    keyword: 'format int32 narrowed by minimum',
    document: { type: 'integer', format: 'int32', minimum: 0 },
    values: [0, 2_147_483_647, -1, 2_147_483_648],
  },
  {
    keyword: 'multipleOf 1 on an integer',
    document: { type: 'integer', minimum: 0, maximum: 9, multipleOf: 1 },
    values: [0, 9, 10, 1.5],
  },
  ...(['anyOf', 'oneOf'] as const).map(
    (keyword): Case => ({
      keyword: `${keyword} of class-disjoint branches (untagged union)`,
      document: {
        [keyword]: [
          { type: 'string', maxLength: 3 },
          { type: 'integer', minimum: 0, maximum: 99 },
          { type: 'boolean' },
          { type: 'array', items: { type: 'string' } },
        ],
      },
      values: ['abc', 'abcd', 5, 100, -1, 1.5, true, ['a'], [1], null, {}],
    }),
  ),
  ...(['anyOf', 'oneOf'] as const).map(
    (keyword): Case => ({
      keyword: `${keyword} of objects told apart by required keys`,
      document: {
        [keyword]: [
          {
            type: 'object',
            properties: { lat: { type: 'number' }, lon: { type: 'number' } },
            required: ['lat', 'lon'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: { name: { type: 'string' }, near: { type: 'string' } },
            required: ['name'],
            additionalProperties: false,
          },
        ],
      },
      values: [
        { lat: 1, lon: 2 },
        { name: 'x' },
        { name: 'x', near: 'y' },
        { lat: 1 },
        { lat: 1, lon: 2, name: 'x' },
        { name: 1 },
        'x',
      ],
    }),
  ),
  {
    keyword: 'anyOf with null and two branches (nullable untagged union)',
    document: { anyOf: [{ type: 'string' }, { type: 'null' }, { type: 'number' }] },
    values: ['a', 1.5, null, true, []],
  },
  {
    // An integer past the integer branch's bounds goes to the float branch (either.ts), as anyOf takes it.
    keyword: 'anyOf a bounded integer and a number',
    document: { anyOf: [{ type: 'integer', minimum: 0, maximum: 9 }, { type: 'number' }] },
    values: [0, 9, 10, -1, 3.5, 1e300, 'x', null],
  },
  {
    keyword: 'a list of types, each with its own keywords',
    document: { type: ['string', 'integer', 'null'], maxLength: 2, minimum: 0, maximum: 9 },
    values: ['ab', 'abc', 0, 9, 10, null, true, 1.5],
  },
  {
    keyword: 'an enum of strings, a number and a boolean',
    document: { enum: ['a', 'b', 1, true, null] },
    values: ['a', 'b', 'c', 1, 2, true, false, null],
  },
];

/** Whether a value has a key wirekit refuses everywhere (`__proto__`, `constructor`, `prototype`). */
function holdsUnsafeKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsUnsafeKey);
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(
    ([key, item]) =>
      key === '__proto__' || key === 'constructor' || key === 'prototype' || holdsUnsafeKey(item),
  );
}

describe('Ajv and validate() of the imported schema agree, keyword by keyword', () => {
  test('with class-disjoint branches, anyOf and oneOf import as one schema', () => {
    const pairs = cases.filter((c) => c.keyword.startsWith('anyOf of ') || c.keyword.startsWith('oneOf of '));
    expect(pairs).toHaveLength(4);
    for (let i = 0; i < pairs.length; i += 2) {
      const [any, one] = [pairs[i], pairs[i + 1]].map((c) =>
        schemaToJson(schemaFromJsonSchema(c?.document ?? null)),
      );
      expect(one).toEqual(any);
    }
  });

  test.each(cases)('$keyword', ({ document, values, reading, known = [] }) => {
    const schema = schemaFromJsonSchema(document);
    const found = disagreements(document, schema, values, reading).map(({ value }) => value);
    expect(found).toEqual(known);
    // Each case tells both verdicts apart, so it would notice a mapping that accepts everything.
    const ajv = ajvFor(document);
    expect(new Set(values.map((value) => ajv(value)))).toEqual(new Set([true, false]));
  });

  test.each(cases)('$keyword: random JSON values', ({ document, reading, known = [] }) => {
    const schema = schemaFromJsonSchema(document);
    const ajv = ajvFor(document);
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (value) => {
        if (known.includes(value as JsonValue) || holdsUnsafeKey(value)) return;
        expect(wirekitAccepts(schema, value as JsonValue, reading)).toBe(ajv(value as JsonValue));
      }),
      { numRuns: 200 },
    );
  });
});
