/**
 * Map fields in the compiled Protocol Buffers codec (src/codecs/protobuf/compiled-maps.ts) against
 * the interpreter: every key kind a schema allows (strings, 32- and 64-bit integers in each declared
 * proto type), values of every kind, on a fixed schema, on random schemas and values, on mutated
 * bytes, wrong values and tight limits; and proof that the compiled code, not the interpreter,
 * writes and reads the entries.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createProtobufCodec } from '../../../src/codecs/protobuf/index.js';
import { Catalog, catalogs } from '../../../src/lab/datasets/catalog.js';
import { t } from '../../../src/schema/index.js';
import { expectSameOutcomeOnMutations, outcome } from '../../support/outcome.js';
import { nextName, schemaArbitraryOf, valueKinds, valuesOf } from '../../support/protobuf-schemas.js';

const Hue = t.enum('Hue', ['red', 'green', 'blue']);
const Point = t.object('Point', { x: t.int32(), label: t.string(), hue: Hue });
const Shape = t.union('Shape', 'kind', [
  t.object('Dot', { kind: t.literal('dot'), at: Point }),
  t.object('Line', { kind: t.literal('line'), from: Point, to: Point }),
]);

/** One field per key kind, and one per value kind behind string keys. */
const Maps = t.object('Maps', {
  byText: t.map(t.string(), t.string()),
  byName: t.map(t.string({ minLength: 1 }), Point),
  byI8: t.map(t.int8(), t.int32()),
  byI32: t.map(t.int32(), t.float64()),
  byU32: t.map(t.uint32(), t.bool()),
  byI64: t.map(t.int64(), Hue),
  byU64: t.map(t.uint64(), t.bytes()),
  bySmallI64: t.map(t.int64({ as: 'number' }), t.string()),
  bySint32: t.map(t.int32({ proto: 'sint32' }), t.uint32()),
  bySfixed32: t.map(t.int32({ proto: 'sfixed32' }), t.int32({ proto: 'sfixed32' })),
  byVarint32: t.map(t.int32({ proto: 'int32' }), t.int32({ proto: 'int32' })),
  byFixed32: t.map(t.uint32({ proto: 'fixed32' }), t.uint32({ proto: 'fixed32' })),
  bySint64: t.map(t.int64({ proto: 'sint64' }), t.int64({ proto: 'sint64' })),
  bySfixed64: t.map(t.int64({ proto: 'sfixed64' }), t.int64({ proto: 'sfixed64' })),
  byFixed64: t.map(t.uint64({ proto: 'fixed64' }), t.uint64({ proto: 'fixed64' })),
  floats: t.map(t.string(), t.float32()),
  times: t.map(t.string(), t.timestamp()),
  prices: t.map(t.string(), t.decimal()),
  json: t.map(t.string(), t.json()),
  shapes: t.map(t.string(), Shape),
  lists: t.map(t.string(), t.array(t.int32())),
  nested: t.map(t.string(), t.map(t.int32(), Point)),
  maybe: t.map(t.string(), t.nullable(t.int64())),
  bigs: t.map(t.string(), t.uint64()),
});

const point = (x: number, label = '', hue = 'red') => ({ x, label, hue });

/** Keys out of order (so both paths sort), defaults as keys and values, astral and BMP keys. */
const mapsValue = (over: Record<string, unknown> = {}) => ({
  byText: {
    b: 'x',
    a: '',
    '🚀': 'astral',
    '\uE000': 'bmp',
    ab: 'prefix',
    '': 'empty key',
    '10': 't',
    '9': 'n',
  },
  byName: { z: point(1, 'z', 'blue'), y: point(0), é: point(-5, 'é', 'green') },
  byI8: new Map([
    [5, 1],
    [-128, 0],
    [127, -1],
    [0, 2 ** 31 - 1],
  ]),
  byI32: new Map([
    [2 ** 31 - 1, -0],
    [-(2 ** 31), Number.NaN],
    [0, Number.POSITIVE_INFINITY],
  ]),
  byU32: new Map([
    [2 ** 32 - 1, false],
    [0, true],
  ]),
  byI64: new Map([
    [-(2n ** 63n), 'blue'],
    [2n ** 63n - 1n, 'red'],
    [0n, 'green'],
  ]),
  byU64: new Map([
    [2n ** 64n - 1n, new Uint8Array([1, 2, 255])],
    [0n, new Uint8Array(0)],
  ]),
  bySmallI64: new Map([
    [Number.MAX_SAFE_INTEGER, 'max'],
    [Number.MIN_SAFE_INTEGER, 'min'],
  ]),
  bySint32: new Map([
    [-1, 4_000_000_000],
    [1, 0],
  ]),
  bySfixed32: new Map([
    [-7, -(2 ** 31)],
    [7, 0],
  ]),
  byVarint32: new Map([
    [-1, -1],
    [300, 0],
  ]),
  byFixed32: new Map([
    [2 ** 32 - 1, 1],
    [3, 0],
  ]),
  bySint64: new Map([
    [-(2n ** 63n), 2n ** 63n - 1n],
    [1n, -1n],
  ]),
  bySfixed64: new Map([
    [5n, -(2n ** 63n)],
    [-5n, 0n],
  ]),
  byFixed64: new Map([
    [2n ** 64n - 1n, 2n ** 64n - 1n],
    [1n, 0n],
  ]),
  floats: { one: 1.5, zero: 0, negZero: -0, nan: Number.NaN },
  times: { epoch: new Date(0), later: new Date(1_700_000_000_123), before: new Date(-1) },
  prices: { a: '0', b: '-12.50', c: '1000' },
  json: { nul: null, list: [1, 'two', { three: true }], text: 'x' },
  shapes: { d: { kind: 'dot', at: point(1) }, l: { kind: 'line', from: point(0), to: point(2, 'end') } },
  lists: { empty: [], some: [1, -2, 3] },
  nested: {
    outer: new Map([
      [2, point(2)],
      [1, point(1, 'one')],
    ]),
    none: new Map(),
  },
  maybe: { set: -1n, unset: null, zero: 0n },
  bigs: { big: 2n ** 64n - 1n, zero: 0n },
  ...over,
});

const compiled = createProtobufCodec({ schema: Maps });
const interpreted = createProtobufCodec({ schema: Maps, compile: false });

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('compiled map fields against the interpreter', () => {
  test('same bytes and same values, for every key and value kind', () => {
    expect(compiled.compiled).toBe(true);
    const value = mapsValue();
    const bytes = compiled.encode(value);
    expect(hex(bytes)).toBe(hex(interpreted.encode(value)));
    expect(compiled.decode(bytes)).toStrictEqual(interpreted.decode(bytes));
    expect(compiled.decode(bytes)).toStrictEqual(value);
  });

  test('entries in deterministic order: string keys by UTF-8 bytes, integer keys by value', () => {
    const Small = t.object('Small', { s: t.map(t.string(), t.int32()), i: t.map(t.int64(), t.int32()) });
    const codec = createProtobufCodec({ schema: Small });
    const bytes = codec.encode({
      s: { b: 1, '\uE000': 2, '🚀': 3, a: 4 },
      i: new Map([
        [1n, 1],
        [-1n, 2],
      ]),
    });
    const sorted = codec.encode({
      s: { a: 4, b: 1, '\uE000': 2, '🚀': 3 },
      i: new Map([
        [-1n, 2],
        [1n, 1],
      ]),
    });
    expect(hex(bytes)).toBe(hex(sorted));
    const text = Buffer.from(bytes).toString('latin1');
    // U+E000 is EE 80 80 in UTF-8, the rocket F0 9F 9A 80: the BMP character comes first.
    expect(text.indexOf('a')).toBeLessThan(text.indexOf('b'));
    expect(text.indexOf('\xee\x80\x80')).toBeLessThan(text.indexOf('\xf0\x9f\x9a\x80'));
  });

  test('the entries are written and read by compiled code, not by the interpreter', () => {
    // The stack of an error raised inside an entry shows who handled the entry.
    const encodeError = outcomeStack(() => compiled.encode(mapsValue({ byText: { a: 5 } }) as never));
    expect(encodeError).toMatch(/encode_Maps_/);
    expect(encodeError).not.toMatch(/encodeStringMap|writeEntry/);
    const intKeyError = outcomeStack(() =>
      compiled.encode(mapsValue({ byU32: new Map([[1, 'no']]) }) as never),
    );
    expect(intKeyError).not.toMatch(/encodeIntMap|writeEntry/);
    // An entry of byI64 (field 6) whose enum value 9 names no member.
    const bad = new Uint8Array([0x32, 0x04, 0x08, 0x01, 0x10, 0x09]);
    const decodeError = outcomeStack(() => compiled.decode(bad));
    expect(decodeError).toMatch(/decode_Maps_/);
    expect(decodeError).not.toMatch(/readEntry|readField/);
    expect(outcome(() => compiled.decode(bad))).toStrictEqual(outcome(() => interpreted.decode(bad)));
  });

  test('an entry without its key or value, a repeated key, entries with other wire types', () => {
    const cases = [
      [0x0a, 0x03, 0x12, 0x01, 0x78], // byText: value "x", no key: key ''
      [0x0a, 0x03, 0x0a, 0x01, 0x78], // byText: key "x", no value: ''
      [0x0a, 0x00], // byText: an empty entry
      [0x12, 0x03, 0x0a, 0x01, 0x61], // byName: key "a" (minLength 1 kept), no value: an empty Point
      [0x12, 0x02, 0x12, 0x00], // byName: no key: '' below minLength, refused alike
      [0x0a, 0x06, 0x0a, 0x01, 0x61, 0x12, 0x01, 0x31, 0x0a, 0x06, 0x0a, 0x01, 0x61, 0x12, 0x01, 0x32], // "a" twice: the last wins
      [0x0a, 0x07, 0x08, 0x05, 0x0a, 0x01, 0x61, 0x15, 0x00], // a varint key 1 is skipped; truncated fixed32
      [0x0a, 0x08, 0x08, 0x05, 0x0a, 0x01, 0x61, 0x1d, 0, 0, 0, 0], // field 3 in an entry: skipped
      [0x12, 0x0a, 0x0a, 0x01, 0x61, 0x12, 0x02, 0x08, 0x01, 0x12, 0x01, 0x10, 0x02], // a value message twice: merged
      [0x0a, 0x0d, 0x0a, 0x09, ...Buffer.from('__proto__'), 0x12, 0x00], // a prototype key
      [0x52, 0x05, 0x0a, 0x01, 0x61, 0x12, 0x00], // times: an empty Timestamp value
      [0x52, 0x03, 0x0a, 0x01, 0x61], // times: no value: the epoch
      [0x1a, 0x05, 0x08, 0x80, 0x02, 0x10, 0x00], // byI8: key 128 (zigzag), out of int8's range
      [0x1a, 0x04, 0x08, 0x02, 0x10, 0x80], // byI8: the value's varint cut short
    ].map((bytes) => new Uint8Array(bytes));
    for (const bytes of cases) {
      expect(
        outcome(() => compiled.decode(bytes)),
        hex(bytes),
      ).toStrictEqual(outcome(() => interpreted.decode(bytes)));
    }
    expect((compiled.decode(cases[5] as Uint8Array) as { byText: unknown }).byText).toEqual({ a: '2' });
    expect(outcome(() => compiled.decode(cases[9] as Uint8Array))).toMatchObject({
      ok: false,
      code: 'WK_DECODE_UNSAFE_KEY',
    });
  });

  test('same outcome on every mutation of the bytes, and with unknownKeys: reject', () => {
    const samples = [compiled.encode(mapsValue()), compiled.encode(mapsValue({ nested: {}, byText: {} }))];
    expectSameOutcomeOnMutations(
      samples,
      (b) => compiled.decode(b),
      (b) => interpreted.decode(b),
      1000,
    );
    const strict = createProtobufCodec({ schema: Maps, unknownKeys: 'reject' });
    const strictInterpreted = createProtobufCodec({ schema: Maps, unknownKeys: 'reject', compile: false });
    expectSameOutcomeOnMutations(
      samples,
      (b) => strict.decode(b),
      (b) => strictInterpreted.decode(b),
      300,
    );
  });

  test('wrong values fail with the same code, message and path', () => {
    const wrong: Record<string, unknown>[] = [
      { byText: [] },
      { byText: new Map() },
      { byText: { a: 1 } },
      { byText: { ['__proto__']: 'x' } },
      { byName: { '': point(1) } },
      { byName: { a: { x: 'one', label: '', hue: 'red' } } },
      { byI8: { 1: 2 } },
      { byI8: new Map([[128, 1]]) },
      { byI8: new Map([[1.5, 1]]) },
      { byI64: new Map([[1, 'red']]) },
      { byI64: new Map([[2n, 'mauve']]) },
      { byU64: new Map([[-1n, new Uint8Array()]]) },
      { byU64: new Map([[1n, [1, 2]]]) },
      { bySmallI64: new Map([[2 ** 53, 'x']]) },
      { byFixed32: new Map([[-1, 1]]) },
      { floats: { a: '1' } },
      { times: { a: 'now' } },
      { prices: { a: 'ten' } },
      { shapes: { a: { kind: 'circle' } } },
      { lists: { a: [1, 'x'] } },
      { nested: { a: new Map([[1, point(1.5)]]) } },
      {
        nested: {
          b: new Map<number, unknown>([
            [3, point(1)],
            [2, { x: 1 }],
          ]),
        },
      },
      { maybe: { a: undefined } },
      { bigs: { a: -1n } },
      { byText: { b: 'fine', a: `lone ${'\uD800'}` } },
    ];
    for (const over of wrong) {
      const value = mapsValue(over);
      const a = outcome(() => compiled.encode(value as never));
      expect(a.ok, JSON.stringify(Object.keys(over))).toBe(false);
      expect(a).toStrictEqual(outcome(() => interpreted.encode(value as never)));
    }
  });

  test('limits: maxElements, maxDepth and the allocation budget stop both paths alike', () => {
    const bytes = compiled.encode(mapsValue());
    const limits = [
      ...[1, 5, 20, 40].map((maxElements) => ({ maxElements })),
      ...[1, 2, 3].map((maxDepth) => ({ maxDepth })),
      ...[200, 2_000, 5_000, 8_000].map((maxAllocatedBytes) => ({ maxAllocatedBytes })),
    ];
    let refused = 0;
    for (const limit of limits) {
      const a = outcome(() => createProtobufCodec({ schema: Maps, limits: limit }).decode(bytes));
      const b = outcome(() =>
        createProtobufCodec({ schema: Maps, limits: limit, compile: false }).decode(bytes),
      );
      expect(a, JSON.stringify(limit)).toStrictEqual(b);
      if (!a.ok) refused++;
    }
    expect(refused).toBeGreaterThan(8);
    // Encoding holds the value to maxDepth too: a map of messages nests two levels below the root.
    const shallow = { maxDepth: 2 };
    expect(
      outcome(() => createProtobufCodec({ schema: Maps, limits: shallow }).encode(mapsValue() as never)),
    ).toStrictEqual(
      outcome(() =>
        createProtobufCodec({ schema: Maps, limits: shallow, compile: false }).encode(mapsValue() as never),
      ),
    );
  });

  test('the catalog dataset (id-keyed maps of thousands of entries): same bytes, same values', () => {
    const [catalog] = JSON.parse(JSON.stringify(catalogs(1, 7))) as unknown[];
    const fast = createProtobufCodec({ schema: Catalog });
    const slow = createProtobufCodec({ schema: Catalog, compile: false });
    const bytes = fast.encode(catalog as never);
    expect(hex(bytes)).toBe(hex(slow.encode(catalog as never)));
    expect(fast.decode(bytes)).toStrictEqual(slow.decode(bytes));
    expect(fast.decode(bytes)).toStrictEqual(catalog);
  });
});

function outcomeStack(body: () => unknown): string {
  try {
    body();
  } catch (error) {
    return (error as Error).stack ?? '';
  }
  throw new Error('expected a failure');
}

// ---------------------------------------------------------------------------------------------
// Random schemas with maps (test/support/protobuf-schemas.ts), and random values of them.

const { map: mapArbitrary, value: valueArbitrary } = schemaArbitraryOf(valueKinds);

/** A root message with at least one map field. */
const rootArbitrary = fc
  .tuple(mapArbitrary, fc.array(valueArbitrary, { maxLength: 2 }))
  .map(([map, others]) =>
    t.object(`Root${nextName()}`, Object.fromEntries([map, ...others].map((schema, i) => [`r${i}`, schema]))),
  );

test('random schemas with maps: same bytes, same values, same outcome on mutated bytes', () => {
  fc.assert(
    fc.property(
      rootArbitrary.chain((schema) =>
        fc.tuple(fc.constant(schema), fc.array(valuesOf(schema), { minLength: 1, maxLength: 3 })),
      ),
      ([schema, values]) => {
        const fast = createProtobufCodec({ schema });
        const slow = createProtobufCodec({ schema, compile: false });
        expect(fast.compiled).toBe(true);
        const samples = values.map((value) => {
          const bytes = fast.encode(value);
          expect(hex(bytes)).toBe(hex(slow.encode(value)));
          expect(fast.decode(bytes)).toStrictEqual(slow.decode(bytes));
          expect(fast.decode(bytes)).toStrictEqual(value);
          return bytes;
        });
        if (samples.some((bytes) => bytes.length > 0)) {
          expectSameOutcomeOnMutations(
            samples.filter((bytes) => bytes.length > 0),
            (b) => fast.decode(b),
            (b) => slow.decode(b),
            20,
          );
        }
      },
    ),
    { numRuns: 150, seed: 35 },
  );
});
