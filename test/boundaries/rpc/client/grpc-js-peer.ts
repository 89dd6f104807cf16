/**
 * A grpc-js server whose messages are wirekit's Protocol Buffers codec: real gRPC framing over
 * HTTP/2 from an implementation that shares no code with Connect, for the client's gRPC tests.
 * (grpc-js takes any serializer; it must return a Buffer, which a view over wirekit's bytes is.)
 */
import * as grpc from '@grpc/grpc-js';
import { createCodec } from '../../../../src/codecs/index.js';
import type { ServiceSchema } from '../../../../src/index.js';
import { t } from '../../../../src/index.js';

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The service as grpc-js's plain-data definition, each message through wirekit's codec. */
export function grpcJsDefinition(service: ServiceSchema): grpc.ServiceDefinition {
  const fullName = service.namespace === undefined ? service.name : `${service.namespace}.${service.name}`;
  const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(service.methods)) {
    const input = createCodec('protobuf', { schema: method.input });
    const output = createCodec('protobuf', { schema: method.output });
    definition[name] = {
      path: `/${fullName}/${name}`,
      requestStream: method.methodKind === 'client_streaming' || method.methodKind === 'bidi_streaming',
      responseStream: method.methodKind === 'server_streaming' || method.methodKind === 'bidi_streaming',
      requestSerialize: (value) => asBuffer(input.encode(value)),
      requestDeserialize: (bytes) => input.decode(bytes),
      responseSerialize: (value) => asBuffer(output.encode(value)),
      responseDeserialize: (bytes) => output.decode(bytes),
    };
  }
  return definition;
}

export interface GrpcJsPeer {
  readonly url: string;
  close(): Promise<void>;
}

export async function startGrpcJsServer(
  service: ServiceSchema,
  handlers: grpc.UntypedServiceImplementation,
): Promise<GrpcJsPeer> {
  const server = new grpc.Server();
  server.addService(grpcJsDefinition(service), handlers);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error === null ? resolve(bound) : reject(error),
    ),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => server.tryShutdown(() => resolve())).then(() => server.forceShutdown()),
  };
}

// google.rpc.Status and google.protobuf.Any, as the standard numbers their fields.
const Any = t.object('Any', { typeUrl: t.string(), value: t.bytes() });
const StatusMessage = t.object('Status', {
  code: t.int32({ proto: 'int32' }),
  message: t.string(),
  details: t.array(Any),
});
const statusCodec = createCodec('protobuf', { schema: StatusMessage });

/** The `grpc-status-details-bin` value of a status with these details (each its type and bytes). */
export function statusDetailsBin(
  code: number,
  message: string,
  details: readonly { type: string; value: Uint8Array }[],
): Buffer {
  return asBuffer(
    statusCodec.encode({
      code,
      message,
      details: details.map((detail) => ({
        typeUrl: `type.googleapis.com/${detail.type}`,
        value: detail.value,
      })),
    }),
  );
}
