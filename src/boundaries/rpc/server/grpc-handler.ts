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
  Serialization,
  UniversalHandlerOptions,
  UniversalServerRequest,
  UniversalServerResponse,
} from '@connectrpc/connect/protocol';
import { codecOfContentType, contentTypeOf, type RpcCodecName } from '../message-formats.js';
import { callErrorOf, expiredDeadlineError, internalCallError } from './call-error.js';
import { connectRuntime } from './connect-runtime.js';
import { setGrpcStatus } from './grpc-status.js';
import { type BoxedReply, unboxReply, type WirekitHandlerOptions } from './handler-options.js';

const protocolName = 'grpc';

/** The content types this server's gRPC handler takes: `application/grpc` and each offered codec. */
function contentTypePattern(codecs: readonly RpcCodecName[]): RegExp {
  return new RegExp(`^application/grpc(?:\\+(?:${codecs.join('|')}))?(?:\\s*;\\s*charset=utf-?8)?$`, 'i');
}

/** wirekit's serializers of one method in one codec, as Connect's envelope transforms call them. */
function serializationOf(
  options: WirekitHandlerOptions,
  spec: MethodImplSpec,
  codec: RpcCodecName,
  limits: Pick<UniversalHandlerOptions, 'readMaxBytes' | 'writeMaxBytes'>,
): { input: Serialization<unknown>; output: Serialization<BoxedReply> } {
  const { limitSerialization } = connectRuntime().protocol;
  const serializers = options.serializersOf(spec.method);
  const input = serializers.input.of(codec);
  const output = serializers.output.of(codec);
  return {
    input: limitSerialization<unknown>(
      {
        // A message the codec refuses is the caller's fault: INVALID_ARGUMENT with wirekit's code.
        parse(bytes) {
          try {
            return input.parse(bytes);
          } catch (error) {
            throw callErrorOf(error);
          }
        },
        serialize: (value) => asArrayBufferView(input.serialize(value)),
      },
      limits,
    ),
    output: limitSerialization<BoxedReply>(
      {
        parse: (bytes) => ({ $typeName: spec.method.output.typeName, value: output.parse(bytes) }),
        // A reply the codec refuses is the server's own bug: INTERNAL, naming only the code.
        serialize(reply) {
          try {
            return asArrayBufferView(output.serialize(unboxReply(reply)));
          } catch (error) {
            const code = (error as { code?: unknown }).code;
            throw internalCallError(`the reply could not be encoded (${String(code)})`, error);
          }
        },
      },
      limits,
    ),
  };
}

/**
 * Connect's types ask for views of a plain ArrayBuffer. wirekit's codecs write into ArrayBuffer
 * slabs (never a SharedArrayBuffer), so the view passes as it is; a copy is made only otherwise.
 */
function asArrayBufferView(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}

/** A gRPC handler factory serving wirekit's messages in every codec `options.codecs` offers. */
export function createGrpcHandlerFactory(options: WirekitHandlerOptions): ProtocolHandlerFactory {
  const { contentTypeMatcher, createMethodUrl, validateUniversalHandlerOptions } = connectRuntime().protocol;
  const opt = validateUniversalHandlerOptions(options);
  const pattern = contentTypePattern(options.codecs);
  function factory(spec: MethodImplSpec) {
    return Object.assign(createHandler(options, opt, spec), {
      protocolNames: [protocolName],
      allowedMethods: ['POST'],
      supportedContentType: contentTypeMatcher(pattern),
      requestPath: createMethodUrl('/', spec.method),
      service: spec.method.parent,
      method: spec.method,
    });
  }
  factory.protocolName = protocolName;
  return factory;
}

function createHandler(options: WirekitHandlerOptions, opt: UniversalHandlerOptions, spec: MethodImplSpec) {
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
  const serializations = new Map<RpcCodecName, ReturnType<typeof serializationOf>>();
  const serializationFor = (codec: RpcCodecName) => {
    let serialization = serializations.get(codec);
    if (serialization === undefined) {
      serialization = serializationOf(options, spec, codec, opt);
      serializations.set(codec, serialization);
    }
    return serialization;
  };

  return async function handle(req: UniversalServerRequest): Promise<UniversalServerResponse> {
    assertByteStreamRequest(req);
    const type = codecOfContentType('grpc', req.header.get(headerContentType) ?? '');
    if (type === undefined || !options.codecs.includes(type.codec)) return uResponseUnsupportedMediaType;
    if (req.method !== 'POST') return uResponseMethodNotAllowed;
    const serialization = serializationFor(type.codec);
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
      transformParseEnvelope(serialization.input),
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
      transformSerializeEnvelope(serialization.output),
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
