/**
 * A linked .proto file as the serialized google.protobuf.FileDescriptorProto protoc would make of
 * it, the inverse of descriptor-to-ast.ts: maps become repeated fields of a nested `XxxEntry`
 * message marked `map_entry`, groups become GROUP fields naming a nested message, proto3 `optional`
 * gets its synthetic oneof (after the real ones, as protoc orders them), type names become full
 * names with a leading dot, message ranges end exclusive. Options beyond those descriptor-schema.ts
 * holds (`packed`, `deprecated`, `json_name`, `default`, `allow_alias`, `map_entry`,
 * `idempotency_level`) are left out, as are source positions.
 *
 * The schema registry serves it for `?format=serialized`, which Confluent's Protobuf serializers
 * and deserializers ask for (they load the descriptor into their runtime's pool). Encoded by
 * wirekit's own Protocol Buffers codec, from the same schema of descriptor.proto the import reads.
 */
import {
  type LinkedProto,
  linkProto,
  mapEntryName,
  type ProtoConstant,
  type ProtoEnumAst,
  type ProtoFieldAst,
  type ProtoFileAst,
  type ProtoMessageAst,
  type ProtoOption,
  type ProtoRange,
  type ProtoScalar,
  type ProtoServiceAst,
  parseProto,
  qualify,
  wellKnownProtoFiles,
} from '../../schema/proto/index.js';
import type { Codec } from '../core/codec.js';
import {
  type EnumDescriptor,
  type FieldDescriptor,
  type FileDescriptor,
  fileDescriptorSet,
  LABEL_REPEATED,
  LABEL_REQUIRED,
  type MessageDescriptor,
  scalarTypes,
  TYPE_ENUM,
  TYPE_GROUP,
  TYPE_MESSAGE,
} from './descriptor-schema.js';
import { defaultJsonName } from './descriptor-values.js';
import { createProtobufCodec } from './index.js';

const LABEL_OPTIONAL = 1;
const scalarNumbers = new Map<ProtoScalar, number>(
  Object.entries(scalarTypes).map(([number, scalar]) => [scalar, Number(number)]),
);
/** Message ranges end exclusive; `to max` is one past the largest field number. */
const messageRangeEnd = 536_870_912;
/** Enum ranges end inclusive; `to max` is the largest int32. */
const enumRangeEnd = 2_147_483_647;

type SetCodec = Codec<{ file: FileDescriptor[] }>;
let codec: SetCodec | undefined;

export interface FileDescriptorOfProtoOptions {
  /** The path an import names the file by (FileDescriptorProto's `name`), e.g. `shop/v1/order.proto`. */
  readonly name: string;
  /**
   * The text of a file the text imports, by the path its import names; undefined when unknown.
   * The google/protobuf well-known types are built in.
   */
  readonly imports?: (path: string) => string | undefined;
}

/**
 * A `.proto` file's text as the serialized google.protobuf.FileDescriptorProto protoc makes of it
 * (see the module comment for what it holds). WK_SCHEMA_INVALID when the text does not parse, or
 * names a type that neither it nor its imports define.
 */
export function fileDescriptorOfProto(text: string, options: FileDescriptorOfProtoOptions): Uint8Array {
  const parsed = new Map<string, ProtoFileAst | undefined>();
  const fileAt = (path: string): ProtoFileAst | undefined => {
    if (!parsed.has(path)) {
      parsed.set(path, undefined); // an import cycle ends here, refused by the linker as unknown names
      const imported = options.imports?.(path) ?? wellKnownProtoFiles.get(path);
      parsed.set(path, imported === undefined ? undefined : parseProto(imported));
    }
    return parsed.get(path);
  };
  const linked = linkProto(parseProto(text), fileAt);
  codec ??= createProtobufCodec({ schema: fileDescriptorSet }) as SetCodec;
  const set = codec.encode({ file: [new DescriptorWriter(linked).file(options.name)] });
  // A set of one file is the file's bytes behind its field tag (1, length-delimited) and length.
  let offset = 1;
  while ((set[offset] as number) & 0x80) offset++;
  return set.subarray(offset + 1);
}

interface Nested {
  readonly at: number;
  readonly message: MessageDescriptor;
}

class DescriptorWriter {
  constructor(private readonly linked: LinkedProto) {}

  file(name: string): FileDescriptor {
    const ast = this.linked.file;
    const pkg = ast.package;
    const indexOf = (modifier: string) =>
      ast.imports.flatMap((item, index) => (item.modifier === modifier ? [index] : []));
    return {
      name,
      ...(pkg === '' ? {} : { package: pkg }),
      dependency: ast.imports.map((item) => item.path),
      messageType: ast.messages.map((message) => this.message(message, pkg)),
      enumType: ast.enums.map((enumeration) => enumOf(enumeration)),
      service: ast.services.map((service) => this.service(service)),
      extension: ast.extends.flatMap((extend) => {
        const extendee = `.${this.linked.extendees.get(extend)?.fullName ?? extend.extendee}`;
        return extend.fields.map((field) => ({ ...this.field(field, pkg, undefined), extendee }));
      }),
      publicDependency: indexOf('public'),
      weakDependency: indexOf('weak'),
      // protoc leaves proto2, the default, unsaid.
      ...(ast.syntax === 'proto3' ? { syntax: 'proto3' } : {}),
    } as FileDescriptor;
  }

  private message(ast: ProtoMessageAst, scope: string): MessageDescriptor {
    const fullName = qualify(scope, ast.name);
    // Nested types in the order of the text, as protoc lists them: a map's entry and a group's
    // message stand where their field does (Confluent's Python clients count them in message indexes).
    const nested: Nested[] = [];
    const oneofs = ast.oneofs.map((oneof) => ({ name: oneof.name }));
    const fields = ast.fields.map((field) => {
      const descriptor = this.field(field, fullName, nested) as {
        -readonly [K in keyof FieldDescriptor]: FieldDescriptor[K];
      };
      if (field.oneof !== undefined) descriptor.oneofIndex = field.oneof;
      else if (this.linked.file.syntax === 'proto3' && field.label === 'optional') {
        // protoc's synthetic oneof: `_name`, unless that is taken, then with more underscores in front.
        const taken = new Set(oneofs.map((oneof) => oneof.name));
        let synthetic = `_${field.name}`;
        while (taken.has(synthetic)) synthetic = `X${synthetic}`;
        descriptor.oneofIndex = oneofs.length;
        descriptor.proto3Optional = true;
        oneofs.push({ name: synthetic });
      }
      return descriptor as FieldDescriptor;
    });
    for (const message of ast.messages)
      nested.push({ at: message.at.offset, message: this.message(message, fullName) });
    nested.sort((a, b) => a.at - b.at);
    return {
      name: ast.name,
      field: fields,
      extension: ast.extends.flatMap((extend) => {
        const extendee = `.${this.linked.extendees.get(extend)?.fullName ?? extend.extendee}`;
        return extend.fields.map((field) => ({ ...this.field(field, fullName, nested), extendee }));
      }),
      nestedType: nested.map((item) => item.message),
      enumType: ast.enums.map((enumeration) => enumOf(enumeration)),
      extensionRange: ast.extensionRanges.map((range) => messageRange(range)),
      oneofDecl: oneofs,
      ...(optionFlag(ast.options, 'deprecated') ? { options: { deprecated: true } } : {}),
      reservedRange: ast.reserved.ranges.map((range) => messageRange(range)),
      reservedName: ast.reserved.names.map((item) => item.name),
    };
  }

  /** A field; its map entry or group message goes into `nested` (the message's nested types). */
  private field(field: ProtoFieldAst, scope: string, nested: Nested[] | undefined): FieldDescriptor {
    const label =
      field.label === 'repeated' || field.type.kind === 'map'
        ? LABEL_REPEATED
        : field.label === 'required'
          ? LABEL_REQUIRED
          : LABEL_OPTIONAL;
    const base = {
      name: field.name,
      number: field.number,
      label,
      // protoc writes every field's JSON name, derived from its name when the file gives none.
      jsonName: defaultJsonName(field.name),
      ...fieldOptions(field.options, field.type.kind === 'scalar' && field.type.scalar === 'bytes'),
    };
    const type = field.type;
    if (type.kind === 'scalar') return { ...base, type: scalarNumbers.get(type.scalar) };
    if (type.kind === 'group') {
      nested?.push({ at: field.at.offset, message: this.message(type.message, scope) });
      return { ...base, type: TYPE_GROUP, typeName: `.${qualify(scope, type.message.name)}` };
    }
    if (type.kind === 'map') {
      const entry = mapEntryName(field.name);
      const value =
        type.value.kind === 'scalar' ? { type: scalarNumbers.get(type.value.scalar) } : this.named(field);
      nested?.push({
        at: field.at.offset,
        message: {
          name: entry,
          field: [
            {
              name: 'key',
              number: 1,
              label: LABEL_OPTIONAL,
              jsonName: 'key',
              type: scalarNumbers.get(type.key),
            },
            { name: 'value', number: 2, label: LABEL_OPTIONAL, jsonName: 'value', ...value },
          ] as FieldDescriptor[],
          extension: [],
          nestedType: [],
          enumType: [],
          extensionRange: [],
          oneofDecl: [],
          options: { mapEntry: true },
          reservedRange: [],
          reservedName: [],
        },
      });
      return { ...base, type: TYPE_MESSAGE, typeName: `.${qualify(scope, entry)}` };
    }
    return { ...base, ...this.named(field) };
  }

  private named(field: ProtoFieldAst): { type: number; typeName: string } {
    const declaration = this.linked.fieldTypes.get(field);
    if (declaration === undefined) throw new Error(`field ${field.name} was not linked`);
    return {
      type: declaration.symbol.kind === 'enum' ? TYPE_ENUM : TYPE_MESSAGE,
      typeName: `.${declaration.fullName}`,
    };
  }

  private service(ast: ProtoServiceAst) {
    return {
      name: ast.name,
      method: ast.methods.map((method) => {
        const resolved = this.linked.methods.get(method);
        const idempotency = optionIdentifier(method.options, 'idempotency_level');
        const options = {
          ...(optionFlag(method.options, 'deprecated') ? { deprecated: true } : {}),
          ...(idempotency === undefined ? {} : { idempotencyLevel: idempotencyLevels[idempotency] ?? 0 }),
        };
        return {
          name: method.name,
          inputType: `.${resolved?.input.fullName ?? method.input}`,
          outputType: `.${resolved?.output.fullName ?? method.output}`,
          // A reflection client (grpcurl, Postman) reads a method's retry safety from these.
          ...(Object.keys(options).length > 0 ? { options } : {}),
          ...(method.inputStream ? { clientStreaming: true } : {}),
          ...(method.outputStream ? { serverStreaming: true } : {}),
        };
      }),
      ...(optionFlag(ast.options, 'deprecated') ? { options: { deprecated: true } } : {}),
    };
  }
}

function enumOf(ast: ProtoEnumAst): EnumDescriptor {
  return {
    name: ast.name,
    value: ast.values.map((value) => ({
      name: value.name,
      number: value.number,
      ...(optionFlag(value.options, 'deprecated') ? { options: { deprecated: true } } : {}),
    })),
    ...(optionFlag(ast.options, 'allow_alias') ? { options: { allowAlias: true } } : {}),
    reservedRange: ast.reserved.ranges.map((range) => ({
      start: range.start,
      end: range.toMax ? enumRangeEnd : range.end,
    })),
    reservedName: ast.reserved.names.map((item) => item.name),
  } as EnumDescriptor;
}

function messageRange(range: ProtoRange): { start: number; end: number } {
  return { start: range.start, end: range.toMax ? messageRangeEnd : range.end + 1 };
}

/** google.protobuf.MethodOptions.IdempotencyLevel's numbers. */
const idempotencyLevels: Readonly<Record<string, number>> = {
  IDEMPOTENCY_UNKNOWN: 0,
  NO_SIDE_EFFECTS: 1,
  IDEMPOTENT: 2,
};

/** A plain option's value when it is an identifier (an enum value's name). */
function optionIdentifier(options: readonly ProtoOption[], name: string): string | undefined {
  const option = options.find((item) => item.name.length === 1 && item.name[0]?.name === name);
  return option?.value.kind === 'identifier' ? option.value.value : undefined;
}

/** Whether a plain option (not a custom one) is set to `true`. */
function optionFlag(options: readonly ProtoOption[], name: string): boolean {
  const option = options.find((item) => item.name.length === 1 && item.name[0]?.name === name);
  return option?.value.kind === 'identifier' && option.value.value === 'true';
}

/** A field's options as its descriptor holds them. */
function fieldOptions(options: readonly ProtoOption[], bytes: boolean): Partial<FieldDescriptor> {
  const find = (name: string) =>
    options.find((item) => item.name.length === 1 && !item.name[0]?.extension && item.name[0]?.name === name)
      ?.value;
  const jsonName = find('json_name');
  const defaultValue = find('default');
  const flags = {
    ...(optionFlag(options, 'packed') ? { packed: true } : find('packed') ? { packed: false } : {}),
    ...(optionFlag(options, 'deprecated') ? { deprecated: true } : {}),
  };
  return {
    ...(jsonName?.kind === 'string' ? { jsonName: jsonName.value } : {}),
    ...(defaultValue === undefined ? {} : { defaultValue: defaultText(defaultValue, bytes) }),
    ...(Object.keys(flags).length > 0 ? { options: flags } : {}),
  };
}

/** `default_value` as protoc writes it: the value's text (bytes with C escapes), an enum value's name. */
function defaultText(value: ProtoConstant, bytes: boolean): string {
  switch (value.kind) {
    case 'identifier':
      return `${value.negative ? '-' : ''}${value.value}`;
    case 'integer':
      return value.value;
    case 'float':
      return Number.isNaN(value.value)
        ? 'nan'
        : Number.isFinite(value.value)
          ? String(value.value)
          : value.value > 0
            ? 'inf'
            : '-inf';
    case 'string':
      return bytes ? escapedBytes(value.octets ?? utf8Octets(value.value)) : value.value;
    case 'aggregate':
      return '';
  }
}

function utf8Octets(text: string): string {
  let octets = '';
  for (const byte of new TextEncoder().encode(text)) octets += String.fromCharCode(byte);
  return octets;
}

/** protoc's C escaping of a bytes default (CEscape): named escapes, octal outside printable ASCII. */
function escapedBytes(octets: string): string {
  let text = '';
  for (const char of octets) {
    const code = char.charCodeAt(0);
    const named = cEscapes[char];
    text += named ?? (code >= 0x20 && code < 0x7f ? char : `\\${code.toString(8).padStart(3, '0')}`);
  }
  return text;
}

const cEscapes: Readonly<Record<string, string>> = {
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '"': '\\"',
  "'": "\\'",
  '\\': '\\\\',
};
