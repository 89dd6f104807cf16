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
  let rest = millis - days * dayMillis;
  const shifted = days + 719_468; // days since 0000-03-01: leap days fall at the ends of years
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const milliseconds = rest - seconds * 1000;
  let o = at;
  o = digits(out, o, year, 4);
  out[o++] = 0x2d; // -
  o = digits(out, o, month, 2);
  out[o++] = 0x2d;
  o = digits(out, o, day, 2);
  out[o++] = 0x54; // T
  o = digits(out, o, hours, 2);
  out[o++] = 0x3a; // :
  o = digits(out, o, minutes, 2);
  out[o++] = 0x3a;
  o = digits(out, o, seconds, 2);
  if (milliseconds !== 0) {
    out[o++] = 0x2e; // .
    o = digits(out, o, milliseconds, 3);
  }
  out[o++] = 0x5a; // Z
  return o;
}

/** `value` in exactly `width` decimal digits, zero-padded. */
function digits(out: Uint8Array, at: number, value: number, width: number): number {
  let rest = value;
  for (let i = at + width - 1; i >= at; i--) {
    out[i] = 0x30 + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return at + width;
}
