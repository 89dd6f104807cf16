import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createJsonCodec } from '../../src/codecs/json/index.js';
import { type Schema, t, toJsonValue } from '../../src/index.js';
import { Category, EveryKind, everyKindValue } from '../fixtures/every-kind.js';
import { codeOf } from '../support/code-of.js';
import { chunked, collect, readAll } from '../support/streams.js';
import { describeHostileInput } from './hostile-suite.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

describe('JSON codec with a schema', () => {
  const codec = createJsonCodec({ schema: EveryKind });

  test('round-trips every kind', () => {
    expect(codec.decode(codec.encode(everyKindValue()))).toEqual(everyKindValue());
  });

  test('writes exactly the JSON form of values', () => {
    expect(JSON.parse(text(codec.encode(everyKindValue())))).toEqual(
      JSON.parse(JSON.stringify(toJsonValue(EveryKind, everyKindValue()))),
    );
  });

  test('keeps -0, NaN, infinities and int64 limits exactly', () => {
    const floats = createJsonCodec<number[]>({ schema: t.array(t.float64()) });
    const back = floats.decode(floats.encode([-0, Number.NaN, Number.POSITIVE_INFINITY, 1e-300, 5e-324]));
    expect(Object.is(back[0], -0)).toBe(true);
    expect(back.slice(1)).toEqual([Number.NaN, Number.POSITIVE_INFINITY, 1e-300, 5e-324]);
    const longs = createJsonCodec({ schema: t.array(t.int64()) });
    const limits = [-(2n ** 63n), 2n ** 63n - 1n, 0n];
    expect(text(longs.encode(limits))).toBe('["-9223372036854775808","9223372036854775807","0"]');
    expect(longs.decode(longs.encode(limits))).toEqual(limits);
  });

  test('int64 as bare numbers: exact when written, refused when a reader would have to guess', () => {
    const codec = createJsonCodec({ schema: t.array(t.int64()), int64: 'number' });
    expect(text(codec.encode([2n ** 62n]))).toBe('[4611686018427387904]');
    expect(codec.decode(bytes('[9007199254740991]'))).toEqual([9007199254740991n]);
    expect(codeOf(() => codec.decode(bytes('[4611686018427387904]')))).toBe('WK_DECODE_SCHEMA_MISMATCH');
  });

  test('refuses values that do not fit the schema, with the path', () => {
    const Order = t.object('Order', { lines: t.array(t.object('Line', { qty: t.int32() })) });
    const orders = createJsonCodec({ schema: Order });
    expect(() => orders.encode({ lines: [{ qty: 1.5 }] } as never)).toThrow(
      /lines\[0\]\.qty: expected an int32/,
    );
    expect(() => orders.decode(bytes('{"lines":[{"qty":"x"}]}'))).toThrow(
      /lines\[0\]\.qty: expected an integer/,
    );
    expect(codeOf(() => orders.decode(bytes('{"lines":[],"extra":1}')))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    const lenient = createJsonCodec({ schema: Order, unknownFields: 'ignore' });
    expect(lenient.decode(bytes('{"lines":[],"extra":1}'))).toEqual({ lines: [] });
  });

  test('validate: true checks constraints before writing', () => {
    const short = createJsonCodec({ schema: t.string({ maxLength: 2 }), validate: true });
    expect(codeOf(() => short.encode('abc'))).toBe('WK_VALIDATION_FAILED');
    expect(codeOf(() => createJsonCodec({ schema: t.string({ maxLength: 2 }) }).encode('abc'))).toBe(
      'no error',
    );
  });

  test('a cyclic value is refused, not a stack overflow', () => {
    const Node = t.object('Node', { next: t.nullable(t.lazy((): typeof Node => Node)) }) as Schema;
    const cyclic: { next: unknown } = { next: null };
    cyclic.next = cyclic;
    expect(codeOf(() => createJsonCodec({ schema: Node }).encode(cyclic))).toBe('WK_ENCODE_UNSUPPORTED');
  });

  test('property: random int64/float/string records round-trip', () => {
    const Row = t.object('Row', { id: t.int64(), x: t.float64(), s: t.string(), tags: t.array(t.string()) });
    const rows = createJsonCodec({ schema: t.array(Row) });
    const row = fc.record({
      id: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      x: fc.double(),
      s: fc.string({ unit: 'grapheme' }),
      tags: fc.array(fc.string()),
    });
    fc.assert(
      fc.property(fc.array(row), (values) => {
        expect(rows.decode(rows.encode(values))).toEqual(values);
      }),
    );
  });
});

describe('JSON codec without a schema', () => {
  const codec = createJsonCodec();

  test('is native JSON, including lone surrogates escaped by JSON.stringify', () => {
    const value = { a: [1, 'x', null, true, { b: 'a\uD800b' }] };
    expect(text(codec.encode(value))).toBe(JSON.stringify(value));
    expect(codec.decode(codec.encode(value))).toEqual(value);
  });

  test('refuses what JSON cannot carry instead of a TypeError', () => {
    expect(codeOf(() => codec.encode({ n: 1n }))).toBe('WK_ENCODE_UNSUPPORTED');
    expect(codeOf(() => codec.encode(undefined))).toBe('WK_ENCODE_UNSUPPORTED');
  });

  test('refuses what JSON.stringify would change silently, unless strict is off', () => {
    class Point {
      x = 1;
    }
    const lossy = [
      { score: Number.NaN },
      { m: new Map([[1, 'a']]) },
      { s: new Set([1]) },
      { b: Uint8Array.from([1]) },
      [1, undefined],
      { p: new Point() },
      { f: () => 1 },
    ];
    for (const value of lossy)
      expect(
        codeOf(() => codec.encode(value)),
        JSON.stringify(value),
      ).toBe('WK_ENCODE_UNSUPPORTED');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(codeOf(() => codec.encode(cyclic))).toBe('WK_ENCODE_UNSUPPORTED');
    expect(text(codec.encode({ at: new Date(0), gone: undefined }))).toBe(
      '{"at":"1970-01-01T00:00:00.000Z"}',
    );
    const native = createJsonCodec({ strict: false });
    expect(text(native.encode({ score: Number.NaN, m: new Map() }))).toBe('{"score":null,"m":{}}');
  });

  test('refuses constructor and prototype keys as well as __proto__', () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      expect(codeOf(() => codec.decode(bytes(`{"a":[{"${key}":{"polluted":1}}]}`)))).toBe(
        'WK_DECODE_UNSAFE_KEY',
      );
    }
    expect(codec.decode(bytes('{"a":"__proto__"}'))).toEqual({ a: '__proto__' });
  });

  test('maps JSON.parse errors to truncated, trailing and malformed, with byte offsets', () => {
    expect(codeOf(() => codec.decode(bytes('{"a":')))).toBe('WK_DECODE_TRUNCATED');
    expect(codeOf(() => codec.decode(bytes('{"a":1} x')))).toBe('WK_DECODE_TRAILING');
    expect(codeOf(() => codec.decode(bytes('{"a" 1}')))).toBe('WK_DECODE_MALFORMED');
    try {
      codec.decode(bytes('{"é":1} x'));
    } catch (error) {
      expect((error as { offset: number }).offset).toBe(9);
    }
  });
});

describe('NDJSON streams', () => {
  const Row = t.object('Row', { id: t.int64(), name: t.string(), at: t.timestamp() });
  const codec = createJsonCodec({ schema: Row });
  const rows = Array.from({ length: 50 }, (_, i) => ({
    id: BigInt(i) * 10n ** 15n,
    name: `név ${i} 🚀`,
    at: new Date(i * 1e9),
  }));

  test('encodeStream writes one line per value', async () => {
    const data = await readAll(codec.encodeStream(rows));
    expect(text(data).split('\n')).toHaveLength(rows.length + 1);
    expect(codec.streamMediaType).toBe('application/x-ndjson');
  });

  test('decodeStream reads values however the chunks are cut, a final line without newline included', async () => {
    const data = await readAll(codec.encodeStream(rows));
    for (const sizes of [[1], [7, 3, 100], [data.length]]) {
      expect(await collect(codec.decodeStream(chunked(data, sizes)))).toEqual(rows);
    }
    const noFinalNewline = data.subarray(0, data.length - 1);
    expect(await collect(codec.decodeStream(chunked(noFinalNewline, [5])))).toEqual(rows);
    expect(await collect(codec.decodeStream(chunked(bytes('\n\n'), [1])))).toEqual([]);
  });

  test('a line larger than maxInputBytes fails before it is buffered whole', async () => {
    const small = createJsonCodec({ schema: Row, limits: { maxInputBytes: 64 } });
    const long = bytes(`{"id":"1","name":"${'x'.repeat(1000)}"`);
    await expect(collect(small.decodeStream(chunked(long, [16])))).rejects.toMatchObject({
      code: 'WK_LIMIT_INPUT',
    });
  });

  test('decodeStream reports the stream offset of a bad line', async () => {
    await expect(
      collect(
        codec.decodeStream(chunked(bytes('{"id":"1","name":"a","at":"2024-01-01T00:00:00Z"}\n{"id":'), [4])),
      ),
    ).rejects.toMatchObject({
      code: 'WK_DECODE_TRUNCATED',
    });
  });
});

describeHostileInput('json (schemaless)', {
  codec: createJsonCodec(),
  withLimits: (limits) => createJsonCodec({ limits }),
  // No top-level numbers: a prefix of a number ("1" of "12.5") is itself valid JSON.
  samples: [{ a: [1, 2, { b: 'c' }] }, 'text', [[], {}]],
  deep: (levels) => bytes(`${'['.repeat(levels)}${']'.repeat(levels)}`),
  invalidUtf8: () => Uint8Array.from([0x22, 0xc3, 0x28, 0x22]),
  protoKey: () => bytes('{"__proto__":{"polluted":true}}'),
  detectsTrailing: true,
});

describeHostileInput('json (EveryKind)', {
  codec: createJsonCodec({ schema: EveryKind }),
  withLimits: (limits) => createJsonCodec({ schema: EveryKind, limits }),
  samples: [everyKindValue()],
  invalidUtf8: () => Uint8Array.from([0x22, 0xed, 0xa0, 0x80, 0x22]),
  detectsTrailing: true,
  mutationRuns: 200,
});

describeHostileInput('json (recursive Category)', {
  codec: createJsonCodec({ schema: Category }),
  withLimits: (limits) => createJsonCodec({ schema: Category, limits }),
  samples: [{ name: 'root', children: [{ name: 'leaf', children: [] }] }],
  deep: (levels) =>
    bytes(`{"name":"x","children":${'[{"name":"x","children":'.repeat(levels)}[]${'}]'.repeat(levels)}}`),
  detectsTrailing: true,
});
