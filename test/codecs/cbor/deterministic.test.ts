/**
 * CBOR floats in preferred serialization (RFC 8949 §4.1: the shortest of half, single and double
 * that holds the value exactly), by default, in every path that writes a float (schemaless, a
 * float64 or float32 field, a timestamp's seconds, a json value), compiled and interpreted; and
 * `deterministic: true`, §4.2.1's Core Deterministic Encoding, which adds map keys sorted bytewise
 * by their encoding. Before, every float was a double (1.5 was `fb3ff8000000000000`, not `f93e00`)
 * and maps kept the writer's order.
 *
 * Python's cbor2 is the independent peer: deterministic-python.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { halfToNumber } from '../../../src/codecs/cbor/decode/items.js';
import { createCborCodec } from '../../../src/codecs/cbor/index.js';
import { t } from '../../../src/index.js';
import { codeOf } from '../../support/code-of.js';
import { hex, toHex } from '../../support/self-describing.js';

const plain = createCborCodec();
const floatCodecs = [true, false].map((compile) => createCborCodec({ schema: t.float64(), compile }));
const float32Codecs = [true, false].map((compile) => createCborCodec({ schema: t.float32(), compile }));

describe('preferred floats', () => {
  test('every half-precision value is written as that half, from a float64 and a float32 field', () => {
    for (let bits = 0; bits < 0x10000; bits++) {
      // NaNs (exponent 31, fraction not 0) have one spelling in JavaScript: 7e00, tested below.
      if ((bits & 0x7c00) === 0x7c00 && (bits & 0x3ff) !== 0) continue;
      const value = halfToNumber(bits);
      const expected = `f9${bits.toString(16).padStart(4, '0')}`;
      for (const codec of [...floatCodecs, ...float32Codecs]) {
        const written = toHex(codec.encode(value));
        if (written !== expected) expect(`${value}: ${written}`).toBe(`${value}: ${expected}`);
      }
    }
  });

  test('a single that no half holds is four bytes; any other double eight', () => {
    fc.assert(
      fc.property(fc.float({ noNaN: true }), fc.double({ noNaN: true }), (single, double) => {
        for (const codec of floatCodecs) {
          const written = codec.encode(single);
          // A half when one holds it (checked above), else a single: never a double.
          expect([3, 5]).toContain(written.length);
          expect(Object.is(codec.decode(written), single)).toBe(true);
          const wide = codec.encode(double);
          expect(wide.length).toBe(Math.fround(double) === double ? (wide[0] === 0xf9 ? 3 : 5) : 9);
          expect(Object.is(codec.decode(wide), double)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  test.each([
    ['NaN', Number.NaN, 'f97e00'],
    ['-0', -0, 'f98000'],
    ['65504, the largest half', 65504, 'f97bff'],
    ['65505, past it', 65505, 'fa477fe100'],
    ['2^-24, the smallest half', 2 ** -24, 'f90001'],
    ['2^-25, below it', 2 ** -25, 'fa33000000'],
    ['a half subnormal with its lowest bit', 2 ** -24 * 1023, 'f903ff'],
    ['0.1, a double only', 0.1, 'fb3fb999999999999a'],
  ])('%s', (_name, value, bytes) => {
    for (const codec of floatCodecs) expect(toHex(codec.encode(value))).toBe(bytes);
  });

  test('a float32 field: the value rounded to single, then half when that holds it', () => {
    fc.assert(
      fc.property(fc.double({ min: -3e38, max: 3e38, noNaN: true }), (value) => {
        const single = Math.fround(value);
        for (const codec of float32Codecs) {
          const written = codec.encode(value);
          expect(written[0] === 0xf9 || written[0] === 0xfa).toBe(true);
          expect(Object.is(codec.decode(written), single)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('every path that writes a float: schemaless, json values, timestamps, literals', () => {
    expect(toHex(plain.encode([1.5, -0.25]))).toBe('82f93e00f9b400');
    const Row = t.object('Row', { data: t.json(), at: t.timestamp(), ratio: t.literal(0.5) });
    for (const compile of [true, false]) {
      const codec = createCborCodec({ schema: Row, compile });
      const bytes = codec.encode({ data: { x: 2.5 }, at: new Date(500), ratio: 0.5 });
      expect(toHex(bytes)).toBe(`a3${'6464617461'}a16178f94100${'626174'}c1f93800${'65726174696f'}f93800`);
    }
  });
});

describe('deterministic: true', () => {
  const deterministic = createCborCodec({ deterministic: true });

  test("sorts every map's keys bytewise by their encoding, nested maps and objects too", () => {
    // "a" (6161) < "b" (6162) < "aa" (626161): the length is in the head, so shorter keys go first.
    expect(toHex(deterministic.encode({ b: 1, aa: 3, a: [{ z: 1, y: 2 }] }))).toBe(
      'a3616181a2617902617a0161620162616103',
    );
    // Integers, negative integers, then text: by their first byte (19, 20, 61).
    expect(
      toHex(
        deterministic.encode(
          new Map<unknown, number>([
            ['a', 2],
            [-1, 3],
            [1000, 1],
          ]),
        ),
      ),
    ).toBe('a31903e8012003616102');
    // A map used as a key is sorted before it is compared.
    const inner = new Map([
      ['b', 1],
      ['a', 2],
    ]);
    expect(
      toHex(
        deterministic.encode(
          new Map<unknown, number>([
            [inner, 1],
            [0, 2],
          ]),
        ),
      ),
    ).toBe('a20002a261610261620101');
  });

  test("the schema's fields, compiled and interpreted, as without a schema", () => {
    const Row = t.object('Row', {
      zeta: t.int32(),
      alpha: t.float64(),
      scores: t.map(t.string(), t.int32()),
      byId: t.map(t.int32(), t.string()),
      note: t.optional(t.string()),
    });
    const value = {
      zeta: 1,
      alpha: 1.5,
      scores: { b: 1, a: 2 },
      byId: new Map([
        [300, 'x'],
        [-2, 'y'],
        [7, 'z'],
      ]),
    };
    const expected = toHex(deterministic.encode(value));
    // byId (64 62...) < zeta (64 7a...) < alpha (65...) < scores (66...); byId's keys 7 < 300 < -2.
    expect(expected).toBe(
      [
        'a4',
        '6462794964a307617a19012c6178216179',
        '647a65746101',
        '65616c706861f93e00',
        '6673636f726573a2616102616201',
      ].join(''),
    );
    for (const compile of [true, false])
      expect(toHex(createCborCodec({ schema: Row, compile, deterministic: true }).encode(value))).toBe(
        expected,
      );
  });

  test('compiled and interpreted write the same bytes for any value of a schema', () => {
    const Row = t.object('Row', {
      tags: t.map(t.string(), t.float64()),
      nested: t.array(t.object('Item', { y: t.bool(), x: t.map(t.string(), t.int32()) })),
      free: t.json(),
    });
    const [compiled, interpreted] = [true, false].map((compile) =>
      createCborCodec({ schema: Row, compile, deterministic: true }),
    );
    const key = fc
      .string({ maxLength: 30 })
      .filter((k) => !['__proto__', 'constructor', 'prototype'].includes(k));
    const json = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as unknown);
    fc.assert(
      fc.property(
        fc.dictionary(key, fc.double({ noNaN: true })),
        fc.array(fc.record({ y: fc.boolean(), x: fc.dictionary(key, fc.integer()) }), { maxLength: 5 }),
        json,
        (tags, nested, free) => {
          const value = { tags, nested, free };
          let bytes: Uint8Array;
          try {
            bytes = (compiled as ReturnType<typeof createCborCodec>).encode(value);
          } catch {
            // A json value wirekit refuses (an unsafe key deep inside): both refuse it.
            expect(() => (interpreted as ReturnType<typeof createCborCodec>).encode(value)).toThrow();
            return;
          }
          expect(toHex((interpreted as ReturnType<typeof createCborCodec>).encode(value))).toBe(toHex(bytes));
          expect((compiled as ReturnType<typeof createCborCodec>).decode(bytes)).toEqual(value);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('two keys with one encoding have no deterministic order: WK_ENCODE_UNSUPPORTED', () => {
    expect(
      codeOf(() =>
        deterministic.encode(
          new Map<unknown, number>([
            [1, 1],
            [1n, 2],
          ]),
        ),
      ),
    ).toBe('WK_ENCODE_UNSUPPORTED');
  });

  test('sequences: each value sorted', () => {
    const codec = createCborCodec({ deterministic: true });
    expect(
      toHex(
        codec.encodeSequence([
          { b: 1, a: 2 },
          { d: 3, c: 4 },
        ]),
      ),
    ).toBe('a2616102616201a2616304616403');
  });

  test('the default keeps the order it was given', () => {
    expect(toHex(plain.encode({ b: 1, a: 2 }))).toBe('a2616201616102');
    expect(plain.decode(hex('a2616201616102'))).toEqual({ b: 1, a: 2 });
  });
});
