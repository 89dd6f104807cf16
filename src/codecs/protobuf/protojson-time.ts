/**
 * google.protobuf.Timestamp and Duration as ProtoJSON text. Timestamps are RFC 3339 in UTC with
 * `Z` and 0, 3, 6 or 9 fractional digits (a Date holds milliseconds, so 0 or 3 are written; up
 * to 9 are read, the finer ones dropped toward the past, as the binary reader drops them); an
 * offset such as `+01:00` is read. Durations are seconds with an `s`: `"1.000340012s"`, `"-0.5s"`.
 * Both hold to the ranges the messages' own documentation sets: years 0001 to 9999, and
 * ±315,576,000,000 seconds (10,000 years).
 */

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, in epoch milliseconds. */
export const minMillis = -62_135_596_800_000;
export const maxMillis = 253_402_300_799_999;
const maxDurationSeconds = 315_576_000_000n;

/** The fraction of a second in 0, 3, 6 or 9 digits, whichever is shortest and exact. */
function fraction(nanos: number): string {
  if (nanos === 0) return '';
  const digits = String(nanos).padStart(9, '0');
  if (nanos % 1_000_000 === 0) return `.${digits.slice(0, 3)}`;
  if (nanos % 1_000 === 0) return `.${digits.slice(0, 6)}`;
  return `.${digits}`;
}

/** 00-99 and 000-999, the fields of a timestamp's text. */
const twoDigits = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const threeDigits = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

const dayMillis = 86_400_000;

/**
 * The RFC 3339 text of a Date, or undefined outside the years 0001 to 9999: what toISOString
 * writes (`YYYY-MM-DDTHH:MM:SS.mmmZ`, already the shortest exact form of whole milliseconds),
 * without `.000`. Written from the epoch milliseconds by arithmetic, as toISOString cost ~1 µs a
 * call, the larger part of encoding a record with a timestamp; this takes about a third of that.
 */
export function timestampText(date: Date): string | undefined {
  const millis = date.getTime();
  if (!(millis >= minMillis && millis <= maxMillis)) return undefined;
  const days = Math.floor(millis / dayMillis);
  let rest = millis - days * dayMillis;
  const [year, month, day] = civilDate(days);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const milliseconds = rest - seconds * 1000;
  const text =
    `${twoDigits[Math.floor(year / 100)]}${twoDigits[year % 100]}-${twoDigits[month]}-${twoDigits[day]}` +
    `T${twoDigits[hours]}:${twoDigits[minutes]}:${twoDigits[seconds]}`;
  return milliseconds === 0 ? `${text}Z` : `${text}.${threeDigits[milliseconds]}Z`;
}

/**
 * The proleptic Gregorian year, month and day of a day counted from 1970-01-01, by the eras of 400
 * years that the calendar repeats (Howard Hinnant's `civil_from_days`).
 */
function civilDate(days: number): [number, number, number] {
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
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

const timestampPattern =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** Epoch milliseconds of RFC 3339 text, or undefined when it is not a valid instant in 0001-9999. */
export function parseTimestamp(text: string): number | undefined {
  const canonical = canonicalMillis(text);
  if (canonical !== undefined) return canonical;
  const match = timestampPattern.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as number[];
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second] as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  let millis = date.getTime();
  const digits = match[7];
  if (digits !== undefined) millis += Math.floor(Number(digits.padEnd(9, '0')) / 1_000_000);
  if (match[8] === undefined) {
    const offsetHours = Number(match[10]);
    const offsetMinutes = Number(match[11]);
    if (offsetHours > 23 || offsetMinutes > 59) return undefined;
    const offset = (offsetHours * 60 + offsetMinutes) * 60_000;
    millis += match[9] === '-' ? offset : -offset;
  }
  return millis >= minMillis && millis <= maxMillis ? millis : undefined;
}

/** The value of the `width` decimal digits at `at`, or -1 where one is not a digit. */
function digitsAt(text: string, at: number, width: number): number {
  let value = 0;
  for (let i = at; i < at + width; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * The form every printer writes, `YYYY-MM-DDTHH:MM:SSZ` or `…SS.mmmZ`, read without the pattern
 * (whose match array and Date setters were the larger part of reading a record): its epoch
 * milliseconds, or undefined for any other text, which parseTimestamp reads the long way. Years
 * below 100 go that way too, since Date.UTC reads them as 19xx.
 */
function canonicalMillis(text: string): number | undefined {
  const length = text.length;
  if (length !== 20 && length !== 24) return undefined;
  if (
    text.charCodeAt(4) !== 0x2d || // -
    text.charCodeAt(7) !== 0x2d ||
    text.charCodeAt(10) !== 0x54 || // T
    text.charCodeAt(13) !== 0x3a || // :
    text.charCodeAt(16) !== 0x3a ||
    text.charCodeAt(length - 1) !== 0x5a || // Z
    (length === 24 && text.charCodeAt(19) !== 0x2e) // .
  ) {
    return undefined;
  }
  const y = digitsAt(text, 0, 4);
  const mo = digitsAt(text, 5, 2);
  const d = digitsAt(text, 8, 2);
  const h = digitsAt(text, 11, 2);
  const mi = digitsAt(text, 14, 2);
  const s = digitsAt(text, 17, 2);
  const ms = length === 24 ? digitsAt(text, 20, 3) : 0;
  if (y < 100 || mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h < 0 || h > 23) return undefined;
  if (mi < 0 || mi > 59 || s < 0 || s > 59 || ms < 0) return undefined;
  return Date.UTC(y, mo - 1, d, h, mi, s, ms);
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** A Duration's text from its fields, or undefined when they are out of range or of opposite signs. */
export function durationText(seconds: bigint, nanos: number): string | undefined {
  if (seconds > maxDurationSeconds || seconds < -maxDurationSeconds) return undefined;
  if (!Number.isInteger(nanos) || nanos <= -1e9 || nanos >= 1e9) return undefined;
  if ((seconds > 0n && nanos < 0) || (seconds < 0n && nanos > 0)) return undefined;
  const negative = seconds < 0n || nanos < 0;
  const whole = negative ? -seconds : seconds;
  return `${negative ? '-' : ''}${whole}${fraction(Math.abs(nanos))}s`;
}

const durationPattern = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/;

/** A Duration's fields from its text, or undefined when it is not one in range. */
export function parseDuration(text: string): { seconds: bigint; nanos: number } | undefined {
  const match = durationPattern.exec(text);
  if (match === null) return undefined;
  const whole = BigInt(match[2] as string);
  if (whole > maxDurationSeconds) return undefined;
  const nanos = match[3] === undefined ? 0 : Number(match[3].padEnd(9, '0'));
  const negative = match[1] === '-';
  return { seconds: negative ? -whole : whole, nanos: negative && nanos !== 0 ? -nanos : nanos };
}
