import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isWirekitError } from '../../src/errors/index.js';
import { isIdentifier } from '../../src/schema/names.js';
import { inferSchema } from '../../src/schema/schema-from-samples.js';
import type { ObjectSchema, Schema } from '../../src/schema/types.js';
import { validate } from '../../src/schema/validate.js';
import { namedTypes } from '../../src/schema/walk.js';
import { codeOf } from '../support/code-of.js';

/**
 * A compact, complete picture of a schema, so that one assertion checks kinds, wrapping, field
 * order and names at once: `Root{id: int32, nick?: string, tags: (string | null)[]}`.
 */
function render(schema: Schema, options: { names?: boolean; sortFields?: boolean } = {}): string {
  const { names = true, sortFields = false } = options;
  const inner = (s: Schema): string => render(s, options);
  switch (schema.kind) {
    case 'object': {
      const fields = sortFields
        ? [...schema.fields].sort((a, b) => (a.name < b.name ? -1 : 1))
        : schema.fields;
      const body = fields.map((f) =>
        f.schema.kind === 'optional'
          ? `${f.name}?: ${inner(f.schema.inner)}`
          : `${f.name}: ${inner(f.schema)}`,
      );
      return `${names ? schema.name : ''}{${body.join(', ')}}`;
    }
    case 'array':
      return `${inner(schema.items)}[]`;
    case 'nullable':
      return `(${inner(schema.inner)} | null)`;
    case 'optional':
      return `optional(${inner(schema.inner)})`;
    case 'map':
      return `map<${inner(schema.keys)}, ${inner(schema.values)}>`;
    case 'int64':
    case 'uint64':
      return `${schema.kind}:${schema.as}`;
    case 'timestamp':
      return `timestamp:${schema.precision}`;
    default:
      return schema.kind;
  }
}

const infer = (samples: readonly unknown[], options?: Parameters<typeof inferSchema>[1]): string =>
  render(inferSchema(samples, options));

function nested(depth: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

describe('inferSchema: scalars', () => {
  test('booleans', () => {
    expect(infer([true, false])).toBe('bool');
  });

  test('by default integers get room to grow: int32, int64 (as numbers) beyond, float64 past 2^53', () => {
    expect(infer([1])).toBe('int32');
    expect(infer([0, 255])).toBe('int32');
    expect(infer([-1, 300])).toBe('int32');
    expect(infer([-(2 ** 31), 2 ** 31 - 1])).toBe('int32');
    expect(infer([2 ** 31])).toBe('int64:number');
    expect(infer([2 ** 32 - 1])).toBe('int64:number');
    expect(infer([-(2 ** 31) - 1])).toBe('int64:number');
    expect(infer([Number.MAX_SAFE_INTEGER])).toBe('int64:number');
    expect(infer([Number.MIN_SAFE_INTEGER])).toBe('int64:number');
    expect(infer([2 ** 53])).toBe('float64');
    expect(infer([-(2 ** 53)])).toBe('float64');
    expect(infer([1, JSON.parse('12345678901234567890')])).toBe('float64');
    // 1.0 arrives from JSON.parse as the integer 1.
    expect(infer(JSON.parse('[1.0, 2.0]'))).toBe('int32');
    expect(infer([1], { numbers: 'wide' })).toBe('int32');
  });

  test('by default fractions are float64, even when every sample is exact in float32', () => {
    expect(infer([0.5, 1.25, -3.75])).toBe('float64');
    expect(infer([0.1])).toBe('float64');
    expect(infer([300, 2.5, -7])).toBe('float64');
  });

  test('the default schema still takes the values that grow past the samples; the narrowest does not', () => {
    const samples = [{ qty: 2, customer: { id: 4711 }, price: 19.5 }];
    const later = { qty: 300, customer: { id: 70_000 }, price: 0.1 };
    expect(infer(samples)).toBe('Root{qty: int32, customer: Customer{id: int32}, price: float64}');
    expect(validate(inferSchema(samples), later)).toEqual([]);
    const narrowest = inferSchema(samples, { numbers: 'narrowest' });
    expect(render(narrowest)).toBe('Root{qty: uint8, customer: Customer{id: uint16}, price: float32}');
    expect(validate(narrowest, later).map((issue) => issue.path.join('.'))).toEqual(['qty', 'customer.id']);
  });

  describe("numbers: 'narrowest'", () => {
    const narrowest = { numbers: 'narrowest' } as const;

    test('non-negative integers take the narrowest unsigned kind', () => {
      expect(infer([0, 255], narrowest)).toBe('uint8');
      expect(infer([0, 256], narrowest)).toBe('uint16');
      expect(infer([65_535], narrowest)).toBe('uint16');
      expect(infer([65_536], narrowest)).toBe('uint32');
      expect(infer([2 ** 32 - 1], narrowest)).toBe('uint32');
      expect(infer([2 ** 32], narrowest)).toBe('int64:number');
      expect(infer([2 ** 31], narrowest)).toBe('uint32');
    });

    test('negative integers take the narrowest signed kind', () => {
      expect(infer([-128, 127], narrowest)).toBe('int8');
      expect(infer([-1, 128], narrowest)).toBe('int16');
      expect(infer([-129], narrowest)).toBe('int16');
      expect(infer([-32_768, 32_767], narrowest)).toBe('int16');
      expect(infer([-32_769], narrowest)).toBe('int32');
      expect(infer([-(2 ** 31), 2 ** 31 - 1], narrowest)).toBe('int32');
      expect(infer([-1, 2 ** 31], narrowest)).toBe('int64:number');
      expect(infer([-(2 ** 31) - 1], narrowest)).toBe('int64:number');
    });

    test('safe integers beyond 32 bits are int64 numbers; unsafe ones float64', () => {
      expect(infer([Number.MAX_SAFE_INTEGER], narrowest)).toBe('int64:number');
      expect(infer([2 ** 53], narrowest)).toBe('float64');
      expect(infer([1, JSON.parse('12345678901234567890')], narrowest)).toBe('float64');
    });

    test('fractions: float32 only when every value is exact in float32', () => {
      expect(infer([0.5, 1.25, -3.75], narrowest)).toBe('float32');
      expect(infer([Math.fround(0.1)], narrowest)).toBe('float32');
      expect(infer([0.1], narrowest)).toBe('float64');
      expect(infer([0.5, 0.1], narrowest)).toBe('float64');
    });

    test('integers mixed with fractions follow the float rules over every value', () => {
      expect(infer([1, 0.5], narrowest)).toBe('float32');
      expect(infer([2 ** 24 + 1, 0.5], narrowest)).toBe('float64');
      expect(infer([300, 2.5, -7], narrowest)).toBe('float32');
      expect(infer(JSON.parse('[1.0, 2.0]'), narrowest)).toBe('uint8');
    });

    test('applies everywhere in the value, nested and in arrays', () => {
      expect(infer([{ a: [1, 2], b: { c: -5 } }], narrowest)).toBe('Root{a: uint8[], b: B{c: int8}}');
    });
  });

  test('ISO-8601 date-times with a zone become ms timestamps', () => {
    expect(
      infer([
        '2024-01-02T03:04:05Z',
        '2024-01-02T03:04:05.1Z',
        '2024-01-02T03:04:05.123+05:30',
        '2024-01-02T03:04:05-08:00',
        '2024-01-02T03:04:05.120000Z',
        '2024-02-29T00:00:00Z',
        '2000-02-29T23:59:59Z',
      ]),
    ).toBe('timestamp:ms');
  });

  test('other strings, and strings that only look like date-times, stay strings', () => {
    const notTimestamps = [
      '2024-01-02T03:04:05', // no zone: local time is ambiguous
      '2024-01-02',
      '2024-01-02 03:04:05Z',
      '2024-01-02t03:04:05z',
      '2024-01-02T03:04:05.1234Z', // below a millisecond: a Date would round it
      '2024-02-30T00:00:00Z', // Date.parse would read March 1st
      '2023-02-29T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '2024-13-01T00:00:00Z',
      '2024-01-02T24:00:00Z',
      '2024-01-02T03:04:60Z',
      '2024-01-02T03:04:05+24:00',
      'hello',
    ];
    for (const value of notTimestamps) expect(infer([value]), value).toBe('string');
    expect(infer(['2024-01-02T03:04:05Z', 'hello'])).toBe('string');
  });

  test('timestamps: false keeps date-times as strings', () => {
    expect(infer(['2024-01-02T03:04:05Z'], { timestamps: false })).toBe('string');
  });

  test('a string with a lone surrogate is json, since UTF-8 cannot carry it as a string', () => {
    expect(infer(['ok', JSON.parse('"\\ud800"')])).toBe('json');
  });
});

describe('inferSchema: null, mixed kinds', () => {
  test('null in some samples wraps the kind in nullable', () => {
    expect(infer([1, null, 2])).toBe('(int32 | null)');
    expect(infer([null, 'x'])).toBe('(string | null)');
  });

  test('only nulls give nullable json', () => {
    expect(infer([null, null])).toBe('(json | null)');
  });

  test('different kinds in one place give json', () => {
    expect(infer([1, 'one'])).toBe('json');
    expect(infer([true, 1])).toBe('json');
    expect(infer([{ a: 1 }, [1]])).toBe('json');
    expect(infer(['2024-01-02T03:04:05Z', 5])).toBe('json');
    expect(infer([1, 'one', null])).toBe('(json | null)');
  });
});

describe('inferSchema: objects', () => {
  test('a records array: 3 users, one without an email', () => {
    const users = JSON.parse(`[
      {"id": 1, "name": "Ada", "email": "ada@example.com", "created": "2024-01-02T03:04:05Z", "score": 9.5},
      {"id": 2, "name": "Bob", "created": "2024-02-03T04:05:06.789Z", "score": 7},
      {"id": 300, "name": "Cy", "email": "cy@example.com", "created": "2024-03-04T05:06:07+01:00", "score": 8.25}
    ]`);
    const schema = inferSchema(users, { name: 'User' }) as ObjectSchema;
    expect(render(schema)).toBe(
      'User{id: int32, name: string, email?: string, created: timestamp:ms, score: float64}',
    );
    expect(schema.fields.map((f) => [f.name, f.id])).toEqual([
      ['id', 1],
      ['name', 2],
      ['email', 3],
      ['created', 4],
      ['score', 5],
    ]);
  });

  test('fields keep first-seen order across samples', () => {
    expect(infer([{ b: 1 }, { a: true, b: 2 }, { c: 'x', a: false }])).toBe(
      'Root{b?: int32, a?: bool, c?: string}',
    );
  });

  test('missing and null together give optional(nullable(...))', () => {
    expect(infer([{ a: 1 }, { a: null }, {}])).toBe('Root{a?: (int32 | null)}');
  });

  test('nested objects are named after their key, in PascalCase', () => {
    expect(
      infer([{ shipping_address: { zip: '1' }, billingAddress: { zip: '2' }, lines: [{ sku: 'a' }] }]),
    ).toBe(
      'Root{shipping_address: ShippingAddress{zip: string}, billingAddress: BillingAddress{zip: string}, ' +
        'lines: LinesItem{sku: string}[]}',
    );
  });

  test('names are made unique with 2, 3, … and the root name is taken first', () => {
    expect(infer([{ a: { meta: {} }, b: { meta: {} }, c: { meta: {} }, root: {} }])).toBe(
      'Root{a: A{meta: Meta{}}, b: B{meta: Meta2{}}, c: C{meta: Meta3{}}, root: Root2{}}',
    );
    expect(infer([{ x: {} }], { name: 'X' })).toBe('X{x: X2{}}');
  });

  test('names are sanitised to identifiers', () => {
    const schema = inferSchema([{ 'my-key.x': {}, '3d model': {}, 日本: {}, $: {} }]) as ObjectSchema;
    expect(render(schema)).toBe('Root{my-key.x: MyKeyX{}, 3d model: _3dModel{}, 日本: Type{}, $: Type2{}}');
    for (const type of namedTypes(schema).values()) expect(isIdentifier(type.name)).toBe(true);
  });

  test('a root array of objects names its items after the root', () => {
    expect(infer([[{ a: 1 }]], { name: 'Batch' })).toBe('BatchItem{a: int32}[]');
  });

  test('a key the inferred schema could not carry is refused with its path, never dropped', () => {
    const refusal = (json: string) => {
      try {
        inferSchema(JSON.parse(json));
      } catch (error) {
        return { code: (error as { code: unknown }).code, path: (error as { path: unknown }).path };
      }
      return 'inferred';
    };
    // __proto__ is neither a field nor a key of a map or json value that any decoder reads.
    expect(refusal('[{"ok": 1}, {"ok": 2, "__proto__": {"x": 1}}]')).toEqual({
      code: 'WK_SCHEMA_INVALID',
      path: [1, '__proto__'],
    });
    expect(refusal('[{"a": [1, {"__proto__": 1}]}]')).toEqual({
      code: 'WK_SCHEMA_INVALID',
      path: [0, 'a', 1, '__proto__'],
    });
    // '' is no field name.
    expect(refusal('[{"ok": {"": 2}}]')).toEqual({ code: 'WK_SCHEMA_INVALID', path: [0, 'ok', ''] });
    // constructor and prototype are field names like any other, but no json value holds them.
    expect(refusal('[{"a": 1}, {"a": {"b": {"constructor": 1}}}]')).toEqual({
      code: 'WK_SCHEMA_INVALID',
      path: [1, 'a', 'b', 'constructor'],
    });
    expect(infer([{ constructor: 1, prototype: { x: 1 } }])).toBe(
      'Root{constructor: int32, prototype: Prototype{x: int32}}',
    );
    // In a json place, '' is a key like any other.
    expect(infer([{ a: 1 }, { a: { '': 1 } }])).toBe('Root{a: json}');
  });

  test('objects keyed by integers are maps, their values merged over every key', () => {
    expect(infer([{ '1': 'a', '2': 'b' }])).toBe('map<string, string>');
    // An event catalog: events by id, each event a record; an empty object fits a map too.
    const catalog = (ids: number[]) => ({
      venue: 'Pleyel',
      events: Object.fromEntries(ids.map((id) => [String(id), { id, name: `e${id}`, logo: null }])),
      blocks: {},
    });
    expect(
      infer([catalog([138586341, 138586345]), catalog([0, 7]), { ...catalog([9]), blocks: { '3': [1] } }]),
    ).toBe(
      'Root{venue: string, events: map<string, EventsValue{id: int32, name: string, logo: (json | null)}>, blocks: map<string, int32[]>}',
    );
    // Not integers as JSON writes them: a sign, a leading zero or a fraction keeps a field name.
    for (const key of ['-1', '01', '1.5', '1e3', ' 1', 'x1'])
      expect(infer([{ '1': true, [key]: true }]), key).toMatch(/^Root\{/);
    // Objects that are always empty say nothing about their keys: they stay records.
    expect(infer([{ a: {} }])).toBe('Root{a: A{}}');
  });

  test('an object with more distinct keys than maxFields (1,000 by default) is a map', () => {
    const wide = (from: number, count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`sku-${from + i}`, { qty: i }]));
    // 600 keys in each sample, 1,200 across both: the keys are data.
    expect(infer([wide(0, 600), wide(600, 600)])).toBe('map<string, RootValue{qty: int32}>');
    expect(infer([wide(0, 600)])).toMatch(/^Root\{sku-0: Sku0\{qty: int32\}/);
    expect(infer([wide(0, 600), wide(600, 600)], { maxFields: 2_000 })).toMatch(/^Root\{/);
    expect(infer([wide(0, 11)], { maxFields: 10 })).toBe('map<string, RootValue{qty: int32}>');
    expect(infer([wide(0, 10)], { maxFields: 10 })).toMatch(/^Root\{/);
    // A map may hold '' (no field name is needed), but not a key every decoder refuses.
    expect(infer([{ ...wide(0, 11), '': { qty: 1 } }], { maxFields: 10 })).toBe(
      'map<string, RootValue{qty: int32}>',
    );
    const error = (() => {
      try {
        inferSchema([{ a: { ...wide(0, 11), constructor: { qty: 1 } } }], { maxFields: 10 });
      } catch (caught) {
        return caught;
      }
    })();
    expect(isWirekitError(error) && error.code).toBe('WK_SCHEMA_INVALID');
    expect((error as { path?: unknown }).path).toEqual([0, 'a', 'constructor']);
    expect(codeOf(() => inferSchema([{}], { maxFields: -1 }))).toBe('WK_OPTIONS_INVALID');
    expect(codeOf(() => inferSchema([{}], { maxFields: 1.5 }))).toBe('WK_OPTIONS_INVALID');
    expect(infer([wide(0, 1_500)], { maxFields: Number.POSITIVE_INFINITY })).toMatch(/^Root\{/);
  });

  test('the samples of an inferred map validate against it', () => {
    const samples = [{ '5': { a: 1 }, '6': { a: 2, b: 'x' } }, { '7': { a: null } }];
    const schema = inferSchema(samples);
    expect(render(schema)).toBe('map<string, RootValue{a: (int32 | null), b?: string}>');
    for (const sample of samples) expect(validate(schema, sample)).toEqual([]);
  });

  test('an invalid root name is refused', () => {
    expect(codeOf(() => inferSchema([{}], { name: 'not a name' }))).toBe('WK_SCHEMA_INVALID');
  });
});

describe('inferSchema: arrays', () => {
  test('items merge over every element of every sample', () => {
    expect(infer([[1, 2], [300], []])).toBe('int32[]');
    expect(infer([{ tags: ['a'] }, { tags: [] }])).toBe('Root{tags: string[]}');
    expect(infer([[[1], [-1]], [[0.5]]])).toBe('float64[][]');
  });

  test('arrays that are empty everywhere hold json', () => {
    expect(infer([[], []])).toBe('json[]');
    expect(infer([{ a: [] }])).toBe('Root{a: json[]}');
  });

  test('items with nulls or mixed kinds', () => {
    expect(infer([[1, null]])).toBe('(int32 | null)[]');
    expect(infer([[1, 'a']])).toBe('json[]');
    expect(infer([[{ a: 1 }, { b: 2 }]])).toBe('RootItem{a?: int32, b?: int32}[]');
  });
});

describe('inferSchema: errors and limits', () => {
  test('no samples', () => {
    expect(codeOf(() => inferSchema([]))).toBe('WK_INFER_NO_SAMPLES');
  });

  test('bad options', () => {
    expect(codeOf(() => inferSchema([1], { maxDepth: -1 }))).toBe('WK_OPTIONS_INVALID');
    expect(codeOf(() => inferSchema([1], { numbers: 'tiny' as 'wide' }))).toBe('WK_OPTIONS_INVALID');
    expect(codeOf(() => inferSchema({ a: 1 } as unknown as unknown[]))).toBe('WK_OPTIONS_INVALID');
  });

  test('nesting up to maxDepth works, one more level throws with the path', () => {
    expect(inferSchema([nested(64)]).kind).toBe('object');
    expect(codeOf(() => inferSchema([nested(65)]))).toBe('WK_SCHEMA_INVALID');
    expect(infer([nested(3)], { maxDepth: 3 })).toBe('RootItem{a: int32[]}[]');
    expect(codeOf(() => inferSchema([nested(3)], { maxDepth: 2 }))).toBe('WK_SCHEMA_INVALID');
    expect(infer([7], { maxDepth: 0 })).toBe('int32');
    try {
      inferSchema([1, { a: [{ b: [[1]] }] }], { maxDepth: 4 });
      expect.unreachable();
    } catch (error) {
      expect(isWirekitError(error) && error.path).toEqual([1, 'a', 0, 'b', 0]);
    }
  });

  test('cyclic values hit the depth limit instead of the stack', () => {
    const cycle: Record<string, unknown> = { name: 'x' };
    cycle.self = cycle;
    const loop: unknown[] = [];
    loop.push(loop, loop);
    expect(codeOf(() => inferSchema([cycle]))).toBe('WK_SCHEMA_INVALID');
    expect(codeOf(() => inferSchema([loop]))).toBe('WK_SCHEMA_INVALID');
  });

  test('values that JSON.parse cannot return are refused, with their path', () => {
    // biome-ignore lint/suspicious/noSparseArray: a hole is one of the non-JSON inputs under test
    const hole = [1, , 3];
    const bad: unknown[] = [undefined, Number.NaN, Infinity, 1n, () => 1, new Date(0), new Map(), hole];
    for (const value of bad) {
      expect(
        codeOf(() => inferSchema([{ ok: 1 }, { v: value }])),
        String(value),
      ).toBe('WK_SCHEMA_INVALID');
    }
    try {
      inferSchema([{ v: [1, new Date(0)] }]);
      expect.unreachable();
    } catch (error) {
      expect(isWirekitError(error) && error.path).toEqual([0, 'v', 1]);
    }
  });

  test('large inputs: many records, many same-named types', () => {
    const records = Array.from({ length: 50_000 }, (_, i) => ({ id: i, even: i % 2 === 0 ? 'y' : null }));
    expect(infer(records)).toBe('Root{id: int32, even: (string | null)}');
    const wide = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, { meta: {} }]));
    const schema = inferSchema([wide], { maxFields: 10_000 }) as ObjectSchema;
    const last = schema.fields.at(-1)?.schema as ObjectSchema;
    expect(render(last)).toBe('K4999{meta: Meta5000{}}');
  });
});

// -- properties -------------------------------------------------------------------------------

const isoTimestamp = fc
  .date({ noInvalidDate: true, min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z') })
  .map((date) => date.toISOString());

/** Arbitraries of one kind each; homogeneous samples reach the narrow kinds that mixed ones never do. */
const kinds: fc.Arbitrary<unknown>[] = [
  fc.boolean(),
  fc.integer({ min: -300, max: 300 }),
  fc.integer({ min: 0, max: 70_000 }),
  fc.integer({ min: -70_000, max: 70_000 }),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.constantFrom(255, 256, 65_536, -128, -129, 2 ** 31, 2 ** 32, 2 ** 53, -(2 ** 53), -0, 0.5),
  fc.float({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('\ud800', 'a\udc00b', 'plain'),
  isoTimestamp,
  fc.constant(null),
];

/** An arbitrary of arbitraries: a random "type" that samples are then drawn from. */
const { type } = fc.letrec<{ type: fc.Arbitrary<unknown> }>((tie) => ({
  type: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    fc.constantFrom(...kinds),
    tie('type').map((items) => fc.array(items, { maxLength: 3 })),
    fc
      .dictionary(fc.constantFrom('a', 'b', 'c', 'shipping_address', ''), tie('type'), { maxKeys: 4 })
      .map((fields) => fc.record(fields, { requiredKeys: [] })),
    fc.tuple(tie('type'), tie('type')).map(([a, b]) => fc.oneof(a, b)),
    tie('type').map((inner) => fc.option(inner)),
  ),
}));

const leaf = fc.oneof(...kinds);

/** Values whose objects share keys, so that merging, optional fields and nesting get exercised. */
const { value: recordish } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', '', '__proto__'), tie('value'), { maxKeys: 4 }),
  ),
}));

const samples = fc.oneof(
  type.chain((arbitrary) => fc.array(arbitrary, { minLength: 1, maxLength: 6 })),
  fc.array(fc.oneof(fc.jsonValue({ stringUnit: 'binary' }), recordish), { minLength: 1, maxLength: 8 }),
);

/** A sample as a validator sees it: timestamps as Dates, every key kept (nothing is dropped). */
function prepare(schema: Schema, value: unknown): unknown {
  switch (schema.kind) {
    case 'timestamp':
      return new Date(value as string);
    case 'nullable':
      return value === null ? null : prepare(schema.inner, value);
    case 'optional':
      return value === undefined ? undefined : prepare(schema.inner, value);
    case 'array':
      return (value as unknown[]).map((item) => prepare(schema.items, item));
    case 'object': {
      const source = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(source)) {
        const field = schema.fields.find((f) => f.name === key);
        // Keys the schema lacks are kept, so a field that inference lost would fail validation.
        out[key] = field === undefined ? source[key] : prepare(field.schema, source[key]);
      }
      return out;
    }
    default:
      return value;
  }
}

/**
 * Inference of `values`, or its refusal: then WK_SCHEMA_INVALID with the path of a key in the
 * samples that the inferred schema could not carry ('' as a field name; __proto__ anywhere;
 * constructor or prototype in a json value). Returns undefined for a refusal.
 */
function inferOrRefuse(values: readonly unknown[], options: Parameters<typeof inferSchema>[1] = {}) {
  try {
    return inferSchema(values, options);
  } catch (error) {
    expect(error).toMatchObject({ code: 'WK_SCHEMA_INVALID' });
    const path = (error as { path: (string | number)[] }).path;
    let node: unknown = values;
    for (const step of path.slice(0, -1)) node = (node as Record<string | number, unknown>)[step];
    const key = path.at(-1) as string;
    expect(Object.hasOwn(node as object, key)).toBe(true);
    expect(['', '__proto__', 'constructor', 'prototype']).toContain(key);
    return undefined;
  }
}

describe('inferSchema: properties', () => {
  test('every sample validates against the inferred schema', () => {
    fc.assert(
      fc.property(
        samples,
        fc.constantFrom(undefined, 'narrowest' as const, 'wide' as const),
        fc.boolean(),
        (values, numbers, ts) => {
          const schema = inferOrRefuse(values, {
            ...(numbers === undefined ? {} : { numbers }),
            timestamps: ts,
          });
          if (schema === undefined) return;
          for (const value of values) {
            expect(validate(schema, prepare(schema, value))).toEqual([]);
          }
          // Named types have identifier names and never clash.
          for (const type of namedTypes(schema).values()) expect(isIdentifier(type.name)).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });

  test('the order of samples changes only field order and names, never kinds', () => {
    fc.assert(
      fc.property(samples, (values) => {
        const shape = { names: false, sortFields: true };
        const forwards = inferOrRefuse(values);
        const backwards = inferOrRefuse([...values].reverse());
        expect(backwards && render(backwards, shape)).toBe(forwards && render(forwards, shape));
      }),
      { numRuns: 200 },
    );
  });

  test('inferring the samples one array deeper gives the same element schema', () => {
    fc.assert(
      fc.property(samples, (values) => {
        const items = inferOrRefuse([values]);
        const shape = { names: false };
        const flat = inferOrRefuse(values);
        expect(items?.kind === 'array' ? render(items.items, shape) : items).toBe(
          flat && render(flat, shape),
        );
      }),
      { numRuns: 200 },
    );
  });
});
