/**
 * What a failed call becomes on the wire: whatever a handler (or the reading of its request)
 * threw, as the ConnectError every protocol handler writes, gRPC's trailers and gRPC-Web's
 * trailer frame as well as Connect's JSON error body. The status comes from the one table of
 * error-status.ts; the error details are `google.rpc.ErrorInfo` and `google.rpc.BadRequest`,
 * encoded here by wirekit's own Protocol Buffers codec and handed to Connect as bytes with their
 * type name, which Connect wraps in the `google.protobuf.Any`s of a `google.rpc.Status`.
 */
import type { Code, ConnectError } from '@connectrpc/connect';
import type { Codec } from '../../../codecs/core/codec.js';
import { createCodec } from '../../../codecs/registry.js';
import { BadRequest, ErrorInfo, type RpcErrorDetail } from '../error-details.js';
import { rpcStatusOf } from '../error-status.js';
import { connectRuntime } from './connect-runtime.js';
import { dropConnectionHeaders } from './connection-headers.js';

export interface CallErrorOptions {
  /**
   * Send the message of an error that is no WirekitError or ConnectError (default false: the
   * caller gets INTERNAL "internal error", and the server's logs keep the rest).
   */
  readonly exposeErrors?: boolean;
}

// Made on the first failed call, then shared: a codec holds no per-call state.
const detailCodecs = new Map<RpcErrorDetail['type'], Codec<unknown>>();

function detailCodec(type: RpcErrorDetail['type']): Codec<unknown> {
  let codec = detailCodecs.get(type);
  if (codec === undefined) {
    const schema = type === 'google.rpc.ErrorInfo' ? ErrorInfo : BadRequest;
    codec = createCodec<unknown>('protobuf', { schema });
    detailCodecs.set(type, codec);
  }
  return codec;
}

/**
 * The ConnectError a call fails with. A ConnectError is kept as thrown (a handler chooses its own
 * code that way); a WirekitError gets its status by the table, its message, and its details;
 * anything else is INTERNAL with a generic message unless `exposeErrors` says otherwise. The
 * original error stays the `cause`, for interceptors and logs.
 */
export function callErrorOf(thrown: unknown, options: CallErrorOptions = {}): ConnectError {
  const { ConnectError } = connectRuntime().connect;
  if (thrown instanceof ConnectError) {
    // Its metadata is sent as headers or trailers: what HTTP/2 forbids goes, as for a handler's own.
    dropConnectionHeaders(thrown.metadata);
    return thrown;
  }
  const status = rpcStatusOf(thrown, { exposeUnexpectedErrors: options.exposeErrors === true });
  // Connect's codes are gRPC's numbers: one enum, so the number passes as it is.
  const error = new ConnectError(status.message, status.code as number as Code, undefined, undefined, thrown);
  error.details = status.details.map((detail) => ({
    type: detail.type,
    value: detailCodec(detail.type).encode(detail.value),
  }));
  return error;
}

/**
 * The error of a reply the server could not encode: the handler returned a value its own schema
 * refuses, which no caller can fix, so INTERNAL whatever the wirekit code (a validation error here
 * is the server's, not the caller's INVALID_ARGUMENT).
 */
export function replyEncodingError(thrown: unknown): ConnectError {
  const { Code, ConnectError } = connectRuntime().connect;
  return new ConnectError(
    'internal error: the reply could not be encoded',
    Code.Internal,
    undefined,
    undefined,
    thrown,
  );
}

/**
 * A deadline that has already passed when the call arrives (`connect-timeout-ms: 0`,
 * `grpc-timeout: 0n`, or anything under a millisecond, which Connect's timer would fire at once):
 * the call fails with DEADLINE_EXCEEDED before its handler runs, where Connect alone would start the
 * handler and abort its signal a moment later.
 */
export function expiredDeadlineError(timeoutMs: number | undefined): ConnectError | undefined {
  if (timeoutMs === undefined || timeoutMs >= 1) return undefined;
  const { Code, ConnectError } = connectRuntime().connect;
  return new ConnectError('the deadline had expired before the call arrived', Code.DeadlineExceeded);
}
