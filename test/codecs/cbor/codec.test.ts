import { Decoder, Encoder, Tag } from 'cbor-x';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { cborMediaTypes, createCborCodec } from '../../../src/codecs/cbor/index.js';
import { type Infer, t } from '../../../src/index.js';
import { Category, EveryKind, everyKindValue } from '../../fixtures/every-kind.js';
import { codeOf } from '../../support/code-of.js';
import { cutAt, decodeAll, hex, toHex } from '../../support/self-describing.js';
import { concat, oneByteAtATime, readAll } from '../../support/streams.js';
import { describeHostileInput } from '../../support/suites/hostile-input.js';

const typed = createCborCodec<Infer<typeof EveryKind>>({ schema: EveryKind });
const plain = createCborCodec();

function deepArrays(levels: number): Uint8Array {
  const bytes = new Uint8Array(levels + 1).fill(0x81);
  bytes[levels] = 0xf6;
  return bytes;
}

function deepCategories(levels: number): Uint8Array {
  const level = hex('a2 64 6e616d65 60 68 6368696c6472656e 81');
  const last = hex('a2 64 6e616d65 60 68 6368696c6472656e 80');
  return concat([...Array.from({ length: levels - 1 }, () => level), last]);
}

function nestedCategory(levels: number): Category {
  let node: Category = { name: 'leaf', children: [] };
  for (let i = 1; i < levels; i++) node = { name: `n${i}`, children: [node] };
  return node;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * RFC 8949 Appendix A, as wirekit's schemaless mapping reads it (neither cbor2 nor cbor-x ships
 * the table). `encodes` marks the vectors that wirekit's own writer produces byte for byte (floats
 * in preferred serialization, the shortest width that holds them); `asFloat` those it produces for
 * a float64 field (without a schema, an integral number is an integer).
 */
const appendixA: [string, unknown, { encodes?: boolean; asFloat?: boolean; refused?: string }?][] = [
  ['00', 0, { encodes: true }],
  ['01', 1, { encodes: true }],
  ['0a', 10, { encodes: true }],
  ['17', 23, { encodes: true }],
  ['1818', 24, { encodes: true }],
  ['1819', 25, { encodes: true }],
  ['1864', 100, { encodes: true }],
  ['1903e8', 1000, { encodes: true }],
  ['1a000f4240', 1000000, { encodes: true }],
  ['1b000000e8d4a51000', 1000000000000, { encodes: true }],
  ['1bffffffffffffffff', 18446744073709551615n, { encodes: true }],
  ['c249010000000000000000', 18446744073709551616n, { encodes: true }],
  ['3bffffffffffffffff', -18446744073709551616n, { encodes: true }],
  ['c349010000000000000000', -18446744073709551617n, { encodes: true }],
  ['20', -1, { encodes: true }],
  ['29', -10, { encodes: true }],
  ['3863', -100, { encodes: true }],
  ['3903e7', -1000, { encodes: true }],
  ['f90000', 0, { asFloat: true }],
  ['f98000', -0, { encodes: true }],
  ['f93c00', 1, { asFloat: true }],
  ['fb3ff199999999999a', 1.1, { encodes: true }],
  ['f93e00', 1.5, { encodes: true }],
  ['f97bff', 65504, { asFloat: true }],
  ['fa47c35000', 100000, { asFloat: true }],
  ['fa7f7fffff', 3.4028234663852886e38, { encodes: true }],
  ['fb7e37e43c8800759c', 1.0e300, { encodes: true }],
  ['f90001', 2 ** -24, { encodes: true }],
  ['f90400', 0.00006103515625, { encodes: true }],
  ['f9c400', -4, { asFloat: true }],
  ['fbc010666666666666', -4.1, { encodes: true }],
  ['f97c00', Number.POSITIVE_INFINITY, { encodes: true }],
  ['f97e00', Number.NaN, { encodes: true }],
  ['f9fc00', Number.NEGATIVE_INFINITY, { encodes: true }],
  ['fa7f800000', Number.POSITIVE_INFINITY],
  ['fa7fc00000', Number.NaN],
  ['faff800000', Number.NEGATIVE_INFINITY],
  ['fb7ff0000000000000', Number.POSITIVE_INFINITY],
  ['fb7ff8000000000000', Number.NaN],
  ['fbfff0000000000000', Number.NEGATIVE_INFINITY],
  ['f4', false, { encodes: true }],
  ['f5', true, { encodes: true }],
  ['f6', null, { encodes: true }],
  ['f7', undefined, { encodes: true }],
  ['f0', undefined, { refused: 'WK_DECODE_UNKNOWN_EXTENSION' }],
  ['f8ff', undefined, { refused: 'WK_DECODE_UNKNOWN_EXTENSION' }],
  ['c074323031332d30332d32315432303a30343a30305a', new Date('2013-03-21T20:04:00Z')],
  ['c11a514b67b0', new Date(1363896240000), { encodes: true }],
  ['c1fb41d452d9ec200000', new Date(1363896240500), { encodes: true }],
  ['d74401020304', undefined, { refused: 'WK_DECODE_UNKNOWN_EXTENSION' }],
  ['d818456449455446', undefined, { refused: 'WK_DECODE_UNKNOWN_EXTENSION' }],
  [
    'd82076687474703a2f2f7777772e6578616d706c652e636f6d',
    undefined,
    { refused: 'WK_DECODE_UNKNOWN_EXTENSION' },
  ],
  ['40', new Uint8Array(0), { encodes: true }],
  ['4401020304', new Uint8Array([1, 2, 3, 4]), { encodes: true }],
  ['60', '', { encodes: true }],
  ['6161', 'a', { encodes: true }],
  ['6449455446', 'IETF', { encodes: true }],
  ['62225c', '"\\', { encodes: true }],
  ['62c3bc', '\u00fc', { encodes: true }],
  ['63e6b0b4', '\u6c34', { encodes: true }],
  ['64f0908591', '\ud800\udd51', { encodes: true }],
  ['80', [], { encodes: true }],
  ['83010203', [1, 2, 3], { encodes: true }],
  ['8301820203820405', [1, [2, 3], [4, 5]], { encodes: true }],
  ['98190102030405060708090a0b0c0d0e0f101112131415161718181819', range(1, 25), { encodes: true }],
  ['a0', {}, { encodes: true }],
  [
    'a201020304',
    new Map([
      [1, 2],
      [3, 4],
    ]),
    { encodes: true },
  ],
  ['a26161016162820203', { a: 1, b: [2, 3] }, { encodes: true }],
  ['826161a161626163', ['a', { b: 'c' }], { encodes: true }],
  [
    'a56161614161626142616361436164614461656145',
    { a: 'A', b: 'B', c: 'C', d: 'D', e: 'E' },
    { encodes: true },
  ],
  ['5f42010243030405ff', new Uint8Array([1, 2, 3, 4, 5])],
  ['7f657374726561646d696e67ff', 'streaming'],
  ['9fff', []],
  ['9f018202039f0405ffff', [1, [2, 3], [4, 5]]],
  ['9f01820203820405ff', [1, [2, 3], [4, 5]]],
  ['83018202039f0405ff', [1, [2, 3], [4, 5]]],
  ['83019f0203ff820405', [1, [2, 3], [4, 5]]],
  ['9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff', range(1, 25)],
  ['bf61610161629f0203ffff', { a: 1, b: [2, 3] }],
  ['826161bf61626163ff', ['a', { b: 'c' }]],
  ['bf6346756ef563416d7421ff', { Fun: true, Amt: -2 }],
];

describe('cbor codec', () => {
  test('media types: CBOR values, and CBOR sequences (RFC 8742) for streams', () => {
    expect(cborMediaTypes).toEqual(['application/cbor', 'application/cbor-seq']);
    expect(typed.mediaType).toBe('application/cbor');
    expect(typed.streamMediaType).toBe('application/cbor-seq');
    expect(typed.format).toBe('cbor');
  });

  test('EveryKind round-trips with the schema, in the schema types', () => {
    const value = everyKindValue();
    const back = typed.decode(typed.encode(value));
    expect(back).toEqual(value);
    expect(typeof back.u64).toBe('bigint');
    expect(back.blob.constructor).toBe(Uint8Array);
    expect(back.byId).toBeInstanceOf(Map);
    expect('work' in back).toBe(false);
  });

  test('EveryKind round-trips schemaless, in the natural mapping', () => {
    const value = everyKindValue();
    expect(plain.decode(plain.encode(value))).toEqual(value);
    const { byId: _byId, ...withoutMap } = value;
    const back = plain.decode(plain.encode(withoutMap)) as typeof withoutMap;
    expect(back).toEqual(withoutMap);
    expect(back.blob.constructor).toBe(Uint8Array);
  });

  describe('RFC 8949 Appendix A', () => {
    test.each(appendixA)('%s', (bytes, value, options = {}) => {
      if (options.refused !== undefined) {
        expect(codeOf(() => plain.decode(hex(bytes)))).toBe(options.refused);
        return;
      }
      expect(plain.decode(hex(bytes))).toEqual(value);
      if (options.encodes) expect(toHex(plain.encode(value))).toBe(bytes);
      if (options.asFloat)
        for (const compile of [true, false])
          expect(toHex(createCborCodec({ schema: t.float64(), compile }).encode(value as number))).toBe(
            bytes,
          );
    });

    test('the same vectors read the same through the schema decoder', () => {
      expect(createCborCodec({ schema: t.uint64() }).decode(hex('1bffffffffffffffff'))).toBe(2n ** 64n - 1n);
      expect(createCborCodec({ schema: t.int64() }).decode(hex('3903e7'))).toBe(-1000n);
      expect(createCborCodec({ schema: t.float32() }).decode(hex('f97bff'))).toBe(65504);
      expect(createCborCodec({ schema: t.bytes() }).decode(hex('5f42010243030405ff'))).toEqual(
        new Uint8Array([1, 2, 3, 4, 5]),
      );
      expect(createCborCodec({ schema: t.string() }).decode(hex('7f657374726561646d696e67ff'))).toBe(
        'streaming',
      );
      expect(createCborCodec({ schema: t.timestamp() }).decode(hex('c1fb41d452d9ec200000'))).toEqual(
        new Date(1363896240500),
      );
      expect(
        createCborCodec({ schema: t.timestamp() }).decode(
          hex('c074323031332d30332d32315432303a30343a30305a'),
        ),
      ).toEqual(new Date('2013-03-21T20:04:00Z'));
      const Fun = t.object('Fun', { Fun: t.bool(), Amt: t.int8() });
      expect(createCborCodec({ schema: Fun }).decode(hex('bf6346756ef563416d7421ff'))).toEqual({
        Fun: true,
        Amt: -2,
      });
      expect(createCborCodec({ schema: t.array(t.int8()) }).decode(hex('9f0102ff'))).toEqual([1, 2]);
      expect(createCborCodec({ schema: t.map(t.int8(), t.int8()) }).decode(hex('a201020304'))).toEqual(
        new Map([
          [1, 2],
          [3, 4],
        ]),
      );
      expect(createCborCodec({ schema: t.json() }).decode(hex('bf61610161629f0203ffff'))).toEqual({
        a: 1,
        b: [2, 3],
      });
    });
  });

  describe('edge values round-trip with a schema', () => {
    const cases: [string, object, unknown][] = [
      ['int64 min', t.int64(), -(2n ** 63n)],
      ['uint64 max', t.uint64(), 2n ** 64n - 1n],
      ['int64 as number, 2^53 - 1', t.int64({ as: 'number' }), 2 ** 53 - 1],
      ['int64 as number, -(2^53 - 1)', t.int64({ as: 'number' }), -(2 ** 53 - 1)],
      ['NaN', t.float64(), Number.NaN],
      ['-0', t.float64(), -0],
      ['-Infinity', t.float64(), Number.NEGATIVE_INFINITY],
      ['float32 -0', t.float32(), -0],
      ['empty string', t.string(), ''],
      ['astral string', t.string(), '𝄞 🚀 中文 é'],
      ['long string', t.string(), 'x'.repeat(70_000)],
      ['empty bytes', t.bytes(), new Uint8Array(0)],
      ['empty array', t.array(t.string()), []],
      ['empty map', t.map(t.int32(), t.string()), new Map()],
      ['null', t.nullable(t.int8()), null],
      ['decimal with trailing zeros', t.decimal(), '12.50'],
      ['decimal below one', t.decimal(), '-0.05'],
      ['decimal zero with scale', t.decimal(), '0.00'],
      ['negative zero decimal', t.decimal(), '-0.00'],
      ['decimal beyond 64 bits', t.decimal(), '-123456789012345678901234567890.123456789'],
      ['decimal integer', t.decimal(), '100'],
      ['timestamp before 1970 with ms', t.timestamp(), new Date(-1)],
      ['timestamp, whole seconds far away', t.timestamp(), new Date(-8.64e15)],
      ['timestamp with ms in the year 60000', t.timestamp(), new Date('+060000-01-01T00:00:00.001Z')],
      ['json', t.json(), { a: [1, -2.5, 'x', null, false], b: {}, c: 2 ** 53 - 1 }],
      ['array of optional', t.array(t.optional(t.int8())), [1, undefined, 3]],
    ];
    for (const [name, schema, value] of cases) {
      test(name, () => {
        const codec = createCborCodec({ schema: schema as never });
        expect(codec.decode(codec.encode(value as never))).toEqual(value);
      });
    }

    test('recursion within the limits', () => {
      const codec = createCborCodec({ schema: Category });
      const value = nestedCategory(45);
      expect(codec.decode(codec.encode(value))).toEqual(value);
    });
  });

  describe('bytes on the wire follow docs/mapping/cbor.md', () => {
    test('int64 is an integer in its shortest form, never a float', () => {
      const codec = createCborCodec({ schema: t.int64({ as: 'number' }) });
      expect(toHex(codec.encode(2 ** 40))).toBe('1b0000010000000000');
      expect(toHex(codec.encode(-500))).toBe('3901f3');
      expect(toHex(new Encoder({ useRecords: false } as object).encode(2 ** 40))).toBe('fb4270000000000000');
    });

    test('floats take the shortest width that holds them exactly, whatever the schema names', () => {
      expect(toHex(createCborCodec({ schema: t.float64() }).encode(2))).toBe('f94000');
      expect(toHex(createCborCodec({ schema: t.float32() }).encode(1.5))).toBe('f93e00');
      expect(toHex(createCborCodec({ schema: t.float32() }).encode(0.1))).toBe('fa3dcccccd');
      expect(toHex(createCborCodec({ schema: t.float64() }).encode(0.1))).toBe('fb3fb999999999999a');
    });

    test('decimals are tag 4 [exponent, mantissa]; timestamps tag 1', () => {
      expect(toHex(createCborCodec({ schema: t.decimal() }).encode('-12.50'))).toBe('c482213904e1');
      expect(toHex(createCborCodec({ schema: t.decimal() }).encode('-0.0'))).toBe('642d302e30');
      expect(toHex(createCborCodec({ schema: t.timestamp() }).encode(new Date(1500)))).toBe('c1f93e00');
      expect(toHex(createCborCodec({ schema: t.timestamp() }).encode(new Date(1363896240500)))).toBe(
        'c1fb41d452d9ec200000',
      );
      expect(toHex(createCborCodec({ schema: t.timestamp() }).encode(new Date(-2000)))).toBe('c121');
    });

    test('plain CBOR: none of cbor-x records, tag 259 maps or typed-array tags', () => {
      const value = [{ a: new Uint8Array([1]) }, new Map([[1, 'x']])];
      expect(toHex(plain.encode(value))).toBe('82a161614101a1016178');
      // cbor-x's defaults write its record tags (57343) and typed-array tags.
      expect(toHex(new Encoder().encode({ a: 1 }))).toContain('d9dfff');
      expect(toHex(new Encoder({ useRecords: false } as object).encode(new Map([[1, 2]])))).toContain(
        'd90103',
      );
    });

    test('what readers bound is not written: very long decimals go out as text, huge bigints are refused', () => {
      const decimals = createCborCodec({ schema: t.decimal() });
      const long = `${'9'.repeat(3000)}.5`;
      expect(decimals.encode(long)[0]).toBe(0x79);
      expect(decimals.decode(decimals.encode(long))).toBe(long);
      expect(plain.decode(plain.encode(2n ** 8000n))).toBe(2n ** 8000n);
      expect(codeOf(() => plain.encode(2n ** 9000n))).toBe('WK_ENCODE_UNSUPPORTED');
    });

    test('instants whose milliseconds a float cannot hold are refused, not rounded', () => {
      const codec = createCborCodec({ schema: t.timestamp() });
      expect(codeOf(() => codec.encode(new Date(4_399_999_999_999_989)))).toBe('WK_ENCODE_UNSUPPORTED');
      expect(codec.decode(codec.encode(new Date(8.64e15)))).toEqual(new Date(8.64e15));
    });
  });

  describe('decoding with a schema converts and checks', () => {
    test('mismatches carry the path', () => {
      const bytes = plain.encode({ ...everyKindValue(), i64n: 5, home: { street: 1, zip: '1' } });
      try {
        typed.decode(bytes);
        expect.unreachable();
      } catch (error) {
        expect(error).toMatchObject({ code: 'WK_DECODE_SCHEMA_MISMATCH', path: ['home', 'street'] });
      }
    });

    test('decimals also read from text, bignum mantissas and positive exponents', () => {
      const codec = createCborCodec({ schema: t.decimal() });
      expect(codec.decode(plain.encode('3.25'))).toBe('3.25');
      expect(codec.decode(hex('c48202c249010000000000000000'))).toBe('1844674407370955161600');
      expect(codeOf(() => codec.decode(plain.encode('1e5')))).toBe('WK_DECODE_SCHEMA_MISMATCH');
      expect(codeOf(() => codec.decode(hex('c4821b000001000000000001')))).toBe('WK_LIMIT_LENGTH');
      expect(codeOf(() => codec.decode(hex('c48201f6')))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    });

    test('integers from bignums, within range only', () => {
      expect(createCborCodec({ schema: t.int64() }).decode(hex('c24105'))).toBe(5n);
      expect(
        codeOf(() => createCborCodec({ schema: t.uint64() }).decode(hex('c249010000000000000000'))),
      ).toBe('WK_DECODE_SCHEMA_MISMATCH');
    });

    test('undefined and null both mean absent for optional fields', () => {
      const O = t.object('O', { a: t.optional(t.int8()), b: t.int8() });
      const codec = createCborCodec({ schema: O });
      expect(codec.decode(hex('a26161f76162 01'))).toEqual({ b: 1 });
      expect(codec.decode(hex('a26161f66162 01'))).toEqual({ b: 1 });
    });

    test('self-described CBOR (tag 55799) is accepted anywhere', () => {
      const bytes = concat([hex('d9d9f7'), typed.encode(everyKindValue())]);
      expect(typed.decode(bytes)).toEqual(everyKindValue());
      expect(plain.decode(hex('d9d9f7a16161d9d9f701'))).toEqual({ a: 1 });
      expect(
        createCborCodec({ schema: t.map(t.string(), t.int8()) }).decode(hex('a1d9d9f76161d9d9f701')),
      ).toEqual({ a: 1 });
    });

    test('string-keyed maps refuse unsafe keys', () => {
      const map = createCborCodec({ schema: t.map(t.string(), t.int8()) });
      expect(codeOf(() => map.decode(hex('a16b636f6e7374727563746f7201')))).toBe('WK_DECODE_UNSAFE_KEY');
      expect(codeOf(() => map.decode(hex('a17f635f5f7066726f746f5f5fff01')))).toBe('WK_DECODE_UNSAFE_KEY');
      expect(codeOf(() => plain.decode(hex('a17f635f5f7066726f746f5f5fff01')))).toBe('WK_DECODE_UNSAFE_KEY');
    });
  });

  describe('streaming: CBOR sequences', () => {
    const values = [everyKindValue(), { ...everyKindValue(), nickname: 'n' }];

    test('encodeStream → decodeStream from random cuts and single bytes, with a schema', async () => {
      const bytes = await readAll(typed.encodeStream(values));
      expect(await decodeAll(typed, oneByteAtATime(bytes))).toEqual(values);
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }),
          async (cuts) => {
            expect(
              await decodeAll(
                typed,
                cutAt(
                  bytes,
                  cuts.sort((a, b) => a - b),
                ),
              ),
            ).toEqual(values);
          },
        ),
        { numRuns: 40 },
      );
    });

    test('schemaless sequences, indefinite-length items included', async () => {
      const bytes = hex('01 9f0102ff 7f6161ff bf6161f5ff f6 5f4101ff');
      const expected = [1, [1, 2], 'a', { a: true }, null, new Uint8Array([1])];
      expect(await decodeAll(plain, oneByteAtATime(bytes))).toEqual(expected);
      expect(await decodeAll(plain, cutAt(bytes, [2, 5, 6]))).toEqual(expected);
      const items = [1, 'two', { three: [3] }, undefined, 2n ** 70n];
      expect(await decodeAll(plain, oneByteAtATime(await readAll(plain.encodeStream(items))))).toEqual(items);
    });
    test('a large indefinite-length value in many small chunks', async () => {
      const items = Array.from({ length: 5000 }, (_, i) =>
        hex(`a2 6161 19${(i + 256).toString(16).padStart(4, '0')} 6162 9f 01 7f 6178 ff ff`),
      );
      const bytes = concat([hex('9f'), ...items, hex('ff'), hex('01')]);
      const cuts = Array.from({ length: Math.floor(bytes.length / 333) }, (_, i) => (i + 1) * 333);
      const values = await decodeAll(plain, cutAt(bytes, cuts));
      expect(values).toHaveLength(2);
      expect((values[0] as unknown[])[4999]).toEqual({ a: 5255, b: [1, 'x'] });
    });
  });

  describe('limits', () => {
    const cases: [string, Record<string, number>, Uint8Array, string][] = [
      ['maxInputBytes', { maxInputBytes: 3 }, plain.encode('abcd'), 'WK_LIMIT_INPUT'],
      ['maxDepth', { maxDepth: 3 }, deepArrays(4), 'WK_LIMIT_DEPTH'],
      ['maxDepth, indefinite', { maxDepth: 3 }, hex('9f9f9f9fffffffff'), 'WK_LIMIT_DEPTH'],
      ['maxStringBytes', { maxStringBytes: 3 }, plain.encode('abcd'), 'WK_LIMIT_LENGTH'],
      ['maxStringBytes, chunked', { maxStringBytes: 3 }, hex('7f626162626364ff'), 'WK_LIMIT_LENGTH'],
      ['maxElements', { maxElements: 3 }, plain.encode([[1, 2], [3]]), 'WK_LIMIT_ELEMENTS'],
      ['maxElements, indefinite', { maxElements: 3 }, hex('9f01020304ff'), 'WK_LIMIT_ELEMENTS'],
      ['maxElements, map entries', { maxElements: 1 }, hex('bf616101616202ff'), 'WK_LIMIT_ELEMENTS'],
    ];
    for (const [name, limits, bytes, code] of cases) {
      test(`${name}, schemaless`, () => {
        expect(codeOf(() => createCborCodec({ limits }).decode(bytes))).toBe(code);
      });
      test(`${name}, with a schema`, () => {
        expect(codeOf(() => createCborCodec({ schema: t.json(), limits }).decode(bytes))).toBe(code);
      });
    }

    test('maxBytesLength', () => {
      const bytes = plain.encode(new Uint8Array(4));
      expect(codeOf(() => createCborCodec({ limits: { maxBytesLength: 3 } }).decode(bytes))).toBe(
        'WK_LIMIT_LENGTH',
      );
      expect(
        codeOf(() => createCborCodec({ schema: t.bytes(), limits: { maxBytesLength: 3 } }).decode(bytes)),
      ).toBe('WK_LIMIT_LENGTH');
      expect(createCborCodec({ limits: { maxBytesLength: 4 } }).decode(bytes)).toEqual(new Uint8Array(4));
    });

    test('bignums longer than 1 KiB are refused (cbor-x builds them in quadratic time)', () => {
      const big = concat([hex('c25a00002000'), new Uint8Array(8192).fill(1)]);
      expect(codeOf(() => plain.decode(big))).toBe('WK_LIMIT_LENGTH');
      expect(codeOf(() => createCborCodec({ schema: t.int64() }).decode(big))).toBe('WK_LIMIT_LENGTH');
    });
  });

  describe('the scanner refuses what cbor-x would get wrong', () => {
    const cborx = new Decoder({ useRecords: false, mapsAsObjects: true } as object);

    test('a deep nest overflows cbor-x; wirekit stops at maxDepth', () => {
      expect(() => cborx.decode(deepArrays(100_000))).toThrow(RangeError);
      expect(codeOf(() => plain.decode(deepArrays(100_000)))).toBe('WK_LIMIT_DEPTH');
    });

    test('unknown tags: cbor-x hands out Tag objects (or runs its own extensions); wirekit refuses them', () => {
      expect(cborx.decode(hex('d9ffff01'))).toBeInstanceOf(Tag);
      for (const bytes of [
        'd9ffff01',
        'd9010381 01',
        'd8404101',
        'd81b820000',
        'd9dfff8100',
        'd8188100',
        'c5820101',
      ]) {
        expect(
          codeOf(() => plain.decode(hex(bytes))),
          bytes,
        ).toBe('WK_DECODE_UNKNOWN_EXTENSION');
      }
    });

    test('tag contents are checked', () => {
      expect(cborx.decode(hex('c06161'))).toEqual(new Date(Number.NaN));
      for (const bytes of [
        'c06161',
        'c16161',
        'c1fb7ff8000000000000',
        'c26161',
        'c48101',
        'c482f601',
        'c4820161',
        'c1c24101',
      ]) {
        expect(
          codeOf(() => plain.decode(hex(bytes))),
          bytes,
        ).toBe('WK_DECODE_MALFORMED');
      }
    });

    test('invalid UTF-8, in definite and chunked strings, is refused', () => {
      expect(cborx.decode(hex('62c328'))).toContain('\ufffd');
      for (const bytes of ['62c328', '63eda080', '7f61c3ff', '7f62c3a861c3ff']) {
        expect(
          codeOf(() => plain.decode(hex(bytes))),
          bytes,
        ).toBe('WK_DECODE_MALFORMED');
      }
    });

    test('malformed structure: stray breaks, reserved additional information, odd indefinite maps', () => {
      for (const bytes of [
        'ff',
        '1c',
        '3f',
        'df',
        '81ff',
        'bf6161ff',
        '5f6161ff',
        '7f5fffff',
        'f818',
        'fc',
      ]) {
        expect(
          codeOf(() => plain.decode(hex(bytes))),
          bytes,
        ).toBe('WK_DECODE_MALFORMED');
      }
    });

    test('chunked strings (which cbor-x refuses) and 64-bit epoch seconds are read by wirekit', () => {
      expect(() => cborx.decode(hex('7f6161ff'))).toThrow();
      expect(plain.decode(hex('a17f6161ff5f4101ff'))).toEqual({ a: new Uint8Array([1]) });
      expect(plain.decode(hex('c11b0000000000000001'))).toEqual(new Date(1000));
    });

    test('maps with non-string keys decode as Map, the others as objects; keys as __proto__ are refused', () => {
      expect(plain.decode(hex('a2616101 f5 02'))).toEqual(
        new Map<unknown, unknown>([
          ['a', 1],
          [true, 2],
        ]),
      );
      expect(plain.decode(hex('a16161a10102'))).toEqual({ a: new Map([[1, 2]]) });
      expect(codeOf(() => plain.decode(hex('a1695f5f70726f746f5f5f01')))).toBe('WK_DECODE_UNSAFE_KEY');
      expect(codeOf(() => plain.decode(hex('a2 01 01 695f5f70726f746f5f5f01')))).toBe('WK_DECODE_UNSAFE_KEY');
    });

    test('decimal fractions decode to numbers without a schema, as cbor-x maps them', () => {
      expect(plain.decode(hex('c482211904e1'))).toBe(12.49);
    });
  });
});

describeHostileInput('cbor (schemaless)', {
  codec: plain,
  withLimits: (limits) => createCborCodec({ limits }),
  samples: [
    everyKindValue(),
    { a: [1, 2.5, 'x'], b: new Map([[1, true]]) },
    2n ** 80n,
    hex('9f01ff') as unknown,
  ],
  deep: deepArrays,
  hugeLength: () => hex('5b00000000ffffffff01'),
  invalidUtf8: () => hex('a1616b62c328'),
  protoKey: () => hex('a1695f5f70726f746f5f5fa168706f6c6c75746564f5'),
  detectsTrailing: true,
});

describeHostileInput('cbor (EveryKind)', {
  codec: typed,
  withLimits: (limits) => createCborCodec({ schema: EveryKind, limits }) as typeof typed,
  samples: [everyKindValue(), { ...everyKindValue(), work: { street: 'w', zip: '1' }, nickname: 'n' }],
  hugeLength: () => hex('bbffffffffffffffff'),
  detectsTrailing: true,
});

describeHostileInput('cbor (recursive schema)', {
  codec: createCborCodec({ schema: Category }),
  withLimits: (limits) => createCborCodec({ schema: Category, limits }),
  samples: [nestedCategory(5)],
  deep: deepCategories,
  hugeLength: () => hex('a2646e616d657b0000000100000000'),
  invalidUtf8: () => hex('a2646e616d6562c328686368696c6472656e80'),
  detectsTrailing: true,
});

describeHostileInput('cbor (json kind)', {
  codec: createCborCodec({ schema: t.json() }),
  withLimits: (limits) => createCborCodec({ schema: t.json(), limits }),
  samples: [{ a: [1, 'x', null, true, { b: -2.5 }] }],
  deep: (levels) => new Uint8Array(levels).fill(0x9f),
  hugeLength: () => hex('9b00000000ffffffff'),
  invalidUtf8: () => hex('7f62c328ff'),
  protoKey: () => hex('a1695f5f70726f746f5f5f01'),
  detectsTrailing: true,
});
