/**
 * A wirekit service bound to its handlers, and the Connect routes that serve it. `rpcService` ties
 * a `t.service` to one handler per method, type-checked from the schema (`ServiceHandlers`); the
 * router turns each method into a Connect universal handler served by every protocol factory the
 * server runs (gRPC here; gRPC-Web and Connect are factories of the same contract), so Connect's
 * node:http2 adapter and its Fastify plugin mount them unchanged.
 *
 * A handler sees wirekit's values, never protobuf-es messages: requests arrive as the codecs
 * decoded them, replies are boxed with the output's `$typeName` on their way to Connect (which
 * would otherwise rebuild them from the descriptor), and whatever a handler throws becomes its
 * status here (call-error.ts), with the error's details.
 */
import type { DescMethod } from '@bufbuild/protobuf';
import type { HandlerContext, MethodImpl } from '@connectrpc/connect';
import type {
  ProtocolHandlerFactory,
  UniversalHandler,
  UniversalHandlerOptions,
} from '@connectrpc/connect/protocol';
import { WirekitError } from '../../../errors/index.js';
import type { CallContext, MethodSchema, ServiceHandlers, ServiceSchema } from '../../../schema/index.js';
import {
  codecOfContentType,
  type MessageCodecOptions,
  MessageSerializers,
  protocolOfContentType,
  type RpcCodecName,
  rpcCodecNames,
} from '../message-formats.js';
import { fullNameOf } from '../service-files.js';
import { type CallErrorOptions, callErrorOf } from './call-error.js';
import { connectRuntime } from './connect-runtime.js';
import { dropConnectionHeaders } from './connection-headers.js';
import { boxReply, type MethodSerializers, type WirekitHandlerOptions } from './handler-options.js';

/** What a handler is given beside its request: the call's signal, headers and how it arrived. */
export interface RpcCallContext extends CallContext {
  /**
   * Aborts when the caller cancels, its deadline passes, or the server shuts down; a handler
   * passes it on to whatever it waits for.
   */
  readonly signal: AbortSignal;
  /** The request's headers (gRPC metadata): `authorization`, `x-request-id`... */
  readonly requestHeader: Headers;
  /** Headers sent before the first reply message (a handler sets them before it returns or yields). */
  readonly responseHeader: Headers;
  /** Trailers sent after the last reply message, beside the status. */
  readonly responseTrailer: Headers;
  /** The protocol of the call: `grpc`, `grpc-web` or `connect` (Connect's names). */
  readonly protocol: string;
  /** The codec the call's messages travel in, as its content type names it. */
  readonly codec: RpcCodecName;
  /** Milliseconds left before the caller's deadline; undefined when it set none. */
  readonly timeoutMs: () => number | undefined;
}

/** How one service's messages are read and written. */
export interface RpcServiceOptions {
  /**
   * Options of every codec this service's messages are read and written with: limits
   * (`maxDepth`, `maxStringLength`...), `unknownKeys`, `validate`. Default: the codecs' own.
   */
  readonly codecOptions?: MessageCodecOptions;
}

/** A service and its handlers, ready for `createRpcServer` or the Fastify plugin. */
export interface RpcService<S extends ServiceSchema = ServiceSchema> {
  readonly schema: S;
  readonly handlers: ServiceHandlers<S, RpcCallContext>;
  readonly options: RpcServiceOptions;
}

/**
 * Binds `schema` to its handlers, one per method by the method's name, each typed from the schema:
 * a missing method or a wrong request, reply or stream shape does not compile. Checked again at
 * run time, for callers without types.
 */
export function rpcService<const S extends ServiceSchema>(
  schema: S,
  handlers: ServiceHandlers<S, RpcCallContext>,
  options: RpcServiceOptions = {},
): RpcService<S> {
  for (const name of Object.keys(schema.methods)) {
    if (typeof (handlers as Record<string, unknown>)[name] !== 'function') {
      throw new WirekitError(
        'WK_OPTIONS_INVALID',
        `rpcService(${fullNameOf(schema)}): the handler of ${name} is missing; every method needs one.`,
      );
    }
  }
  return { schema, handlers, options };
}

/** A protocol handler factory of wirekit's contract: gRPC, gRPC-Web or Connect. */
export type RpcProtocolFactory = (options: WirekitHandlerOptions) => ProtocolHandlerFactory;

export interface RpcRoutesOptions extends CallErrorOptions {
  /** The protocols each method is served over, by their factories. */
  readonly protocols: readonly RpcProtocolFactory[];
  /** The codecs a call may choose; a content type naming another is refused. */
  readonly codecs?: readonly RpcCodecName[];
  /** Connect's handler options: limits, compressions, timeouts, interceptors, shutdown signal. */
  readonly handlerOptions: Partial<UniversalHandlerOptions>;
}

/** The codec of a call: by its content type, or Connect GET's `encoding` query parameter. */
function codecOfCall(context: HandlerContext): RpcCodecName {
  const contentType = context.requestHeader.get('content-type');
  if (contentType !== null) {
    return codecOfContentType(protocolOfContentType(contentType), contentType)?.codec ?? 'proto';
  }
  const encoding = new URL(context.url, 'http://localhost').searchParams.get('encoding');
  return (rpcCodecNames as readonly (string | null)[]).includes(encoding)
    ? (encoding as RpcCodecName)
    : 'proto';
}

function callContextOf(context: HandlerContext): RpcCallContext {
  return {
    signal: context.signal,
    requestHeader: context.requestHeader,
    responseHeader: context.responseHeader,
    responseTrailer: context.responseTrailer,
    protocol: context.protocolName,
    codec: codecOfCall(context),
    timeoutMs: context.timeoutMs,
  };
}

/** A handler as the protocols call it: the request (or requests) in, a reply or replies out. */
export type AnyHandler = (input: unknown, context: RpcCallContext) => unknown;

/** One method of a served service, bound to its handler and its serializers. */
export interface BoundMethod {
  /** The method as Connect routes it (its path is `/${parent.typeName}/${name}`). */
  readonly descriptor: DescMethod;
  readonly handler: AnyHandler;
  readonly serializers: MethodSerializers;
}

/** One wirekit handler in Connect's implementation signature, for `method`'s kind. */
function implementationOf(method: DescMethod, handler: AnyHandler, errors: CallErrorOptions) {
  const fail = (error: unknown) => callErrorOf(error, errors);
  // What a handler set that HTTP/2 forbids is dropped before Connect sends it: headers with the
  // first reply, trailers at the end (connection-headers.ts says why).
  const dropForbidden = (context: HandlerContext) => {
    dropConnectionHeaders(context.responseHeader);
    dropConnectionHeaders(context.responseTrailer);
  };
  async function* boxStream(replies: AsyncIterable<unknown>, context: HandlerContext) {
    try {
      for await (const reply of replies) {
        dropConnectionHeaders(context.responseHeader);
        yield boxReply(method, reply);
      }
    } catch (error) {
      throw fail(error);
    } finally {
      dropForbidden(context);
    }
  }
  const once = async (input: unknown, context: HandlerContext) => {
    try {
      return boxReply(method, await handler(input, callContextOf(context)));
    } catch (error) {
      throw fail(error);
    } finally {
      dropForbidden(context);
    }
  };
  const streamed = (input: unknown, context: HandlerContext) => {
    try {
      return boxStream(handler(input, callContextOf(context)) as AsyncIterable<unknown>, context);
    } catch (error) {
      dropForbidden(context);
      throw fail(error);
    }
  };
  // Connect types requests and replies as protobuf-es messages; wirekit's values and boxes pass
  // through its invoker untouched (handler-options.ts says why the box is needed).
  const streamsReplies = method.methodKind === 'server_streaming' || method.methodKind === 'bidi_streaming';
  return (streamsReplies ? streamed : once) as unknown as MethodImpl<DescMethod>;
}

/**
 * Every method of `services`, bound to its handler and serializers: what each protocol serves,
 * made once per server so that every protocol shares a method's compiled codecs. Connect must be
 * loaded first (`await loadConnect()`).
 */
export function bindMethods(services: readonly RpcService[]): BoundMethod[] {
  const described = connectRuntime().describeServices(services.map((service) => service.schema));
  const bound: BoundMethod[] = [];
  services.forEach((service, index) => {
    for (const descriptor of described[index]?.methods ?? []) {
      const schema = service.schema.methods[descriptor.name] as MethodSchema;
      const codecOptions = service.options.codecOptions;
      bound.push({
        descriptor,
        handler: (service.handlers as Record<string, AnyHandler>)[descriptor.name] as AnyHandler,
        serializers: {
          input: new MessageSerializers(schema.input, codecOptions),
          output: new MessageSerializers(schema.output, codecOptions),
        },
      });
    }
  });
  return bound;
}

/**
 * The Connect handlers of every method in `methods` (from `bindMethods`), each served by every
 * protocol in `options.protocols`. Push them into a Connect router (`router.handlers.push(...)`) in
 * the `routes` of connect-node's adapter or connect-fastify's plugin.
 */
export function rpcRoutes(methods: readonly BoundMethod[], options: RpcRoutesOptions): UniversalHandler[] {
  if (options.protocols.length === 0) {
    throw new WirekitError('WK_OPTIONS_INVALID', 'rpcRoutes: at least one protocol is needed.');
  }
  const serializers = new Map<DescMethod, MethodSerializers>(
    methods.map((method) => [method.descriptor, method.serializers]),
  );
  const handlerOptions: WirekitHandlerOptions = {
    ...(options.handlerOptions as UniversalHandlerOptions),
    codecs: options.codecs ?? rpcCodecNames,
    serializersOf: (method) => {
      const found = serializers.get(method);
      if (found === undefined) {
        throw new WirekitError(
          'WK_OPTIONS_INVALID',
          `no serializers for ${method.parent.typeName}/${method.name}.`,
        );
      }
      return found;
    },
  };
  const { connect, protocol: primitives } = connectRuntime();
  const factories = options.protocols.map((protocol) => protocol(handlerOptions));
  return methods.map((method) =>
    primitives.createUniversalMethodHandler(
      connect.createMethodImplSpec(
        method.descriptor,
        implementationOf(method.descriptor, method.handler, options),
      ),
      factories,
    ),
  );
}
