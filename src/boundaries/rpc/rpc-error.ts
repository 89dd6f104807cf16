/**
 * An error a handler throws to answer with a gRPC status of its own choosing: NOT_FOUND for an
 * order that does not exist, PERMISSION_DENIED, FAILED_PRECONDITION... A WirekitError answers with
 * its code's status (error-status.ts); this is for the outcomes that are the service's own, and it
 * needs no RPC library, so a service written with wirekit alone (health.ts) can throw it and every
 * server that reads statuses through `rpcStatusOf` answers with it.
 */
import type { RpcErrorDetail } from './error-details.js';
import { type GrpcStatusCode, type GrpcStatusName, grpcStatusCodes } from './status-codes.js';

export class RpcError extends Error {
  override readonly name = 'RpcError';
  /** The status's number, as `grpc-status` carries it. */
  readonly code: GrpcStatusCode;

  /**
   * `message` is sent to the caller as it is (unlike an unexpected error's): write it for them.
   * `details` travel in the status as google.protobuf.Any messages (error-details.ts).
   */
  constructor(
    readonly status: Exclude<GrpcStatusName, 'OK'>,
    message: string,
    readonly details: readonly RpcErrorDetail[] = [],
  ) {
    super(message);
    this.code = grpcStatusCodes[status];
  }
}
