// The named export: under NodeNext, the default import of this CommonJS module is not the class.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { type JsonValue, type Schema, t, toJsonValue } from '../../../src/index.js';
import { toJsonSchema } from '../../../src/schema/export/json-schema.js';
import { Category, EveryKind, everyKindValue, Shape } from '../../fixtures/every-kind.js';

/** A strict Ajv that knows RFC 3339 date-times (ajv-formats is not a dependency). */
function compile(schema: JsonValue) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i);
  return ajv.compile(schema as object);
}

/** everyKindValue() in the JSON form, written by hand. */
function everyKindJson(): Record<string, JsonValue> {
  return {
    flag: true,
    i8: -128,
    i16: 32_767,
    i32: -2_147_483_648,
    u8: 255,
    u16: 65_535,
    u32: 4_294_967_295,
    i64: '-9223372036854775808',
    u64: '18446744073709551615',
    i64n: Number.MAX_SAFE_INTEGER,
    f32: 1.5,
    f64: -0.1,
    price: '-1234567890.12',
    name: 'Zoë 🚀',
    blob: 'AAEC/v8=',
    createdAt: '2024-02-29T12:34:56.789Z',
    updatedAt: '1969-12-31T23:59:59.999Z',
    color: 'green',
    version: 'v1',
    home: { street: '1 Main St', zip: '12345' },
    tags: ['a', '', 'ünïcödé'],
    matrix: [[1, 2], [], [3]],
    scores: { math: 9.5, art: -1 },
    byId: { '7': { street: 'Elm', zip: '9' }, '-1': { street: '', zip: '' } },
    manager: null,
    shape: { kind: 'circle', radius: 2 },
    shapes: [
      { kind: 'rect', width: 1, height: 2.5 },
      { kind: 'circle', radius: 0 },
    ],
    extra: { any: ['json', 1, null, true, { nested: 'yes' }] },
    legacy: 'old',
    category: { name: 'root', children: [{ name: 'leaf', children: [] }] },
  };
}

describe('toJsonSchema: EveryKind under Ajv 2020 (strict)', () => {
  const validate = compile(toJsonSchema(EveryKind));

  test('the JSON form of everyKindValue() is valid', () => {
    expect(validate(everyKindJson()), JSON.stringify(validate.errors)).toBe(true);
  });

  test("toJsonValue's output is valid too", () => {
    expect(validate(toJsonValue(EveryKind, everyKindValue())), JSON.stringify(validate.errors)).toBe(true);
  });

  test('optional fields may be left out, present ones hold their value', () => {
    expect(validate({ ...everyKindJson(), nickname: 'Z', work: { street: 's', zip: 'z' } })).toBe(true);
    expect(validate({ ...everyKindJson(), nickname: null })).toBe(false);
  });

  test('floats accept the spellings of NaN and the infinities', () => {
    for (const f64 of ['NaN', 'Infinity', '-Infinity', 1e308])
      expect(validate({ ...everyKindJson(), f64 })).toBe(true);
    expect(validate({ ...everyKindJson(), f64: 'nan' })).toBe(false);
  });

  test.each([
    ['an int8 out of range', { i8: 128 }],
    ['a uint32 below zero', { u32: -1 }],
    ['a non-integer', { i32: 1.5 }],
    ['an int64 as a number', { i64: 5 }],
    ['an int64 with too many digits', { i64: '12345678901234567890' }],
    ['a uint64 with a sign', { u64: '-1' }],
    ['an as-number int64 as a string', { i64n: '5' }],
    ['a decimal with too many decimals', { price: '1.234' }],
    ['a decimal with too many integer digits', { price: '12345678901' }],
    ['a decimal in exponent form', { price: '1e3' }],
    ['bytes that are not base64', { blob: 'not base64!' }],
    ['a date that is not RFC 3339', { createdAt: '29/02/2024' }],
    ['an unknown enum member', { color: 'purple' }],
    ['another literal', { version: 'v2' }],
    ['a string over maxLength', { home: { street: 's', zip: '12345678901' } }],
    ['an extra field in a nested object', { home: { street: 's', zip: 'z', x: 1 } }],
    ['an unknown union tag', { shape: { kind: 'hexagon', radius: 1 } }],
    ['a variant with the fields of another', { shape: { kind: 'circle', width: 1, height: 2 } }],
    ['a map key that is not an integer', { byId: { seven: { street: '', zip: '' } } }],
    ['a map value of the wrong type', { scores: { math: '9.5' } }],
    ['a recursive child without its fields', { category: { name: 'root', children: [{ name: 'leaf' }] } }],
  ])('rejects %s', (_, change) => {
    expect(validate({ ...everyKindJson(), ...change })).toBe(false);
  });

  test('rejects a missing required field and an unknown one', () => {
    const { flag: _, ...missing } = everyKindJson();
    expect(validate(missing)).toBe(false);
    expect(validate({ ...everyKindJson(), surprise: 1 })).toBe(false);
  });
});

describe('toJsonSchema: targeted mappings', () => {
  test('document shape: $schema, $ref to the root, named types in $defs', () => {
    const doc = toJsonSchema(EveryKind) as Record<string, JsonValue>;
    expect(doc.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(doc.$ref).toBe('#/$defs/EveryKind');
    expect(Object.keys(doc.$defs as object)).toEqual([
      'EveryKind',
      'Color',
      'Address',
      'Shape',
      'Circle',
      'Rect',
      'Category',
    ]);
    const defs = doc.$defs as Record<string, Record<string, JsonValue>>;
    expect(defs.Shape).toEqual({
      title: 'Shape',
      description: 'A circle or a rectangle',
      oneOf: [{ $ref: '#/$defs/Circle' }, { $ref: '#/$defs/Rect' }],
    });
    const props = defs.EveryKind?.properties as Record<string, JsonValue>;
    expect(props.name).toEqual({ type: 'string', description: 'Display name', default: 'anonymous' });
    expect(props.legacy).toEqual({ type: 'string', description: 'Use name instead', deprecated: true });
    expect(props.blob).toMatchObject({ type: 'string', contentEncoding: 'base64' });
    expect(props.createdAt).toEqual({ type: 'string', format: 'date-time' });
    expect(props.manager).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect(props.extra).toEqual({});
    expect(defs.EveryKind?.required).not.toContain('nickname');
  });

  test("the int64 option 'number' writes 64-bit integers as JSON integers", () => {
    const validate = compile(toJsonSchema(EveryKind, { int64: 'number' }));
    expect(validate({ ...everyKindJson(), i64: -5, u64: 5 })).toBe(true);
    expect(validate(everyKindJson())).toBe(false);
    expect(validate({ ...everyKindJson(), i64: 0, u64: -1 })).toBe(false);
  });

  test('defaults are written in the JSON form', () => {
    const O = t.object('O', {
      n: t.field(t.int64(), { default: 12n }),
      b: t.field(t.bytes({ maxLength: 4 }), { default: new Uint8Array([1, 2]) }),
      m: t.field(t.map(t.int32(), t.bool()), { default: new Map([[3, true]]) }),
    });
    const props = ((toJsonSchema(O) as { $defs: Record<string, { properties: Record<string, JsonValue> }> })
      .$defs.O?.properties ?? {}) as Record<string, { default?: JsonValue; maxLength?: number }>;
    expect([props.n?.default, props.b?.default, props.m?.default, props.b?.maxLength]).toEqual([
      '12',
      'AQI=',
      { 3: true },
      8,
    ]);
  });

  test('non-object roots, keys with constraints, json and optional outside fields', () => {
    const check = (schema: Schema, good: JsonValue[], bad: JsonValue[]) => {
      const validate = compile(toJsonSchema(schema));
      for (const value of good) expect(validate(value), JSON.stringify(value)).toBe(true);
      for (const value of bad) expect(validate(value), JSON.stringify(value)).toBe(false);
    };
    check(t.json(), [1, null, { a: [] }], []);
    check(t.array(t.optional(t.uint8())), [[1, null]], [[256], [-1]]);
    check(t.map(t.string({ pattern: '^[a-z]+$' }), t.int8()), [{ ab: 1 }], [{ Ab: 1 }, { ab: 200 }]);
    check(t.map(t.uint16(), t.string()), [{ '0': 'x', '10': 'y' }], [{ '-1': 'x' }, { '01': 'x' }]);
    check(t.decimal({ precision: 3, scale: 3 }), ['0.123', '-0.1', '0'], ['1.1', '0.1234']);
    check(t.decimal({ precision: 3, scale: 0 }), ['123', '-5'], ['1.0', '1234']);
    check(t.decimal(), ['123456789.123456789'], ['1.', '.5', '01']);
    check(t.string({ minLength: 2, maxLength: 3 }), ['ab', '🚀🚀'], ['a', 'abcd']);
    check(t.nullable(Shape), [null, { kind: 'rect', width: 1, height: 1 }], [{ kind: 'rect', width: 1 }]);
    check(Category, [{ name: 'a', children: [{ name: 'b', children: [] }] }], [{ name: 'a' }]);
    check(t.literal(3), [3], [4, '3']);
  });
});
