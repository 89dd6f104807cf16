/**
 * The gRPC protocol (HTTP/2, `application/grpc[+codec]`) for wirekit's messages: a Connect
 * `ProtocolHandlerFactory` assembled from the primitives Connect exports (envelopes, compression
 * negotiation, timeouts, the implementation invoker), in the order of Connect's own gRPC factory
 * (protocol-grpc/handler-factory.js), with three differences. The serializers are wirekit's, chosen
 * per call by the codec the content type names and echoed in the reply's content type; a request
 * whose deadline has already passed (`grpc-timeout: 0n`) is refused with DEADLINE_EXCEEDED before
 * any handler runs (Connect would arm a 0 ms timer and run it); and a status's message is
 * percent-encoded as the gRPC spec says (grpc-status.ts), not as a URI component.
 */
import type { MethodImplSpec } from '@connectrpc/connect';
import type * as ConnectProtocol from '@connectrpc/connect/protocol';
import type {
  ProtocolHandlerFactory,
  UniversalServerRequest,
  UniversalServerResponse,
} from '@connectrpc/connect/protocol';
import { codecOfContentType, contentTypeOf } from '../message-formats.js';
import { callErrorOf, expiredDeadlineError } from './call-error.js';
import { connectRuntime } from './connect-runtime.js';
import { setGrpcStatus } from './grpc-status.js';
import type { BoxedReply, WirekitHandlerOptions } from './handler-options.js';
import {
  createMethodSerialization,
  type MethodSerialization,
  offeredContentTypes,
  type ValidatedHandlerOptions,
  validateWirekitHandlerOptions,
} from './method-serialization.js';

const protocolName = 'grpc';

/**
 * A gRPC handler factory serving wirekit's messages in every codec `options.codecs` offers. Unless
 * the options say otherwise, each message is limited to 4 MiB each way (Connect's own default is
 * 4 GiB).
 */
export function createGrpcHandlerFactory(options: WirekitHandlerOptions): ProtocolHandlerFactory {
  const { contentTypeMatcher, createMethodUrl } = connectRuntime().protocol;
  const opt = validateWirekitHandlerOptions(options);
  const supportedContentType = contentTypeMatcher(offeredContentTypes('grpc', options.codecs));
  function factory(spec: MethodImplSpec) {
    const serialization = createMethodSerialization(spec.method, options, opt);
    return Object.assign(createHandler(options, opt, spec, serialization), {
      protocolNames: [protocolName],
      allowedMethods: ['POST'],
      supportedContentType,
      requestPath: createMethodUrl('/', spec.method),
      service: spec.method.parent,
      method: spec.method,
    });
  }
  factory.protocolName = protocolName;
  return factory;
}

function createHandler(
  options: WirekitHandlerOptions,
  opt: ValidatedHandlerOptions,
  spec: MethodImplSpec,
  serialization: MethodSerialization,
) {
  const { createHandlerContext } = connectRuntime().connect;
  // An assertion function must be named with its type written out to narrow its argument.
  const assertByteStreamRequest: typeof ConnectProtocol.assertByteStreamRequest =
    connectRuntime().protocol.assertByteStreamRequest;
  const {
    compressionNegotiate,
    pipe,
    transformCatchFinally,
    transformCompressEnvelope,
    transformDecompressEnvelope,
    transformInvokeImplementation,
    transformJoinEnvelopes,
    transformParseEnvelope,
    transformPrepend,
    transformSerializeEnvelope,
    transformSplitEnvelope,
    uResponseMethodNotAllowed,
    uResponseOk,
    uResponseUnsupportedMediaType,
    untilFirst,
  } = connectRuntime().protocol;
  const {
    headerAcceptEncoding,
    headerContentType,
    headerEncoding,
    headerGrpcStatus,
    headerTimeout,
    parseTimeout,
  } = connectRuntime().grpc;
  return async function handle(req: UniversalServerRequest): Promise<UniversalServerResponse> {
    assertByteStreamRequest(req);
    const type = codecOfContentType('grpc', req.header.get(headerContentType) ?? '');
    if (type === undefined || !options.codecs.includes(type.codec)) return uResponseUnsupportedMediaType;
    if (req.method !== 'POST') return uResponseMethodNotAllowed;
    const responseHeader = { [headerContentType]: contentTypeOf('grpc', type.codec) };

    const timeout = parseTimeout(req.header.get(headerTimeout), opt.maxTimeoutMs);
    const expired = timeout.error === undefined ? expiredDeadlineError(timeout.timeoutMs) : undefined;
    if (expired !== undefined) {
      // The caller's deadline has passed already: answer at once, before the handler or its input.
      return {
        ...uResponseOk,
        header: new Headers(responseHeader),
        trailer: setGrpcStatus(new Headers(), expired),
      };
    }
    const context = createHandlerContext({
      ...spec,
      service: spec.method.parent,
      requestMethod: req.method,
      protocolName,
      timeoutMs: timeout.timeoutMs,
      shutdownSignal: opt.shutdownSignal,
      requestSignal: req.signal,
      requestHeader: req.header,
      url: req.url,
      responseHeader,
      responseTrailer: { [headerGrpcStatus]: '0' },
      contextValues: req.contextValues,
    });
    const compression = compressionNegotiate(
      opt.acceptCompression,
      req.header.get(headerEncoding),
      req.header.get(headerAcceptEncoding),
      headerAcceptEncoding,
    );
    if (compression.response) context.responseHeader.set(headerEncoding, compression.response.name);

    // The request side and the reply side are two pipelines, as in Connect's factory, so that an
    // error writing replies does not read as an error of the request stream.
    const inputIt = pipe(
      req.body,
      transformPrepend<Uint8Array>(() => {
        // Raised here so they reach the caller as a status in the trailers.
        if (compression.error) throw compression.error;
        if (timeout.error) throw timeout.error;
        return undefined;
      }),
      transformSplitEnvelope(opt.readMaxBytes),
      transformDecompressEnvelope(compression.request, opt.readMaxBytes),
      transformParseEnvelope(serialization.input(type.codec)),
    );
    // Connect types requests as protobuf-es messages; wirekit's values pass through it untouched.
    const invoke = transformInvokeImplementation(spec, context, opt.interceptors);
    const it = invoke(inputIt as Parameters<typeof invoke>[0])[Symbol.asyncIterator]();
    const outputIt = pipe(
      {
        // Ending or failing the reply stream aborts the handler's signal.
        [Symbol.asyncIterator]: () => ({
          next: () => it.next(),
          throw: (e: unknown) => {
            context.abort(e);
            return it.throw?.(e) ?? Promise.reject({ done: true });
          },
          return: (v: unknown) => {
            context.abort();
            return it.return?.(v) ?? Promise.resolve({ done: true as const, value: v });
          },
        }),
      } as AsyncIterable<BoxedReply>,
      transformSerializeEnvelope(serialization.output(type.codec)),
      transformCompressEnvelope(compression.response, opt.compressMinBytes),
      transformJoinEnvelopes(),
      transformCatchFinally<Uint8Array>((e) => {
        context.abort(e);
        if (e !== undefined) setGrpcStatus(context.responseTrailer, callErrorOf(e));
      }),
      { propagateDownStreamError: true },
    );
    return {
      ...uResponseOk,
      // Wait for the first reply bytes, so a handler may still set response headers.
      body: await untilFirst(outputIt),
      header: context.responseHeader,
      trailer: context.responseTrailer,
    };
  };
}
