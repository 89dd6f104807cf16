/**
 * What zod, valibot and arktype write for common schemas (records, enums, literals, nullable and
 * optional fields, defaults, discriminated unions, nested objects, bounded arrays and strings,
 * integers, tuples), each imported: validate() of the import agrees with Ajv on the library's
 * document and with the library's own parser on the same values. What still does not import is
 * listed below with the refusal it gets, so a change on either side shows up here.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import * as z from 'zod';
import { schemaFromJsonSchema } from '../../../src/schema/import/index.js';
import type { JsonValue } from '../../../src/schema/index.js';
import { disagreements, wirekitAccepts } from './agreement.js';

interface Output {
  readonly label: string;
  readonly document: () => unknown;
  /** The library's own verdict. */
  readonly parses: (value: JsonValue) => boolean;
  readonly values: readonly JsonValue[];
}

const zod = (label: string, schema: z.ZodType, values: JsonValue[]): Output => ({
  label: `zod ${label}`,
  document: () => z.toJSONSchema(schema),
  parses: (value) => schema.safeParse(value).success,
  values,
});
const valibot = (label: string, schema: v.GenericSchema, values: JsonValue[]): Output => ({
  label: `valibot ${label}`,
  document: () => toJsonSchema(schema),
  parses: (value) => v.safeParse(schema, value).success,
  values,
});
const arktype = (label: string, schema: type.Any, values: JsonValue[]): Output => ({
  label: `arktype ${label}`,
  document: () => schema.toJsonSchema(),
  parses: (value) => !(schema(value) instanceof type.errors),
  values,
});

const outputs: Output[] = [
  zod('record of an enum key', z.record(z.enum(['a', 'b']), z.number()), [
    { a: 1, b: 2 },
    { a: 1 },
    { a: 1, b: 2, c: 3 },
    { a: 'x', b: 2 },
  ]),
  zod('partialRecord', z.partialRecord(z.enum(['a', 'b']), z.boolean()), [
    {},
    { a: true },
    { c: true },
    { b: 1 },
  ]),
  zod('record of strings', z.record(z.string(), z.int32()), [{}, { x: 1 }, { x: 1.5 }, { x: 2 ** 31 }]),
  zod('nested strict objects', z.strictObject({ a: z.strictObject({ b: z.string().min(2) }) }), [
    { a: { b: 'xy' } },
    { a: { b: 'x' } },
    { a: {} },
    { a: { b: 'xy', c: 1 } },
  ]),
  zod('nullish field', z.strictObject({ a: z.string().nullish() }), [{}, { a: null }, { a: 's' }, { a: 1 }]),
  zod('string literals', z.literal(['on', 'off']), ['on', 'off', 'x', 1]),
  zod('tuple of one type', z.tuple([z.string(), z.string()]), [['a', 'b'], ['a'], ['a', 'b', 'c'], ['a', 1]]),
  zod('bounded array of bounded strings', z.array(z.string().max(2)).min(1).max(2), [
    ['a'],
    [],
    ['a', 'b', 'c'],
    ['abc'],
  ]),
  zod('int within 0..2^53-1', z.int().min(0), [0, 2 ** 53 - 1, -1, 1.5]),
  valibot(
    'variant',
    v.variant('k', [
      v.strictObject({ k: v.literal('a'), x: v.number() }),
      v.strictObject({ k: v.literal('b') }),
    ]),
    [{ k: 'a', x: 1 }, { k: 'b' }, { k: 'b', x: 1 }, { k: 'c' }],
  ),
  valibot('strictTuple', v.strictTuple([v.number(), v.number()]), [[1, 2], [1], [1, 2, 3], ['1', 2]]),
  valibot('record', v.record(v.string(), v.pipe(v.string(), v.maxLength(2))), [
    {},
    { a: 'xy' },
    { a: 'xyz' },
  ]),
  valibot('nullish field', v.strictObject({ a: v.nullish(v.number()) }), [
    {},
    { a: null },
    { a: 1 },
    { a: 'x' },
  ]),
  valibot('enum', v.enum({ A: 'a', B: 'b' }), ['a', 'b', 'A', 1]),
  arktype('tuple with an optional position', type(['string', 'string?']), [
    ['a'],
    ['a', 'b'],
    [],
    ['a', 'b', 'c'],
  ]),
  arktype('nested object', type({ '+': 'reject', a: { '+': 'reject', b: 'number' } }), [
    { a: { b: 1 } },
    { a: { b: '1' } },
    { a: {} },
  ]),
  arktype('record', type('Record<string, boolean>'), [{}, { a: true }, { a: 1 }]),
  arktype('bounded integer', type('0 <= number.integer <= 10'), [0, 10, 11, -1, 1.5]),
  zod('number within 0..1', z.number().min(0).max(1), [0, 0.5, 1, 1.0000000000000002, -1e-300, '1']),
  zod('positive number', z.number().positive(), [5e-324, 1, 0, -1]),
  zod('float32', z.float32(), [0, -3.4028234663852886e38, 3.4028234663852886e38, 3.5e38, -1e39]),
  arktype('number.safe', type('number.safe'), [0, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 1.5]),
  arktype('exclusive bounds', type('0 < number < 1'), [0.5, 0, 1, 5e-324]),
];

/** Schemas common in the wild that are still refused, with the reason each gets. */
const refused: { label: string; document: () => unknown; message: RegExp }[] = [
  {
    label: 'zod int().positive()',
    document: () => z.toJSONSchema(z.int().positive()),
    message: /1\.\.9007199254740991/,
  },
  { label: 'zod numeric enum', document: () => z.toJSONSchema(z.enum({ A: 1, B: 2 })), message: /ambiguous/ },
  { label: 'zod url', document: () => z.toJSONSchema(z.url()), message: /"uri" is not read/ },
  {
    label: 'zod tuple of different types',
    document: () => z.toJSONSchema(z.tuple([z.string(), z.number()])),
    message: /tuple kind/,
  },
  {
    label: 'valibot object (open)',
    document: () => toJsonSchema(v.object({ a: v.string() })),
    message: /openObjects/,
  },
  {
    label: 'valibot tuple (open)',
    document: () => toJsonSchema(v.tuple([v.string()])),
    message: /additionalItems: false/,
  },
  {
    label: 'valibot integer (unbounded)',
    document: () => toJsonSchema(v.pipe(v.number(), v.integer())),
    message: /no bounds/,
  },
  {
    label: 'zod number with a step',
    document: () => z.toJSONSchema(z.number().multipleOf(0.5)),
    message: /"multipleOf"/,
  },
  { label: 'arktype numeric literals', document: () => type('1 | 2').toJsonSchema(), message: /ambiguous/ },
];

describe('zod, valibot and arktype output for common schemas', () => {
  test.each(outputs)('$label imports and agrees with Ajv and the library', ({ document, parses, values }) => {
    const json = document() as JsonValue;
    const schema = schemaFromJsonSchema(json);
    expect(disagreements(json, schema, values)).toEqual([]);
    const verdicts = values.map((value) => wirekitAccepts(schema, value));
    expect(verdicts).toEqual(values.map(parses));
    expect(new Set(verdicts)).toEqual(new Set([true, false]));
  });

  test.each(refused)('$label is refused by name', ({ document, message }) => {
    expect(() => schemaFromJsonSchema(document() as JsonValue)).toThrow(message);
  });
});
