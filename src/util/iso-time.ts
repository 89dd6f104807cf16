/**
 * RFC 3339 date-times with an explicit offset: what wirekit writes and accepts for timestamps in
 * JSON. `Date.parse` alone accepts many other spellings (and local times), which would make the
 * same text mean different instants on different machines.
 */
const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The days of `month` (1-12) in `year` of the proleptic Gregorian calendar; 0 for no such month. */
function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : (monthDays[month - 1] ?? 0);
}

/**
 * Whether the fields name a real date and time of day. V8's date parser and `Date.UTC` roll an
 * overflow into the next field (2023-02-29 is March 1st, hour 24 the next day), so a text that names
 * no instant would read as another one: RFC 3339's ranges are checked first. A leap second (60) is
 * refused, since a Date cannot hold it.
 */
export function isCalendarTime(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
): boolean {
  return day >= 1 && day <= daysInMonth(year, month) && hour <= 23 && minute <= 59 && second <= 59;
}

/** The instant a date-time names, or undefined when it is not RFC 3339 with an offset. */
export function parseIsoTime(text: string): Date | undefined {
  const match = rfc3339.exec(text);
  if (match === null) return undefined;
  const field = (index: number): number => Number(match[index] ?? 0);
  if (!isCalendarTime(field(1), field(2), field(3), field(4), field(5), field(6))) return undefined;
  if (field(8) > 23 || field(9) > 59) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * ECMAScript's form for a year past 9999 or before 0 (`+275760-09-13T00:00:00.000Z`, a sign and six
 * digits), which `Date#toISOString` writes and RFC 3339 has no spelling for: the JSON codec reads
 * back every Date it writes. Undefined for any other text.
 */
const expandedYear = /^[+-]\d{6}-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?Z$/;

export function parseIsoTimeExpanded(text: string): Date | undefined {
  const match = expandedYear.exec(text);
  if (match === null) return undefined;
  const year = Number(text.slice(0, 7));
  const field = (index: number): number => Number(match[index]);
  if (!isCalendarTime(year, field(1), field(2), field(3), field(4), field(5))) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
