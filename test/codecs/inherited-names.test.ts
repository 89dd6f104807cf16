/**
 * Fields named like members every object inherits (`valueOf`, `toString`, `constructor`). `{}` has no
 * `valueOf` field, yet `{}.valueOf` is a function: every reader of a field must count that inherited
 * member as absent, or an optional field that is missing fails validation (found by the inference
 * property test, with the sample `{}` beside `{"valueOf": null}`).
 */
import { describe, expect, test } from 'vitest';
import { formatNames } from '../../src/codecs/core/codec.js';
import { createCodec } from '../../src/codecs/registry.js';
import { fromJsonValue, inferSchema, type Schema, t, toJsonValue, validate } from '../../src/index.js';
import { toAvro } from '../../src/schema/export/avro.js';

const Inner = t.object('Inner', { toString: t.optional(t.int32()) });
const Row = t.object('Row', {
  id: t.int32(),
  valueOf: t.optional(t.string()),
  constructor: t.optional(t.bool()),
  hasOwnProperty: t.optional(t.float64()),
  inner: Inner,
});

const absent = { id: 1, inner: {} };
const present = { id: 2, valueOf: 'x', constructor: true, hasOwnProperty: 1.5, inner: { toString: 7 } };

describe('fields named like inherited members', () => {
  test('an absent one validates, a present one is checked', () => {
    expect(validate(Row, absent)).toEqual([]);
    expect(validate(Row, present)).toEqual([]);
    expect(validate(Row, { ...present, valueOf: 5 }).map((issue) => issue.path)).toEqual([['valueOf']]);
  });

  test('the JSON form writes only what is there', () => {
    expect(toJsonValue(Row, absent)).toEqual(absent);
    expect(fromJsonValue(Row, toJsonValue(Row, present))).toEqual(present);
  });

  for (const format of formatNames) {
    for (const compile of [true, false]) {
      test(`${format}${compile ? '' : ' (interpreter)'} round-trips them absent and present`, () => {
        // Typed loosely: `{}` is no `{ toString?: number }` to TypeScript (the same inherited member).
        const codec = createCodec(format, { schema: Row as Schema, compile });
        for (const value of [absent, present]) {
          const input = format === 'arrow' ? [value] : value;
          const output = codec.decode(codec.encode(input));
          const row = (format === 'arrow' ? (output as unknown[])[0] : output) as Record<string, unknown>;
          expect(row).toEqual(value);
          expect(Object.keys(row).sort()).toEqual(Object.keys(value).sort());
        }
      });
    }
  }

  test('inference over samples that lack them gives a schema they validate against', () => {
    const samples: unknown[] = [{}, { valueOf: null }];
    const schema = inferSchema(samples);
    for (const sample of samples) expect(validate(schema, sample)).toEqual([]);
  });

  test('an Avro default export leaves an absent one out', () => {
    // `{}` as a literal does not type-check either: TypeScript, too, sees the inherited toString.
    const withDefault = t.object('Holder', { row: t.field(Inner, { default: JSON.parse('{}') }) });
    expect(JSON.stringify(toAvro(withDefault))).toContain('"default":{"toString":null}');
  });
});
