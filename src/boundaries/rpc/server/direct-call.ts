/**
 * What the server's direct paths on node:http2 share, gRPC's (direct-grpc.ts) and Connect's unary
 * one (direct-connect.ts): the options they are given, the context a handler sees (its headers
 * objects made only if asked for), the reasons a call is aborted (a client's reset, its deadline,
 * the server's shutdown), a reply encoded under writeMaxBytes, and the calls in flight that a
 * shutdown aborts.
 */
import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import type { ConnectError } from '@connectrpc/connect';
import type { Compression } from '@connectrpc/connect/protocol';
import { webHeadersOf } from '../grpc-frames.js';
import type { RpcCodecName } from '../message-formats.js';
import { type CallErrorOptions, replyEncodingError } from './call-error.js';
import { connectRuntime } from './connect-runtime.js';
import type { BoundMethod, RpcCallContext } from './service-router.js';

/** What a direct path is told of the server: its limits and compressions, as Connect's handlers are. */
export interface DirectPathOptions extends CallErrorOptions {
  readonly codecs: readonly RpcCodecName[];
  readonly readMaxBytes: number;
  readonly writeMaxBytes: number;
  readonly acceptCompression: readonly Compression[];
  readonly compressMinBytes: number;
  readonly maxTimeoutMs: number | undefined;
  /** Aborts every call's signal when the server shuts down. */
  readonly shutdownSignal: AbortSignal;
}

/** Takes a new stream if it is a call the path serves (true), or leaves it untouched (false). */
export type DirectPath = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => boolean;

/** The `:path` Connect routes a method at. */
export function methodPath(method: BoundMethod): string {
  return `/${method.descriptor.parent.typeName}/${method.descriptor.name}`;
}

/** A call in flight on a direct path: what a shutdown aborts. */
interface AbortableCall {
  abort(reason: unknown): void;
  run(): Promise<void>;
}

/**
 * Starts each call a direct path takes and keeps it in the set of calls in flight until it ends,
 * so that the server's shutdown aborts the ones still running.
 */
export function callRunner(shutdownSignal: AbortSignal): (call: AbortableCall) => void {
  const live = new Set<AbortableCall>();
  shutdownSignal.addEventListener('abort', () => {
    for (const call of live) call.abort(shuttingDown());
  });
  return (call) => {
    live.add(call);
    call.run().finally(() => live.delete(call));
  };
}

/** What a handler is given on a direct path; the headers objects are made only if a handler asks. */
export class DirectCallContext implements RpcCallContext {
  #controller: AbortController | undefined;
  #abortReason: unknown;
  /** The call is over: its signal reads as aborted, as Connect's does after every call. */
  #ended = false;
  #requestHeader: Headers | undefined;
  #responseHeader: Headers | undefined;
  #responseTrailer: Headers | undefined;

  constructor(
    private readonly headers: IncomingHttpHeaders,
    readonly protocol: 'grpc' | 'connect',
    readonly codec: RpcCodecName,
    private readonly deadline: number | undefined,
  ) {}

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#abortReason !== undefined) this.#controller.abort(this.#abortReason);
      else if (this.#ended) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  get requestHeader(): Headers {
    this.#requestHeader ??= webHeadersOf(this.headers);
    return this.#requestHeader;
  }

  get responseHeader(): Headers {
    this.#responseHeader ??= new Headers();
    return this.#responseHeader;
  }

  get responseTrailer(): Headers {
    this.#responseTrailer ??= new Headers();
    return this.#responseTrailer;
  }

  readonly timeoutMs = (): number | undefined =>
    this.deadline === undefined ? undefined : this.deadline - Date.now();

  /** Aborts the signal once, whether or not the handler has looked at it yet. */
  abort(reason: unknown): void {
    if (this.#abortReason !== undefined) return;
    this.#abortReason = reason;
    this.#controller?.abort(reason);
  }

  /**
   * Ends the call, however it ended: the signal aborts, as Connect's handlers abort theirs once a
   * call is over, so that a handler's clean-up on 'abort' runs on both paths. A handler that never
   * read the signal costs nothing here; one that reads it later finds it aborted.
   */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#abortReason === undefined) this.#controller?.abort();
  }

  /** The response headers a handler set, if it touched them. */
  responseHeaderIfUsed(): Headers | undefined {
    return this.#responseHeader;
  }

  /** The response trailers a handler set, if it touched them. */
  responseTrailerIfUsed(): Headers | undefined {
    return this.#responseTrailer;
  }
}

/**
 * A reply's bytes in the call's codec: a value its own schema refuses is the server's fault
 * (INTERNAL), and bytes over writeMaxBytes fail the call as Connect's limit does.
 */
export function replyBytes(
  method: BoundMethod,
  codec: RpcCodecName,
  reply: unknown,
  writeMaxBytes: number,
): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = method.serializers.output.of(codec).serialize(reply);
  } catch (error) {
    throw replyEncodingError(error);
  }
  if (bytes.length > writeMaxBytes) {
    const { Code, ConnectError } = connectRuntime().connect;
    throw new ConnectError(
      `message size ${bytes.length} is larger than configured writeMaxBytes ${writeMaxBytes}`,
      Code.ResourceExhausted,
    );
  }
  return bytes;
}

/** A request header as one string (repeated ones joined, as `Headers.get` does), or null. */
export function headerOf(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

export function deadlineExceeded(): ConnectError {
  const { Code, ConnectError } = connectRuntime().connect;
  return new ConnectError('the operation timed out', Code.DeadlineExceeded);
}

export function cancelled(): ConnectError {
  const { Code, ConnectError } = connectRuntime().connect;
  return new ConnectError('the call was cancelled by its client', Code.Canceled);
}

function shuttingDown(): ConnectError {
  const { Code, ConnectError } = connectRuntime().connect;
  return new ConnectError('the server is shutting down', Code.Unavailable);
}
