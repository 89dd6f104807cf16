/**
 * A .proto file as written, in plain data: what `parseProto` returns. It follows the shape of
 * protoc's FileDescriptorProto (separate lists of messages, enums, services and extensions, each in
 * declaration order; a message's fields in declaration order with oneof members in place, pointing
 * at their oneof) so that anything built from a descriptor can be built from this, with what a
 * descriptor loses kept: where each declaration starts (for errors), how a label or a type was
 * written, and options as written (their names and values, not interpreted).
 *
 * Type names are kept as written (`Line`, `.shop.Line`, `google.protobuf.Timestamp`); resolving
 * them is `resolve.ts`'s, since it needs the other files a file imports. Names are plain strings
 * in arrays, never keys of plain objects: `__proto__` is a name like any other.
 */

/** Where a declaration starts in the text: a UTF-16 offset, and its 1-based line and column. */
export interface ProtoPosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

export type ProtoSyntax = 'proto2' | 'proto3';

export interface ProtoFileAst {
  /** proto2 when the file has no syntax statement, as protoc reads it. */
  readonly syntax: ProtoSyntax;
  /** Whether a syntax statement was written. */
  readonly syntaxDeclared: boolean;
  /** The package, '' when none. */
  readonly package: string;
  readonly imports: readonly ProtoImport[];
  readonly options: readonly ProtoOption[];
  readonly messages: readonly ProtoMessageAst[];
  readonly enums: readonly ProtoEnumAst[];
  readonly extends: readonly ProtoExtendAst[];
  readonly services: readonly ProtoServiceAst[];
}

export interface ProtoImport {
  readonly path: string;
  /** `import public` re-exports; `import weak` may be missing at run time. */
  readonly modifier: 'none' | 'public' | 'weak';
  readonly at: ProtoPosition;
}

export interface ProtoMessageAst {
  readonly name: string;
  readonly at: ProtoPosition;
  /** Every field in declaration order: plain fields, oneof members, map fields, groups. */
  readonly fields: readonly ProtoFieldAst[];
  /** The message's oneofs in declaration order; a member's `oneof` indexes this list. */
  readonly oneofs: readonly ProtoOneofAst[];
  /** Nested messages in declaration order (a group's body is its field's, not listed here). */
  readonly messages: readonly ProtoMessageAst[];
  readonly enums: readonly ProtoEnumAst[];
  readonly extends: readonly ProtoExtendAst[];
  readonly extensionRanges: readonly ProtoExtensionRange[];
  readonly reserved: ProtoReservedAst;
  readonly options: readonly ProtoOption[];
}

export type ProtoLabelAst = 'required' | 'optional' | 'repeated';

/** Protocol Buffers' scalar types. */
export type ProtoScalar =
  | 'double'
  | 'float'
  | 'int32'
  | 'int64'
  | 'uint32'
  | 'uint64'
  | 'sint32'
  | 'sint64'
  | 'fixed32'
  | 'fixed64'
  | 'sfixed32'
  | 'sfixed64'
  | 'bool'
  | 'string'
  | 'bytes';

export type ProtoTypeAst =
  | { readonly kind: 'scalar'; readonly scalar: ProtoScalar }
  /** A message or enum, by the name as written (a leading dot makes it fully qualified). */
  | { readonly kind: 'named'; readonly name: string }
  /** `map<K, V>`: K a scalar other than floating point or bytes, V a scalar or a named type. */
  | {
      readonly kind: 'map';
      readonly key: ProtoScalar;
      readonly value:
        | { readonly kind: 'scalar'; readonly scalar: ProtoScalar }
        | { readonly kind: 'named'; readonly name: string };
    }
  /** A proto2 group: the field's type is the nested message declared with it. */
  | { readonly kind: 'group'; readonly message: ProtoMessageAst };

export interface ProtoFieldAst {
  readonly name: string;
  readonly number: number;
  /** As written; undefined for none (proto3's implicit presence, oneof members, map fields). */
  readonly label: ProtoLabelAst | undefined;
  readonly type: ProtoTypeAst;
  /** The index in the message's `oneofs` of the oneof the field is declared in. */
  readonly oneof: number | undefined;
  /** Field options as written, `default` and `json_name` included. */
  readonly options: readonly ProtoOption[];
  readonly at: ProtoPosition;
}

export interface ProtoOneofAst {
  readonly name: string;
  readonly options: readonly ProtoOption[];
  readonly at: ProtoPosition;
}

export interface ProtoEnumAst {
  readonly name: string;
  readonly values: readonly ProtoEnumValueAst[];
  readonly reserved: ProtoReservedAst;
  readonly options: readonly ProtoOption[];
  readonly at: ProtoPosition;
}

export interface ProtoEnumValueAst {
  readonly name: string;
  readonly number: number;
  readonly options: readonly ProtoOption[];
  readonly at: ProtoPosition;
}

/** Inclusive ranges and names; `reserved 5 to max` keeps `toMax` and the largest number. */
export interface ProtoReservedAst {
  readonly ranges: readonly ProtoRange[];
  readonly names: readonly ProtoReservedName[];
}

export interface ProtoRange {
  readonly start: number;
  /** Inclusive. */
  readonly end: number;
  /** Written as `to max`. */
  readonly toMax: boolean;
  readonly at: ProtoPosition;
}

export interface ProtoReservedName {
  readonly name: string;
  readonly at: ProtoPosition;
}

export interface ProtoExtensionRange extends ProtoRange {
  readonly options: readonly ProtoOption[];
}

/** `extend Foo { ... }`: fields added to another message, numbered in its extension ranges. */
export interface ProtoExtendAst {
  /** The extended message's name as written. */
  readonly extendee: string;
  readonly fields: readonly ProtoFieldAst[];
  readonly at: ProtoPosition;
}

export interface ProtoServiceAst {
  readonly name: string;
  readonly methods: readonly ProtoMethodAst[];
  readonly options: readonly ProtoOption[];
  readonly at: ProtoPosition;
}

export interface ProtoMethodAst {
  readonly name: string;
  /** The request message's name as written. */
  readonly input: string;
  readonly inputStream: boolean;
  readonly output: string;
  readonly outputStream: boolean;
  readonly options: readonly ProtoOption[];
  readonly at: ProtoPosition;
}

/** `option (my.ext).part = value;`: the name's parts, and the value as written. */
export interface ProtoOption {
  readonly name: readonly ProtoOptionNamePart[];
  readonly value: ProtoConstant;
  readonly at: ProtoPosition;
}

export interface ProtoOptionNamePart {
  /** An identifier, or for an extension the name inside the parentheses (a leading dot kept). */
  readonly name: string;
  /** Written in parentheses: a custom option (an extension of the options message). */
  readonly extension: boolean;
}

/**
 * An option's value. Integers keep their exact decimal text (uint64 defaults pass 2^53); an
 * identifier is an enum value name, `true`/`false`, or `inf`/`nan` (with `negative` for `-inf`).
 * A string literal is bytes (its escapes are bytes, its text UTF-8, as in protoc): `value` is
 * those bytes decoded as UTF-8, and `octets` (one code unit 0-255 per byte) is there only when they
 * are not UTF-8, which a bytes default may hold and a string default may not. An aggregate is a
 * text-format message in braces.
 */
export type ProtoConstant =
  | { readonly kind: 'identifier'; readonly value: string; readonly negative: boolean }
  | { readonly kind: 'integer'; readonly value: string }
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'string'; readonly value: string; readonly octets?: string }
  | { readonly kind: 'aggregate'; readonly fields: readonly ProtoAggregateField[] };

/** One `name: value` (or `name { ... }`, `[ext.name]: value`, `name: [a, b]`) of an aggregate. */
export interface ProtoAggregateField {
  readonly name: string;
  /** Written in brackets: an extension or an Any's type URL. */
  readonly extension: boolean;
  readonly value: ProtoConstant | { readonly kind: 'list'; readonly items: readonly ProtoConstant[] };
}
