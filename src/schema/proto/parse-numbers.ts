/**
 * The numbered parts of the .proto grammar: field numbers (unsigned, within int32, as protoc's
 * parser reads them; the range 1 to 2^29 - 1 is check.ts's), enum values (signed int32), number
 * ranges (`N`, `N to M`, `N to max`) of `reserved` and `extensions`, reserved names, and enums
 * themselves, which are values and ranges. Functions of the tokenizer and the node budget, used by
 * the parser (parse.ts).
 */
import type {
  ProtoEnumAst,
  ProtoEnumValueAst,
  ProtoExtensionRange,
  ProtoOption,
  ProtoRange,
  ProtoReservedName,
} from './ast.js';
import type { ParseBudget } from './parse-budget.js';
import {
  consume,
  expect,
  identifier,
  integerOf,
  readBracketedOptions,
  readOptionStatement,
  readStrings,
} from './parse-options.js';
import type { Tokenizer } from './tokenizer.js';

/** Protocol Buffers' largest field number, 2^29 - 1. */
export const maxProtoFieldNumber = 536_870_911;
const int32Max = 2_147_483_647;

/** A field number as protoc's parser reads it: an unsigned integer within int32. */
export function fieldNumber(tokens: Tokenizer): number {
  if (tokens.kind !== 'integer') tokens.fail('expected a field number');
  const value = integerOf(tokens.text);
  if (value > BigInt(int32Max)) tokens.fail('integer out of range');
  tokens.next();
  return Number(value);
}

/** A signed integer within int32 (an enum value or an enum's reserved number). */
function signedInt32(tokens: Tokenizer): number {
  const negative = consume(tokens, '-');
  if (tokens.kind !== 'integer') tokens.fail('expected an integer');
  const magnitude = integerOf(tokens.text);
  if (magnitude > BigInt(int32Max) + (negative ? 1n : 0n)) tokens.fail('integer out of range');
  tokens.next();
  return negative ? -Number(magnitude) : Number(magnitude);
}

/** `N`, `N to M` or `N to max`, inclusive; field numbers are unsigned, enum numbers signed. */
function readRange(tokens: Tokenizer, budget: ParseBudget, of: 'field' | 'enum'): ProtoRange {
  const at = tokens.position();
  budget.count(at);
  const read = () => (of === 'enum' ? signedInt32(tokens) : fieldNumber(tokens));
  if (tokens.kind !== 'integer' && !tokens.is('-')) tokens.fail('expected a number or a range');
  const start = read();
  if (!consume(tokens, 'to')) return { start, end: start, toMax: false, at };
  if (consume(tokens, 'max'))
    return { start, end: of === 'enum' ? int32Max : maxProtoFieldNumber, toMax: true, at };
  return { start, end: read(), toMax: false, at };
}

/** `extensions 100 to 199, 500 [options];` */
export function readExtensionRanges(tokens: Tokenizer, budget: ParseBudget): ProtoExtensionRange[] {
  tokens.next();
  const ranges: ProtoRange[] = [];
  do ranges.push(readRange(tokens, budget, 'field'));
  while (consume(tokens, ','));
  const options = readBracketedOptions(tokens, budget);
  expect(tokens, ';', 'after extension ranges');
  return ranges.map((range) => ({ ...range, options }));
}

/** `reserved 2, 15, 9 to 11;` or `reserved "foo", "bar";`, added to `ranges` or `names`. */
export function readReserved(
  tokens: Tokenizer,
  budget: ParseBudget,
  ranges: ProtoRange[],
  names: ProtoReservedName[],
  of: 'field' | 'enum',
): void {
  tokens.next();
  if (tokens.kind === 'string') {
    do {
      const at = tokens.position();
      budget.count(at);
      if (tokens.kind !== 'string') tokens.fail('expected a reserved name (a string)');
      names.push({ name: readStrings(tokens), at });
    } while (consume(tokens, ','));
  } else {
    do ranges.push(readRange(tokens, budget, of));
    while (consume(tokens, ','));
  }
  expect(tokens, ';', 'after reserved numbers or names');
}

/** `enum Name { VALUE = N [options]; option ...; reserved ...; }` */
export function readEnum(tokens: Tokenizer, budget: ParseBudget): ProtoEnumAst {
  tokens.next();
  const at = tokens.position();
  budget.count(at);
  const name = identifier(tokens, 'as the enum name');
  expect(tokens, '{', `to open enum ${name}`);
  const values: ProtoEnumValueAst[] = [];
  const options: ProtoOption[] = [];
  const ranges: ProtoRange[] = [];
  const names: ProtoReservedName[] = [];
  while (!consume(tokens, '}')) {
    if (tokens.kind === 'end') tokens.fail(`the text ends inside enum ${name} (missing "}")`);
    if (consume(tokens, ';')) continue;
    if (tokens.is('option')) options.push(readOptionStatement(tokens, budget));
    else if (tokens.is('reserved')) readReserved(tokens, budget, ranges, names, 'enum');
    else {
      const valueAt = tokens.position();
      budget.count(valueAt);
      const valueName = identifier(tokens, 'as an enum value name');
      expect(tokens, '=', `after enum value ${valueName}`);
      const number = signedInt32(tokens);
      const valueOptions = readBracketedOptions(tokens, budget);
      expect(tokens, ';', `after enum value ${valueName}`);
      values.push({ name: valueName, number, options: valueOptions, at: valueAt });
    }
  }
  return { name, values, reserved: { ranges, names }, options, at };
}
