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

/**
 * A reply value as Connect's invoker must see it. Connect passes each reply through `normalize`,
 * which rebuilds anything that is not a protobuf-es message of the method's output type from that
 * type's fields (dropping wirekit's values); an object carrying the output's `$typeName` is passed
 * through untouched. So the service router boxes each reply its handler returns, and a factory's
 * serializer unboxes it before wirekit's codec encodes `value`. Requests need no box: Connect hands
 * a factory's parsed value to the implementation as it is.
 */
export interface BoxedReply {
  readonly $typeName: string;
  readonly value: unknown;
}

export function boxReply(method: DescMethod, value: unknown): BoxedReply {
  return { $typeName: method.output.typeName, value };
}

export function unboxReply(reply: BoxedReply): unknown {
  return reply.value;
}
