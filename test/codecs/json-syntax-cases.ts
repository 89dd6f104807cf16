/**
 * JSON texts that are not JSON, one or more per rule of RFC 8259's grammar, in the manner of
 * JSONTestSuite's n_* files (written here, not copied), with what the JSON codec answers: the code
 * and the byte offset of the first fault. `python` is Python's json.JSONDecodeError.pos where it
 * points elsewhere: Python names the start of the token it could not read (the backslash of a bad
 * escape, or the `u` of a bad `\u` escape; the first character of a number or literal it could not
 * finish, the quote that opens an unterminated string), wirekit the first character no JSON text
 * could have there.
 */
export type SyntaxCode = 'WK_DECODE_MALFORMED' | 'WK_DECODE_TRUNCATED' | 'WK_DECODE_TRAILING';

export interface SyntaxCase {
  readonly name: string;
  readonly text: string;
  readonly code: SyntaxCode;
  /** The byte offset of the fault; for truncation, the input's length. */
  readonly offset: number;
  /** Python's position, where it differs; 'accepts' where Python's json reads the text by design. */
  readonly python?: number | 'accepts';
}

const M = 'WK_DECODE_MALFORMED';
const T = 'WK_DECODE_TRUNCATED';
const R = 'WK_DECODE_TRAILING';
const bom = '\uFEFF';

export const syntaxCases: readonly SyntaxCase[] = [
  // Commas
  { name: 'two commas in a row', text: '[1,,2]', code: M, offset: 3 },
  { name: 'a comma first in an array', text: '[,1]', code: M, offset: 1 },
  { name: 'a trailing comma in an array', text: '[1,]', code: M, offset: 3 },
  { name: 'a trailing comma in an object', text: '{"a":1,}', code: M, offset: 7 },
  { name: 'a comma alone in an object', text: '{,}', code: M, offset: 1 },
  { name: 'no comma between items', text: '[1 2]', code: M, offset: 3 },
  { name: 'no comma between members', text: '{"a":1 "b":2}', code: M, offset: 7 },
  // Values JSON does not have
  { name: 'NaN', text: '[NaN]', code: M, offset: 1, python: 'accepts' },
  { name: 'Infinity', text: '[Infinity]', code: M, offset: 1, python: 'accepts' },
  { name: '-Infinity', text: '[-Infinity]', code: M, offset: 2, python: 'accepts' },
  { name: 'undefined', text: '[undefined]', code: M, offset: 1 },
  { name: 'a capitalised literal', text: '[True]', code: M, offset: 1 },
  { name: 'a literal cut short', text: '[tru]', code: M, offset: 4, python: 1 },
  { name: 'a literal with more letters', text: '[nulll]', code: M, offset: 5 },
  // Quotes
  { name: 'a single-quoted string', text: "['a']", code: M, offset: 1 },
  { name: 'a single-quoted key', text: "{'a':1}", code: M, offset: 1 },
  { name: 'an unquoted key', text: '{a:1}', code: M, offset: 1 },
  { name: 'a number as key', text: '{1:2}', code: M, offset: 1 },
  // Escapes
  { name: 'an unknown escape', text: '["\\x"]', code: M, offset: 3, python: 2 },
  { name: 'the escape \\a', text: '["\\a"]', code: M, offset: 3, python: 2 },
  { name: 'an upper-case \\U', text: '["\\U0041"]', code: M, offset: 3, python: 2 },
  { name: 'a \\u with a letter past F', text: '["\\u12G4"]', code: M, offset: 6, python: 3 },
  { name: 'a \\u with three digits', text: '["\\u123"]', code: M, offset: 7, python: 3 },
  { name: 'an escaped single quote', text: '["\\\'"]', code: M, offset: 3, python: 2 },
  // Control characters inside strings
  { name: 'a tab in a string', text: '["a\tb"]', code: M, offset: 3 },
  { name: 'a newline in a string', text: '["a\nb"]', code: M, offset: 3 },
  { name: 'NUL in a string', text: '["\u0000"]', code: M, offset: 2 },
  { name: 'U+001F in a key', text: '{"\u001f":1}', code: M, offset: 2 },
  // Numbers
  { name: 'a leading zero', text: '[01]', code: M, offset: 2 },
  { name: 'a leading zero after a minus', text: '[-01]', code: M, offset: 3 },
  { name: 'two zeros', text: '[00]', code: M, offset: 2 },
  { name: 'a plus sign', text: '[+1]', code: M, offset: 1 },
  { name: 'a point with no digit after', text: '[1.]', code: M, offset: 3, python: 2 },
  { name: 'a point with no digit before', text: '[.5]', code: M, offset: 1 },
  { name: 'an exponent with no digit', text: '[1e]', code: M, offset: 3, python: 2 },
  { name: 'an exponent sign with no digit', text: '[1e+]', code: M, offset: 4, python: 2 },
  { name: 'a point then an exponent', text: '[1.e5]', code: M, offset: 3, python: 2 },
  { name: 'a minus alone', text: '[-]', code: M, offset: 2, python: 1 },
  { name: 'hexadecimal', text: '[0x1A]', code: M, offset: 2 },
  { name: 'digit separators', text: '[1_000]', code: M, offset: 2 },
  // Structure
  { name: 'an object closed by ]', text: '{"a":1]', code: M, offset: 6 },
  { name: 'an array closed by }', text: '[1}', code: M, offset: 2 },
  { name: 'a key without a value', text: '{"a"}', code: M, offset: 4 },
  { name: 'a key and a value without a colon', text: '{"a" 1}', code: M, offset: 5 },
  { name: 'two colons', text: '{"a"::1}', code: M, offset: 5 },
  { name: 'a closing bracket alone', text: ']', code: M, offset: 0 },
  { name: 'a colon alone', text: ':', code: M, offset: 0 },
  { name: 'a comment inside', text: '[1/*c*/]', code: M, offset: 2 },
  // Whitespace JSON does not have
  { name: 'a no-break space', text: '[1,\u00a02]', code: M, offset: 3 },
  { name: 'a vertical tab', text: '[\u000b1]', code: M, offset: 1 },
  { name: 'a form feed', text: '[\f1]', code: M, offset: 1 },
  // Byte order marks: one leading mark is skipped (RFC 8259 §8.1), any other is a fault
  { name: 'a byte order mark inside', text: `[${bom}1]`, code: M, offset: 1 },
  { name: 'two byte order marks', text: `${bom}${bom}[1]`, code: M, offset: 3 },
  { name: 'a byte order mark and a fault', text: `${bom}[1,,2]`, code: M, offset: 6 },
  { name: 'a byte order mark alone', text: bom, code: T, offset: 3 },
  // Offsets count UTF-8 bytes
  { name: 'a fault after a two-byte character', text: '["é",x]', code: M, offset: 6 },
  { name: 'a fault after an emoji', text: '["😀"x]', code: M, offset: 7 },
  // Input that ends inside a value
  { name: 'nothing', text: '', code: T, offset: 0 },
  { name: 'only whitespace', text: ' \n\t', code: T, offset: 3 },
  { name: 'an open array', text: '[', code: T, offset: 1 },
  { name: 'an item without the close', text: '[1', code: T, offset: 2 },
  { name: 'after a comma', text: '[1,', code: T, offset: 3 },
  { name: 'a key without its colon', text: '{"a"', code: T, offset: 4 },
  { name: 'a key without its value', text: '{"a":', code: T, offset: 5 },
  { name: 'a string without its close', text: '"abc', code: T, offset: 4, python: 0 },
  { name: 'a string ending in a backslash', text: '"\\', code: T, offset: 2, python: 0 },
  { name: 'a \\u escape cut short', text: '"\\u12', code: T, offset: 5, python: 2 },
  { name: 'a literal cut short at the end', text: 'tru', code: T, offset: 3, python: 0 },
  { name: 'a minus at the end', text: '-', code: T, offset: 1, python: 0 },
  { name: 'a point at the end', text: '1.', code: T, offset: 2, python: 1 },
  { name: 'an exponent at the end', text: '1e+', code: T, offset: 3, python: 1 },
  { name: 'nested containers left open', text: '[1,{"a":[', code: T, offset: 9 },
  // A complete value with more after it
  { name: 'a word after an array', text: '[1] x', code: R, offset: 4 },
  { name: 'two numbers', text: '1 2', code: R, offset: 2 },
  { name: 'two objects', text: '{}{}', code: R, offset: 2 },
  { name: 'a leading zero at the top', text: '01', code: R, offset: 1 },
  { name: 'two strings', text: '"a""b"', code: R, offset: 3 },
  { name: 'one bracket too many', text: '[1]]', code: R, offset: 3 },
  { name: 'a literal with more letters at the top', text: 'nulll', code: R, offset: 4 },
  { name: 'a comment after the value', text: '[1]//c', code: R, offset: 3 },
];

/** Valid JSON texts (the y_* side), several of them near a fault above. */
export const validTexts: readonly string[] = [
  '[]',
  '{}',
  ' [ ] ',
  '0',
  '-0',
  '0e0',
  '1E+2',
  '-1.5e-3',
  '123456789012345678901234567890',
  '1e400',
  '"\\uD800"',
  '"\\uDC00\\uD800"',
  '"\\/\\b\\f\\n\\r\\t\\"\\\\"',
  '"é😀"',
  '{"a":[1,{"b":null}],"c":true,"d":false}',
  '\t\n\r [\t\n\r 1\t\n\r ,\t\n\r 2\t\n\r ]\t\n\r ',
  `${bom}{"a":1}`,
  `${bom}"x"`,
  '[[[[[[[[[[]]]]]]]]]]',
];
