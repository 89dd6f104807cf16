/**
 * arktype's `toJsonSchema()` output (2020-12) imports; the imported schema judges values as arktype
 * itself, and Ajv on arktype's document, do.
 */
import { type Type, type } from 'arktype';
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

  test('arktype’s string formats import, string.uuid (an anyOf of a pattern and two consts) as one string, and agree with arktype and Ajv', () => {
    const formats: [string, Type<string>, string[]][] = [
      [
        'string.uuid',
        type('string.uuid'),
        [
          '123e4567-e89b-42d3-a456-426614174000',
          '00000000-0000-0000-0000-000000000000',
          'ffffffff-ffff-ffff-ffff-ffffffffffff',
          'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
          '123e4567-e89b-92d3-a456-426614174000',
          'urn:uuid:123e4567-e89b-42d3-a456-426614174000',
          'x',
        ],
      ],
      [
        'string.uuid.v4',
        type('string.uuid.v4'),
        ['123e4567-e89b-42d3-a456-426614174000', '123e4567-e89b-12d3-a456-426614174000'],
      ],
      ['string.email', type('string.email'), ['a.b+c@example.com', 'a@b', 'a@b.c0m', '@b.com']],
      ['string.ip.v4', type('string.ip.v4'), ['192.168.0.1', '256.0.0.1']],
      ['string.ip', type('string.ip'), ['192.168.0.1', '::1', '1::2::3', 'x']],
      ['string.semver', type('string.semver'), ['1.2.3', '1.2', '1.2.3-rc.1+b']],
    ];
    for (const [name, checker, texts] of formats) {
      const json = checker.toJsonSchema() as JsonValue;
      const imported = schemaFromJsonSchema(json);
      expect({ name, kind: imported.kind, off: disagreements(json, imported, texts) }).toEqual({
        name,
        kind: 'string',
        off: [],
      });
      expect({ name, verdicts: texts.map((text) => wirekitAccepts(imported, text)) }).toEqual({
        name,
        verdicts: texts.map((text) => !(checker(text) instanceof type.errors)),
      });
    }
    // arktype's ip takes a zone ("%eth0"), but its document says format ipv6, which ajv-formats
    // refuses with a zone: the import follows the document, as Ajv does.
    const ip = type('string.ip');
    const json = ip.toJsonSchema() as JsonValue;
    expect(ip('fe80::1%eth0') instanceof type.errors).toBe(false);
    expect(disagreements(json, schemaFromJsonSchema(json), ['fe80::1%eth0'])).toEqual([]);
    expect(wirekitAccepts(schemaFromJsonSchema(json), 'fe80::1%eth0')).toBe(false);
  });
});
