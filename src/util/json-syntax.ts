/**
 * JSON text checked against RFC 8259's grammar by wirekit itself, for what `JSON.parse` does not
 * say: where text it refused goes wrong (V8's message names a position for some faults and none
 * for "Unexpected token"), and where a number it read lies past float64 (it returns Infinity for
 * `1e400` without a word). Both run only once the fast path has a reason to ask: after JSON.parse
 * threw, or when its value holds an infinity (`holdsInfinity`). One pass, no recursion (an open
 * container is one byte of `open`), so text nested a million deep costs a megabyte.
 *
 * A fault is the first character no JSON text could have at its place (what a parser reading the
 * text left to right meets): `[1,,2]` at the second comma, `"\x"` at the `x`, `[1.]` at the `]`.
 * Text that ends where more must come is truncated; a complete value followed by anything but
 * whitespace is trailing (`01` is the value 0 and then `1`, as Python's json reads it). A leading
 * byte order mark is skipped, as RFC 8259 §8.1 lets a reader do.
 */

export type JsonFault =
  /** The text ends inside a value (or holds none). */
  | { readonly kind: 'truncated' }
  /** `position` holds a character the grammar does not allow there; `expected` says what it allows. */
  | { readonly kind: 'malformed'; readonly position: number; readonly expected: string }
  /** A complete value ends before `position`, where the first character that is not whitespace follows. */
  | { readonly kind: 'trailing'; readonly position: number }
  /** The number that starts at `position` is past float64's range: JSON.parse reads it as an infinity. */
  | { readonly kind: 'overflow'; readonly position: number };

/** What the grammar expects next. */
const Expect = {
  /** A value: after a colon, a comma in an array, or at the start. */
  Value: 0,
  /** A value or `]`: just after `[`. */
  ValueOrClose: 1,
  /** A key or `}`: just after `{`. */
  KeyOrClose: 2,
  /** A key: after a comma in an object. */
  Key: 3,
  Colon: 4,
  /** A comma or the closing bracket of the open container; the end where none is open. */
  CommaOrClose: 5,
} as const;
type Expect = (typeof Expect)[keyof typeof Expect];

const inArray = 0;
const inObject = 1;

const quote = 0x22;
const backslash = 0x5c;
const comma = 0x2c;
const colon = 0x3a;
const minus = 0x2d;
const plus = 0x2b;
const dot = 0x2e;
const zero = 0x30;
const nine = 0x39;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const byteOrderMark = 0xfeff;

/** What the grammar wants in each state, for messages. */
const wanted: Record<Expect, string> = {
  [Expect.Value]: 'a value',
  [Expect.ValueOrClose]: "a value or ']'",
  [Expect.KeyOrClose]: "a key in double quotes or '}'",
  [Expect.Key]: 'a key in double quotes',
  [Expect.Colon]: "':'",
  [Expect.CommaOrClose]: "',' or the closing bracket",
};

/** A fault inside a token: where, and what the grammar wanted; truncated when the text ended. */
class Fault {
  constructor(
    readonly position: number,
    readonly expected: string,
  ) {}
}

/**
 * The first fault of `text` as JSON, or undefined for valid JSON text. With `numbers`, a number
 * past float64's range is a fault too (`overflow`): for text JSON.parse accepted.
 */
export function findJsonFault(text: string, numbers = false): JsonFault | undefined {
  const n = text.length;
  let open: Uint8Array = new Uint8Array(64);
  let depth = 0;
  let state: Expect = Expect.Value;
  let i = text.charCodeAt(0) === byteOrderMark ? 1 : 0;
  for (;;) {
    i = skipWhitespace(text, i);
    if (i >= n) return state === Expect.CommaOrClose && depth === 0 ? undefined : { kind: 'truncated' };
    const c = text.charCodeAt(i);
    let next: number | Fault;
    switch (state) {
      case Expect.ValueOrClose:
      case Expect.Value:
        if (state === Expect.ValueOrClose && c === closeBracket) {
          depth--;
          state = Expect.CommaOrClose;
          next = i + 1;
        } else if (c === openBracket || c === openBrace) {
          if (depth === open.length) open = grown(open);
          open[depth++] = c === openBrace ? inObject : inArray;
          state = c === openBrace ? Expect.KeyOrClose : Expect.ValueOrClose;
          next = i + 1;
        } else {
          next = scalarEnd(text, i, state);
          if (numbers && typeof next === 'number' && (c === minus || isDigit(c)) && overflows(text, i, next))
            return { kind: 'overflow', position: i };
          state = Expect.CommaOrClose;
        }
        break;
      case Expect.KeyOrClose:
      case Expect.Key:
        if (state === Expect.KeyOrClose && c === closeBrace) {
          depth--;
          state = Expect.CommaOrClose;
          next = i + 1;
        } else if (c === quote) {
          next = stringEnd(text, i);
          state = Expect.Colon;
        } else next = new Fault(i, wanted[state]);
        break;
      case Expect.Colon:
        next = c === colon ? i + 1 : new Fault(i, wanted[state]);
        state = Expect.Value;
        break;
      case Expect.CommaOrClose: {
        if (depth === 0) return { kind: 'trailing', position: i };
        const object = open[depth - 1] === inObject;
        if (c === comma) {
          state = object ? Expect.Key : Expect.Value;
          next = i + 1;
        } else if (c === (object ? closeBrace : closeBracket)) {
          depth--;
          next = i + 1;
        } else next = new Fault(i, object ? "',' or '}'" : "',' or ']'");
        break;
      }
    }
    if (next instanceof Fault) {
      return next.position >= n
        ? { kind: 'truncated' }
        : { kind: 'malformed', position: next.position, expected: next.expected };
    }
    i = next;
  }
}

/**
 * Whether a value JSON.parse returned holds an infinity, which it makes only of a number past
 * float64 (and NaN never): one walk without recursion, a subtraction per number (an infinity minus
 * itself is NaN). The cheap question to ask before `findJsonFault(text, true)` says where.
 */
export function holdsInfinity(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object') {
      if (typeof node === 'number' && node - node !== 0) return true;
    } else if (Array.isArray(node)) {
      for (const item of node) if (typeof item === 'object' || typeof item === 'number') stack.push(item);
    } else if (node !== null) {
      for (const key in node) {
        const item = (node as Record<string, unknown>)[key];
        if (typeof item === 'object' || typeof item === 'number') stack.push(item);
      }
    }
  }
  return false;
}

function overflows(text: string, start: number, end: number): boolean {
  return !Number.isFinite(Number(text.slice(start, end)));
}

function skipWhitespace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

function isDigit(c: number): boolean {
  return c >= zero && c <= nine;
}

/** Where the string, number or literal that starts at `i` ends, or its fault. */
function scalarEnd(text: string, i: number, state: Expect): number | Fault {
  const c = text.charCodeAt(i);
  if (c === quote) return stringEnd(text, i);
  if (c === minus || isDigit(c)) return numberEnd(text, i);
  if (c === 0x74) return literalEnd(text, i, 'true');
  if (c === 0x66) return literalEnd(text, i, 'false');
  if (c === 0x6e) return literalEnd(text, i, 'null');
  return new Fault(i, wanted[state]);
}

function literalEnd(text: string, i: number, literal: string): number | Fault {
  for (let k = 1; k < literal.length; k++)
    if (text.charCodeAt(i + k) !== literal.charCodeAt(k)) return new Fault(i + k, `'${literal}'`);
  return i + literal.length;
}

/** `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` from `i`. */
function numberEnd(text: string, i: number): number | Fault {
  let j = i;
  if (text.charCodeAt(j) === minus) j++;
  const first = text.charCodeAt(j);
  if (first === zero) j++;
  else if (isDigit(first)) j = digitsEnd(text, j);
  else return new Fault(j, 'a digit');
  if (text.charCodeAt(j) === dot) {
    if (!isDigit(text.charCodeAt(++j))) return new Fault(j, 'a digit after the decimal point');
    j = digitsEnd(text, j);
  }
  const e = text.charCodeAt(j);
  if (e === 0x65 || e === 0x45) {
    const sign = text.charCodeAt(++j);
    if (sign === plus || sign === minus) j++;
    if (!isDigit(text.charCodeAt(j))) return new Fault(j, 'a digit in the exponent');
    j = digitsEnd(text, j);
  }
  return j;
}

function digitsEnd(text: string, j: number): number {
  while (isDigit(text.charCodeAt(j))) j++;
  return j;
}

/** The end of the string whose opening quote is at `i`: escapes checked, control characters refused. */
function stringEnd(text: string, i: number): number | Fault {
  const n = text.length;
  let j = i + 1;
  for (;;) {
    if (j >= n) return new Fault(j, "'\"'");
    const c = text.charCodeAt(j);
    if (c === quote) return j + 1;
    if (c < 0x20) return new Fault(j, 'no control character in a string (escape it: \\n, \\u0000...)');
    if (c !== backslash) {
      j++;
      continue;
    }
    const escaped = text.charCodeAt(j + 1);
    if (escaped === 0x75) {
      for (let k = j + 2; k < j + 6; k++)
        if (!isHex(text.charCodeAt(k))) return new Fault(k, 'four hexadecimal digits after \\u');
      j += 6;
    } else if (isEscape(escaped)) j += 2;
    else return new Fault(j + 1, 'an escape: \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u');
  }
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** `"`, `\`, `/`, b, f, n, r, t. */
function isEscape(c: number): boolean {
  return (
    c === quote ||
    c === backslash ||
    c === 0x2f ||
    c === 0x62 ||
    c === 0x66 ||
    c === 0x6e ||
    c === 0x72 ||
    c === 0x74
  );
}

function grown(open: Uint8Array): Uint8Array {
  const bigger = new Uint8Array(open.length * 2);
  bigger.set(open);
  return bigger;
}

/** Where `position` is, as an editor shows it: line and column, both from 1. */
export function lineAndColumnOf(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < position; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: position - lineStart + 1 };
}

/** Where `position` is, in words for a message: `line 3, column 10`. */
export function placeOf(text: string, position: number): string {
  const { line, column } = lineAndColumnOf(text, position);
  return `line ${line}, column ${column}`;
}
