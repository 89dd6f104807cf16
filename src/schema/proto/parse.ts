/**
 * The .proto grammar (proto2 and proto3), read by recursive descent into the plain AST of ast.ts:
 * syntax, package, imports, options, messages (fields with labels, groups, oneofs, maps, nested
 * types, extension ranges, reserved numbers and names, extend blocks), enums (values, aliases,
 * reserved), extend blocks and services with their rpcs. The statements and their errors follow
 * protoc's parser, so a text protoc's parser refuses is refused here, at the same place; the rules
 * that need the whole file (names defined twice, numbers, reserved ranges) are check.ts's.
 *
 * Each token is looked at once and every list is built by appending, so the parse is linear in the
 * text; names are never object keys. Recursion follows nesting, which is bounded: messages nest at
 * most 31 deep (protoc's limit), option values 100.
 */
import type {
  ProtoEnumAst,
  ProtoEnumValueAst,
  ProtoExtendAst,
  ProtoExtensionRange,
  ProtoFieldAst,
  ProtoFileAst,
  ProtoImport,
  ProtoLabelAst,
  ProtoMessageAst,
  ProtoMethodAst,
  ProtoOneofAst,
  ProtoOption,
  ProtoPosition,
  ProtoRange,
  ProtoReservedName,
  ProtoScalar,
  ProtoServiceAst,
  ProtoSyntax,
  ProtoTypeAst,
} from './ast.js';
import { protoError } from './errors.js';
import { ParseBudget } from './parse-budget.js';
import {
  consume,
  expect,
  identifier,
  integerOf,
  readBracketedOptions,
  readOption,
  readStrings,
} from './parse-options.js';
import { Tokenizer } from './tokenizer.js';

/** Protocol Buffers' largest field number, 2^29 - 1. */
export const maxProtoFieldNumber = 536_870_911;
const int32Max = 2_147_483_647;
/** How deeply messages (and groups) nest: protoc refuses the 32nd level. */
export const maxMessageDepth = 31;

export const protoScalars: ReadonlySet<string> = new Set<ProtoScalar>([
  ...(['double', 'float', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64'] as const),
  ...(['fixed32', 'fixed64', 'sfixed32', 'sfixed64', 'bool', 'string', 'bytes'] as const),
]);

/** Parses a .proto text's grammar into its AST (no file-wide rules: see `parseProto`). */
export function parseProtoSyntax(text: string, maxNodes: number): ProtoFileAst {
  return new ProtoParser(text, new ParseBudget(maxNodes)).file();
}

type FieldContext = 'message' | 'oneof' | 'extend';

class ProtoParser {
  private readonly tokens: Tokenizer;
  private syntax: ProtoSyntax = 'proto2';

  constructor(
    text: string,
    private readonly budget: ParseBudget,
  ) {
    this.tokens = new Tokenizer(text);
  }

  file(): ProtoFileAst {
    const tokens = this.tokens;
    let syntaxDeclared = false;
    if (tokens.is('syntax') || tokens.is('edition')) {
      this.syntaxStatement();
      syntaxDeclared = true;
    }
    let packageName: string | undefined;
    const imports: ProtoImport[] = [];
    const options: ProtoOption[] = [];
    const messages: ProtoMessageAst[] = [];
    const enums: ProtoEnumAst[] = [];
    const extendBlocks: ProtoExtendAst[] = [];
    const services: ProtoServiceAst[] = [];
    while (tokens.kind !== 'end') {
      if (consume(tokens, ';')) continue;
      const at = tokens.position();
      if (tokens.is('import')) imports.push(this.importStatement());
      else if (tokens.is('package')) {
        if (packageName !== undefined) tokens.fail('the file declares its package twice');
        packageName = this.packageStatement();
      } else if (tokens.is('option')) options.push(this.optionStatement());
      else if (tokens.is('message')) messages.push(this.message(1));
      else if (tokens.is('enum')) enums.push(this.enumeration());
      else if (tokens.is('service')) services.push(this.service());
      else if (tokens.is('extend')) extendBlocks.push(this.extend(1));
      else
        protoError(
          'expected a top-level statement (message, enum, service, extend, import, package or option)',
          at,
        );
    }
    return {
      syntax: this.syntax,
      syntaxDeclared,
      package: packageName ?? '',
      imports,
      options,
      messages,
      enums,
      extends: extendBlocks,
      services,
    };
  }

  private syntaxStatement(): void {
    const tokens = this.tokens;
    const edition = tokens.is('edition');
    tokens.next();
    expect(tokens, '=', `after "${edition ? 'edition' : 'syntax'}"`);
    const at = tokens.position();
    if (tokens.kind !== 'string') tokens.fail('expected a string naming the syntax');
    const value = readStrings(tokens);
    if (edition) protoError(`edition "${value.slice(0, 40)}" is not supported (proto2 and proto3 are)`, at);
    if (value !== 'proto2' && value !== 'proto3')
      protoError(`syntax "${value.slice(0, 40)}" is neither proto2 nor proto3`, at);
    this.syntax = value;
    expect(tokens, ';', 'after the syntax statement');
  }

  private importStatement(): ProtoImport {
    const tokens = this.tokens;
    const at = tokens.position();
    this.budget.count(at);
    tokens.next();
    let modifier: ProtoImport['modifier'] = 'none';
    if (tokens.is('public') || tokens.is('weak')) {
      modifier = tokens.text as 'public' | 'weak';
      tokens.next();
    }
    if (tokens.kind !== 'string') tokens.fail('expected a string naming the imported file');
    const path = readStrings(tokens);
    expect(tokens, ';', 'after an import');
    return { path, modifier, at };
  }

  private packageStatement(): string {
    const tokens = this.tokens;
    this.budget.count(tokens.position());
    tokens.next();
    let name = identifier(tokens, 'as the package name');
    while (consume(tokens, '.')) name += `.${identifier(tokens, 'in the package name')}`;
    expect(tokens, ';', 'after the package name');
    return name;
  }

  private optionStatement(): ProtoOption {
    this.tokens.next();
    const option = readOption(this.tokens, this.budget);
    expect(this.tokens, ';', 'after an option');
    return option;
  }

  /** `message Name { ... }`; `depth` is its nesting level, 1 at the top. */
  private message(depth: number): ProtoMessageAst {
    const tokens = this.tokens;
    tokens.next();
    const at = tokens.position();
    this.budget.count(at);
    const name = identifier(tokens, 'as the message name');
    return this.messageBody(name, at, depth);
  }

  private messageBody(name: string, at: ProtoPosition, depth: number): ProtoMessageAst {
    const tokens = this.tokens;
    if (depth > maxMessageDepth) protoError(`messages nest deeper than ${maxMessageDepth} levels`, at);
    expect(tokens, '{', `to open message ${name}`);
    const fields: ProtoFieldAst[] = [];
    const oneofs: ProtoOneofAst[] = [];
    const messages: ProtoMessageAst[] = [];
    const enums: ProtoEnumAst[] = [];
    const extendBlocks: ProtoExtendAst[] = [];
    const extensionRanges: ProtoExtensionRange[] = [];
    const reservedRanges: ProtoRange[] = [];
    const reservedNames: ProtoReservedName[] = [];
    const options: ProtoOption[] = [];
    while (!consume(tokens, '}')) {
      if (tokens.kind === 'end') tokens.fail(`the text ends inside message ${name} (missing "}")`);
      if (consume(tokens, ';')) continue;
      if (tokens.is('message')) messages.push(this.message(depth + 1));
      else if (tokens.is('enum')) enums.push(this.enumeration());
      else if (tokens.is('extensions')) extensionRanges.push(...this.extensionRanges());
      else if (tokens.is('reserved')) this.reserved(reservedRanges, reservedNames, 'field');
      else if (tokens.is('extend')) extendBlocks.push(this.extend(depth + 1));
      else if (tokens.is('option')) options.push(this.optionStatement());
      else if (tokens.is('oneof')) this.oneof(fields, oneofs, depth);
      else fields.push(this.field('message', undefined, depth));
    }
    return {
      name,
      at,
      fields,
      oneofs,
      messages,
      enums,
      extends: extendBlocks,
      extensionRanges,
      reserved: { ranges: reservedRanges, names: reservedNames },
      options,
    };
  }

  /** A field, map field or group; in a oneof its `oneof` is the oneof's index. */
  private field(context: FieldContext, oneof: number | undefined, depth: number): ProtoFieldAst {
    const tokens = this.tokens;
    const start = tokens.position();
    let label: ProtoLabelAst | undefined;
    if (tokens.is('required') || tokens.is('optional') || tokens.is('repeated')) {
      if (context === 'oneof')
        tokens.fail('fields in a oneof take no label (required, optional or repeated)');
      label = tokens.text as ProtoLabelAst;
      if (label === 'required' && this.syntax === 'proto3')
        tokens.fail('required fields are not allowed in proto3');
      tokens.next();
    }
    let type: ProtoTypeAst | undefined;
    let named = '';
    if (tokens.is('map')) {
      tokens.next();
      if (tokens.is('<')) type = this.mapType(start, label, context);
      else named = 'map';
    }
    const group = type === undefined && named === '' && tokens.is('group');
    if (
      type === undefined &&
      !group &&
      label === undefined &&
      context !== 'oneof' &&
      this.syntax === 'proto2'
    ) {
      protoError('expected "required", "optional" or "repeated" (proto2 fields need a label)', start);
    }
    if (group) {
      if (this.syntax === 'proto3') tokens.fail('groups are not supported in proto3');
      tokens.next();
    } else if (type === undefined && named === '') {
      if (tokens.kind === 'identifier' && protoScalars.has(tokens.text)) {
        type = { kind: 'scalar', scalar: tokens.text as ProtoScalar };
        tokens.next();
      } else named = this.typeName('as a field type');
    }
    const at = tokens.position();
    this.budget.count(at);
    let name = identifier(tokens, 'as the field name');
    expect(tokens, '=', `after field ${name}`);
    const number = this.fieldNumber();
    const options = readBracketedOptions(tokens, this.budget);
    if (group) {
      if (!/^[A-Z]/.test(name)) protoError('a group name must start with a capital letter', at);
      const message = this.messageBody(name, at, depth + 1);
      type = { kind: 'group', message };
      name = name.toLowerCase();
    } else expect(tokens, ';', `after field ${name}`);
    return {
      name,
      number,
      label,
      type: type ?? { kind: 'named', name: named },
      oneof,
      options,
      at,
    };
  }

  private mapType(at: ProtoPosition, label: ProtoLabelAst | undefined, context: FieldContext): ProtoTypeAst {
    const tokens = this.tokens;
    if (label !== undefined) protoError('a map field takes no label (required, optional or repeated)', at);
    if (context === 'oneof') protoError('map fields are not allowed in a oneof', at);
    if (context === 'extend') protoError('map fields cannot be extensions', at);
    tokens.next();
    const keyAt = tokens.position();
    const key = tokens.kind === 'identifier' ? tokens.text : '';
    if (!protoScalars.has(key) || key === 'double' || key === 'float' || key === 'bytes') {
      protoError('a map key must be an integer, bool or string type', keyAt);
    }
    tokens.next();
    expect(tokens, ',', 'after a map key type');
    let value: { kind: 'scalar'; scalar: ProtoScalar } | { kind: 'named'; name: string };
    if (tokens.kind === 'identifier' && protoScalars.has(tokens.text)) {
      value = { kind: 'scalar', scalar: tokens.text as ProtoScalar };
      tokens.next();
    } else {
      if (tokens.is('group')) tokens.fail('a map value cannot be a group');
      value = { kind: 'named', name: this.typeName('as a map value type') };
    }
    expect(tokens, '>', 'to close a map type');
    return { kind: 'map', key: key as ProtoScalar, value };
  }

  /** A type name as written: `[.]ident{.ident}`. */
  private typeName(where: string): string {
    const tokens = this.tokens;
    let name = consume(tokens, '.') ? '.' : '';
    name += identifier(tokens, where);
    while (consume(tokens, '.')) name += `.${identifier(tokens, 'in a type name')}`;
    return name;
  }

  /** A field number as protoc's parser reads it: an unsigned integer within int32. */
  private fieldNumber(): number {
    const tokens = this.tokens;
    if (tokens.kind !== 'integer') tokens.fail('expected a field number');
    const value = integerOf(tokens.text);
    if (value > BigInt(int32Max)) tokens.fail('integer out of range');
    tokens.next();
    return Number(value);
  }

  /** A signed integer within int32 (an enum value or an enum's reserved number). */
  private signedInt32(): number {
    const tokens = this.tokens;
    const negative = consume(tokens, '-');
    if (tokens.kind !== 'integer') tokens.fail('expected an integer');
    const magnitude = integerOf(tokens.text);
    if (magnitude > BigInt(int32Max) + (negative ? 1n : 0n)) tokens.fail('integer out of range');
    tokens.next();
    return negative ? -Number(magnitude) : Number(magnitude);
  }

  private oneof(fields: ProtoFieldAst[], oneofs: ProtoOneofAst[], depth: number): void {
    const tokens = this.tokens;
    tokens.next();
    const at = tokens.position();
    this.budget.count(at);
    const name = identifier(tokens, 'as the oneof name');
    expect(tokens, '{', `to open oneof ${name}`);
    const options: ProtoOption[] = [];
    const index = oneofs.length;
    oneofs.push({ name, options, at });
    // At least one statement, as protoc's parser reads a oneof; check.ts asks for a field.
    do {
      if (tokens.kind === 'end') tokens.fail(`the text ends inside oneof ${name} (missing "}")`);
      if (tokens.is('option')) options.push(this.optionStatement());
      else fields.push(this.field('oneof', index, depth));
    } while (!consume(tokens, '}'));
  }

  /** `extensions 100 to 199, 500 [options];` */
  private extensionRanges(): ProtoExtensionRange[] {
    const tokens = this.tokens;
    tokens.next();
    const ranges: ProtoRange[] = [];
    do ranges.push(this.range('field'));
    while (consume(tokens, ','));
    const options = readBracketedOptions(tokens, this.budget);
    expect(tokens, ';', 'after extension ranges');
    return ranges.map((range) => ({ ...range, options }));
  }

  /** `reserved 2, 15, 9 to 11;` or `reserved "foo", "bar";` */
  private reserved(ranges: ProtoRange[], names: ProtoReservedName[], of: 'field' | 'enum'): void {
    const tokens = this.tokens;
    tokens.next();
    if (tokens.kind === 'string') {
      do {
        const at = tokens.position();
        this.budget.count(at);
        if (tokens.kind !== 'string') tokens.fail('expected a reserved name (a string)');
        names.push({ name: readStrings(tokens), at });
      } while (consume(tokens, ','));
    } else {
      do ranges.push(this.range(of));
      while (consume(tokens, ','));
    }
    expect(tokens, ';', 'after reserved numbers or names');
  }

  /** `N`, `N to M` or `N to max`, inclusive; field numbers are unsigned, enum numbers signed. */
  private range(of: 'field' | 'enum'): ProtoRange {
    const tokens = this.tokens;
    const at = tokens.position();
    this.budget.count(at);
    const read = () => (of === 'enum' ? this.signedInt32() : this.fieldNumber());
    if (tokens.kind !== 'integer' && !tokens.is('-')) tokens.fail('expected a number or a range');
    const start = read();
    if (!consume(tokens, 'to')) return { start, end: start, toMax: false, at };
    if (consume(tokens, 'max'))
      return { start, end: of === 'enum' ? int32Max : maxProtoFieldNumber, toMax: true, at };
    return { start, end: read(), toMax: false, at };
  }

  private enumeration(): ProtoEnumAst {
    const tokens = this.tokens;
    tokens.next();
    const at = tokens.position();
    this.budget.count(at);
    const name = identifier(tokens, 'as the enum name');
    expect(tokens, '{', `to open enum ${name}`);
    const values: ProtoEnumValueAst[] = [];
    const options: ProtoOption[] = [];
    const ranges: ProtoRange[] = [];
    const names: ProtoReservedName[] = [];
    while (!consume(tokens, '}')) {
      if (tokens.kind === 'end') tokens.fail(`the text ends inside enum ${name} (missing "}")`);
      if (consume(tokens, ';')) continue;
      if (tokens.is('option')) options.push(this.optionStatement());
      else if (tokens.is('reserved')) this.reserved(ranges, names, 'enum');
      else {
        const valueAt = tokens.position();
        this.budget.count(valueAt);
        const valueName = identifier(tokens, 'as an enum value name');
        expect(tokens, '=', `after enum value ${valueName}`);
        const number = this.signedInt32();
        const valueOptions = readBracketedOptions(tokens, this.budget);
        expect(tokens, ';', `after enum value ${valueName}`);
        values.push({ name: valueName, number, options: valueOptions, at: valueAt });
      }
    }
    return { name, values, reserved: { ranges, names }, options, at };
  }

  /** `extend Foo { fields }`; `depth` is the level groups inside it are declared at. */
  private extend(depth: number): ProtoExtendAst {
    const tokens = this.tokens;
    tokens.next();
    const at = tokens.position();
    this.budget.count(at);
    const extendee = this.typeName('as the extended message');
    expect(tokens, '{', `to open extend ${extendee}`);
    const fields: ProtoFieldAst[] = [];
    while (!consume(tokens, '}')) {
      if (tokens.kind === 'end') tokens.fail(`the text ends inside extend ${extendee} (missing "}")`);
      if (consume(tokens, ';')) continue;
      fields.push(this.field('extend', undefined, depth));
    }
    return { extendee, fields, at };
  }

  private service(): ProtoServiceAst {
    const tokens = this.tokens;
    tokens.next();
    const at = tokens.position();
    this.budget.count(at);
    const name = identifier(tokens, 'as the service name');
    expect(tokens, '{', `to open service ${name}`);
    const methods: ProtoMethodAst[] = [];
    const options: ProtoOption[] = [];
    while (!consume(tokens, '}')) {
      if (tokens.kind === 'end') tokens.fail(`the text ends inside service ${name} (missing "}")`);
      if (consume(tokens, ';')) continue;
      if (tokens.is('option')) options.push(this.optionStatement());
      else if (tokens.is('rpc')) methods.push(this.method());
      else tokens.fail('expected "rpc" or "option" in a service');
    }
    return { name, methods, options, at };
  }

  /** `rpc Name (stream? In) returns (stream? Out);` or with `{ options }`. */
  private method(): ProtoMethodAst {
    const tokens = this.tokens;
    tokens.next();
    const at = tokens.position();
    this.budget.count(at);
    const name = identifier(tokens, 'as the method name');
    const argument = (what: string): [string, boolean] => {
      expect(tokens, '(', `before the ${what} type`);
      const stream = consume(tokens, 'stream');
      const type = this.typeName(`as the ${what} type`);
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
        options.push(this.optionStatement());
      }
    } else expect(tokens, ';', `after rpc ${name}`);
    return { name, input, inputStream, output, outputStream, options, at };
  }
}
