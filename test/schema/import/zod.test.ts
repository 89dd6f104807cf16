/**
 * zod v4's `toJSONSchema` output, the way most TypeScript teams hold JSON Schema today, imports; the
 * imported schema judges values as zod itself, and Ajv on zod's document, do.
 */
import { describe, expect, test } from 'vitest';
import * as z from 'zod';
import { schemaFromJsonSchema } from '../../../src/schema/import/index.js';
import type { JsonValue, ObjectSchema } from '../../../src/schema/index.js';
import { disagreements, wirekitAccepts } from './agreement.js';

const Shape = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('circle'), radius: z.number() }),
  z.object({ kind: z.literal('square'), side: z.number() }),
]);

const Order = z.object({
  name: z.string().min(1).max(20),
  quantity: z.int32(),
  count: z.int(),
  age: z.number().int().min(0).max(255).optional(),
  code: z.string().regex(/^[A-Z]{3}$/),
  tags: z.array(z.string()).max(3),
  role: z.enum(['admin', 'user']),
  nick: z.string().nullable(),
  shape: Shape,
  flags: z.record(z.string(), z.boolean()),
  price: z.number(),
  version: z.literal('v1'),
});

const valid = {
  name: 'widget',
  quantity: 3,
  count: 9_007_199_254_740_991,
  code: 'ABC',
  tags: ['a'],
  role: 'admin',
  nick: null,
  shape: { kind: 'circle', radius: 1 },
  flags: { fast: true },
  price: 9.5,
  version: 'v1',
};

/** The valid value and near misses, one field changed each (no extra keys: zod strips those). */
const values: JsonValue[] = [
  valid,
  { ...valid, age: 255 },
  { ...valid, age: 256 },
  { ...valid, age: 1.5 },
  { ...valid, name: '' },
  { ...valid, name: 'x'.repeat(21) },
  { ...valid, quantity: 2_147_483_648 },
  { ...valid, count: 9_007_199_254_740_992 },
  { ...valid, code: 'AB' },
  { ...valid, code: 'abc' },
  { ...valid, tags: ['a', 'b', 'c', 'd'] },
  { ...valid, role: 'root' },
  { ...valid, nick: 'z' },
  { ...valid, nick: 3 },
  { ...valid, shape: { kind: 'square', side: 2 } },
  { ...valid, shape: { kind: 'square', radius: 2 } },
  { ...valid, shape: { kind: 'hexagon' } },
  { ...valid, flags: { fast: 'yes' } },
  { ...valid, price: '9.5' },
  { ...valid, version: 'v2' },
];

describe('zod v4 toJSONSchema → schemaFromJsonSchema', () => {
  const document = z.toJSONSchema(Order) as JsonValue;
  const schema = schemaFromJsonSchema(document, { name: 'Order' });

  test('every field comes in with the kind it has in zod', () => {
    const kinds = Object.fromEntries(
      (schema as ObjectSchema).fields.map((field) => [
        field.name,
        field.schema.kind === 'optional' ? `optional ${field.schema.inner.kind}` : field.schema.kind,
      ]),
    );
    expect(kinds).toEqual({
      name: 'string',
      quantity: 'int32',
      count: 'int64',
      age: 'optional uint8',
      code: 'string',
      tags: 'array',
      role: 'enum',
      nick: 'nullable',
      shape: 'union',
      flags: 'map',
      price: 'float64',
      version: 'literal',
    });
  });

  test('validate() agrees with Ajv on zod’s document, and with zod itself', () => {
    expect(disagreements(document, schema, values)).toEqual([]);
    const zodVerdicts = values.map((value) => Order.safeParse(value).success);
    expect(values.map((value) => wirekitAccepts(schema, value))).toEqual(zodVerdicts);
    expect(zodVerdicts.filter(Boolean)).toHaveLength(4);
  });

  test('zod’s uuids (format uuid and a pattern) import, and agree with zod and Ajv', () => {
    const texts = [
      '123e4567-e89b-42d3-a456-426614174000',
      '123e4567-e89b-12d3-a456-426614174000',
      '123e4567-e89b-92d3-a456-426614174000',
      '123e4567-e89b-42d3-c456-426614174000',
      '00000000-0000-0000-0000-000000000000',
      'urn:uuid:123e4567-e89b-42d3-a456-426614174000',
      '123e4567e89b42d3a456426614174000',
      'x',
    ];
    for (const uuid of [z.uuid(), z.guid(), z.uuidv4()]) {
      const json = z.toJSONSchema(uuid) as JsonValue;
      const imported = schemaFromJsonSchema(json);
      expect(disagreements(json, imported, texts)).toEqual([]);
      expect(texts.map((text) => wirekitAccepts(imported, text))).toEqual(
        texts.map((text) => uuid.safeParse(text).success),
      );
    }
  });

  test('zod’s string formats (a format with zod’s pattern beside it) import, and agree with Ajv and zod', () => {
    const formats: [string, z.ZodType, string[]][] = [
      [
        'iso.datetime()',
        z.iso.datetime(),
        [
          '2024-02-29T12:34:56Z',
          '2024-02-29T12:34:56.5Z',
          '2024-02-29T12:34:56+01:00',
          '2023-02-29T12:34:56Z',
          '2024-02-29 12:34:56Z',
          'x',
        ],
      ],
      [
        'iso.datetime({ offset: true })',
        z.iso.datetime({ offset: true }),
        [
          '2024-02-29T12:34:56+01:00',
          '2024-02-29T12:34:56Z',
          '2024-02-29T12:34:56+0100',
          '2024-02-29T24:00:00Z',
        ],
      ],
      ['iso.date()', z.iso.date(), ['2024-02-29', '2023-02-29', '2024-13-01', '24-01-01']],
      ['email()', z.email(), ['a.b+c@example.com', 'a@b', 'a@@b.com', "o'neil@x.io", 'a@-b.com']],
      ['ipv4()', z.ipv4(), ['192.168.0.1', '256.0.0.1', '1.2.3']],
      ['ipv6()', z.ipv6(), ['::1', '1:2:3:4:5:6:7:8', '1::2::3', 'fe80::1']],
      ['hostname()', z.hostname(), ['example.com', 'a_b.com', '-a.com']],
      ['iso.duration()', z.iso.duration(), ['P1D', 'PT1H', 'P', 'P1W']],
    ];
    for (const [label, format, texts] of formats) {
      const json = z.toJSONSchema(format) as JsonValue;
      const imported = schemaFromJsonSchema(json);
      expect({ label, kind: imported.kind, off: disagreements(json, imported, texts) }).toEqual({
        label,
        kind: 'string',
        off: [],
      });
      expect({ label, verdicts: texts.map((text) => wirekitAccepts(imported, text)) }).toEqual({
        label,
        verdicts: texts.map((text) => format.safeParse(text).success),
      });
    }
  });

  test('where zod’s own check is looser than its format, the import gives Ajv’s verdict', () => {
    // zod's email pattern lets a domain label end in '-', which ajv-formats' email refuses.
    const json = z.toJSONSchema(z.email()) as JsonValue;
    const imported = schemaFromJsonSchema(json);
    expect(z.email().safeParse('a@b-.com').success).toBe(true);
    expect(disagreements(json, imported, ['a@b-.com'])).toEqual([]);
    expect(wirekitAccepts(imported, 'a@b-.com')).toBe(false);
  });
});
