/**
 * Integers without a schema, in MessagePack and CBOR (docs/mapping/msgpack.md and cbor.md,
 * *Without a schema*): every path that writes a schemaless value writes a safe integer (number or
 * bigint) as an integer in its smallest form, a wider bigint in a 64-bit form or (CBOR only) a
 * bignum, and every other number as a float64; every reader gives a safe integer back as a number
 * and a wider one as a bigint, whatever form it came in.
 *
 * Python's msgpack and cbor2 are the independent judges in both directions:
 * schemaless-integers-python.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createCborCodec } from '../../../src/codecs/cbor/index.js';
import type { Codec } from '../../../src/codecs/core/codec.js';
import { createMsgpackCodec } from '../../../src/codecs/msgpack/index.js';
import { readEnvelope } from '../../../src/envelope/header.js';
import { encodeEnveloped } from '../../../src/envelope/index.js';
import { t } from '../../../src/index.js';
import {
  codecs,
  createCodecFor,
  type Format,
  floats,
  integers,
  read,
  tableOf,
} from '../../fixtures/schemaless-integers.js';
import { codeOf } from '../../support/code-of.js';
import { hex, toHex } from '../../support/self-describing.js';
import { readAll } from '../../support/streams.js';

/**
 * `value` in a 64-bit form: MessagePack's int 64 (negatives, and with `signed` non-negatives below
 * 2^63) or uint 64; CBOR's major type 0 or 1 with an 8-byte argument. Undefined where none holds it.
 */
function sixtyFourBitForm(format: Format, value: bigint, signed: boolean): Uint8Array | undefined {
  const bytes = new Uint8Array(9);
  const view = new DataView(bytes.buffer);
  if (format === 'msgpack') {
    if (value < -(2n ** 63n)) return undefined;
    const asInt64 = value < 0n || (signed && value < 2n ** 63n);
    bytes[0] = asInt64 ? 0xd3 : 0xcf;
    if (asInt64) view.setBigInt64(1, value);
    else view.setBigUint64(1, value);
    return bytes;
  }
  bytes[0] = value < 0n ? 0x3b : 0x1b;
  view.setBigUint64(1, value < 0n ? -1n - value : value);
  return bytes;
}

function concatHex(prefix: string, bytes: Uint8Array): Uint8Array {
  return hex(prefix + toHex(bytes));
}

/** `value` with every -0 (at any depth of arrays and plain objects) as 0. */
function withoutNegativeZero<T>(value: T): T {
  if (Object.is(value, -0)) return 0 as T;
  if (Array.isArray(value)) return value.map(withoutNegativeZero) as T;
  // fast-check's records come with a null prototype too.
  const proto = typeof value === 'object' && value !== null ? Object.getPrototypeOf(value) : undefined;
  if (proto === Object.prototype || proto === null)
    return Object.fromEntries(
      Object.entries(value as object).map(([k, v]) => [k, withoutNegativeZero(v)]),
    ) as T;
  return value;
}

describe('exact bytes', () => {
  const cases: [Format, number | bigint, string][] = [
    ['msgpack', 4_294_967_296, 'cf0000000100000000'],
    ['msgpack', -(2 ** 31) - 1, 'd3ffffffff7fffffff'],
    ['msgpack', 9_007_199_254_740_672, 'cf001ffffffffffec0'],
    ['msgpack', -(2 ** 53 - 1), 'd3ffe0000000000001'],
    ['msgpack', 2 ** 32 - 1, 'ceffffffff'],
    ['msgpack', -33, 'd0df'],
    ['msgpack', 5n, '05'],
    ['msgpack', 2n ** 64n - 1n, 'cfffffffffffffffff'],
    ['msgpack', 2 ** 53, 'cb4340000000000000'],
    ['msgpack', -0, 'cb8000000000000000'],
    ['cbor', 4_294_967_296, '1b0000000100000000'],
    ['cbor', -4_294_967_296, '3affffffff'],
    ['cbor', -4_294_967_297, '3b0000000100000000'],
    ['cbor', 9_007_199_254_740_672, '1b001ffffffffffec0'],
    ['cbor', 24, '1818'],
    ['cbor', -25, '3818'],
    ['cbor', 5n, '05'],
    ['cbor', -(2n ** 64n), '3bffffffffffffffff'],
    ['cbor', 2n ** 64n, 'c249010000000000000000'],
    ['cbor', -(2n ** 64n) - 1n, 'c349010000000000000000'],
    // Not safe integers, so floats: in CBOR the shortest that holds them (preferred serialization).
    ['cbor', 2 ** 53, 'fa5a000000'],
    ['cbor', -0, 'f98000'],
  ];
  test.each(cases)('%s %s', (format, value, bytes) => {
    expect(toHex(codecs[format].encode(value))).toBe(bytes);
  });

  test('the issue: {"n": 4294967296} is an integer, not float64', () => {
    expect(toHex(codecs.msgpack.encode({ n: 4_294_967_296 }))).toBe('81a16ecf0000000100000000');
    expect(toHex(codecs.cbor.encode({ n: 4_294_967_296 }))).toBe('a1616e1b0000000100000000');
  });

  test('MessagePack has no integer beyond 64 bits and no bignum: such bigints are refused, saying why', () => {
    for (const codec of [codecs.msgpack, createMsgpackCodec({ msgpackRecords: true })]) {
      for (const value of [2n ** 64n, -(2n ** 63n) - 1n]) {
        let message = '';
        try {
          codec.encode([value]);
        } catch (error) {
          message = (error as Error).message;
        }
        expect(codeOf(() => codec.encode([value]))).toBe('WK_ENCODE_UNSUPPORTED');
        expect(message).toMatch(/int 64 and uint 64.*no bignum/);
      }
    }
  });
});

describe.each(['msgpack', 'cbor'] as const)('%s: every reader gives the same value', (format) => {
  const codec: Codec<unknown> = codecs[format];
  const json = createCodecFor(format, t.json(), true);
  const jsonInterpreted = createCodecFor(format, t.json(), false);

  test('round trips: safe integers as numbers, wider ones as bigints, floats unchanged', () => {
    for (const value of [...tableOf(format), ...floats]) {
      const back = codec.decode(codec.encode(value));
      expect(Object.is(back, read(value)), String(value)).toBe(true);
    }
  });

  test('the library path (a value alone) and wirekit’s own reader (inside a map with an integer key) agree', () => {
    for (const value of tableOf(format)) {
      const bytes = codec.encode(value);
      const alone = codec.decode(bytes);
      // A map with a non-string key goes to wirekit's reader as a whole.
      const keyed = codec.decode(codec.encode(new Map([[1, value]]))) as Map<number, unknown>;
      expect(alone, String(value)).toBe(read(value));
      expect(keyed.get(1), String(value)).toBe(read(value));
    }
  });

  test('64-bit forms, smallest or not, read by value on every path', () => {
    const int64 = createCodecFor(format, t.int64(), true);
    const int64Interpreted = createCodecFor(format, t.int64(), false);
    const outcome = (run: () => unknown) => {
      const code = codeOf(run);
      return code === 'no error' ? run() : code;
    };
    fc.assert(
      fc.property(
        fc.oneof(fc.bigInt(-(2n ** 64n), 2n ** 64n - 1n), fc.bigInt(-(2n ** 54n), 2n ** 54n)),
        fc.boolean(),
        (value, signed) => {
          const form = sixtyFourBitForm(format, value, signed);
          if (form === undefined) return;
          expect(codec.decode(form)).toBe(read(value));
          // Inside a map with an integer key, wirekit's own reader reads it.
          const keyed = codec.decode(concatHex(format === 'msgpack' ? '8101' : 'a101', form));
          expect((keyed as Map<number, unknown>).get(1)).toBe(read(value));
          // The schema readers agree: int64 gives the bigint, json the number while it is exact.
          const inInt64 = value >= -(2n ** 63n) && value < 2n ** 63n;
          const asInt64 = inInt64 ? value : 'WK_DECODE_SCHEMA_MISMATCH';
          expect(outcome(() => int64.decode(form))).toBe(asInt64);
          expect(outcome(() => int64Interpreted.decode(form))).toBe(asInt64);
          const asJson = typeof read(value) === 'number' ? read(value) : 'WK_DECODE_SCHEMA_MISMATCH';
          expect(outcome(() => json.decode(form))).toBe(asJson);
          expect(outcome(() => jsonInterpreted.decode(form))).toBe(asJson);
        },
      ),
      { numRuns: 400 },
    );
  });

  test('json fields (compiled and interpreted) write integers as the schemaless codec does', () => {
    const Row = t.object('Row', { v: t.json() });
    const compiled = createCodecFor(format, Row, true);
    const interpreted = createCodecFor(format, Row, false);
    for (const value of [
      ...integers.filter((v) => typeof v === 'number'),
      ...floats.filter(Number.isFinite),
    ]) {
      const expected = toHex(codec.encode({ v: value }));
      expect(toHex(compiled.encode({ v: value })), String(value)).toBe(expected);
      expect(toHex(interpreted.encode({ v: value })), String(value)).toBe(expected);
      expect(toHex(json.encode(value))).toBe(toHex(codec.encode(value)));
      expect(toHex(jsonInterpreted.encode(value))).toBe(toHex(codec.encode(value)));
      const back = compiled.decode(compiled.encode({ v: value })) as { v: number };
      expect(Object.is(back.v, value)).toBe(true);
      expect(
        Object.is((interpreted.decode(interpreted.encode({ v: value })) as { v: number }).v, value),
      ).toBe(true);
    }
  });

  test('encodeStream and the envelope write the same integers', async () => {
    const values = [{ n: 4_294_967_296 }, { n: -(2 ** 40) }, { n: 9_007_199_254_740_672 }];
    const streamed = await readAll(codec.encodeStream(values));
    expect(toHex(streamed)).toBe(values.map((v) => toHex(codec.encode(v))).join(''));
    const { payload } = readEnvelope(encodeEnveloped(codec, values[0]));
    expect(toHex(payload)).toBe(toHex(codec.encode(values[0])));
  });
});

describe('CBOR bignums are bounded by the limits', () => {
  const bignum = (bytes: number) => hex(`c2 59 ${bytes.toString(16).padStart(4, '0')} ${'01'.repeat(bytes)}`);

  test('a bignum longer than maxBytesLength is WK_LIMIT_LENGTH, without a schema and with one', () => {
    const limits = { maxBytesLength: 64 };
    expect(createCborCodec({ limits }).decode(bignum(64))).toBe(BigInt(`0x${'01'.repeat(64)}`));
    expect(codeOf(() => createCborCodec({ limits }).decode(bignum(65)))).toBe('WK_LIMIT_LENGTH');
    expect(codeOf(() => createCborCodec({ schema: t.int64(), limits }).decode(bignum(65)))).toBe(
      'WK_LIMIT_LENGTH',
    );
  });

  test('a hostile bignum beyond 1 KiB is refused whatever the limits, before any is built', () => {
    const huge = hex(`c2 5a 7fffffff`); // claims 2 GiB of digits
    expect(codeOf(() => codecs.cbor.decode(huge))).toBe('WK_LIMIT_LENGTH');
    expect(codeOf(() => codecs.cbor.decode(bignum(1025)))).toBe('WK_LIMIT_LENGTH');
    expect(codeOf(() => createCborCodec({ schema: t.uint64() }).decode(bignum(1025)))).toBe(
      'WK_LIMIT_LENGTH',
    );
  });

  test('a decimal fraction (tag 4) with a 64-bit mantissa reads the same through either reader', () => {
    const wide = hex('c482211bffffffffffffffff'); // [-2, 2^64 - 1]
    expect(codecs.cbor.decode(wide)).toBe(+'18446744073709551615e-2');
    expect((codecs.cbor.decode(hex(`a101${toHex(wide)}`)) as Map<number, unknown>).get(1)).toBe(
      +'18446744073709551615e-2',
    );
    expect(codecs.cbor.decode(hex('c482211b0000000000000005'))).toBe(0.05);
  });

  test('small bignums from other writers read as bigints, as RFC 8949 tags 2 and 3 say', () => {
    expect(codecs.cbor.decode(hex('c24105'))).toBe(5n);
    expect(codecs.cbor.decode(hex('c34105'))).toBe(-6n);
  });
});

describe('msgpackRecords writes and reads integers as the plain codec does', () => {
  const records = createMsgpackCodec({ msgpackRecords: true });

  test('integral numbers beyond 32 bits are integers (msgpackr alone writes float 64)', () => {
    expect(toHex(records.encode([2 ** 32, -(2 ** 31) - 1, 9_007_199_254_740_672, 0.5, 2 ** 53]))).toBe(
      '95cf0000000100000000d3ffffffff7fffffffcf001ffffffffffec0cb3fe0000000000000cb4340000000000000',
    );
    const rows = [
      { id: 2 ** 40, at: 1_700_000_000_000, name: 'a' },
      { id: -(2 ** 40), at: 1_700_000_000_001, name: 'b' },
    ];
    expect(records.decode(records.encode(rows))).toEqual(rows);
  });

  test('reads safe 64-bit forms as numbers and ±2^53 as bigints, like the plain codec', () => {
    for (const value of integers) {
      const back = records.decode(records.encode([value, { k: value }])) as [unknown, { k: unknown }];
      expect(back[0], String(value)).toBe(read(value));
      expect(back[1].k, String(value)).toBe(read(value));
    }
    expect(records.decode(hex('92cf0020000000000000d3ffe0000000000000'))).toEqual([2n ** 53n, -(2n ** 53n)]);
    expect(records.decode(hex('92d30000000000000005cf001fffffffffffff'))).toEqual([5, 2 ** 53 - 1]);
  });

  test('the rewrite leaves strings, byte strings and other floats that hold the same bytes alone', () => {
    const tricky = ['\u00cb', new Uint8Array([0xcb, 0x42, 0x70, 0, 0, 0, 0, 0, 0]), 1.5, { cb: 2 ** 40 }];
    expect(records.decode(records.encode(tricky))).toEqual(tricky);
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.double(),
            fc.integer(),
            fc.maxSafeInteger(),
            fc.string(),
            fc.uint8Array(),
            fc.record({ a: fc.maxSafeInteger(), b: fc.double(), c: fc.string() }),
          ),
        ),
        (value) => {
          // msgpackr writes -0 as the integer 0: the one number records mode changes.
          expect(records.decode(records.encode(value))).toEqual(withoutNegativeZero(value));
          expect(toHex(records.encode(value.filter((v) => typeof v === 'number')))).toBe(
            toHex(records.encode(withoutNegativeZero(value.filter((v) => typeof v === 'number')))),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
