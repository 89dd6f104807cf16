/**
 * Float bounds (`t.float64({ min, max })`): what the builder takes and stores, and that the bounds
 * reach validate(), the schema's JSON form, the JSON Schema and TypeScript exports and the
 * compatibility rules. That every codec holds values to them is cross-format-outcomes.test.ts's part.
 */
import { describe, expect, test } from 'vitest';
import { wirekitValueFindings } from '../../src/boundaries/events/compatibility/wirekit-values.js';
import { isWirekitError } from '../../src/errors/index.js';
import { toJsonSchema } from '../../src/schema/export/json-schema.js';
import { toTypeScript } from '../../src/schema/export/typescript.js';
import { schemaFromJson, schemaToJson, t, validate } from '../../src/schema/index.js';

const refusal = (make: () => unknown): string => {
  try {
    make();
  } catch (error) {
    if (isWirekitError(error)) return error.message;
    throw error;
  }
  throw new Error('not refused');
};

describe('float bounds', () => {
  test('are stored as given, inclusive', () => {
    expect(t.float64({ min: 0, max: 1 })).toMatchObject({ kind: 'float64', min: 0, max: 1 });
    expect(t.float64({})).toEqual(t.float64());
    expect(validate(t.float64({ min: 0, max: 1 }), 1)).toEqual([]);
  });

  test('must be finite and ordered, and a float32’s must be float32 values', () => {
    expect(refusal(() => t.float64({ min: Number.NaN }))).toMatch(/min must be a finite number/);
    expect(refusal(() => t.float64({ max: Infinity }))).toMatch(/max must be a finite number/);
    expect(refusal(() => t.float64({ min: 2, max: 1 }))).toMatch(/min 2 is greater than max 1/);
    // 0.1 is not a float32: a value below it could round to one above it.
    expect(refusal(() => t.float32({ max: 0.1 }))).toMatch(/must be a float32 value/);
    expect(t.float32({ max: Math.fround(0.1) })).toMatchObject({ max: Math.fround(0.1) });
  });

  test('refuse NaN and values outside them in validate()', () => {
    const ratio = t.float64({ min: 0, max: 1 });
    const codes = (value: number) => validate(ratio, value).map((issue) => issue.code);
    expect(codes(Number.NaN)).toEqual(['out_of_range']);
    expect(codes(1.5)).toEqual(['out_of_range']);
    expect(codes(-Infinity)).toEqual(['out_of_range']);
    expect(validate(t.float64(), Number.NaN)).toEqual([]);
  });

  test('round trip through the JSON form', () => {
    const schema = t.object('Reading', {
      ratio: t.float64({ min: 0, max: 1 }),
      above: t.float32({ min: 1.401298464324817e-45 }),
    });
    const json = schemaToJson(schema);
    expect(JSON.stringify(json)).toContain('"kind":"float64","min":0,"max":1');
    expect(schemaToJson(schemaFromJson(JSON.parse(JSON.stringify(json))))).toEqual(json);
  });

  test('are the JSON Schema export’s minimum and maximum, and the TypeScript export’s options', () => {
    expect(toJsonSchema(t.float64({ min: 0, max: 1 }))).toMatchObject({
      type: 'number',
      minimum: 0,
      maximum: 1,
    });
    // An unbounded side still takes its infinity, spelled as text as for any float.
    expect(toJsonSchema(t.float64({ min: 0 }))).toMatchObject({
      anyOf: [{ type: 'number', minimum: 0 }, { enum: ['Infinity'] }],
    });
    const source = toTypeScript(t.object('Reading', { ratio: t.float64({ min: 5e-324, max: 1 }) }));
    expect(source).toContain('t.float64({ min: 5e-324, max: 1 })');
  });

  test('narrowing them breaks old writers; widening them does not', () => {
    const found = (reader: ReturnType<typeof t.float64>, writer: ReturnType<typeof t.float64>) =>
      wirekitValueFindings(reader, writer, 1000).map((finding) => finding.errorType);
    const wide = t.float64({ min: 0, max: 1000 });
    const narrow = t.float64({ min: 0, max: 100 });
    expect(found(narrow, wide)).toEqual(['VALUE_RANGE_NARROWED']);
    expect(found(wide, narrow)).toEqual([]);
    expect(found(t.float64(), narrow)).toEqual([]);
    // An unbounded writer may write NaN, which any bounded reader refuses.
    expect(found(narrow, t.float64())).toEqual(['VALUE_RANGE_NARROWED']);
    expect(
      wirekitValueFindings(t.float64({ max: 1 }), t.float32(), 1000).map((finding) => finding.errorType),
    ).toEqual(['VALUE_RANGE_NARROWED']);
  });
});
