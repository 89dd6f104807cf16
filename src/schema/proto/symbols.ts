/**
 * The names a .proto file defines, by full name, as protoc's symbol table holds them: each prefix
 * of the package, messages (groups' messages and the entry messages protoc makes for map fields
 * included), enums, enum values (siblings of their enum, C++ style: `shop.PAID`, not
 * `shop.Status.PAID`), fields, oneofs, extensions, services and methods. Two definitions of one
 * full name are refused as protoc refuses them, which is also what makes a name resolve to one
 * declaration.
 *
 * A Map by full name: a name is data, so a message called `__proto__` is one like any other.
 */
import type {
  ProtoEnumAst,
  ProtoExtendAst,
  ProtoFieldAst,
  ProtoFileAst,
  ProtoMessageAst,
  ProtoPosition,
} from './ast.js';
import { protoError } from './errors.js';

export type ProtoSymbol =
  | { readonly kind: 'package'; readonly file: ProtoFileAst }
  | {
      readonly kind: 'message';
      readonly message: ProtoMessageAst;
      /** A group's message, declared with its field. */
      readonly group: boolean;
      readonly file: ProtoFileAst;
    }
  /** The message protoc makes for a map field; a field may not name it as its type. */
  | { readonly kind: 'map-entry'; readonly field: ProtoFieldAst; readonly file: ProtoFileAst }
  | { readonly kind: 'enum'; readonly enumeration: ProtoEnumAst; readonly file: ProtoFileAst }
  | { readonly kind: 'enum-value' | 'field' | 'oneof' | 'method'; readonly file: ProtoFileAst }
  | { readonly kind: 'extension'; readonly field: ProtoFieldAst; readonly file: ProtoFileAst }
  | { readonly kind: 'service'; readonly file: ProtoFileAst };

/** Symbols a name can continue into (`Outer.Inner`): protoc's aggregates. */
export function isAggregate(symbol: ProtoSymbol): boolean {
  return (
    symbol.kind === 'package' ||
    symbol.kind === 'message' ||
    symbol.kind === 'map-entry' ||
    symbol.kind === 'enum' ||
    symbol.kind === 'service'
  );
}

/** Symbols that are types (what a field's type may name). */
export function isType(symbol: ProtoSymbol): boolean {
  return symbol.kind === 'message' || symbol.kind === 'map-entry' || symbol.kind === 'enum';
}

export function qualify(scope: string, name: string): string {
  return scope === '' ? name : `${scope}.${name}`;
}

/**
 * The name protoc gives a map field's entry message: `item_counts` → `ItemCountsEntry` (the
 * descriptor writer names the entry it makes by it, and the tests that build descriptors).
 */
export function mapEntryName(fieldName: string): string {
  let name = '';
  let upper = true;
  for (const char of fieldName) {
    if (char === '_') upper = true;
    else {
      name += upper && char >= 'a' && char <= 'z' ? char.toUpperCase() : char;
      upper = false;
    }
  }
  return `${name}Entry`;
}

/** Adds every name `file` defines to `table`; a name already there is refused. */
export function collectSymbols(file: ProtoFileAst, table: Map<string, ProtoSymbol>): void {
  new SymbolCollector(file, table).collect();
}

class SymbolCollector {
  constructor(
    private readonly file: ProtoFileAst,
    private readonly table: Map<string, ProtoSymbol>,
  ) {}

  collect(): void {
    const { file } = this;
    if (file.package !== '') {
      let prefix = '';
      for (const part of file.package.split('.')) {
        prefix = qualify(prefix, part);
        const existing = this.table.get(prefix);
        if (existing === undefined) this.table.set(prefix, { kind: 'package', file });
        else if (existing.kind !== 'package')
          protoError(`"${prefix}" is already defined (the package uses it)`, undefined);
      }
    }
    const scope = file.package;
    for (const message of file.messages) this.message(message, scope, false);
    for (const enumeration of file.enums) this.enumeration(enumeration, scope);
    for (const block of file.extends) this.extensions(block, scope);
    for (const service of file.services) {
      const name = qualify(scope, service.name);
      this.define(name, service.at, { kind: 'service', file });
      for (const method of service.methods)
        this.define(qualify(name, method.name), method.at, { kind: 'method', file });
    }
  }

  private message(message: ProtoMessageAst, scope: string, group: boolean): void {
    const { file } = this;
    const name = qualify(scope, message.name);
    this.define(name, message.at, { kind: 'message', message, group, file });
    for (const field of message.fields) {
      this.define(qualify(name, field.name), field.at, { kind: 'field', file });
      if (field.type.kind === 'group') this.message(field.type.message, name, true);
      else if (field.type.kind === 'map')
        this.define(qualify(name, mapEntryName(field.name)), field.at, { kind: 'map-entry', field, file });
    }
    for (const oneof of message.oneofs)
      this.define(qualify(name, oneof.name), oneof.at, { kind: 'oneof', file });
    for (const nested of message.messages) this.message(nested, name, false);
    for (const enumeration of message.enums) this.enumeration(enumeration, name);
    for (const block of message.extends) this.extensions(block, name);
  }

  private enumeration(enumeration: ProtoEnumAst, scope: string): void {
    const { file } = this;
    this.define(qualify(scope, enumeration.name), enumeration.at, { kind: 'enum', enumeration, file });
    for (const value of enumeration.values) {
      this.define(qualify(scope, value.name), value.at, { kind: 'enum-value', file }, enumeration.name);
    }
  }

  private extensions(block: ProtoExtendAst, scope: string): void {
    for (const field of block.fields) {
      this.define(qualify(scope, field.name), field.at, { kind: 'extension', field, file: this.file });
      if (field.type.kind === 'group') this.message(field.type.message, scope, true);
    }
  }

  /** `enumName` is set for an enum value, whose scope is its enum's parent (the note protoc adds). */
  private define(fullName: string, at: ProtoPosition, symbol: ProtoSymbol, enumName?: string): void {
    if (!this.table.has(fullName)) {
      this.table.set(fullName, symbol);
      return;
    }
    const dot = fullName.lastIndexOf('.');
    const name = fullName.slice(dot + 1);
    const scope = dot === -1 ? '' : fullName.slice(0, dot);
    const where = scope === '' ? '' : ` in "${scope}"`;
    const note =
      enumName === undefined
        ? ''
        : ` (enum values are siblings of their enum, not children of it, so "${name}" must be unique${where || ' at the top level'}, not just within "${enumName}")`;
    protoError(`"${name}" is already defined${where}${note}`, at);
  }
}
