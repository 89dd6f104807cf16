/**
 * The Connect protocol: a unary call is a plain HTTP POST of one message (`application/<codec>`),
 * or a GET with the message in the query for a method marked NO_SIDE_EFFECTS when `useHttpGet` is
 * on (cacheable by HTTP caches); a failed unary call is an HTTP error status with a JSON body.
 * Streams are enveloped (`application/connect+<codec>`) and end with a JSON end-of-stream frame
 * (flag 0x02) carrying the status and trailers. Connect-ES's pieces, wirekit's messages.
 */
import type { DescMethod } from '@bufbuild/protobuf';
import { MethodOptions_IdempotencyLevel } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, createContextValues } from '@connectrpc/connect';
import {
  createAsyncIterable,
  createMethodUrl,
  pipe,
  pipeTo,
  runStreamingCall,
  runUnaryCall,
  sinkAllBytes,
  transformDecompressEnvelope,
  transformParseEnvelope,
  transformSplitEnvelope,
} from '@connectrpc/connect/protocol';
import {
  codeFromHttpStatus,
  createEndStreamSerialization,
  endStreamFlag,
  errorFromJsonBytes,
  headerContentType,
  headerStreamEncoding,
  headerUnaryContentLength,
  headerUnaryEncoding,
  requestHeaderWithCompression,
  trailerDemux,
  transformConnectPostToGetRequest,
} from '@connectrpc/connect/protocol-connect';
import { codecOfContentType, contentTypeOf } from '../message-formats.js';
import { envelopedBody, replySerialization, requestSerialization, responseCompression } from './envelopes.js';
import { boxedStream } from './grpc-transport.js';
import {
  type BoxedRequest,
  boxRequest,
  callHeaders,
  type ProtocolTransportConfig,
  streamOutcome,
} from './protocol-config.js';
import type { RpcTransport, TransportCall } from './transport.js';

export interface ConnectConfig extends ProtocolTransportConfig {
  /** Call methods marked NO_SIDE_EFFECTS with GET (the message in the query string). */
  readonly useHttpGet: boolean;
  /** Set `User-Agent` (a browser forbids it). */
  readonly setUserAgent: boolean;
}

export function createConnectProtocolTransport(config: ConnectConfig): RpcTransport {
  const { codec } = config;
  const headersOf = (call: TransportCall) => {
    const kind = call.method.methodKind;
    const header = requestHeaderWithCompression(
      kind,
      true,
      call.timeoutMs,
      callHeaders(config, call),
      [...config.acceptCompression],
      config.sendCompression,
      config.setUserAgent,
    );
    header.set(
      headerContentType,
      contentTypeOf(kind === 'unary' ? 'connect-unary' : 'connect-stream', codec),
    );
    return header;
  };
  return {
    protocol: 'connect',
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
          let body: Uint8Array = input.serialize(req.message as BoxedRequest);
          if (config.sendCompression !== null && body.byteLength > config.compressMinBytes) {
            body = await config.sendCompression.compress(body as Uint8Array<ArrayBuffer>);
            req.header.set(headerUnaryEncoding, config.sendCompression.name);
          } else {
            req.header.delete(headerUnaryEncoding);
          }
          const useGet =
            config.useHttpGet && call.method.idempotency === MethodOptions_IdempotencyLevel.NO_SIDE_EFFECTS;
          // Binary messages travel base64 in the query; ProtoJSON as its own (percent-encoded) text.
          if (useGet) req = transformConnectPostToGetRequest(req, body, codec !== 'json');
          const response = await config.httpClient({
            url: req.url,
            method: req.requestMethod,
            header: req.header,
            signal: req.signal,
            ...(useGet ? {} : { body: createAsyncIterable([body]) }),
          });
          const [header, trailer] = trailerDemux(response.header);
          const compression = responseCompression(
            response.header.get(headerUnaryEncoding),
            config.acceptCompression,
          );
          const read = async () => {
            const bytes = await pipeTo(
              response.body,
              sinkAllBytes(config.readMaxBytes, response.header.get(headerUnaryContentLength)),
              { propagateDownStreamError: false },
            );
            return compression === null ? bytes : compression.decompress(bytes, config.readMaxBytes);
          };
          const contentType = response.header.get(headerContentType) ?? '';
          if (response.status !== 200) {
            const fallback = new ConnectError(
              `HTTP ${response.status}`,
              codeFromHttpStatus(response.status),
              header,
            );
            // A Connect error is JSON whatever the call's codec; anything else (a proxy's page) is not one.
            if (codecOfContentType('connect-unary', contentType)?.codec !== 'json') throw fallback;
            const metadata = new Headers(header);
            trailer.forEach((value, name) => {
              metadata.append(name, value);
            });
            throw errorFromJsonBytes(await read(), metadata, fallback);
          }
          if (codecOfContentType('connect-unary', contentType)?.codec !== codec) {
            throw new ConnectError(
              `the reply's content type ${contentType} is not ${codec}`,
              Code.Internal,
              header,
            );
          }
          const message = replySerialization(call.messages.output.of(codec), config).parse(await read());
          return {
            stream: false,
            service: call.method.parent as never,
            method: call.method as never,
            header,
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
          const input = requestSerialization(call.messages.input.of(codec), config);
          const response = await config.httpClient({
            url: req.url,
            method: 'POST',
            header: req.header,
            signal: req.signal,
            body: envelopedBody(req.message as never, input, config),
          });
          if (response.status !== 200) {
            throw new ConnectError(
              `HTTP ${response.status}`,
              codeFromHttpStatus(response.status),
              response.header,
            );
          }
          const contentType = response.header.get(headerContentType) ?? '';
          if (codecOfContentType('connect-stream', contentType)?.codec !== codec) {
            throw new ConnectError(`the reply's content type ${contentType} is not ${codec}`, Code.Internal);
          }
          const compression = responseCompression(
            response.header.get(headerStreamEncoding),
            config.acceptCompression,
          );
          const frames = pipe(
            response.body,
            transformSplitEnvelope(config.readMaxBytes),
            transformDecompressEnvelope(compression, config.readMaxBytes),
            transformParseEnvelope(
              replySerialization(call.messages.output.of(codec), config),
              endStreamFlag,
              createEndStreamSerialization(undefined),
            ),
            { propagateDownStreamError: true },
          );
          const trailer = new Headers();
          async function* replies() {
            let ended = false;
            for await (const frame of frames) {
              if (ended)
                throw new ConnectError(
                  'protocol error: data after the end of the stream',
                  Code.InvalidArgument,
                );
              if (frame.end) {
                ended = true;
                const { error, metadata } = frame.value;
                if (error !== undefined) {
                  response.header.forEach((value, name) => {
                    error.metadata.append(name, value);
                  });
                  throw error;
                }
                metadata.forEach((value, name) => {
                  trailer.set(name, value);
                });
              } else {
                yield frame.value;
              }
            }
            if (!ended)
              throw new ConnectError(
                'protocol error: the stream ended without its end frame',
                Code.InvalidArgument,
              );
          }
          return { ...req, header: response.header, trailer, message: replies() as never };
        },
      }).then(streamOutcome),
  };
}
