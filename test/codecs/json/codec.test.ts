import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { quote } from '../../../src/codecs/json/encode/schema-writer.js';
import { createJsonCodec } from '../../../src/codecs/json/index.js';
import { type Schema, t, toJsonValue } from '../../../src/index.js';
import { Category, EveryKind, everyKindValue } from '../../fixtures/every-kind.js';
import { codeOf } from '../../support/code-of.js';
import { outcome } from '../../support/outcome.js';
import { chunked, collect, readAll } from '../../support/streams.js';
import { describeHostileInput } from '../../support/suites/hostile-input.js';

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
    // Unknown keys are skipped unless the codec says unknownKeys: 'reject' (docs/values.md).
    expect(orders.decode(bytes('{"lines":[],"extra":1}'))).toEqual({ lines: [] });
    const strict = createJsonCodec({ schema: Order, unknownKeys: 'reject' });
    expect(codeOf(() => strict.decode(bytes('{"lines":[],"extra":1}')))).toBe('WK_DECODE_SCHEMA_MISMATCH');
  });

  test('constraints are checked on every encode; validate: true also refuses unknown keys', () => {
    expect(codeOf(() => createJsonCodec({ schema: t.string({ maxLength: 2 }) }).encode('abc'))).toBe(
      'WK_VALIDATION_FAILED',
    );
    const Point = t.object('Point', { x: t.int32() });
    expect(codeOf(() => createJsonCodec({ schema: Point }).encode({ x: 1, y: 2 }))).toBe('no error');
    expect(codeOf(() => createJsonCodec({ schema: Point, validate: true }).encode({ x: 1, y: 2 }))).toBe(
      'WK_VALIDATION_FAILED',
    );
  });

  test('a bigint inside a json value is refused with a WirekitError, not a TypeError', () => {
    for (const compile of [true, false]) {
      const codec = createJsonCodec({ schema: t.object('Holder', { v: t.json() }), compile });
      expect(codeOf(() => codec.encode({ v: { a: 1n } } as never))).toBe('WK_VALIDATION_FAILED');
    }
  });

  test('a cyclic value is refused, not a stack overflow', () => {
    const Node = t.object('Node', { next: t.nullable(t.lazy((): typeof Node => Node)) }) as Schema;
    const cyclic: { next: unknown } = { next: null };
    cyclic.next = cyclic;
    expect(codeOf(() => createJsonCodec({ schema: Node }).encode(cyclic))).toBe('WK_LIMIT_DEPTH');
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

describe.each([true, false])(
  'JSON decoding refuses values the schema cannot hold (compile: %s)',
  (compile) => {
    const Country = t.enum('Country', ['DE', 'FR']);
    const Address = t.object('Address', {
      country: Country,
      kind: t.literal('postal'),
      zip: t.optional(t.string()),
      note: t.optional(t.string()),
      floor: t.field(t.uint8(), { default: 0 }),
    });
    const Order = t.object('Order', {
      id: t.int64(),
      qty: t.uint64(),
      n: t.int64({ as: 'number' }),
      un: t.uint64({ as: 'number' }),
      to: Address,
    });
    const good = { id: '1', qty: '2', n: 3, un: 4, to: { country: 'DE', kind: 'postal' } };
    const codecOf = (
      schema: Schema,
      options: { unknownKeys: 'ignore' | 'reject' } = { unknownKeys: 'reject' },
    ) => {
      const codec = createJsonCodec({ schema, compile, ...options });
      expect(codec.compiled).toBe(compile);
      return codec;
    };
    const orders = codecOf(Order);
    const decode = (json: unknown) => outcome(() => orders.decode(bytes(JSON.stringify(json))));
    const refused = (path: (string | number)[]) => ({ ok: false, code: 'WK_DECODE_SCHEMA_MISMATCH', path });

    test('accepts the good order', () => {
      expect(decode(good)).toStrictEqual({
        ok: true,
        value: { id: 1n, qty: 2n, n: 3, un: 4, to: { country: 'DE', kind: 'postal', floor: 0 } },
      });
    });

    test('an unknown key beside an optional spelled null is refused, or deleted when ignored', () => {
      const to = { country: 'DE', kind: 'postal', zip: null, x: 1 };
      expect(decode({ ...good, to })).toMatchObject(refused(['to', 'x']));
      expect(decode({ ...good, to: { ...to, note: null, y: 2 } })).toMatchObject({
        ok: false,
        path: ['to', 'x'],
      });
      const lenient = codecOf(Order, { unknownKeys: 'ignore' });
      expect(
        lenient.decode(bytes(JSON.stringify({ ...good, to: { ...to, note: null, y: 2 } }))),
      ).toStrictEqual({
        id: 1n,
        qty: 2n,
        n: 3,
        un: 4,
        to: { country: 'DE', kind: 'postal', floor: 0 },
      });
      // At the root too, and with a default filled in beside it.
      const root = codecOf(Address);
      expect(
        outcome(() => root.decode(bytes('{"country":"FR","kind":"postal","zip":null,"x":1}'))),
      ).toMatchObject(refused(['x']));
    });

    test('an enum member or a literal must be one of the schema', () => {
      expect(decode({ ...good, to: { country: 'XX', kind: 'postal' } })).toMatchObject({
        ...refused(['to', 'country']),
        message: 'to.country: expected a member of Country, got "XX".',
      });
      expect(decode({ ...good, to: { country: 'de', kind: 'postal' } })).toMatchObject(
        refused(['to', 'country']),
      );
      expect(decode({ ...good, to: { country: 'DE', kind: 'street' } })).toMatchObject({
        ...refused(['to', 'kind']),
        message: 'to.kind: expected the literal "postal", got "street".',
      });
      expect(decode({ ...good, to: { country: 'DE', kind: null } })).toMatchObject(refused(['to', 'kind']));
      const flags = codecOf(t.array(t.literal(true)));
      expect(outcome(() => flags.decode(bytes('[true,false]')))).toMatchObject(refused([1]));
    });

    test('int64 and uint64 must be in their range, as strings or as numbers', () => {
      for (const [field, value] of [
        ['id', '9223372036854775808'],
        ['id', '-9223372036854775809'],
        ['id', '999999999999999999999'],
        ['qty', '-1'],
        ['qty', -1],
        ['qty', '18446744073709551616'],
        ['un', -1],
        ['un', '-1'],
      ] as const) {
        expect(decode({ ...good, [field]: value }), `${field}: ${value}`).toMatchObject(refused([field]));
      }
      expect(decode({ ...good, id: '-9223372036854775808', qty: '18446744073709551615' })).toMatchObject({
        ok: true,
        value: { id: -(2n ** 63n), qty: 2n ** 64n - 1n },
      });
    });

    test("with as: 'number', digits past the safe integers are refused, not rounded", () => {
      expect(decode({ ...good, n: '9007199254740993' })).toMatchObject(refused(['n']));
      expect(decode({ ...good, n: '-9007199254740992' })).toMatchObject(refused(['n']));
      expect(decode({ ...good, un: '18446744073709551615' })).toMatchObject(refused(['un']));
      expect(decode({ ...good, n: '-9007199254740991', un: '9007199254740991' })).toMatchObject({
        ok: true,
        value: { n: -9007199254740991, un: 9007199254740991 },
      });
    });

    test('integer map keys are read as values of the key kind', () => {
      const byId = codecOf(t.map(t.uint8(), t.string()));
      expect(outcome(() => byId.decode(bytes('{"-1":"a"}')))).toMatchObject(refused(['-1']));
      expect(outcome(() => byId.decode(bytes('{"256":"a"}')))).toMatchObject(refused(['256']));
      expect(outcome(() => byId.decode(bytes('{"0":"a","-0":"b"}')))).toMatchObject(refused(['-0']));
      const big = codecOf(t.map(t.uint64(), t.string()));
      expect(outcome(() => big.decode(bytes('{"-1":"a"}')))).toMatchObject(refused(['-1']));
      const safe = codecOf(t.map(t.int64({ as: 'number' }), t.string()));
      expect(safe.decode(bytes('{"-5":"a"}'))).toStrictEqual(new Map([[-5, 'a']]));
      expect(outcome(() => safe.decode(bytes('{"9007199254740993":"a"}')))).toMatchObject(
        refused(['9007199254740993']),
      );
    });

    test('the writer refuses what the reader refuses, instead of writing it', () => {
      const Row = t.object('Row', { id: t.int64(), qty: t.uint64(), kind: t.literal('postal') });
      const rows = codecOf(Row);
      for (const value of [
        { id: 2n ** 63n, qty: 0n, kind: 'postal' },
        { id: 0n, qty: -1n, kind: 'postal' },
        { id: 0n, qty: -1, kind: 'postal' },
        { id: 0n, qty: 2n ** 64n, kind: 'postal' },
        { id: 0n, qty: 0n, kind: 'street' },
        { id: 0n, qty: 0n },
      ])
        expect(codeOf(() => rows.encode(value as never))).toBe('WK_VALIDATION_FAILED');
      const byId = codecOf(t.map(t.uint8(), t.string()));
      for (const key of [256, -1, 1.5, '1', 1n])
        expect(codeOf(() => byId.encode(new Map([[key, 'a']]) as never))).toBe('WK_VALIDATION_FAILED');
      expect(text(byId.encode(new Map([[255, 'a']]) as never))).toBe('{"255":"a"}');
      expect(text(rows.encode({ id: -(2n ** 63n), qty: 2n ** 64n - 1n, kind: 'postal' }))).toBe(
        '{"id":"-9223372036854775808","qty":"18446744073709551615","kind":"postal"}',
      );
    });
  },
);

describe('quote', () => {
  test('is JSON.stringify for every well-formed string, and refuses lone surrogates', () => {
    for (const text of ['', 'plain', 'a"b', 'a\\b', '\u0000\u001f\u007f', 'é🚀', '\u2028']) {
      expect(quote(text)).toBe(JSON.stringify(text));
    }
    for (const text of ['\ud800', 'x\udfffy'])
      expect(codeOf(() => quote(text))).toBe('WK_ENCODE_UNSUPPORTED');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        if (text.isWellFormed()) expect(quote(text)).toBe(JSON.stringify(text));
        else expect(codeOf(() => quote(text))).toBe('WK_ENCODE_UNSUPPORTED');
      }),
      { numRuns: 2000 },
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
