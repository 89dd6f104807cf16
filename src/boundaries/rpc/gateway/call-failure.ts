/**
 * What a gateway answers when the RPC behind a route fails: the call's gRPC status as the HTTP
 * status the Connect protocol gives it (the table gRPC-gateway uses too: NOT_FOUND 404,
 * UNAVAILABLE 503, INVALID_ARGUMENT 400, ...), with a JSON body that is the HTTP boundary's error
 * record plus the RPC status by name and number:
 *
 *   { "status": 404, "code": "WK_HTTP_STATUS", "message": "order 7 not found",
 *     "grpcStatus": "NOT_FOUND", "grpcCode": 5 }
 *
 * `code` is the wirekit error code the failure carried (a WirekitError, or an ErrorInfo detail in
 * wirekit's domain), else WK_HTTP_STATUS, the code of an upstream error that carries none.
 *
 * The failure may come from any client: one with a gRPC status name (`status: 'NOT_FOUND'`, as
 * wirekit's RPC statuses have), one with a numeric code (`code: 5`, as @grpc/grpc-js's ServiceError
 * and Connect's ConnectError have), or a WirekitError (mapped by the RPC boundary's table). Anything
 * else is the gateway's own failure: INTERNAL, its message kept out of the answer.
 */
import { type ErrorCode, errorCodes, formatPath, isWirekitError } from '../../../errors/index.js';
import type { HttpError } from '../../http/wire-error.js';
import { rpcStatusOf } from '../error-status.js';
import { connectHttpStatusOf, type GrpcStatusName, grpcStatusCodes } from '../status-codes.js';

/** The error record a gateway answers a failed call with. */
export interface GatewayError extends HttpError {
  readonly grpcStatus: Exclude<GrpcStatusName, 'OK'>;
  readonly grpcCode: number;
}

const statusByNumber = new Map<number, GrpcStatusName>(
  Object.entries(grpcStatusCodes).map(([name, number]) => [number, name as GrpcStatusName]),
);

function isStatusName(value: unknown): value is Exclude<GrpcStatusName, 'OK'> {
  return typeof value === 'string' && value !== 'OK' && Object.hasOwn(grpcStatusCodes, value);
}

/** The gRPC status a thrown value carries, if it carries one. */
function statusOf(thrown: object): Exclude<GrpcStatusName, 'OK'> | undefined {
  const { status, code } = thrown as { status?: unknown; code?: unknown };
  if (isStatusName(status)) return status;
  if (typeof code === 'number') {
    const name = statusByNumber.get(code);
    if (name !== undefined && name !== 'OK') return name;
  }
  return undefined;
}

/** The status message without a client's decoration ("5 NOT_FOUND: ..." in grpc-js's `message`). */
function messageOf(thrown: object): string {
  const { rawMessage, details, message } = thrown as {
    rawMessage?: unknown;
    details?: unknown;
    message?: unknown;
  };
  if (typeof rawMessage === 'string') return rawMessage;
  if (typeof details === 'string') return details;
  return typeof message === 'string' ? message : '';
}

/** wirekit's code and path, from an ErrorInfo detail in wirekit's domain. */
function wirekitDetailOf(thrown: object): { code: ErrorCode; path?: string } | undefined {
  const { details } = thrown as { details?: unknown };
  if (!Array.isArray(details)) return undefined;
  for (const detail of details as unknown[]) {
    const info = (
      detail as { type?: unknown; value?: { reason?: unknown; domain?: unknown; metadata?: unknown } }
    )?.value;
    if ((detail as { type?: unknown }).type !== 'google.rpc.ErrorInfo' || info?.domain !== 'wirekit')
      continue;
    if (typeof info.reason !== 'string' || !Object.hasOwn(errorCodes, info.reason)) continue;
    const path = (info.metadata as Record<string, unknown> | undefined)?.path;
    return { code: info.reason as ErrorCode, ...(typeof path === 'string' ? { path } : {}) };
  }
  return undefined;
}

/**
 * Codes of bytes that did not decode. The gateway reads and holds the request to its schema before
 * the call, so from a call these describe what came back (wirekit's RPC client throws a reply that
 * does not decode as the codec's error, as gRPC clients answer INTERNAL for one): the service's
 * fault, not the REST client's, where the RPC table (written for a server reading a request) says
 * INVALID_ARGUMENT or RESOURCE_EXHAUSTED.
 */
function fromReply(code: ErrorCode): boolean {
  return (
    code.startsWith('WK_DECODE_') ||
    code.startsWith('WK_LIMIT_') ||
    code === 'WK_COMPRESSION_FAILED' ||
    code === 'WK_ENVELOPE_INVALID'
  );
}

const internal = { status: 'INTERNAL', code: grpcStatusCodes.INTERNAL } as const;

/** The record for what `call` threw; `internal` says it was no RPC failure (log it: it is a bug). */
export function gatewayErrorOf(thrown: unknown): { record: GatewayError; internal: boolean } {
  if (typeof thrown === 'object' && thrown !== null) {
    const status = statusOf(thrown);
    if (status !== undefined) {
      const detail = wirekitDetailOf(thrown);
      const record: GatewayError = {
        status: connectHttpStatusOf(status),
        code: detail?.code ?? (isWirekitError(thrown) ? thrown.code : 'WK_HTTP_STATUS'),
        message: messageOf(thrown),
        ...(detail?.path === undefined ? {} : { path: detail.path }),
        grpcStatus: status,
        grpcCode: grpcStatusCodes[status],
      };
      return { record, internal: false };
    }
    if (isWirekitError(thrown)) {
      const { status: grpcStatus, code } = fromReply(thrown.code) ? internal : rpcStatusOf(thrown);
      const record: GatewayError = {
        status: connectHttpStatusOf(grpcStatus),
        code: thrown.code,
        message: thrown.message,
        ...(thrown.path === undefined ? {} : { path: formatPath(thrown.path) }),
        grpcStatus,
        grpcCode: code,
      };
      return { record, internal: grpcStatus === 'INTERNAL' };
    }
  }
  const record: GatewayError = {
    status: 500,
    code: 'WK_HTTP_STATUS',
    message: 'internal error',
    grpcStatus: 'INTERNAL',
    grpcCode: grpcStatusCodes.INTERNAL,
  };
  return { record, internal: true };
}
