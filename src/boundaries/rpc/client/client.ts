/**
 * The typed RPC client: one function per method of a `t.service`, over any transport (gRPC,
 * gRPC-Web or Connect, on Node or a page). Requests are given as a caller writes them (`InferInput`:
 * fields with defaults may be left out, they are filled in here); replies come back as wirekit's
 * codecs decode them (bigint for 64-bit integers, Date, Uint8Array, decimal strings). Streams are
 * async iterables both ways; breaking out of a reply stream cancels the call.
 */
import { WirekitError } from '../../../errors/index.js';
import {
  type CallOptions,
  type MethodSchema,
  type ObjectSchema,
  type ServiceClient,
  type ServiceSchema,
  withDefaults,
} from '../../../schema/index.js';
import { importPeer } from '../../../util/optional-peer.js';
import { type MessageCodecOptions, MessageSerializers } from '../message-formats.js';
import {
  type Attempt,
  isRetryable,
  type RetryOptions,
  type RetryPolicy,
  retryPolicyOf,
  withRetries,
} from './retry.js';
import { rpcErrorOf } from './rpc-error.js';
import type {
  HeaderValues,
  MethodDescriptor,
  MethodMessages,
  RpcTransport,
  StreamOutcome,
  TransportCall,
} from './transport.js';

/** What a caller may say of one call: its deadline, a signal to cancel it, and headers. */
export interface RpcCallOptions extends CallOptions {
  /**
   * Milliseconds the call may take, retries included: sent to the server (`grpc-timeout`,
   * `connect-timeout-ms`) and enforced here, the call failing with DEADLINE_EXCEEDED. Zero or less
   * fails at once, as a deadline already past.
   */
  readonly timeoutMs?: number;
  readonly headers?: HeaderValues;
  /** Called with the response's headers, once they arrive (before the first reply of a stream). */
  readonly onHeader?: (header: Headers) => void;
  /**
   * Called with the response's trailers once the call has ended well (after a stream's last reply).
   * A failed call carries its headers and trailers in the RpcError's `metadata` instead.
   */
  readonly onTrailer?: (trailer: Headers) => void;
}

export interface RpcClientOptions {
  /** Retries of idempotent methods on UNAVAILABLE (see retry.ts); false: never retry. */
  readonly retry?: RetryOptions | false;
  /** A deadline for calls that give none, in ms (default: none). */
  readonly defaultTimeoutMs?: number;
  /** The codecs' options for requests and replies (limits, unknown keys...). */
  readonly codecOptions?: MessageCodecOptions;
}

interface BoundMethod {
  readonly schema: MethodSchema;
  /** Its descriptor, made on the first call (protobuf-es is an optional peer, loaded then). */
  readonly desc: () => Promise<MethodDescriptor>;
  readonly messages: MethodMessages;
  readonly retryable: boolean;
}

/**
 * A client of `service` over `transport`. The method descriptors come from the same
 * FileDescriptorProtos the server routes by (describeServices), so paths and kinds agree.
 */
export function createRpcClient<S extends ServiceSchema>(
  service: S,
  transport: RpcTransport,
  options: RpcClientOptions = {},
): ServiceClient<S, RpcCallOptions> {
  return clientWithReplies(
    service,
    transport,
    options,
    (schema) => new MessageSerializers(schema, options.codecOptions),
  ) as ServiceClient<S, RpcCallOptions>;
}

/**
 * createRpcClient's methods, with each reply type's serializers made by `replies`: the gateway's
 * call (gateway/client-call.ts) leaves Protocol Buffers replies encoded, to answer them as ProtoJSON
 * without building the values. Not exported from the entry: its replies are not the typed ones.
 */
export function clientWithReplies(
  service: ServiceSchema,
  transport: RpcTransport,
  options: RpcClientOptions,
  replies: (schema: ObjectSchema) => MessageSerializers<unknown>,
): Readonly<Record<string, unknown>> {
  const policy = retryPolicyOf(options.retry);
  const descriptors = lazyDescriptors(service);
  const client: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(service.methods)) {
    const bound: BoundMethod = {
      schema,
      desc: async () => {
        const desc = (await descriptors()).get(name);
        if (desc === undefined)
          throw new WirekitError('WK_SCHEMA_INVALID', `method ${name} has no descriptor.`);
        return desc;
      },
      messages: {
        input: new MessageSerializers(schema.input, options.codecOptions),
        output: replies(schema.output),
      },
      retryable: isRetryable(schema),
    };
    client[name] = methodFunction(bound, transport, policy, options.defaultTimeoutMs);
  }
  return Object.freeze(client);
}

/** The service's method descriptors by name, made once, on the first call of any method. */
function lazyDescriptors(service: ServiceSchema): () => Promise<ReadonlyMap<string, MethodDescriptor>> {
  let made: Promise<ReadonlyMap<string, MethodDescriptor>> | undefined;
  return () => {
    made ??= importPeer(
      () => import('../service-descriptor.js'),
      'createRpcClient',
      '@bufbuild/protobuf',
    ).then(({ describeServices }) => {
      const [described] = describeServices([service]);
      return new Map((described?.methods ?? []).map((method) => [method.name, method]));
    });
    made.catch(() => {
      made = undefined;
    });
    return made;
  };
}

function methodFunction(
  method: BoundMethod,
  transport: RpcTransport,
  policy: RetryPolicy,
  defaultTimeoutMs: number | undefined,
) {
  const fill = (request: unknown) => withDefaults(method.schema.input, request as never);
  const deadlineOf = (options: RpcCallOptions) => {
    const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
    return timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
  };
  const callOf = async (
    options: RpcCallOptions,
    signal: AbortSignal | undefined,
    attempt: Attempt,
  ): Promise<TransportCall> => ({
    method: await method.desc(),
    messages: method.messages,
    signal,
    timeoutMs: attempt.timeoutMs === undefined ? undefined : Math.max(1, Math.ceil(attempt.timeoutMs)),
    headers: new Headers(options.headers as ConstructorParameters<typeof Headers>[0]),
  });
  switch (method.schema.methodKind) {
    case 'unary':
      return async (request: unknown, options: RpcCallOptions = {}) => {
        const value = fill(request);
        try {
          return await withRetries(
            policy,
            method.retryable,
            deadlineOf(options),
            options.signal,
            async (attempt) => {
              const outcome = await transport.unary(await callOf(options, options.signal, attempt), value);
              options.onHeader?.(outcome.header);
              options.onTrailer?.(outcome.trailer);
              return outcome.message;
            },
          );
        } catch (error) {
          throw rpcErrorOf(error);
        }
      };
    case 'server_streaming':
      return (request: unknown, options: RpcCallOptions = {}) =>
        replyStream(options, async (signal) => {
          const value = fill(request);
          // Retried only until the first reply: after that, replies would be seen twice.
          return withRetries(policy, method.retryable, deadlineOf(options), signal, async (attempt) => {
            const outcome = await transport.stream(await callOf(options, signal, attempt), single(value));
            const replies = outcome.messages[Symbol.asyncIterator]();
            return { outcome, replies, first: await replies.next() };
          });
        });
    case 'client_streaming':
      return async (requests: AsyncIterable<unknown>, options: RpcCallOptions = {}) => {
        try {
          const deadline = deadlineOf(options);
          const outcome = await withRetries(policy, false, deadline, options.signal, async (attempt) =>
            transport.stream(await callOf(options, options.signal, attempt), filled(requests, fill)),
          );
          options.onHeader?.(outcome.header);
          let reply: unknown;
          let count = 0;
          for await (const message of outcome.messages) {
            reply = message;
            count += 1;
          }
          options.onTrailer?.(outcome.trailer);
          if (count !== 1) {
            throw new WirekitError('WK_RPC_STATUS', `a client stream got ${count} replies, not one.`);
          }
          return reply;
        } catch (error) {
          throw rpcErrorOf(error);
        }
      };
    case 'bidi_streaming':
      return (requests: AsyncIterable<unknown>, options: RpcCallOptions = {}) =>
        replyStream(options, async (signal) =>
          withRetries(policy, false, deadlineOf(options), signal, async (attempt) => {
            const outcome = await transport.stream(
              await callOf(options, signal, attempt),
              filled(requests, fill),
            );
            const replies = outcome.messages[Symbol.asyncIterator]();
            return { outcome, replies, first: await replies.next() };
          }),
        );
  }
}

/**
 * A call's replies as the caller iterates them. The call starts on the first `next()`; leaving the
 * loop early (break, return, a throw) aborts it, which Connect's reply iterator does not do by
 * itself, so the request and the connection's stream are not left open.
 */
async function* replyStream(
  options: RpcCallOptions,
  start: (
    signal: AbortSignal,
  ) => Promise<{ outcome: StreamOutcome; replies: AsyncIterator<unknown>; first: IteratorResult<unknown> }>,
): AsyncIterable<unknown> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted === true) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const { outcome, replies, first } = await start(controller.signal);
    options.onHeader?.(outcome.header);
    let next = first;
    while (next.done !== true) {
      yield next.value;
      next = await replies.next();
    }
    options.onTrailer?.(outcome.trailer);
  } catch (error) {
    throw rpcErrorOf(error);
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    controller.abort();
  }
}

async function* single(value: unknown): AsyncIterable<unknown> {
  yield value;
}

async function* filled(requests: AsyncIterable<unknown>, fill: (request: unknown) => unknown) {
  for await (const request of requests) yield fill(request);
}
