/**
 * Schema-compiled codecs against their interpreters: the same bytes from encode, the same values
 * (or the same error, code and message) from decode, on every kind, on edge values and on mutated
 * bytes; proof that the compiled path ran; and the rules of the code generator itself.
 */
import { describe, expect, test } from 'vitest';
import { CompiledCache, keysAreSafe, SourceBuilder } from '../../src/codecs/core/codegen.js';
import { createCodec } from '../../src/codecs/index.js';
import { Record8, records } from '../../src/lab/datasets/records.js';
import { User, users } from '../../src/lab/datasets/users.js';
import { type Schema, t } from '../../src/schema/index.js';
import { Category, EveryKind, EveryKindFlat, everyKindValue } from '../fixtures/every-kind.js';
import { expectSameOutcomeOnMutations, outcome } from '../support/outcome.js';
import { describeHostileInput } from '../support/suites/hostile-input.js';

const Scalars = t.object('Scalars', {
  u8: t.uint8(),
  u32: t.uint32(),
  i32: t.int32(),
  f64: t.float64(),
  f32: t.float32(),
  flag: t.bool(),
  text: t.string(),
  color: t.enum('Hue', ['red', 'green', 'blue']),
  when: t.timestamp(),
  big: t.int64(),
  maybe: t.optional(t.string()),
  nothing: t.nullable(t.uint32()),
  list: t.array(t.uint32()),
  words: t.array(t.string()),
  inner: t.object('Inner', { a: t.uint16(), b: t.string() }),
});

const scalarValue = (over: Record<string, unknown> = {}) => ({
  u8: 7,
  u32: 4_000_000_000,
  i32: -5,
  f64: 1.5,
  f32: 0.5,
  flag: true,
  text: 'héllo 🚀',
  color: 'green',
  when: new Date(1_700_000_000_123),
  big: -(2n ** 63n),
  nothing: null,
  list: [0, 1, 2 ** 32 - 1],
  words: ['', 'a'],
  inner: { a: 65535, b: '' },
  ...over,
});

const edgeValues: Record<string, unknown>[] = [
  scalarValue(),
  scalarValue({
    u8: 0,
    u32: 0,
    i32: 0,
    f64: -0,
    f32: 0,
    flag: false,
    text: '',
    color: 'red',
    big: 0n,
    list: [],
    words: [],
  }),
  scalarValue({
    f64: Number.NaN,
    f32: Number.POSITIVE_INFINITY,
    i32: -(2 ** 31),
    u8: 255,
    maybe: '',
    nothing: 0,
  }),
  scalarValue({
    f64: Number.MAX_VALUE,
    text: '\u0000\uffff',
    maybe: 'x',
    nothing: 4_294_967_295,
    big: 2n ** 63n - 1n,
  }),
];

/** Values that are not of the schema, to compare the errors of both paths. */
const wrongValues: unknown[] = [
  null,
  [],
  'text',
  scalarValue({ u8: 256 }),
  scalarValue({ u8: 1.5 }),
  scalarValue({ text: 5 }),
  scalarValue({ flag: 'yes' }),
  scalarValue({ f64: '1' }),
  scalarValue({ color: 'mauve' }),
  scalarValue({ inner: { a: -1, b: '' } }),
  scalarValue({ inner: null }),
  scalarValue({ list: [1, -1] }),
  scalarValue({ maybe: null }),
  scalarValue({ words: ['ok', `${'x'.repeat(100)}\uDC00`] }),
  scalarValue({ text: '\uD800' }),
  scalarValue({ words: ['ok', 7] }),
];

const cases: [string, Schema, unknown[]][] = [
  ['Scalars', Scalars, edgeValues],
  ['EveryKind', EveryKind, [everyKindValue()]],
  ['EveryKindFlat', EveryKindFlat, [(({ category: _, ...flat }) => flat)(everyKindValue())]],
  [
    'Category (recursive)',
    Category,
    [{ name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [] }] }] }],
  ],
  ['Record8', Record8, records(50, 3)],
  ['User', User, users(50, 3)],
  [
    'a list of records (the bench shape)',
    t.object('Rows', { rows: t.array(Record8) }),
    [{ rows: records(30, 4) }, { rows: [] }],
  ],
];

describe.each(['protobuf', 'json'] as const)('%s: compiled against the interpreter', (format) => {
  describe.each(cases)('%s', (_, schema, values) => {
    const compiled = createCodec(format, { schema });
    const interpreted = createCodec(format, { schema, compile: false });

    test('the compiled path is the one that runs, and the interpreter is not compiled', () => {
      expect(compiled.compiled).toBe(true);
      expect(interpreted.compiled).toBe(false);
    });

    test('same bytes, same values', () => {
      for (const value of values) {
        const bytes = compiled.encode(value);
        expect(Buffer.from(bytes).equals(Buffer.from(interpreted.encode(value)))).toBe(true);
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
      // Mutated keys and field numbers become unknown ones: both paths refuse them alike.
      const strict = createCodec(format, { schema: schema, unknownKeys: 'reject' });
      const strictInterpreted = createCodec(format, {
        schema: schema,
        compile: false,
        unknownKeys: 'reject',
      });
      expectSameOutcomeOnMutations(
        values.map((value) => interpreted.encode(value)),
        (bytes) => strict.decode(bytes),
        (bytes) => strictInterpreted.decode(bytes),
        150,
      );
    });
  });

  test('wrong values fail with the same code, message and path', () => {
    const compiled = createCodec(format, { schema: Scalars });
    const interpreted = createCodec(format, { schema: Scalars, compile: false });
    for (const value of wrongValues) {
      const a = outcome(() => compiled.encode(value as never));
      // JSON can write a lone surrogate (as an escape); every other wrong value fails everywhere.
      const shown = JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
      if (!(format === 'json' && /\\ud[89a-f]/i.test(shown))) expect(a.ok, shown).toBe(false);
      expect(a).toStrictEqual(outcome(() => interpreted.encode(value as never)));
    }
  });
});

test('json: each codec keeps its own maxDepth though the writer is compiled once per schema', () => {
  const deep = createCodec('json', { schema: Category, limits: { maxDepth: 100 } });
  const shallow = createCodec('json', { schema: Category, limits: { maxDepth: 3 } });
  let value = { name: 'leaf', children: [] as unknown[] };
  for (let i = 0; i < 5; i++) value = { name: `n${i}`, children: [value] };
  expect(deep.compiled && shallow.compiled).toBe(true);
  expect(() => deep.encode(value as never)).not.toThrow();
  expect(outcome(() => shallow.encode(value as never))).toStrictEqual(
    outcome(() =>
      createCodec('json', { schema: Category, limits: { maxDepth: 3 }, compile: false }).encode(
        value as never,
      ),
    ),
  );
  expect(outcome(() => shallow.encode(value as never))).toMatchObject({
    ok: false,
    code: 'WK_LIMIT_DEPTH',
  });
});

describeHostileInput('protobuf (interpreter)', {
  codec: createCodec('protobuf', { schema: EveryKind, compile: false }),
  withLimits: (limits) => createCodec('protobuf', { schema: EveryKind, limits, compile: false }),
  samples: [everyKindValue()],
  deep: (levels) => {
    // EveryKind's category field (48) holding `levels` nested Category messages.
    let inner = new Uint8Array(0);
    for (let i = 0; i < levels; i++) {
      const next = new Uint8Array(inner.length + 6);
      next[0] = 0x12;
      let length = inner.length;
      let at = 1;
      while (length > 0x7f) {
        next[at++] = (length & 0x7f) | 0x80;
        length >>>= 7;
      }
      next[at++] = length;
      next.set(inner, at);
      inner = next.subarray(0, at + inner.length);
    }
    const out = new Uint8Array(inner.length + 8);
    out.set([0xaa, 0x06]);
    let length = inner.length;
    let at = 2;
    while (length > 0x7f) {
      out[at++] = (length & 0x7f) | 0x80;
      length >>>= 7;
    }
    out[at++] = length;
    out.set(inner, at);
    return out.subarray(0, at + inner.length);
  },
  hugeLength: () => new Uint8Array([0x72, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x61]),
  invalidUtf8: () => new Uint8Array([0x72, 0x02, 0xff, 0xfe]),
  protoKey: () => new Uint8Array([0xc2, 0x01, 0x0b, 0x0a, 0x09, ...new TextEncoder().encode('__proto__')]),
  detectsTrailing: false,
});

describe('the code generator', () => {
  test('names reach generated code only as JSON string literals or dependencies', () => {
    const source = new SourceBuilder();
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder is the point: it must stay text
    const name = 'a"b\\c\n*/${x}';
    source.line(`const o = { ${source.key(name)}: ${source.dep(42)} };`);
    const o = source.compile<Record<string, number>>('o');
    expect(o[name]).toBe(42);
    expect(source.fn('decode', 'User<script>')).toMatch(/^decode_User_script__\d+$/);
  });

  test('field names that are not identifiers survive compilation', () => {
    const Odd = t.object('Odd', { 'a-b': t.string(), 'quote"d': t.uint32(), 'new\nline': t.bool() });
    const codec = createCodec('protobuf', { schema: Odd });
    expect(codec.compiled).toBe(true);
    const value = { 'a-b': 'x', 'quote"d': 3, 'new\nline': true };
    expect(codec.decode(codec.encode(value))).toEqual(value);
  });

  test('unsafe keys keep a schema on the interpreter', () => {
    expect(keysAreSafe(['a', 'b'])).toBe(true);
    expect(keysAreSafe(['a', '__proto__'])).toBe(false);
  });

  test('the cache is bounded and keyed by identity', () => {
    const cache = new CompiledCache<object, number>(2);
    const [a, b, c] = [{}, {}, {}];
    let builds = 0;
    const build = () => ++builds;
    expect([cache.get(a, build), cache.get(a, build), cache.get(b, build), cache.get(c, build)]).toEqual([
      1, 1, 2, 3,
    ]);
    expect(cache.size).toBe(2);
    expect(cache.get(a, build)).toBe(4); // a was the oldest: dropped, then built again
  });
});
