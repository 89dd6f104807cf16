/**
 * Decimal values are strings in plain notation: an optional '-', digits, and an optional fraction.
 * No exponent, no '+', no leading zeros beyond one, so that every number has a single spelling and
 * equal values compare equal as strings once trailing fraction zeros are accounted for by the scale.
 */
const decimalPattern = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

export interface DecimalDigits {
  /** Digits before the point, leading zero not counted ("0.5" has 0). */
  readonly integer: number;
  /** Digits after the point. */
  readonly fraction: number;
}

/** The digit counts of a decimal string, or undefined when it is not one. */
export function decimalDigits(value: string): DecimalDigits | undefined {
  const match = decimalPattern.exec(value);
  if (match === null) return undefined;
  const integerPart = match[1] as string;
  return {
    integer: integerPart === '0' ? 0 : integerPart.length,
    fraction: match[2] === undefined ? 0 : match[2].length - 1,
  };
}
