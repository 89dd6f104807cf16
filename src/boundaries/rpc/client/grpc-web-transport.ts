/**
 * gRPC-Web: gRPC for HTTP/1.1 and browsers, its trailers sent as a last enveloped frame (flag 0x80)
 * inside the body. Connect-ES's call runners, request headers, envelopes and trailer parsing, with
 * wirekit's serializers and `application/grpc-web+<codec>`; `text` sends and reads the body as
 * base64 (`application/grpc-web-text+<codec>`), which Connect's own transport does not offer.
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
import { codeFromHttpStatus, findTrailerError } from '@connectrpc/connect/protocol-grpc';
import {
  createTrailerSerialization,
  headerContentType,
  headerEncoding,
  headerGrpcMessage,
  headerGrpcStatus,
  requestHeaderWithCompression,
  trailerFlag,
  validateTrailer,
} from '@connectrpc/connect/protocol-grpc-web';
import { codecOfContentType, contentTypeOf, type RpcCodecName } from '../message-formats.js';
import { base64Chunks, base64Decoded } from './base64-stream.js';
import {
  envelopedBody,
  oneRequest,
  replySerialization,
  requestSerialization,
  responseCompression,
} from './envelopes.js';
import { boxedStream } from './grpc-transport.js';
import { boxRequest, callHeaders, type ProtocolTransportConfig, streamOutcome } from './protocol-config.js';
import type { RpcTransport, TransportCall } from './transport.js';

export interface GrpcWebConfig extends ProtocolTransportConfig {
  /** Send and read the body as base64 (`application/grpc-web-text`). */
  readonly text: boolean;
  /** Set `User-Agent` as well as `X-User-Agent` (a browser forbids the first). */
  readonly setUserAgent: boolean;
}

/** Headers checked as a gRPC-Web client must: any 2xx, a status in them, or this call's codec. */
function checkResponse(status: number, header: Headers, codec: RpcCodecName, text: boolean) {
  if (status < 200 || status >= 300) {
    const message = header.get(headerGrpcMessage);
    throw new ConnectError(
      message === null ? `HTTP ${status}` : decodeURIComponent(message),
      codeFromHttpStatus(status),
      header,
    );
  }
  const foundStatus = header.has(headerGrpcStatus);
  if (!foundStatus) {
    const contentType = header.get(headerContentType) ?? '';
    const named = codecOfContentType('grpc-web', contentType);
    if (named?.codec !== codec || named.text !== text) {
      throw new ConnectError(
        `the reply's content type ${contentType} is not ${codec}`,
        Code.Internal,
        header,
      );
    }
  }
  return { foundStatus, headerError: findTrailerError(header) };
}

export function createGrpcWebProtocolTransport(config: GrpcWebConfig): RpcTransport {
  const { codec, text } = config;
  const headersOf = (call: TransportCall) => {
    const header = requestHeaderWithCompression(
      true,
      call.timeoutMs,
      callHeaders(config, call),
      [...config.acceptCompression],
      config.sendCompression,
      config.setUserAgent,
    );
    header.set(headerContentType, contentTypeOf('grpc-web', codec, text));
    return header;
  };
  const send = (
    call: TransportCall,
    requests: AsyncIterable<never>,
    req: { url: string; header: Headers; signal: AbortSignal },
  ) => {
    const input = requestSerialization(call.messages.input.of(codec), config);
    const body = envelopedBody(requests, input, config);
    return config.httpClient({
      url: req.url,
      method: 'POST',
      header: req.header,
      signal: req.signal,
      body: text ? base64Chunks(body) : body,
    });
  };
  /** The reply's frames: messages (`end: false`) and the trailer frame (`end: true`). */
  const framesOf = (call: TransportCall, response: { header: Headers; body: AsyncIterable<Uint8Array> }) => {
    const compression = responseCompression(response.header.get(headerEncoding), config.acceptCompression);
    return pipe(
      text ? base64Decoded(response.body) : response.body,
      transformSplitEnvelope(config.readMaxBytes),
      transformDecompressEnvelope(compression, config.readMaxBytes),
      transformParseEnvelope(
        replySerialization(call.messages.output.of(codec), config),
        trailerFlag,
        createTrailerSerialization(),
      ),
      { propagateDownStreamError: true },
    );
  };
  return {
    protocol: 'grpc-web',
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
          const response = await send(call, oneRequest(req.message as never) as never, req);
          const { headerError } = checkResponse(response.status, response.header, codec, text);
          let message: unknown;
          let trailer: Headers | undefined;
          let messages = 0;
          await pipeTo(
            framesOf(call, response),
            async (frames) => {
              for await (const frame of frames) {
                if (frame.end) {
                  if (trailer !== undefined)
                    throw new ConnectError('protocol error: a second trailer', Code.Unimplemented);
                  trailer = frame.value;
                } else {
                  messages += 1;
                  if (messages > 1)
                    throw new ConnectError(
                      'protocol error: more than one reply to a unary call',
                      Code.Unimplemented,
                    );
                  message = frame.value;
                }
              }
            },
            { propagateDownStreamError: false },
          );
          if (trailer === undefined) {
            if (headerError !== undefined) throw headerError;
            throw new ConnectError('protocol error: the reply ended without a trailer', Code.Unknown);
          }
          validateTrailer(trailer, response.header);
          if (messages === 0)
            throw new ConnectError('protocol error: no reply to a unary call', Code.Unimplemented);
          return {
            stream: false,
            service: call.method.parent as never,
            method: call.method as never,
            header: response.header,
            message: message as never,
            trailer,
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
          const response = await send(call, req.message as never, req);
          const { foundStatus, headerError } = checkResponse(response.status, response.header, codec, text);
          if (headerError !== undefined) throw headerError;
          const trailer = new Headers();
          const frames = framesOf(call, response);
          async function* replies() {
            let trailerSeen = false;
            for await (const frame of frames) {
              if (trailerSeen)
                throw new ConnectError('protocol error: data after the trailer', Code.InvalidArgument);
              if (frame.end) {
                trailerSeen = true;
                validateTrailer(frame.value, response.header);
                frame.value.forEach((value, name) => {
                  trailer.set(name, value);
                });
              } else {
                yield frame.value;
              }
            }
            // A status in the headers was a trailers-only answer: no trailer frame follows.
            if (!trailerSeen && !foundStatus) {
              throw new ConnectError('protocol error: the reply ended without a trailer', Code.Internal);
            }
          }
          return { ...req, header: response.header, trailer, message: replies() as never };
        },
      }).then(streamOutcome),
  };
}
