/**
 * The well-known types of Protocol Buffers (google/protobuf/*.proto as protoc ships them, without
 * their comments and language options), so that a file importing them reads without protoc's
 * include folder. Only the declarations matter to a reader: package, message and field names,
 * numbers, types and labels; test/schema/proto/differential.test.ts compares them with protoc's own
 * files. descriptor.proto is not among them: it describes .proto files themselves, and a reader that
 * needs it (for custom options) brings what it needs.
 */

const header = 'syntax = "proto3";\npackage google.protobuf;\n';

const wrapper = (name: string, scalar: string) => `message ${name} { ${scalar} value = 1; }`;

/** Each file's text by the path an import names it with. */
export const wellKnownProtoFiles: ReadonlyMap<string, string> = new Map(
  Object.entries({
    any: 'message Any { string type_url = 1; bytes value = 2; }',
    duration: 'message Duration { int64 seconds = 1; int32 nanos = 2; }',
    empty: 'message Empty {}',
    field_mask: 'message FieldMask { repeated string paths = 1; }',
    source_context: 'message SourceContext { string file_name = 1; }',
    struct: [
      'message Struct { map<string, Value> fields = 1; }',
      'message Value {',
      '  oneof kind {',
      '    NullValue null_value = 1; double number_value = 2; string string_value = 3;',
      '    bool bool_value = 4; Struct struct_value = 5; ListValue list_value = 6;',
      '  }',
      '}',
      'enum NullValue { NULL_VALUE = 0; }',
      'message ListValue { repeated Value values = 1; }',
    ].join('\n'),
    timestamp: 'message Timestamp { int64 seconds = 1; int32 nanos = 2; }',
    wrappers: [
      wrapper('DoubleValue', 'double'),
      wrapper('FloatValue', 'float'),
      wrapper('Int64Value', 'int64'),
      wrapper('UInt64Value', 'uint64'),
      wrapper('Int32Value', 'int32'),
      wrapper('UInt32Value', 'uint32'),
      wrapper('BoolValue', 'bool'),
      wrapper('StringValue', 'string'),
      wrapper('BytesValue', 'bytes'),
    ].join('\n'),
    type: [
      'import "google/protobuf/any.proto";',
      'import "google/protobuf/source_context.proto";',
      'message Type {',
      '  string name = 1; repeated Field fields = 2; repeated string oneofs = 3;',
      '  repeated Option options = 4; SourceContext source_context = 5; Syntax syntax = 6;',
      '}',
      'message Field {',
      '  enum Kind {',
      '    TYPE_UNKNOWN = 0; TYPE_DOUBLE = 1; TYPE_FLOAT = 2; TYPE_INT64 = 3; TYPE_UINT64 = 4;',
      '    TYPE_INT32 = 5; TYPE_FIXED64 = 6; TYPE_FIXED32 = 7; TYPE_BOOL = 8; TYPE_STRING = 9;',
      '    TYPE_GROUP = 10; TYPE_MESSAGE = 11; TYPE_BYTES = 12; TYPE_UINT32 = 13; TYPE_ENUM = 14;',
      '    TYPE_SFIXED32 = 15; TYPE_SFIXED64 = 16; TYPE_SINT32 = 17; TYPE_SINT64 = 18;',
      '  }',
      '  enum Cardinality {',
      '    CARDINALITY_UNKNOWN = 0; CARDINALITY_OPTIONAL = 1; CARDINALITY_REQUIRED = 2; CARDINALITY_REPEATED = 3;',
      '  }',
      '  Kind kind = 1; Cardinality cardinality = 2; int32 number = 3; string name = 4;',
      '  string type_url = 6; int32 oneof_index = 7; bool packed = 8; repeated Option options = 9;',
      '  string json_name = 10; string default_value = 11;',
      '}',
      'message Enum {',
      '  string name = 1; repeated EnumValue enumvalue = 2; repeated Option options = 3;',
      '  SourceContext source_context = 4; Syntax syntax = 5;',
      '}',
      'message EnumValue { string name = 1; int32 number = 2; repeated Option options = 3; }',
      'message Option { string name = 1; Any value = 2; }',
      'enum Syntax { SYNTAX_PROTO2 = 0; SYNTAX_PROTO3 = 1; }',
    ].join('\n'),
    api: [
      'import "google/protobuf/source_context.proto";',
      'import "google/protobuf/type.proto";',
      'message Api {',
      '  string name = 1; repeated Method methods = 2; repeated Option options = 3; string version = 4;',
      '  SourceContext source_context = 5; repeated Mixin mixins = 6; Syntax syntax = 7;',
      '}',
      'message Method {',
      '  string name = 1; string request_type_url = 2; bool request_streaming = 3;',
      '  string response_type_url = 4; bool response_streaming = 5; repeated Option options = 6;',
      '  Syntax syntax = 7;',
      '}',
      'message Mixin { string name = 1; string root = 2; }',
    ].join('\n'),
  }).map(([name, body]) => [`google/protobuf/${name}.proto`, `${header}${body}\n`]),
);
