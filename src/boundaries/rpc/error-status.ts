/**
 * What a failed call answers with: one table from each wirekit error code to a gRPC status, and
 * the function that turns whatever a handler threw into `{ status, code, message, details }`.
 *
 * The table describes a code as it reaches an RPC server: raised while reading the caller's
 * request, or by a handler on the caller's behalf. So what the caller sent wrong is
 * INVALID_ARGUMENT (or FAILED_PRECONDITION where the caller must change something first), a limit
 * is RESOURCE_EXHAUSTED (as gRPC's own message-size limit is), a format this server does not speak
 * is UNIMPLEMENTED, a store or broker that cannot be reached is UNAVAILABLE (clients may retry),
 * and what only the server's code or deployment can fix is INTERNAL (clients should not).
 */
import {
  type ErrorCode,
  formatPath,
  isWirekitError,
  ValidationError,
  type WirekitError,
} from '../../errors/index.js';
import { type ErrorInfo, type RpcErrorDetail, wirekitErrorDomain } from './error-details.js';
import { RpcError } from './rpc-error.js';
import { type GrpcStatusCode, type GrpcStatusName, grpcStatusCodes } from './status-codes.js';

/** The gRPC status of each wirekit error code. A Record, so a new code without one fails to compile. */
export const grpcStatusOfErrorCode: Readonly<Record<ErrorCode, Exclude<GrpcStatusName, 'OK'>>> = {
  // Schemas given in a request (a .proto, an Avro or JSON schema, samples to infer from).
  WK_SCHEMA_INVALID: 'INVALID_ARGUMENT',
  WK_SCHEMA_FIELD_ID: 'INVALID_ARGUMENT',
  WK_SCHEMA_NAME_CONFLICT: 'INVALID_ARGUMENT',
  WK_SCHEMA_UNRESOLVED_REF: 'INVALID_ARGUMENT',
  WK_SCHEMA_JSON_INVALID: 'INVALID_ARGUMENT',
  WK_SCHEMA_IMPORT: 'INVALID_ARGUMENT',
  WK_EXPORT_UNSUPPORTED: 'INVALID_ARGUMENT',
  WK_INFER_NO_SAMPLES: 'INVALID_ARGUMENT',
  // A bug in the server's own code or deployment: nothing the caller can change.
  WK_OPTIONS_INVALID: 'INTERNAL',
  WK_PEER_MISSING: 'INTERNAL',
  WK_SCHEMA_REQUIRED: 'INTERNAL',
  WK_ENCODE_UNSUPPORTED: 'INTERNAL',
  // Values and bytes the caller sent.
  WK_VALIDATION_FAILED: 'INVALID_ARGUMENT',
  WK_JSON_VALUE_INVALID: 'INVALID_ARGUMENT',
  WK_DECODE_TRUNCATED: 'INVALID_ARGUMENT',
  WK_DECODE_MALFORMED: 'INVALID_ARGUMENT',
  WK_DECODE_TRAILING: 'INVALID_ARGUMENT',
  WK_DECODE_SCHEMA_MISMATCH: 'INVALID_ARGUMENT',
  WK_DECODE_UNSAFE_KEY: 'INVALID_ARGUMENT',
  WK_DECODE_UNKNOWN_EXTENSION: 'INVALID_ARGUMENT',
  WK_COMPRESSION_FAILED: 'INVALID_ARGUMENT',
  WK_ENVELOPE_INVALID: 'INVALID_ARGUMENT',
  WK_EVENT_FRAME_INVALID: 'INVALID_ARGUMENT',
  WK_HTTP_BODY_REQUIRED: 'INVALID_ARGUMENT',
  // The command line's own codes: no RPC raises them, but a handler that runs the CLI's code might.
  WK_CLI_USAGE: 'INVALID_ARGUMENT',
  WK_CLI_INPUT: 'INVALID_ARGUMENT',
  // Limits, as gRPC answers a message past its size limit.
  WK_LIMIT_INPUT: 'RESOURCE_EXHAUSTED',
  WK_LIMIT_DEPTH: 'RESOURCE_EXHAUSTED',
  WK_LIMIT_LENGTH: 'RESOURCE_EXHAUSTED',
  WK_LIMIT_ELEMENTS: 'RESOURCE_EXHAUSTED',
  WK_LIMIT_ALLOCATION: 'RESOURCE_EXHAUSTED',
  WK_LIMIT_DECOMPRESSED: 'RESOURCE_EXHAUSTED',
  WK_HTTP_BODY_TOO_LARGE: 'RESOURCE_EXHAUSTED',
  WK_CACHE_VALUE_TOO_LARGE: 'RESOURCE_EXHAUSTED',
  WK_WS_SLOW_CONSUMER: 'RESOURCE_EXHAUSTED',
  // Something this server does not speak, as gRPC answers an unknown grpc-encoding.
  WK_UNKNOWN_FORMAT: 'UNIMPLEMENTED',
  WK_ENVELOPE_VERSION: 'UNIMPLEMENTED',
  WK_HTTP_NOT_ACCEPTABLE: 'UNIMPLEMENTED',
  WK_HTTP_UNSUPPORTED_MEDIA_TYPE: 'UNIMPLEMENTED',
  WK_TABLE_TYPE_UNSUPPORTED: 'UNIMPLEMENTED',
  WK_WS_PROTOCOL: 'UNIMPLEMENTED',
  // The caller must change something first: the schema it writes with, a subject, a stream.
  WK_ENVELOPE_SCHEMA: 'FAILED_PRECONDITION',
  WK_REGISTRY_INCOMPATIBLE: 'FAILED_PRECONDITION',
  WK_REGISTRY_NOT_PERMITTED: 'FAILED_PRECONDITION',
  WK_EVENT_STREAM_MISSING: 'FAILED_PRECONDITION',
  WK_REGISTRY_SCHEMA_INVALID: 'INVALID_ARGUMENT',
  WK_REGISTRY_REQUEST: 'INVALID_ARGUMENT',
  WK_REGISTRY_NOT_FOUND: 'NOT_FOUND',
  // A service the handler depends on is down or unreachable: worth a retry with back-off.
  WK_HTTP_CONNECTION_FAILED: 'UNAVAILABLE',
  WK_CACHE_STORE_UNAVAILABLE: 'UNAVAILABLE',
  WK_CACHE_CONNECT_FAILED: 'UNAVAILABLE',
  WK_REGISTRY_UNAVAILABLE: 'UNAVAILABLE',
  WK_EVENT_BROKER_UNAVAILABLE: 'UNAVAILABLE',
  WK_WS_CLOSED: 'UNAVAILABLE',
  // An upstream HTTP error without a wirekit body: gRPC's code for errors that say too little.
  WK_HTTP_STATUS: 'UNKNOWN',
  // A call to another RPC service failed without a wirekit code: its status is the callee's, not
  // this server's answer to its own caller (gRPC advises against passing a status through as is).
  WK_RPC_STATUS: 'UNKNOWN',
  // The server's own failures: its query, its WebSocket handler, its credentials to a registry
  // (an UNAUTHENTICATED would tell the caller its own credentials were refused).
  WK_TABLE_QUERY_FAILED: 'INTERNAL',
  WK_WS_HANDLER_FAILED: 'INTERNAL',
  WK_REGISTRY_AUTH: 'INTERNAL',
};

/** A failed call's status, before a transport writes it as trailers or a Connect error body. */
export interface RpcStatus {
  readonly status: Exclude<GrpcStatusName, 'OK'>;
  /** The status's number, as `grpc-status` carries it. */
  readonly code: GrpcStatusCode;
  readonly message: string;
  readonly details: readonly RpcErrorDetail[];
}

export interface RpcStatusOptions {
  /**
   * Send the message of an error that is no WirekitError (default false: it may name a file, a
   * host or a query, and the caller gets "internal error"). Turn it on in development only.
   */
  readonly exposeUnexpectedErrors?: boolean;
}

/** The message a caller gets for an unexpected error when its own is not exposed. */
const internalErrorMessage = 'internal error';

/**
 * The status for what a handler (or the reading of its request) threw. An RpcError is the status
 * it names, with its message and details. A WirekitError keeps its message, and its code, path,
 * format and offset travel as a `google.rpc.ErrorInfo` (a validation error's issues also as a
 * `google.rpc.BadRequest`); anything else is INTERNAL with a fixed message, its own sent only when
 * `exposeUnexpectedErrors` says so.
 */
export function rpcStatusOf(thrown: unknown, options: RpcStatusOptions = {}): RpcStatus {
  if (thrown instanceof RpcError) {
    return {
      status: thrown.status,
      code: thrown.statusCode,
      message: thrown.message,
      details: thrown.details,
    };
  }
  if (isWirekitError(thrown)) {
    const status = grpcStatusOfErrorCode[thrown.code];
    const details: RpcErrorDetail[] = [{ type: 'google.rpc.ErrorInfo', value: errorInfoOf(thrown) }];
    if (thrown instanceof ValidationError) {
      const fieldViolations = thrown.issues.map((issue) => ({
        field: issue.path.length === 0 ? '' : formatPath(issue.path),
        description: issue.message,
        reason: issue.code.toUpperCase(),
      }));
      details.push({ type: 'google.rpc.BadRequest', value: { fieldViolations } });
    }
    return { status, code: grpcStatusCodes[status], message: thrown.message, details };
  }
  const message =
    options.exposeUnexpectedErrors === true && thrown instanceof Error
      ? thrown.message
      : internalErrorMessage;
  return { status: 'INTERNAL', code: grpcStatusCodes.INTERNAL, message, details: [] };
}

function errorInfoOf(error: WirekitError): ErrorInfo {
  const metadata: Record<string, string> = {};
  if (error.path !== undefined) metadata.path = formatPath(error.path);
  if (error.format !== undefined) metadata.format = error.format;
  if (error.offset !== undefined) metadata.offset = String(error.offset);
  return { reason: error.code, domain: wirekitErrorDomain, metadata };
}
