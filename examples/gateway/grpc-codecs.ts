/**
 * A wirekit service as @grpc/grpc-js's service definition, with wirekit's Protocol Buffers codecs as
 * the serializers (grpc-js takes any function from value to Buffer and back), so the internal hop
 * carries the same bytes protoc's runtimes write, decoded straight into wirekit's values (bigint,
 * Date). wirekit's own RPC server and client replace this when they land.
 */
import type { MethodDefinition } from '@grpc/grpc-js';
import { createProtobufCodec } from 'wirekit-ts/protobuf';
import type { MethodSchema, ServiceSchema } from 'wirekit-ts/schema';

/** grpc-js copies from a Buffer: wrap the codec's bytes without copying them. */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export function grpcDefinition(service: ServiceSchema): Record<string, MethodDefinition<unknown, unknown>> {
  const fullName = `${service.namespace}.${service.name}`;
  const definition: Record<string, MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(service.methods) as [string, MethodSchema][]) {
    const input = createProtobufCodec({ schema: method.input });
    const output = createProtobufCodec({ schema: method.output });
    definition[name] = {
      path: `/${fullName}/${name}`,
      requestStream: false,
      responseStream: false,
      requestSerialize: (value) => asBuffer(input.encode(value)),
      requestDeserialize: (bytes) => input.decode(bytes),
      responseSerialize: (value) => asBuffer(output.encode(value)),
      responseDeserialize: (bytes) => output.decode(bytes),
    };
  }
  return definition;
}
