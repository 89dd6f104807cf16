/**
 * decimalDigits reads the decimal spelling by hand (for speed); this holds it to the spelling's
 * definition as a regular expression, on every short string over the characters that matter.
 */
import { expect, test } from 'vitest';
import { decimalDigits, decimalFits } from '../../src/schema/decimal.js';

const spelling = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

function byDefinition(text: string) {
  const match = spelling.exec(text);
  if (match === null) return undefined;
  const integer = match[1] as string;
  return {
    integer: integer === '0' ? 0 : integer.length,
    fraction: match[2] === undefined ? 0 : match[2].length - 1,
  };
}

test('decimalDigits agrees with the spelling on every string of up to 5 of these characters', () => {
  const alphabet = ['0', '1', '9', '-', '.', 'e', '+', ' ', '٣'];
  let strings = [''];
  const all: string[] = [''];
  for (let length = 1; length <= 5; length++) {
    strings = strings.flatMap((prefix) => alphabet.map((char) => prefix + char));
    all.push(...strings);
  }
  for (const text of all) {
    const digits = byDefinition(text);
    expect(decimalDigits(text), JSON.stringify(text)).toEqual(digits);
    for (const [integer, fraction] of [
      [2, 1],
      [0, 3],
      [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY],
    ] as const) {
      const fits = digits !== undefined && digits.integer <= integer && digits.fraction <= fraction;
      expect(decimalFits(text, integer, fraction), JSON.stringify(text)).toBe(fits);
    }
  }
  expect(decimalDigits('-12345678901234567890.25')).toEqual({ integer: 20, fraction: 2 });
});
