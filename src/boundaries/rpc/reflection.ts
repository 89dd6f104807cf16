/**
 * Server reflection: the service through which grpcurl, Postman, Python's reflection client and
 * every other generic gRPC tool learn a server's services and messages without a `.proto` file.
 * A client asks for the services' names, then for the file declaring a symbol (a service, a
 * message) or a file by name, and builds its descriptor pool from the serialized
 * FileDescriptorProtos it gets back: the file and every file it imports, which descriptorFiles
 * makes from wirekit's schemas (the same bytes protoc writes for `toProto`'s text).
 *
 * Both protocol versions are served by the same handler (their messages are the same), and the
 * answers follow grpc-go's and grpc-java's reflection services: each request gets one reply that
 * echoes it, and what is not here is an `error_response` with NOT_FOUND, the stream staying open.
 */
import type { DescriptorFiles } from '../../codecs/protobuf/descriptor-files.js';
import type { CallContext, ServiceHandlers, ServiceSchema } from '../../schema/index.js';
import {
  ServerReflection,
  type ServerReflectionRequest,
  type ServerReflectionResponse,
  ServerReflectionV1Alpha,
} from './reflection-messages.js';
import { fullNameOf, serviceFiles } from './service-files.js';
import type { ServiceImplementation } from './service-implementation.js';
import { type GrpcStatusName, grpcStatusCodes } from './status-codes.js';

/** The reflection protocol's two versions: `grpc.reflection.v1` and `grpc.reflection.v1alpha`. */
export type ReflectionVersion = 'v1' | 'v1alpha';

type Handlers = ServiceHandlers<typeof ServerReflection>;

/**
 * The handlers of `ServerReflection` (either version) answering from `files`: ListServices with
 * `files.services`, FileByFilename and FileContainingSymbol with the file and its imports. wirekit
 * declares no extensions, so FileContainingExtension is always NOT_FOUND, and
 * AllExtensionNumbersOfType is an empty list for a message declared here (NOT_FOUND otherwise), as
 * the reference servers answer for a message that has none.
 */
export function reflectionHandlers(files: DescriptorFiles): Handlers {
  return {
    async *ServerReflectionInfo(requests: AsyncIterable<ServerReflectionRequest>, _context: CallContext) {
      for await (const request of requests) yield answer(files, request);
    },
  };
}

/** The reply to one request, which it echoes (`original_request`) with the host it named. */
function answer(files: DescriptorFiles, request: ServerReflectionRequest): ServerReflectionResponse {
  const reply = { valid_host: request.host, original_request: request };
  const error = (status: GrpcStatusName, message: string): ServerReflectionResponse => ({
    ...reply,
    error_response: { error_code: grpcStatusCodes[status], error_message: message },
  });
  const descriptors = (found: Uint8Array[] | undefined, missing: string): ServerReflectionResponse =>
    found === undefined
      ? error('NOT_FOUND', missing)
      : { ...reply, file_descriptor_response: { file_descriptor_proto: found } };

  if (request.list_services !== undefined) {
    return { ...reply, list_services_response: { service: files.services.map((name) => ({ name })) } };
  }
  if (request.file_by_filename !== undefined) {
    const name = request.file_by_filename;
    return descriptors(files.fileByName(name), `no file named ${name}`);
  }
  if (request.file_containing_symbol !== undefined) {
    const symbol = request.file_containing_symbol;
    return descriptors(files.fileContainingSymbol(symbol), `no symbol ${symbol}`);
  }
  if (request.file_containing_extension !== undefined) {
    const { containing_type, extension_number } = request.file_containing_extension;
    return error('NOT_FOUND', `no extension ${extension_number} of ${containing_type}`);
  }
  if (request.all_extension_numbers_of_type !== undefined) {
    const type = request.all_extension_numbers_of_type;
    return files.isMessage(type)
      ? { ...reply, all_extension_numbers_response: { base_type_name: type, extension_number: [] } }
      : error('NOT_FOUND', `no message type ${type}`);
  }
  // No member set: a kind of request newer than this protocol's, or none at all (grpc-java's answer).
  return error('UNIMPLEMENTED', 'the request asks for nothing this server knows');
}

const versions: Readonly<Record<ReflectionVersion, typeof ServerReflection>> = {
  v1: ServerReflection,
  v1alpha: ServerReflectionV1Alpha,
};

export interface ServerReflectionOptions {
  /** The protocol versions to serve (default both: grpcurl asks v1, older clients v1alpha). */
  readonly versions?: readonly ReflectionVersion[];
}

/**
 * Reflection for a server that serves `services`: the reflection services of each version, with
 * handlers answering from one file per service (`fileNameOf`), the reflection services' own files
 * among them, since grpcurl lists and describes them too. Pass `createHealth().service` among
 * `services` when the server serves health checking, so that it is listed and its file found.
 *
 *   const health = createHealth();
 *   const served = [orders, health, ...serverReflection([OrderService, health.service])];
 */
export function serverReflection(
  services: readonly ServiceSchema[],
  options: ServerReflectionOptions = {},
): ServiceImplementation<typeof ServerReflection>[] {
  const reflection = (options.versions ?? ['v1', 'v1alpha']).map((version) => versions[version]);
  const described = [...services];
  for (const service of reflection) {
    if (!described.some((other) => fullNameOf(other) === fullNameOf(service))) described.push(service);
  }
  const handlers = reflectionHandlers(serviceFiles(described));
  return [...new Set(reflection)].map((service) => ({ service, handlers }));
}
