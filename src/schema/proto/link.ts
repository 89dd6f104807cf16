/**
 * A parsed .proto file with its names resolved against itself and the files it imports, by
 * protoc's rules: a name with a leading dot is looked up from the root; any other is looked up from
 * the innermost scope outwards, where the first part of a dotted name (`Outer.Inner`) settles the
 * scope once something of that name is found (a field or a value is passed over, as protoc passes
 * it). Then the rules that need the resolved names: a field's type is a message or an enum (not a
 * field, nor a map's entry message), an enum field's default is one of its values and a message
 * field has none, an extension extends a message within its extension ranges and takes each
 * number once (in proto3, only an options message), an rpc's request and response are messages.
 *
 * The imported files are given as parsed ASTs; which files those are (include paths, built-in
 * well-known types) is the caller's business. A file sees the names of the files it imports and of
 * the files those import publicly, as protoc lets it.
 */
import type {
  ProtoEnumAst,
  ProtoExtendAst,
  ProtoFieldAst,
  ProtoFileAst,
  ProtoMessageAst,
  ProtoMethodAst,
  ProtoPosition,
} from './ast.js';
import { inRanges, sortedRanges } from './check.js';
import { protoError } from './errors.js';
import { collectSymbols, isAggregate, isType, type ProtoSymbol, qualify } from './symbols.js';

/** A message or enum a name resolved to. */
export type ProtoDeclaration =
  | { readonly fullName: string; readonly symbol: Extract<ProtoSymbol, { kind: 'message' }> }
  | { readonly fullName: string; readonly symbol: Extract<ProtoSymbol, { kind: 'enum' }> };

export interface LinkedProto {
  readonly file: ProtoFileAst;
  /** Every name this file and the files it sees define, by full name. */
  readonly symbols: ReadonlyMap<string, ProtoSymbol>;
  /** What each field's named type (a map field's value type, a group's message) resolves to. */
  readonly fieldTypes: ReadonlyMap<ProtoFieldAst, ProtoDeclaration>;
  /** The message each extend block extends. */
  readonly extendees: ReadonlyMap<ProtoExtendAst, ProtoDeclaration>;
  /** The request and response messages of each rpc. */
  readonly methods: ReadonlyMap<
    ProtoMethodAst,
    { readonly input: ProtoDeclaration; readonly output: ProtoDeclaration }
  >;
}

/** Files by the path an import names them; undefined for one the caller cannot find. */
export type ProtoImports = (path: string) => ProtoFileAst | undefined;

export function linkProto(file: ProtoFileAst, imports: ProtoImports): LinkedProto {
  const symbols = new Map<string, ProtoSymbol>();
  const seen = new Set<ProtoFileAst>();
  const see = (visible: ProtoFileAst): void => {
    if (seen.has(visible)) return;
    seen.add(visible);
    collectSymbols(visible, symbols);
  };
  see(file);
  const publicOf = (imported: ProtoFileAst, at: ProtoPosition): void => {
    for (const next of imported.imports) {
      if (next.modifier !== 'public') continue;
      const found = imports(next.path);
      if (found === undefined)
        protoError(`import "${next.path}" (made public by an import) is not found`, at);
      if (!seen.has(found)) {
        see(found);
        publicOf(found, at);
      }
    }
  };
  for (const item of file.imports) {
    const found = imports(item.path);
    if (found === undefined) protoError(`import "${item.path}" is not found`, item.at);
    see(found);
    publicOf(found, item.at);
  }
  return new Linker(file, symbols).link();
}

class Linker {
  private readonly fieldTypes = new Map<ProtoFieldAst, ProtoDeclaration>();
  private readonly extendees = new Map<ProtoExtendAst, ProtoDeclaration>();
  private readonly methods = new Map<ProtoMethodAst, { input: ProtoDeclaration; output: ProtoDeclaration }>();
  /** Each enum's value names, made when a default first needs them. */
  private readonly enumValues = new Map<ProtoEnumAst, Set<string>>();
  /** Extension numbers taken per extended message, by this file. */
  private readonly extensionNumbers = new Map<ProtoMessageAst, Map<number, string>>();

  constructor(
    private readonly file: ProtoFileAst,
    private readonly symbols: ReadonlyMap<string, ProtoSymbol>,
  ) {}

  link(): LinkedProto {
    const { file } = this;
    const scope = file.package;
    for (const message of file.messages) this.message(message, scope);
    for (const block of file.extends) this.extend(block, scope);
    for (const service of file.services) {
      const serviceName = qualify(scope, service.name);
      for (const method of service.methods) {
        const where = qualify(serviceName, method.name);
        const input = this.messageType(method.input, where, method.at);
        const output = this.messageType(method.output, where, method.at);
        this.methods.set(method, { input, output });
      }
    }
    return {
      file,
      symbols: this.symbols,
      fieldTypes: this.fieldTypes,
      extendees: this.extendees,
      methods: this.methods,
    };
  }

  private message(message: ProtoMessageAst, scope: string): void {
    const name = qualify(scope, message.name);
    for (const field of message.fields) this.field(field, name);
    for (const nested of message.messages) this.message(nested, name);
    for (const block of message.extends) this.extend(block, name);
  }

  /** Resolves a field's type; `scope` is the full name of the message (or scope) declaring it. */
  private field(field: ProtoFieldAst, scope: string): void {
    const where = qualify(scope, field.name);
    const type = field.type;
    let written: string | undefined;
    if (type.kind === 'named') written = type.name;
    else if (type.kind === 'map' && type.value.kind === 'named') written = type.value.name;
    if (type.kind === 'group') {
      const fullName = qualify(scope, type.message.name);
      const symbol = this.symbols.get(fullName);
      if (symbol?.kind !== 'message') protoError(`the group ${type.message.name} is not defined`, field.at);
      this.fieldTypes.set(field, { fullName, symbol });
      this.message(type.message, scope);
      return;
    }
    if (written === undefined) return;
    const declaration = this.typeNamed(written, where, field.at);
    this.fieldTypes.set(field, declaration);
    if (
      declaration.symbol.kind === 'enum' &&
      this.file.syntax === 'proto3' &&
      declaration.symbol.file.syntax === 'proto2'
    ) {
      protoError(
        `enum ${declaration.fullName} is a proto2 enum, which a proto3 message cannot use`,
        field.at,
      );
    }
    const fallback = field.options.find(
      (option) =>
        option.name.length === 1 && !option.name[0]?.extension && option.name[0]?.name === 'default',
    );
    if (fallback === undefined || type.kind !== 'named') return;
    if (declaration.symbol.kind === 'message') protoError('messages cannot have default values', fallback.at);
    const value = fallback.value.kind === 'identifier' ? fallback.value.value : '';
    if (!this.valueNames(declaration.symbol.enumeration).has(value)) {
      protoError(`enum ${declaration.fullName} has no value named "${value}"`, fallback.at);
    }
  }

  private valueNames(enumeration: ProtoEnumAst): Set<string> {
    let names = this.enumValues.get(enumeration);
    if (names === undefined) {
      names = new Set(enumeration.values.map((value) => value.name));
      this.enumValues.set(enumeration, names);
    }
    return names;
  }

  private extend(block: ProtoExtendAst, scope: string): void {
    // Resolved as protoc resolves it, from the scope the block is written in.
    const extendee = this.messageType(block.extendee, qualify(scope, 'extend'), block.at);
    this.extendees.set(block, extendee);
    const message = extendee.symbol.kind === 'message' ? extendee.symbol.message : undefined;
    if (message === undefined) return;
    if (this.file.syntax === 'proto3' && !/^google\.protobuf\.[A-Za-z]*Options$/.test(extendee.fullName)) {
      protoError('extensions in proto3 may only define options (extend google.protobuf.*Options)', block.at);
    }
    const ranges = sortedRanges(message.extensionRanges);
    let taken = this.extensionNumbers.get(message);
    if (taken === undefined) {
      taken = new Map();
      this.extensionNumbers.set(message, taken);
    }
    for (const field of block.fields) {
      if (inRanges(ranges, field.number) === undefined) {
        protoError(`${extendee.fullName} does not declare ${field.number} as an extension number`, field.at);
      }
      const other = taken.get(field.number);
      if (other !== undefined)
        protoError(
          `extension number ${field.number} of ${extendee.fullName} is taken by "${other}"`,
          field.at,
        );
      taken.set(field.number, field.name);
      this.field(field, scope);
    }
  }

  /**
   * An rpc's request or response, or an extendee. protoc looks these up among all symbols, not
   * types only (its LOOKUP_ALL, where a field's type is LOOKUP_TYPES): the first symbol met ends the
   * search, so in `rpc Ping (Ping)` the method Ping hides the message Ping.
   */
  private messageType(name: string, where: string, at: ProtoPosition): ProtoDeclaration {
    const [fullName, symbol] = this.lookup(name, where, at, 'all');
    if (symbol.kind !== 'message') protoError(`"${name}" is not a message type`, at);
    return { fullName, symbol } as ProtoDeclaration;
  }

  private typeNamed(name: string, where: string, at: ProtoPosition): ProtoDeclaration {
    const [fullName, symbol] = this.lookup(name, where, at);
    if (symbol.kind === 'map-entry')
      protoError(`"${name}" is the entry message of a map field, which cannot be named`, at);
    if (symbol.kind !== 'message' && symbol.kind !== 'enum') protoError(`"${name}" is not a type`, at);
    return { fullName, symbol } as ProtoDeclaration;
  }

  /**
   * protoc's lookup of a type name written in the scope whose full name is `relativeTo`: with
   * `types`, a symbol that is not a type (a field, a method) is passed over; with `all` it is found.
   */
  private lookup(
    name: string,
    relativeTo: string,
    at: ProtoPosition,
    among: 'types' | 'all' = 'types',
  ): [string, ProtoSymbol] {
    const { symbols } = this;
    if (name.startsWith('.')) {
      const found = symbols.get(name.slice(1));
      if (found === undefined) protoError(`"${name}" is not defined`, at);
      return [name.slice(1), found];
    }
    const dot = name.indexOf('.');
    const first = dot === -1 ? name : name.slice(0, dot);
    let scope = relativeTo;
    for (;;) {
      const end = scope.lastIndexOf('.');
      if (end === -1) {
        const found = symbols.get(name);
        if (found === undefined) protoError(`"${name}" is not defined`, at);
        return [name, found];
      }
      scope = scope.slice(0, end);
      const found = symbols.get(qualify(scope, first));
      if (found === undefined) continue;
      if (dot !== -1) {
        if (!isAggregate(found)) continue;
        const fullName = qualify(scope, name);
        const inner = symbols.get(fullName);
        if (inner === undefined) {
          protoError(
            `"${name}" is resolved to "${fullName}", which is not defined (the innermost scope is searched first; ".${name}" starts from the root)`,
            at,
          );
        }
        return [fullName, inner];
      }
      if (among === 'all' || isType(found)) return [qualify(scope, first), found];
    }
  }
}
