import { describe, expect, test } from 'vitest';
import { t } from '../../src/index.js';
import { codeOf } from '../support/code-of.js';

describe('field numbers', () => {
  const ids = (schema: { fields: readonly { name: string; id: number }[] }) =>
    Object.fromEntries(schema.fields.map((f) => [f.name, f.id]));

  test('follow declaration order, counting only fields without an explicit id', () => {
    const Old = t.object('X', { a: t.int32(), b: t.string(), c: t.bool() });
    const New = t.object('X', {
      a: t.int32(),
      inserted: t.field(t.string(), { id: 10 }),
      b: t.string(),
      c: t.bool(),
      appended: t.bool(),
    });
    expect(ids(Old)).toEqual({ a: 1, b: 2, c: 3 });
    expect(ids(New)).toEqual({ a: 1, inserted: 10, b: 2, c: 3, appended: 4 });
  });

  test('skip reserved numbers, so deleting a field keeps the others', () => {
    const After = t.object('X', { a: t.int32(), c: t.bool() }, { reserved: [2] });
    expect(ids(After)).toEqual({ a: 1, c: 3 });
  });

  test("skip Protocol Buffers' own 19000-19999, so a record of 19,000+ fields numbers on past them", () => {
    const fields = Object.fromEntries(Array.from({ length: 19_002 }, (_, i) => [`f${i}`, t.int32()]));
    const numbers = Object.values(ids(t.object('Wide', fields)));
    expect(numbers.slice(18_997)).toEqual([18_998, 18_999, 20_000, 20_001, 20_002]);
    expect(numbers.some((n) => n >= 19_000 && n <= 19_999)).toBe(false);
  });

  test('clashes are errors, never silent renumbering', () => {
    expect(codeOf(() => t.object('X', { a: t.int32(), b: t.field(t.int32(), { id: 1 }) }))).toBe(
      'WK_SCHEMA_FIELD_ID',
    );
    expect(codeOf(() => t.object('X', { a: t.field(t.int32(), { id: 3 }) }, { reserved: [3] }))).toBe(
      'WK_SCHEMA_FIELD_ID',
    );
    expect(codeOf(() => t.object('X', { a: t.field(t.int32(), { id: 19_500 }) }))).toBe('WK_SCHEMA_FIELD_ID');
    expect(codeOf(() => t.object('X', { a: t.field(t.int32(), { id: 0 }) }))).toBe('WK_SCHEMA_FIELD_ID');
  });
});

describe('builders refuse what no format could carry', () => {
  test.each([
    ['a type name that is not an identifier', () => t.object('my-type', {})],
    ['an empty enum', () => t.enum('E', [])],
    ['repeated enum members', () => t.enum('E', ['a', 'a'])],
    ['a __proto__ field', () => t.object('X', JSON.parse('{"__proto__": {"kind": "bool"}}'))],
    ['a union variant without the tag', () => t.union('U', 'type', [t.object('A', { x: t.int32() })])],
    [
      'two variants with one tag',
      () => t.union('U', 'k', [t.object('A', { k: t.literal('a') }), t.object('B', { k: t.literal('a') })]),
    ],
    ['a bad regular expression', () => t.string({ pattern: '(' })],
    ['a negative length', () => t.bytes({ maxLength: -1 })],
    ['a scale above the precision', () => t.decimal({ precision: 2, scale: 3 })],
    ['a map with float keys', () => t.map(t.float64() as never, t.bool())],
    ['a non-finite literal', () => t.literal(Number.NaN)],
    ['a field that is not a schema', () => t.object('X', { a: 42 as never })],
  ])('%s', (_name, build) => {
    expect(codeOf(build)).toBe('WK_SCHEMA_INVALID');
  });

  test('nodes are frozen plain data', () => {
    const s = t.object('X', { a: t.array(t.int32()) });
    expect(Object.isFrozen(s)).toBe(true);
    expect(Object.isFrozen(s.fields[0])).toBe(true);
    expect(JSON.parse(JSON.stringify(s))).toMatchObject({
      kind: 'object',
      name: 'X',
      fields: [{ name: 'a', id: 1 }],
    });
  });

  test('t.lazy resolves on first use and must name a named type', () => {
    const bad = t.lazy(() => t.int32() as never);
    expect(codeOf(() => bad.resolve())).toBe('WK_SCHEMA_UNRESOLVED_REF');
  });
});
