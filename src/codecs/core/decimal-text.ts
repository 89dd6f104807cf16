/**
 * A decimal's text from its unscaled integer, where that integer is a safe Number: the decoders of
 * the formats that carry decimals as integers (CBOR's tag 4 mantissa, Avro's two's-complement
 * bytes) make nearly every amount here. The text is wirekit's plain notation (schema/decimal.ts)
 * with exactly `scale` digits after the point, as both formats read a decimal back.
 */
import { asciiByCodes } from './ascii.js';

/** The widest scale `unscaledText` writes by characters: its text then fits `scratch` (and asciiByCodes). */
const maxShortScale = 20;
const scratch = new Uint8Array(32);

/**
 * The text of `unscaled` / 10^`scale`: (-1250, 2) is "-12.50", (5, 3) "0.005", (-7, 0) "-7".
 * `unscaled` must be a safe integer and `scale` a non-negative integer.
 *
 * Hot: its characters are written right to left into a scratch buffer and made into one string,
 * where cutting the digits' string and joining the parts made four or five strings per value
 * (2.4 MB of a 11 MB decode of the order documents, in CBOR).
 */
export function unscaledText(unscaled: number, scale: number): string {
  if (scale === 0) return String(unscaled);
  const make = asciiByCodes;
  if (make === undefined || scale > maxShortScale) return joinedText(unscaled, scale);
  let rest = unscaled < 0 ? -unscaled : unscaled;
  let at = scratch.length;
  for (let i = 0; i < scale; i++) {
    const digit = rest % 10;
    scratch[--at] = 0x30 + digit;
    rest = (rest - digit) / 10;
  }
  scratch[--at] = 0x2e;
  // At most 16 digits, a point and a sign: within the scratch.
  do {
    const digit = rest % 10;
    scratch[--at] = 0x30 + digit;
    rest = (rest - digit) / 10;
  } while (rest > 0);
  if (unscaled < 0) scratch[--at] = 0x2d;
  return make(scratch, at, scratch.length - at);
}

/** `unscaledText` by strings, where code cannot be generated (no asciiByCodes) or the scale is wide. */
function joinedText(unscaled: number, scale: number): string {
  const negative = unscaled < 0;
  const digits = String(negative ? -unscaled : unscaled).padStart(scale + 1, '0');
  const point = digits.length - scale;
  return `${negative ? '-' : ''}${digits.slice(0, point)}.${digits.slice(point)}`;
}
