import { asciiByCodes } from '../../core/ascii.js';

/**
 * Decimal fractions (RFC 8949 §3.4.4, tag 4 [exponent, mantissa]) as wirekit's decimal text. The
 * text is plain notation, as schema/decimal.ts requires: a positive exponent becomes trailing
 * zeros, a negative one the digits after the point (so [-2, 1250] is "12.50", digits kept).
 * Callers bound the exponent first, since it sets the length of the text.
 */
export function decimalText(exponent: number, mantissa: number | bigint): string {
  if (
    typeof mantissa === 'number' &&
    exponent < 0 &&
    exponent >= -maxShortScale &&
    asciiByCodes !== undefined
  )
    return shortDecimalText(-exponent, mantissa);
  const negative = mantissa < 0;
  const digits = (
    typeof mantissa === 'bigint' ? (negative ? -mantissa : mantissa) : Math.abs(mantissa)
  ).toString();
  const sign = negative ? '-' : '';
  if (exponent >= 0) return digits === '0' ? '0' : `${sign}${digits}${'0'.repeat(exponent)}`;
  const scale = -exponent;
  const padded = digits.length <= scale ? '0'.repeat(scale - digits.length + 1) + digits : digits;
  const point = padded.length - scale;
  return `${sign}${padded.slice(0, point)}.${padded.slice(point)}`;
}

/** The widest scale `shortDecimalText` writes: its text then fits `scratch` (and asciiByCodes). */
const maxShortScale = 20;
const scratch = new Uint8Array(32);

/**
 * `decimalText` for a safe-integer mantissa and a negative exponent, the amounts decimals mostly
 * are: the same text, its characters written right to left into a scratch buffer and made into
 * one string, where the general path cuts and joins four or five (2.4 MB of a 11 MB decode of the
 * order documents were those strings). At most 16 digits, a point and a sign: within the scratch.
 */
function shortDecimalText(scale: number, mantissa: number): string {
  const make = asciiByCodes as (bytes: Uint8Array, start: number, length: number) => string;
  let rest = mantissa < 0 ? -mantissa : mantissa;
  let at = scratch.length;
  for (let i = 0; i < scale; i++) {
    const digit = rest % 10;
    scratch[--at] = 0x30 + digit;
    rest = (rest - digit) / 10;
  }
  scratch[--at] = 0x2e;
  do {
    const digit = rest % 10;
    scratch[--at] = 0x30 + digit;
    rest = (rest - digit) / 10;
  } while (rest > 0);
  if (mantissa < 0) scratch[--at] = 0x2d;
  return make(scratch, at, scratch.length - at);
}
