/**
 * RpcError: a gRPC status as an error, the one class on both sides of a call.
 *
 * - A handler throws one to answer with a status of its own choosing: NOT_FOUND for an order that
 *   does not exist, PERMISSION_DENIED, FAILED_PRECONDITION... (`new RpcError('NOT_FOUND', 'no order
 *   42')`). A WirekitError answers with its code's status (error-status.ts); this is for the
 *   outcomes that are the service's own. It needs no RPC library, so a service written with wirekit
 *   alone (health.ts) can throw it, and every server that reads statuses through `rpcStatusOf`
 *   answers with it.
 * - A client's failed call throws one (client/rpc-error.ts makes it from what the protocol
 *   carried), with the details decoded and the response's metadata. When the server is wirekit's,
 *   its ErrorInfo names the wirekit code the server raised, and the RpcError carries that code, so
 *   a caller branches on `WK_VALIDATION_FAILED` whichever protocol the call took; any other status
 *   is `WK_RPC_STATUS`.
 *
 * Being one class, a handler that lets a downstream call's RpcError through answers its own caller
 * with the same status, message and details.
 */
import {
  type ErrorCode,
  errorCodes,
  type WireFormat,
  WirekitError,
  wireFormats,
} from '../../errors/index.js';
import { type ErrorInfo, type RpcErrorDetail, wirekitErrorDomain } from './error-details.js';
import { type GrpcStatusCode, type GrpcStatusName, grpcStatusCodes } from './status-codes.js';

/** A detail of a type wirekit does not decode: its full name and its Protocol Buffers bytes. */
export interface RawErrorDetail {
  readonly type: string;
  readonly value: Uint8Array;
}

export type RpcFailureStatus = Exclude<GrpcStatusName, 'OK'>;

export interface RpcErrorInit {
  readonly status: RpcFailureStatus;
  readonly message: string;
  readonly details?: readonly RpcErrorDetail[];
  readonly rawDetails?: readonly RawErrorDetail[];
  /** The response's headers and trailers, where the call got that far. */
  readonly metadata?: Headers;
  readonly cause?: unknown;
}

export class RpcError extends WirekitError {
  override readonly name = 'RpcError';
  /** The gRPC status name: `INVALID_ARGUMENT`. */
  readonly status: RpcFailureStatus;
  /** Its number, as `grpc-status` carries it: 3. */
  readonly statusCode: GrpcStatusCode;
  /** The details decoded: ErrorInfo and BadRequest. */
  readonly details: readonly RpcErrorDetail[];
  /** The details of other types, as their bytes. */
  readonly rawDetails: readonly RawErrorDetail[];
  readonly metadata: Headers;
  /** Where in the request the server found the problem (`lines[1].sku`), from its ErrorInfo. */
  readonly at: string | undefined;

  /**
   * A handler's status: `message` is sent to the caller as it is (unlike an unexpected error's),
   * so write it for them; `details` travel in the status as google.protobuf.Any messages
   * (error-details.ts).
   */
  constructor(status: RpcFailureStatus, message: string, details?: readonly RpcErrorDetail[]);
  /** A status as a call received it, with everything it carried. */
  constructor(init: RpcErrorInit);
  constructor(
    statusOrInit: RpcFailureStatus | RpcErrorInit,
    message?: string,
    details?: readonly RpcErrorDetail[],
  ) {
    const init: RpcErrorInit =
      typeof statusOrInit === 'string'
        ? { status: statusOrInit, message: message ?? '', details }
        : statusOrInit;
    const decoded = init.details ?? [];
    const info = decoded.find((detail) => detail.type === 'google.rpc.ErrorInfo')?.value as
      | ErrorInfo
      | undefined;
    const wirekit = info?.domain === wirekitErrorDomain ? info : undefined;
    const code: ErrorCode =
      wirekit !== undefined && Object.hasOwn(errorCodes, wirekit.reason)
        ? (wirekit.reason as ErrorCode)
        : 'WK_RPC_STATUS';
    const format = wirekit?.metadata.format;
    super(code, init.message, {
      format: (wireFormats as readonly string[]).includes(format ?? '') ? (format as WireFormat) : undefined,
      ...(init.cause === undefined ? {} : { cause: init.cause }),
    });
    this.status = init.status;
    this.statusCode = grpcStatusCodes[init.status];
    this.details = decoded;
    this.rawDetails = init.rawDetails ?? [];
    this.metadata = init.metadata ?? new Headers();
    this.at = wirekit?.metadata.path;
  }
}
