/**
 * What the typed client asks of a transport, and what every transport shares. A transport is one
 * protocol (gRPC, gRPC-Web, Connect) in one codec, over one HTTP client: Node's (connect-node's
 * `createNodeHttpClient`) or the page's `fetch`. It is built from Connect-ES's exported protocol
 * pieces, because Connect's own transports serialize with protobuf-es and name only `proto` and
 * `json` in their content types; here each message goes through wirekit's serializer of the
 * transport's codec and the content type names that codec (message-formats.ts, the table the
 * server reads too).
 */
import type { DescMethod } from '@bufbuild/protobuf';
import type { Compression, Serialization, UniversalClientFn } from '@connectrpc/connect/protocol';
import { limitSerialization } from '@connectrpc/connect/protocol';
import type { MessageSerializer, MessageSerializers, RpcCodecName } from '../message-formats.js';

/** The protocols a client speaks; Connect's unary and streaming forms are one transport. */
export type RpcClientProtocol = 'grpc' | 'grpc-web' | 'connect';

/** A method's request and reply serializers, each codec made on first use. */
export interface MethodMessages {
  readonly input: MessageSerializers<unknown>;
  readonly output: MessageSerializers<unknown>;
}

/** One call as a transport runs it: the method, its messages, and what the caller said of it. */
export interface TransportCall {
  readonly method: DescMethod;
  readonly messages: MethodMessages;
  /** Cancels the call, its request stream and its reply stream. */
  readonly signal: AbortSignal | undefined;
  /** Milliseconds left before the deadline, sent to the server and enforced here; undefined: none. */
  readonly timeoutMs: number | undefined;
  readonly headers: Headers;
}

export interface UnaryOutcome {
  readonly header: Headers;
  readonly message: unknown;
  readonly trailer: Headers;
}

export interface StreamOutcome {
  readonly header: Headers;
  /** The replies, decoded; the trailer is complete once this ends. */
  readonly messages: AsyncIterable<unknown>;
  readonly trailer: Headers;
}

/** A protocol in a codec over an HTTP client: what `createRpcClient` calls. */
export interface RpcTransport {
  readonly protocol: RpcClientProtocol;
  readonly codec: RpcCodecName;
  unary(call: TransportCall, request: unknown): Promise<UnaryOutcome>;
  stream(call: TransportCall, requests: AsyncIterable<unknown>): Promise<StreamOutcome>;
}

/** Headers as `new Headers(...)` takes them: a Headers, an object, or name-value pairs. */
export type HeaderValues =
  | Headers
  | Readonly<Record<string, string>>
  | readonly (readonly [string, string])[];

/** The options every transport takes, on Node and in a browser. */
export interface TransportOptions {
  /** Where the service is served: `http://127.0.0.1:50051`, or a path prefix on a gateway. */
  readonly baseUrl: string;
  /** The messages' format (default `proto`): any of rpcCodecNames the server offers. */
  readonly codec?: RpcCodecName;
  /** Compress requests with gzip (default: send them as they are). */
  readonly sendCompression?: 'gzip' | 'identity';
  /** The smallest request worth compressing, in bytes (default 1024). */
  readonly compressMinBytes?: number;
  /** The largest reply message read, after decompression (default 4 MiB, as gRPC). */
  readonly readMaxBytes?: number;
  /** The largest request message sent (default 4 MiB, as gRPC). */
  readonly writeMaxBytes?: number;
  /** Headers sent with every call (a call's own headers are added to them). */
  readonly headers?: HeaderValues;
}

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
    acceptCompression: gzip === undefined ? [] : [gzip],
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

export function boxRequest(method: DescMethod, value: unknown): BoxedRequest {
  return { $typeName: method.input.typeName, value };
}

/** The request side of a call in Connect's Serialization shape, with the write limit. */
export function requestSerialization(
  serializer: MessageSerializer<unknown>,
  config: ProtocolTransportConfig,
): Serialization<BoxedRequest> {
  return limitSerialization<BoxedRequest>(
    {
      // Connect's envelope code keeps the bytes only until they are framed: a view is enough.
      serialize: (boxed) => serializer.serialize(boxed.value) as Uint8Array<ArrayBuffer>,
      parse: () => {
        throw new TypeError('a client never parses its own requests');
      },
    },
    config,
  );
}

/** The reply side of a call in Connect's Serialization shape, with the read limit. */
export function replySerialization(
  serializer: MessageSerializer<unknown>,
  config: ProtocolTransportConfig,
): Serialization<unknown> {
  return limitSerialization<unknown>(
    {
      serialize: () => {
        throw new TypeError('a client never serializes replies');
      },
      parse: (bytes) => serializer.parse(bytes),
    },
    config,
  );
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
