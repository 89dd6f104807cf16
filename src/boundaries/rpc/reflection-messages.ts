/**
 * gRPC's server reflection protocol as wirekit schemas: the `ServerReflection` service of
 * `grpc.reflection.v1` and of its older twin `grpc.reflection.v1alpha` (grpcurl and Postman ask
 * v1 first and fall back to v1alpha; older clients, Python's among them, ask v1alpha only). Both
 * versions carry the same messages with the same field names and numbers, so one set of schemas
 * serves both: the messages take each service's package when the service is described.
 *
 * Field names and numbers are the protocol's (grpc/reflection/v1/reflection.proto in grpc-proto);
 * a `oneof` is a group of optional fields (docs/mapping/protobuf.md, *Oneof groups*), so a request
 * is `{ host, file_by_filename: 'orders/v1/OrderService.proto' }` and a reply sets one member.
 */
import { type Infer, t } from '../../schema/index.js';

/** Which file extends `containing_type` with field `extension_number`. */
const ExtensionRequest = t.object('ExtensionRequest', {
  containing_type: t.string(),
  extension_number: t.int32({ proto: 'int32' }),
});

export const ServerReflectionRequest = t.object(
  'ServerReflectionRequest',
  {
    host: t.string(),
    // Numbered from 3: the protocol never used 2.
    file_by_filename: t.field(t.optional(t.string()), { id: 3 }),
    file_containing_symbol: t.field(t.optional(t.string()), { id: 4 }),
    file_containing_extension: t.field(t.optional(ExtensionRequest), { id: 5 }),
    all_extension_numbers_of_type: t.field(t.optional(t.string()), { id: 6 }),
    /** The services' names are asked for; the string's content is not looked at. */
    list_services: t.field(t.optional(t.string()), { id: 7 }),
  },
  {
    oneofs: {
      message_request: [
        'file_by_filename',
        'file_containing_symbol',
        'file_containing_extension',
        'all_extension_numbers_of_type',
        'list_services',
      ],
    },
  },
);
export type ServerReflectionRequest = Infer<typeof ServerReflectionRequest>;

/** Serialized `google.protobuf.FileDescriptorProto`s: a file, then the files it imports. */
const FileDescriptorResponse = t.object('FileDescriptorResponse', {
  file_descriptor_proto: t.array(t.bytes()),
});

const ExtensionNumberResponse = t.object('ExtensionNumberResponse', {
  /** The full name of the message, without a leading dot. */
  base_type_name: t.string(),
  extension_number: t.array(t.int32({ proto: 'int32' })),
});

const ServiceResponse = t.object('ServiceResponse', {
  /** A service's full name: `orders.v1.OrderService`. */
  name: t.string(),
});

const ListServiceResponse = t.object('ListServiceResponse', {
  service: t.array(ServiceResponse),
});

/** What a request could not get: a gRPC status code (NOT_FOUND, mostly) and why. */
const ErrorResponse = t.object('ErrorResponse', {
  error_code: t.int32({ proto: 'int32' }),
  error_message: t.string(),
});

export const ServerReflectionResponse = t.object(
  'ServerReflectionResponse',
  {
    valid_host: t.string(),
    original_request: ServerReflectionRequest,
    // Numbered from 4: the protocol never used 3.
    file_descriptor_response: t.field(t.optional(FileDescriptorResponse), { id: 4 }),
    all_extension_numbers_response: t.field(t.optional(ExtensionNumberResponse), { id: 5 }),
    list_services_response: t.field(t.optional(ListServiceResponse), { id: 6 }),
    error_response: t.field(t.optional(ErrorResponse), { id: 7 }),
  },
  {
    oneofs: {
      message_response: [
        'file_descriptor_response',
        'all_extension_numbers_response',
        'list_services_response',
        'error_response',
      ],
    },
  },
);
export type ServerReflectionResponse = Infer<typeof ServerReflectionResponse>;

const methods = {
  /** One answer per request, in order, for as long as the client keeps the stream open. */
  ServerReflectionInfo: t.bidiStream(ServerReflectionRequest, ServerReflectionResponse),
};

/** `grpc.reflection.v1.ServerReflection`, the current version. */
export const ServerReflection = t.service('grpc.reflection.v1.ServerReflection', methods);

/** `grpc.reflection.v1alpha.ServerReflection`, the version older clients ask for. */
export const ServerReflectionV1Alpha = t.service('grpc.reflection.v1alpha.ServerReflection', methods);
