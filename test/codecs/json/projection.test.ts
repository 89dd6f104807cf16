/**
 * The compiled JSON writer (a projection and one JSON.stringify, json/encode/projection.ts) against
 * the interpreter's text writer: the same text or the same error (code, message, path) for every
 * value, including those JSON.stringify cannot spell as wirekit does (-0, lone surrogates, Maps
 * whose integer keys an object would reorder, int64 mode 'number'), mutated values and the bench
 * datasets.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createJsonCodec } from '../../../src/codecs/json/index.js';
import { documents, OrderDocument } from '../../../src/lab/datasets/documents.js';
import { Product, products } from '../../../src/lab/datasets/products.js';
import { type Schema, t } from '../../../src/schema/index.js';
import { Category, EveryKind, everyKindValue } from '../../fixtures/every-kind.js';
import { outcome } from '../../support/outcome.js';

type Int64Mode = 'string' | 'number';

function both(schema: Schema, int64: Int64Mode = 'string') {
  const compiled = createJsonCodec({ schema, int64 });
  const interpreted = createJsonCodec({ schema, int64, compile: false });
  expect(compiled.compiled).toBe(true);
  return { compiled, interpreted };
}

function expectSame(schema: Schema, values: readonly unknown[], int64: Int64Mode = 'string'): void {
  const { compiled, interpreted } = both(schema, int64);
  for (const value of values) {
    const a = outcome(() => Buffer.from(compiled.encode(value as never)).toString('latin1'));
    const b = outcome(() => Buffer.from(interpreted.encode(value as never)).toString('latin1'));
    expect(a).toStrictEqual(b);
  }
}

const Mixed = t.object('Mixed', {
  f: t.float64(),
  g: t.float32(),
  s: t.string({ maxLength: 8 }),
  list: t.array(t.float64()),
  words: t.array(t.string()),
  maybe: t.optional(t.string()),
  maybes: t.array(t.optional(t.uint8())),
  byName: t.map(t.string(), t.optional(t.int32())),
  byId: t.map(t.int32(), t.string()),
  byBig: t.map(t.int64(), t.bool()),
  big: t.int64(),
  bigN: t.int64({ as: 'number' }),
  when: t.timestamp(),
  blob: t.bytes({ maxLength: 4 }),
  price: t.decimal({ precision: 5, scale: 2 }),
  free: t.json(),
  lit: t.literal(3),
  inner: t.nullable(t.object('Inner', { a: t.uint8() })),
});

const mixed = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  f: 1.5,
  g: 0.25,
  s: 'ok',
  list: [1, 2.5],
  words: ['a', 'b'],
  maybes: [1, undefined, 2],
  byName: { x: 1, y: undefined, 10: 2, 2: 3 },
  byId: new Map([
    [1, 'a'],
    [5, 'b'],
    [-3, 'c'],
  ]),
  byBig: new Map([[7n, true]]),
  big: -5n,
  bigN: 12,
  when: new Date('2024-02-29T12:34:56.789Z'),
  blob: new Uint8Array([1, 2, 3]),
  price: '123.45',
  free: { a: [1, 'x', null], b: { c: true } },
  lit: 3,
  inner: { a: 1 },
  ...over,
});

const oddValues: Record<string, unknown>[] = [
  {},
  { f: -0 },
  { g: -0 },
  { list: [1, -0] },
  { f: Number.NaN, g: Number.POSITIVE_INFINITY, list: [Number.NEGATIVE_INFINITY, Number.NaN] },
  { s: 'a\uD800' },
  { s: '\uDC00', f: 'x' },
  { words: ['ok', 'x\uDFFF'], f: 'late' },
  { s: 'tab\t"q"\\ \u0001 \u2028 🚀' },
  { s: '\\ud800 spelled' },
  { words: ['\\uD83D'] },
  { byName: { 'a\uD800': 1 } },
  { free: { s: 'lone \uD800' } },
  { free: { __proto__: null, k: 1 } },
  {
    byId: new Map([
      [5, 'a'],
      [1, 'b'],
    ]),
  },
  {
    byId: new Map([
      [-1, 'a'],
      [1, 'b'],
    ]),
  },
  {
    byId: new Map([
      [1, 'a'],
      [2, 'b'],
    ]),
  },
  {
    byId: new Map([
      [4_294_967_295, 'a'],
      [1, 'b'],
    ]),
  },
  {
    byBig: new Map([
      [3n, true],
      [1n, false],
    ]),
  },
  { byId: new Map([[1.5, 'a']]) },
  { byName: { constructor: 1 } },
  { s: 'toolongtext' },
  { price: '1.234' },
  { price: '1234.5' },
  { price: '01' },
  { price: 5 },
  { blob: new Uint8Array(5) },
  { blob: [1] },
  { when: new Date(Number.NaN) },
  { when: new Date(-1) },
  { when: new Date(8.64e15) },
  { when: new Date(253_402_300_800_000) },
  { lit: 4 },
  { inner: null },
  { inner: { a: 1, extra: 2 } },
  { inner: { a: 300 } },
  { maybe: 'x' },
  { maybe: 7 },
  { maybes: [1, null] },
  { big: 1 },
  { bigN: 2 ** 60 },
  { free: () => 1 },
  { free: { x: Number.NaN } },
  { list: Object.assign([1, 2], { toJSON: () => 'no' }) },
  { words: Object.assign(['a'], { toJSON: () => 'no' }) },
];

describe('the compiled writer writes what the interpreter writes', () => {
  test('every kind', () => {
    expectSame(EveryKind, [everyKindValue()]);
    expectSame(EveryKind, [everyKindValue()], 'number');
  });

  test('odd values: -0, non-finite floats, lone surrogates, reordered Map keys, wrong values', () => {
    const values = oddValues.map((over) => mixed(over));
    expectSame(Mixed, values);
    expectSame(Mixed, values, 'number');
    expectSame(t.array(Mixed), [values.slice(0, 5), [mixed(), mixed({ s: 'x\uD800' }), mixed({ f: 'no' })]]);
  });

  test('long arrays, and long arrays in an object, with odd values in them', () => {
    const Holder = t.object('Holder', {
      n: t.uint8(),
      rows: t.array(Mixed),
      more: t.array(t.object('Item', { a: t.float64() })),
      tail: t.optional(t.string()),
    });
    const long = (over: Record<string, unknown>) => [
      ...Array.from({ length: 70 }, () => mixed()),
      mixed(over),
    ];
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ a: i }));
    for (const over of oddValues) {
      expectSame(t.array(Mixed), [long(over)]);
      expectSame(Holder, [
        { n: 1, rows: long(over), more: items(3) },
        { n: 1, rows: long({}), more: items(100), tail: 'x' },
        { n: 1, rows: [mixed(over)], more: items(100), tail: over.s },
      ]);
    }
    expectSame(Holder, [
      { n: 300, rows: long({}), more: [] },
      { n: 1, rows: 'x', more: items(70) },
      { n: 1, rows: long({}), more: [...items(70), { a: -0 }] },
      { n: 1, rows: long({}), more: [...items(70), { a: 'x' }] },
      { n: 1, rows: long({ s: '\uD800' }), more: items(70), tail: '\uDC00' },
    ]);
    expectSame(t.array(t.int32(), { maxItems: 80 }), [Array.from({ length: 90 }, () => 1)]);
    expectSame(t.array(Mixed, { maxItems: 65 }), [long({})]);
  });

  test('roots that are no objects', () => {
    expectSame(t.optional(t.string()), [undefined, 'a', '\uD800', 1]);
    expectSame(t.float64(), [-0, 0, Number.NaN, 1e300, 'x']);
    expectSame(t.array(t.int64()), [[1n, -2n], [1]]);
    expectSame(t.nullable(t.timestamp()), [null, new Date(0)]);
    expectSame(t.map(t.string(), t.bytes()), [{ a: new Uint8Array([255]) }, { a: 'x' }]);
  });

  test('unions, recursion and depth', () => {
    const Shape = EveryKind.fields.find((field) => field.name === 'shape')?.schema as Schema;
    expectSame(Shape, [
      { kind: 'circle', radius: -0 },
      { kind: 'rect', width: 1, height: 2 },
      { kind: 'x' },
      5,
    ]);
    let deep: { name: string; children: unknown[] } = { name: 'leaf', children: [] };
    for (let i = 0; i < 120; i++) deep = { name: `n${i}`, children: [deep] };
    expectSame(Category, [deep, { name: 'a', children: [{ name: '\uD800', children: [] }] }]);
  });

  test('objects, arrays and maps written as they stand where each part is its own projection', () => {
    // Every value of these needs no conversion, so the writer may hand the value itself to
    // JSON.stringify (projection.ts's writesAsIs): only where the text cannot differ.
    const Plain = t.object('Plain', {
      a: t.string(),
      b: t.optional(t.uint8()),
      c: t.nullable(t.string()),
      tags: t.array(t.string()),
      rows: t.array(t.object('Row', { x: t.int32(), y: t.optional(t.string()) })),
      names: t.map(t.string(), t.string()),
      nested: t.map(t.string(), t.object('Cell', { v: t.bool() })),
    });
    const plain = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
      a: 'x',
      b: 1,
      c: null,
      tags: ['t'],
      rows: [{ x: 1 }, { x: 2, y: 'z' }],
      names: { 1: 'one', k: 'v' },
      nested: { 7: { v: true } },
      ...over,
    });
    const hidden = (object: Record<string, unknown>, key: string, value: unknown) =>
      Object.defineProperty(object, key, { value, enumerable: false });
    class Holder {
      a = 'x';
      c = null;
      tags = [];
      rows = [];
      names = {};
      nested = {};
      get b() {
        return 3;
      }
    }
    const values: unknown[] = [
      plain(),
      // Keys in another order than the schema's: written in the schema's.
      { nested: {}, names: {}, rows: [], tags: [], c: 'c', b: 2, a: 'a' },
      plain({ b: undefined }),
      (() => {
        const value = plain();
        delete value.b;
        return value;
      })(),
      plain({ extra: 1 }),
      plain({ 0: 'index' }),
      plain({ rows: [{ x: 1, extra: true }] }),
      plain({ rows: [{ y: 'first', x: 1 }] }),
      plain({ nested: { 7: { v: true, w: 1 } } }),
      Object.assign(Object.create(null), plain()),
      Object.assign(Object.create({ inherited: 1 }), plain()),
      hidden(plain(), 'toJSON', () => 'no'),
      hidden(plain(), 'extra', 1),
      hidden(plain({ b: undefined }), 'b', 9),
      new Holder(),
      plain({ rows: Object.assign([{ x: 1 }], { toJSON: () => 'no' }) }),
      plain({ names: hidden({ k: 'v' }, 'toJSON', () => 'no') }),
      plain({ names: { toJSON: 'a key like any other' } }),
      plain({ names: { k: undefined } }),
      plain({ names: { k: 1 } }),
      plain({ rows: [{ x: 1 }, { x: 'no' }] }),
    ];
    expectSame(Plain, values);
    expectSame(t.array(Plain), [values.slice(0, 4), [plain(), new Holder()]]);
    expectSame(t.object('Empty', {}), [{}, { a: 1 }, Object.create(null)]);
    const { compiled } = both(Plain);
    expect(new TextDecoder().decode(compiled.encode(values[1] as never))).toBe(
      '{"a":"a","b":2,"c":"c","tags":[],"rows":[],"names":{},"nested":{}}',
    );
  });

  test('the bench datasets', () => {
    expectSame(OrderDocument, documents(50, 7));
    expectSame(Product, products(20, 7));
  });

  test('random mutations of a value', () => {
    const leaves: unknown[] = [
      -0,
      0,
      1,
      -1,
      1.5,
      Number.NaN,
      '',
      'x',
      '\uD800',
      'a"b',
      null,
      undefined,
      true,
      1n,
      [],
      {},
      new Date(0),
      new Uint8Array(1),
      new Map(),
    ];
    const keys = Object.keys(mixed());
    fc.assert(
      fc.property(fc.constantFrom(...keys), fc.constantFrom(...leaves), (key, leaf) => {
        expectSame(Mixed, [mixed({ [key]: leaf })]);
      }),
      { numRuns: 300 },
    );
  });
});
