/**
 * Any wirekit service served by `@grpc/grpc-js`, the common Node gRPC server, as a test peer: the
 * RPC tests use it to put wirekit's messages and handlers (reflection, health, a test's own
 * service) in front of real gRPC clients (grpcurl, Python's grpcio, wirekit's own client) without
 * wirekit's server.
 *
 *   const server = await serveOnGrpcJs([{ service: OrderService, handlers: { GetOrder: async (r) => … } }]);
 *   // call 127.0.0.1:${server.port}, then
 *   await server.close();
 *
 * grpc-js takes custom serializers natively: a service definition is plain data, one entry per
 * method with its path, its streaming flags and four functions from values to bytes and back,
 * which here are wirekit's codecs of the method's messages (Protocol Buffers by default). Handlers
 * have wirekit's signatures (ServiceHandlers: async functions, streams as async iterables) and are
 * adapted to grpc-js's callbacks and Node streams:
 * - a reply stream is written with back-pressure (the next reply is asked for once grpc-js's
 *   buffer drains), and ends with OK when the handler's iterable ends;
 * - a request stream is the call itself (a Node Readable is an async iterable);
 * - the context's `signal` aborts when the client cancels or the deadline passes (and once the
 *   call is over: grpc-js reports every closed stream as cancelled);
 * - a thrown error becomes its status by `rpcStatusOf` (an RpcError's own, a WirekitError's from
 *   the table, INTERNAL otherwise), with the details in `grpc-status-details-bin` as a
 *   google.rpc.Status, as gRPC's richer error model carries them.
 * grpc-js always answers `application/grpc+proto` and does not show handlers the request's content
 * type, so `codec` chooses the one format both directions use.
 */
import { once } from 'node:events';
import * as grpc from '@grpc/grpc-js';
import {
  BadRequest,
  ErrorInfo,
  fullNameOf,
  type MessageCodecOptions,
  messageSerializer,
  type RpcCodecName,
  type RpcStatus,
  rpcStatusOf,
} from '../../../src/boundaries/rpc/index.js';
import { createProtobufCodec } from '../../../src/codecs/protobuf/index.js';
import { type CallContext, type MethodSchema, type ServiceSchema, t } from '../../../src/index.js';

/** A service and its handlers, loosely typed so that a list may mix services. */
export interface ServedService {
  readonly service: ServiceSchema;
  readonly handlers: object;
}

/** What each handler is given: the call's signal, and the request's metadata as grpc-js read it. */
export interface GrpcJsCallContext extends CallContext {
  readonly metadata: grpc.Metadata;
}

export interface GrpcJsServerOptions {
  /** The message format of requests and replies (default `proto`). */
  readonly codec?: RpcCodecName;
  /** Options of wirekit's codecs (limits, unknown keys...). */
  readonly codecOptions?: MessageCodecOptions;
  /** grpc-js's channel options (`grpc.max_receive_message_length`...). */
  readonly channelOptions?: grpc.ServerOptions;
  /** Send the message of an unexpected error (default false: INTERNAL "internal error"). */
  readonly exposeUnexpectedErrors?: boolean;
}

export interface GrpcJsServer {
  /** The port on 127.0.0.1 the server listens on. */
  readonly port: number;
  /** `127.0.0.1:PORT`, as gRPC clients and grpcurl take it. */
  readonly address: string;
  readonly server: grpc.Server;
  /** Stops at once, cancelling calls still open (a Watch stream, say). */
  close(): Promise<void>;
}

/** Serves `services` on a port of 127.0.0.1 the OS picks. */
export async function serveOnGrpcJs(
  services: readonly ServedService[],
  options: GrpcJsServerOptions = {},
): Promise<GrpcJsServer> {
  const server = new grpc.Server(options.channelOptions);
  for (const { service, handlers } of services) {
    const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
    const implementation: grpc.UntypedServiceImplementation = {};
    for (const [name, method] of Object.entries(service.methods)) {
      const handler = (handlers as Record<string, unknown>)[name];
      if (typeof handler !== 'function') throw new Error(`${fullNameOf(service)}: no handler for ${name}`);
      definition[name] = methodDefinition(`/${fullNameOf(service)}/${name}`, method, options);
      implementation[name] = adapt(method, handler as Handler, options);
    }
    server.addService(definition, implementation);
  }
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error === null ? resolve(bound) : reject(error),
    ),
  );
  return {
    port,
    address: `127.0.0.1:${port}`,
    server,
    close: async () => server.forceShutdown(),
  };
}

/** A Uint8Array as the Buffer grpc-js needs (it calls Buffer methods on it), without a copy. */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function methodDefinition(
  path: string,
  method: MethodSchema,
  options: GrpcJsServerOptions,
): grpc.MethodDefinition<unknown, unknown> {
  const codec = options.codec ?? 'proto';
  const input = messageSerializer<unknown>(method.input, codec, options.codecOptions);
  const output = messageSerializer<unknown>(method.output, codec, options.codecOptions);
  const kind = method.methodKind;
  return {
    path,
    requestStream: kind === 'client_streaming' || kind === 'bidi_streaming',
    responseStream: kind === 'server_streaming' || kind === 'bidi_streaming',
    requestSerialize: (value) => asBuffer(input.serialize(value)),
    requestDeserialize: (bytes) => input.parse(bytes),
    responseSerialize: (value) => asBuffer(output.serialize(value)),
    responseDeserialize: (bytes) => output.parse(bytes),
  };
}

type Handler = (request: unknown, context: GrpcJsCallContext) => unknown;
/** What every kind of grpc-js call has: its metadata, and the 'cancelled' event. */
interface AnyCall {
  readonly cancelled: boolean;
  readonly metadata: grpc.Metadata;
  once(event: 'cancelled', listener: () => void): unknown;
}

/** The context of one call: its signal aborts when grpc-js says the call was cancelled. */
function contextOf(call: AnyCall): GrpcJsCallContext {
  const controller = new AbortController();
  if (call.cancelled) controller.abort();
  else call.once('cancelled', () => controller.abort());
  return { signal: controller.signal, metadata: call.metadata };
}

function adapt(method: MethodSchema, handler: Handler, options: GrpcJsServerOptions): grpc.UntypedHandleCall {
  const fail = (error: unknown): grpc.ServerErrorResponse => serviceErrorOf(rpcStatusOf(error, options));
  switch (method.methodKind) {
    case 'unary':
    case 'client_streaming':
      // The request is the decoded message (unary) or the call itself, a Readable of them.
      return (
        call: grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerReadableStream<unknown, unknown>,
        callback: grpc.sendUnaryData<unknown>,
      ) => {
        const request =
          method.methodKind === 'unary'
            ? (call as grpc.ServerUnaryCall<unknown, unknown>).request
            : requestsOf(call as grpc.ServerReadableStream<unknown, unknown>);
        Promise.resolve()
          .then(() => handler(request, contextOf(call)))
          .then(
            (reply) => callback(null, reply),
            (error: unknown) => callback(fail(error)),
          );
      };
    case 'server_streaming':
    case 'bidi_streaming':
      return (
        call: grpc.ServerWritableStream<unknown, unknown> | grpc.ServerDuplexStream<unknown, unknown>,
      ) => {
        const context = contextOf(call);
        const request =
          method.methodKind === 'server_streaming'
            ? (call as grpc.ServerWritableStream<unknown, unknown>).request
            : requestsOf(call as grpc.ServerDuplexStream<unknown, unknown>);
        writeAll(call, () => handler(request, context) as AsyncIterable<unknown>, context.signal).then(
          () => call.end(),
          (error: unknown) => {
            if (!context.signal.aborted) call.emit('error', fail(error));
          },
        );
      };
  }
}

/**
 * The requests of a client or bidi stream. Iterating a Node stream destroys it when the loop ends,
 * which on a bidi call would destroy the reply side too, before the handler's last replies and the
 * status are written: so the iterator leaves the call alone.
 */
function requestsOf(
  call: grpc.ServerReadableStream<unknown, unknown> | grpc.ServerDuplexStream<unknown, unknown>,
) {
  return { [Symbol.asyncIterator]: () => call.iterator({ destroyOnReturn: false }) };
}

/** Writes every reply, waiting for 'drain' when grpc-js's buffer is full; stops on cancellation. */
async function writeAll(
  call: grpc.ServerWritableStream<unknown, unknown> | grpc.ServerDuplexStream<unknown, unknown>,
  replies: () => AsyncIterable<unknown>,
  signal: AbortSignal,
): Promise<void> {
  for await (const reply of replies()) {
    if (signal.aborted) return;
    if (!call.write(reply)) {
      try {
        await once(call, 'drain', { signal });
      } catch {
        return; // cancelled while waiting: the call is over
      }
    }
  }
}

/** google.rpc.Status and google.protobuf.Any, as grpc-status-details-bin carries them. */
const AnyMessage = t.object('Any', { type_url: t.string(), value: t.bytes() });
const StatusMessage = t.object('Status', {
  code: t.int32({ proto: 'int32' }),
  message: t.string(),
  details: t.array(AnyMessage),
});
const statusCodec = createProtobufCodec({ schema: StatusMessage });
const detailCodecs = {
  'google.rpc.ErrorInfo': createProtobufCodec({ schema: ErrorInfo }),
  'google.rpc.BadRequest': createProtobufCodec({ schema: BadRequest }),
};

function serviceErrorOf(status: RpcStatus): grpc.ServerErrorResponse {
  const metadata = new grpc.Metadata();
  if (status.details.length > 0) {
    const details = status.details.map((detail) => ({
      type_url: `type.googleapis.com/${detail.type}`,
      value: (detailCodecs[detail.type] as { encode(value: unknown): Uint8Array }).encode(detail.value),
    }));
    const bytes = statusCodec.encode({ code: status.code, message: status.message, details });
    metadata.set('grpc-status-details-bin', Buffer.from(bytes));
  }
  return Object.assign(new Error(status.message), { code: status.code, details: status.message, metadata });
}
