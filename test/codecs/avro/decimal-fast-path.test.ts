/**
 * Avro's decimal conversions take a one-pass path for the common decimal (unscaledOf, and 32-bit
 * values in writeUnscaled); this holds both to the definition, computed with BigInt, over random
 * spellings valid and not. Both codecs' decimals, whose unscaled integer is a Number up to 2^53
 * and a BigInt past it (writeDecimal, readDecimal), are held to the bytes and text by definition
 * at the edges: every byte length to 8, 2^53 either side, zero, fixed sizes, the precision's limit.
 */
import { describe, expect, test } from 'vitest';
import { AvroWriter } from '../../../src/codecs/avro/encode/writer.js';
import { createAvroCodec } from '../../../src/codecs/avro/index.js';
import { unscaledOf, writeUnscaled } from '../../../src/codecs/avro/values.js';
import { seededRandom } from '../../../src/lab/random.js';
import { t } from '../../../src/schema/index.js';
import { outcome } from '../../support/outcome.js';

const spelling = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/** The unscaled integer by definition, or undefined where a decimal of (scale, precision) refuses it. */
function byDefinition(text: string, scale: number, precision: number): bigint | undefined {
  const match = spelling.exec(text);
  if (match === null) return undefined;
  const whole = match[1] as string;
  const fraction = match[2] === undefined ? '' : match[2].slice(1);
  if (fraction.length > scale || (whole === '0' ? 0 : whole.length) > precision - scale) return undefined;
  const n = BigInt(whole + fraction.padEnd(scale, '0'));
  return text.startsWith('-') ? -n : n;
}

test('unscaledOf agrees with the definition on random spellings', () => {
  const random = seededRandom(16);
  const alphabet = ['0', '1', '5', '9', '-', '.', 'x'];
  for (let i = 0; i < 100_000; i++) {
    const length = random.int(1, 19);
    const text = Array.from({ length }, (_, k) => alphabet[random.int(0, k === 0 ? 6 : 5)]).join('');
    for (const [scale, precision] of [
      [2, 12],
      [0, 5],
      [4, 38],
      [3, 18],
    ] as const) {
      const got = unscaledOf(text, scale, precision);
      const want = byDefinition(text, scale, precision);
      expect(got === undefined ? undefined : BigInt(got), `${text} at scale ${scale}`).toEqual(want);
    }
  }
});

test('writeUnscaled writes the shortest two’s complement at every byte-length boundary', () => {
  const values = [0, 1, -1, 127, 128, -128, -129, 32767, 32768, -32768, -32769, 8388607, 8388608, -8388608];
  values.push(-8388609, 2147483647, -2147483648, 2147483648, -2147483649, 2 ** 40 + 3, -(2 ** 40) - 3);
  for (const value of values) {
    const writer = new AvroWriter();
    writer.beginOutput();
    writeUnscaled(writer, value);
    const [lengthByte, ...bytes] = writer.finish();
    let length = 1;
    while (BigInt.asIntN(8 * length, BigInt(value)) !== BigInt(value)) length++;
    const hex = BigInt.asUintN(8 * length, BigInt(value))
      .toString(16)
      .padStart(2 * length, '0');
    expect(lengthByte, String(value)).toBe(length * 2);
    expect(bytes, String(value)).toEqual(hex.match(/../g)?.map((pair) => Number.parseInt(pair, 16)));
  }
});

/** `value` as `size` bytes of big-endian two's complement, or the shortest when `size` is left out. */
function twosComplement(value: bigint, size?: number): number[] {
  let length = size ?? 1;
  while (size === undefined && BigInt.asIntN(8 * length, value) !== value) length++;
  const hex = BigInt.asUintN(8 * length, value)
    .toString(16)
    .padStart(2 * length, '0');
  return (hex.match(/../g) as string[]).map((pair) => Number.parseInt(pair, 16));
}

/** The text a decimal reads back as: the value with exactly `scale` decimals. */
function scaledText(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** Unscaled integers at the edges of the Number path: every byte length, and 2^53 either side. */
const edges: bigint[] = [0n, 1n, -1n, 5n, -5n];
for (let bytes = 1; bytes <= 8; bytes++) {
  const top = 2n ** BigInt(8 * bytes - 1);
  edges.push(top - 1n, top, -top, -top - 1n);
}
for (const around of [2n ** 53n, 10n ** 15n, 10n ** 16n]) {
  for (const offset of [-2n, -1n, 0n, 1n, 2n]) edges.push(around + offset, -around - offset);
}
edges.push(999999999999999n, -999999999999999n, 9999999999999999n, -9999999999999999n);
edges.push(10n ** 17n - 1n, -(10n ** 17n) + 1n, 10n ** 18n - 1n, -(10n ** 18n) + 1n);

/** A decimal's text at `scale` from its unscaled integer, spelled as the schema allows (trailing zeros cut). */
function spelled(unscaled: bigint, scale: number): string {
  const text = scaledText(unscaled, scale);
  return text.includes('.') ? text.replace(/\.?0+$/, '') || '0' : text;
}

describe.each([true, false])('decimal bytes and fixed at the edges (compile: %s)', (compile) => {
  const forms = [
    { scale: 2, precision: 18, size: undefined },
    { scale: 0, precision: 18, size: undefined },
    { scale: 4, precision: 18, size: 8 },
    { scale: 0, precision: 16, size: 7 },
    { scale: 9, precision: 38, size: 16 },
    { scale: 18, precision: 18, size: undefined },
  ];
  test.each(forms)('scale $scale, precision $precision, fixed $size', ({ scale, precision, size }) => {
    const schema = t.decimal({
      precision,
      scale,
      ...(size === undefined ? {} : { avro: { name: 'Dec', size } }),
    });
    const codec = createAvroCodec({ schema, compile });
    for (const unscaled of edges) {
      const digits = (unscaled < 0n ? -unscaled : unscaled).toString().length;
      if (digits > precision || (size !== undefined && BigInt.asIntN(8 * size, unscaled) !== unscaled))
        continue;
      // Written as the text a caller would hand in: its trailing zeros cut, or kept.
      for (const text of new Set([spelled(unscaled, scale), scaledText(unscaled, scale)])) {
        const bytes = codec.encode(text);
        const body = size === undefined ? twosComplement(unscaled) : twosComplement(unscaled, size);
        const head = size === undefined ? [body.length * 2] : [];
        expect([...bytes], `${text} at scale ${scale}`).toEqual([...head, ...body]);
        expect(codec.decode(bytes), `${text} at scale ${scale}`).toBe(scaledText(unscaled, scale));
      }
    }
  });

  test('a negative zero, and zero written as no bytes, read as zero at the scale', () => {
    const codec = createAvroCodec({ schema: t.decimal({ precision: 12, scale: 2 }), compile });
    expect([...codec.encode('-0.00')]).toEqual([2, 0]);
    expect([...codec.encode('-0')]).toEqual([2, 0]);
    expect(codec.decode(Uint8Array.of(0))).toBe('0.00');
    expect(codec.decode(Uint8Array.of(2, 0))).toBe('0.00');
  });

  test('redundant sign bytes (up to 8) are read past, a value of any length by its digits', () => {
    const codec = createAvroCodec({ schema: t.decimal({ precision: 18, scale: 2 }), compile });
    for (const [body, text] of [
      [[0, 0, 0, 0, 0, 0, 0, 5], '0.05'],
      [[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfb], '-0.05'],
      [[0, 0x20, 0, 0, 0, 0, 0, 0], '90071992547409.92'],
      [[0xff, 0xe0, 0, 0, 0, 0, 0, 0], '-90071992547409.92'],
      [[0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], '90071992547409.91'],
      [[0xe0, 0, 0, 0, 0, 0, 1], '-90071992547409.91'],
    ] as const) {
      expect(codec.decode(Uint8Array.of(body.length * 2, ...body)), text).toBe(text);
    }
  });

  test('more digits than the precision are refused, at the Number path’s limit and past it', () => {
    const wide = createAvroCodec({ schema: t.decimal({ precision: 18, scale: 0 }), compile });
    for (const precision of [1, 4, 6, 15, 16]) {
      const codec = createAvroCodec({ schema: t.decimal({ precision, scale: 0 }), compile });
      const largest = 10n ** BigInt(precision) - 1n;
      for (const fits of [largest, -largest]) {
        expect(codec.decode(wide.encode(fits.toString()))).toBe(fits.toString());
      }
      for (const over of [largest + 1n, -largest - 1n]) {
        expect(() => codec.decode(wide.encode(over.toString())), String(over)).toThrow(
          expect.objectContaining({
            code: 'WK_DECODE_SCHEMA_MISMATCH',
            message: expect.stringContaining(`a decimal exceeds ${precision} digits`),
          }),
        );
      }
    }
  });
});

test('the compiled codec refuses a decimal with the interpreter’s error, on every kind of refusal', () => {
  for (const avro of [undefined, { name: 'Dec', size: 6 }]) {
    const schema = t.object('Row', {
      amount: t.decimal({ precision: 12, scale: 2, ...(avro === undefined ? {} : { avro }) }),
    });
    const compiled = createAvroCodec({ schema, compile: true });
    const interpreter = createAvroCodec({ schema, compile: false });
    for (const amount of ['1.234', '12345678901.00', '01.5', '1.', '.5', '-', '', '+1', '1e3', 1.5, null]) {
      const got = outcome(() => compiled.encode({ amount } as never));
      expect(got.ok, String(amount)).toBe(false);
      expect(got, String(amount)).toStrictEqual(outcome(() => interpreter.encode({ amount } as never)));
    }
  }
});
