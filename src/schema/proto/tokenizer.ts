/**
 * The .proto language's tokens, read as protoc's tokenizer reads them: identifiers
 * (`[A-Za-z_][A-Za-z0-9_]*`), integers (decimal, `0x` hex, `0` octal), floats (`1.5`, `.5`, `1e3`,
 * `1.`), strings in single or double quotes with C escapes (one line each), and every other
 * printable ASCII character as a symbol of its own. `//` and `/* *\/` comments and whitespace are
 * skipped. A character outside printable ASCII is refused outside strings and comments, as protoc
 * refuses it.
 *
 * One token at a time, read on demand into fields of the tokenizer (no token objects), so the cost
 * is one pass over the text; the parser looks at `kind` and `text` and calls `next()`. Lines and
 * columns are counted as the text is passed, so an error's position costs nothing extra.
 */
import type { ProtoPosition } from './ast.js';
import { protoError } from './errors.js';

export type TokenKind = 'identifier' | 'integer' | 'float' | 'string' | 'symbol' | 'end';

const tab = 0x09;
const newline = 0x0a;
const carriageReturn = 0x0d;
const space = 0x20;
const quote = 0x22;
const apostrophe = 0x27;
const dot = 0x2e;
const slash = 0x2f;
const star = 0x2a;
const backslash = 0x5c;

function isLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

function isOctalDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x37;
}

/** Whitespace as protoc skips it: space, tab, newline, vertical tab, form feed, carriage return. */
function isWhitespace(c: number): boolean {
  return c === space || (c >= tab && c <= carriageReturn);
}

const simpleEscapes: ReadonlyMap<number, string> = new Map([
  [0x61, '\u0007'], // a
  [0x62, '\b'],
  [0x66, '\f'],
  [0x6e, '\n'],
  [0x72, '\r'],
  [0x74, '\t'],
  [0x76, '\v'],
  [backslash, '\\'],
  [0x3f, '?'],
  [apostrophe, "'"],
  [quote, '"'],
]);

export class Tokenizer {
  /** The current token's kind and text (a string's text is its decoded value). */
  kind: TokenKind = 'end';
  text = '';
  /** Where the current token starts. */
  offset = 0;
  line = 1;
  column = 1;

  /** Where reading continues, and the line and the offset at which that line starts. */
  private cursor = 0;
  private cursorLine = 1;
  private lineStart = 0;

  constructor(private readonly source: string) {
    this.next();
  }

  /** The current token's position. */
  position(): ProtoPosition {
    return { offset: this.offset, line: this.line, column: this.column };
  }

  /** An error at the current token. */
  fail(message: string): never {
    return protoError(message, this.position());
  }

  is(text: string): boolean {
    return (this.kind === 'identifier' || this.kind === 'symbol') && this.text === text;
  }

  /** Moves to the next token. */
  next(): void {
    this.skipSpaceAndComments();
    const source = this.source;
    const start = this.cursor;
    this.offset = start;
    this.line = this.cursorLine;
    this.column = start - this.lineStart + 1;
    if (start >= source.length) {
      this.kind = 'end';
      this.text = '';
      return;
    }
    const c = source.charCodeAt(start);
    if (isLetter(c)) {
      let end = start + 1;
      while (end < source.length) {
        const d = source.charCodeAt(end);
        if (!isLetter(d) && !isDigit(d)) break;
        end++;
      }
      this.kind = 'identifier';
      this.text = source.slice(start, end);
      this.cursor = end;
    } else if (isDigit(c) || (c === dot && isDigit(source.charCodeAt(start + 1)))) {
      this.number(start);
    } else if (c === quote || c === apostrophe) {
      this.string(start, c);
    } else if (c > space && c < 0x7f) {
      this.kind = 'symbol';
      this.text = source[start] as string;
      this.cursor = start + 1;
    } else {
      this.fail(
        c < space || c === 0x7f
          ? 'invalid control character in the text'
          : `character U+${c.toString(16).toUpperCase().padStart(4, '0')} outside a string or comment`,
      );
    }
  }

  private skipSpaceAndComments(): void {
    const source = this.source;
    let i = this.cursor;
    for (;;) {
      const c = source.charCodeAt(i);
      if (c === newline) {
        i++;
        this.cursorLine++;
        this.lineStart = i;
      } else if (isWhitespace(c)) {
        i++;
      } else if (c === slash && source.charCodeAt(i + 1) === slash) {
        const end = source.indexOf('\n', i + 2);
        i = end === -1 ? source.length : end;
      } else if (c === slash && source.charCodeAt(i + 1) === star) {
        const end = source.indexOf('*/', i + 2);
        if (end === -1) {
          this.cursor = i;
          this.offset = i;
          this.line = this.cursorLine;
          this.column = i - this.lineStart + 1;
          this.fail('the text ends inside a block comment');
        }
        // Newlines inside the comment still count for positions after it.
        for (let j = source.indexOf('\n', i); j !== -1 && j < end; j = source.indexOf('\n', j + 1)) {
          this.cursorLine++;
          this.lineStart = j + 1;
        }
        i = end + 2;
      } else {
        this.cursor = i;
        return;
      }
    }
  }

  private number(start: number): void {
    const source = this.source;
    let i = start;
    let float = false;
    const first = source.charCodeAt(i);
    const second = source.charCodeAt(i + 1);
    if (first === 0x30 && (second === 0x78 || second === 0x58)) {
      i += 2;
      const digits = i;
      while (isHexDigit(source.charCodeAt(i))) i++;
      if (i === digits) this.failAt(i, '"0x" must be followed by hex digits');
    } else if (first === 0x30 && isDigit(second)) {
      i++;
      while (isOctalDigit(source.charCodeAt(i))) i++;
      if (isDigit(source.charCodeAt(i))) this.failAt(i, 'a number starting with 0 must be octal');
    } else {
      while (isDigit(source.charCodeAt(i))) i++;
      if (source.charCodeAt(i) === dot) {
        float = true;
        i++;
        while (isDigit(source.charCodeAt(i))) i++;
      }
      const e = source.charCodeAt(i);
      if (e === 0x65 || e === 0x45) {
        float = true;
        i++;
        const sign = source.charCodeAt(i);
        if (sign === 0x2b || sign === 0x2d) i++;
        const digits = i;
        while (isDigit(source.charCodeAt(i))) i++;
        if (i === digits) this.failAt(i, 'an exponent needs digits');
      }
    }
    const after = source.charCodeAt(i);
    if (isLetter(after) || isDigit(after) || (after === dot && !float)) {
      this.failAt(i, 'a number must be followed by a space or a symbol, not a letter or a dot');
    }
    this.kind = float ? 'float' : 'integer';
    this.text = source.slice(start, i);
    this.cursor = i;
  }

  /**
   * A string literal as protoc reads it: a byte string. Text between escapes is its UTF-8, `\x` and
   * octal escapes are one byte each, and `\u`/`\U` the UTF-8 of their code point; the token's text
   * holds one code unit (0-255) per byte, which readStrings decodes once the adjacent literals are
   * joined (a character's bytes may be split across escapes, even across literals).
   */
  private string(start: number, delimiter: number): void {
    const source = this.source;
    let value = '';
    let i = start + 1;
    let chunk = i;
    for (;;) {
      const c = source.charCodeAt(i);
      if (Number.isNaN(c) || c === newline) this.failAt(i, 'a string must end on the line it starts on');
      if (c === delimiter) break;
      if (c !== backslash) {
        i++;
        continue;
      }
      value += utf8Octets(source.slice(chunk, i));
      const [decoded, end] = this.escape(i);
      value += decoded;
      i = end;
      chunk = i;
    }
    value += utf8Octets(source.slice(chunk, i));
    this.kind = 'string';
    this.text = value;
    this.cursor = i + 1;
  }

  /** The escape at `at` (a backslash): the bytes it stands for, and where the text goes on. */
  private escape(at: number): [string, number] {
    const source = this.source;
    const c = source.charCodeAt(at + 1);
    const simple = simpleEscapes.get(c);
    if (simple !== undefined) return [simple, at + 2];
    if (isOctalDigit(c)) {
      let end = at + 2;
      while (end < at + 4 && isOctalDigit(source.charCodeAt(end))) end++;
      // Three octal digits reach 511; protoc keeps the low byte.
      return [String.fromCharCode(Number.parseInt(source.slice(at + 1, end), 8) & 0xff), end];
    }
    if (c === 0x78 || c === 0x58) {
      let end = at + 2;
      while (end < at + 4 && isHexDigit(source.charCodeAt(end))) end++;
      if (end === at + 2) this.failAt(at, '"\\x" must be followed by hex digits');
      return [String.fromCharCode(Number.parseInt(source.slice(at + 2, end), 16)), end];
    }
    if (c === 0x75 || c === 0x55) {
      const [point, end] = this.codePoint(at);
      // protoc joins `\uD83D\uDE00` into one code point; a lone surrogate stays as its own bytes
      // (not UTF-8, so a string default holding one is refused).
      if (point >= 0xd800 && point <= 0xdbff && source.startsWith('\\u', end)) {
        const [low, after] = this.codePoint(end);
        if (low >= 0xdc00 && low <= 0xdfff) {
          return [codePointOctets(0x10000 + ((point - 0xd800) << 10) + (low - 0xdc00)), after];
        }
      }
      return [codePointOctets(point), end];
    }
    return this.failAt(at, 'invalid escape sequence in a string');
  }

  /** The code point of the `\u` (four hex digits) or `\U` (eight) at `at`, and where it ends. */
  private codePoint(at: number): [number, number] {
    const source = this.source;
    const length = source.charCodeAt(at + 1) === 0x75 ? 4 : 8;
    const digits = source.slice(at + 2, at + 2 + length);
    const point = /^[0-9a-fA-F]+$/.test(digits) ? Number.parseInt(digits, 16) : Number.NaN;
    if (digits.length !== length || !(point <= 0x10ffff)) {
      this.failAt(at, `"\\${source[at + 1]}" must be followed by ${length} hex digits of a code point`);
    }
    return [point, at + 2 + length];
  }

  /** An error at an offset inside the token being read (on the current line). */
  private failAt(offset: number, message: string): never {
    return protoError(message, {
      offset,
      line: this.cursorLine,
      column: offset - this.lineStart + 1,
    });
  }
}

/** Text's UTF-8, one code unit per byte (ASCII, most text, is its own bytes). */
function utf8Octets(text: string): string {
  let out = '';
  for (const char of text) out += codePointOctets(char.codePointAt(0) as number);
  return out;
}

/**
 * A code point's UTF-8 bytes, one code unit each. Surrogates get the three bytes their number
 * would have, as protoc writes them (TextEncoder would put U+FFFD in their place).
 */
function codePointOctets(point: number): string {
  if (point < 0x80) return String.fromCharCode(point);
  if (point < 0x800) return String.fromCharCode(0xc0 | (point >> 6), 0x80 | (point & 0x3f));
  if (point < 0x10000) {
    return String.fromCharCode(0xe0 | (point >> 12), 0x80 | ((point >> 6) & 0x3f), 0x80 | (point & 0x3f));
  }
  return String.fromCharCode(
    0xf0 | (point >> 18),
    0x80 | ((point >> 12) & 0x3f),
    0x80 | ((point >> 6) & 0x3f),
    0x80 | (point & 0x3f),
  );
}
