/**
 * What each of wirekit's protocol handler factories (gRPC, gRPC-Web, Connect) is given: Connect's
 * own handler options (compression, read and write limits, timeouts, interceptors, shutdown) and,
 * in place of protobuf-es's serialization, each method's wirekit serializers and the codecs this
 * server offers. A factory has Connect's `ProtocolHandlerFactory` shape, so Connect's router and its
 * Node and Fastify adapters mount wirekit's handlers unchanged.
 */
import type { DescMethod } from '@bufbuild/protobuf';
import type { UniversalHandlerOptions } from '@connectrpc/connect/protocol';
import type { MessageSerializers, RpcCodecName } from '../message-formats.js';

/** A method's request and reply serializers, each codec made on first use. */
export interface MethodSerializers {
  readonly input: MessageSerializers<unknown>;
  readonly output: MessageSerializers<unknown>;
}

export interface WirekitHandlerOptions extends UniversalHandlerOptions {
  /** The serializers of a method this server serves (every method of its services has them). */
  readonly serializersOf: (method: DescMethod) => MethodSerializers;
  /** The codecs a call may use; a content type naming another is refused (415, or UNIMPLEMENTED). */
  readonly codecs: readonly RpcCodecName[];
}
