/**
 * Avro's decimal conversions take a one-pass path for the common decimal (unscaledOf, and 32-bit
 * values in writeUnscaled); this holds both to the definition, computed with BigInt, over random
 * spellings valid and not.
 */
import { expect, test } from 'vitest';
import { AvroWriter } from '../../../src/codecs/avro/encode/writer.js';
import { unscaledOf, writeUnscaled } from '../../../src/codecs/avro/values.js';
import { seededRandom } from '../../../src/lab/random.js';

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
