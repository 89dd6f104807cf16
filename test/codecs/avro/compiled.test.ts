/**
 * Avro compiled against its interpreter: the same bytes from encode, the same values (or the same
 * error, code and message) from decode, on every kind, on edge values and on mutated bytes; the same
 * errors and paths for wrong values and limits; proof that the compiled path ran; and the hostile
 * input suite on the interpreter, which the codec's own tests no longer reach by default.
 */
import { describe, expect, test } from 'vitest';
import { createAvroCodec, readContainer, writeContainer } from '../../../src/codecs/avro/index.js';
import { createCodec } from '../../../src/codecs/index.js';
import { Record8, records } from '../../../src/lab/datasets/records.js';
import { User, users } from '../../../src/lab/datasets/users.js';
import { toAvro } from '../../../src/schema/export/avro.js';
import { type Schema, t } from '../../../src/schema/index.js';
import { avroValue, categoryChain } from '../../fixtures/avro-values.js';
import { Category, EveryKind, EveryKindFlat, Shape } from '../../fixtures/every-kind.js';
import { expectSameOutcomeOnMutations, outcome } from '../../support/outcome.js';
import { chunked, collect, concat, readAll } from '../../support/streams.js';
import { describeHostileInput } from '../../support/suites/hostile-input.js';

const show = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));

const Inner = t.object('Inner', { a: t.uint16(), b: t.string() });

/** Scalars and their edges, optionals and nullables of each, and the kinds the compiler hands back. */
const Edge = t.object('Edge', {
  u8: t.uint8(),
  i8: t.int8(),
  i16: t.int16(),
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
  color: t.enum('Hue', ['red', 'green', 'blue']),
  when: t.timestamp(),
  sec: t.timestamp({ precision: 's' }),
  micros: t.timestamp({ precision: 'us' }),
  nanos: t.timestamp({ precision: 'ns' }),
  blob: t.bytes(),
  price: t.decimal({ precision: 12, scale: 2 }),
  decText: t.decimal(),
  any: t.json(),
  maybe: t.optional(t.string()),
  nothing: t.nullable(t.uint32()),
  both: t.optional(t.nullable(t.string())),
  maybeInner: t.optional(Inner),
  list: t.array(t.uint32()),
  words: t.array(t.string()),
  matrix: t.array(t.array(t.int32())),
  inners: t.array(Inner),
  inner: Inner,
  dict: t.map(t.string(), t.float64()),
  byId: t.map(t.int32(), t.string()),
  lit: t.literal(42),
  optLit: t.optional(t.literal(true)),
  shape: Shape,
  maybeShape: t.nullable(Shape),
  defaulted: t.field(t.optional(t.int32()), { default: 7 }),
});

const edgeValue = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  u8: 7,
  i8: -128,
  i16: 32_767,
  i32: -5,
  u32: 4_000_000_000,
  i64: -(2n ** 63n),
  u64: 2n ** 63n - 1n,
  i64n: Number.MAX_SAFE_INTEGER,
  u64n: 0,
  f64: 1.5,
  f32: 0.5,
  flag: true,
  text: 'héllo 🚀 and a string longer than sixteen bytes',
  color: 'green',
  when: new Date(1_700_000_000_123),
  sec: new Date(-86_400_000),
  micros: new Date(1_700_000_000_123),
  nanos: new Date(0),
  blob: new Uint8Array([0, 1, 255]),
  price: '-1234567890.12',
  decText: '3.14159',
  any: { a: [1, 'two', null, true] },
  nothing: null,
  list: [0, 1, 2 ** 32 - 1],
  words: ['', 'a', 'an ascii string past sixteen bytes', 'ünïcödé past sixteen bytes'],
  matrix: [[1, -2], [], [2 ** 31 - 1]],
  inners: [{ a: 0, b: 'x' }],
  inner: { a: 65_535, b: '' },
  dict: { x: 1, y: -0 },
  byId: new Map([
    [7, 'seven'],
    [-1, ''],
  ]),
  lit: 42,
  shape: { kind: 'circle', radius: 2 },
  maybeShape: null,
  ...over,
});

const edgeValues: Record<string, unknown>[] = [
  edgeValue(),
  edgeValue({
    u8: 0,
    i32: 0,
    u32: 0,
    i64: 0n,
    u64: 0n,
    i64n: -(2 ** 40) - 3,
    micros: new Date(-1_000_000_001),
    f64: -0,
    f32: -0,
    flag: false,
    text: '',
    color: 'red',
    list: [],
    words: [],
    matrix: [],
    inners: [],
    dict: {},
    byId: new Map(),
    any: null,
  }),
  edgeValue({
    f64: Number.NaN,
    f32: Number.NaN,
    i32: -(2 ** 31),
    u8: 255,
    maybe: '',
    nothing: 0,
    i64n: -Number.MAX_SAFE_INTEGER,
    u64n: 2 ** 52 - 1,
    words: ['exactly 13 ch', 'sixteen bytes ok', 'twelve bytes'],
    both: null,
    maybeInner: { a: 1, b: 'inner' },
    optLit: true,
    maybeShape: { kind: 'rect', width: 3, height: 4 },
    defaulted: 3,
  }),
  edgeValue({
    f64: Number.MAX_VALUE,
    f32: Number.NEGATIVE_INFINITY,
    i64: 2n ** 63n - 1n,
    i64n: 2 ** 40,
    u64n: Number.MAX_SAFE_INTEGER,
    text: '\u0000\uffff',
    maybe: 'x'.repeat(70),
    nothing: 4_294_967_295,
    both: 'both',
    when: new Date(-8.64e15),
    // A 17-item array: past the size allocated up front.
    list: Array.from({ length: 17 }, (_, i) => i),
    words: Array.from({ length: 40 }, (_, i) => `word ${i} in a longer list`),
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
  edgeValue({ i8: '1' }),
  edgeValue({ i32: 2 ** 31 }),
  edgeValue({ u32: -1 }),
  edgeValue({ u32: 2 ** 32 }),
  edgeValue({ u32: 1.5 }),
  edgeValue({ i64: 1 }),
  edgeValue({ i64: 2n ** 63n }),
  edgeValue({ u64: -1n }),
  edgeValue({ i64n: 2 ** 53 }),
  edgeValue({ i64n: 1n }),
  edgeValue({ u64n: -1 }),
  edgeValue({ f64: '1' }),
  edgeValue({ f32: 1e40 }),
  edgeValue({ f32: undefined }),
  edgeValue({ flag: 'yes' }),
  edgeValue({ flag: undefined }),
  edgeValue({ text: 5 }),
  edgeValue({ text: 'lone \ud800 surrogate' }),
  edgeValue({ color: 'mauve' }),
  edgeValue({ color: 1 }),
  edgeValue({ when: 'today' }),
  edgeValue({ when: new Date(Number.NaN) }),
  edgeValue({ nanos: new Date(8.64e15) }),
  edgeValue({ blob: [1] }),
  edgeValue({ price: '1.234' }),
  edgeValue({ any: undefined }),
  edgeValue({ maybe: null }),
  edgeValue({ maybe: 1 }),
  edgeValue({ nothing: undefined }),
  edgeValue({ maybeInner: null }),
  edgeValue({ maybeInner: { a: 1 } }),
  edgeValue({ list: [1, -1] }),
  edgeValue({ list: {} }),
  edgeValue({ words: ['a', 1] }),
  edgeValue({ matrix: [[1], [1.5]] }),
  edgeValue({
    inners: [
      { a: 0, b: 'x' },
      { a: 1, b: null },
    ],
  }),
  edgeValue({ inner: null }),
  edgeValue({ inner: [] }),
  edgeValue({ inner: { a: -1, b: '' } }),
  edgeValue({ dict: { x: 'y' } }),
  edgeValue({ byId: { 1: 'x' } }),
  edgeValue({ lit: 41 }),
  edgeValue({ optLit: false }),
  edgeValue({ shape: { kind: 'hexagon' } }),
  edgeValue({ shape: { kind: 'rect', width: 'wide', height: 1 } }),
  edgeValue({ maybeShape: undefined }),
];

const cases: [string, Schema, unknown[]][] = [
  ['Edge', Edge, edgeValues],
  ['EveryKind', EveryKind, [avroValue(), { ...avroValue(), work: { street: 'w', zip: 'z' }, nickname: 'n' }]],
  ['EveryKindFlat', EveryKindFlat, [(({ category: _, ...flat }) => flat)(avroValue())]],
  [
    'Category (recursive)',
    Category,
    [{ name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [] }] }] }, categoryChain(40)],
  ],
  ['Record8', Record8, records(50, 3)],
  ['User', User, users(50, 3)],
  ['an array of Record8 (a wrapped root)', t.array(Record8), [records(20, 4), []]],
  ['a scalar root', t.nullable(t.string()), ['', 'x', null]],
  ['a literal root', t.literal('x'), ['x']],
  [
    'a union root',
    Shape,
    [
      { kind: 'circle', radius: 1 },
      { kind: 'rect', width: 1, height: -0 },
    ],
  ],
];

describe.each(cases)('avro: compiled against the interpreter: %s', (_, schema, values) => {
  const compiled = createCodec('avro', { schema });
  const interpreted = createCodec('avro', { schema, compile: false });

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

  test('same outcome on every truncation', () => {
    for (const value of values.slice(0, 3)) {
      const bytes = interpreted.encode(value).slice();
      for (let cut = 0; cut < bytes.length; cut++) {
        const part = bytes.subarray(0, cut);
        expect(outcome(() => compiled.decode(part))).toStrictEqual(outcome(() => interpreted.decode(part)));
      }
    }
  });

  test('streams: the compiled container reads as the interpreter reads it, and back', async () => {
    const fromCompiled = await readAll(compiled.encodeStream(values));
    const fromInterpreter = await readAll(interpreted.encodeStream(values));
    const expected = await collect(interpreted.decodeStream(chunked(fromInterpreter, [7, 100])));
    expect(await collect(compiled.decodeStream(chunked(fromInterpreter, [7, 100])))).toStrictEqual(expected);
    expect(await collect(interpreted.decodeStream(chunked(fromCompiled, [7, 100])))).toStrictEqual(expected);
  });
});

describe('avro: compiled errors', () => {
  const compiled = createCodec('avro', { schema: Edge });
  const interpreted = createCodec('avro', { schema: Edge, compile: false });

  test('wrong values fail with the same code, message and path', () => {
    for (const value of wrongValues) {
      const a = outcome(() => compiled.encode(value as never));
      expect(a.ok, show(value)).toBe(false);
      expect(a, show(value)).toStrictEqual(outcome(() => interpreted.encode(value as never)));
    }
  });

  test('a failed encode leaves the next one whole', () => {
    expect(outcome(() => compiled.encode(edgeValue({ inner: null }) as never)).ok).toBe(false);
    const value = edgeValue();
    expect(
      Buffer.from(compiled.encode(value as never)).equals(Buffer.from(interpreted.encode(value as never))),
    ).toBe(true);
  });

  test('depth limits fail the same way on encode and decode', () => {
    const limits = { maxDepth: 12 };
    const deepCompiled = createAvroCodec({ schema: Category, limits });
    const deepInterpreted = createAvroCodec({ schema: Category, limits, compile: false });
    const chain = categoryChain(30);
    const a = outcome(() => deepCompiled.encode(chain));
    expect(a.ok).toBe(false);
    expect(a).toStrictEqual(outcome(() => deepInterpreted.encode(chain)));
    const bytes = createAvroCodec({ schema: Category }).encode(chain);
    const b = outcome(() => deepCompiled.decode(bytes));
    expect(b).toMatchObject({ ok: false, code: 'WK_LIMIT_DEPTH' });
    expect(b).toStrictEqual(outcome(() => deepInterpreted.decode(bytes)));
  });

  test('element limits fail the same way', () => {
    const limits = { maxElements: 10 };
    const bytes = createAvroCodec({ schema: Edge }).encode(edgeValues[3]);
    const a = outcome(() => createAvroCodec({ schema: Edge, limits }).decode(bytes));
    expect(a).toMatchObject({ ok: false, code: 'WK_LIMIT_ELEMENTS' });
    expect(a).toStrictEqual(
      outcome(() => createAvroCodec({ schema: Edge, limits, compile: false }).decode(bytes)),
    );
  });

  test('trailing bytes fail the same way', () => {
    const bytes = concat([compiled.encode(edgeValue() as never), [0]]);
    const a = outcome(() => compiled.decode(bytes));
    expect(a.ok).toBe(false);
    expect(a).toStrictEqual(outcome(() => interpreted.decode(bytes)));
  });
});

describe('avro: what stays on the interpreter', () => {
  test('a writer schema still resolves (through the interpreter) while encode runs compiled', () => {
    const Old = t.object('Record', { id: t.uint32(), name: t.string() });
    const old = createAvroCodec({ schema: Old });
    const codec = createAvroCodec({
      schema: t.object('Record', {
        id: t.uint32(),
        name: t.string(),
        age: t.field(t.uint8(), { default: 3 }),
      }),
      writerSchema: toAvro(Old),
    });
    expect(codec.compiled).toBe(true);
    expect(codec.decode(old.encode({ id: 1, name: 'x' }))).toStrictEqual({ id: 1, name: 'x', age: 3 });
  });

  test('whole container files read and write through the compiled functions identically', async () => {
    const values = records(30, 5);
    const syncMarker = new Uint8Array(16).fill(7);
    const file = await writeContainer(values, { schema: Record8, syncMarker });
    const viaInterpreter = await readAll(
      createAvroCodec({ schema: Record8, compile: false }).encodeStream(values),
    );
    // Same blocks after the header (sync markers differ: the stream's is random).
    expect((await readContainer(file, { schema: Record8 })).values).toStrictEqual(
      await collect(
        createAvroCodec({ schema: Record8, compile: false }).decodeStream(chunked(viaInterpreter, [1000])),
      ),
    );
  });
});

/** Values the hostile suite truncates, extends and mutates. */
const samples = [
  avroValue(),
  { ...avroValue(), work: { street: 'w', zip: 'z' }, nickname: '🚀', manager: 'm', shapes: [], extra: 'x' },
];

const interpreter = (limits?: Record<string, number>) =>
  createAvroCodec({ schema: EveryKind, limits, compile: false });

/** The bytes of EveryKind's first `count` fields of `value` (a record is its fields, one after another). */
function prefix(count: number, value: Record<string, unknown> = avroValue()): Uint8Array {
  const fields = EveryKind.fields.slice(0, count);
  const Prefix = t.object('Prefix', Object.fromEntries(fields.map((f) => [f.name, f.schema])));
  return createAvroCodec({ schema: Prefix, compile: false }).encode(
    Object.fromEntries(fields.map((f) => [f.name, value[f.name]])),
  );
}

const fieldIndex = (name: string) => EveryKind.fields.findIndex((f) => f.name === name);

/** EveryKind with its last field, category, nested `levels` deep without any names. */
function deepEveryKind(levels: number): Uint8Array {
  const shallow = interpreter().encode({ ...avroValue(), category: { name: '', children: [] } });
  const head = shallow.subarray(0, shallow.length - 2);
  const chain = new Uint8Array(3 * levels - 1);
  for (let i = 0; i < levels - 1; i++) chain.set([0x00, 0x02], 2 * i);
  return concat([head, chain.subarray(0, 2 * (levels - 1)), [0x00, 0x00], new Array(levels - 1).fill(0)]);
}

describeHostileInput('avro (interpreter)', {
  codec: interpreter(),
  withLimits: (limits) => interpreter(limits),
  samples,
  deep: deepEveryKind,
  // price, the first length-prefixed field, claims 2^40 bytes.
  hugeLength: () => concat([prefix(fieldIndex('price')), [0x80, 0x80, 0x80, 0x80, 0x80, 0x40]]),
  invalidUtf8: () => concat([prefix(fieldIndex('name')), [0x04, 0xc3, 0x28]]),
  protoKey: () =>
    concat([
      prefix(fieldIndex('scores')),
      [0x02, 0x12],
      new TextEncoder().encode('__proto__'),
      new Array(8).fill(0),
    ]),
  detectsTrailing: true,
});
