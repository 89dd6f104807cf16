/**
 * The parts of protoc's descriptor.proto (google.protobuf.FileDescriptorSet and what it holds)
 * that an import reads, as a wirekit schema, so that wirekit's own Protocol Buffers codec decodes a
 * `protoc --descriptor_set_out` file: its limits (input size, nesting depth, string lengths) and
 * its typed errors then guard the import as they guard any other untrusted message, with no second
 * reader of the wire format to keep correct.
 *
 * Field numbers are descriptor.proto's. Everything else the descriptors hold (file options, custom
 * options, source comments, features of editions) is left out and skipped as unknown fields. The
 * enums (a field's label and type, a method's idempotency) are read as their numbers: they are
 * closed proto2 enums, so a number the reader does not know is refused by the import, not here.
 */
import * as t from '../../schema/builders.js';
import type { ProtoScalar } from '../../schema/proto/index.js';
import type { Infer, ObjectSchema, Schema } from '../../schema/types.js';

const scope = { namespace: 'google.protobuf' } as const;

/** proto2's `optional T name = id;`: present or absent on the wire. */
const opt = <S extends Schema>(schema: S, id: number) => t.field(t.optional(schema), { id });
const list = <S extends Schema>(schema: S, id: number) => t.field(t.array(schema), { id });
const int32 = () => t.int32({ proto: 'int32' });

const fieldOptions = t.object(
  'FieldOptions',
  { packed: opt(t.bool(), 2), deprecated: opt(t.bool(), 3) },
  scope,
);

const fieldDescriptor = t.object(
  'FieldDescriptorProto',
  {
    name: opt(t.string(), 1),
    extendee: opt(t.string(), 2),
    number: opt(int32(), 3),
    label: opt(int32(), 4),
    type: opt(int32(), 5),
    typeName: opt(t.string(), 6),
    defaultValue: opt(t.string(), 7),
    options: opt(fieldOptions, 8),
    oneofIndex: opt(int32(), 9),
    jsonName: opt(t.string(), 10),
    proto3Optional: opt(t.bool(), 17),
  },
  scope,
);

/** A reserved or extension range; `end` is exclusive in a message, inclusive in an enum. */
const range = (name: string) => t.object(name, { start: opt(int32(), 1), end: opt(int32(), 2) }, scope);

const enumDescriptor = t.object(
  'EnumDescriptorProto',
  {
    name: opt(t.string(), 1),
    value: list(
      t.object(
        'EnumValueDescriptorProto',
        {
          name: opt(t.string(), 1),
          number: opt(int32(), 2),
          options: opt(t.object('EnumValueOptions', { deprecated: opt(t.bool(), 1) }, scope), 3),
        },
        scope,
      ),
      2,
    ),
    options: opt(
      t.object('EnumOptions', { allowAlias: opt(t.bool(), 2), deprecated: opt(t.bool(), 3) }, scope),
      3,
    ),
    reservedRange: list(range('EnumReservedRange'), 4),
    reservedName: list(t.string(), 5),
  },
  scope,
);

const messageOptions = t.object(
  'MessageOptions',
  { deprecated: opt(t.bool(), 3), mapEntry: opt(t.bool(), 7) },
  scope,
);

export type MessageDescriptor = {
  readonly name?: string | undefined;
  readonly field: readonly FieldDescriptor[];
  readonly extension: readonly FieldDescriptor[];
  readonly nestedType: readonly MessageDescriptor[];
  readonly enumType: readonly EnumDescriptor[];
  readonly extensionRange: readonly Range[];
  readonly oneofDecl: readonly { readonly name?: string | undefined }[];
  readonly options?: Infer<typeof messageOptions> | undefined;
  readonly reservedRange: readonly Range[];
  readonly reservedName: readonly string[];
};

const messageDescriptor: ObjectSchema<MessageDescriptor> = t.object(
  'DescriptorProto',
  {
    name: opt(t.string(), 1),
    field: list(fieldDescriptor, 2),
    nestedType: list(
      t.lazy(() => messageDescriptor),
      3,
    ),
    enumType: list(enumDescriptor, 4),
    extensionRange: list(range('ExtensionRange'), 5),
    extension: list(fieldDescriptor, 6),
    options: opt(messageOptions, 7),
    oneofDecl: list(t.object('OneofDescriptorProto', { name: opt(t.string(), 1) }, scope), 8),
    reservedRange: list(range('ReservedRange'), 9),
    reservedName: list(t.string(), 10),
  },
  scope,
) as never;

const methodDescriptor = t.object(
  'MethodDescriptorProto',
  {
    name: opt(t.string(), 1),
    inputType: opt(t.string(), 2),
    outputType: opt(t.string(), 3),
    options: opt(
      t.object('MethodOptions', { deprecated: opt(t.bool(), 33), idempotencyLevel: opt(int32(), 34) }, scope),
      4,
    ),
    clientStreaming: opt(t.bool(), 5),
    serverStreaming: opt(t.bool(), 6),
  },
  scope,
);

const fileDescriptor = t.object(
  'FileDescriptorProto',
  {
    name: opt(t.string(), 1),
    package: opt(t.string(), 2),
    dependency: list(t.string(), 3),
    messageType: list(messageDescriptor, 4),
    enumType: list(enumDescriptor, 5),
    service: list(
      t.object(
        'ServiceDescriptorProto',
        {
          name: opt(t.string(), 1),
          method: list(methodDescriptor, 2),
          options: opt(t.object('ServiceOptions', { deprecated: opt(t.bool(), 33) }, scope), 3),
        },
        scope,
      ),
      6,
    ),
    extension: list(fieldDescriptor, 7),
    sourceCodeInfo: opt(
      t.object(
        'SourceCodeInfo',
        {
          location: list(
            t.object(
              'Location',
              { path: list(int32(), 1), span: list(int32(), 2) },
              { namespace: 'google.protobuf.SourceCodeInfo' },
            ),
            1,
          ),
        },
        scope,
      ),
      9,
    ),
    // descriptor.proto is proto2: its repeated numbers are not packed, as protoc writes them.
    publicDependency: t.field(t.array(int32(), { packed: false }), { id: 10 }),
    weakDependency: t.field(t.array(int32(), { packed: false }), { id: 11 }),
    syntax: opt(t.string(), 12),
    /** `edition` (an enum since protobuf 27; a string, field 13, in the experimental releases before). */
    edition: opt(int32(), 14),
  },
  scope,
);

/** google.protobuf.FileDescriptorSet: what `protoc --descriptor_set_out` writes. */
export const fileDescriptorSet = t.object('FileDescriptorSet', { file: list(fileDescriptor, 1) }, scope);

export type FileDescriptor = Infer<typeof fileDescriptor>;
export type FieldDescriptor = Infer<typeof fieldDescriptor>;
export type EnumDescriptor = Infer<typeof enumDescriptor>;
type Range = Infer<ReturnType<typeof range>>;

/** FieldDescriptorProto.Type's numbers: the scalars, and the three that name a type. */
export const scalarTypes: Readonly<Record<number, ProtoScalar>> = {
  1: 'double',
  2: 'float',
  3: 'int64',
  4: 'uint64',
  5: 'int32',
  6: 'fixed64',
  7: 'fixed32',
  8: 'bool',
  9: 'string',
  12: 'bytes',
  13: 'uint32',
  15: 'sfixed32',
  16: 'sfixed64',
  17: 'sint32',
  18: 'sint64',
};
export const TYPE_GROUP = 10;
export const TYPE_MESSAGE = 11;
export const TYPE_ENUM = 14;
export const LABEL_REQUIRED = 2;
export const LABEL_REPEATED = 3;
