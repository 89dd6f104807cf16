import { inspect } from 'node:util';
import fc from 'fast-check';
import { Builder } from 'flatbuffers';
import { describe, expect, test } from 'vitest';
import {
  createFlatBuffersCodec,
  flatBuffersMediaTypes,
  viewFlatBuffers,
} from '../../../src/codecs/flatbuffers/index.js';
import { type ObjectSchema, type Schema, t } from '../../../src/index.js';
import {
  Category,
  Color,
  EveryKind,
  EveryKindFlat,
  everyKindValue,
  Shape,
} from '../../fixtures/every-kind.js';
import { categoryDagBomb, finish } from '../../fixtures/flatbuffers-buffers.js';
import { codeOf } from '../../support/code-of.js';
import { plainView } from '../../support/flatbuffers-view.js';
import { collect, readAll } from '../../support/streams.js';
import { decodeError, describeHostileInput } from '../../support/suites/hostile-input.js';

// Tests build wrong values on purpose and poke into decoded ones, so values here are loosely typed.
// biome-ignore lint/suspicious/noExplicitAny: see above
type Any = Record<string, any>;

const codec = createFlatBuffersCodec<Any>({ schema: EveryKind });

/** The vtable slot of a field by the mapping's rule: number − 1 + union fields numbered below it. */
function slotOf(schema: ObjectSchema, name: string): number {
  const field = schema.fields.find((f) => f.name === name);
  if (field === undefined) throw new Error(`no field ${name}`);
  return field.id - 1 + schema.fields.filter((f) => f.schema.kind === 'union' && f.id < field.id).length;
}

/**
 * A hand-built EveryKind holding only the fields without a FlatBuffers default (price, home, shape,
 * extra, category) plus `extras`, which the caller wrote into `builder` first (a builder cannot nest).
 */
function everyKindWith(builder: Builder, extras: readonly [string, number][]): number {
  const price = builder.createString('0');
  builder.startObject(2);
  const home = builder.endObject();
  builder.startObject(2);
  const circle = builder.endObject();
  const extra = builder.createString('null');
  const category = extras.some(([name]) => name === 'category') ? 0 : deepCategory(builder, 1);
  builder.startObject(slotOf(EveryKind, 'category') + 1);
  if (category !== 0) builder.addFieldOffset(slotOf(EveryKind, 'category'), category, 0);
  builder.addFieldOffset(slotOf(EveryKind, 'price'), price, 0);
  builder.addFieldOffset(slotOf(EveryKind, 'home'), home, 0);
  builder.addFieldInt8(slotOf(EveryKind, 'shape'), 1, 0);
  builder.addFieldOffset(slotOf(EveryKind, 'shape') + 1, circle, 0);
  builder.addFieldOffset(slotOf(EveryKind, 'extra'), extra, 0);
  for (const [name, offset] of extras) builder.addFieldOffset(slotOf(EveryKind, name), offset, 0);
  return builder.endObject();
}

function deepCategory(builder: Builder, levels: number): number {
  let child = 0;
  for (let i = 0; i < levels; i++) {
    let children = 0;
    if (child !== 0) {
      builder.startVector(4, 1, 4);
      builder.addOffset(child);
      children = builder.endVector();
    }
    builder.startObject(2);
    if (children !== 0) builder.addFieldOffset(1, children, 0);
    child = builder.endObject();
  }
  return child;
}

function minimalValue(): Any {
  const value = everyKindValue() as Any;
  return { ...value, tags: [], matrix: [], scores: {}, byId: new Map(), shapes: [], blob: new Uint8Array(0) };
}

function withOptionals(): Any {
  return { ...everyKindValue(), work: { street: 'w', zip: '1' }, nickname: '', manager: 'boss' };
}

/**
 * `bytes` cut at `cuts`: offsets in any order, repeated, 0 or the end included, so pieces may be
 * empty. Unlike `chunked` of test/support/streams.ts (sizes, never an empty chunk), this lets the
 * property below hand the decoder empty chunks too, which a source may yield.
 */
async function* cutAnywhere(bytes: Uint8Array, cuts: readonly number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    yield bytes.subarray(at, Math.max(at, cut));
    at = Math.max(at, cut);
  }
  yield bytes.subarray(at);
}

describe('flatbuffers: the codec', () => {
  test('format, media types, and a schema is required', () => {
    expect(codec.format).toBe('flatbuffers');
    expect(codec.mediaType).toBe('application/x-flatbuffers');
    expect(flatBuffersMediaTypes[0]).toBe(codec.mediaType);
    expect(codec.streamMediaType).toBe('application/x-flatbuffers-seq');
    expect(codec.schema).toBe(EveryKind);
    expect(codeOf(() => createFlatBuffersCodec())).toBe('WK_SCHEMA_REQUIRED');
  });

  test('refuses what the .fbs exporter refuses', () => {
    const schema = t.object('Bad', { 'not-an-identifier': t.int32() });
    expect(codeOf(() => createFlatBuffersCodec({ schema }))).toBe('WK_EXPORT_UNSUPPORTED');
  });

  test('refuses unions and tables beyond what the 8-bit union type and 16-bit vtables hold', () => {
    const variants = Array.from({ length: 256 }, (_, i) => t.object(`V${i}`, { kind: t.literal(`v${i}`) }));
    const wide = t.object('Wide', { one: t.union('Many', 'kind', variants) });
    expect(codeOf(() => createFlatBuffersCodec({ schema: wide }))).toBe('WK_EXPORT_UNSUPPORTED');
    const fields = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, t.float64()]));
    expect(codeOf(() => createFlatBuffersCodec({ schema: t.object('Huge', fields(8200)) }))).toBe(
      'WK_EXPORT_UNSUPPORTED',
    );
    const big = createFlatBuffersCodec<Any>({ schema: t.object('Big', fields(8000)) });
    const value = Object.fromEntries(Array.from({ length: 8000 }, (_, i) => [`f${i}`, i + 0.5]));
    expect(big.decode(big.encode(value))).toEqual(value);
    // Field offsets past 32767: the runtime's __offset would read them as negative numbers.
    expect(big.view(big.encode(value)).f7999).toBe(7999.5);
  });

  test('EveryKind and EveryKindFlat round-trip', () => {
    for (const value of [everyKindValue(), withOptionals(), minimalValue()]) {
      expect(codec.decode(codec.encode(value))).toEqual(value);
    }
    const flat = createFlatBuffersCodec({ schema: EveryKindFlat });
    const { category: _category, ...flatValue } = everyKindValue();
    expect(flat.decode(flat.encode(flatValue))).toEqual(flatValue);
  });

  test('literal fields cost no bytes and come back; absent optionals stay absent', () => {
    const decoded = codec.decode(codec.encode(everyKindValue()));
    expect(decoded.version).toBe('v1');
    expect(decoded.shape).toEqual({ kind: 'circle', radius: 2 });
    expect(Object.hasOwn(decoded, 'work')).toBe(false);
    expect(Object.hasOwn(decoded, 'nickname')).toBe(false);
    expect(decoded.manager).toBeNull();
  });

  test('map entries are written in key order (UTF-8 bytes), as lookup by key needs', () => {
    const scores = { '\u{1F600}': 1, '\uFFFD': 2, b: 3, a: 4, '': 5 };
    const view = codec.view(codec.encode({ ...everyKindValue(), scores }));
    expect(Object.keys(view.scores)).toEqual(['', 'a', 'b', '\uFFFD', '\u{1F600}']);
    const byId = new Map([3, -7, 0, 2_000_000_000].map((k) => [k, { street: String(k), zip: '' }]));
    expect([...codec.view(codec.encode({ ...everyKindValue(), byId })).byId.keys()]).toEqual([
      -7, 0, 3, 2_000_000_000,
    ]);
  });
});

const Big = t.enum(
  'Big',
  Array.from({ length: 300 }, (_, i) => `m${i}`),
);

const Edge = t.object('Edge', {
  i64: t.int64(),
  u64: t.uint64(),
  n64: t.int64({ as: 'number' }),
  u64n: t.uint64({ as: 'number' }),
  f32: t.float32(),
  f64: t.float64(),
  s: t.string(),
  raw: t.bytes(),
  seconds: t.timestamp({ precision: 's' }),
  micros: t.timestamp({ precision: 'us' }),
  nanos: t.timestamp({ precision: 'ns' }),
  big: Big,
  optInt: t.optional(t.int32()),
  nullInt: t.nullable(t.int32()),
  optColor: t.optional(Color),
  optBool: t.optional(t.bool()),
  optNull: t.optional(t.nullable(t.float64())),
  threes: t.array(t.literal(3)),
  xs: t.array(t.literal('x')),
  maybeX: t.optional(t.literal('x')),
  always: t.literal(true),
  holes: t.array(t.nullable(t.int32())),
  blobs: t.array(t.bytes()),
  grid: t.map(t.string(), t.array(t.int8())),
  byBig: t.map(t.int64(), t.string()),
  byByte: t.map(t.uint8(), Shape),
  maybeShape: t.optional(Shape),
  shapeGrid: t.array(t.array(Shape)),
  dates: t.array(t.timestamp()),
  flags: t.array(t.bool()),
  colors: t.array(Color),
});

function edgeValue(): Any {
  return {
    i64: 2n ** 63n - 1n,
    u64: 0n,
    n64: -Number.MAX_SAFE_INTEGER,
    u64n: Number.MAX_SAFE_INTEGER,
    f32: Number.NaN,
    f64: -0,
    s: '',
    raw: new Uint8Array(0),
    seconds: new Date(-86_400_000),
    micros: new Date(-1),
    nanos: new Date('2262-04-11T00:00:00.000Z'),
    big: 'm299',
    optInt: 0,
    nullInt: 0,
    optColor: 'red',
    optBool: false,
    optNull: -0,
    threes: [3, 3],
    xs: ['x'],
    maybeX: 'x',
    always: true,
    holes: [null, 0, -1, null],
    blobs: [new Uint8Array([1]), new Uint8Array(0)],
    grid: { '': [], ünï: [-128, 127] },
    byBig: new Map([
      [-(2n ** 63n), 'min'],
      [0n, ''],
      [2n ** 63n - 1n, 'max'],
    ]),
    byByte: new Map([
      [0, { kind: 'rect', width: -0, height: Number.POSITIVE_INFINITY }],
      [255, { kind: 'circle', radius: Number.NEGATIVE_INFINITY }],
    ]),
    maybeShape: { kind: 'circle', radius: 1 },
    shapeGrid: [[], [{ kind: 'circle', radius: 0.5 }]],
    dates: [new Date(0), new Date(8.64e15), new Date(-8.64e15)],
    flags: [true, false, true],
    colors: ['blue', 'red'],
  };
}

describe('flatbuffers: edge values', () => {
  const edge = createFlatBuffersCodec<Any>({ schema: Edge });

  test('limits of every integer, NaN, -0, infinities, empties, every timestamp unit', () => {
    const value = edgeValue();
    const back = edge.decode(edge.encode(value));
    expect(back).toEqual(value);
    expect(Object.is(back.f64, -0)).toBe(true);
    expect(Object.is(back.optNull, -0)).toBe(true);
    expect(Object.is(back.byByte.get(0).width, -0)).toBe(true);
    expect(back.always).toBe(true);
  });

  test('absent optionals, null nullables, and scalars at their defaults', () => {
    const value: Any = {
      ...edgeValue(),
      i64: 0n,
      u64: 2n ** 64n - 1n,
      n64: 0,
      f32: 0,
      f64: Number.POSITIVE_INFINITY,
      s: 'a\u0000b 😀 \u{10FFFF}',
      big: 'm0',
      nullInt: null,
      optNull: null,
      seconds: new Date(0),
    };
    for (const key of ['optInt', 'optColor', 'optBool', 'maybeX', 'maybeShape']) delete value[key];
    const back = edge.decode(edge.encode(value));
    // optional(nullable(x)) has one absence on the wire: null reads back as absent.
    const { optNull: _optNull, ...expected } = value;
    expect(back).toEqual(expected);
    expect(Object.hasOwn(back, 'optNull')).toBe(false);
  });

  test('strings of every UTF-8 length, written by hand below 65 units and by TextEncoder above', () => {
    const pieces = ['a', 'é', '€', '\u{1F680}', '\uFFFF', '\u{10000}', '\u0000'];
    for (const n of [0, 1, 31, 63, 64, 65, 200]) {
      for (const piece of pieces) {
        const s = piece.repeat(Math.ceil(n / piece.length)).slice(0, n - (n % piece.length));
        const bytes = edge.encode({ ...edgeValue(), s });
        expect(edge.decode(bytes).s).toBe(s);
        // The length prefix and the bytes TextEncoder gives, with the terminating 0 after them.
        const expected = Buffer.concat([
          Buffer.from(new Uint32Array([Buffer.byteLength(s)]).buffer),
          Buffer.from(`${s}\0`),
        ]);
        expect(Buffer.from(bytes).indexOf(expected)).toBeGreaterThan(0);
      }
    }
  });

  test('seconds are whole (milliseconds are refused, as validate does); microseconds and nanoseconds are exact', () => {
    const back = edge.decode(
      edge.encode({ ...edgeValue(), seconds: new Date(-2000), micros: new Date(-1501) }),
    );
    expect(back.seconds).toEqual(new Date(-2000));
    expect(back.micros).toEqual(new Date(-1501));
    expect(codeOf(() => edge.encode({ ...edgeValue(), seconds: new Date(-1500) }))).toBe(
      'WK_VALIDATION_FAILED',
    );
  });

  test('a 300-member enum is stored as ushort', () => {
    for (const big of ['m0', 'm255', 'm256', 'm299']) {
      expect(edge.decode(edge.encode({ ...edgeValue(), big })).big).toBe(big);
    }
  });

  test('roots that are not objects go into the wrapper table', () => {
    const cases: [Schema, unknown][] = [
      [t.array(t.string()), ['a', '', 'ü']],
      [Shape, { kind: 'rect', width: 1, height: 2 }],
      [t.string(), 'just text'],
      [t.map(t.string(), t.int32()), { a: 1, b: -2 }],
      [t.int64(), -5n],
      [t.nullable(t.int32()), null],
      [t.array(t.array(t.float64())), [[1.5], []]],
      [Color, 'blue'],
      [t.json(), [1, { a: null }]],
    ];
    for (const [schema, value] of cases) {
      const rooted = createFlatBuffersCodec({ schema });
      expect(rooted.decode(rooted.encode(value))).toEqual(value);
      expect(plainView(schema, rooted.view(rooted.encode(value)))).toEqual(value);
    }
  });

  test('a literal root is an empty wrapper table: it reads back, and other values are refused', () => {
    for (const literal of ['x', 7, true] as const) {
      const rooted = createFlatBuffersCodec({ schema: t.literal(literal) });
      const bytes = rooted.encode(literal);
      expect(rooted.decode(bytes)).toBe(literal);
      expect(rooted.view(bytes)).toBe(literal);
      expect(codeOf(() => rooted.encode('something else' as never))).toBe('WK_VALIDATION_FAILED');
    }
  });

  test('recursion within the depth limit', () => {
    const tree = (levels: number): Category => ({
      name: `level ${levels}`,
      children: levels === 0 ? [] : [tree(levels - 1), { name: 'leaf', children: [] }],
    });
    const categories = createFlatBuffersCodec({ schema: Category });
    // Each level is an object and an array: 49 levels are 98 of the default 100.
    const value = tree(48);
    expect(categories.decode(categories.encode(value))).toEqual(value);
    expect(codeOf(() => categories.encode(tree(60)))).toBe('WK_LIMIT_DEPTH');
  });

  test('random records round-trip', () => {
    const Record_ = t.object('Record', {
      id: t.int64(),
      name: t.string(),
      score: t.float64(),
      tags: t.array(t.string()),
      attrs: t.map(t.string(), t.int32()),
      maybe: t.optional(t.uint16()),
      when: t.timestamp({ precision: 'us' }),
    });
    const records = createFlatBuffersCodec({ schema: Record_ });
    const safeKey = fc.string().filter((key) => !['__proto__', 'constructor', 'prototype'].includes(key));
    const arbitrary = fc.record(
      {
        id: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        name: fc.string({ unit: 'grapheme' }),
        score: fc.double(),
        tags: fc.array(fc.string({ unit: 'binary' })),
        attrs: fc.dictionary(safeKey, fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })),
        maybe: fc.integer({ min: 0, max: 65_535 }),
        when: fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }),
      },
      { requiredKeys: ['id', 'name', 'score', 'tags', 'attrs', 'when'] },
    );
    fc.assert(
      fc.property(arbitrary, (value) => {
        expect(records.decode(records.encode(value))).toEqual(value);
      }),
      { numRuns: 60 },
    );
  });
});

describe('flatbuffers: encoding checks', () => {
  const edge = createFlatBuffersCodec<Any>({ schema: Edge });
  const failure = (run: () => unknown): { code: string; path: unknown } => {
    try {
      run();
      return { code: 'no error', path: undefined };
    } catch (error) {
      return { code: (error as { code: string }).code, path: (error as { path: unknown }).path };
    }
  };

  test('wrong types fail with WK_VALIDATION_FAILED and the path', () => {
    const cases: [Any, unknown[]][] = [
      [{ ...everyKindValue(), i8: 128 }, ['i8']],
      [{ ...everyKindValue(), u64: -1n }, ['u64']],
      [{ ...everyKindValue(), i64n: 2 ** 60 }, ['i64n']],
      [{ ...everyKindValue(), f32: 1e39 }, ['f32']],
      [{ ...everyKindValue(), price: '1e5' }, ['price']],
      [{ ...everyKindValue(), color: 'purple' }, ['color']],
      [{ ...everyKindValue(), version: 'v2' }, ['version']],
      [{ ...everyKindValue(), createdAt: new Date(Number.NaN) }, ['createdAt']],
      [{ ...everyKindValue(), tags: ['a', 3] }, ['tags', 1]],
      [{ ...everyKindValue(), matrix: [[1], [2, 'x']] }, ['matrix', 1, 1]],
      [{ ...everyKindValue(), scores: { a: 'x' } }, ['scores', 'a']],
      [{ ...everyKindValue(), byId: new Map([[1, { street: 2, zip: '' }]]) }, ['byId', '1', 'street']],
      [{ ...everyKindValue(), shape: { kind: 'hexagon' } }, ['shape', 'kind']],
      [{ ...everyKindValue(), shapes: [{ kind: 'rect', width: 'w', height: 1 }] }, ['shapes', 0, 'width']],
      [{ ...everyKindValue(), extra: { n: Number.NaN } }, ['extra', 'n']],
      [
        { ...everyKindValue(), category: { name: 'x', children: [{ name: 1, children: [] }] } },
        ['category', 'children', 0, 'name'],
      ],
      [{ ...everyKindValue(), home: undefined }, ['home']],
      [{ ...everyKindValue(), manager: undefined }, ['manager']],
      [{ ...everyKindValue(), blob: [1, 2] }, ['blob']],
    ];
    for (const [value, path] of cases) {
      expect(
        failure(() => codec.encode(value)),
        JSON.stringify(path),
      ).toEqual({ code: 'WK_VALIDATION_FAILED', path });
    }
    expect(
      failure(() => edge.encode({ ...edgeValue(), byBig: new Map([[Symbol.iterator, 'x']]) })).code,
    ).toBe('WK_VALIDATION_FAILED');
  });

  test('a lone surrogate, a cycle and a bigint in JSON are refused', () => {
    expect(failure(() => codec.encode({ ...everyKindValue(), tags: ['\uD800'] }))).toEqual({
      code: 'WK_ENCODE_UNSUPPORTED',
      path: ['tags', 0],
    });
    const cyclic: Any = { name: 'loop', children: [] };
    cyclic.children.push(cyclic);
    expect(failure(() => codec.encode({ ...everyKindValue(), category: cyclic })).code).toBe(
      'WK_LIMIT_DEPTH',
    );
    // A cycle inside a json value meets maxDepth too, as in every format.
    const loop: Any = {};
    loop.self = loop;
    // A json value is bounded as the rest of the value is.
    expect(failure(() => codec.encode({ ...everyKindValue(), extra: loop })).code).toBe('WK_LIMIT_DEPTH');
    expect(failure(() => codec.encode({ ...everyKindValue(), extra: { n: 1n } })).code).toBe(
      'WK_VALIDATION_FAILED',
    );
  });

  test('constraints are checked on every encode; validate: true adds unknown keys', () => {
    const value = { ...everyKindValue(), home: { street: 'x', zip: '12345678901' } };
    expect(codeOf(() => codec.encode(value))).toBe('WK_VALIDATION_FAILED');
    const extra = { ...everyKindValue(), unknown: 1 };
    expect(codeOf(() => codec.encode(extra))).toBe('no error');
    const strict = createFlatBuffersCodec({ schema: EveryKind, validate: true });
    expect(codeOf(() => strict.encode(extra))).toBe('WK_VALIDATION_FAILED');
  });

  test('the codec stays usable after a failed encode', () => {
    expect(codeOf(() => codec.encode({ ...everyKindValue(), shapes: [{ kind: 'rect', width: 'w' }] }))).toBe(
      'WK_VALIDATION_FAILED',
    );
    expect(codec.decode(codec.encode(everyKindValue()))).toEqual(everyKindValue());
  });

  test('an encode from inside a getter of the value being encoded works', () => {
    const outer = { ...everyKindValue() } as Any;
    let inner: Uint8Array | undefined;
    Object.defineProperty(outer, 'name', {
      enumerable: true,
      get: () => {
        inner = codec.encode(everyKindValue());
        return 'outer';
      },
    });
    expect(codec.decode(codec.encode(outer)).name).toBe('outer');
    expect(codec.decode(inner as Uint8Array)).toEqual(everyKindValue());
  });
});

describe('flatbuffers: views', () => {
  test('a view reads every field like decode does', () => {
    for (const value of [everyKindValue(), withOptionals(), minimalValue()]) {
      const view = codec.view(codec.encode(value));
      expect(plainView(EveryKind, view)).toEqual(value);
    }
    const edge = createFlatBuffersCodec<Any>({ schema: Edge });
    expect(plainView(Edge, edge.view(edge.encode(edgeValue())))).toEqual(edgeValue());
  });

  test('bytes are zero-copy subarrays; objects are views with getters; literals are there', () => {
    const bytes = codec.encode(everyKindValue());
    const view = codec.view(bytes);
    expect(view.blob.buffer).toBe(bytes.buffer);
    expect(view.blob).toEqual(new Uint8Array([0, 1, 2, 254, 255]));
    expect(Object.keys(view)).toEqual([]);
    expect(view.version).toBe('v1');
    expect(view.shapes[0].kind).toBe('rect');
    expect(view.work).toBeUndefined();
    expect(view.category.children[0].name).toBe('leaf');
    expect(viewFlatBuffers<Any>(EveryKind, bytes).i64).toBe(-(2n ** 63n));
  });

  test('fields named like Object.prototype members stay fields', () => {
    const Odd = t.object('Odd', {
      constructor: t.string(),
      toString: t.int32(),
      valueOf: t.optional(t.bool()),
    });
    const odd = createFlatBuffersCodec<Any>({ schema: Odd });
    const value = { constructor: 'c', toString: 7 };
    const bytes = odd.encode(value);
    expect(odd.decode(bytes)).toEqual(value);
    expect(Object.hasOwn(odd.decode(bytes), 'constructor')).toBe(true);
    const view = odd.view(bytes);
    expect([view.constructor, view.toString, view.valueOf]).toEqual(['c', 7, undefined]);
    expect(inspect(view)).toContain("constructor: 'c'");
  });

  test('a view encodes again, as the value it shows', () => {
    for (const value of [everyKindValue(), withOptionals()]) {
      expect(codec.decode(codec.encode(codec.view(codec.encode(value))))).toEqual(value);
    }
  });

  test('a string that is not UTF-8 fails when it is read, as a wirekit error', () => {
    const builder = new Builder(64);
    const name = builder.createString(new Uint8Array([0x41, 0xff]));
    const bytes = finish(builder, everyKindWith(builder, [['name', name]]));
    const view = codec.view(bytes);
    expect(view.i8).toBe(0);
    expect(codeOf(() => view.name)).toBe('WK_DECODE_MALFORMED');
  });
});

describe('flatbuffers: streams', () => {
  const values = [everyKindValue(), withOptionals(), minimalValue()];

  test('frames are finishSizePrefixed buffers', async () => {
    const bytes = await readAll(codec.encodeStream([everyKindValue()]));
    const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true);
    expect(length).toBe(bytes.length - 4);
    // Aligned from the prefix on, as the runtime aligns a size-prefixed buffer (EveryKind has longs).
    expect(bytes.length % 8).toBe(0);
  });

  test('chunks cut anywhere, and one byte at a time, give back the values', async () => {
    const bytes = await readAll(codec.encodeStream(values));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({ max: bytes.length }), { maxLength: 12 }), async (cuts) => {
        expect(await collect(codec.decodeStream(cutAnywhere(bytes, cuts)))).toEqual(values);
      }),
      { numRuns: 50 },
    );
    const single = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
    expect(await collect(codec.decodeStream(cutAnywhere(bytes, single)))).toEqual(values);
  });

  test('an async source, and a stream that ends inside a frame', async () => {
    async function* source() {
      yield* values;
    }
    const bytes = await readAll(codec.encodeStream(source()));
    expect(await collect(codec.decodeStream(new Blob([bytes]).stream()))).toEqual(values);
    await expect(
      collect(codec.decodeStream(cutAnywhere(bytes.subarray(0, bytes.length - 3), []))),
    ).rejects.toMatchObject({
      code: 'WK_DECODE_TRUNCATED',
    });
  });
});

describe('flatbuffers: limits', () => {
  const bytes = codec.encode(everyKindValue());
  const limited = (limits: Record<string, number>) =>
    createFlatBuffersCodec<Any>({ schema: EveryKind, limits });

  test('each limit triggers its code, in decode and in view', () => {
    const cases: [Record<string, number>, string][] = [
      [{ maxInputBytes: bytes.length - 1 }, 'WK_LIMIT_INPUT'],
      [{ maxDepth: 2 }, 'WK_LIMIT_DEPTH'],
      [{ maxStringBytes: 10 }, 'WK_LIMIT_LENGTH'],
      [{ maxBytesLength: 4 }, 'WK_LIMIT_LENGTH'],
      [{ maxElements: 10 }, 'WK_LIMIT_ELEMENTS'],
    ];
    for (const [limits, code] of cases) {
      expect(decodeError(limited(limits), bytes), JSON.stringify(limits)).toBe(code);
      expect(
        codeOf(() => limited(limits).view(bytes)),
        JSON.stringify(limits),
      ).toBe(code);
    }
    // The longest string is the 45 bytes of `extra`'s JSON text; the deepest nest is category's.
    expect(decodeError(limited({ maxStringBytes: 45, maxBytesLength: 5, maxDepth: 5 }), bytes)).toBe('ok');
    expect(decodeError(limited({ maxStringBytes: 44 }), bytes)).toBe('WK_LIMIT_LENGTH');
    expect(decodeError(limited({ maxDepth: 4 }), bytes)).toBe('WK_LIMIT_DEPTH');
  });

  test('a json field nests and counts with the rest of the value', () => {
    const schema = t.object('Holder', { extra: t.json() });
    const bytes = createFlatBuffersCodec({ schema }).encode({ extra: [[[[1, 2, 3]]]] });
    const holder = (limits: Record<string, number>) => createFlatBuffersCodec({ schema, limits });
    // The object is one level, the four arrays four more.
    expect(decodeError(holder({ maxDepth: 4 }), bytes)).toBe('WK_LIMIT_DEPTH');
    expect(decodeError(holder({ maxDepth: 5 }), bytes)).toBe('ok');
    expect(decodeError(holder({ maxElements: 5 }), bytes)).toBe('WK_LIMIT_ELEMENTS');
    expect(decodeError(holder({ maxElements: 6 }), bytes)).toBe('ok');
    expect(codeOf(() => (holder({ maxDepth: 4 }).view(bytes) as Any).extra)).toBe('WK_LIMIT_DEPTH');
    // The encoder refuses the key the decoder refuses; bytes holding it are made by renaming another.
    expect(codeOf(() => codec.encode({ ...everyKindValue(), extra: { constructor: 1 } }))).toBe(
      'WK_ENCODE_UNSUPPORTED',
    );
    const written = codec.encode({ ...everyKindValue(), extra: { constructoR: 1 } });
    const at = Buffer.from(written).indexOf('"constructoR"');
    expect(at).toBeGreaterThan(0);
    written[at + 11] = 'r'.charCodeAt(0);
    expect(decodeError(codec, written)).toBe('WK_DECODE_UNSAFE_KEY');
  });
});

describe('flatbuffers: hostile buffers', () => {
  const categories = createFlatBuffersCodec<Any>({ schema: Category });

  test('tables shared along a DAG are stopped long before they multiply', () => {
    const bomb = categoryDagBomb();
    const unlimited = createFlatBuffersCodec({ schema: Category, limits: { maxDepth: 1000 } });
    expect(decodeError(unlimited, bomb)).toBe('WK_LIMIT_ELEMENTS');
    expect(codeOf(() => unlimited.view(bomb))).toBe('WK_LIMIT_ELEMENTS');
  });

  test('one string shared by every item of a vector counts each time it is read', () => {
    const builder = new Builder(1024);
    const big = builder.createString('x'.repeat(100_000));
    builder.startVector(4, 500, 4);
    for (let i = 0; i < 500; i++) builder.addOffset(big);
    const tags = builder.endVector();
    const bytes = finish(builder, everyKindWith(builder, [['tags', tags]]));
    expect(
      decodeError(
        createFlatBuffersCodec({ schema: EveryKind, limits: { maxInputBytes: 10_000_000 } }),
        bytes,
      ),
    ).toBe('WK_LIMIT_INPUT');
    expect(decodeError(codec, bytes)).toBe('ok');
  });

  test('bad offsets, vtables, union types, enum indexes and missing fields have codes', () => {
    const good = categories.encode({ name: 'a', children: [] });
    const patched = (at: number, value: number, size = 4): Uint8Array => {
      const bytes = good.slice();
      const data = new DataView(bytes.buffer);
      if (size === 4) data.setUint32(at, value, true);
      else data.setUint16(at, value, true);
      return bytes;
    };
    const root = new DataView(good.buffer).getUint32(0, true);
    expect(decodeError(categories, patched(0, 0))).toBe('WK_DECODE_MALFORMED');
    expect(decodeError(categories, patched(0, 2 ** 31))).toBe('WK_DECODE_MALFORMED');
    expect(decodeError(categories, patched(0, good.length))).toBe('WK_DECODE_TRUNCATED');
    expect(decodeError(categories, patched(root, root + 1))).toBe('WK_DECODE_MALFORMED');
    expect(decodeError(categories, patched(root, -good.length >>> 0))).toBe('WK_DECODE_MALFORMED');

    const union = (type: number) => {
      const builder = new Builder(64);
      const price = builder.createString('0');
      builder.startObject(2);
      const home = builder.endObject();
      const extra = builder.createString('1');
      builder.startObject(40);
      builder.addFieldOffset(slotOf(EveryKind, 'price'), price, 0);
      builder.addFieldOffset(slotOf(EveryKind, 'home'), home, 0);
      builder.addFieldOffset(slotOf(EveryKind, 'extra'), extra, 0);
      builder.addFieldInt8(slotOf(EveryKind, 'shape'), type, 0);
      builder.addFieldInt8(slotOf(EveryKind, 'color'), type === 0 ? 3 : 1, 0);
      return finish(builder, builder.endObject());
    };
    // Type 3 names no member; type 1 without its value; type 0 (NONE) for a required union.
    expect(decodeError(codec, union(3))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    expect(decodeError(codec, union(1))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    expect(decodeError(codec, union(0))).toBe('WK_DECODE_SCHEMA_MISMATCH');
  });

  test('views refuse what decode refuses, and read what decode reads', () => {
    const encoded = [everyKindValue(), withOptionals()].map((value) => codec.encode(value));
    fc.assert(
      fc.property(
        fc.constantFrom(...encoded),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
        (bytes, edits) => {
          const mutated = bytes.slice();
          for (const [position, value] of edits) mutated[position % mutated.length] = value;
          const decoded = decodeError(codec, mutated);
          // The verifier leaves UTF-8, decimals and JSON to access time, so the first problem either
          // finds may differ; whether there is one may not.
          const viewed = codeOf(() => plainView(EveryKind, codec.view(mutated)));
          expect(viewed === 'no error').toBe(decoded === 'ok');
          if (decoded === 'ok')
            expect(plainView(EveryKind, codec.view(mutated))).toEqual(codec.decode(mutated));
        },
      ),
      { numRuns: 400 },
    );
  });
});

describeHostileInput('flatbuffers', {
  codec,
  withLimits: (limits) => createFlatBuffersCodec({ schema: EveryKind, limits }),
  samples: [everyKindValue(), withOptionals(), minimalValue()],
  // A FlatBuffer has no end marker: writers pad, and readers go by offsets, never by the length.
  detectsTrailing: false,
  deep: (levels) => {
    const builder = new Builder(1024);
    const category = deepCategory(builder, levels);
    return finish(builder, everyKindWith(builder, [['category', category]]));
  },
  hugeLength: () => {
    const builder = new Builder(64);
    builder.startVector(4, 0, 4);
    const tags = builder.endVector();
    const bytes = finish(builder, everyKindWith(builder, [['tags', tags]]));
    new DataView(bytes.buffer).setUint32(bytes.length - tags, 0x7fff_ffff, true);
    return bytes;
  },
  invalidUtf8: () => {
    const builder = new Builder(64);
    const name = builder.createString(new Uint8Array([0x41, 0xc3, 0x28]));
    return finish(builder, everyKindWith(builder, [['name', name]]));
  },
  mutationRuns: 1000,
  protoKey: () => {
    const builder = new Builder(64);
    const key = builder.createString('__proto__');
    builder.startObject(2);
    builder.addFieldOffset(0, key, 0);
    builder.addFieldFloat64(1, 1, 0);
    const entry = builder.endObject();
    builder.startVector(4, 1, 4);
    builder.addOffset(entry);
    const scores = builder.endVector();
    return finish(builder, everyKindWith(builder, [['scores', scores]]));
  },
});

// The same hostile bytes through views, read out in full: view() verifies, the getters read.
describeHostileInput('flatbuffers view', {
  codec: viewing(codec),
  withLimits: (limits) => viewing(createFlatBuffersCodec({ schema: EveryKind, limits })),
  samples: [everyKindValue(), withOptionals(), minimalValue()],
  // A FlatBuffer has no end marker: writers pad, and readers go by offsets, never by the length.
  detectsTrailing: false,
  deep: (levels) => {
    const builder = new Builder(1024);
    const category = deepCategory(builder, levels);
    return finish(builder, everyKindWith(builder, [['category', category]]));
  },
  hugeLength: () => {
    const builder = new Builder(64);
    builder.startVector(4, 0, 4);
    const tags = builder.endVector();
    const bytes = finish(builder, everyKindWith(builder, [['tags', tags]]));
    new DataView(bytes.buffer).setUint32(bytes.length - tags, 0x7fff_ffff, true);
    return bytes;
  },
  invalidUtf8: () => {
    const builder = new Builder(64);
    const name = builder.createString(new Uint8Array([0x41, 0xc3, 0x28]));
    return finish(builder, everyKindWith(builder, [['name', name]]));
  },
  mutationRuns: 1000,
  protoKey: () => {
    const builder = new Builder(64);
    const key = builder.createString('__proto__');
    builder.startObject(2);
    builder.addFieldOffset(0, key, 0);
    builder.addFieldFloat64(1, 1, 0);
    const entry = builder.endObject();
    builder.startVector(4, 1, 4);
    builder.addOffset(entry);
    const scores = builder.endVector();
    return finish(builder, everyKindWith(builder, [['scores', scores]]));
  },
});

function viewing(inner: ReturnType<typeof createFlatBuffersCodec<Any>>): typeof inner {
  return { ...inner, decode: (bytes) => plainView(EveryKind, inner.view(bytes)) as Any };
}

describeHostileInput('flatbuffers (every storage class)', {
  codec: createFlatBuffersCodec({ schema: Edge }),
  withLimits: (limits) => createFlatBuffersCodec({ schema: Edge, limits }),
  samples: [edgeValue()],
  detectsTrailing: false,
  mutationRuns: 1000,
});
