/**
 * An OpenAPI 3.1 document's schemas import where they stand (`at`), their `$ref`s resolving across
 * `#/components/schemas`, and judge values as Ajv does on the same document.
 */
import { describe, expect, test } from 'vitest';
import { schemaFromJsonSchema } from '../../../src/schema/import/index.js';
import type { JsonValue, ObjectSchema, UnionSchema } from '../../../src/schema/index.js';
import { disagreements } from './agreement.js';

const pet = (kind: string, extra: Record<string, JsonValue>): JsonValue => ({
  type: 'object',
  properties: { petType: { type: 'string', const: kind }, ...extra },
  required: ['petType'],
  additionalProperties: false,
});

const openapi = {
  openapi: '3.1.0',
  info: { title: 'Shop', version: '1' },
  paths: {},
  components: {
    schemas: {
      Order: {
        type: 'object',
        description: 'An order',
        properties: {
          id: { type: 'string', format: 'uuid' },
          lines: { type: 'array', items: { $ref: '#/components/schemas/Line' }, minItems: 1 },
          pet: { $ref: '#/components/schemas/Pet' },
          note: { type: ['string', 'null'], maxLength: 100 },
        },
        required: ['id', 'lines'],
        additionalProperties: false,
      },
      Line: {
        type: 'object',
        properties: {
          sku: { type: 'string', pattern: '^[A-Z0-9-]+$' },
          quantity: { type: 'integer', format: 'int32' },
        },
        required: ['sku', 'quantity'],
        additionalProperties: false,
      },
      Pet: {
        oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
        discriminator: { propertyName: 'petType' },
      },
      Cat: pet('cat', { lives: { type: 'integer', minimum: 0, maximum: 255 } }),
      Dog: pet('dog', { good: { type: 'boolean' } }),
    },
  },
} as const satisfies JsonValue;

describe('OpenAPI 3.1 components', () => {
  const schema = schemaFromJsonSchema(openapi, { at: '#/components/schemas/Order' }) as ObjectSchema;

  test('types take their names from components/schemas; the discriminated oneOf is a union', () => {
    expect(schema).toMatchObject({ kind: 'object', name: 'Order', doc: 'An order' });
    const lines = schema.fields.find((field) => field.name === 'lines')?.schema;
    expect(lines?.kind === 'array' && lines.items).toMatchObject({ kind: 'object', name: 'Line' });
    const petField = schema.fields.find((field) => field.name === 'pet')?.schema;
    const union = (petField?.kind === 'optional' ? petField.inner : petField) as UnionSchema;
    expect(union).toMatchObject({ kind: 'union', name: 'Pet', tag: 'petType' });
    expect(union.variants.map((variant) => variant.name)).toEqual(['Cat', 'Dog']);
  });

  test('validate() agrees with Ajv on the document', () => {
    const id = '123e4567-e89b-12d3-a456-426614174000';
    const line = { sku: 'A-1', quantity: 2 };
    const values: JsonValue[] = [
      { id, lines: [line] },
      { id, lines: [line], pet: { petType: 'cat', lives: 9 }, note: null },
      { id, lines: [line], pet: { petType: 'dog', good: true }, note: 'ok' },
      { id, lines: [] },
      { id, lines: [{ sku: 'a-1', quantity: 2 }] },
      { id, lines: [{ sku: 'A', quantity: 2_147_483_648 }] },
      { id, lines: [line], pet: { petType: 'cat', good: true } },
      { id, lines: [line], pet: { petType: 'bird' } },
      { id, lines: [line], note: 'x'.repeat(101) },
      { id: 'not-a-uuid', lines: [line] },
      { lines: [line] },
    ];
    const document = { ...openapi, $ref: '#/components/schemas/Order' };
    expect(disagreements(document, schema, values)).toEqual([]);
  });

  test('a pointer to nothing is refused', () => {
    expect(() => schemaFromJsonSchema(openapi, { at: '#/components/schemas/Nope' })).toThrow(
      /points to nothing/,
    );
  });

  test('OpenAPI 3.0’s nullable: true is read as nullable where the document says openapi 3.0', () => {
    const v30 = {
      openapi: '3.0.3',
      components: {
        schemas: {
          Note: {
            type: 'object',
            properties: { text: { type: 'string', nullable: true }, n: { type: 'integer', format: 'int32' } },
            required: ['text', 'n'],
            additionalProperties: false,
          },
        },
      },
    };
    const note = schemaFromJsonSchema(v30, { at: '#/components/schemas/Note' }) as ObjectSchema;
    expect(note.fields.map((field) => field.schema.kind)).toEqual(['nullable', 'int32']);
    // Outside an OpenAPI 3.0 document the keyword means nothing to JSON Schema, and is refused.
    expect(() =>
      schemaFromJsonSchema({ ...v30, openapi: '3.1.0' }, { at: '#/components/schemas/Note' }),
    ).toThrow(/"nullable"/);
  });
});
