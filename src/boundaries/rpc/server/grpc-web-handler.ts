/**
 * gRPC-Web, served with wirekit's codecs: a Connect-ES `ProtocolHandlerFactory`, so Connect's
 * router and its Node and Fastify adapters mount it beside the gRPC and Connect handlers.
 *
 *   application/grpc-web[+<codec>]        enveloped messages each way, over HTTP/1.1 or HTTP/2
 *   application/grpc-web-text[+<codec>]   the same body as base64 (grpc-web-text.ts)
 *
 * The call's status travels as trailers in a last frame of the body (flag 0x80: `grpc-status`,
 * `grpc-message`, `grpc-status-details-bin` with wirekit's error details), since browsers cannot
 * read HTTP trailers. Bare `application/grpc-web` is Protocol Buffers; `<codec>` is any codec the
 * server offers. Connect-ES's own factory reads proto and json only, through protobuf-es messages,
 * and refuses the text variant.
 */
import type { MethodImplSpec } from '@connectrpc/connect';
import type * as ConnectProtocol from '@connectrpc/connect/protocol';
import type {
  ProtocolHandlerFactory,
  UniversalHandler,
  UniversalServerRequest,
  UniversalServerResponse,
} from '@connectrpc/connect/protocol';
import { codecOfContentType, contentTypeOf, type RpcCodecName } from '../message-formats.js';
import { expiredDeadlineError } from './call-error.js';
import { connectRuntime } from './connect-runtime.js';
import { transformBase64Decode, transformBase64Encode } from './grpc-web-text.js';
import type { WirekitHandlerOptions } from './handler-options.js';
import {
  createMethodSerialization,
  type MethodSerialization,
  offeredContentTypes,
  type ValidatedHandlerOptions,
  validateWirekitHandlerOptions,
} from './method-serialization.js';
import { streamResponseBody } from './stream-pipeline.js';

const protocolName = 'grpc-web';

/**
 * A factory of gRPC-Web handlers for wirekit's services. Unless the options say otherwise, each
 * message is limited to 4 MiB each way (Connect's own default is 4 GiB).
 */
export function createGrpcWebHandlerFactory(options: WirekitHandlerOptions): ProtocolHandlerFactory {
  const { contentTypeMatcher, createMethodUrl } = connectRuntime().protocol;
  const opt = validateWirekitHandlerOptions(options);
  const supportedContentType = contentTypeMatcher(offeredContentTypes('grpc-web', options.codecs));
  function factory(spec: MethodImplSpec): UniversalHandler {
    const serialization = createMethodSerialization(spec.method, options, opt);
    return Object.assign(createHandler(opt, options.codecs, spec, serialization), {
      protocolNames: [protocolName],
      supportedContentType,
      allowedMethods: ['POST'],
      requestPath: createMethodUrl('/', spec.method),
      service: spec.method.parent,
      method: spec.method,
    });
  }
  return Object.assign(factory, { protocolName });
}

function createHandler(
  opt: ValidatedHandlerOptions,
  codecs: readonly RpcCodecName[],
  spec: MethodImplSpec,
  serialization: MethodSerialization,
): (request: UniversalServerRequest) => Promise<UniversalServerResponse> {
  const { createHandlerContext } = connectRuntime().connect;
  const {
    createTrailerSerialization,
    grpcStatusOk,
    headerAcceptEncoding,
    headerContentType,
    headerEncoding,
    headerGrpcStatus,
    headerTimeout,
    parseTimeout,
    setTrailerStatus,
    trailerFlag,
  } = connectRuntime().grpcWeb;
  // An assertion function must be named with its type written out to narrow its argument.
  const assertByteStreamRequest: typeof ConnectProtocol.assertByteStreamRequest =
    connectRuntime().protocol.assertByteStreamRequest;
  const { compressionNegotiate, uResponseMethodNotAllowed, uResponseUnsupportedMediaType } =
    connectRuntime().protocol;
  const trailers = createTrailerSerialization();
  return async function handle(req) {
    assertByteStreamRequest(req);
    const type = codecOfContentType('grpc-web', req.header.get(headerContentType) ?? '');
    if (type === undefined || !codecs.includes(type.codec)) return uResponseUnsupportedMediaType;
    if (req.method !== 'POST') return uResponseMethodNotAllowed;
    const timeout = parseTimeout(req.header.get(headerTimeout), opt.maxTimeoutMs);
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
      responseHeader: { [headerContentType]: contentTypeOf('grpc-web', type.codec, type.text) },
      responseTrailer: { [headerGrpcStatus]: grpcStatusOk },
      contextValues: req.contextValues,
    });
    const compression = compressionNegotiate(
      opt.acceptCompression,
      req.header.get(headerEncoding),
      req.header.get(headerAcceptEncoding),
      headerAcceptEncoding,
    );
    if (compression.response !== null) {
      context.responseHeader.set(headerEncoding, compression.response.name);
    }
    const body = await streamResponseBody({
      opt,
      spec,
      context,
      body: type.text ? transformBase64Decode()(req.body) : req.body,
      compression,
      refusal: compression.error ?? timeout.error ?? expiredDeadlineError(timeout.timeoutMs),
      input: serialization.input(type.codec),
      output: serialization.output(type.codec),
      endFlag: trailerFlag,
      endFrame: (error) => {
        if (error !== undefined) setTrailerStatus(context.responseTrailer, error);
        return { flags: trailerFlag, data: trailers.serialize(context.responseTrailer) };
      },
      ...(type.text ? { encodeBody: transformBase64Encode() } : {}),
    });
    return { status: 200, header: context.responseHeader, body };
  };
}
