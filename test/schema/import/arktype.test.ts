/**
 * arktype's `toJsonSchema()` output (2020-12) imports; the imported schema judges values as arktype
 * itself, and Ajv on arktype's document, do.
 */
import { type } from 'arktype';
import { describe, expect, test } from 'vitest';
import { schemaFromJsonSchema } from '../../../src/schema/import/index.js';
import type { JsonValue, ObjectSchema } from '../../../src/schema/index.js';
import { disagreements, wirekitAccepts } from './agreement.js';

// "+": "reject" closes the object (additionalProperties: false), as validate() does.
const Order = type({
  '+': 'reject',
  name: 'string <= 20',
  age: '0 <= number.integer <= 150',
  tags: 'string[]',
  'nick?': 'string',
  kind: "'a' | 'b'",
  label: 'string | boolean',
  note: 'string | null',
});

const valid = { name: 'w', age: 30, tags: ['x'], kind: 'a', label: true, note: null };

const values: JsonValue[] = [
  valid,
  { ...valid, nick: 'n' },
  { ...valid, label: 'yes' },
  { ...valid, note: 'text' },
  { ...valid, name: 'x'.repeat(21) },
  { ...valid, age: 151 },
  { ...valid, age: 1.5 },
  { ...valid, tags: [1] },
  { ...valid, kind: 'c' },
  { ...valid, label: 1 },
  { ...valid, note: 1 },
  { ...valid, other: 1 },
];

describe('arktype toJsonSchema() → schemaFromJsonSchema', () => {
  const document = Order.toJsonSchema() as JsonValue;
  const schema = schemaFromJsonSchema(document, { name: 'Order' });

  test('every field comes in with the kind it has in arktype', () => {
    const kinds = Object.fromEntries(
      (schema as ObjectSchema).fields.map((field) => [
        field.name,
        field.schema.kind === 'optional' ? `optional ${field.schema.inner.kind}` : field.schema.kind,
      ]),
    );
    expect(kinds).toEqual({
      name: 'string',
      age: 'uint8',
      tags: 'array',
      nick: 'optional string',
      kind: 'enum',
      label: 'either',
      note: 'nullable',
    });
  });

  test('validate() agrees with Ajv on arktype’s document, and with arktype itself', () => {
    expect(disagreements(document, schema, values)).toEqual([]);
    const arktypeVerdicts = values.map((value) => !(Order(value) instanceof type.errors));
    expect(values.map((value) => wirekitAccepts(schema, value))).toEqual(arktypeVerdicts);
    expect(arktypeVerdicts.filter(Boolean)).toHaveLength(4);
  });

  test('arktype’s string.uuid (an anyOf of a pattern and two consts, format beside it) is refused by name', () => {
    const uuid = type('string.uuid').toJsonSchema() as JsonValue;
    expect(() => schemaFromJsonSchema(uuid)).toThrow(/format|anyOf/);
  });
});
