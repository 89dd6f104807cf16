import { unscaledText } from '../../core/decimal-text.js';

/**
 * Decimal fractions (RFC 8949 §3.4.4, tag 4 [exponent, mantissa]) as wirekit's decimal text. The
 * text is plain notation, as schema/decimal.ts requires: a positive exponent becomes trailing
 * zeros, a negative one the digits after the point (so [-2, 1250] is "12.50", digits kept).
 * Callers bound the exponent first, since it sets the length of the text.
 */
export function decimalText(exponent: number, mantissa: number | bigint): string {
  // A safe-integer mantissa and a negative exponent, the amounts decimals mostly are: one string
  // made from characters (core/decimal-text.ts) instead of four or five cut and joined.
  if (typeof mantissa === 'number' && exponent < 0) return unscaledText(mantissa, -exponent);
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
