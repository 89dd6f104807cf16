/**
 * A Timestamp's ProtoJSON text written as bytes from its epoch milliseconds: the text
 * protojson-time.ts `timestampTextOfMillis` makes (`YYYY-MM-DDTHH:MM:SS[.mmm]Z`, years 0001-9999),
 * digit by digit into the output, where building that string and copying it out was a fifth of
 * transcoding a record with a timestamp. The calendar is the same (Howard Hinnant's
 * `civil_from_days`); a test holds the two to the same text over the whole range.
 */

const dayMillis = 86_400_000;

/** The text's length: 20 bytes, or 24 with milliseconds. */
export function timestampLength(millis: number): number {
  return millis % 1000 === 0 ? 20 : 24;
}

/**
 * Writes the text of `millis` (within years 0001-9999: the caller checks) at `at`, quotes not
 * included; returns the position after it.
 */
export function writeTimestamp(out: Uint8Array, at: number, millis: number): number {
  const days = Math.floor(millis / dayMillis);
  // From here on every quantity is a small non-negative integer (years 0001-9999 put the shifted
  // day count at 0 or more): `| 0` division, a third of the cost of Math.floor on doubles.
  let rest = millis - days * dayMillis;
  const shifted = days + 719_468; // days since 0000-03-01: leap days fall at the ends of years
  const era = (shifted / 146_097) | 0;
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra =
    ((dayOfEra - ((dayOfEra / 1460) | 0) + ((dayOfEra / 36_524) | 0) - ((dayOfEra / 146_096) | 0)) / 365) | 0;
  const dayOfYear = dayOfEra - (365 * yearOfEra + ((yearOfEra / 4) | 0) - ((yearOfEra / 100) | 0));
  const monthFromMarch = ((5 * dayOfYear + 2) / 153) | 0;
  const day = dayOfYear - (((153 * monthFromMarch + 2) / 5) | 0) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = (rest / 3_600_000) | 0;
  rest -= hours * 3_600_000;
  const minutes = (rest / 60_000) | 0;
  rest -= minutes * 60_000;
  const seconds = (rest / 1000) | 0;
  const milliseconds = rest - seconds * 1000;
  let o = at;
  const high = (year / 100) | 0;
  out[o++] = tens[high] as number;
  out[o++] = ones[high] as number;
  o = pair(out, o, year - high * 100);
  out[o++] = 0x2d; // -
  o = pair(out, o, month);
  out[o++] = 0x2d;
  o = pair(out, o, day);
  out[o++] = 0x54; // T
  o = pair(out, o, hours);
  out[o++] = 0x3a; // :
  o = pair(out, o, minutes);
  out[o++] = 0x3a;
  o = pair(out, o, seconds);
  if (milliseconds !== 0) {
    out[o++] = 0x2e; // .
    const hundreds = (milliseconds / 100) | 0;
    out[o++] = 0x30 + hundreds;
    o = pair(out, o, milliseconds - hundreds * 100);
  }
  out[o++] = 0x5a; // Z
  return o;
}

/** The two digits of 0-99, by value: tens and ones (the integers' writer uses them too). */
export const tens = new Uint8Array(100);
export const ones = new Uint8Array(100);
for (let n = 0; n < 100; n++) {
  tens[n] = 0x30 + ((n / 10) | 0);
  ones[n] = 0x30 + (n % 10);
}

/** `value` (0-99) in two digits. */
function pair(out: Uint8Array, at: number, value: number): number {
  out[at] = tens[value] as number;
  out[at + 1] = ones[value] as number;
  return at + 2;
}
