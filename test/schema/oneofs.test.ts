// The named export: under NodeNext, the default import of this CommonJS module is not the class.

import { Ajv as AjvDraft7 } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { schemaFromJson, schemaToJson, t, validate } from '../../src/index.js';
import { toJsonSchema } from '../../src/schema/export/json-schema.js';
import { toTypeScript } from '../../src/schema/export/typescript.js';
import { codeOf } from '../support/code-of.js';

const Order = t.object('Order', { sku: t.string() });
const Msg = t.object(
  'Msg',
  {
    label: t.string(),
    name: t.optional(t.string()),
    id: t.optional(t.int64()),
    order: t.optional(Order),
    note: t.optional(t.string()),
  },
  { oneofs: { kind: ['name', 'id', 'order'] } },
);

describe('oneof groups in the model', () => {
  test('are stored on the object in declared order', () => {
    expect(Msg.oneofs).toEqual([{ name: 'kind', fields: ['name', 'id', 'order'] }]);
    expect(Object.isFrozen(Msg.oneofs)).toBe(true);
  });

  test.each([
    ['a required member', { a: t.string(), b: t.optional(t.string()) }, { g: ['a', 'b'] }],
    ['no member', { a: t.optional(t.string()) }, { g: [] }],
    ['a member that is no field', { a: t.optional(t.string()) }, { g: ['a', 'z'] }],
    ['a field in two groups', { a: t.optional(t.string()) }, { g: ['a'], h: ['a'] }],
    ['a group named as a field', { a: t.optional(t.string()) }, { a: ['a'] }],
    ['a group name that is no identifier', { a: t.optional(t.string()) }, { 'g-1': ['a'] }],
  ])('refuse %s when built', (_, fields, oneofs) => {
    expect(codeOf(() => t.object('M', fields, { oneofs }))).toBe('WK_SCHEMA_INVALID');
  });

  test('validate accepts one member or none, and reports two with the group and both fields', () => {
    expect(validate(Msg, { label: 'x' })).toEqual([]);
    expect(validate(Msg, { label: 'x', id: 7n, note: 'n' })).toEqual([]);
    expect(validate(Msg, { label: 'x', name: 'a', id: undefined })).toEqual([]);
    const issues = validate(Msg, { label: 'x', name: 'a', order: { sku: 's' } });
    expect(issues).toEqual([
      {
        code: 'oneof_conflict',
        path: [],
        message: "(root): 'name' and 'order' are both present, but oneof 'kind' holds at most one.",
      },
    ]);
    expect(validate(t.array(Msg), [{ label: 'x' }, { label: 'y', id: 1n, name: '' }])[0]?.path).toEqual([1]);
  });

  test('survive the JSON form and the generated TypeScript', () => {
    const json = schemaToJson(Msg);
    expect((json.root as { oneofs: unknown }).oneofs).toEqual([
      { name: 'kind', fields: ['name', 'id', 'order'] },
    ]);
    const back = schemaFromJson(json);
    expect(back.kind === 'object' && back.oneofs).toEqual(Msg.oneofs);
    expect(toTypeScript(Msg)).toContain("oneofs: { kind: ['name', 'id', 'order'] }");
  });

  test('the JSON form refuses a malformed group', () => {
    const json = schemaToJson(Msg) as unknown as { root: { oneofs: unknown } };
    json.root.oneofs = [{ name: 'kind', fields: ['label'] }];
    expect(codeOf(() => schemaFromJson(json))).toBe('WK_SCHEMA_INVALID');
    json.root.oneofs = [{ name: 'kind' }];
    expect(codeOf(() => schemaFromJson(json))).toBe('WK_SCHEMA_JSON_INVALID');
  });
});

describe('oneof groups in JSON Schema', () => {
  // Two groups, one of a single member (no constraint), members of several kinds, nullable included.
  const Doc = t.object(
    'Doc',
    {
      label: t.string(),
      a: t.optional(t.string()),
      b: t.optional(t.int32()),
      c: t.optional(t.nullable(t.bool())),
      d: t.optional(t.string()),
      e: t.optional(t.int32()),
      f: t.optional(t.int32()),
      g: t.optional(t.string()),
    },
    { oneofs: { first: ['a', 'b', 'c'], second: ['d', 'e'], alone: ['f'] } },
  );
  const samples: Record<string, unknown> = { a: 'x', b: 0, c: null, d: '', e: 7, f: 1, g: 'g' };
  const keys = Object.keys(samples);
  // Every subset of the optional fields: 128 values, each member present or absent.
  const values = Array.from({ length: 2 ** keys.length }, (_, mask) => {
    const value: Record<string, unknown> = { label: 'l' };
    keys.forEach((key, i) => {
      if (mask & (2 ** i)) value[key] = samples[key];
    });
    return value;
  });

  test.each([
    ['2020-12', new Ajv2020({ strict: true })],
    ['draft-07', new AjvDraft7({ strict: true })],
  ])('ajv (%s) agrees with validate() on every set of members present', (_, ajv) => {
    const document = toJsonSchema(Doc) as Record<string, unknown>;
    // The draft-07 validator reads the same body; only the dialect's URI differs.
    const check = ajv.compile(_ === '2020-12' ? document : { ...document, $schema: undefined });
    let refused = 0;
    for (const value of values) {
      const valid = validate(Doc, value).length === 0;
      if (!valid) refused++;
      expect({ value, ajv: check(value) }).toEqual({ value, ajv: valid });
    }
    // Half the sets hold a second member of one group or another: the check is not vacuous.
    expect(refused).toBeGreaterThan(60);
  });
});
