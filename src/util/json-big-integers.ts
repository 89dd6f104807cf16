/**
 * JSON text read with its integers beyond 2^53 kept exact. JSON.parse rounds them to the nearest
 * double (`505874924095815681` becomes `…700`), and Node 20's reviver cannot see a number's source
 * text (`context.source` came in Node 21), so this reader finds those literals in the text first:
 * each one within 64 bits becomes a marked string, which JSON.parse leaves alone, and the marked
 * strings become bigints once the value is parsed. Literals past 64 bits are no int64 either: they
 * are left to JSON.parse and counted, so that a caller can say they were rounded.
 */
import { formatPath } from '../errors/index.js';

/** A string and a number literal, whichever comes next: strings are matched whole so that digits inside them are skipped. */
const tokens = /"[^"\\]*(?:\\[\s\S][^"\\]*)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const int64Min = -(2n ** 63n);
const uint64Max = 2n ** 64n - 1n;

/**
 * `text` with every integer literal beyond 2^53 and within 64 bits turned into a string that starts
 * with `marker`, or undefined when it holds none; and how many literals past 64 bits stay numbers.
 */
export function markBigIntegers(text: string): { text?: string; marker: string; rounded: string[] } {
  const marker = [...'\ue000\ue001\ue002\ue003\ue004\ue005'].find((c) => !text.includes(c)) ?? '\ue006\ue007';
  const rounded: string[] = [];
  // Sixteen digits is the shortest literal past 2^53 (9,007,199,254,740,991 has 16): most files have none.
  if (!/\d{16}/.test(text)) return { marker, rounded };
  const parts: string[] = [];
  let from = 0;
  for (const match of text.matchAll(tokens)) {
    const token = match[0];
    if (token.charCodeAt(0) === 34 || token.length < 16 || /[.eE]/.test(token)) continue;
    const value = BigInt(token);
    if (value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)) continue;
    if (value < int64Min || value > uint64Max) {
      rounded.push(token);
      continue;
    }
    parts.push(text.slice(from, match.index), `"${marker}${token}"`);
    from = match.index + token.length;
  }
  if (parts.length === 0) return { marker, rounded };
  parts.push(text.slice(from));
  return { text: parts.join(''), marker, rounded };
}

/** Where the first exact integer was: which of the values, the path inside it, its digits. */
export interface FirstBigInteger {
  readonly index: number;
  readonly path: string;
  readonly digits: string;
}

/** The parsed values with each marked string made the bigint it spells, in place where possible. */
export function restoreBigIntegers(
  values: unknown[],
  marker: string,
): { values: unknown[]; exact: number; first?: FirstBigInteger } {
  let exact = 0;
  let first: FirstBigInteger | undefined;
  let index = 0;
  const path: (string | number)[] = [];
  const visit = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (!value.startsWith(marker)) return value;
      const digits = value.slice(marker.length);
      exact++;
      first ??= { index, path: formatPath(path), digits };
      return BigInt(digits);
    }
    if (typeof value !== 'object' || value === null) return value;
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      path.push(Array.isArray(value) ? Number(key) : key);
      const next = visit(record[key]);
      if (next !== record[key]) record[key] = next;
      path.pop();
    }
    return value;
  };
  const out = values.map((value, i) => {
    index = i;
    return visit(value);
  });
  return { values: out, exact, ...(first === undefined ? {} : { first }) };
}

/** The value as its JSON form spells it: each bigint a string of digits (what int64 fields read). */
export function bigIntsAsDigits(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(bigIntsAsDigits);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      Object.defineProperty(out, key, {
        value: bigIntsAsDigits(child),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}
