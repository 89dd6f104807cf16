/**
 * Options as the .proto grammar writes them: `option (my.ext).part = value;` and `[name = value, ...]`
 * after a field, enum value or extension range. A value is a constant (identifier, signed number,
 * string, possibly several adjacent strings joined as protoc joins them) or, for a message-typed
 * option, an aggregate in braces written in the text format (`{ a: 1 b { c: "x" } d: [1, 2] }`),
 * read here into plain data. Options are kept as written: which options exist, and whether a value
 * fits an option's type, is the business of whoever interprets them.
 */
import type { ProtoAggregateField, ProtoConstant, ProtoOption, ProtoOptionNamePart } from './ast.js';
import type { ParseBudget } from './parse-budget.js';
import type { Tokenizer } from './tokenizer.js';

/** How deeply aggregate values nest (protoc's text format reader stops at 100 too). */
const maxAggregateDepth = 100;

const uint64Max = (1n << 64n) - 1n;
const int64MinMagnitude = 1n << 63n;

/** Reads `name = value` (the `option` keyword and the terminator are the caller's). */
function readOption(tokens: Tokenizer, budget: ParseBudget): ProtoOption {
  const at = tokens.position();
  budget.count(at);
  const name = readOptionName(tokens);
  expect(tokens, '=', 'after an option name');
  return { name, value: readConstant(tokens, budget, 0), at };
}

/** `option name = value;`, the keyword and the semicolon included. */
export function readOptionStatement(tokens: Tokenizer, budget: ParseBudget): ProtoOption {
  tokens.next();
  const option = readOption(tokens, budget);
  expect(tokens, ';', 'after an option');
  return option;
}

/** `[a = 1, (b).c = "x"]`, the brackets included; at least one option, as protoc asks. */
export function readBracketedOptions(tokens: Tokenizer, budget: ParseBudget): ProtoOption[] {
  if (!tokens.is('[')) return [];
  tokens.next();
  const options: ProtoOption[] = [];
  do options.push(readOption(tokens, budget));
  while (consume(tokens, ','));
  expect(tokens, ']', 'to close the options');
  return options;
}

function readOptionName(tokens: Tokenizer): ProtoOptionNamePart[] {
  const parts: ProtoOptionNamePart[] = [];
  do {
    if (consume(tokens, '(')) {
      let name = consume(tokens, '.') ? '.' : '';
      name += identifier(tokens, 'in an extension name');
      while (consume(tokens, '.')) name += `.${identifier(tokens, 'in an extension name')}`;
      expect(tokens, ')', 'to close an extension name');
      parts.push({ name, extension: true });
    } else {
      parts.push({ name: identifier(tokens, 'as an option name'), extension: false });
    }
  } while (consume(tokens, '.'));
  return parts;
}

/** A constant or an aggregate; `depth` counts the aggregates around it. */
function readConstant(tokens: Tokenizer, budget: ParseBudget, depth: number): ProtoConstant {
  if (tokens.is('{')) return readAggregate(tokens, budget, depth, '}');
  const scalar = readScalar(tokens);
  if (scalar === undefined) tokens.fail('expected an option value');
  return scalar;
}

/** An identifier, a number (a `-` before it), or strings; undefined when the token starts none. */
function readScalar(tokens: Tokenizer): ProtoConstant | undefined {
  const negative = tokens.is('-');
  if (negative) tokens.next();
  switch (tokens.kind) {
    case 'identifier': {
      const value = tokens.text;
      if (negative && value !== 'inf' && value !== 'nan')
        tokens.fail('a "-" may only precede a number, inf or nan');
      tokens.next();
      return { kind: 'identifier', value, negative };
    }
    case 'integer':
      return { kind: 'integer', value: integerValue(tokens, negative) };
    case 'float': {
      const value = Number(tokens.text);
      tokens.next();
      return { kind: 'float', value: negative ? -value : value };
    }
    case 'string':
      if (negative) tokens.fail('a "-" may not precede a string');
      return stringConstant(readOctets(tokens));
    default:
      if (negative) tokens.fail('a "-" must be followed by a number');
      return undefined;
  }
}

/** The current integer token's exact value as decimal text, within uint64 (or int64 when negative). */
function integerValue(tokens: Tokenizer, negative: boolean): string {
  const magnitude = integerOf(tokens.text);
  if (magnitude > (negative ? int64MinMagnitude : uint64Max)) tokens.fail('integer out of range');
  tokens.next();
  return negative && magnitude !== 0n ? `-${magnitude}` : `${magnitude}`;
}

/** An integer token's value: decimal, `0x` hex or `0` octal. */
export function integerOf(text: string): bigint {
  if (text.length > 1 && text[0] === '0' && (text[1] === 'x' || text[1] === 'X')) return BigInt(text);
  if (text.length > 1 && text[0] === '0') return BigInt(`0o${text.slice(1)}`);
  return BigInt(text);
}

/** One string token or several adjacent ones, joined (`"a" 'b'` is "ab", as in protoc and C). */
export function readStrings(tokens: Tokenizer): string {
  return stringConstant(readOctets(tokens)).value;
}

/** The bytes of adjacent string literals, one code unit each, decoded only once they are joined. */
function readOctets(tokens: Tokenizer): string {
  let octets = '';
  while (tokens.kind === 'string') {
    octets += tokens.text;
    tokens.next();
  }
  return octets;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

/** A string constant of a literal's bytes (one code unit each): its UTF-8 text, and the bytes when not UTF-8. */
export function stringConstant(octets: string): ProtoConstant & { kind: 'string' } {
  const bytes = Uint8Array.from(octets, (char) => char.charCodeAt(0));
  try {
    return { kind: 'string', value: strictUtf8.decode(bytes) };
  } catch {
    return { kind: 'string', value: lenientUtf8.decode(bytes), octets };
  }
}

/** `{ ... }` or `< ... >` of the text format, the delimiters included. */
function readAggregate(
  tokens: Tokenizer,
  budget: ParseBudget,
  depth: number,
  close: '}' | '>',
): ProtoConstant {
  if (depth >= maxAggregateDepth)
    tokens.fail(`an option value nests deeper than ${maxAggregateDepth} levels`);
  tokens.next();
  const fields: ProtoAggregateField[] = [];
  while (!consume(tokens, close)) {
    if (tokens.kind === 'end') tokens.fail(`the text ends inside an option value (missing "${close}")`);
    budget.count(tokens.position());
    const extension = tokens.is('[');
    const name = extension ? bracketedName(tokens) : identifier(tokens, 'as a field name in an option value');
    const colon = consume(tokens, ':');
    let value: ProtoAggregateField['value'];
    if (tokens.is('{') || tokens.is('<')) value = readAggregate(tokens, budget, depth + 1, closing(tokens));
    else if (!colon) tokens.fail('expected ":" after a field name in an option value');
    else if (tokens.is('[')) value = readList(tokens, budget, depth);
    else value = readConstant(tokens, budget, depth + 1);
    fields.push({ name, extension, value });
    if (!consume(tokens, ',')) consume(tokens, ';');
  }
  return { kind: 'aggregate', fields };
}

function closing(tokens: Tokenizer): '}' | '>' {
  return tokens.is('{') ? '}' : '>';
}

/** `[a, b]`: scalars or messages. */
function readList(tokens: Tokenizer, budget: ParseBudget, depth: number): ProtoAggregateField['value'] {
  tokens.next();
  const items: ProtoConstant[] = [];
  if (!consume(tokens, ']')) {
    do {
      budget.count(tokens.position());
      items.push(
        tokens.is('{') || tokens.is('<')
          ? readAggregate(tokens, budget, depth + 1, closing(tokens))
          : readConstant(tokens, budget, depth + 1),
      );
    } while (consume(tokens, ','));
    expect(tokens, ']', 'to close a list');
  }
  return { kind: 'list', items };
}

/** `[pkg.ext]` or an Any's `[type.googleapis.com/pkg.Message]`: the text between the brackets. */
function bracketedName(tokens: Tokenizer): string {
  tokens.next();
  let name = identifier(tokens, 'in a bracketed name');
  while (tokens.is('.') || tokens.is('/')) {
    name += tokens.text;
    tokens.next();
    name += identifier(tokens, 'in a bracketed name');
  }
  expect(tokens, ']', 'to close a bracketed name');
  return name;
}

/** A type name as written: `[.]ident{.ident}`. */
export function readTypeName(tokens: Tokenizer, where: string): string {
  let name = consume(tokens, '.') ? '.' : '';
  name += identifier(tokens, where);
  while (consume(tokens, '.')) name += `.${identifier(tokens, 'in a type name')}`;
  return name;
}

export function identifier(tokens: Tokenizer, where: string): string {
  if (tokens.kind !== 'identifier') tokens.fail(`expected an identifier ${where}`);
  const name = tokens.text;
  tokens.next();
  return name;
}

export function consume(tokens: Tokenizer, symbol: string): boolean {
  if (!tokens.is(symbol)) return false;
  tokens.next();
  return true;
}

export function expect(tokens: Tokenizer, symbol: string, why: string): void {
  if (!consume(tokens, symbol)) tokens.fail(`expected "${symbol}" ${why}`);
}
