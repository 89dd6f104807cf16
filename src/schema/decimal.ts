/**
 * Decimal values are strings in plain notation: an optional '-', digits, and an optional fraction.
 * No exponent, no '+', no leading zeros beyond one, so that every number has a single spelling and
 * equal values compare equal as strings once trailing fraction zeros are accounted for by the scale.
 */
import type { DecimalSchema } from './types.js';

export interface DecimalDigits {
  /** Digits before the point, leading zero not counted ("0.5" has 0). */
  readonly integer: number;
  /** Digits after the point. */
  readonly fraction: number;
}

/**
 * The digit counts of a decimal string, or undefined when it is not one: the spelling
 * `-?(0|[1-9][0-9]*)(\.[0-9]+)?`, read by hand. Every format checks each decimal it writes and
 * reads; the regular expression and its match array cost ~7 % of encoding an order document.
 */
export function decimalDigits(value: string): DecimalDigits | undefined {
  const length = value.length;
  let at = value.charCodeAt(0) === 0x2d ? 1 : 0; // '-'
  const first = value.charCodeAt(at);
  if (!(first >= 0x30 && first <= 0x39)) return undefined;
  const integerStart = at;
  at++;
  if (first !== 0x30) {
    while (at < length && isDigit(value.charCodeAt(at))) at++;
  }
  const integer = first === 0x30 ? 0 : at - integerStart;
  if (at === length) return { integer, fraction: 0 };
  if (value.charCodeAt(at) !== 0x2e) return undefined; // '.'
  const fractionStart = ++at;
  while (at < length && isDigit(value.charCodeAt(at))) at++;
  if (at !== length || at === fractionStart) return undefined;
  return { integer, fraction: at - fractionStart };
}

/**
 * Whether `text` is a decimal with at most `integerDigits` digits before the point (a lone leading
 * zero not counted) and `fractionDigits` after it: exactly where `decimalRule` of a schema with
 * those bounds (`decimalBounds`) refuses nothing. The codecs' fast paths ask this and leave a
 * refusal, and its message, to the rule.
 */
export function decimalFits(text: string, integerDigits: number, fractionDigits: number): boolean {
  // Hot (every decimal every keyed format writes or reads): `decimalDigits`'s scan, with the
  // bounds tested in it, so no object is made per value.
  const length = text.length;
  let at = text.charCodeAt(0) === 0x2d ? 1 : 0; // '-'
  const first = text.charCodeAt(at);
  if (!(first >= 0x30 && first <= 0x39)) return false;
  const integerStart = at;
  at++;
  if (first !== 0x30) {
    while (at < length && isDigit(text.charCodeAt(at))) at++;
  }
  if (first !== 0x30 && at - integerStart > integerDigits) return false;
  if (at === length) return true;
  if (text.charCodeAt(at) !== 0x2e) return false; // '.'
  const fractionStart = ++at;
  while (at < length && isDigit(text.charCodeAt(at))) at++;
  return at === length && at !== fractionStart && at - fractionStart <= fractionDigits;
}

/** Whether `text` is a decimal in plain notation, of any size. */
export function isDecimalText(text: string): boolean {
  return decimalFits(text, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
}

/** The bounds `decimalFits` takes for `schema`: integer digits, fraction digits (Infinity where unbounded). */
export function decimalBounds(schema: DecimalSchema): readonly [number, number] {
  const { precision, scale } = schema;
  return [
    precision === undefined ? Number.POSITIVE_INFINITY : precision - (scale ?? 0),
    scale ?? Number.POSITIVE_INFINITY,
  ];
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}
