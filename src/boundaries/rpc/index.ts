export { BadRequest, ErrorInfo, type RpcErrorDetail, wirekitErrorDomain } from './error-details.js';
export { grpcStatusOfErrorCode, type RpcStatus, type RpcStatusOptions, rpcStatusOf } from './error-status.js';
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
  connectCodeOf,
  connectHttpStatusOf,
  type GrpcStatusCode,
  type GrpcStatusName,
  grpcStatusCodes,
} from './status-codes.js';
