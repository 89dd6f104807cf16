export { BadRequest, ErrorInfo, type RpcErrorDetail, wirekitErrorDomain } from './error-details.js';
export { grpcStatusOfErrorCode, type RpcStatus, type RpcStatusOptions, rpcStatusOf } from './error-status.js';
export {
  connectCodeOf,
  connectHttpStatusOf,
  type GrpcStatusCode,
  type GrpcStatusName,
  grpcStatusCodes,
} from './status-codes.js';
