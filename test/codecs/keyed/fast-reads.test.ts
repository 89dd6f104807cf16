/**
 * The allocation-free reads under the MessagePack and CBOR paths must answer exactly as what they
 * replace: the big-endian reads as a DataView's, and the decimal check as schema/decimal.ts's
 * pattern with the decimal rule's digit counts (the check only ever accepts; what it refuses goes
 * to the rule, so a wrong "yes" would let a bad decimal through, a wrong "no" only costs time).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decimalText } from '../../../src/codecs/cbor/decode/decimal.js';
import { CborEmitter } from '../../../src/codecs/cbor/encode/emitter.js';
import { createCodec } from '../../../src/codecs/index.js';
import {
  readBigInt64,
  readBigUint64,
  readFloat32,
  readFloat64,
  readInt8,
  readInt16,
  readInt32,
  readUint16,
  readUint32,
} from '../../../src/codecs/keyed/decode/big-endian.js';
import { decimalDigits, decimalFits, isDecimalText } from '../../../src/schema/decimal.js';
import { t } from '../../../src/schema/index.js';

describe('big-endian reads', () => {
  test('agree with DataView at every offset', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 8, maxLength: 24 }), fc.nat(), (bytes, offset) => {
        const at = offset % (bytes.length - 7);
        const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
        expect(readUint16(bytes, at)).toBe(view.getUint16(at));
        expect(readUint32(bytes, at)).toBe(view.getUint32(at));
        expect(readInt8(bytes, at)).toBe(view.getInt8(at));
        expect(readInt16(bytes, at)).toBe(view.getInt16(at));
        expect(readInt32(bytes, at)).toBe(view.getInt32(at));
        expect(readBigUint64(bytes, at)).toBe(view.getBigUint64(at));
        expect(readBigInt64(bytes, at)).toBe(view.getBigInt64(at));
        expect(Object.is(readFloat32(bytes, at), view.getFloat32(at))).toBe(true);
        expect(Object.is(readFloat64(bytes, at), view.getFloat64(at))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  test('extremes', () => {
    const bytes = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0]);
    expect(readUint32(bytes, 0)).toBe(0xffff_ffff);
    expect(readInt32(bytes, 0)).toBe(-1);
    expect(readBigUint64(bytes, 0)).toBe(0xffff_ffff_ffff_ffffn);
    expect(readBigInt64(bytes, 0)).toBe(-1n);
    expect(readBigInt64(bytes, 8)).toBe(-0x8000_0000_0000_0000n);
    expect(readInt8(bytes, 8)).toBe(-128);
    expect(readInt16(bytes, 8)).toBe(-0x8000);
    expect(Object.is(readFloat64(bytes, 8), -0)).toBe(true);
  });
});

describe('decimal text', () => {
  /** The rule's answer: the pattern, then at most `integer` and `fraction` digits. */
  const reference = (text: string, integer: number, fraction: number) => {
    const digits = decimalDigits(text);
    return digits !== undefined && digits.integer <= integer && digits.fraction <= fraction;
  };
  const spellings = fc.stringMatching(/^-?[0-9]{0,6}(\.[0-9]{0,4})?[0-9a.+e-]?$/);

  test('accepts exactly what the pattern and the digit counts accept', () => {
    fc.assert(
      fc.property(
        fc.oneof(spellings, fc.string({ maxLength: 8 })),
        fc.integer({ min: 0, max: 7 }),
        fc.integer({ min: 0, max: 5 }),
        (text, integer, fraction) => {
          expect(decimalFits(text, integer, fraction)).toBe(reference(text, integer, fraction));
          expect(isDecimalText(text)).toBe(decimalDigits(text) !== undefined);
        },
      ),
      { numRuns: 5000 },
    );
  });

  test.each([
    ['0', true],
    ['-0', true],
    ['0.5', true],
    ['10.25', true],
    ['', false],
    ['-', false],
    ['01', false],
    ['1.', false],
    ['.5', false],
    ['+1', false],
    ['1e3', false],
    ['1.2.3', false],
    ['1\n', false],
    [' 1', false],
    ['١', false],
  ])('%j is a decimal: %s', (text, expected) => {
    expect(isDecimalText(text)).toBe(expected);
    expect(decimalDigits(text) !== undefined).toBe(expected);
  });

  test('bounds: a lone leading zero is no integer digit', () => {
    expect(decimalFits('0.12', 0, 2)).toBe(true);
    expect(decimalFits('1.12', 0, 2)).toBe(false);
    expect(decimalFits('12.125', 2, 2)).toBe(false);
    expect(decimalFits('-123.1', 3, 1)).toBe(true);
  });
});

describe("CBOR's short decimals", () => {
  /** The bytes of `text` as a decimal, with or without the short path. */
  const written = (text: string, short: boolean) => {
    const emitter = new CborEmitter();
    if (!short) (emitter as unknown as { shortDecimal: () => boolean }).shortDecimal = () => false;
    emitter.begin();
    emitter.decimal(text);
    return emitter.finish();
  };
  const decimals = fc.stringMatching(/^-?(0|[1-9][0-9]{0,17})(\.[0-9]{1,6})?$/);

  test('write the bytes of the general path', () => {
    fc.assert(
      fc.property(decimals, (text) => {
        expect(written(text, true)).toEqual(written(text, false));
      }),
      { numRuns: 3000 },
    );
    for (const text of [
      '0',
      '-0',
      '-0.00',
      '0.00',
      '999999999999999',
      '-999999999999999.9',
      '1.000000000000001',
    ])
      expect(written(text, true)).toEqual(written(text, false));
  });
});

describe('short strings read in place by compiled decoders', () => {
  const Row = t.object('Row', { text: t.string(), tags: t.array(t.string()) });
  test.each(['msgpack', 'cbor'] as const)('%s: every length up to 70, ASCII and not', (format) => {
    const compiled = createCodec(format, { schema: Row });
    const interpreted = createCodec(format, { schema: Row, compile: false });
    expect(compiled.compiled).toBe(true);
    for (let length = 0; length <= 70; length++) {
      const ascii = Array.from({ length }, (_, i) => String.fromCharCode(32 + ((i * 7 + length) % 95))).join(
        '',
      );
      const other = `${ascii.slice(0, length >> 1)}é${ascii.slice(length >> 1)}`;
      const value = { text: ascii, tags: [other, ascii.slice(1), ''] };
      const bytes = compiled.encode(value);
      expect(bytes).toEqual(interpreted.encode(value));
      expect(compiled.decode(bytes)).toEqual(value);
    }
  });
});

describe("CBOR's decimal fractions as text", () => {
  test('a number mantissa gives the text of the general path (a bigint mantissa takes it)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -25, max: 3 }), fc.maxSafeInteger(), (exponent, mantissa) => {
        expect(decimalText(exponent, mantissa)).toBe(decimalText(exponent, BigInt(mantissa)));
      }),
      { numRuns: 5000 },
    );
    for (const [exponent, mantissa] of [
      [-2, 0],
      [-2, 5],
      [-2, -5],
      [-1, Number.MAX_SAFE_INTEGER],
      [-20, Number.MIN_SAFE_INTEGER],
      [-20, 1],
      [-2, 1250],
    ] as const)
      expect(decimalText(exponent, mantissa)).toBe(decimalText(exponent, BigInt(mantissa)));
    expect(decimalText(-2, 1250)).toBe('12.50');
    expect(decimalText(-3, -5)).toBe('-0.005');
  });
});
