import { describe, expect, test } from 'vitest';
import { schemaFromJson, schemaToJson, t, validate } from '../../src/index.js';
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
