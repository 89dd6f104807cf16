export { BadRequest, ErrorInfo, type RpcErrorDetail, wirekitErrorDomain } from './error-details.js';
export { grpcStatusOfErrorCode, type RpcStatus, type RpcStatusOptions, rpcStatusOf } from './error-status.js';
export {
  createHealth,
  type Health,
  type HealthOptions,
  type HealthStatus,
} from './health.js';
export {
  HealthCheckRequest,
  HealthCheckResponse,
  HealthListResponse,
  HealthService,
  ServingStatus,
} from './health-messages.js';
export {
  codecOfContentType,
  contentTypeOf,
  type MessageCodecOptions,
  type MessageSerializer,
  MessageSerializers,
  messageSerializer,
  protocolOfContentType,
  type RpcCodecName,
  type RpcContentType,
  type RpcProtocol,
  rpcCodecNames,
} from './message-formats.js';
export {
  type ReflectionVersion,
  reflectionHandlers,
  type ServerReflectionOptions,
  serverReflection,
} from './reflection.js';
export {
  ServerReflection,
  ServerReflectionRequest,
  ServerReflectionResponse,
  ServerReflectionV1Alpha,
} from './reflection-messages.js';
export { type RawErrorDetail, RpcError, type RpcErrorInit, type RpcFailureStatus } from './rpc-error.js';
export { fileNameOf, fullNameOf, serviceFiles } from './service-files.js';
export type { ServiceImplementation } from './service-implementation.js';
export {
  connectCodeOf,
  connectHttpStatusOf,
  type GrpcStatusCode,
  type GrpcStatusName,
  grpcStatusCodes,
} from './status-codes.js';
