/**
 * Integer bounds (`t.int32({ min, max })`): what the builder takes and stores, and that the range
 * reaches validate(), the schema's JSON form, the JSON Schema and TypeScript exports and the
 * compatibility rules. That every codec holds values to it is cross-format-outcomes.test.ts's part.
 */
import { describe, expect, test } from 'vitest';
import { wirekitValueFindings } from '../../src/boundaries/events/compatibility/wirekit-values.js';
import { isWirekitError } from '../../src/errors/index.js';
import { toJsonSchema } from '../../src/schema/export/json-schema.js';
import { toTypeScript } from '../../src/schema/export/typescript.js';
import { schemaFromJson, schemaToJson, t, validate } from '../../src/schema/index.js';
import { intRange } from '../../src/schema/int-ranges.js';

describe('integer bounds', () => {
  test('are stored inside the kind, and a bound equal to the kind’s limit is not stored', () => {
    expect(t.int32({ min: 0, max: 100 })).toMatchObject({ kind: 'int32', min: 0, max: 100 });
    expect(t.uint8({ min: 0, max: 255 })).toEqual(t.uint8());
    expect(intRange(t.int16({ min: -5 }))).toEqual([-5, 32_767]);
    expect(intRange(t.int8())).toEqual([-128, 127]);
  });

  test.each([
    ['past the kind', () => t.uint8({ max: 256 })],
    ['below the kind', () => t.uint8({ min: -1 })],
    ['not an integer', () => t.int32({ min: 1.5 })],
    ['min above max', () => t.int32({ min: 5, max: 4 })],
  ])('are refused when %s', (_label, make) => {
    let error: unknown;
    try {
      make();
    } catch (caught) {
      error = caught;
    }
    expect(isWirekitError(error, 'WK_SCHEMA_INVALID')).toBe(true);
  });

  test('validate() refuses a value outside them with out_of_range', () => {
    const percent = t.int32({ min: 0, max: 100 });
    expect(validate(percent, 100)).toEqual([]);
    expect(validate(percent, 101).map((issue) => issue.code)).toEqual(['out_of_range']);
  });

  test('round trip through the JSON form', () => {
    const schema = t.object('Score', { pct: t.uint8({ max: 100 }), delta: t.int32({ min: -10, max: 10 }) });
    const json = schemaToJson(schema);
    expect(schemaToJson(schemaFromJson(JSON.parse(JSON.stringify(json))))).toEqual(json);
  });

  test('are the JSON Schema export’s minimum and maximum, and the TypeScript export’s options', () => {
    expect(toJsonSchema(t.int32({ min: 0, max: 100 }))).toMatchObject({
      type: 'integer',
      minimum: 0,
      maximum: 100,
    });
    const source = toTypeScript(t.object('Score', { pct: t.uint8({ max: 100 }) }));
    expect(source).toContain('t.uint8({ max: 100 })');
  });

  test('narrowing them breaks old writers; widening them does not', () => {
    const found = (reader: ReturnType<typeof t.int32>, writer: ReturnType<typeof t.int32>) =>
      wirekitValueFindings(reader, writer, 1000).map((finding) => finding.errorType);
    const wide = t.int32({ min: 0, max: 1000 });
    const narrow = t.int32({ min: 0, max: 100 });
    expect(found(narrow, wide)).toEqual(['VALUE_RANGE_NARROWED']);
    expect(found(wide, narrow)).toEqual([]);
    expect(found(t.int32(), narrow)).toEqual([]);
  });
});
