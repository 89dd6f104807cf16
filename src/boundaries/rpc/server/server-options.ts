/**
 * What an RPC server is given, and the limits it runs under unless told otherwise. Every limit has
 * a safe default: Connect's own would let a message claim ~4 GiB and node:http2 would open ~4
 * billion streams on one connection; here a message is at most 4 MiB each way (gRPC's own default),
 * a compressed one is refused past the compression module's ratio cap, and a connection carries
 * at most 100 concurrent calls (what most gRPC servers advertise).
 */
import type { Interceptor } from '@connectrpc/connect';
import type { UniversalHandlerOptions } from '@connectrpc/connect/protocol';
import { WirekitError } from '../../../errors/index.js';
import { defaultMaxDecompressionRatio } from '../../../util/decompression-ratio.js';
import type { RpcCodecName } from '../message-formats.js';
import type { CallErrorOptions } from './call-error.js';
import { createConnectHandlerFactory } from './connect-handler.js';
import { createGrpcHandlerFactory } from './grpc-handler.js';
import { createGrpcWebHandlerFactory } from './grpc-web-handler.js';
import { messageCompressions } from './message-compression.js';
import { defaultMessageMaxBytes } from './method-serialization.js';
import type { RpcProtocolFactory, RpcService } from './service-router.js';

/** gRPC's default message size limit, each way (the factories' own default, one home). */
export const defaultRpcMessageBytes = defaultMessageMaxBytes;
/** Concurrent calls (HTTP/2 streams) on one connection; node:http2's own default is 2^32 - 1. */
export const defaultMaxConcurrentStreams = 100;

export interface RpcLimits {
  /** The largest request message, after decompression (default 4 MiB); larger is RESOURCE_EXHAUSTED. */
  readonly readMaxBytes?: number;
  /** The largest reply message a handler may send (default 4 MiB); larger fails the call. */
  readonly writeMaxBytes?: number;
  /** The largest decompressed request message (default, and never above, `readMaxBytes`). */
  readonly maxDecompressedBytes?: number;
  /** Refuse a compressed message that inflates more than this many times (default 1,000; over 1 MiB). */
  readonly maxDecompressionRatio?: number;
  /** Concurrent calls per HTTP/2 connection, advertised in SETTINGS (default 100). */
  readonly maxConcurrentStreams?: number;
  /**
   * The longest deadline a caller may set, in milliseconds; a longer one is INVALID_ARGUMENT.
   * Default: none. A deadline only ever shortens a call (a call without one may run for ever), so
   * a cap adds no safety by itself; set one where callers must not hold a call open longer.
   */
  readonly maxTimeoutMs?: number;
  /** Replies smaller than this many bytes are sent uncompressed (default 1,024, Connect's). */
  readonly compressMinBytes?: number;
}

export interface RpcServerOptions extends RpcLimits, CallErrorOptions {
  /** The services served, each made by `rpcService`. */
  readonly services: readonly RpcService[];
  /** The protocols served, by their factories (default: gRPC, gRPC-Web and Connect). */
  readonly protocols?: readonly RpcProtocolFactory[];
  /** The codecs a call may choose (default: all of `rpcCodecNames`). */
  readonly codecs?: readonly RpcCodecName[];
  /** Connect interceptors, run around every handler. */
  readonly interceptors?: readonly Interceptor[];
}

function positive(name: string, value: number | undefined, fallback: number): number {
  const resolved = value ?? fallback;
  if (typeof resolved !== 'number' || !(resolved > 0)) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `${name} must be a positive number, got ${String(resolved)}.`,
    );
  }
  return resolved;
}

/** The protocols served when none are named. */
export const defaultRpcProtocols: readonly RpcProtocolFactory[] = [
  createGrpcHandlerFactory,
  createGrpcWebHandlerFactory,
  createConnectHandlerFactory,
];

/** Connect's handler options from the server's limits, every default filled in and checked. */
export function handlerOptionsOf(
  options: RpcServerOptions,
  shutdownSignal?: AbortSignal,
): Partial<UniversalHandlerOptions> {
  const readMaxBytes = positive('readMaxBytes', options.readMaxBytes, defaultRpcMessageBytes);
  const writeMaxBytes = positive('writeMaxBytes', options.writeMaxBytes, defaultRpcMessageBytes);
  const maxDecompressedBytes = Math.min(
    readMaxBytes,
    positive('maxDecompressedBytes', options.maxDecompressedBytes, readMaxBytes),
  );
  const maxDecompressionRatio = options.maxDecompressionRatio ?? defaultMaxDecompressionRatio;
  if (!(maxDecompressionRatio >= 1)) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      'maxDecompressionRatio must be at least 1 (Infinity for none).',
    );
  }
  return {
    readMaxBytes,
    writeMaxBytes,
    acceptCompression: messageCompressions({ maxDecompressedBytes, maxDecompressionRatio }),
    compressMinBytes: options.compressMinBytes ?? 1024,
    maxTimeoutMs:
      options.maxTimeoutMs === undefined ? undefined : positive('maxTimeoutMs', options.maxTimeoutMs, 0),
    interceptors: [...(options.interceptors ?? [])],
    shutdownSignal,
  };
}

/** The HTTP/2 SETTINGS the server advertises. */
export function http2SettingsOf(options: RpcLimits): { maxConcurrentStreams: number } {
  const streams = positive('maxConcurrentStreams', options.maxConcurrentStreams, defaultMaxConcurrentStreams);
  if (!Number.isInteger(streams)) {
    throw new WirekitError('WK_OPTIONS_INVALID', `maxConcurrentStreams must be an integer, got ${streams}.`);
  }
  return { maxConcurrentStreams: streams };
}
