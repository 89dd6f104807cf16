/**
 * Services in the .proto grammar: `service Name { option ...; rpc Method (stream? In) returns
 * (stream? Out); }`, an rpc's body holding only options. The types are kept as written; link.ts
 * resolves them to messages.
 */
import type { ProtoMethodAst, ProtoOption, ProtoServiceAst } from './ast.js';
import type { ParseBudget } from './parse-budget.js';
import { consume, expect, identifier, readOptionStatement, readTypeName } from './parse-options.js';
import type { Tokenizer } from './tokenizer.js';

export function readService(tokens: Tokenizer, budget: ParseBudget): ProtoServiceAst {
  tokens.next();
  const at = tokens.position();
  budget.count(at);
  const name = identifier(tokens, 'as the service name');
  expect(tokens, '{', `to open service ${name}`);
  const methods: ProtoMethodAst[] = [];
  const options: ProtoOption[] = [];
  while (!consume(tokens, '}')) {
    if (tokens.kind === 'end') tokens.fail(`the text ends inside service ${name} (missing "}")`);
    if (consume(tokens, ';')) continue;
    if (tokens.is('option')) options.push(readOptionStatement(tokens, budget));
    else if (tokens.is('rpc')) methods.push(readMethod(tokens, budget));
    else tokens.fail('expected "rpc" or "option" in a service');
  }
  return { name, methods, options, at };
}

/** `rpc Name (stream? In) returns (stream? Out);` or with `{ options }`. */
function readMethod(tokens: Tokenizer, budget: ParseBudget): ProtoMethodAst {
  tokens.next();
  const at = tokens.position();
  budget.count(at);
  const name = identifier(tokens, 'as the method name');
  const argument = (what: string): [string, boolean] => {
    expect(tokens, '(', `before the ${what} type`);
    const stream = consume(tokens, 'stream');
    const type = readTypeName(tokens, `as the ${what} type`);
    expect(tokens, ')', `after the ${what} type`);
    return [type, stream];
  };
  const [input, inputStream] = argument('request');
  if (!consume(tokens, 'returns')) tokens.fail('expected "returns" after the request type');
  const [output, outputStream] = argument('response');
  const options: ProtoOption[] = [];
  if (consume(tokens, '{')) {
    while (!consume(tokens, '}')) {
      if (tokens.kind === 'end') tokens.fail(`the text ends inside rpc ${name} (missing "}")`);
      if (consume(tokens, ';')) continue;
      if (!tokens.is('option')) tokens.fail('expected "option" in an rpc body');
      options.push(readOptionStatement(tokens, budget));
    }
  } else expect(tokens, ';', `after rpc ${name}`);
  return { name, input, inputStream, output, outputStream, options, at };
}
