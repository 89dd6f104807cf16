/**
 * The decimal checks of the MessagePack and CBOR paths without a regular expression. A decimal's
 * spelling (schema/decimal.ts) and its precision and scale (the decimal rule in value-rules.ts) are
 * checked there with `decimalPattern.exec`, which builds a match array and two substrings per
 * value: on the order documents (a decimal per line item) that was 7.5 MB of a 20.5 MB decode's
 * garbage, and the source and the rule each parsed the text once. This loop answers the same
 * question, allocating nothing. It only ever accepts: text it does not accept goes to the
 * schema's own check, so a refusal and its message are the schema's.
 */

/**
 * Whether `text` is a decimal in wirekit's plain notation (`-?(0|[1-9][0-9]*)(\.[0-9]+)?`, the
 * pattern of schema/decimal.ts) with at most `maxInteger` digits before the point (a lone leading
 * zero not counted, as `decimalDigits` counts) and at most `maxFraction` after it.
 */
export function decimalWithin(text: string, maxInteger: number, maxFraction: number): boolean {
  const length = text.length;
  let i = text.charCodeAt(0) === 0x2d ? 1 : 0;
  if (i >= length) return false;
  const first = text.charCodeAt(i);
  let integer = 0;
  if (first === 0x30) i++;
  else if (first >= 0x31 && first <= 0x39) {
    const from = i;
    i++;
    while (i < length) {
      const c = text.charCodeAt(i);
      if (c < 0x30 || c > 0x39) break;
      i++;
    }
    integer = i - from;
  } else return false;
  if (integer > maxInteger) return false;
  if (i === length) return true;
  if (text.charCodeAt(i) !== 0x2e) return false;
  i++;
  const from = i;
  for (; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  const fraction = length - from;
  return fraction > 0 && fraction <= maxFraction;
}

/** Whether `text` is a decimal in plain notation, of any size (`decimalDigits(text) !== undefined`). */
export function isDecimalText(text: string): boolean {
  return decimalWithin(text, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
}
