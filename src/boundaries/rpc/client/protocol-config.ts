/**
 * What a protocol's transport is built from: the options resolved against their defaults, with the
 * platform's HTTP client and gzip, and the request box Connect's call runners need. Connect's types
 * only: this module loads no peer, and a transport's own module (loaded on first call) does.
 */
import type { Compression, UniversalClientFn } from '@connectrpc/connect/protocol';
import type { RpcCodecName } from '../message-formats.js';
import type { MethodDescriptor, StreamOutcome, TransportCall, TransportOptions } from './transport.js';

/** gRPC's default message size limit each way. */
const defaultMaxMessageBytes = 4 * 1024 * 1024;

/** What a protocol's transport is built from once the platform supplied its HTTP client and gzip. */
export interface ProtocolTransportConfig {
  readonly baseUrl: string;
  readonly codec: RpcCodecName;
  readonly httpClient: UniversalClientFn;
  readonly sendCompression: Compression | null;
  readonly acceptCompression: readonly Compression[];
  readonly compressMinBytes: number;
  readonly readMaxBytes: number;
  readonly writeMaxBytes: number;
  readonly headers: Headers;
}

/** The options resolved against the defaults, given the platform's HTTP client and gzip. */
export function protocolConfig(
  options: TransportOptions,
  httpClient: UniversalClientFn,
  gzip: Compression | undefined,
): ProtocolTransportConfig {
  const sendGzip = options.sendCompression === 'gzip';
  return {
    baseUrl: options.baseUrl,
    codec: options.codec ?? 'proto',
    httpClient,
    sendCompression: sendGzip && gzip !== undefined ? gzip : null,
    acceptCompression: gzip === undefined || options.acceptCompression === 'identity' ? [] : [gzip],
    compressMinBytes: options.compressMinBytes ?? 1024,
    readMaxBytes: options.readMaxBytes ?? defaultMaxMessageBytes,
    writeMaxBytes: options.writeMaxBytes ?? defaultMaxMessageBytes,
    headers: new Headers(options.headers as ConstructorParameters<typeof Headers>[0]),
  };
}

/**
 * A request as Connect's call runner must see it. `runUnaryCall` passes each request through
 * protobuf-es's `create`, which rebuilds anything that is not a message of the method's input type
 * (dropping wirekit's values); an object carrying the input's `$typeName` passes untouched. The
 * request serializer unboxes it before wirekit's codec encodes `value`.
 */
export interface BoxedRequest {
  readonly $typeName: string;
  readonly value: unknown;
}

export function boxRequest(method: MethodDescriptor, value: unknown): BoxedRequest {
  return { $typeName: method.input.typeName, value };
}

/** A streaming call's response as the client reads it. */
export function streamOutcome(response: {
  header: Headers;
  trailer: Headers;
  message: AsyncIterable<unknown>;
}): StreamOutcome {
  return { header: response.header, messages: response.message, trailer: response.trailer };
}

/** The call's headers: the transport's, then the call's own, then the protocol's. */
export function callHeaders(config: ProtocolTransportConfig, call: TransportCall): Headers {
  const headers = new Headers(config.headers);
  call.headers.forEach((value, name) => {
    headers.set(name, value);
  });
  return headers;
}
