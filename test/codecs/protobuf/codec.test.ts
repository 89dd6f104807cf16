import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { withVarintLength } from '../../../src/codecs/core/framing.js';
import { createProtobufCodec, protobufMediaTypes } from '../../../src/codecs/protobuf/index.js';
import { isWirekitError } from '../../../src/errors/index.js';
import { type Schema, t } from '../../../src/index.js';
import { Category, Color, EveryKind, EveryKindFlat, everyKindValue } from '../../fixtures/every-kind.js';
import { codeOf } from '../../support/code-of.js';
import { chunked, collect, concat, readAll } from '../../support/streams.js';
import { describeHostileInput } from '../../support/suites/hostile-input.js';

const codec = <T = unknown>(schema: Schema, limits?: Record<string, number>) =>
  createProtobufCodec<T>({ schema, limits });
const bytes = (...values: number[]) => new Uint8Array(values);
const hex = (data: Uint8Array) => Buffer.from(data).toString('hex');
const roundTrip = (schema: Schema, value: unknown) => {
  const c = codec(schema);
  return c.decode(c.encode(value));
};

/** The error (code and path) that `run` throws. */
function failure(run: () => unknown): { code: string; path: unknown } {
  try {
    run();
  } catch (error) {
    if (isWirekitError(error)) return { code: error.code, path: error.path };
    throw error;
  }
  return { code: 'no error', path: undefined };
}

/** A chain of `levels` Category messages, as bytes of the Category message itself. */
function categoryChain(levels: number): Uint8Array {
  const sizes = [0];
  for (let i = 1; i < levels; i++) {
    const inner = sizes[i - 1] as number;
    sizes.push(1 + varintBytes(inner).length + inner);
  }
  const out: number[] = [];
  for (let i = levels - 1; i >= 1; i--) out.push(0x12, ...varintBytes(sizes[i - 1] as number));
  return new Uint8Array(out);
}

function varintBytes(value: number): number[] {
  const out: number[] = [];
  while (value >= 0x80) {
    out.push((value & 0x7f) | 0x80);
    value = Math.floor(value / 128);
  }
  out.push(value);
  return out;
}

function categoryOfDepth(levels: number): Category {
  let node: Category = { name: '', children: [] };
  for (let i = 1; i < levels; i++) node = { name: '', children: [node] };
  return node;
}

describe('protobuf codec: basics', () => {
  test('media types and schema requirement', () => {
    const c = codec(EveryKind);
    expect(protobufMediaTypes[0]).toBe('application/x-protobuf');
    expect(protobufMediaTypes).toContain('application/protobuf');
    expect(c.mediaType).toBe('application/x-protobuf');
    expect(c.streamMediaType).toBe('application/x-protobuf-delimited');
    expect(c.format).toBe('protobuf');
    expect(c.schema).toBe(EveryKind);
    expect(codeOf(() => createProtobufCodec({}))).toBe('WK_SCHEMA_REQUIRED');
  });

  test('EveryKind round-trips', () => {
    expect(roundTrip(EveryKind, everyKindValue())).toEqual(everyKindValue());
  });

  test('EveryKindFlat round-trips, with the optional fields present', () => {
    const { category: _, ...flat } = everyKindValue();
    const value = { ...flat, work: { street: 'w', zip: '' }, nickname: '', manager: 'boss' };
    expect(roundTrip(EveryKindFlat, value)).toEqual(value);
  });

  test('decoded objects have the literal fields and no absent optional keys', () => {
    const decoded = roundTrip(EveryKind, everyKindValue()) as Record<string, unknown>;
    expect(decoded.version).toBe('v1');
    expect(Object.hasOwn(decoded, 'work')).toBe(false);
    expect(Object.hasOwn(decoded, 'nickname')).toBe(false);
    expect(decoded.manager).toBeNull();
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
  });

  test('recursion within maxDepth round-trips; one level more is refused both ways', () => {
    // A Category is two levels, as in every format: the object and its children list (the last
    // one's empty list included, though the wire has no bytes for it).
    const c = codec(Category);
    expect(c.decode(c.encode(categoryOfDepth(50)))).toEqual(categoryOfDepth(50));
    expect(codeOf(() => c.encode(categoryOfDepth(51)))).toBe('WK_LIMIT_DEPTH');
    expect(codeOf(() => c.decode(categoryChain(51)))).toBe('WK_LIMIT_DEPTH');
    expect(c.decode(categoryChain(50))).toEqual(categoryOfDepth(50));
  });
});

const Inner = t.object('Inner', { n: t.int32() });
const Edge = t.object('Edge', {
  i64: t.int64(),
  u64: t.uint64(),
  i64n: t.int64({ as: 'number' }),
  u64n: t.uint64({ as: 'number' }),
  i8: t.int8(),
  u16: t.uint16(),
  f32: t.float32(),
  f64: t.float64(),
  s: t.string(),
  b: t.bytes(),
  optInt: t.optional(t.int32()),
  nulStr: t.nullable(t.string()),
  optNul: t.optional(t.nullable(t.int32())),
  optList: t.optional(t.array(t.string())),
  nulMap: t.nullable(t.map(t.string(), t.int32())),
  items: t.array(t.optional(t.float64())),
  nulls: t.array(t.nullable(t.string())),
  grid: t.array(t.array(t.array(t.bool()))),
  mapOfLists: t.map(t.string(), t.array(t.int32())),
  mapOfOpt: t.map(t.uint64(), t.nullable(Inner)),
  listOfMaps: t.array(t.map(t.int64(), t.string())),
  lits: t.array(t.literal(3)),
  optLit: t.optional(t.literal(true)),
  when: t.timestamp({ precision: 's' }),
  whenNs: t.timestamp({ precision: 'ns' }),
  json: t.json(),
  dec: t.decimal(),
  color: Color,
  inner: Inner,
  inners: t.array(Inner),
});

const zeros = {
  i64: 0n,
  u64: 0n,
  i64n: 0,
  u64n: 0,
  i8: 0,
  u16: 0,
  f32: 0,
  f64: 0,
  s: '',
  b: new Uint8Array(0),
  nulStr: null,
  nulMap: null,
  items: [],
  nulls: [],
  grid: [],
  mapOfLists: {},
  mapOfOpt: new Map(),
  listOfMaps: [],
  lits: [],
  when: new Date(0),
  whenNs: new Date(0),
  json: null,
  dec: '0',
  color: 'red',
  inner: { n: 0 },
  inners: [],
};

const extremes = {
  i64: 2n ** 63n - 1n,
  u64: 2n ** 64n - 1n,
  i64n: Number.MIN_SAFE_INTEGER,
  u64n: Number.MAX_SAFE_INTEGER,
  i8: -128,
  u16: 65_535,
  f32: -Infinity,
  f64: Number.MIN_VALUE,
  s: '𝄞 astral, ünï, 中文, \u0000 nul',
  b: new Uint8Array([0, 255, 128]),
  optInt: 0,
  nulStr: '',
  optNul: -1,
  optList: [],
  nulMap: {},
  items: [undefined, 0, -0.5, undefined],
  nulls: [null, '', 'x', null],
  grid: [[], [[]], [[true, false], [false]]],
  mapOfLists: { empty: [], full: [1, -2, 3], '': [0] },
  mapOfOpt: new Map([
    [2n ** 64n - 1n, { n: -1 }],
    [0n, null],
  ]),
  listOfMaps: [new Map(), new Map([[-(2n ** 63n), 'min']])],
  lits: [3, 3],
  optLit: true,
  when: new Date('2038-01-19T03:14:08Z'),
  whenNs: new Date('1900-01-01T00:00:00.001Z'),
  json: { a: [1, 'x', null, { b: true }], 'ü🚀': -0.25 },
  dec: '-0.000001',
  color: 'blue',
  inner: { n: 2_147_483_647 },
  inners: [{ n: 0 }, { n: -2_147_483_648 }],
};

describe('protobuf codec: edge values', () => {
  test('all-default values encode to nothing but the messages that are present, and decode back', () => {
    const c = codec(Edge);
    const encoded = c.encode(zeros);
    // The timestamps (24, 25) and inner (29) are messages, present even when empty; json null is
    // the text "null" (26) and decimal zero the text "0" (27).
    expect(hex(encoded)).toBe(['c20100', 'ca0100', 'd201046e756c6c', 'da010130', 'ea0100'].join(''));
    expect(c.decode(encoded)).toEqual(zeros);
  });

  test('limits of every number kind, unicode, nested wrappers and presence round-trip', () => {
    expect(roundTrip(Edge, extremes)).toEqual(extremes);
  });

  test.each([
    ['NaN', Number.NaN],
    ['-0', -0],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['largest', Number.MAX_VALUE],
    ['subnormal', 5e-324],
  ])('float64 %s round-trips bit for bit', (_, value) => {
    const decoded = roundTrip(Edge, { ...zeros, f64: value }) as { f64: number };
    expect(Object.is(decoded.f64, value)).toBe(true);
  });

  test('float32 keeps NaN, -0 and the infinities; other values are rounded to float32', () => {
    for (const value of [Number.NaN, -0, Number.POSITIVE_INFINITY, 3.4028234663852886e38]) {
      const decoded = roundTrip(Edge, { ...zeros, f32: value }) as { f32: number };
      expect(Object.is(decoded.f32, value)).toBe(true);
    }
    expect((roundTrip(Edge, { ...zeros, f32: 0.1 }) as { f32: number }).f32).toBe(Math.fround(0.1));
  });

  test('int64 limits, as bigint and as number', () => {
    for (const i64 of [-(2n ** 63n), -1n, 2n ** 52n, -(2n ** 52n), 2n ** 53n + 1n, 2n ** 63n - 1n]) {
      for (const u64 of [1n, 2n ** 53n, 2n ** 63n, 2n ** 64n - 1n]) {
        expect(roundTrip(Edge, { ...zeros, i64, u64 })).toMatchObject({ i64, u64 });
      }
    }
    for (const i64n of [Number.MIN_SAFE_INTEGER, -1, 2 ** 52, -(2 ** 52), Number.MAX_SAFE_INTEGER]) {
      expect(roundTrip(Edge, { ...zeros, i64n })).toMatchObject({ i64n });
    }
  });

  test('strings of every length and script round-trip (the length prefix is sized exactly)', () => {
    const c = codec(t.object('S', { s: t.string() }));
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (s) => {
        const encoded = c.encode({ s });
        const utf8 = new TextEncoder().encode(s);
        expect(encoded.subarray(encoded.length - utf8.length)).toEqual(utf8);
        expect(c.decode(encoded)).toEqual({ s });
      }),
      { numRuns: 300 },
    );
    for (const length of [42, 43, 127, 128, 5461, 16_383, 16_384, 100_000]) {
      for (const unit of ['a', 'é', '中', '🚀']) {
        const s = unit.repeat(length);
        expect(c.decode(c.encode({ s }))).toEqual({ s });
      }
    }
  });

  test('nested messages longer than 127 and 16383 bytes (multi-byte length prefixes)', () => {
    const value = categoryOfDepth(3);
    (value.children[0] as Category).name = 'x'.repeat(20_000);
    value.children.push({ name: 'y'.repeat(200), children: [] });
    expect(roundTrip(Category, value)).toEqual(value);
  });

  test('timestamps: precisions, before 1970, and seconds precision refuses milliseconds', () => {
    for (const when of ['0001-01-01T00:00:00Z', '1969-12-31T23:59:59Z', '9999-12-31T23:59:59Z']) {
      expect(roundTrip(Edge, { ...zeros, when: new Date(when) })).toEqual({ ...zeros, when: new Date(when) });
    }
    for (const when of ['1677-09-22T00:00:00Z', '1969-12-31T23:59:59.999Z', '2262-04-11T23:47:16.854Z']) {
      expect(roundTrip(Edge, { ...zeros, whenNs: new Date(when) })).toEqual({
        ...zeros,
        whenNs: new Date(when),
      });
    }
    // A Date with milliseconds is no value of a seconds timestamp (docs/values.md), as validate says.
    expect(codeOf(() => codec(Edge).encode({ ...zeros, when: new Date(1500) }))).toBe('WK_VALIDATION_FAILED');
  });

  test('optional(nullable(x)): null and absent collapse to absent, as the mapping documents', () => {
    expect(roundTrip(Edge, { ...zeros, optNul: null })).toEqual(zeros);
    expect(Object.hasOwn(roundTrip(Edge, { ...zeros, optNul: null }) as object, 'optNul')).toBe(false);
  });

  test('json values of every shape', () => {
    for (const json of [null, true, 0, -1.5e300, '', 'text', [], {}, [[[]]], { a: { b: [null] } }]) {
      expect(roundTrip(Edge, { ...zeros, json })).toEqual({ ...zeros, json });
    }
  });

  test('roots that are not objects go into a { value = 1 } message', () => {
    expect(hex(codec(t.array(t.int32())).encode([1, -1]))).toBe('0a020201');
    expect(roundTrip(t.array(t.int32()), [1, -1])).toEqual([1, -1]);
    expect(roundTrip(t.string(), 'root')).toBe('root');
    expect(roundTrip(t.string(), '')).toBe('');
    expect(roundTrip(t.optional(t.string()), undefined)).toBeUndefined();
    expect(roundTrip(t.nullable(t.int32()), null)).toBeNull();
    expect(roundTrip(t.map(t.int32(), t.bool()), new Map([[1, true]]))).toEqual(new Map([[1, true]]));
    expect(codec(t.literal('x')).encode('x')).toEqual(new Uint8Array(0));
    expect(roundTrip(t.literal('x'), 'x')).toBe('x');
    expect(roundTrip(Color, 'blue')).toBe('blue');
  });

  test('a union root is the union message itself', () => {
    const Shape = EveryKind.fields.find((f) => f.name === 'shape')?.schema as Schema;
    expect(hex(codec(Shape).encode({ kind: 'circle', radius: 0 }))).toBe('0a00');
    expect(roundTrip(Shape, { kind: 'rect', width: 1, height: 0 })).toEqual({
      kind: 'rect',
      width: 1,
      height: 0,
    });
  });

  test('random values of a mixed schema round-trip', () => {
    const Mixed = t.object('Mixed', {
      a: t.int64(),
      b: t.array(t.float64()),
      c: t.map(t.string(), t.optional(t.uint32())),
      d: t.bytes(),
    });
    const c = codec(Mixed);
    fc.assert(
      fc.property(
        fc.record({
          a: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
          b: fc.array(fc.double()),
          c: fc.dictionary(
            fc.string().filter((k) => !['__proto__', 'constructor', 'prototype'].includes(k)),
            fc.option(fc.nat(), { nil: undefined }),
          ),
          d: fc.uint8Array(),
        }),
        (value) => {
          expect(c.decode(c.encode(value))).toEqual(value);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('protobuf codec: wire details', () => {
  const Scalars = t.object('Scalars', {
    a: t.int32(),
    b: t.string(),
    c: t.float64(),
    d: t.bool(),
    e: Color,
    f: t.bytes(),
    g: t.int64(),
    h: t.float32(),
  });
  const scalarZeros = { a: 0, b: '', c: 0, d: false, e: 'red', f: new Uint8Array(0), g: 0n, h: 0 };

  test('implicit presence: defaults are not written, and nothing decodes to the defaults', () => {
    expect(codec(Scalars).encode(scalarZeros)).toEqual(new Uint8Array(0));
    expect(codec(Scalars).decode(new Uint8Array(0))).toEqual(scalarZeros);
  });

  test('-0.0 is written (its bits are not zero), as protoc-generated code does; a float32 underflow is not', () => {
    expect(hex(codec(Scalars).encode({ ...scalarZeros, c: -0 }))).toBe('190000000000000080');
    expect(hex(codec(Scalars).encode({ ...scalarZeros, h: -0 }))).toBe('4500000080');
    expect(hex(codec(Scalars).encode({ ...scalarZeros, h: 1e-50 }))).toBe('');
    expect(hex(codec(Scalars).encode({ ...scalarZeros, c: Number.NaN }))).toBe('19000000000000f87f');
  });

  test('explicit presence writes zero values', () => {
    const P = t.object('P', {
      a: t.optional(t.int32()),
      b: t.nullable(t.string()),
      c: t.optional(t.array(t.int32())),
    });
    expect(hex(codec(P).encode({ a: 0, b: '', c: [] }))).toBe('080012001a00');
    expect(codec(P).decode(bytes(0x08, 0x00, 0x12, 0x00, 0x1a, 0x00))).toEqual({ a: 0, b: '', c: [] });
    expect(codec(P).decode(new Uint8Array(0))).toEqual({ b: null });
  });

  test('zigzag, packed repeated scalars, and unpacked ones accepted', () => {
    const R = t.object('R', { xs: t.array(t.int32()), fs: t.array(t.float32()), us: t.array(t.uint8()) });
    const c = codec(R);
    expect(hex(c.encode({ xs: [1, -1, 2], fs: [1], us: [] }))).toBe('0a0302010412040000803f');
    expect(
      c.decode(bytes(0x08, 0x02, 0x08, 0x01, 0x0a, 0x01, 0x04, 0x15, 0, 0, 0x80, 0x3f, 0x18, 0xff, 0x01)),
    ).toEqual({
      xs: [1, -1, 2],
      fs: [1],
      us: [255],
    });
  });

  test('fields are written in field-number order, whatever the declaration order', () => {
    const O = t.object('O', {
      z: t.field(t.int32(), { id: 3 }),
      a: t.field(t.int32(), { id: 1 }),
      m: t.field(t.int32(), { id: 2 }),
    });
    expect(hex(codec(O).encode({ z: 1, a: 1, m: 1 }))).toBe('080210021802');
  });

  test('map entries are sorted by key (deterministic serialization) and carry default keys and values', () => {
    const M = t.object('M', { s: t.map(t.string(), t.int32()), i: t.map(t.int32(), t.string()) });
    const value = {
      s: { b: 0, '10': 1, '9': 2, '🚀': 3, '\uE000': 4 },
      i: new Map([
        [5, ''],
        [-1, 'x'],
        [0, ''],
      ]),
    };
    const c = codec(M);
    // Code point order: '10' < '9' < 'b' < U+E000 < U+1F680 (UTF-16 order would put the rocket first).
    const s = [
      '0a060a0231301002',
      '0a050a01391004',
      '0a050a01621000',
      '0a070a03ee80801008',
      '0a080a04f09f9a801006',
    ];
    const i = ['1205080112017' + '8', '120408001200', '1204080a1200'];
    expect(hex(c.encode(value))).toBe([...s, ...i].join(''));
    expect(c.decode(c.encode(value))).toEqual(value);
  });

  test('unknown fields of every wire type are skipped, groups included', () => {
    const c = codec(Inner);
    const unknown = [
      0x98,
      0x06,
      0x96,
      0x01, // field 99 varint
      0x91,
      0x06,
      1,
      2,
      3,
      4,
      5,
      6,
      7,
      8, // field 98 fixed64
      0x8d,
      0x06,
      1,
      2,
      3,
      4, // field 97 fixed32
      0x82,
      0x06,
      0x02,
      0xff,
      0xff, // field 96 LEN
      0xfb,
      0x05,
      0x08,
      0x01,
      0x0b,
      0x10,
      0x02,
      0x0c,
      0xfc,
      0x05, // group 95 { 1: 1, group 1 { 2: 2 } }
    ];
    expect(c.decode(bytes(...unknown, 0x08, 0x04, ...unknown))).toEqual({ n: 2 });
  });

  test('a field seen twice keeps the last value', () => {
    expect(codec(Inner).decode(bytes(0x08, 0x02, 0x08, 0x04))).toEqual({ n: 2 });
  });

  test('absent messages decode with defaults; absent timestamps, decimals and json have documented values', () => {
    expect(codec(Edge).decode(new Uint8Array(0))).toEqual(zeros);
  });

  test('map entries without key or value decode to the defaults', () => {
    const M = t.object('M', { m: t.map(t.string(), Inner), i: t.map(t.uint64(), t.int32()) });
    expect(codec(M).decode(bytes(0x0a, 0x00, 0x12, 0x00))).toEqual({
      m: { '': { n: 0 } },
      i: new Map([[0n, 0]]),
    });
  });

  test('bool reads any non-zero varint as true', () => {
    expect(codec(Scalars).decode(bytes(0x20, 0x02))).toMatchObject({ d: true });
  });
});

describe('protobuf codec: decode refusals', () => {
  const c = codec(Edge);
  test.each([
    ['a varint of 11 bytes', [0x08, ...Array(10).fill(0xff), 0x01], 'WK_DECODE_MALFORMED'],
    ['field number 0', [0x00, 0x01], 'WK_DECODE_MALFORMED'],
    ['wire type 7', [0x0f], 'WK_DECODE_MALFORMED'],
    ['wire type 6 on an unknown field', [0xfe, 0x05], 'WK_DECODE_MALFORMED'],
    ['an end group without start', [0xfc, 0x05], 'WK_DECODE_MALFORMED'],
    ['an end group for another field', [0xfb, 0x05, 0xf4, 0x05], 'WK_DECODE_MALFORMED'],
    ['an unterminated group', [0xfb, 0x05, 0x08, 0x01], 'WK_DECODE_TRUNCATED'],
    ['a key longer than 32 bits', [0x88, 0x80, 0x80, 0x80, 0x80, 0x01], 'WK_DECODE_MALFORMED'],
    ['a length past the end', [0x4a, 0x05, 0x61], 'WK_DECODE_TRUNCATED'],
    ['a cut fixed64', [0x41, 0, 0, 0], 'WK_DECODE_TRUNCATED'],
    ['a cut varint', [0x08, 0x80], 'WK_DECODE_TRUNCATED'],
    // Another wire type makes a known field an unknown one (wire-rules.test.ts): still well-formed.
    ['a field of another wire type, cut short', [0x09, 0, 0, 0], 'WK_DECODE_TRUNCATED'],
    ['int8 out of range', [0x28, 0x90, 0x03], 'WK_DECODE_SCHEMA_MISMATCH'],
    ['uint16 out of range', [0x30, 0x80, 0x80, 0x04], 'WK_DECODE_SCHEMA_MISMATCH'],
    [
      'int64 beyond as: number',
      [0x18, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f],
      'WK_DECODE_SCHEMA_MISMATCH',
    ],
    ['an enum index past the members', [0xe0, 0x01, 0x03], 'WK_DECODE_SCHEMA_MISMATCH'],
    ['a negative enum index', [0xe0, 0x01, ...Array(9).fill(0xff), 0x01], 'WK_DECODE_SCHEMA_MISMATCH'],
    ['text that is not a decimal', [0xda, 0x01, 0x01, 0x78], 'WK_DECODE_SCHEMA_MISMATCH'],
    ['text that is not JSON', [0xd2, 0x01, 0x01, 0x7b], 'WK_DECODE_SCHEMA_MISMATCH'],
    [
      'a json __proto__ key',
      [0xd2, 0x01, 0x10, ...new TextEncoder().encode('{"__proto__":{}}')],
      'WK_DECODE_UNSAFE_KEY',
    ],
    [
      'Timestamp nanos of 1e9',
      [0xca, 0x01, 0x06, 0x10, 0x80, 0x94, 0xeb, 0xdc, 0x03],
      'WK_DECODE_SCHEMA_MISMATCH',
    ],
    [
      'a literal item of another value',
      [0xb2, 0x01, 0x08, 0, 0, 0, 0, 0, 0, 0, 0x40],
      'WK_DECODE_SCHEMA_MISMATCH',
    ],
    ['invalid UTF-8', [0x4a, 0x02, 0xc3, 0x28], 'WK_DECODE_MALFORMED'],
  ])('%s is refused', (_, input, code) => {
    expect(codeOf(() => c.decode(new Uint8Array(input)))).toBe(code);
  });

  test('a union with no variant set is a schema mismatch', () => {
    const Shape = EveryKind.fields.find((f) => f.name === 'shape')?.schema as Schema;
    expect(codeOf(() => codec(Shape).decode(new Uint8Array(0)))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    expect(codeOf(() => codec(Shape).decode(bytes(0x1a, 0x00)))).toBe('WK_DECODE_SCHEMA_MISMATCH');
  });

  test.each(['__proto__', 'constructor', 'prototype'])('a map key %s is refused', (key) => {
    const M = t.object('M', { m: t.map(t.string(), t.int32()) });
    const k = new TextEncoder().encode(key);
    expect(codeOf(() => codec(M).decode(bytes(0x0a, k.length + 2, 0x0a, k.length, ...k)))).toBe(
      'WK_DECODE_UNSAFE_KEY',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('decode takes only a Uint8Array', () => {
    expect(codeOf(() => c.decode('x' as unknown as Uint8Array))).toBe('WK_DECODE_MALFORMED');
  });
});

describe('protobuf codec: encode checks', () => {
  const c = codec(EveryKind);
  const value = everyKindValue;
  test.each([
    ['a wrong scalar type', { ...value(), flag: 'yes' }, 'WK_VALIDATION_FAILED', ['flag']],
    [
      'a nested field',
      { ...value(), home: { street: 's', zip: 5 } },
      'WK_VALIDATION_FAILED',
      ['home', 'zip'],
    ],
    ['an array item', { ...value(), tags: ['a', 3] }, 'WK_VALIDATION_FAILED', ['tags', 1]],
    ['a nested array item', { ...value(), matrix: [[], [1, 1.5]] }, 'WK_VALIDATION_FAILED', ['matrix', 1, 1]],
    ['a map value', { ...value(), scores: { math: '9' } }, 'WK_VALIDATION_FAILED', ['scores', 'math']],
    [
      'an int map key',
      { ...value(), byId: new Map([[1.5, { street: '', zip: '' }]]) },
      'WK_VALIDATION_FAILED',
      ['byId', '1.5'],
    ],
    ['a union tag', { ...value(), shape: { kind: 'star' } }, 'WK_VALIDATION_FAILED', ['shape', 'kind']],
    [
      'a union variant field',
      { ...value(), shapes: [{ kind: 'circle', radius: 'r' }] },
      'WK_VALIDATION_FAILED',
      ['shapes', 0, 'radius'],
    ],
    ['a literal', { ...value(), version: 'v2' }, 'WK_VALIDATION_FAILED', ['version']],
    ['a missing field', { ...value(), name: undefined }, 'WK_VALIDATION_FAILED', ['name']],
    ['a missing nullable field', { ...value(), manager: undefined }, 'WK_VALIDATION_FAILED', ['manager']],
    ['int32 out of range', { ...value(), i32: 2 ** 31 }, 'WK_VALIDATION_FAILED', ['i32']],
    ['uint8 out of range', { ...value(), u8: 256 }, 'WK_VALIDATION_FAILED', ['u8']],
    ['int64 as a number', { ...value(), i64: 1 }, 'WK_VALIDATION_FAILED', ['i64']],
    ['uint64 negative', { ...value(), u64: -1n }, 'WK_VALIDATION_FAILED', ['u64']],
    ['uint64 too large', { ...value(), u64: 2n ** 64n }, 'WK_VALIDATION_FAILED', ['u64']],
    ['an unsafe int64 number', { ...value(), i64n: 2 ** 53 }, 'WK_VALIDATION_FAILED', ['i64n']],
    ['a float32 overflow', { ...value(), f32: 1e39 }, 'WK_VALIDATION_FAILED', ['f32']],
    ['not a decimal', { ...value(), price: '1e5' }, 'WK_VALIDATION_FAILED', ['price']],
    [
      'an invalid Date',
      { ...value(), createdAt: new Date(Number.NaN) },
      'WK_VALIDATION_FAILED',
      ['createdAt'],
    ],
    ['an enum non-member', { ...value(), color: 'pink' }, 'WK_VALIDATION_FAILED', ['color']],
    ['NaN in json', { ...value(), extra: { n: Number.NaN } }, 'WK_VALIDATION_FAILED', ['extra']],
    ['a lone surrogate', { ...value(), name: 'a\uD800b' }, 'WK_ENCODE_UNSUPPORTED', ['name']],
    [
      'a lone surrogate in a long string',
      { ...value(), tags: [`${'x'.repeat(100)}\uDC00`] },
      'WK_ENCODE_UNSUPPORTED',
      ['tags', 0],
    ],
    [
      'a lone surrogate in a map key',
      { ...value(), scores: { '\uD800': 1 } },
      'WK_ENCODE_UNSUPPORTED',
      ['scores', '\uD800'],
    ],
  ])('%s', (_, bad, code, path) => {
    expect(failure(() => c.encode(bad as never))).toEqual({ code, path });
  });

  test('the error message names the path', () => {
    try {
      c.encode({ ...value(), home: { street: 's', zip: 5 } } as never);
    } catch (error) {
      expect((error as Error).message).toBe('home.zip: expected a string, got number 5.');
    }
  });

  test('a cyclic value stops at maxDepth with a code, not a stack overflow', () => {
    const loop: Category = { name: 'loop', children: [] };
    loop.children.push(loop);
    expect(codeOf(() => codec(Category).encode(loop))).toBe('WK_LIMIT_DEPTH');
    const json: Record<string, unknown> = {};
    json.self = json;
    expect(failure(() => c.encode({ ...value(), extra: json }))).toEqual({
      code: 'WK_LIMIT_DEPTH',
      path: ['extra'],
    });
    expect(codec(Category).encode({ name: 'after', children: [] })).toEqual(
      bytes(0x0a, 5, 97, 102, 116, 101, 114),
    );
  });

  test('constraints the wire cannot express are checked on every encode; validate: true adds unknown keys', () => {
    const long = { ...value(), home: { street: '', zip: '12345678901' } };
    expect(codeOf(() => c.encode(long))).toBe('WK_VALIDATION_FAILED');
    const extra = { ...value(), unknown: 1 };
    expect(codeOf(() => c.encode(extra))).toBe('no error');
    expect(codeOf(() => createProtobufCodec({ schema: EveryKind, validate: true }).encode(extra))).toBe(
      'WK_VALIDATION_FAILED',
    );
  });

  test('an encode from inside a getter (re-entrant) does not corrupt the outer one', () => {
    const c2 = codec(Inner);
    const inner = {
      get n() {
        c2.encode({ n: 7 });
        return 3;
      },
    };
    expect(c2.decode(c2.encode(inner))).toEqual({ n: 3 });
  });
});

function decodeAll<T>(
  c: { decodeStream: (s: AsyncIterable<Uint8Array>) => AsyncIterable<T> },
  chunks: AsyncIterable<Uint8Array>,
): Promise<T[]> {
  return collect(c.decodeStream(chunks));
}

describe('protobuf codec: streams', () => {
  const c = codec(EveryKind);
  const values = [
    everyKindValue(),
    { ...everyKindValue(), shape: { kind: 'rect', width: 0, height: 0 }, tags: [], nickname: 'n' },
    { ...everyKindValue(), name: 'x'.repeat(300), category: categoryOfDepth(20) },
  ];

  test('encodeStream writes varint-delimited messages (writeDelimited)', async () => {
    const data = await readAll(c.encodeStream(values));
    expect(data).toEqual(concat(values.map((v) => withVarintLength(c.encode(v)))));
  });

  test('decodeStream reads them back however the chunks are cut', async () => {
    const data = await readAll(c.encodeStream(values));
    expect(await decodeAll(c, chunked(data, [1]))).toEqual(values);
    for (let run = 0; run < 20; run++) {
      expect(
        await decodeAll(
          c,
          // As many sizes as bytes: every chunk takes at least one byte, so the sizes never repeat.
          chunked(
            data,
            Array.from({ length: data.length }, () => Math.floor(Math.random() * 400)),
          ),
        ),
      ).toEqual(values);
    }
  });

  test('empty messages are frames of one byte', async () => {
    const s = codec(Inner);
    const data = await readAll(s.encodeStream([{ n: 0 }, { n: 1 }, { n: 0 }]));
    expect(hex(data)).toBe('0002080200');
    expect(await decodeAll(s, chunked(data, [1]))).toEqual([{ n: 0 }, { n: 1 }, { n: 0 }]);
  });

  test('a stream cut inside a frame, or with a bad frame, fails with a code', async () => {
    const data = await readAll(c.encodeStream(values));
    await expect(decodeAll(c, chunked(data.subarray(0, data.length - 1), [7]))).rejects.toMatchObject({
      code: 'WK_DECODE_TRUNCATED',
    });
    await expect(decodeAll(codec(Inner), chunked(bytes(0x02, 0x08, 0x80), [1]))).rejects.toMatchObject({
      code: 'WK_DECODE_TRUNCATED',
    });
  });
});

describe('protobuf codec: limits', () => {
  const S = t.object('S', {
    s: t.string(),
    b: t.bytes(),
    xs: t.array(t.int32()),
    m: t.map(t.string(), t.bool()),
    j: t.json(),
  });
  const base = { s: '', b: new Uint8Array(0), xs: [], m: {}, j: null };
  const at = (limits: Record<string, number>, value: unknown) =>
    codeOf(() => codec(S, limits).decode(codec(S).encode(value)));

  test('maxInputBytes', () => {
    const encoded = codec(S).encode({ ...base, s: 'abc' });
    expect(codeOf(() => codec(S, { maxInputBytes: encoded.length }).decode(encoded))).toBe('no error');
    expect(codeOf(() => codec(S, { maxInputBytes: encoded.length - 1 }).decode(encoded))).toBe(
      'WK_LIMIT_INPUT',
    );
  });

  test('maxStringBytes counts UTF-8 bytes', () => {
    expect(at({ maxStringBytes: 4 }, { ...base, s: '🚀' })).toBe('no error');
    expect(at({ maxStringBytes: 3 }, { ...base, s: '🚀' })).toBe('WK_LIMIT_LENGTH');
  });

  test('maxBytesLength', () => {
    expect(at({ maxBytesLength: 3 }, { ...base, b: new Uint8Array(3) })).toBe('no error');
    expect(at({ maxBytesLength: 2 }, { ...base, b: new Uint8Array(3) })).toBe('WK_LIMIT_LENGTH');
  });

  test('maxElements counts array items, packed ones too, map entries and json items together', () => {
    const value = { ...base, xs: [1, 2], m: { a: true }, j: [1, { k: 2 }] };
    expect(at({ maxElements: 6 }, value)).toBe('no error');
    expect(at({ maxElements: 5 }, value)).toBe('WK_LIMIT_ELEMENTS');
    expect(at({ maxElements: 1 }, { ...base, xs: [1, 2] })).toBe('WK_LIMIT_ELEMENTS');
    const unpacked = bytes(0x18, 0x02, 0x18, 0x04);
    expect(codeOf(() => codec(S, { maxElements: 1 }).decode(unpacked))).toBe('WK_LIMIT_ELEMENTS');
  });

  test('maxDepth counts levels of the value (messages and lists), groups and json nesting', () => {
    expect(codeOf(() => codec(Category, { maxDepth: 6 }).decode(categoryChain(3)))).toBe('no error');
    expect(codeOf(() => codec(Category, { maxDepth: 5 }).decode(categoryChain(3)))).toBe('WK_LIMIT_DEPTH');
    expect(at({ maxDepth: 3 }, { ...base, j: [[1]] })).toBe('no error');
    expect(at({ maxDepth: 3 }, { ...base, j: [[[1]]] })).toBe('WK_LIMIT_DEPTH');
    const groups = [...Array(200).fill([0xfb, 0x05]).flat(), ...Array(200).fill([0xfc, 0x05]).flat()];
    expect(codeOf(() => codec(Inner).decode(new Uint8Array(groups)))).toBe('WK_LIMIT_DEPTH');
  });

  test('a huge maxDepth still cannot overflow the stack: the error is a WirekitError', () => {
    const deep = categoryChain(200_000);
    expect(['WK_LIMIT_DEPTH', 'no error']).toContain(
      codeOf(() => codec(Category, { maxDepth: 1e9 }).decode(deep)),
    );
  });
});

/** EveryKind bytes whose category field nests `levels` Category messages. */
function deepEveryKind(levels: number): Uint8Array {
  const chain = categoryChain(levels);
  return concat([bytes(0xaa, 0x06, ...varintBytes(chain.length)), chain]);
}

describeHostileInput('protobuf', {
  codec: codec(EveryKind),
  withLimits: (limits) => codec(EveryKind, limits),
  samples: [
    everyKindValue(),
    { ...everyKindValue(), work: { street: 'w', zip: 'z' }, nickname: '🚀', manager: 'm', shapes: [] },
  ],
  deep: deepEveryKind,
  hugeLength: () => bytes(0x72, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x61),
  invalidUtf8: () => bytes(0x72, 0x02, 0xff, 0xfe),
  protoKey: () => bytes(0xc2, 0x01, 0x0b, 0x0a, 0x09, ...new TextEncoder().encode('__proto__')),
  detectsTrailing: false,
});

describe('protobuf codec: hostile input beyond the suite', () => {
  test('a huge nested-message or map-entry length allocates nothing', () => {
    expect(codeOf(() => codec(EveryKind).decode(bytes(0xba, 0x01, 0xff, 0xff, 0xff, 0xff, 0x0f)))).toBe(
      'WK_DECODE_TRUNCATED',
    );
    expect(codeOf(() => codec(EveryKind).decode(bytes(0xc2, 0x01, 0xff, 0xff, 0xff, 0x7f)))).toBe(
      'WK_DECODE_TRUNCATED',
    );
  });

  test('random bytes against a schema with every wrapper kind only give values or wirekit errors', () => {
    const c = codec(Edge);
    const sample = c.encode(extremes);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
        (edits) => {
          const mutated = sample.slice();
          for (const [position, value] of edits) mutated[position % mutated.length] = value;
          codeOf(() => c.decode(mutated));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
