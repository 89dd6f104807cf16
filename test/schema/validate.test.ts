import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { assert, type Schema, standardSchema, t, ValidationError, validate } from '../../src/index.js';
import { Category, EveryKind, everyKindValue } from '../fixtures/every-kind.js';

const codes = (schema: Schema, value: unknown) =>
  validate(schema, value).map((i) => `${i.code}@${i.path.join('.')}`);

describe('validate', () => {
  test('the every-kind value is valid', () => {
    expect(validate(EveryKind, everyKindValue())).toEqual([]);
  });

  test('integer kinds enforce integrality and range', () => {
    expect(codes(t.int8(), 127)).toEqual([]);
    expect(codes(t.int8(), 128)).toEqual(['out_of_range@']);
    expect(codes(t.uint8(), -1)).toEqual(['out_of_range@']);
    expect(codes(t.uint32(), 4_294_967_296)).toEqual(['out_of_range@']);
    expect(codes(t.int32(), 1.5)).toEqual(['not_integer@']);
    expect(codes(t.int32(), '1')).toEqual(['expected_type@']);
    expect(codes(t.int64(), 2n ** 63n)).toEqual(['out_of_range@']);
    expect(codes(t.int64(), -(2n ** 63n))).toEqual([]);
    expect(codes(t.int64(), 1)).toEqual(['expected_type@']);
    expect(codes(t.uint64(), -1n)).toEqual(['out_of_range@']);
    expect(codes(t.int64({ as: 'number' }), 2 ** 53)).toEqual(['out_of_range@']);
    expect(codes(t.float32(), 1e39)).toEqual(['out_of_range@']);
    expect(codes(t.float32(), Number.NaN)).toEqual([]);
  });

  test('decimals: plain notation, within precision and scale', () => {
    const money = t.decimal({ precision: 5, scale: 2 });
    expect(codes(money, '-999.99')).toEqual([]);
    expect(codes(money, '0.5')).toEqual([]);
    expect(codes(money, '1.005')).toEqual(['precision_loss@']);
    expect(codes(money, '1000.00')).toEqual(['out_of_range@']);
    for (const bad of ['1e3', '+1', '01', '.5', '1.', '', ' 1'])
      expect(codes(money, bad)).toEqual(['invalid_decimal@']);
  });

  test('strings: code-point lengths, patterns, and no lone surrogates', () => {
    expect(codes(t.string({ maxLength: 2 }), '🚀🚀')).toEqual([]);
    expect(codes(t.string({ maxLength: 2 }), '🚀🚀🚀')).toEqual(['too_long@']);
    expect(codes(t.string({ minLength: 2 }), '🚀')).toEqual(['too_short@']);
    expect(codes(t.string({ pattern: '^[a-z]+$' }), 'abc')).toEqual([]);
    expect(codes(t.string({ pattern: '^[a-z]+$' }), 'ABC')).toEqual(['pattern_mismatch@']);
    expect(codes(t.string(), 'a\uD800b')).toEqual(['not_well_formed@']);
  });

  test('timestamps: valid Dates within the precision', () => {
    expect(codes(t.timestamp(), new Date(Number.NaN))).toEqual(['invalid_date@']);
    expect(codes(t.timestamp({ precision: 's' }), new Date(1500))).toEqual(['precision_loss@']);
    expect(codes(t.timestamp({ precision: 'ns' }), new Date('2300-01-01T00:00:00Z'))).toEqual([
      'out_of_range@',
    ]);
    expect(codes(t.timestamp(), '2024-01-01')).toEqual(['expected_type@']);
  });

  test('objects: missing, unknown and optional fields, with paths', () => {
    const User = t.object('User', {
      id: t.int32(),
      nick: t.optional(t.string()),
      boss: t.nullable(t.int32()),
    });
    expect(codes(User, { id: 1, boss: null })).toEqual([]);
    expect(codes(User, { id: 1, nick: undefined, boss: 2 })).toEqual([]);
    expect(codes(User, { boss: null, extra: 1 })).toEqual(['missing_field@id', 'unknown_field@extra']);
    expect(validate(User, { id: 1, boss: null, extra: 1 }, { unknownKeys: 'ignore' })).toEqual([]);
    expect(codes(User, JSON.parse('{"id": 1, "boss": null, "__proto__": {"x": 1}}'))).toEqual([
      'unknown_field@__proto__',
    ]);
    expect(
      codes(t.array(User), [
        { id: 1, boss: null },
        { id: 'x', boss: null },
      ]),
    ).toEqual(['expected_type@1.id']);
  });

  test('maps: objects for string keys, Maps for integer keys', () => {
    expect(codes(t.map(t.string(), t.int32()), { a: 1 })).toEqual([]);
    expect(codes(t.map(t.string(), t.int32()), new Map())).toEqual(['expected_type@']);
    expect(codes(t.map(t.int32(), t.int32()), new Map([[1.5, 1]]))).toEqual(['not_integer@1.5']);
    expect(codes(t.map(t.int64(), t.bool()), new Map([[1n, 'no']]))).toEqual(['expected_type@1']);
  });

  test('enums, literals, unions', () => {
    const Pet = t.union('Pet', 'type', [
      t.object('Cat', { type: t.literal('cat'), lives: t.uint8() }),
      t.object('Dog', { type: t.literal('dog'), good: t.bool() }),
    ]);
    expect(codes(Pet, { type: 'cat', lives: 9 })).toEqual([]);
    expect(codes(Pet, { type: 'dog', lives: 9 })).toEqual(['missing_field@good', 'unknown_field@lives']);
    expect(codes(Pet, { type: 'cow' })).toEqual(['unknown_variant@type']);
    expect(codes(t.enum('E', ['a', 'b']), 'c')).toEqual(['not_a_member@']);
    expect(codes(t.literal(3), 3)).toEqual([]);
    expect(codes(t.literal(3), '3')).toEqual(['literal_mismatch@']);
  });

  test('json accepts JSON values only', () => {
    expect(codes(t.json(), { a: [1, 'x', null, true] })).toEqual([]);
    expect(codes(t.json(), { a: new Date() })).toEqual(['expected_type@a']);
    expect(codes(t.json(), [Number.POSITIVE_INFINITY])).toEqual(['expected_type@0']);
  });

  test('cyclic and very deep values stop at maxDepth instead of overflowing the stack', () => {
    const cyclic: { name: string; children: unknown[] } = { name: 'x', children: [] };
    cyclic.children.push(cyclic);
    const issues = validate(Category, cyclic);
    expect(issues.map((i) => i.code)).toEqual(['too_deep']);
    expect(issues[0]?.path.slice(0, 4)).toEqual(['children', 0, 'children', 0]);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(validate(t.json(), deep)[0]?.code).toBe('too_deep');
  });

  test('maxIssues bounds the report', () => {
    expect(validate(t.array(t.int32()), Array(10_000).fill('x'), { maxIssues: 5 })).toHaveLength(5);
  });

  test('assert throws a ValidationError carrying every issue', () => {
    try {
      assert(t.object('P', { x: t.int32(), y: t.int32() }), { x: 'a', y: 'b' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).code).toBe('WK_VALIDATION_FAILED');
      expect((error as ValidationError).issues.map((i) => i.path)).toEqual([['x'], ['y']]);
    }
  });

  test('property: any int32 array validates; any array with a non-integer does not', () => {
    const schema = t.array(t.int32());
    fc.assert(fc.property(fc.array(fc.integer()), (xs) => validate(schema, xs).length === 0));
    fc.assert(
      fc.property(
        fc.array(fc.integer()),
        fc.double({ noInteger: true }),
        (xs, x) => validate(schema, [...xs, x]).length === 1,
      ),
    );
  });
});

describe('Standard Schema v1 adapter', () => {
  test('reports issues with paths and passes valid values through', async () => {
    const s = standardSchema(t.object('P', { x: t.int32() }));
    expect(s['~standard'].version).toBe(1);
    expect(s['~standard'].vendor).toBe('wirekit');
    expect(await s['~standard'].validate({ x: 1 })).toEqual({ value: { x: 1 } });
    const bad = await s['~standard'].validate({ x: 'no' });
    expect(bad.issues?.[0]?.path).toEqual(['x']);
  });

  test('fills in a field left out that has a default, and still reports one without', async () => {
    const s = standardSchema(
      t.object('Q', { x: t.int32(), tags: t.field(t.array(t.string()), { default: [] }) }),
    );
    const given = { x: 1 };
    expect(await s['~standard'].validate(given)).toEqual({ value: { x: 1, tags: [] } });
    expect(given).toEqual({ x: 1 });
    const bad = await s['~standard'].validate({ tags: ['a'] });
    expect(bad.issues?.map((issue) => issue.path)).toEqual([['x']]);
  });
});
