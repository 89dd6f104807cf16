/**
 * What a failed call throws: an RpcError (../rpc-error.ts) with the call's status, the server's
 * message, and the status's details decoded where wirekit knows their message
 * (`google.rpc.ErrorInfo`, `google.rpc.BadRequest`: what wirekit's server sends, and what most
 * gRPC servers use), or the WirekitError raised here (a reply that does not decode).
 *
 * The same for every protocol: Connect's pieces turn gRPC's `grpc-status-details-bin` and Connect's
 * JSON error details into one list of (type, bytes), which is read here.
 */
import type { ConnectError } from '@connectrpc/connect';
import { createProtobufCodec } from '../../../codecs/protobuf/index.js';
import { isWirekitError } from '../../../errors/index.js';
import { BadRequest, ErrorInfo, type RpcErrorDetail } from '../error-details.js';
import { type RawErrorDetail, RpcError } from '../rpc-error.js';
import { type GrpcStatusName, grpcStatusCodes } from '../status-codes.js';

const statusNames = Object.fromEntries(
  Object.entries(grpcStatusCodes).map(([name, number]) => [number, name as GrpcStatusName]),
) as Readonly<Record<number, GrpcStatusName>>;

// Details are small messages from a peer: decoded with wirekit's codec and its default limits.
const errorInfoCodec = createProtobufCodec<ErrorInfo>({ schema: ErrorInfo });
const badRequestCodec = createProtobufCodec<BadRequest>({ schema: BadRequest });

function decodeDetails(raw: readonly RawErrorDetail[]) {
  const details: RpcErrorDetail[] = [];
  const rawDetails: RawErrorDetail[] = [];
  for (const detail of raw) {
    try {
      if (detail.type === 'google.rpc.ErrorInfo') {
        details.push({ type: detail.type, value: errorInfoCodec.decode(detail.value) });
        continue;
      }
      if (detail.type === 'google.rpc.BadRequest') {
        details.push({ type: detail.type, value: badRequestCodec.decode(detail.value) });
        continue;
      }
    } catch {
      // A detail that does not decode is kept as bytes: the status itself still stands.
    }
    rawDetails.push({ type: detail.type, value: detail.value });
  }
  return { details, rawDetails };
}

/**
 * The error a call throws for whatever its pipeline raised: a WirekitError raised here (a reply
 * that does not decode) as it is, anything else as an RpcError with the status Connect's pieces
 * found (or would give it: a refused connection is UNAVAILABLE, a passed deadline
 * DEADLINE_EXCEEDED, an aborted signal CANCELLED).
 */
export function rpcErrorOf(thrown: unknown): Error {
  if (thrown instanceof RpcError) return thrown;
  if (isWirekitError(thrown)) return thrown;
  if (!isConnectError(thrown)) return unknownError(thrown);
  const error = thrown;
  if (isWirekitError(error.cause)) return error.cause;
  const raw = error.details.flatMap((detail) =>
    'desc' in detail ? [] : [{ type: detail.type, value: detail.value }],
  );
  const { details, rawDetails } = decodeDetails(raw);
  const name = statusNames[error.code] ?? 'UNKNOWN';
  return new RpcError({
    status: name === 'OK' ? 'UNKNOWN' : name,
    message: error.rawMessage,
    details,
    rawDetails,
    metadata: error.metadata,
    cause: error.cause,
  });
}

/**
 * Connect's error by its shape, as Connect itself recognises one from another copy of the package:
 * this module does not load Connect, so that the client's entry loads without it.
 */
function isConnectError(value: unknown): value is ConnectError {
  return (
    value instanceof Error &&
    value.name === 'ConnectError' &&
    typeof (value as { code?: unknown }).code === 'number' &&
    typeof (value as { rawMessage?: unknown }).rawMessage === 'string' &&
    Array.isArray((value as { details?: unknown }).details) &&
    (value as { metadata?: unknown }).metadata instanceof Headers
  );
}

/** Anything else a call threw: an abort is CANCELLED (as Connect reads one), the rest UNKNOWN. */
function unknownError(thrown: unknown): RpcError {
  const name = (thrown as { name?: unknown } | null)?.name;
  if (name === 'AbortError' || name === 'TimeoutError') return cancelledError(thrown);
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return new RpcError({ status: 'UNKNOWN', message, cause: thrown });
}

/** Whether an error is a status a retry may cure: UNAVAILABLE (a refused connection is one). */
export function isUnavailable(error: unknown): boolean {
  const converted = rpcErrorOf(error);
  return converted instanceof RpcError && converted.status === 'UNAVAILABLE';
}

/** The CANCELLED error of a call aborted before it started, as Connect raises it during a call. */
export function cancelledError(reason: unknown): RpcError {
  return new RpcError({ status: 'CANCELLED', message: 'the call was cancelled', cause: reason });
}

/** The DEADLINE_EXCEEDED error of a call whose deadline passed before it (or its retry) started. */
export function deadlineError(): RpcError {
  return new RpcError({
    status: 'DEADLINE_EXCEEDED',
    message: 'the deadline passed before the call could be made',
  });
}
