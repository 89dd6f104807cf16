/**
 * valibot's schemas, through `@valibot/to-json-schema` (which writes draft-07), import; the imported
 * schema judges values as valibot itself, and Ajv on valibot's document, do.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { schemaFromJsonSchema } from '../../../src/schema/import/index.js';
import type { JsonValue, ObjectSchema } from '../../../src/schema/index.js';
import { disagreements, wirekitAccepts } from './agreement.js';

// strictObject: valibot's plain object lets other keys through, which validate() refuses.
const Order = v.strictObject({
  id: v.pipe(v.string(), v.uuid()),
  age: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(150)),
  tags: v.array(v.pipe(v.string(), v.maxLength(10))),
  nick: v.optional(v.string()),
  kind: v.picklist(['a', 'b']),
  label: v.union([v.string(), v.boolean()]),
  note: v.nullable(v.string()),
  price: v.number(),
});

const valid = {
  id: '123e4567-e89b-42d3-a456-426614174000',
  age: 30,
  tags: ['x'],
  kind: 'a',
  label: true,
  note: null,
  price: 1.5,
};

const values: JsonValue[] = [
  valid,
  { ...valid, nick: 'n' },
  { ...valid, label: 'yes' },
  { ...valid, note: 'text' },
  { ...valid, id: 'not-a-uuid' },
  { ...valid, age: 151 },
  { ...valid, age: -1 },
  { ...valid, age: 1.5 },
  { ...valid, tags: ['x'.repeat(11)] },
  { ...valid, kind: 'c' },
  { ...valid, label: 1 },
  { ...valid, note: 1 },
  { ...valid, price: '1.5' },
  { ...valid, other: 1 },
];

describe('valibot → @valibot/to-json-schema → schemaFromJsonSchema', () => {
  const document = toJsonSchema(Order) as JsonValue;
  const schema = schemaFromJsonSchema(document, { name: 'Order' });

  test('every field comes in with the kind it has in valibot', () => {
    const kinds = Object.fromEntries(
      (schema as ObjectSchema).fields.map((field) => [
        field.name,
        field.schema.kind === 'optional' ? `optional ${field.schema.inner.kind}` : field.schema.kind,
      ]),
    );
    expect(kinds).toEqual({
      id: 'string',
      age: 'uint8',
      tags: 'array',
      nick: 'optional string',
      kind: 'enum',
      label: 'either',
      note: 'nullable',
      price: 'float64',
    });
  });

  test('validate() agrees with Ajv on valibot’s document, and with valibot itself', () => {
    expect(disagreements(document, schema, values)).toEqual([]);
    const valibotVerdicts = values.map((value) => v.safeParse(Order, value).success);
    expect(values.map((value) => wirekitAccepts(schema, value))).toEqual(valibotVerdicts);
    expect(valibotVerdicts.filter(Boolean)).toHaveLength(4);
  });

  test('valibot’s string formats (a format alone) import, and agree with valibot and Ajv', () => {
    const formats: [string, v.GenericSchema<string>, string[]][] = [
      ['email', v.pipe(v.string(), v.email()), ['a.b@example.com', 'a@b', '@b.com', 'a b@c.com']],
      ['uuid', v.pipe(v.string(), v.uuid()), ['123e4567-e89b-42d3-a456-426614174000', '123e4567e89b', 'x']],
      ['isoDate', v.pipe(v.string(), v.isoDate()), ['2024-02-29', '2024-13-01', '24-01-01']],
      ['ipv4', v.pipe(v.string(), v.ipv4()), ['192.168.0.1', '256.0.0.1', '1.2.3']],
    ];
    for (const [name, format, texts] of formats) {
      const json = toJsonSchema(format) as JsonValue;
      const imported = schemaFromJsonSchema(json);
      expect({ name, kind: imported.kind, off: disagreements(json, imported, texts) }).toEqual({
        name,
        kind: 'string',
        off: [],
      });
      expect({ name, verdicts: texts.map((text) => wirekitAccepts(imported, text)) }).toEqual({
        name,
        verdicts: texts.map((text) => v.safeParse(format, text).success),
      });
    }
    // isoTimestamp is format date-time alone: a timestamp, as any date-time without a pattern.
    expect(schemaFromJsonSchema(toJsonSchema(v.pipe(v.string(), v.isoTimestamp())) as JsonValue).kind).toBe(
      'timestamp',
    );
  });
});
