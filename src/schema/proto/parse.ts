/**
 * The .proto grammar (proto2 and proto3), read by recursive descent into the plain AST of ast.ts:
 * syntax, package, imports, options, messages (fields with labels, groups, oneofs, maps, nested
 * types, extension ranges, reserved numbers and names, extend blocks), enums (values, aliases,
 * reserved), extend blocks and services with their rpcs. The statements and their errors follow
 * protoc's parser, so a text protoc's parser refuses is refused here, at the same place; the rules
 * that need the whole file (names defined twice, numbers, reserved ranges) are check.ts's. Files
 * and messages are read here; numbers, ranges and enums in parse-numbers.ts, options and their
 * values in parse-options.ts, services in parse-service.ts.
 *
 * Each token is looked at once and every list is built by appending, so the parse is linear in the
 * text; names are never object keys. Recursion follows nesting, which is bounded: messages nest at
 * most 31 deep (protoc's limit), option values 100.
 */
import type {
  ProtoEnumAst,
  ProtoExtendAst,
  ProtoExtensionRange,
  ProtoFieldAst,
  ProtoFileAst,
  ProtoImport,
  ProtoLabelAst,
  ProtoMessageAst,
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
import { fieldNumber, readEnum, readExtensionRanges, readReserved } from './parse-numbers.js';
import {
  consume,
  expect,
  identifier,
  readBracketedOptions,
  readOptionStatement,
  readStrings,
  readTypeName,
} from './parse-options.js';
import { readService } from './parse-service.js';
import { Tokenizer } from './tokenizer.js';

/** How deeply messages (and groups) nest: protoc refuses the 32nd level. */
const maxMessageDepth = 31;

const protoScalars: ReadonlySet<string> = new Set<ProtoScalar>([
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
      } else if (tokens.is('option')) options.push(readOptionStatement(tokens, this.budget));
      else if (tokens.is('message')) messages.push(this.message(1));
      else if (tokens.is('enum')) enums.push(readEnum(tokens, this.budget));
      else if (tokens.is('service')) services.push(readService(tokens, this.budget));
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
      else if (tokens.is('enum')) enums.push(readEnum(tokens, this.budget));
      else if (tokens.is('extensions')) extensionRanges.push(...readExtensionRanges(tokens, this.budget));
      else if (tokens.is('reserved'))
        readReserved(tokens, this.budget, reservedRanges, reservedNames, 'field');
      else if (tokens.is('extend')) extendBlocks.push(this.extend(depth + 1));
      else if (tokens.is('option')) options.push(readOptionStatement(tokens, this.budget));
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
      } else named = readTypeName(tokens, 'as a field type');
    }
    const at = tokens.position();
    this.budget.count(at);
    let name = identifier(tokens, 'as the field name');
    expect(tokens, '=', `after field ${name}`);
    const number = fieldNumber(tokens);
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
      value = { kind: 'named', name: readTypeName(tokens, 'as a map value type') };
    }
    expect(tokens, '>', 'to close a map type');
    return { kind: 'map', key: key as ProtoScalar, value };
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
      if (tokens.is('option')) options.push(readOptionStatement(tokens, this.budget));
      else fields.push(this.field('oneof', index, depth));
    } while (!consume(tokens, '}'));
  }

  /** `extend Foo { fields }`; `depth` is the level groups inside it are declared at. */
  private extend(depth: number): ProtoExtendAst {
    const tokens = this.tokens;
    tokens.next();
    const at = tokens.position();
    this.budget.count(at);
    const extendee = readTypeName(tokens, 'as the extended message');
    expect(tokens, '{', `to open extend ${extendee}`);
    const fields: ProtoFieldAst[] = [];
    while (!consume(tokens, '}')) {
      if (tokens.kind === 'end') tokens.fail(`the text ends inside extend ${extendee} (missing "}")`);
      if (consume(tokens, ';')) continue;
      fields.push(this.field('extend', undefined, depth));
    }
    return { extendee, fields, at };
  }
}
