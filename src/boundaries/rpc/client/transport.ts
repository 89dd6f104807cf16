/**
 * What the typed client asks of a transport, and what every transport shares. A transport is one
 * protocol (gRPC, gRPC-Web, Connect) in one codec, over one HTTP client: Node's (connect-node's
 * `createNodeHttpClient`) or the page's `fetch`. It is built from Connect-ES's exported protocol
 * pieces, because Connect's own transports serialize with protobuf-es and name only `proto` and
 * `json` in their content types; here each message goes through wirekit's serializer of the
 * transport's codec and the content type names that codec (message-formats.ts, the table the
 * server reads too).
 */
import type { MessageSerializers, RpcCodecName } from '../message-formats.js';

/** The protocols a client speaks; Connect's unary and streaming forms are one transport. */
export type RpcClientProtocol = 'grpc' | 'grpc-web' | 'connect';

/** A method's request and reply serializers, each codec made on first use. */
export interface MethodMessages {
  readonly input: MessageSerializers<unknown>;
  readonly output: MessageSerializers<unknown>;
}

/**
 * A method as Connect's descriptor (protobuf-es's `DescMethod`, made by describeServices) gives it:
 * the fields a transport reads, declared by shape so that these types load without the peers.
 */
export interface MethodDescriptor {
  readonly name: string;
  readonly methodKind: 'unary' | 'server_streaming' | 'client_streaming' | 'bidi_streaming';
  /** google.protobuf.MethodOptions.IdempotencyLevel: 1 is NO_SIDE_EFFECTS. */
  readonly idempotency: number;
  readonly parent: { readonly typeName: string };
  readonly input: { readonly typeName: string };
}

/** One call as a transport runs it: the method, its messages, and what the caller said of it. */
export interface TransportCall {
  readonly method: MethodDescriptor;
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
  /**
   * Replies the server may compress: `gzip` (default, as Connect's clients offer it) or `identity`
   * (replies come as they are: on a fast internal network, compressing costs the server and the
   * client CPU and saves little).
   */
  readonly acceptCompression?: 'gzip' | 'identity';
  /** The smallest request worth compressing, in bytes (default 1024). */
  readonly compressMinBytes?: number;
  /** The largest reply message read, after decompression (default 4 MiB, as gRPC). */
  readonly readMaxBytes?: number;
  /** The largest request message sent (default 4 MiB, as gRPC). */
  readonly writeMaxBytes?: number;
  /** Headers sent with every call (a call's own headers are added to them). */
  readonly headers?: HeaderValues;
}
