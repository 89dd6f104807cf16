/**
 * The enveloped body that gRPC-Web and Connect's streaming calls share: length-prefixed messages
 * each way, and one last frame under a flag of its own that carries the call's status (gRPC-Web's
 * trailers, Connect's end-of-stream JSON). It is the pipeline of Connect-ES's own handlers
 * (protocol-grpc-web/handler-factory.js, protocol-connect/handler-factory.js) with wirekit's
 * serializations, and one change: a call refused up front (an unknown compression, a bad or an
 * expired deadline) never starts its handler, where Connect's starts it and fails its first read.
 */
import type { ConnectError, HandlerContext, MethodImplSpec } from '@connectrpc/connect';
import type {
  AsyncIterableTransform,
  EnvelopedMessage,
  Serialization,
  transformCompressEnvelope,
} from '@connectrpc/connect/protocol';
import { callErrorOf } from './call-error.js';
import { connectRuntime } from './connect-runtime.js';
import type { BoxedReply } from './handler-options.js';
import type { ValidatedHandlerOptions } from './method-serialization.js';

type Compression = Parameters<typeof transformCompressEnvelope>[0];

export interface StreamCall {
  readonly opt: ValidatedHandlerOptions;
  readonly spec: MethodImplSpec;
  readonly context: HandlerContext & { abort(reason?: unknown): void };
  readonly body: AsyncIterable<Uint8Array>;
  readonly compression: { readonly request: Compression; readonly response: Compression };
  /** Why the call is refused before its handler runs, if it is. */
  readonly refusal: ConnectError | undefined;
  readonly input: Serialization<unknown>;
  readonly output: Serialization<BoxedReply>;
  /** The flag of the protocol's last frame; a request frame with it set ends the request stream. */
  readonly endFlag: number;
  /** The protocol's last frame: the call's status (undefined on success) and trailers. */
  endFrame(error: ConnectError | undefined): EnvelopedMessage;
  /** A last change to the bytes written (gRPC-Web's text variant writes them as base64). */
  readonly encodeBody?: AsyncIterableTransform<Uint8Array, Uint8Array>;
}

/**
 * The response body of a streaming call, resolved once its first bytes exist, so a handler may set
 * response headers before the adapter sends them.
 */
export async function streamResponseBody(call: StreamCall): Promise<AsyncIterable<Uint8Array>> {
  const {
    pipe,
    transformCatchFinally,
    transformCompressEnvelope,
    transformDecompressEnvelope,
    transformInvokeImplementation,
    transformJoinEnvelopes,
    transformParseEnvelope,
    transformSerializeEnvelope,
    transformSplitEnvelope,
    untilFirst,
  } = connectRuntime().protocol;
  const { opt, spec, context } = call;
  // The request and the response are two pipelines: a failure to write the response must not be
  // reported as a failure to read the request.
  const requests = pipe(
    call.body,
    transformSplitEnvelope(opt.readMaxBytes),
    transformDecompressEnvelope(call.compression.request, opt.readMaxBytes),
    transformParseEnvelope(call.input, call.endFlag),
  );
  const replies: AsyncIterator<unknown> =
    call.refusal === undefined
      ? transformInvokeImplementation(
          spec,
          context,
          opt.interceptors,
        )(requests as never)[Symbol.asyncIterator]()
      : failedIterator(call.refusal);
  const output = pipe(
    {
      [Symbol.asyncIterator]: () => ({
        next: () => replies.next() as Promise<IteratorResult<BoxedReply>>,
        // The handler's signal is aborted however the response ends.
        throw: (reason: unknown) => {
          context.abort(reason);
          return (replies.throw?.(reason) ?? Promise.reject(reason)) as Promise<IteratorResult<BoxedReply>>;
        },
        return: (value?: unknown) => {
          context.abort();
          return (replies.return?.(value) ?? Promise.resolve({ done: true, value })) as Promise<
            IteratorResult<BoxedReply>
          >;
        },
      }),
    },
    transformSerializeEnvelope(call.output),
    transformCatchFinally<EnvelopedMessage>((thrown) => {
      const error = thrown === undefined ? undefined : callErrorOf(thrown);
      context.abort(error);
      return call.endFrame(error);
    }),
    transformCompressEnvelope(call.compression.response, opt.compressMinBytes),
    transformJoinEnvelopes(),
    call.encodeBody ?? ((bytes) => bytes),
    { propagateDownStreamError: true },
  );
  return untilFirst(output);
}

function failedIterator(error: ConnectError): AsyncIterator<never> {
  return {
    next: () => Promise.reject(error),
    return: (value?: unknown) => Promise.resolve({ done: true, value }),
  };
}
