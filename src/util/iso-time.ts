/**
 * RFC 3339 date-times with an explicit offset: what wirekit writes and accepts for timestamps in
 * JSON. `Date.parse` alone accepts many other spellings (and local times), which would make the
 * same text mean different instants on different machines.
 */
const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** The instant a date-time names, or undefined when it is not RFC 3339 with an offset. */
export function parseIsoTime(text: string): Date | undefined {
  if (!rfc3339.test(text)) return undefined;
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
  if (!expandedYear.test(text)) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
