/**
 * Schema-compiled MessagePack (and CBOR, from the same generator) against the interpreter: the
 * same bytes from encode, the same values (or the same error: code, message and path) from decode,
 * on every kind, on edge values and on mutated bytes; proof that the compiled path ran; keys out of
 * the schema's order, unknown and repeated keys, indefinite maps, and limits below a field name's
 * length; and the hostile-input suite on the interpreter path (msgpack/codec.test.ts and cbor/codec.test.ts
 * run it on the compiled one, the default).
 */
import { describe, expect, test, vi } from 'vitest';
import { createCborCodec } from '../../../src/codecs/cbor/index.js';
import { createCodec } from '../../../src/codecs/index.js';
import { SchemaReader } from '../../../src/codecs/keyed/decode/schema-reader.js';
import { SchemaWriter } from '../../../src/codecs/keyed/encode/schema-writer.js';
import { createMsgpackCodec } from '../../../src/codecs/msgpack/index.js';
import { Record8, records } from '../../../src/lab/datasets/records.js';
import { User, users } from '../../../src/lab/datasets/users.js';
import { type Schema, t } from '../../../src/schema/index.js';
import { Category, EveryKind, EveryKindFlat, everyKindValue } from '../../fixtures/every-kind.js';
import { Wide40, Wide70, wide40Optional, wide70Optional, wideValues } from '../../fixtures/wide-objects.js';
import { expectSameOutcomeOnMutations, outcome } from '../../support/outcome.js';
import { hex } from '../../support/self-describing.js';
import { describeHostileInput } from '../../support/suites/hostile-input.js';

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
  either: t.optional(t.nullable(t.string())),
  list: t.array(t.uint32()),
  words: t.array(t.string()),
  holes: t.array(t.optional(t.int8())),
  inner: t.object('Inner', { a: t.uint16(), b: t.string() }),
  kind: t.literal('scalars'),
  named: t.field(t.string(), { default: 'anonymous' }),
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
  holes: [1, undefined, -128],
  inner: { a: 65535, b: '' },
  kind: 'scalars',
  named: 'n',
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
    holes: [],
    either: null,
  }),
  scalarValue({
    f64: Number.NaN,
    f32: Number.POSITIVE_INFINITY,
    i32: -(2 ** 31),
    u8: 255,
    maybe: '',
    nothing: 0,
    either: 'x',
    when: new Date(-1),
  }),
  scalarValue({
    f64: Number.MAX_VALUE,
    f32: -0,
    text: '\u0000\uffff',
    maybe: 'x'.repeat(70),
    nothing: 4_294_967_295,
    big: 2n ** 63n - 1n,
    words: ['a'.repeat(31), 'b'.repeat(32), 'c'.repeat(64), 'd'.repeat(65), 'é'.repeat(20)],
    when: new Date(8.64e15),
  }),
];

/** Values that are not of the schema, to compare the errors of both paths. */
const wrongValues: unknown[] = [
  null,
  [],
  'text',
  new Date(0),
  scalarValue({ u8: 256 }),
  scalarValue({ u8: 1.5 }),
  scalarValue({ u32: -1 }),
  scalarValue({ i32: '1' }),
  scalarValue({ text: 5 }),
  scalarValue({ flag: 'yes' }),
  scalarValue({ f64: '1' }),
  scalarValue({ f32: 1e300 }),
  scalarValue({ color: 'mauve' }),
  scalarValue({ color: 1 }),
  scalarValue({ when: new Date(Number.NaN) }),
  scalarValue({ when: 0 }),
  scalarValue({ big: 1 }),
  scalarValue({ inner: { a: -1, b: '' } }),
  scalarValue({ inner: null }),
  scalarValue({ inner: [] }),
  scalarValue({ list: [1, -1] }),
  scalarValue({ list: {} }),
  scalarValue({ holes: [1, null] }),
  scalarValue({ maybe: null }),
  scalarValue({ either: 1 }),
  scalarValue({ kind: 'other' }),
  scalarValue({ named: undefined }),
  scalarValue({ text: '\ud800' }),
  (({ u8: _, ...rest }) => rest)(scalarValue()),
];

const cases: [string, Schema, unknown[]][] = [
  ['Scalars', Scalars, edgeValues],
  ['EveryKind', EveryKind, [everyKindValue(), { ...everyKindValue(), work: { street: 'w', zip: '1' } }]],
  ['EveryKindFlat', EveryKindFlat, [(({ category: _, ...flat }) => flat)(everyKindValue())]],
  [
    'Category (recursive)',
    Category,
    [{ name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [] }] }] }],
  ],
  ['Record8', Record8, records(50, 3)],
  ['Record8 rows', t.array(Record8), [records(20, 4)]],
  ['User', User, users(50, 3)],
  ['Wide40 (40 fields)', Wide40, wideValues(40, wide40Optional)],
  ['Wide70 rows (70 fields)', t.array(Wide70), [wideValues(70, wide70Optional)]],
];

const formatCases = (['msgpack', 'cbor'] as const).flatMap((format) =>
  cases.map(([name, schema, values]) => [format, name, schema, values] as const),
);

describe.each(formatCases)('%s, compiled against the interpreter: %s', (format, _, schema, values) => {
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
      const back = compiled.decode(bytes);
      const expected = interpreted.decode(bytes);
      expect(back).toStrictEqual(expected);
      // The same key order too (toStrictEqual does not look at it).
      expect(JSON.stringify(back, jsonSafe)).toBe(JSON.stringify(expected, jsonSafe));
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
    const strictInterpreted = createCodec(format, { schema: schema, compile: false, unknownKeys: 'reject' });
    expectSameOutcomeOnMutations(
      values.map((value) => interpreted.encode(value)),
      (bytes) => strict.decode(bytes),
      (bytes) => strictInterpreted.decode(bytes),
      150,
    );
  });
});

function jsonSafe(_: string, value: unknown): unknown {
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Map) return [...value];
  if (value instanceof Uint8Array) return [...value];
  return value;
}

describe.each(['msgpack', 'cbor'] as const)(
  '%s, compiled: objects wider than one int of seen bits',
  (format) => {
    test("they are compiled: neither the interpreter's object writer nor its reader runs", () => {
      const writes = vi.spyOn(SchemaWriter.prototype as unknown as { object(): void }, 'object');
      const reads = vi.spyOn(SchemaReader.prototype, 'object');
      try {
        for (const [schema, values] of [
          [Wide40, wideValues(40, wide40Optional)],
          [t.array(Wide70), [wideValues(70, wide70Optional)]],
        ] as const) {
          const codec = createCodec(format, { schema });
          for (const value of values) expect(codec.decode(codec.encode(value))).toStrictEqual(value);
        }
        expect(writes).not.toHaveBeenCalled();
        expect(reads).not.toHaveBeenCalled();
      } finally {
        writes.mockRestore();
        reads.mockRestore();
      }
    });

    // Another writer's maps: the compiled decoder reads the fields that come in order and hands the
    // rest to the interpreter with the fields it read, past bit 30 and past bit 53.
    const schemaless = createCodec(format);
    test.each([
      ['Wide40', Wide40, wideValues(40, wide40Optional)],
      ['Wide70', Wide70, wideValues(70, wide70Optional)],
    ] as const)(
      '%s: keys out of order, repeated, unknown or missing, as the interpreter reads them',
      (_, schema, values) => {
        const compiled = createCodec(format, { schema });
        const interpreted = createCodec(format, { schema, compile: false });
        const [full, none] = values as [Record<string, unknown>, Record<string, unknown>];
        const entries = Object.entries(full);
        const last = entries.length - 1;
        const moved = (from: number) => [
          ...entries.slice(0, from),
          ...entries.slice(from + 1),
          entries[from] as [string, unknown],
        ];
        const variants: [string, unknown][][] = [
          entries.slice().reverse(),
          moved(0),
          moved(31),
          moved(last - 1),
          [...entries.slice(0, 45), ['unknown', 1], ...entries.slice(45)],
          entries.filter((_, i) => i !== 34),
          entries.filter((_, i) => i !== 2),
          Object.entries(none),
        ];
        const inputs = variants.map((list) => schemaless.encode(Object.fromEntries(list)));
        // A repeated key, after the fields in order: a map object cannot hold one, so it is spliced in.
        const repeated = schemaless.encode(Object.fromEntries(entries));
        const once = schemaless.encode(Object.fromEntries(entries.slice(0, 36)));
        inputs.push(withEntry(format, repeated, schemaless.encode({ f35: full.f35 })));
        inputs.push(withEntry(format, once, schemaless.encode({ f1: full.f1 })));
        for (const input of inputs) {
          const a = outcome(() => compiled.decode(input));
          const b = outcome(() => interpreted.decode(input));
          expect(a).toStrictEqual(b);
          if (a.ok && b.ok) expect(Object.keys(a.value as object)).toEqual(Object.keys(b.value as object));
        }
        // What the repeated keys and the missing required field came to.
        expect(outcome(() => compiled.decode(inputs.at(-2) as Uint8Array))).toMatchObject({
          code: 'WK_DECODE_MALFORMED',
        });
        expect(outcome(() => compiled.decode(inputs[5] as Uint8Array))).toMatchObject({ ok: false });
      },
    );
  },
);

/**
 * `map` (a one-entry map's bytes appended as one more entry): the map's header count is raised by
 * one, for maps of 16 to 65,535 entries (map 16 in MessagePack, a one-byte-argument or two-byte
 * map head in CBOR).
 */
function withEntry(format: 'msgpack' | 'cbor', map: Uint8Array, oneEntry: Uint8Array): Uint8Array {
  const view = new DataView(map.buffer, map.byteOffset, map.length);
  let head: Uint8Array;
  let body: Uint8Array;
  if (format === 'msgpack') {
    expect(map[0]).toBe(0xde);
    head = Uint8Array.from([0xde, 0, 0]);
    new DataView(head.buffer).setUint16(1, view.getUint16(1) + 1);
    body = map.subarray(3);
  } else {
    expect(map[0]).toBe(0xb8);
    head = Uint8Array.from([0xb8, (map[1] as number) + 1]);
    body = map.subarray(2);
  }
  // The one-entry map's own head is one byte in both formats (fixmap, 0xa1).
  return Uint8Array.from([...head, ...body, ...oneEntry.subarray(1)]);
}

describe.each(['msgpack', 'cbor'] as const)('%s, compiled: failures of encode', (format) => {
  const compiled = createCodec(format, { schema: Scalars });
  const interpreted = createCodec(format, { schema: Scalars, compile: false });

  test('wrong values fail with the same code, message and path', () => {
    for (const value of wrongValues) {
      const a = outcome(() => compiled.encode(value as never));
      expect(a.ok, JSON.stringify(value, jsonSafe)).toBe(false);
      expect(a).toStrictEqual(outcome(() => interpreted.encode(value as never)));
    }
  });

  test('too deep a value fails the same way', () => {
    const compiledCategory = createCodec(format, { schema: Category, limits: { maxDepth: 8 } });
    const interpretedCategory = createCodec(format, {
      schema: Category,
      limits: { maxDepth: 8 },
      compile: false,
    });
    let node: Category = { name: 'leaf', children: [] };
    for (let i = 0; i < 10; i++) node = { name: `n${i}`, children: [node] };
    const a = outcome(() => compiledCategory.encode(node));
    expect(a.ok).toBe(false);
    expect(a).toStrictEqual(outcome(() => interpretedCategory.encode(node)));
  });
});

/** The optional, defaulted and literal fields the fast path of a decoder must hand over right. */
const Small = t.object('Small', {
  a: t.uint8(),
  b: t.optional(t.string()),
  c: t.bool(),
  d: t.field(t.uint8(), { default: 9 }),
  e: t.literal('x'),
});

describe('msgpack, compiled: maps the interpreter also meets', () => {
  const compiled = createCodec('msgpack', { schema: Scalars });
  const interpreted = createCodec('msgpack', { schema: Scalars, compile: false });
  const same = (bytes: Uint8Array) => {
    const a = outcome(() => compiled.decode(bytes));
    expect(a).toStrictEqual(outcome(() => interpreted.decode(bytes)));
    return a;
  };

  test('keys in another order, unknown keys, repeated keys and nil optionals', () => {
    // Entries of the map as the interpreter would write them, reordered and edited.
    const fast = createCodec('msgpack', { schema: Small });
    const slow = createCodec('msgpack', { schema: Small, compile: false });
    const entry = {
      a: hex('a161 05'),
      b: hex('a162 a3 626262'),
      bNil: hex('a162 c0'),
      c: hex('a163 c3'),
      d: hex('a164 07'),
      e: hex('a165 a178'),
      z: hex('a17a 93 01 02 03'),
      aLong: hex('d90161 05'),
    };
    const map = (...entries: Uint8Array[]) =>
      Uint8Array.from([0x80 | entries.length, ...entries.flatMap((bytes) => [...bytes])]);
    const inputs = [
      map(entry.a, entry.b, entry.c, entry.d, entry.e),
      map(entry.a, entry.c, entry.d, entry.e),
      map(entry.a, entry.bNil, entry.c, entry.d, entry.e),
      map(entry.c, entry.a, entry.b, entry.d, entry.e),
      map(entry.a, entry.c, entry.b, entry.d, entry.e),
      map(entry.a, entry.b, entry.c),
      map(entry.a, entry.z, entry.b, entry.c, entry.d, entry.e),
      map(entry.a, entry.b, entry.c, entry.d, entry.e, entry.z),
      map(entry.a, entry.b, entry.c, entry.d, entry.e, entry.a),
      map(entry.a, entry.a, entry.c),
      map(entry.aLong, entry.c),
      map(entry.b, entry.c),
      map(entry.a, entry.c, entry.d, entry.e, entry.bNil),
      map(),
    ];
    for (const input of inputs) {
      const a = outcome(() => fast.decode(input));
      const b = outcome(() => slow.decode(input));
      expect(a).toStrictEqual(b);
      if (a.ok && b.ok) expect(Object.keys(a.value as object)).toEqual(Object.keys(b.value as object));
    }
  });

  test('string-keyed maps: repeated, unsafe, non-string and long keys, wrong values, both ways', () => {
    const Dict = t.object('Dict', { dict: t.map(t.string(), t.uint8()) });
    const fast = createCodec('msgpack', { schema: Dict });
    const slow = createCodec('msgpack', { schema: Dict, compile: false });
    expect(fast.compiled).toBe(true);
    const dict = (...entries: string[]) =>
      Uint8Array.from([
        0x81,
        ...hex('a4 64696374'),
        0x80 | entries.length,
        ...entries.flatMap((e) => [...hex(e)]),
      ]);
    const inputs = [
      dict('a161 01', 'a162 02'),
      dict('a161 01', 'a161 02'),
      dict('a9 5f5f70726f746f5f5f 01'),
      dict('ab 636f6e7374727563746f72 01'),
      dict('01 01'),
      dict('a161 cd012c'),
      dict(`d9 14 ${'78'.repeat(20)} 05`),
      dict('a2 c3a9 07'),
      dict(),
    ];
    for (const input of inputs) {
      const a = outcome(() => fast.decode(input));
      expect(a).toStrictEqual(outcome(() => slow.decode(input)));
    }
    for (const value of [{ a: 1, é: 2 }, {}, { a: 300 }, { a: '1' }, [], new Map(), null]) {
      const a = outcome(() => fast.encode({ dict: value } as never));
      expect(a).toStrictEqual(outcome(() => slow.encode({ dict: value } as never)));
    }
    const withProto = JSON.parse('{"dict": {"__proto__": 1}}');
    expect(outcome(() => fast.encode(withProto))).toStrictEqual(outcome(() => slow.encode(withProto)));
    expect(outcome(() => fast.encode(withProto)).ok).toBe(false);
  });

  test('field names belong to the schema: not held to maxStringBytes, compiled as interpreted', () => {
    const Long = t.object('Long', { averyveryverylongname: t.uint8() });
    const limits = { maxStringBytes: 4 };
    const a = createMsgpackCodec({ schema: Long, limits });
    const b = createMsgpackCodec({ schema: Long, limits, compile: false });
    const bytes = b.encode({ averyveryverylongname: 1 });
    expect(a.compiled).toBe(true);
    expect(a.decode(bytes)).toEqual({ averyveryverylongname: 1 });
    expect(b.decode(bytes)).toEqual({ averyveryverylongname: 1 });
  });

  test('strings at the edges of the short path', () => {
    for (const text of [
      '',
      'a',
      'x'.repeat(31),
      'x'.repeat(32),
      'x'.repeat(64),
      'x'.repeat(65),
      'é',
      '\u007f',
    ]) {
      same(compiled.encode(scalarValue({ text }) as never));
    }
    const limited = createCodec('msgpack', { schema: t.array(t.string()), limits: { maxStringBytes: 3 } });
    const limitedSlow = createCodec('msgpack', {
      schema: t.array(t.string()),
      limits: { maxStringBytes: 3 },
      compile: false,
    });
    const bytes = hex('93 a3616263 a461626364 a0');
    expect(outcome(() => limited.decode(bytes))).toStrictEqual(outcome(() => limitedSlow.decode(bytes)));
    // Invalid UTF-8, and a string cut by the end of the input.
    for (const input of [hex('92 a2c328 a0'), hex('92 a0 a5616263')]) {
      expect(outcome(() => limited.decode(input))).toStrictEqual(outcome(() => limitedSlow.decode(input)));
    }
  });

  test('field names that are not identifiers survive compilation', () => {
    const Odd = t.object('Odd', { 'a-b': t.string(), 'quote"d': t.uint32(), 'new\nline': t.bool() });
    const codec = createCodec('msgpack', { schema: Odd });
    expect(codec.compiled).toBe(true);
    const value = { 'a-b': 'x', 'quote"d': 3, 'new\nline': true };
    expect(codec.decode(codec.encode(value))).toEqual(value);
  });

  test('unsafe keys and schemaless codecs stay on the interpreter', () => {
    const Unsafe = t.object('Unsafe', { inner: t.object('Bad', { constructor: t.string() }) });
    expect(createCodec('msgpack', { schema: Unsafe }).compiled).toBe(false);
    expect(createCodec('msgpack').compiled).toBe(false);
  });

  test('a schema is compiled once', () => {
    const first = createCodec('msgpack', { schema: Record8 });
    const second = createCodec('msgpack', { schema: Record8 });
    expect(first.compiled && second.compiled).toBe(true);
    const value = records(1)[0] as Record8;
    expect(first.encode(value)).toEqual(second.encode(value));
  });
});

describe('cbor, compiled: maps the interpreter also meets', () => {
  test('indefinite maps, self-describe tags, keys in another order, unknown and repeated keys', () => {
    const fast = createCborCodec({ schema: Small });
    const slow = createCborCodec({ schema: Small, compile: false });
    expect(fast.compiled).toBe(true);
    const entry = {
      a: hex('6161 05'),
      b: hex('6162 63626262'),
      bNil: hex('6162 f6'),
      c: hex('6163 f5'),
      d: hex('6164 07'),
      e: hex('6165 6178'),
      z: hex('617a 83 01 02 03'),
      aLong: hex('780161 05'),
      aTagged: hex('d9d9f7 6161 05'),
      aChunked: hex('7f6161ff 05'),
    };
    const flat = (entries: Uint8Array[]) => entries.flatMap((bytes) => [...bytes]);
    const map = (...entries: Uint8Array[]) => Uint8Array.from([0xa0 | entries.length, ...flat(entries)]);
    const indefinite = (...entries: Uint8Array[]) => Uint8Array.from([0xbf, ...flat(entries), 0xff]);
    const inputs = [
      map(entry.a, entry.b, entry.c, entry.d, entry.e),
      map(entry.a, entry.c),
      indefinite(entry.a, entry.b, entry.c, entry.d, entry.e),
      indefinite(entry.a, entry.c),
      indefinite(entry.a, entry.c, entry.a),
      Uint8Array.from([0xbf, ...flat([entry.a, entry.c])]),
      map(entry.aTagged, entry.c),
      map(entry.aChunked, entry.c),
      map(entry.aLong, entry.c),
      map(entry.c, entry.a, entry.b),
      map(entry.a, entry.z, entry.c),
      map(entry.a, entry.c, entry.bNil, entry.a),
      hex('d9d9f7 a2 6161 05 6163 f5'),
    ];
    for (const input of inputs) {
      const a = outcome(() => fast.decode(input));
      const b = outcome(() => slow.decode(input));
      expect(a).toStrictEqual(b);
      if (a.ok && b.ok) expect(Object.keys(a.value as object)).toEqual(Object.keys(b.value as object));
    }
  });
});

describe('cbor, compiled: strings at the edges of the short path', () => {
  test('lengths, limits, tags, chunks, invalid UTF-8 and cut input read as the interpreter reads them', () => {
    const Words = t.array(t.string());
    for (const limits of [undefined, { maxStringBytes: 3 }]) {
      const fast = createCborCodec({ schema: Words, limits });
      const slow = createCborCodec({ schema: Words, limits, compile: false });
      const words = ['', 'abc', 'abcd', 'x'.repeat(23), 'x'.repeat(24), 'x'.repeat(64), 'x'.repeat(65), 'é'];
      const inputs = [
        slow.encode(words),
        hex('83 d9d9f7 63616263 7f6161ff 78026162'),
        hex('82 62c328 60'),
        hex('82 60 65616263'),
        hex('81 7801'),
      ];
      for (const input of inputs) {
        expect(outcome(() => fast.decode(input))).toStrictEqual(outcome(() => slow.decode(input)));
      }
    }
  });
});

describeHostileInput('msgpack (EveryKind, interpreter)', {
  codec: createMsgpackCodec({ schema: EveryKind, compile: false }),
  withLimits: (limits) => createMsgpackCodec({ schema: EveryKind, limits, compile: false }),
  samples: [everyKindValue(), { ...everyKindValue(), work: { street: 'w', zip: '1' }, nickname: 'n' }],
  hugeLength: () => hex('dfffffffff'),
  detectsTrailing: true,
});

describeHostileInput('msgpack (recursive schema, interpreter)', {
  codec: createMsgpackCodec({ schema: Category, compile: false }),
  withLimits: (limits) => createMsgpackCodec({ schema: Category, limits, compile: false }),
  samples: [
    { name: 'x', children: [{ name: 'y', children: [] }] },
    { name: 'x', children: [] },
  ],
  deep: (levels) => {
    const level = hex('82 a4 6e616d65 a0 a8 6368696c6472656e 91');
    const last = hex('82 a4 6e616d65 a0 a8 6368696c6472656e 90');
    const out = new Uint8Array(level.length * (levels - 1) + last.length);
    for (let i = 0; i < levels - 1; i++) out.set(level, i * level.length);
    out.set(last, (levels - 1) * level.length);
    return out;
  },
  hugeLength: () => hex('82a46e616d65dbffffff00'),
  invalidUtf8: () => hex('82a46e616d65a2c328a86368696c6472656e90'),
  detectsTrailing: true,
});

describeHostileInput('cbor (EveryKind, interpreter)', {
  codec: createCborCodec({ schema: EveryKind, compile: false }),
  withLimits: (limits) => createCborCodec({ schema: EveryKind, limits, compile: false }),
  samples: [everyKindValue(), { ...everyKindValue(), work: { street: 'w', zip: '1' }, nickname: 'n' }],
  hugeLength: () => hex('bbffffffffffffffff'),
  detectsTrailing: true,
});
