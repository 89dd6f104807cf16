/**
 * Media types as HTTP writes them (RFC 9110 §8.3.1): `type/subtype` with optional
 * `; name=value` parameters. Names and types are case-insensitive, so they are kept lowercased;
 * parameter values keep their case, with quoting removed.
 */

export interface MediaType {
  readonly type: string;
  readonly subtype: string;
  /** Lowercased names; `q` is never among them (see accept.ts). */
  readonly params: ReadonlyMap<string, string>;
}

const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Splits on `separator` outside double quotes (a quoted parameter value may hold `,` or `;`). */
export function splitOutsideQuotes(text: string, separator: ',' | ';'): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && quoted) i++;
    else if (c === separator && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** The value of a parameter, unquoted; undefined when it is neither a token nor a quoted string. */
function parameterValue(raw: string): string | undefined {
  if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) {
    return raw.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return token.test(raw) ? raw : undefined;
}

/**
 * Parses one media type (or media range, where `*` may stand for the type or subtype). Returns
 * undefined for anything malformed: a caller treats that as a type it does not know.
 * `q` parameters are returned like any other; accept.ts takes them out.
 */
export function parseMediaType(text: string): (MediaType & { readonly order: string[] }) | undefined {
  const [essence = '', ...rawParams] = splitOutsideQuotes(text, ';');
  const slash = essence.indexOf('/');
  if (slash < 0) return undefined;
  const type = essence.slice(0, slash).trim().toLowerCase();
  const subtype = essence
    .slice(slash + 1)
    .trim()
    .toLowerCase();
  if (!token.test(type) || !token.test(subtype)) return undefined;
  if (type === '*' && subtype !== '*') return undefined;
  const params = new Map<string, string>();
  const order: string[] = [];
  for (const raw of rawParams) {
    if (raw.trim() === '') continue;
    const equals = raw.indexOf('=');
    if (equals < 0) return undefined;
    const name = raw.slice(0, equals).trim().toLowerCase();
    const value = parameterValue(raw.slice(equals + 1).trim());
    if (!token.test(name) || value === undefined) return undefined;
    params.set(name, value);
    order.push(name);
  }
  return { type, subtype, params, order };
}

/** `type/subtype` without parameters, lowercased: what a codec registry looks types up by. */
export function essenceOf(mediaType: string): string {
  return (mediaType.split(';')[0] ?? '').trim().toLowerCase();
}
