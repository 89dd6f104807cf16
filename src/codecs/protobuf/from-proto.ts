/**
 * `schemaFromProto`: the messages of a `.proto` file as wirekit schemas that keep the file's field
 * numbers, names and integer wire types, so that this codec writes, for any value, the bytes
 * protoc's runtimes write for that file (issue 32). The files are read by from-proto-files.ts with
 * the registry's reader (schema/proto), which checks and links them; this module only maps what
 * that reader gives. docs/mapping/protobuf.md ("Importing a .proto file") is the contract.
 *
 * Mapped: messages (a nested one named by its full name: namespace = package and enclosing
 * messages), every scalar as declared, enums with their value names and numbers, maps, repeated
 * fields (packed by the file's rules and `[packed]`), `optional`, proto2 and message fields (which
 * have presence) as `t.optional`, proto2 defaults as field defaults, reserved numbers,
 * google.protobuf.Timestamp as a timestamp of its years (0001-9999), Struct, Value and ListValue
 * as the json kind written as those messages, and the other well-known types by their own
 * structure. A `oneof`'s members are optional fields in a oneof group (oneofsOf).
 * Refused by name with SchemaImportError (WK_SCHEMA_IMPORT), never mapped to other
 * bytes: groups, extensions of data messages, enum aliases.
 */
import * as t from '../../schema/builders.js';
import type {
  ProtoEnumAst,
  ProtoFieldAst,
  ProtoFileAst,
  ProtoMessageAst,
  ProtoPosition,
  ProtoScalar,
} from '../../schema/proto/index.js';
import type { ProtoDeclaration } from '../../schema/proto/link.js';
import type { EnumSchema, JsonProtoForm, MapKeySchema, ObjectSchema, Schema } from '../../schema/types.js';
import { defaultValue } from './from-proto-defaults.js';
import { type ProtoFileLimits, type ProtoFileSet, readProtoFiles, refusal } from './from-proto-files.js';
import { type ImportedProtoService, protoServices } from './proto-services.js';

export interface SchemaFromProtoOptions extends ProtoFileLimits {
  /**
   * The text of each file the `.proto` imports, by the path its import names, or undefined when
   * there is none. The well-known types (google/protobuf/*.proto) are built in, so a file that
   * imports only those needs no callback; `schemaFromProtoFile` (wirekit-ts/protobuf/files) reads
   * imports from include paths on disk.
   */
  readonly imports?: (path: string) => string | undefined;
  /** Where `imports` looked, for the refusal of a file it did not find (`-I proto`). */
  readonly searched?: string;
}

export interface ImportedProto {
  /**
   * Every message and enum the file declares (nested ones included), by full name, and the
   * messages of imported files its rpcs name.
   */
  readonly types: ReadonlyMap<string, ObjectSchema | EnumSchema>;
  /** The file's services, their rpcs' messages mapped as `types` maps them (proto-services.ts). */
  readonly services: readonly ImportedProtoService[];
}

/** Reads a `.proto` file's messages and enums as wirekit schemas; see the module comment. */
export function schemaFromProto(text: string, options: SchemaFromProtoOptions = {}): ImportedProto {
  const { imports, searched } = options;
  const files = readProtoFiles(
    text,
    { read: (path) => imports?.(path), ...(searched === undefined ? {} : { searched }) },
    options,
  );
  return importProtoFiles(files);
}

/**
 * The mapping of files already read and linked: schemaFromProto's second half, which
 * schemaFromDescriptorSet shares (it builds the same files from protoc's descriptors).
 */
export function importProtoFiles(files: ProtoFileSet): ImportedProto {
  const importer = new Importer(files);
  const types = importer.run();
  const services = protoServices(files.root, (message, scope, file) =>
    importer.message(message, scope, file),
  );
  return { types, services };
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

/** The well-known wrappers, by full name: a nullable of their scalar (NullableSchema.proto). */
const wrapperScalars: ReadonlyMap<string, ProtoScalar> = new Map(
  (
    [
      ['DoubleValue', 'double'],
      ['FloatValue', 'float'],
      ['Int64Value', 'int64'],
      ['UInt64Value', 'uint64'],
      ['Int32Value', 'int32'],
      ['UInt32Value', 'uint32'],
      ['BoolValue', 'bool'],
      ['StringValue', 'string'],
      ['BytesValue', 'bytes'],
    ] as const
  ).map(([name, scalar]) => [`google.protobuf.${name}`, scalar]),
);

/**
 * The well-known JSON messages (struct.proto), by full name: the json kind, written as the message
 * it was declared (JsonSchema.proto).
 */
const jsonTypes: ReadonlyMap<string, JsonProtoForm> = new Map([
  ['google.protobuf.Value', 'value'],
  ['google.protobuf.Struct', 'struct'],
  ['google.protobuf.ListValue', 'list'],
]);

class Importer {
  private readonly types = new Map<string, ObjectSchema | EnumSchema>();

  constructor(private readonly files: ProtoFileSet) {}

  run(): Map<string, ObjectSchema | EnumSchema> {
    const { file } = this.files.root;
    this.extensions(file, file.extends);
    for (const message of file.messages) this.message(message, file.package, file);
    for (const enumeration of file.enums) this.enumeration(enumeration, file.package, file);
    return this.types;
  }

  private refuse(message: string, file: ProtoFileAst, at: ProtoPosition | undefined): never {
    throw refusal(message, this.files.pathOf.get(file), at);
  }

  /**
   * `extend` blocks: an extension of an options message (a custom option) describes the file, not
   * its data, and is passed over; an extension of a data message adds fields to it from outside,
   * which the imported schema would not hold, so it is refused rather than dropped.
   */
  private extensions(file: ProtoFileAst, blocks: ProtoFileAst['extends']): void {
    for (const block of blocks) {
      // By the full name it resolves to, the same whether the file wrote `Order` or `.shop.v1.Order`.
      const extendee = this.files.extendees.get(block)?.fullName ?? block.extendee.replace(/^\./, '');
      if (/^google\.protobuf\.[A-Za-z]*Options$/.test(extendee)) continue;
      this.refuse(
        `extend ${extendee}: extensions are not imported (they add fields to a message from ` +
          'outside it, which its schema would not hold); declare the fields in the message itself, ' +
          'with the same numbers, or leave the extend block out of the file you import',
        file,
        block.at,
      );
    }
  }

  /** Public for the services, whose rpcs may name a message of an imported file. */
  message(message: ProtoMessageAst, scope: string, file: ProtoFileAst): ObjectSchema {
    const fullName = scope === '' ? message.name : `${scope}.${message.name}`;
    const known = this.types.get(fullName);
    if (known !== undefined) return known as ObjectSchema;
    this.extensions(file, message.extends);
    for (const nested of message.messages) this.message(nested, fullName, file);
    for (const nested of message.enums) this.enumeration(nested, fullName, file);
    const fields: Record<string, t.Field> = Object.create(null);
    for (const field of message.fields) {
      const schema = this.field(field, fullName, file);
      const fallback = this.fieldDefault(field, schema, fullName, file);
      fields[field.name] = t.field(schema, {
        id: field.number,
        ...(fallback === undefined ? {} : { default: fallback }),
        // Written even when it holds its default, as proto2 writes a required field.
        ...(field.label === 'required' ? { presence: 'explicit' as const } : {}),
      });
    }
    const reserved = message.reserved.ranges.flatMap((range) => {
      if (range.end - range.start > 1000) {
        this.refuse(
          `message ${fullName}: reserved ranges wider than 1000 numbers are not imported yet`,
          file,
          range.at,
        );
      }
      return Array.from({ length: range.end - range.start + 1 }, (_, i) => range.start + i);
    });
    // Extension ranges (`extensions 100 to 199;`) declare no field: numbers for extensions, which
    // are refused where they are declared (see extensions) and skipped, as unknown fields, on the wire.
    const schema = t.object(message.name, fields, {
      ...(scope === '' ? {} : { namespace: scope }),
      ...(reserved.length > 0 ? { reserved } : {}),
      ...oneofsOf(message),
    });
    this.types.set(fullName, schema);
    return schema;
  }

  private field(field: ProtoFieldAst, owner: string, file: ProtoFileAst): Schema {
    const where = `field ${owner}.${field.name}`;
    const { syntax } = file;
    const type = field.type;
    if (type.kind === 'group') {
      const name = type.message.name;
      this.refuse(
        `${where}: groups are not imported (wirekit writes no START_GROUP/END_GROUP fields); a ` +
          `group is a nested message written between tags, so declare "message ${name} { ... }" and ` +
          `"${field.label ?? 'optional'} ${name} ${field.name} = ${field.number};" instead, knowing ` +
          'that the bytes change from a group to a length-delimited message',
        file,
        field.at,
      );
    }
    if (type.kind === 'map') {
      const key = scalarSchemas[type.key]() as MapKeySchema;
      const value =
        type.value.kind === 'scalar' ? scalarSchemas[type.value.scalar]() : this.named(field, true);
      return t.map(key, value);
    }
    const value =
      type.kind === 'scalar' ? scalarSchemas[type.scalar]() : this.named(field, field.label === 'repeated');
    if (field.label === 'repeated') {
      const packedOption = field.options.find((option) => option.name[0]?.name === 'packed');
      // proto3 packs repeated scalars unless told not to; proto2 only when told to.
      const packed =
        packedOption === undefined
          ? syntax === 'proto3'
          : packedOption.value.kind === 'identifier' && packedOption.value.value === 'true';
      return t.array(value, { packed });
    }
    // A proto2 required field must hold a value (and has explicit presence: see message()); a
    // wrapper's presence is its null.
    if (field.label === 'required' || value.kind === 'nullable') return value;
    // A message field always has presence; a scalar or enum field has it when marked optional,
    // and always in proto2.
    const present =
      field.label === 'optional' ||
      field.oneof !== undefined ||
      syntax === 'proto2' ||
      (type.kind === 'named' && value.kind !== 'enum');
    return present ? t.optional(value) : value;
  }

  /** A proto2 `[default = …]` as the field's default, of the field's own type. */
  private fieldDefault(field: ProtoFieldAst, schema: Schema, owner: string, file: ProtoFileAst): unknown {
    const option = field.options.find(
      (candidate) => candidate.name.length === 1 && candidate.name[0]?.name === 'default',
    );
    if (option === undefined) return undefined;
    const value = defaultValue(option.value, schema.kind === 'optional' ? schema.inner : schema);
    if (value === undefined) {
      this.refuse(`field ${owner}.${field.name}: this default is not imported`, file, option.at);
    }
    return value;
  }

  /**
   * The schema of a field's named type: a message (by reference, so recursion resolves), an enum, a
   * Timestamp, a wrapper; `element` for a list item or map value.
   */
  private named(field: ProtoFieldAst, element = false): Schema {
    const declaration = this.files.fieldTypes.get(field) as ProtoDeclaration;
    const { fullName } = declaration;
    // A Timestamp holds years 0001 to 9999 at nanoseconds. No 64-bit count of ns reaches that far
    // (1677-2262), so the unit is microseconds, the finest that does, with the range declared, so
    // that every format holds the value to the Timestamp's own years; a Date keeps milliseconds
    // anyway (finer nanos are rounded toward the past, docs/survival.md).
    if (fullName === 'google.protobuf.Timestamp') return t.timestamp({ precision: 'us', range: '0001-9999' });
    // A wrapper field is a nullable scalar; a list item or map value cannot be absent, so there it
    // stays the message it is ({ value }), as protoc's runtimes hold it.
    const wrapped = wrapperScalars.get(fullName);
    if (wrapped !== undefined && !element) return t.nullable(scalarSchemas[wrapped](), { proto: 'wrapper' });
    const jsonForm = jsonTypes.get(fullName);
    if (jsonForm !== undefined) return t.json({ proto: jsonForm });
    const dot = fullName.lastIndexOf('.');
    const scope = dot < 0 ? '' : fullName.slice(0, dot);
    const { symbol } = declaration;
    if (symbol.kind === 'enum') return this.enumeration(symbol.enumeration, scope, symbol.file);
    return t.lazy(() => this.message(symbol.message, scope, symbol.file));
  }

  /**
   * An enum keeps the file's value names and numbers (EnumSchema.numbers). Open or closed, it is
   * closed in wirekit: a number that names no value is refused when read, in every format
   * (docs/mapping/protobuf.md), where proto3's runtimes keep it.
   */
  private enumeration(enumeration: ProtoEnumAst, scope: string, file: ProtoFileAst): EnumSchema {
    const fullName = scope === '' ? enumeration.name : `${scope}.${enumeration.name}`;
    const known = this.types.get(fullName);
    if (known !== undefined) return known as EnumSchema;
    const numbers = new Map<number, string>();
    for (const value of enumeration.values) {
      const other = numbers.get(value.number);
      if (other !== undefined) {
        this.refuse(
          `enum ${fullName}: ${value.name} and ${other} are both ${value.number} (allow_alias); aliases ` +
            'are not imported, as a number read would have two names; keep one of them',
          file,
          value.at,
        );
      }
      numbers.set(value.number, value.name);
    }
    const schema = t.enum(
      enumeration.name,
      enumeration.values.map((value) => value.name),
      {
        ...(scope === '' ? {} : { namespace: scope }),
        numbers: enumeration.values.map((value) => value.number),
      },
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
