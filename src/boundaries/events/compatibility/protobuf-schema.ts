/**
 * A registered Protobuf schema (a .proto file, proto2 or proto3) read into the small model the
 * compatibility rules and Confluent's message indexes work on: messages with their fields by
 * number, labels as written, oneofs, reserved numbers and names, nested messages in declaration
 * order, and every field's type resolved to a scalar, an enum, a message, a group or a map.
 *
 * The text is read by wirekit's .proto reader (schema/proto), which parses, checks and resolves a
 * file in time linear in its size, holds names as data (a field called `__proto__` is a field) and
 * stops at `maxSchemaNodes` declarations; this module only turns its AST into the model.
 *
 * Imports: the well-known types (google/protobuf/ any, api, duration, empty, field_mask,
 * source_context, struct, timestamp, type, wrappers) are built in; google/protobuf/descriptor.proto
 * is accepted for custom option declarations (its options messages are known, so an extension of
 * them is checked against their extension ranges; its descriptor messages are not); any other import
 * is a file a schema reference names (another subject's version), given to the parse by the
 * registry, or is refused. Editions are refused too: their field presence and encoding come from
 * feature options these rules do not read.
 *
 * A schema may be given as a base64 FileDescriptorProto (Confluent's Protobuf serializers register
 * that form): it is read as the `.proto` text printed from the descriptor.
 */
import { protoOfFileDescriptor } from '../../../codecs/protobuf/index.js';
import { isWirekitError } from '../../../errors/index.js';
import {
  type LinkedProto,
  linkProto,
  type ProtoEnumAst,
  type ProtoFieldAst,
  type ProtoFileAst,
  type ProtoMessageAst,
  type ProtoRange,
  parseProto,
  qualify,
  wellKnownProtoFiles,
} from '../../../schema/proto/index.js';
import { defaultSchemaLimits, type SchemaLimits, schemaInvalid, tooManyNodes } from './schema-text.js';

export type ProtoLabel = 'implicit' | 'optional' | 'required' | 'repeated';

export type ProtoFieldType =
  | { readonly kind: 'scalar'; readonly scalar: string }
  | { readonly kind: 'enum'; readonly type: ProtoEnum }
  | { readonly kind: 'message'; readonly type: ProtoMessage }
  | { readonly kind: 'group'; readonly type: ProtoMessage }
  | { readonly kind: 'map'; readonly key: ProtoFieldType; readonly value: ProtoFieldType };

export interface ProtoField {
  readonly name: string;
  readonly number: number;
  /** As written: proto3's field without a label is `implicit`; a map field has none (`repeated`). */
  readonly label: ProtoLabel;
  /** The real oneof the field belongs to (proto3 `optional` makes a synthetic one, which is not). */
  readonly oneof: string | undefined;
  readonly type: ProtoFieldType;
}

export interface ProtoReserved {
  /** Inclusive ranges of field (or enum value) numbers, sorted by start, none overlapping. */
  readonly numbers: readonly (readonly [number, number])[];
  readonly names: ReadonlySet<string>;
}

export interface ProtoMessage {
  readonly name: string;
  /** Without a leading dot: `shop.Order.Line`. */
  readonly fullName: string;
  /** The full name without the file's package (`Order.Line`), by which Confluent compares message types. */
  readonly localName: string;
  /** Whether this is a proto2 group's type (not a message of its own in Confluent's message indexes). */
  readonly group: boolean;
  readonly fields: readonly ProtoField[];
  /** Names of the real oneofs, in declaration order. */
  readonly oneofs: readonly string[];
  /** Nested messages in declaration order, groups left out. */
  readonly messages: readonly ProtoMessage[];
  readonly enums: readonly ProtoEnum[];
  readonly reserved: ProtoReserved;
  /** Whether the type comes from a well-known types file rather than the registered text. */
  readonly wellKnown: boolean;
  /**
   * Whether the type is declared in another file than the registered text: a well-known types
   * file, or a file a schema reference names (whose contents can change between two versions).
   */
  readonly imported: boolean;
}

export interface ProtoEnum {
  readonly name: string;
  readonly fullName: string;
  readonly localName: string;
  readonly values: ReadonlyMap<string, number>;
  readonly reserved: ProtoReserved;
  /** Whether the enum is declared in another file than the registered text (see ProtoMessage). */
  readonly imported: boolean;
}

export interface ProtoFile {
  readonly syntax: 'proto2' | 'proto3';
  readonly package: string;
  readonly imports: readonly string[];
  /** Top-level messages in declaration order (Confluent's message index 0, 1, ...). */
  readonly messages: readonly ProtoMessage[];
  readonly enums: readonly ProtoEnum[];
  /** Every message and enum of the file and of its well-known imports, by full name. */
  readonly types: ReadonlyMap<string, ProtoMessage | ProtoEnum>;
  /**
   * The file as read, as JSON: its declarations in order, options included, with comments,
   * formatting, positions and the order of imports left out.
   */
  readonly canonical: string;
}

/** Imported only to declare custom options: its options messages, with their extension ranges. */
const optionsFile = 'google/protobuf/descriptor.proto';
const optionsText = `syntax = "proto2";\npackage google.protobuf;\n${[
  ...['File', 'Message', 'Field', 'Oneof', 'Enum', 'EnumValue', 'Service', 'Method', 'ExtensionRange'],
]
  .map((kind) => `message ${kind}Options { extensions 1000 to max; }`)
  .join('\n')}\n`;

/** A built-in file: its AST, and its model's types (none for the options file). */
interface BuiltIn {
  readonly ast: ProtoFileAst;
  readonly models: ReadonlyMap<ProtoMessageAst | ProtoEnumAst, ProtoMessage | ProtoEnum>;
  readonly types: ReadonlyMap<string, ProtoMessage | ProtoEnum>;
}

const builtIns = new Map<string, BuiltIn>();

/** A built-in file by path, read and modelled on first use; undefined for any other path. */
function builtIn(path: string): BuiltIn | undefined {
  let known = builtIns.get(path);
  if (known === undefined) {
    const text = path === optionsFile ? optionsText : wellKnownProtoFiles.get(path);
    if (text === undefined) return undefined;
    const ast = parseProto(text);
    const linked = linkProto(ast, (imported) => builtIn(imported)?.ast);
    const builder = new ModelBuilder(linked, 'well-known', visibleModels(ast));
    builder.build();
    known = { ast, models: builder.models, types: path === optionsFile ? new Map() : builder.types };
    builtIns.set(path, known);
  }
  return known;
}

/** The models of the files `ast` imports (and those they import publicly), built-in or referenced. */
function visibleModels(
  ast: ProtoFileAst,
  fileAt: (path: string) => BuiltIn | undefined = builtIn,
): Map<ProtoMessageAst | ProtoEnumAst, ProtoMessage | ProtoEnum> {
  const models = new Map<ProtoMessageAst | ProtoEnumAst, ProtoMessage | ProtoEnum>();
  const visit = (path: string, seen: Set<string>) => {
    if (seen.has(path)) return;
    seen.add(path);
    const imported = fileAt(path);
    if (imported === undefined) return;
    for (const [node, model] of imported.models) models.set(node, model);
    for (const item of imported.ast.imports) if (item.modifier === 'public') visit(item.path, seen);
  };
  for (const item of ast.imports) visit(item.path, new Set());
  return models;
}

/**
 * The schemas a Protobuf schema's references name, by import path: each a `.proto` text or a
 * base64 FileDescriptorProto, as registered.
 */
export type ProtoReferencedFiles = ReadonlyMap<string, string>;

/** A base64 text (no `;`, space or brace can be in one), which a .proto file never is. */
const base64Text = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * A registered Protobuf schema's `.proto` text: as given, or printed from the FileDescriptorProto
 * it holds in base64 (what Confluent's ProtobufSerializer registers, and Confluent's server takes).
 * A text that is neither is given back as it is, for the .proto reader to say what is wrong with it.
 */
export function protoTextOf(schema: string): string {
  const trimmed = schema.trim();
  if (!base64Text.test(trimmed)) return schema;
  try {
    return protoOfFileDescriptor(Uint8Array.from(atob(trimmed), (char) => char.charCodeAt(0)));
  } catch {
    return schema;
  }
}

/**
 * Parses a .proto file (or a base64 FileDescriptorProto); WK_REGISTRY_SCHEMA_INVALID when it does
 * not parse, refers to what it does not define, imports a file that is neither built in nor among
 * `referenced` (its schema references), or is past the limits. A referenced file is read by the
 * same rules, under the same limits, and may import others of `referenced`.
 */
export function parseProtoFile(
  text: string,
  limits: Required<SchemaLimits> = defaultSchemaLimits,
  referenced: ProtoReferencedFiles = new Map(),
): ProtoFile {
  const read = (source: string): ProtoFileAst =>
    parseProto(protoTextOf(source), { maxNodes: limits.maxSchemaNodes });
  // The referenced files of this parse, read and modelled when first imported.
  const files = new Map<string, BuiltIn | undefined>();
  const fileAt = (path: string): BuiltIn | undefined => {
    const known = builtIn(path);
    if (known !== undefined) return known;
    if (files.has(path)) {
      const file = files.get(path);
      if (file === undefined) throw schemaInvalid(`Protobuf schema: the import of "${path}" closes a cycle.`);
      return file;
    }
    const source = referenced.get(path);
    if (source === undefined) return undefined;
    files.set(path, undefined);
    const ast = read(source);
    const linked = linkProto(ast, (imported) => fileAt(imported)?.ast);
    const builder = new ModelBuilder(linked, 'referenced', visibleModels(ast, fileAt));
    builder.build();
    const file = { ast, models: builder.models, types: builder.types };
    files.set(path, file);
    return file;
  };
  let linked: LinkedProto;
  try {
    const ast = read(text);
    for (const item of ast.imports) {
      if (fileAt(item.path) === undefined) {
        throw schemaInvalid(
          `Protobuf schema: import "${item.path}" is neither a google/protobuf well-known type nor named by ` +
            'a schema reference ({"name": "' +
            item.path +
            '", "subject": ..., "version": ...}).',
        );
      }
    }
    linked = linkProto(ast, (path) => fileAt(path)?.ast);
  } catch (error) {
    if (!isWirekitError(error, 'WK_SCHEMA_INVALID')) throw error;
    if (/more than \d+ nodes/.test(error.message)) {
      throw tooManyNodes('Protobuf', limits.maxSchemaNodes, 'declarations');
    }
    throw schemaInvalid(`Protobuf schema: ${error.message}`, error);
  }
  const ast = linked.file;
  const builder = new ModelBuilder(linked, 'registered', visibleModels(ast, fileAt));
  const { messages, enums } = builder.build();
  const types = new Map<string, ProtoMessage | ProtoEnum>();
  for (const item of ast.imports)
    for (const [name, type] of fileAt(item.path)?.types ?? []) types.set(name, type);
  for (const [name, type] of builder.types) types.set(name, type);
  return {
    syntax: ast.syntax,
    package: ast.package,
    imports: ast.imports.map((item) => item.path),
    messages,
    enums,
    types,
    canonical: canonicalOf(ast),
  };
}

/** The AST as JSON without positions, import order and whether `syntax` was written out. */
function canonicalOf(ast: ProtoFileAst): string {
  const { syntaxDeclared: _written, imports, ...rest } = ast;
  const sorted = imports
    .map((item) => `${item.modifier} ${item.path}`)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify({ ...rest, imports: sorted }, (key, value) => (key === 'at' ? undefined : value));
}

interface MutableMessage extends ProtoMessage {
  readonly fields: ProtoField[];
}

/** Builds the model of one file: first every type (so fields can refer to any), then the fields. */
class ModelBuilder {
  /** The model of each message and enum, this file's and its imports'. */
  readonly models: Map<ProtoMessageAst | ProtoEnumAst, ProtoMessage | ProtoEnum>;
  /** This file's messages and enums by full name. */
  readonly types = new Map<string, ProtoMessage | ProtoEnum>();
  private readonly pending: { message: MutableMessage; ast: ProtoMessageAst }[] = [];
  private readonly packageName: string;

  constructor(
    private readonly linked: LinkedProto,
    private readonly origin: 'registered' | 'well-known' | 'referenced',
    imported: Map<ProtoMessageAst | ProtoEnumAst, ProtoMessage | ProtoEnum>,
  ) {
    this.models = imported;
    this.packageName = linked.file.package;
  }

  build(): { messages: ProtoMessage[]; enums: ProtoEnum[] } {
    const { file } = this.linked;
    const messages = file.messages.map((message) => this.message(message, this.packageName, false));
    const enums = file.enums.map((enumeration) => this.enumeration(enumeration, this.packageName));
    for (const { message, ast } of this.pending) {
      for (const field of ast.fields) message.fields.push(this.field(field, ast, message));
    }
    return { messages, enums };
  }

  private message(ast: ProtoMessageAst, scope: string, group: boolean): MutableMessage {
    const fullName = qualify(scope, ast.name);
    const message: MutableMessage = {
      name: ast.name,
      fullName,
      localName: this.local(fullName),
      group,
      fields: [],
      oneofs: ast.oneofs.map((oneof) => oneof.name),
      messages: ast.messages.map((nested) => this.message(nested, fullName, false)),
      enums: ast.enums.map((enumeration) => this.enumeration(enumeration, fullName)),
      reserved: reservedOf(ast.reserved.ranges, ast.reserved.names),
      wellKnown: this.origin === 'well-known',
      imported: this.origin !== 'registered',
    };
    for (const field of ast.fields) {
      if (field.type.kind === 'group') this.message(field.type.message, fullName, true);
    }
    this.define(ast, message);
    this.pending.push({ message, ast });
    return message;
  }

  private enumeration(ast: ProtoEnumAst, scope: string): ProtoEnum {
    const fullName = qualify(scope, ast.name);
    const enumeration: ProtoEnum = {
      name: ast.name,
      fullName,
      localName: this.local(fullName),
      values: new Map(ast.values.map((value) => [value.name, value.number])),
      reserved: reservedOf(ast.reserved.ranges, ast.reserved.names),
      imported: this.origin !== 'registered',
    };
    this.define(ast, enumeration);
    return enumeration;
  }

  private define(ast: ProtoMessageAst | ProtoEnumAst, model: ProtoMessage | ProtoEnum): void {
    this.models.set(ast, model);
    this.types.set(model.fullName, model);
  }

  private local(fullName: string): string {
    return this.packageName === '' ? fullName : fullName.slice(this.packageName.length + 1);
  }

  private field(field: ProtoFieldAst, owner: ProtoMessageAst, message: ProtoMessage): ProtoField {
    const type = field.type;
    let model: ProtoFieldType;
    if (type.kind === 'scalar') model = { kind: 'scalar', scalar: type.scalar };
    else if (type.kind === 'map') {
      const value: ProtoFieldType =
        type.value.kind === 'scalar'
          ? { kind: 'scalar', scalar: type.value.scalar }
          : this.named(field, message);
      model = { kind: 'map', key: { kind: 'scalar', scalar: type.key }, value };
    } else if (type.kind === 'group') {
      model = { kind: 'group', type: this.models.get(type.message) as ProtoMessage };
    } else model = this.named(field, message);
    const oneof = field.oneof === undefined ? undefined : owner.oneofs[field.oneof]?.name;
    return { name: field.name, number: field.number, label: this.label(field), oneof, type: model };
  }

  /** The message or enum a named type resolved to (link.ts resolved every one). */
  private named(field: ProtoFieldAst, message: ProtoMessage): ProtoFieldType {
    const declaration = this.linked.fieldTypes.get(field);
    const node =
      declaration?.symbol.kind === 'message' ? declaration.symbol.message : declaration?.symbol.enumeration;
    const model = node === undefined ? undefined : this.models.get(node);
    if (model === undefined) {
      throw schemaInvalid(
        `Protobuf schema: ${message.fullName}.${field.name} has type ${declaration?.fullName}, which this registry does not read.`,
      );
    }
    // A group's message named as a type is an ordinary message field (length-delimited), as protoc makes it.
    return 'values' in model ? { kind: 'enum', type: model } : { kind: 'message', type: model };
  }

  private label(field: ProtoFieldAst): ProtoLabel {
    if (field.type.kind === 'map') return 'repeated';
    if (field.label !== undefined) return field.label;
    // In proto3 no label is the implicit one (oneof members included); proto2 writes none only on
    // a oneof member, which is optional.
    return this.linked.file.syntax === 'proto3' ? 'implicit' : 'optional';
  }
}

function reservedOf(
  ranges: readonly ProtoRange[],
  names: readonly { readonly name: string }[],
): ProtoReserved {
  return {
    numbers: ranges
      .filter((range) => range.end >= range.start)
      .map((range) => [range.start, range.end] as const)
      .sort((a, b) => a[0] - b[0]),
    names: new Set(names.map((reserved) => reserved.name)),
  };
}

/** Whether `number` falls in one of the reserved ranges (sorted, so by binary search). */
export function isReservedNumber(reserved: ProtoReserved, number: number): boolean {
  const ranges = reserved.numbers;
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [start, end] = ranges[middle] as readonly [number, number];
    if (number < start) high = middle - 1;
    else if (number > end) low = middle + 1;
    else return true;
  }
  return false;
}
