/**
 * FlatBuffers compiled against its interpreter: the same bytes from encode, the same values (or the
 * same error, code, message and offset) from decode, on every kind, on edge values, on mutated,
 * truncated and hand-built hostile buffers and under every limit; the same errors and paths for
 * wrong values; proof that the compiled path ran; and the hostile input suite on the interpreter,
 * which the codec's own tests no longer reach by default.
 */
import fc from 'fast-check';
import { Builder } from 'flatbuffers';
import { describe, expect, test } from 'vitest';
import { createFlatBuffersCodec } from '../../../src/codecs/flatbuffers/index.js';
import { createCodec } from '../../../src/codecs/index.js';
import { Record8, records } from '../../../src/lab/datasets/records.js';
import { User, users } from '../../../src/lab/datasets/users.js';
import { type Schema, t } from '../../../src/schema/index.js';
import { Category, EveryKind, EveryKindFlat, everyKindValue, Shape } from '../../fixtures/every-kind.js';
import { categoryDagBomb, finish } from '../../fixtures/flatbuffers-buffers.js';
import { expectSameOutcomeOnMutations, outcome } from '../../support/outcome.js';
import { chunked, collect, readAll } from '../../support/streams.js';
import { describeHostileInput } from '../../support/suites/hostile-input.js';

const show = (value: unknown) =>
  JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : v instanceof Map ? [...v] : v));

const Inner = t.object('Inner', { a: t.uint16(), b: t.string() });
const Hue = t.enum('Hue', ['red', 'green', 'blue']);
/** Past 256 members: stored as ushort. */
const Wide = t.enum(
  'Wide',
  Array.from({ length: 300 }, (_, i) => `w${i}`),
);

/** Every storage class, each kind required, optional and nullable, in vectors, and the rare kinds. */
const Edge = t.object('Edge', {
  u8: t.uint8(),
  i8: t.int8(),
  i16: t.int16(),
  u16: t.uint16(),
  i32: t.int32(),
  u32: t.uint32(),
  i64: t.int64(),
  u64: t.uint64(),
  i64n: t.int64({ as: 'number' }),
  u64n: t.uint64({ as: 'number' }),
  f64: t.float64(),
  f32: t.float32(),
  flag: t.bool(),
  text: t.string(),
  color: Hue,
  wide: Wide,
  when: t.timestamp(),
  sec: t.timestamp({ precision: 's' }),
  micros: t.timestamp({ precision: 'us' }),
  nanos: t.timestamp({ precision: 'ns' }),
  blob: t.bytes(),
  price: t.decimal({ precision: 12, scale: 2 }),
  any: t.json(),
  maybe: t.optional(t.string()),
  nothing: t.nullable(t.uint32()),
  both: t.optional(t.nullable(t.string())),
  optInt: t.optional(t.int32()),
  optFloat: t.optional(t.float64()),
  optFlag: t.optional(t.bool()),
  optColor: t.optional(Hue),
  optWhen: t.optional(t.timestamp()),
  nullSec: t.nullable(t.timestamp({ precision: 's' })),
  maybeInner: t.optional(Inner),
  nullInner: t.nullable(Inner),
  list: t.array(t.uint32()),
  bytesList: t.array(t.int8()),
  shorts: t.array(t.uint16()),
  floats: t.array(t.float32()),
  doubles: t.array(t.float64()),
  flags: t.array(t.bool()),
  colors: t.array(Hue),
  wides: t.array(Wide),
  dates: t.array(t.timestamp()),
  bigs: t.array(t.int64()),
  threes: t.array(t.literal(3)),
  words: t.array(t.string()),
  xs: t.array(t.literal('x')),
  prices: t.array(t.decimal()),
  matrix: t.array(t.array(t.int32())),
  holes: t.array(t.nullable(t.int32())),
  blobs: t.array(t.bytes()),
  inners: t.array(Inner),
  maybeInners: t.optional(t.array(Inner)),
  inner: Inner,
  dict: t.map(t.string(), t.float64()),
  byId: t.map(t.int32(), t.string()),
  lit: t.literal(42),
  optLit: t.optional(t.literal(true)),
  maybeX: t.optional(t.literal('x')),
  shape: Shape,
  maybeShape: t.nullable(Shape),
  shapes: t.array(Shape),
  defaulted: t.field(t.optional(t.int32()), { default: 7 }),
  // A gap in the field numbers: placeholder slots before it.
  late: t.field(t.string(), { id: 90 }),
});

const edgeValue = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  u8: 7,
  i8: -128,
  i16: 32_767,
  u16: 65_535,
  i32: -5,
  u32: 4_000_000_000,
  i64: -(2n ** 63n),
  u64: 2n ** 64n - 1n,
  i64n: Number.MAX_SAFE_INTEGER,
  u64n: 0,
  f64: 1.5,
  f32: 0.5,
  flag: true,
  text: 'héllo 🚀 and a string longer than sixty-four UTF-16 units, which TextEncoder writes',
  color: 'green',
  wide: 'w299',
  when: new Date(1_700_000_000_123),
  sec: new Date(-86_400_000),
  micros: new Date(1_700_000_000_123),
  nanos: new Date(-1),
  blob: new Uint8Array([0, 1, 255]),
  price: '-1234567890.12',
  any: { a: [1, 'two', null, true] },
  nothing: null,
  nullSec: null,
  nullInner: null,
  list: [0, 1, 2 ** 32 - 1],
  bytesList: [-128, 0, 127],
  shorts: [0, 65_535],
  floats: [0.5, -0, Number.NaN, Number.POSITIVE_INFINITY],
  doubles: [-0, Number.MIN_VALUE, Number.MAX_VALUE],
  flags: [true, false, true],
  colors: ['blue', 'red'],
  wides: ['w0', 'w256'],
  dates: [new Date(0), new Date(8.64e15), new Date(-8.64e15)],
  bigs: [0n, -1n, 2n ** 63n - 1n],
  threes: [3, 3],
  words: ['', 'a', 'ünïcödé', 'x'.repeat(70)],
  xs: ['x'],
  prices: ['0', '-1.5'],
  matrix: [[1, -2], [], [2 ** 31 - 1]],
  holes: [null, 0, -1, null],
  blobs: [new Uint8Array([1]), new Uint8Array(0)],
  inners: [
    { a: 0, b: 'x' },
    { a: 1, b: '' },
  ],
  inner: { a: 65_535, b: '' },
  dict: { x: 1, y: -0, '': 2 },
  byId: new Map([
    [7, 'seven'],
    [-1, ''],
  ]),
  lit: 42,
  shape: { kind: 'circle', radius: 2 },
  maybeShape: null,
  shapes: [
    { kind: 'rect', width: 1, height: 2.5 },
    { kind: 'circle', radius: 0 },
  ],
  late: 'late',
  ...over,
});

const edgeValues: Record<string, unknown>[] = [
  edgeValue(),
  // Every required scalar at its default (left out), empties everywhere.
  edgeValue({
    u8: 0,
    i8: 0,
    i16: 0,
    u16: 0,
    i32: 0,
    u32: 0,
    i64: 0n,
    u64: 0n,
    i64n: 0,
    f64: 0,
    f32: 0,
    flag: false,
    text: '',
    color: 'red',
    wide: 'w0',
    when: new Date(0),
    sec: new Date(0),
    micros: new Date(0),
    nanos: new Date(0),
    blob: new Uint8Array(0),
    any: null,
    list: [],
    bytesList: [],
    shorts: [],
    floats: [],
    doubles: [],
    flags: [],
    colors: [],
    wides: [],
    dates: [],
    bigs: [],
    threes: [],
    words: [],
    xs: [],
    prices: [],
    matrix: [],
    holes: [],
    blobs: [],
    inners: [],
    dict: {},
    byId: new Map(),
    shapes: [],
    late: '',
  }),
  // -0 is not the default 0: written for the integers as for the floats.
  edgeValue({
    u8: -0,
    i8: -0,
    i32: -0,
    u32: -0,
    u64n: -0,
    f64: -0,
    f32: -0,
    i64n: -(2 ** 40) - 3,
    maybe: '',
    nothing: 0,
    both: null,
    optInt: 0,
    optFloat: -0,
    optFlag: false,
    optColor: 'red',
    optWhen: new Date(0),
    nullSec: new Date(0),
    maybeInner: { a: 1, b: 'inner' },
    nullInner: null,
    maybeInners: [],
    optLit: true,
    maybeX: 'x',
    maybeShape: { kind: 'rect', width: 3, height: 4 },
    defaulted: 3,
  }),
  edgeValue({
    f64: Number.NaN,
    f32: Number.NEGATIVE_INFINITY,
    i32: -(2 ** 31),
    u8: 255,
    text: '\u0000\uffff\u{10FFFF}',
    when: new Date(-8.64e15),
    sec: new Date(8.64e15),
    micros: new Date(-1_000_000_001),
    both: 'both',
    optInt: -(2 ** 31),
    optWhen: new Date(-1),
    nullSec: new Date(-1000),
    nullInner: { a: 2, b: 'nullable' },
    maybeInners: [{ a: 3, b: 'maybe' }],
    list: Array.from({ length: 17 }, (_, i) => i),
    words: Array.from({ length: 40 }, (_, i) => `word ${i} in a longer list`),
    inners: Array.from({ length: 20 }, (_, i) => ({ a: i, b: `inner ${i}` })),
  }),
];

/** Values that are not of the schema, to compare the errors of both paths. */
const wrongValues: unknown[] = [
  null,
  [],
  'text',
  new Map(),
  edgeValue({ u8: 256 }),
  edgeValue({ u8: 1.5 }),
  edgeValue({ u8: '1' }),
  edgeValue({ i8: -129 }),
  edgeValue({ u16: 65_536 }),
  edgeValue({ i32: 2 ** 31 }),
  edgeValue({ u32: -1 }),
  edgeValue({ u32: 2 ** 32 }),
  edgeValue({ i64: 1.5 }),
  edgeValue({ i64: 2n ** 63n }),
  edgeValue({ u64: -1n }),
  edgeValue({ i64n: 2 ** 53 }),
  edgeValue({ f64: '1' }),
  edgeValue({ f64: undefined }),
  edgeValue({ f32: 1e40 }),
  edgeValue({ f32: '1' }),
  edgeValue({ flag: 'yes' }),
  edgeValue({ flag: 1 }),
  edgeValue({ flag: undefined }),
  edgeValue({ text: 5 }),
  edgeValue({ text: null }),
  edgeValue({ text: 'lone \ud800 surrogate' }),
  edgeValue({ text: `${'x'.repeat(100)}\udc00` }),
  edgeValue({ color: 'mauve' }),
  edgeValue({ color: 1 }),
  edgeValue({ wide: 'w300' }),
  edgeValue({ when: 'today' }),
  edgeValue({ when: 1_700_000_000_000 }),
  edgeValue({ when: new Date(Number.NaN) }),
  edgeValue({ when: undefined }),
  edgeValue({ sec: new Date(Number.NaN) }),
  // Milliseconds in a seconds timestamp: no value of the kind (docs/values.md).
  edgeValue({ sec: new Date(-86_400_001) }),
  edgeValue({ nullSec: new Date(-1) }),
  edgeValue({ nanos: new Date(8.64e15) }),
  edgeValue({ blob: [1] }),
  edgeValue({ price: '1.234.5' }),
  edgeValue({ any: undefined }),
  edgeValue({ any: Number.NaN }),
  edgeValue({ maybe: null }),
  edgeValue({ maybe: 1 }),
  edgeValue({ nothing: undefined }),
  edgeValue({ nothing: -1 }),
  edgeValue({ optInt: null }),
  edgeValue({ optInt: 'x' }),
  edgeValue({ optWhen: null }),
  edgeValue({ nullSec: 'x' }),
  edgeValue({ maybeInner: null }),
  edgeValue({ maybeInner: { a: 1 } }),
  edgeValue({ nullInner: undefined }),
  edgeValue({ list: [1, -1] }),
  edgeValue({ list: {} }),
  // Inline vectors are written from the last item: the highest bad index is the one reported.
  edgeValue({ list: [-1, 'x'] }),
  edgeValue({ bytesList: [128] }),
  edgeValue({ shorts: [-1] }),
  edgeValue({ floats: [1e40] }),
  edgeValue({ floats: ['1'] }),
  edgeValue({ doubles: [null] }),
  edgeValue({ flags: [1] }),
  edgeValue({ colors: ['x'] }),
  edgeValue({ wides: [0] }),
  edgeValue({ dates: [new Date(Number.NaN)] }),
  edgeValue({ bigs: [1.5] }),
  edgeValue({ threes: [4] }),
  edgeValue({ words: ['a', 1] }),
  edgeValue({ words: 'words' }),
  edgeValue({ words: ['ok', `${'x'.repeat(100)}\udc00`] }),
  edgeValue({ xs: ['y'] }),
  edgeValue({ prices: ['x'] }),
  edgeValue({ matrix: [[1], [1.5]] }),
  edgeValue({ matrix: [1] }),
  edgeValue({ holes: [undefined] }),
  edgeValue({
    inners: [
      { a: 0, b: 'x' },
      { a: 1, b: null },
    ],
  }),
  edgeValue({ inners: [null] }),
  edgeValue({ maybeInners: [{ a: 'a', b: '' }] }),
  edgeValue({ inner: null }),
  edgeValue({ inner: [] }),
  edgeValue({ inner: { a: -1, b: '' } }),
  edgeValue({ inner: { b: '' } }),
  edgeValue({ dict: { x: 'y' } }),
  edgeValue({ byId: { 1: 'x' } }),
  edgeValue({ lit: 41 }),
  edgeValue({ lit: undefined }),
  edgeValue({ optLit: false }),
  edgeValue({ maybeX: 'y' }),
  edgeValue({ shape: { kind: 'hexagon' } }),
  edgeValue({ shape: { kind: 'rect', width: 'wide', height: 1 } }),
  edgeValue({ maybeShape: undefined }),
  edgeValue({ shapes: [{ kind: 'circle' }] }),
  edgeValue({ late: undefined }),
  // Several fields wrong at once: the first reported is the interpreter's first.
  edgeValue({ u8: -1, text: 1, list: [-1], inner: null }),
  edgeValue({ u8: -1, flag: 'x' }),
];

const cases: [string, Schema, unknown[]][] = [
  ['Edge', Edge, edgeValues],
  [
    'EveryKind',
    EveryKind,
    [everyKindValue(), { ...everyKindValue(), work: { street: 'w', zip: 'z' }, nickname: 'n', manager: 'm' }],
  ],
  ['EveryKindFlat', EveryKindFlat, [(({ category: _, ...flat }) => flat)(everyKindValue())]],
  [
    'Category (recursive)',
    Category,
    [{ name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [] }] }] }, chain(40)],
  ],
  ['Record8', Record8, records(50, 3)],
  ['User', User, users(50, 3)],
  ['an array of Record8 (the bench shape, a wrapped root)', t.array(Record8), [records(8, 4), []]],
  ['an array of User', t.array(User), [users(8, 4)]],
  ['a scalar root', t.nullable(t.string()), ['', 'x', null]],
  ['an optional root', t.optional(t.uint8()), [undefined, 0, 255]],
  [
    'a union root',
    Shape,
    [
      { kind: 'circle', radius: 1 },
      { kind: 'rect', width: 1, height: -0 },
    ],
  ],
  ['a map root', t.map(t.string(), Inner), [{ a: { a: 1, b: 'x' } }, {}]],
  ['a nested array root', t.array(t.array(t.string())), [[['a'], [], ['b', 'c']]]],
];

function chain(levels: number): Category {
  let node: Category = { name: 'leaf', children: [] };
  for (let i = 0; i < levels; i++)
    node = { name: `level ${i}`, children: [node, { name: '', children: [] }] };
  return node;
}

describe.each(cases)('flatbuffers: compiled against the interpreter: %s', (_, schema, values) => {
  const compiled = createCodec('flatbuffers', { schema });
  const interpreted = createCodec('flatbuffers', { schema, compile: false });

  test('the compiled path is the one that runs, and the interpreter is not compiled', () => {
    expect(compiled.compiled).toBe(true);
    expect(interpreted.compiled).toBe(false);
  });

  test('same bytes, same values', () => {
    for (const value of values) {
      const bytes = compiled.encode(value);
      expect(Buffer.from(bytes).equals(Buffer.from(interpreted.encode(value))), show(value)).toBe(true);
      expect(compiled.decode(bytes)).toStrictEqual(interpreted.decode(bytes));
    }
  });

  test('same outcome on every mutation of the bytes', () => {
    expectSameOutcomeOnMutations(
      values.map((value) => interpreted.encode(value)),
      (bytes) => compiled.decode(bytes),
      (bytes) => interpreted.decode(bytes),
    );
  });

  test("same outcome on every mutation of the bytes, with unknownKeys: 'reject'", () => {
    // Mutated vtables fill slots the schema gives no field: both paths refuse them alike.
    const strict = createCodec('flatbuffers', { schema, unknownKeys: 'reject' });
    const strictInterpreted = createCodec('flatbuffers', { schema, compile: false, unknownKeys: 'reject' });
    expectSameOutcomeOnMutations(
      values.map((value) => interpreted.encode(value)),
      (bytes) => strict.decode(bytes),
      (bytes) => strictInterpreted.decode(bytes),
      150,
    );
  });

  test('same outcome for every byte set to 0, 1, 0x7f, 0x80 or 0xff, and on every truncation', () => {
    for (const value of values.slice(0, 2)) {
      const bytes = interpreted.encode(value);
      for (let at = 0; at < bytes.length; at++) {
        for (const byte of [0, 1, 0x7f, 0x80, 0xff]) {
          const mutated = bytes.slice();
          mutated[at] = byte;
          expect(outcome(() => compiled.decode(mutated))).toStrictEqual(
            outcome(() => interpreted.decode(mutated)),
          );
        }
        const part = bytes.subarray(0, at);
        expect(outcome(() => compiled.decode(part))).toStrictEqual(outcome(() => interpreted.decode(part)));
      }
    }
  });

  test('streams: the same frames, read back the same', async () => {
    const fromCompiled = await readAll(compiled.encodeStream(values));
    const fromInterpreter = await readAll(interpreted.encodeStream(values));
    expect(Buffer.from(fromCompiled).equals(Buffer.from(fromInterpreter))).toBe(true);
    expect(await collect(compiled.decodeStream(chunked(fromCompiled, [7, 100])))).toStrictEqual(
      await collect(interpreted.decodeStream(chunked(fromCompiled, [7, 100]))),
    );
  });
});

describe('flatbuffers: compiled against the interpreter on random values', () => {
  const Random = t.object('Random', {
    id: t.uint32(),
    small: t.int8(),
    name: t.string(),
    score: t.float64(),
    ratio: t.float32(),
    ok: t.bool(),
    when: t.timestamp(),
    sec: t.timestamp({ precision: 's' }),
    maybe: t.optional(t.uint16()),
    color: Hue,
    tags: t.array(t.string()),
    nums: t.array(t.int32()),
  });
  const compiled = createFlatBuffersCodec({ schema: Random });
  const interpreted = createFlatBuffersCodec({ schema: Random, compile: false });
  const date = fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true });

  test('same bytes and values', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            id: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
            small: fc.integer({ min: -128, max: 127 }),
            name: fc.string({ unit: 'grapheme' }),
            score: fc.double(),
            ratio: fc.float(),
            ok: fc.boolean(),
            when: fc.oneof(
              date,
              fc.integer({ min: -5000, max: 5000 }).map((ms) => new Date(ms)),
            ),
            // Whole seconds: a seconds timestamp refuses milliseconds.
            sec: fc.oneof(
              date.map((d) => new Date(Math.floor(d.getTime() / 1000) * 1000)),
              fc.integer({ min: -5, max: 5 }).map((s) => new Date(s * 1000)),
            ),
            maybe: fc.integer({ min: 0, max: 65_535 }),
            color: fc.constantFrom('red', 'green', 'blue'),
            tags: fc.array(fc.string({ unit: 'binary' })),
            nums: fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })),
          },
          {
            requiredKeys: [
              'id',
              'small',
              'name',
              'score',
              'ratio',
              'ok',
              'when',
              'sec',
              'color',
              'tags',
              'nums',
            ],
          },
        ),
        (value) => {
          const bytes = compiled.encode(value);
          expect(Buffer.from(bytes).equals(Buffer.from(interpreted.encode(value))), show(value)).toBe(true);
          expect(compiled.decode(bytes)).toStrictEqual(interpreted.decode(bytes));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('flatbuffers: compiled errors', () => {
  const compiled = createFlatBuffersCodec({ schema: Edge });
  const interpreted = createFlatBuffersCodec({ schema: Edge, compile: false });

  test('wrong values fail with the same code, message and path', () => {
    for (const value of wrongValues) {
      const a = outcome(() => compiled.encode(value));
      expect(a.ok, show(value)).toBe(false);
      expect(a, show(value)).toStrictEqual(outcome(() => interpreted.encode(value)));
    }
  });

  test('a failed encode leaves the next one whole', () => {
    expect(outcome(() => compiled.encode(edgeValue({ inner: null }))).ok).toBe(false);
    expect(outcome(() => compiled.encode(edgeValue({ flag: 'x' }))).ok).toBe(false);
    const value = edgeValue();
    expect(Buffer.from(compiled.encode(value)).equals(Buffer.from(interpreted.encode(value)))).toBe(true);
  });

  test('an encode from inside a getter of the value being encoded gets an encoder of its own', () => {
    let inside: Uint8Array | undefined;
    const value = edgeValue();
    const tricky = {
      ...value,
      get text() {
        inside = compiled.encode(edgeValue());
        return 'outer';
      },
    };
    const outer = compiled.encode(tricky);
    expect(Buffer.from(outer).equals(Buffer.from(interpreted.encode({ ...value, text: 'outer' })))).toBe(
      true,
    );
    expect(Buffer.from(inside as Uint8Array).equals(Buffer.from(interpreted.encode(value)))).toBe(true);
  });

  test('views (getters on a prototype) encode as the values they show', () => {
    const bytes = interpreted.encode(edgeValue());
    expect(Buffer.from(compiled.encode(compiled.view(bytes))).equals(Buffer.from(bytes))).toBe(true);
  });

  test('depth limits fail the same way on encode and decode', () => {
    const limits = { maxDepth: 12 };
    const deepCompiled = createFlatBuffersCodec({ schema: Category, limits });
    const deepInterpreted = createFlatBuffersCodec({ schema: Category, limits, compile: false });
    const a = outcome(() => deepCompiled.encode(chain(30)));
    expect(a).toMatchObject({ ok: false, code: 'WK_LIMIT_DEPTH' });
    expect(a).toStrictEqual(outcome(() => deepInterpreted.encode(chain(30))));
    const cyclic: { name: string; children: unknown[] } = { name: 'loop', children: [] };
    cyclic.children.push(cyclic);
    expect(outcome(() => deepCompiled.encode(cyclic as Category))).toStrictEqual(
      outcome(() => deepInterpreted.encode(cyclic as Category)),
    );
    const bytes = createFlatBuffersCodec({ schema: Category }).encode(chain(30));
    const b = outcome(() => deepCompiled.decode(bytes));
    expect(b).toMatchObject({ ok: false, code: 'WK_LIMIT_DEPTH' });
    expect(b).toStrictEqual(outcome(() => deepInterpreted.decode(bytes)));
  });

  test.each([
    ['Edge', Edge, edgeValues[3]],
    ['Record8', Record8, { ...records(1)[0], tags: ['a', 'bb'] }],
    ['Category', Category, chain(3)],
    ['a nested array root', t.array(t.array(t.uint8())), [[1, 2], [], [3]]],
  ] as const)(
    'every limit, at every setting around the value, fails the same way: %s',
    (_, schema, value) => {
      const bytes = createFlatBuffersCodec({ schema, compile: false }).encode(value);
      const settings: Record<string, number>[] = [];
      for (let n = 0; n <= 8; n++) settings.push({ maxDepth: n });
      for (let n = 0; n <= 200; n += 3) settings.push({ maxElements: n });
      for (let n = 0; n <= 120; n += 4) settings.push({ maxStringBytes: n });
      for (let n = 0; n <= 4; n++) settings.push({ maxBytesLength: n });
      settings.push({ maxInputBytes: bytes.length - 1 }, { maxInputBytes: bytes.length });
      const codes = new Set<unknown>();
      for (const limits of settings) {
        const a = outcome(() => createFlatBuffersCodec({ schema, limits }).decode(bytes));
        const b = outcome(() => createFlatBuffersCodec({ schema, limits, compile: false }).decode(bytes));
        expect(a, JSON.stringify(limits)).toStrictEqual(b);
        codes.add(a.ok ? 'ok' : a.code);
      }
      expect(codes).toContain('WK_LIMIT_DEPTH');
      expect(codes).toContain('WK_LIMIT_ELEMENTS');
      expect(codes).toContain('ok');
    },
  );
});

describe('flatbuffers: compiled against the interpreter on hand-built hostile buffers', () => {
  const same = (schema: Schema, bytes: Uint8Array, limits?: Record<string, number>) => {
    const a = outcome(() => createFlatBuffersCodec({ schema, limits }).decode(bytes));
    expect(a).toStrictEqual(
      outcome(() => createFlatBuffersCodec({ schema, limits, compile: false }).decode(bytes)),
    );
    return a;
  };

  test('a DAG of shared tables stops at the same element', () => {
    const bomb = categoryDagBomb();
    expect(same(Category, bomb, { maxDepth: 1000 })).toMatchObject({ ok: false, code: 'WK_LIMIT_ELEMENTS' });
    expect(same(Category, bomb, { maxDepth: 1000, maxElements: 50 })).toMatchObject({ ok: false });
  });

  test('a string shared by every item of a vector counts every read', () => {
    const Words = t.object('Words', { words: t.array(t.string()) });
    const builder = new Builder(1024);
    const big = builder.createString('x'.repeat(1000));
    builder.startVector(4, 500, 4);
    for (let i = 0; i < 500; i++) builder.addOffset(big);
    const words = builder.endVector();
    builder.startObject(1);
    builder.addFieldOffset(0, words, 0);
    const bytes = finish(builder, builder.endObject());
    expect(same(Words, bytes, { maxInputBytes: 100_000 })).toMatchObject({
      ok: false,
      code: 'WK_LIMIT_INPUT',
    });
    expect(same(Words, bytes).ok).toBe(true);
  });

  test('lengths past the input, vtables out of place, impossible sizes, fields past the end', () => {
    const Scalars = t.object('Scalars', {
      a: t.float64(),
      b: t.string(),
      c: t.array(t.uint16()),
      d: Inner,
      e: Hue,
    });
    const good = createFlatBuffersCodec({ schema: Scalars, compile: false }).encode({
      a: 1.5,
      b: 'text',
      c: [1, 2],
      d: { a: 1, b: 'x' },
      e: 'blue',
    });
    // Every aligned 32-bit and 16-bit word set to values that point nowhere, past the end, or far.
    for (let at = 0; at + 2 <= good.length; at += 2) {
      for (const word of [0, 1, 3, 0x7fff, 0xffff, 0x7fff_ffff, 0x8000_0000, good.length, 0xffff_ffff]) {
        const bytes = good.slice();
        const data = new DataView(bytes.buffer);
        if (at + 4 <= bytes.length) data.setUint32(at, word, true);
        else data.setUint16(at, word & 0xffff, true);
        same(Scalars, bytes);
        const short = good.slice();
        new DataView(short.buffer).setUint16(at, word & 0xffff, true);
        same(Scalars, short);
      }
    }
  });
});

describe('flatbuffers: compiled against the interpreter on fields at the edge of the input', () => {
  test.each([
    ['Edge', Edge, edgeValues[0]],
    ['EveryKind', EveryKind, everyKindValue()],
    ['Record8', Record8, records(1)[0]],
  ] as const)(
    'every vtable entry of the root table pointed around the end of the input: %s',
    (_, schema, value) => {
      const compiled = createFlatBuffersCodec({ schema });
      const interpreted = createFlatBuffersCodec({ schema, compile: false });
      const good = interpreted.encode(value);
      const data = new DataView(good.buffer, good.byteOffset, good.byteLength);
      const table = data.getUint32(0, true);
      const vtable = table - data.getInt32(table, true);
      const size = data.getUint16(vtable, true);
      let failures = 0;
      for (let entry = vtable + 4; entry < vtable + size; entry += 2) {
        // Fields are 1 to 8 bytes wide: land each on every position that leaves 0 to 9 bytes.
        for (let left = 0; left <= 9; left++) {
          const offset = good.length - left - table;
          if (offset <= 0 || offset > 0xffff) continue;
          const bytes = good.slice();
          new DataView(bytes.buffer).setUint16(entry, offset, true);
          const a = outcome(() => compiled.decode(bytes));
          expect(a).toStrictEqual(outcome(() => interpreted.decode(bytes)));
          if (!a.ok) failures++;
        }
      }
      expect(failures).toBeGreaterThan(0);
    },
  );
});

describe('flatbuffers: what stays on the interpreter, and names', () => {
  test('a field named like a prototype key keeps the schema on the interpreter, which still works', () => {
    const schema = t.object('Proto', { constructor: t.int32(), name: t.string() });
    const codec = createFlatBuffersCodec({ schema });
    expect(codec.compiled).toBe(false);
    expect(codec.decode(codec.encode({ constructor: 5, name: 'x' }))).toStrictEqual({
      constructor: 5,
      name: 'x',
    });
  });

  test('a literal root stays on the interpreter', () => {
    expect(createFlatBuffersCodec({ schema: t.literal('x') }).compiled).toBe(false);
  });

  test('names of Object.prototype members and of the generated code’s own locals survive', () => {
    const names = ['toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'd', 'h', 'e', 'b', 'v'];
    const more = ['r', 'pos', 'dv', 'vt', 'vs', 'd1', 'out', 'at', 'inner', 'depth', 'error', 'start'];
    const fields = Object.fromEntries(
      [...names, ...more].map((name, i) => [name, i % 2 === 0 ? t.int32() : t.string()]),
    );
    // Literals and union tags reach generated code as dependencies, never as source.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder is the point: it must stay text
    const odd = 'a"b\\c\n*/${x}`';
    const A = t.object('A', { tag: t.literal(odd), n: t.int32() });
    const B = t.object('B', { tag: t.literal('b'), s: t.string() });
    const schema = t.object('Odd', { ...fields, mark: t.literal(odd), pick: t.union('Pick', 'tag', [A, B]) });
    const compiled = createFlatBuffersCodec({ schema });
    const interpreted = createFlatBuffersCodec({ schema, compile: false });
    expect(compiled.compiled).toBe(true);
    const value = {
      ...Object.fromEntries([...names, ...more].map((name, i) => [name, i % 2 === 0 ? i : `${name}!`])),
      mark: odd,
      pick: { tag: odd, n: 3 },
    };
    const bytes = compiled.encode(value);
    expect(Buffer.from(bytes).equals(Buffer.from(interpreted.encode(value)))).toBe(true);
    expect(compiled.decode(bytes)).toStrictEqual(value);
    expect(compiled.decode(bytes)).toStrictEqual(interpreted.decode(bytes));
    // A plain object inherits toString and valueOf: an inherited member counts as absent.
    const { toString: _, ...missing } = value;
    expect(outcome(() => compiled.encode(missing))).toStrictEqual(outcome(() => interpreted.encode(missing)));
    expect(outcome(() => compiled.encode({ ...value, mark: 'a"b' }))).toStrictEqual(
      outcome(() => interpreted.encode({ ...value, mark: 'a"b' })),
    );
  });

  test('one compilation per schema: codecs of one schema share it', () => {
    const a = createFlatBuffersCodec({ schema: Record8, limits: { maxDepth: 3 } });
    const b = createFlatBuffersCodec({ schema: Record8 });
    expect(a.compiled && b.compiled).toBe(true);
    const value = records(1)[0];
    expect(Buffer.from(a.encode(value)).equals(Buffer.from(b.encode(value)))).toBe(true);
  });
});

const interpreter = (limits?: Record<string, number>) =>
  createFlatBuffersCodec({ schema: Edge, limits, compile: false });

describeHostileInput('flatbuffers (interpreter)', {
  codec: interpreter(),
  withLimits: (limits) => interpreter(limits),
  samples: edgeValues,
  detectsTrailing: false,
});
