/**
 * `schemaFromProto`: the messages of a `.proto` file as wirekit schemas that keep the file's field
 * numbers, names and integer wire types, so that this codec writes, for any value, the bytes
 * protoc's runtimes write for that file (issue 32). It reads the file with the registry's reader
 * (schema/proto), which checks and links it; this module only maps what that reader gives.
 *
 * Mapped so far: messages (a nested one named by its full name: namespace = package and enclosing
 * messages), every scalar as declared, enums numbered 0, 1, 2… in order, maps, repeated fields
 * (packed by the file's rules and `[packed]`), `optional` and message fields (which have presence)
 * as `t.optional`, reserved numbers, and google.protobuf.Timestamp as a nanosecond timestamp.
 * A `oneof`'s members are optional fields in a oneof group (oneofsOf). Anything else (groups,
 * proto2 `required` and defaults, other well-known types, enums with other numbers) is refused by
 * name with WK_SCHEMA_INVALID rather than mapped to other bytes.
 */
import * as t from '../../schema/builders.js';
import { protoError } from '../../schema/proto/errors.js';
import {
  linkProto,
  type ProtoEnumAst,
  type ProtoFieldAst,
  type ProtoFileAst,
  type ProtoMessageAst,
  type ProtoScalar,
  parseProto,
  wellKnownProtoFiles,
} from '../../schema/proto/index.js';
import type { LinkedProto, ProtoDeclaration } from '../../schema/proto/link.js';
import type { EnumSchema, MapKeySchema, ObjectSchema, Schema } from '../../schema/types.js';

export interface SchemaFromProtoOptions {
  /**
   * The text of each file the `.proto` imports, by the path its import names. The well-known types
   * (google/protobuf/*.proto) are built in.
   */
  readonly imports?: (path: string) => string | undefined;
}

export interface ImportedProto {
  /** Every message and enum the file declares (nested ones included), by full name. */
  readonly types: ReadonlyMap<string, ObjectSchema | EnumSchema>;
}

/** Reads a `.proto` file's messages and enums as wirekit schemas; see the module comment. */
export function schemaFromProto(text: string, options: SchemaFromProtoOptions = {}): ImportedProto {
  const file = parseProto(text);
  const parsed = new Map<string, ProtoFileAst>();
  const linked = linkProto(file, (path) => {
    const known = parsed.get(path);
    if (known !== undefined) return known;
    const source = options.imports?.(path) ?? wellKnownProtoFiles.get(path);
    if (source === undefined) return undefined;
    const imported = parseProto(source);
    parsed.set(path, imported);
    return imported;
  });
  return { types: new Importer(linked).run() };
}

const scalarSchemas: Record<ProtoScalar, () => Schema> = {
  double: () => t.float64(),
  float: () => t.float32(),
  int32: () => t.int32({ proto: 'int32' }),
  sint32: () => t.int32({ proto: 'sint32' }),
  sfixed32: () => t.int32({ proto: 'sfixed32' }),
  uint32: () => t.uint32({ proto: 'uint32' }),
  fixed32: () => t.uint32({ proto: 'fixed32' }),
  int64: () => t.int64({ proto: 'int64' }),
  sint64: () => t.int64({ proto: 'sint64' }),
  sfixed64: () => t.int64({ proto: 'sfixed64' }),
  uint64: () => t.uint64({ proto: 'uint64' }),
  fixed64: () => t.uint64({ proto: 'fixed64' }),
  bool: () => t.bool(),
  string: () => t.string(),
  bytes: () => t.bytes(),
};

class Importer {
  private readonly types = new Map<string, ObjectSchema | EnumSchema>();

  constructor(private readonly linked: LinkedProto) {}

  run(): Map<string, ObjectSchema | EnumSchema> {
    const { file } = this.linked;
    for (const message of file.messages) this.message(message, file.package);
    for (const enumeration of file.enums) this.enumeration(enumeration, file.package);
    return this.types;
  }

  private message(message: ProtoMessageAst, scope: string): ObjectSchema {
    const fullName = scope === '' ? message.name : `${scope}.${message.name}`;
    const known = this.types.get(fullName);
    if (known !== undefined) return known as ObjectSchema;
    for (const nested of message.messages) this.message(nested, fullName);
    for (const nested of message.enums) this.enumeration(nested, fullName);
    const fields: Record<string, t.Field> = Object.create(null);
    for (const field of message.fields) {
      fields[field.name] = t.field(this.field(field, fullName), { id: field.number });
    }
    const reserved = message.reserved.ranges.flatMap((range) => {
      if (range.end - range.start > 1000) {
        protoError(
          `message ${fullName}: reserved ranges wider than 1000 numbers are not imported yet`,
          range.at,
        );
      }
      return Array.from({ length: range.end - range.start + 1 }, (_, i) => range.start + i);
    });
    const schema = t.object(message.name, fields, {
      ...(scope === '' ? {} : { namespace: scope }),
      ...(reserved.length > 0 ? { reserved } : {}),
      ...oneofsOf(message),
    });
    this.types.set(fullName, schema);
    return schema;
  }

  private field(field: ProtoFieldAst, owner: string): Schema {
    const where = `field ${owner}.${field.name}`;
    const { syntax } = this.linked.file;
    if (field.label === 'required') protoError(`${where}: required fields are not imported yet`, field.at);
    if (field.options.some((option) => option.name[0]?.name === 'default')) {
      protoError(`${where}: default values are not imported yet`, field.at);
    }
    const type = field.type;
    if (type.kind === 'group') protoError(`${where}: groups are not imported`, field.at);
    if (type.kind === 'map') {
      const key = scalarSchemas[type.key]() as MapKeySchema;
      const value =
        type.value.kind === 'scalar' ? scalarSchemas[type.value.scalar]() : this.named(field, where);
      return t.map(key, value);
    }
    const value = type.kind === 'scalar' ? scalarSchemas[type.scalar]() : this.named(field, where);
    if (field.label === 'repeated') {
      const packedOption = field.options.find((option) => option.name[0]?.name === 'packed');
      // proto3 packs repeated scalars unless told not to; proto2 only when told to.
      const packed =
        packedOption === undefined
          ? syntax === 'proto3'
          : packedOption.value.kind === 'identifier' && packedOption.value.value === 'true';
      return t.array(value, { packed });
    }
    // A message field always has presence; a scalar or enum field has it when marked optional,
    // and always in proto2.
    const present =
      field.label === 'optional' ||
      field.oneof !== undefined ||
      syntax === 'proto2' ||
      (type.kind === 'named' && value.kind !== 'enum');
    return present ? t.optional(value) : value;
  }

  /** The schema of a field's named type: a message (by reference, so recursion resolves), an enum, a Timestamp. */
  private named(field: ProtoFieldAst, where: string): Schema {
    const declaration = this.linked.fieldTypes.get(field) as ProtoDeclaration;
    if (declaration.fullName === 'google.protobuf.Timestamp') return t.timestamp({ precision: 'ns' });
    if (declaration.fullName.startsWith('google.protobuf.')) {
      protoError(`${where}: ${declaration.fullName} is not imported yet`, field.at);
    }
    const dot = declaration.fullName.lastIndexOf('.');
    const scope = dot < 0 ? '' : declaration.fullName.slice(0, dot);
    if (declaration.symbol.kind === 'enum') return this.enumeration(declaration.symbol.enumeration, scope);
    const message = declaration.symbol.message;
    return t.lazy(() => this.message(message, scope));
  }

  private enumeration(enumeration: ProtoEnumAst, scope: string): EnumSchema {
    const fullName = scope === '' ? enumeration.name : `${scope}.${enumeration.name}`;
    const known = this.types.get(fullName);
    if (known !== undefined) return known as EnumSchema;
    enumeration.values.forEach((value, index) => {
      if (value.number !== index) {
        protoError(
          `enum ${fullName}: value ${value.name} is numbered ${value.number}; only enums numbered 0, 1, 2… in order are imported yet`,
          value.at,
        );
      }
    });
    const schema = t.enum(
      enumeration.name,
      enumeration.values.map((value) => value.name),
      scope === '' ? {} : { namespace: scope },
    );
    this.types.set(fullName, schema);
    return schema;
  }
}

/**
 * A message's oneofs as t.object's `oneofs` option: each group's members by name, in the file's
 * order. The members are fields of the message with presence (a value holds at most one), which is
 * what protobuf writes and its JSON mapping shows, so no byte changes (schema/oneofs.ts). A proto3
 * `optional` field is no member here: the synthetic oneof protoc gives it exists only in descriptors.
 */
function oneofsOf(message: ProtoMessageAst): { oneofs?: Record<string, string[]> } {
  if (message.oneofs.length === 0) return {};
  const oneofs: Record<string, string[]> = Object.create(null);
  message.oneofs.forEach((oneof, index) => {
    oneofs[oneof.name] = message.fields.filter((field) => field.oneof === index).map((field) => field.name);
  });
  return { oneofs };
}
