/**
 * The Connect protocol, served with wirekit's codecs: a Connect-ES `ProtocolHandlerFactory`, so
 * Connect's router and its Node and Fastify adapters mount it as they mount Connect's own.
 *
 *   unary      POST application/<codec> (a GET for NO_SIDE_EFFECTS methods): connect-unary-handler.ts
 *   streaming  POST application/connect+<codec>, enveloped messages each way, then the
 *              end-of-stream JSON message (flag 0b10) carrying the status and trailers
 *
 * `<codec>` is any codec the server offers: proto, json (canonical ProtoJSON), msgpack, cbor, avro.
 * Connect-ES's own factory reads proto and json only, through protobuf-es messages; this one reads
 * and writes wirekit's values with wirekit's codecs (handler-options.ts).
 */
import type { ConnectError, MethodImplSpec } from '@connectrpc/connect';
import type * as ConnectProtocol from '@connectrpc/connect/protocol';
import type {
  ProtocolHandlerFactory,
  UniversalHandler,
  UniversalServerRequest,
  UniversalServerResponse,
} from '@connectrpc/connect/protocol';
import type { createEndStreamSerialization } from '@connectrpc/connect/protocol-connect';
import { codecOfContentType, contentTypeOf, type RpcCodecName } from '../message-formats.js';
import { expiredDeadlineError } from './call-error.js';
import { connectRuntime } from './connect-runtime.js';
import { allowsGet, createConnectUnaryHandler } from './connect-unary-handler.js';
import type { WirekitHandlerOptions } from './handler-options.js';
import {
  createMethodSerialization,
  type MethodSerialization,
  offeredContentTypes,
  type ValidatedHandlerOptions,
  validateWirekitHandlerOptions,
} from './method-serialization.js';
import { streamResponseBody } from './stream-pipeline.js';

const protocolName = 'connect';

/**
 * A factory of Connect protocol handlers for wirekit's services. Unless the options say otherwise,
 * each message is limited to 4 MiB each way (Connect's own default is 4 GiB).
 */
export function createConnectHandlerFactory(options: WirekitHandlerOptions): ProtocolHandlerFactory {
  const { createEndStreamSerialization } = connectRuntime().connectProtocol;
  const { contentTypeMatcher, createMethodUrl } = connectRuntime().protocol;
  const opt = validateWirekitHandlerOptions(options);
  const unaryTypes = contentTypeMatcher(offeredContentTypes('connect-unary', options.codecs));
  const streamTypes = contentTypeMatcher(offeredContentTypes('connect-stream', options.codecs));
  const endStream = createEndStreamSerialization(opt.jsonOptions ?? {});

  function factory(spec: MethodImplSpec): UniversalHandler {
    const serialization = createMethodSerialization(spec.method, options, opt);
    const unary = spec.kind === 'unary';
    const handle = unary
      ? createConnectUnaryHandler(opt, options.codecs, spec, serialization)
      : createStreamHandler(opt, options.codecs, spec, serialization, endStream);
    return Object.assign(handle, {
      protocolNames: [protocolName],
      supportedContentType: unary ? unaryTypes : streamTypes,
      allowedMethods: unary && allowsGet(spec) ? ['POST', 'GET'] : ['POST'],
      requestPath: createMethodUrl('/', spec.method),
      service: spec.method.parent,
      method: spec.method,
    });
  }
  return Object.assign(factory, { protocolName });
}

function createStreamHandler(
  opt: ValidatedHandlerOptions,
  codecs: readonly RpcCodecName[],
  spec: MethodImplSpec,
  serialization: MethodSerialization,
  endStream: ReturnType<typeof createEndStreamSerialization>,
): (request: UniversalServerRequest) => Promise<UniversalServerResponse> {
  const { createHandlerContext } = connectRuntime().connect;
  const {
    endStreamFlag,
    headerContentType,
    headerStreamAcceptEncoding,
    headerStreamEncoding,
    headerTimeout,
    parseTimeout,
  } = connectRuntime().connectProtocol;
  // An assertion function must be named with its type written out to narrow its argument.
  const assertByteStreamRequest: typeof ConnectProtocol.assertByteStreamRequest =
    connectRuntime().protocol.assertByteStreamRequest;
  const { compressionNegotiate, uResponseMethodNotAllowed, uResponseUnsupportedMediaType } =
    connectRuntime().protocol;
  return async function handle(req) {
    assertByteStreamRequest(req);
    const codec = codecOfContentType('connect-stream', req.header.get(headerContentType) ?? '')?.codec;
    if (codec === undefined || !codecs.includes(codec)) return uResponseUnsupportedMediaType;
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
      responseHeader: { [headerContentType]: contentTypeOf('connect-stream', codec) },
      contextValues: req.contextValues,
    });
    const compression = compressionNegotiate(
      opt.acceptCompression,
      req.header.get(headerStreamEncoding),
      req.header.get(headerStreamAcceptEncoding),
      headerStreamAcceptEncoding,
    );
    if (compression.response !== null) {
      context.responseHeader.set(headerStreamEncoding, compression.response.name);
    }
    const refusal =
      versionError(opt, req) ?? compression.error ?? timeout.error ?? expiredDeadlineError(timeout.timeoutMs);
    const body = await streamResponseBody({
      opt,
      spec,
      context,
      body: req.body,
      compression,
      refusal,
      input: serialization.input(codec),
      output: serialization.output(codec),
      endFlag: endStreamFlag,
      endFrame: (error) => ({
        flags: endStreamFlag,
        data: endStream.serialize({
          metadata: context.responseTrailer,
          ...(error === undefined ? {} : { error }),
        }),
      }),
    });
    return { status: 200, header: context.responseHeader, body };
  };
}

function versionError(opt: ValidatedHandlerOptions, req: UniversalServerRequest): ConnectError | undefined {
  const { Code, ConnectError } = connectRuntime().connect;
  const { headerProtocolVersion, protocolVersion } = connectRuntime().connectProtocol;
  if (!opt.requireConnectProtocolHeader) return undefined;
  const got = req.header.get(headerProtocolVersion);
  if (got === protocolVersion) return undefined;
  return new ConnectError(
    `${headerProtocolVersion} must be "${protocolVersion}", got ${JSON.stringify(got)}`,
    Code.InvalidArgument,
  );
}
