/**
 * What a protocol handler answers when a call fails: Connect's `ConnectError`, which every one of
 * Connect's wire forms (gRPC trailers, gRPC-Web's trailer frame, Connect's JSON error body and
 * end-of-stream message) knows how to write. A WirekitError becomes the status of wirekit's table
 * (`rpcStatusOf`), its code and path carried as `google.rpc.ErrorInfo` (and a validation error's
 * issues as `google.rpc.BadRequest`), encoded by wirekit's own Protocol Buffers codec: Connect
 * writes a detail given as a type name and bytes as it is, so no protobuf-es message is made.
 */
import { Code, ConnectError } from '@connectrpc/connect';
import type { Codec } from '../../../codecs/core/codec.js';
import { createCodec } from '../../../codecs/registry.js';
import { BadRequest, ErrorInfo, type RpcErrorDetail } from '../error-details.js';
import { type RpcStatusOptions, rpcStatusOf } from '../error-status.js';

type DetailType = RpcErrorDetail['type'];

const detailCodecs = new Map<DetailType, Codec<unknown>>();

/** A detail's Protocol Buffers bytes: the `value` of the `google.protobuf.Any` that carries it. */
function detailBytes(detail: RpcErrorDetail): Uint8Array {
  let codec = detailCodecs.get(detail.type);
  if (codec === undefined) {
    const schema = detail.type === 'google.rpc.ErrorInfo' ? ErrorInfo : BadRequest;
    codec = createCodec<unknown>('protobuf', { schema });
    detailCodecs.set(detail.type, codec);
  }
  return codec.encode(detail.value);
}

/**
 * The ConnectError for whatever a call threw. A ConnectError passes through unchanged (a handler
 * chose its code itself, or Connect's framing raised it); anything else becomes its status by
 * wirekit's table, an unexpected error being INTERNAL without its message unless `options` say so.
 */
export function connectErrorOf(thrown: unknown, options: RpcStatusOptions = {}): ConnectError {
  if (thrown instanceof ConnectError) return thrown;
  const status = rpcStatusOf(thrown, options);
  const error = new ConnectError(status.message, status.code as number as Code, undefined, undefined, thrown);
  for (const detail of status.details) {
    error.details.push({ type: detail.type, value: detailBytes(detail) });
  }
  return error;
}

/**
 * The error of a reply the server could not encode: the handler returned a value its own schema
 * refuses, which no caller can fix, so INTERNAL whatever the wirekit code (a validation error here
 * is the server's, not the caller's INVALID_ARGUMENT).
 */
export function replyEncodingError(thrown: unknown): ConnectError {
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
  return new ConnectError('the deadline had expired before the call arrived', Code.DeadlineExceeded);
}
