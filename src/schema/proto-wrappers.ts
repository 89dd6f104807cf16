/**
 * Protocol Buffers' well-known wrapper messages (google/protobuf/wrappers.proto): a nullable scalar
 * that declares `proto: 'wrapper'` (NullableSchema.proto) is written as one of these, the value as
 * field 1 of the wrapper's type. One table for the builder that checks it, the exporter that names
 * it and the importer that reads it.
 */
const wrappers = {
  float64: ['DoubleValue', 'double'],
  float32: ['FloatValue', 'float'],
  int64: ['Int64Value', 'int64'],
  uint64: ['UInt64Value', 'uint64'],
  int32: ['Int32Value', 'int32'],
  uint32: ['UInt32Value', 'uint32'],
  bool: ['BoolValue', 'bool'],
  string: ['StringValue', 'string'],
  bytes: ['BytesValue', 'bytes'],
} as const;

export type ProtoWrapperKind = keyof typeof wrappers;

/** The wrapper message's name (without google.protobuf.) and field type for a schema kind, if any. */
export function protoWrapperOf(kind: string): readonly [string, string] | undefined {
  return Object.hasOwn(wrappers, kind) ? wrappers[kind as ProtoWrapperKind] : undefined;
}

/** The schema kinds that have a wrapper, for messages. */
export const protoWrapperKinds: readonly string[] = Object.keys(wrappers);
