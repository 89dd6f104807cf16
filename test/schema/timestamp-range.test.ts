/**
 * A timestamp's declared range, `range: '0001-9999'` (google.protobuf.Timestamp's years, which
 * schemaFromProto gives an imported Timestamp): what the builder accepts, and that the JSON form
 * and the TypeScript export keep it. Its verdicts in all seven formats are rows of
 * test/codecs/cross-format-outcomes.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { toTypeScript } from '../../src/schema/export/typescript.js';
import { schemaFromJson, schemaToJson, t, validate } from '../../src/schema/index.js';

describe("timestamp range '0001-9999'", () => {
  test('needs a unit whose 64-bit count reaches the years: not ns', () => {
    expect(() => t.timestamp({ precision: 'ns', range: '0001-9999' })).toThrow(/needs precision s, ms or us/);
    expect(() => t.timestamp({ range: '1-9' as never })).toThrow(/range must be '0001-9999'/);
    expect(t.timestamp()).toEqual({ kind: 'timestamp', precision: 'ms' });
  });

  test('validate() holds a Date to the years, at every unit that may declare them', () => {
    for (const precision of ['s', 'ms', 'us'] as const) {
      const schema = t.timestamp({ precision, range: '0001-9999' });
      expect(validate(schema, new Date('0001-01-01T00:00:00Z'))).toEqual([]);
      expect(validate(schema, new Date('9999-12-31T23:59:59Z'))).toEqual([]);
      expect(validate(schema, new Date('+010000-01-01T00:00:00Z')).map((issue) => issue.code)).toEqual([
        'out_of_range',
      ]);
      expect(validate(schema, new Date('0000-12-31T23:59:59Z')).map((issue) => issue.code)).toEqual([
        'out_of_range',
      ]);
    }
  });

  test('the JSON form and the TypeScript export keep it', () => {
    const schema = t.object('Stamped', { at: t.timestamp({ precision: 'us', range: '0001-9999' }) });
    const json = schemaToJson(schema);
    expect(JSON.stringify(json)).toContain('"range":"0001-9999"');
    expect(schemaFromJson(json)).toEqual(schema);
    expect(toTypeScript(schema)).toContain("t.timestamp({ precision: 'us', range: '0001-9999' })");
  });
});
