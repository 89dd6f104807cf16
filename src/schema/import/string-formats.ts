/**
 * The string formats the importer reads, each as one wirekit pattern (a regular expression with the
 * `u` flag and no other) that accepts exactly the texts ajv-formats' full format accepts, so that a
 * string kind holding it gives Ajv's verdict. ajv-formats checks some formats with code (a date's
 * days per month, a time's hours) and others with case-blind expressions; the patterns here say the
 * same with explicit classes, written for that purpose and checked against Ajv in
 * test/schema/import/string-formats.test.ts. Where ajv-formats' code knows something no expression
 * here says (a leap second), the difference is listed in docs/mapping/json-schema.md.
 */

const digit = '\\d';
const hexGroup = '[0-9a-fA-F]{1,4}';
/** 0..255 without leading zeros, as ajv-formats' ipv4 and ipv6 read an address part. */
const octet = `(?:25[0-5]|2[0-4]${digit}|1${digit}${digit}|[1-9]?${digit})`;
const ipv4 = `${octet}(?:\\.${octet}){3}`;

/** Years divisible by 4, but not by 100 unless by 400 (0000 included), whose February has a 29th. */
const leapYear = '(?:\\d\\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)';
const monthAndDay =
  '(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))';
const fullDate = `(?:\\d{4}-${monthAndDay}|${leapYear}-02-29)`;
/** Hours to 23, minutes and seconds to 59; a fraction of any length. */
const partialTime = '(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?';
/** ajv-formats' zone: z, or an offset whose colon and minutes may each be left out. */
const zone = '(?:[zZ]|[+-](?:[01]\\d|2[0-3])(?::?[0-5]\\d)?)';

/**
 * IPv6 as RFC 4291 writes it, which is what ajv-formats accepts: eight groups, or six and an IPv4
 * address, or `::` standing for one or more zero groups with at most seven groups around it (an
 * IPv4 address counting as two).
 */
function ipv6(): string {
  const forms = [`${hexGroup}(?::${hexGroup}){7}`, `(?:${hexGroup}:){6}${ipv4}`];
  for (let left = 0; left <= 7; left++) {
    const before = left === 0 ? '' : `${hexGroup}(?::${hexGroup}){${left - 1}}`;
    // Groups the right side may still hold: the eight less the left's, less one for the `::`.
    const groups = 7 - left;
    const after = groups === 0 ? [''] : [`(?:${hexGroup}(?::${hexGroup}){0,${groups - 1}})?`];
    if (groups >= 2) after.push(`(?:${hexGroup}:){0,${groups - 2}}${ipv4}`);
    forms.push(`${before}::(?:${after.join('|')})`);
  }
  return `(?:${forms.join('|')})`;
}

const emailAtom = "[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+";
const hostLabel = '[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?';
const dnsLabel = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';

/** The formats read, by name, each as the pattern a text must match. */
export const stringFormatPatterns: Readonly<Record<string, string>> = {
  // ajv-formats reads the urn prefix case-blind too.
  uuid: '^(?:[uU][rR][nN]:[uU][uU][iI][dD]:)?[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$',
  date: `^${fullDate}$`,
  time: `^${partialTime}${zone}$`,
  // ajv-formats splits on one t, T or white space character and reads each side.
  'date-time': `^${fullDate}[tT\\s]${partialTime}${zone}$`,
  duration:
    '^P(?!$)(?:(?:\\d+Y)?(?:\\d+M)?(?:\\d+D)?(?:T(?=\\d)(?:\\d+H)?(?:\\d+M)?(?:\\d+S)?)?|(?:\\d+W)?)$',
  email: `^${emailAtom}(?:\\.${emailAtom})*@(?:${hostLabel}\\.)+${hostLabel}$`,
  hostname: `^(?=.{1,253}\\.?$)${dnsLabel}(?:\\.${dnsLabel})*\\.?$`,
  ipv4: `^${ipv4}$`,
  ipv6: `^${ipv6()}$`,
};

/**
 * One pattern that a text matches when it matches both (each, as JSON Schema's `pattern`, found
 * anywhere in the text): a format's and a pattern beside it, as zod writes `z.email()` and
 * `z.iso.datetime()`. Each is looked for from the start in a lookahead, so neither's anchors or
 * groups change the other's.
 */
export function bothPatterns(format: string, pattern: string | undefined): string {
  if (pattern === undefined || pattern === format) return format;
  return `^(?=[\\s\\S]*?(?:${format}))(?=[\\s\\S]*?(?:${pattern}))`;
}
