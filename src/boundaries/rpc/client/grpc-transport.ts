/**
 * gRPC over HTTP/2: Connect-ES's gRPC call pipeline (`runUnaryCall`, `runStreamingCall`, the
 * protocol's request headers, envelopes and trailer checks), with wirekit's serializers of the
 * transport's codec and the content type `application/grpc+<codec>` (`application/grpc` for proto,
 * as every gRPC runtime sends it).
 */
import type { DescMethod } from '@bufbuild/protobuf';
import { Code, ConnectError, createContextValues } from '@connectrpc/connect';
import {
  createMethodUrl,
  pipe,
  pipeTo,
  runStreamingCall,
  runUnaryCall,
  transformDecompressEnvelope,
  transformParseEnvelope,
  transformSplitEnvelope,
} from '@connectrpc/connect/protocol';
import {
  codeFromHttpStatus,
  findTrailerError,
  headerContentType,
  headerEncoding,
  headerGrpcStatus,
  requestHeaderWithCompression,
  validateTrailer,
} from '@connectrpc/connect/protocol-grpc';
import { codecOfContentType, contentTypeOf, type RpcCodecName } from '../message-formats.js';
import {
  envelopedBody,
  oneRequest,
  onlyItem,
  replySerialization,
  requestSerialization,
  responseCompression,
} from './envelopes.js';
import { boxRequest, callHeaders, type ProtocolTransportConfig, streamOutcome } from './protocol-config.js';
import type { RpcTransport, TransportCall } from './transport.js';

/**
 * The response's headers checked as a gRPC client must: HTTP 200, a status already in the headers
 * (a trailers-only answer, usually an error), else a content type naming this call's codec.
 */
function checkResponse(status: number, header: Headers, codec: RpcCodecName) {
  if (status !== 200) throw new ConnectError(`HTTP ${status}`, codeFromHttpStatus(status), header);
  const foundStatus = header.has(headerGrpcStatus);
  const headerError = findTrailerError(header);
  if (!foundStatus) {
    const contentType = header.get(headerContentType) ?? '';
    if (codecOfContentType('grpc', contentType)?.codec !== codec) {
      throw new ConnectError(
        `the reply's content type ${contentType} is not ${codec}`,
        Code.Internal,
        header,
      );
    }
  }
  return { foundStatus, headerError };
}

/** A gRPC transport over any HTTP/2 client function (Node's, in practice: browsers cannot). */
export function createGrpcProtocolTransport(config: ProtocolTransportConfig): RpcTransport {
  const { codec } = config;
  const headersOf = (call: TransportCall) => {
    const header = requestHeaderWithCompression(
      true,
      call.timeoutMs,
      callHeaders(config, call),
      [...config.acceptCompression],
      config.sendCompression,
    );
    header.set(headerContentType, contentTypeOf('grpc', codec));
    return header;
  };
  return {
    protocol: 'grpc',
    codec,
    unary: (call, request) =>
      runUnaryCall<never, never>({
        signal: call.signal,
        timeoutMs: call.timeoutMs,
        req: {
          stream: false,
          service: call.method.parent as never,
          method: call.method as never,
          requestMethod: 'POST',
          url: createMethodUrl(config.baseUrl, call.method as DescMethod),
          header: headersOf(call),
          contextValues: createContextValues(),
          message: boxRequest(call.method, request) as never,
        },
        next: async (req) => {
          const input = requestSerialization(call.messages.input.of(codec), config);
          const response = await config.httpClient({
            url: req.url,
            method: 'POST',
            header: req.header,
            signal: req.signal,
            body: envelopedBody(oneRequest(req.message as never), input, config),
          });
          const { headerError } = checkResponse(response.status, response.header, codec);
          const compression = responseCompression(
            response.header.get(headerEncoding),
            config.acceptCompression,
          );
          const message = await pipeTo(
            response.body,
            transformSplitEnvelope(config.readMaxBytes),
            transformDecompressEnvelope(compression, config.readMaxBytes),
            transformParseEnvelope(replySerialization(call.messages.output.of(codec), config)),
            onlyItem,
            { propagateDownStreamError: false },
          );
          validateTrailer(response.trailer, response.header);
          if (message === undefined) {
            if (headerError !== undefined) throw headerError;
            throw new ConnectError('protocol error: no reply to a unary call', Code.Unimplemented);
          }
          return {
            stream: false,
            service: call.method.parent as never,
            method: call.method as never,
            header: response.header,
            message: message as never,
            trailer: response.trailer,
          };
        },
      }),
    stream: (call, requests) =>
      runStreamingCall<never, never>({
        signal: call.signal,
        timeoutMs: call.timeoutMs,
        req: {
          stream: true,
          service: call.method.parent as never,
          method: call.method as never,
          requestMethod: 'POST',
          url: createMethodUrl(config.baseUrl, call.method as DescMethod),
          header: headersOf(call),
          contextValues: createContextValues(),
          message: boxedStream(call, requests) as never,
        },
        next: async (req) => {
          const input = requestSerialization(call.messages.input.of(codec), config);
          const response = await config.httpClient({
            url: req.url,
            method: 'POST',
            header: req.header,
            signal: req.signal,
            body: envelopedBody(req.message as never, input, config),
          });
          const { foundStatus, headerError } = checkResponse(response.status, response.header, codec);
          if (headerError !== undefined) throw headerError;
          const compression = responseCompression(
            response.header.get(headerEncoding),
            config.acceptCompression,
          );
          const replies = pipe(
            response.body,
            transformSplitEnvelope(config.readMaxBytes),
            transformDecompressEnvelope(compression, config.readMaxBytes),
            transformParseEnvelope(replySerialization(call.messages.output.of(codec), config)),
            { propagateDownStreamError: true },
          );
          async function* thenTrailer() {
            yield* replies;
            if (!foundStatus) validateTrailer(response.trailer, response.header);
          }
          return {
            ...req,
            header: response.header,
            trailer: response.trailer,
            message: thenTrailer() as never,
          };
        },
      }).then(streamOutcome),
  };
}

/** The caller's requests, each boxed for Connect's normalize (see BoxedRequest). */
export async function* boxedStream(call: TransportCall, requests: AsyncIterable<unknown>) {
  for await (const request of requests) yield boxRequest(call.method, request);
}
