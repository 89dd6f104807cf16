/**
 * Services: named groups of remote methods, each taking a request message and giving a reply
 * message, either of which may be a stream. A service is not a value schema (nothing encodes "a
 * service"), so it is not a `Schema`; it names the object schemas its calls carry, and the types
 * below give a server's handlers and a client's methods their signatures from them.
 */
import type { HttpRule } from './http-rule.js';
import type { Infer, InferInput, ObjectSchema } from './types.js';

/**
 * Which side streams, in Connect's and protobuf-es's spelling: `unary` (one request, one reply),
 * `server_streaming` (`returns (stream Reply)`), `client_streaming` (`rpc M (stream Request)`),
 * `bidi_streaming` (both).
 */
export type MethodKind = 'unary' | 'server_streaming' | 'client_streaming' | 'bidi_streaming';

/**
 * google.protobuf.MethodOptions.IdempotencyLevel, without its default IDEMPOTENCY_UNKNOWN (which a
 * method declares by saying nothing). `NO_SIDE_EFFECTS` may be called with an HTTP GET (Connect)
 * and retried; `IDEMPOTENT` may be retried.
 */
export type Idempotency = 'NO_SIDE_EFFECTS' | 'IDEMPOTENT';

/** One method: its request and reply messages, which side streams, and what a caller may assume. */
export interface MethodSchema<
  I extends ObjectSchema = ObjectSchema,
  O extends ObjectSchema = ObjectSchema,
  K extends MethodKind = MethodKind,
> {
  readonly kind: 'method';
  readonly methodKind: K;
  readonly input: I;
  readonly output: O;
  /** Absent: IDEMPOTENCY_UNKNOWN, which neither a GET nor a retry may assume. */
  readonly idempotency?: Idempotency;
  readonly deprecated?: true;
  readonly doc?: string;
  /** A unary method's REST mapping (`google.api.http`), checked when the method was built. */
  readonly http?: HttpRule;
}

/**
 * A service: its name and package (`orders.v1.OrderService` is `OrderService` in `orders.v1`), and
 * its methods by name, in the order they were declared. A method's name is its name on the wire
 * (gRPC's path `/orders.v1.OrderService/GetOrder`) and in the `.proto`, exactly as written.
 */
export interface ServiceSchema<
  M extends Readonly<Record<string, MethodSchema>> = Record<string, MethodSchema>,
> {
  readonly kind: 'service';
  readonly name: string;
  /** The package, dotted (`orders.v1`); absent for a service of no package. */
  readonly namespace?: string;
  readonly methods: M;
  readonly deprecated?: true;
  readonly doc?: string;
}

/**
 * What every handler is given beside its request: the call's AbortSignal, which aborts when the
 * client cancels or the deadline passes. A server adds its own (headers, peer...) by extending it.
 */
export interface CallContext {
  readonly signal: AbortSignal;
}

/**
 * A server's function for one method. It receives requests as decoded (`Infer`) and returns replies
 * as an encoder's caller may give them (`InferInput`: a field with a default may be left out, the
 * server fills it in):
 * - unary: `(request, context) => Promise<Reply>`;
 * - server streaming: `(request, context) => AsyncIterable<Reply>` (an `async function*`);
 * - client streaming: `(requests: AsyncIterable<Request>, context) => Promise<Reply>`;
 * - bidi streaming: `(requests: AsyncIterable<Request>, context) => AsyncIterable<Reply>`.
 */
export type MethodHandler<M extends MethodSchema, C = CallContext> =
  M extends MethodSchema<infer I, infer O, infer K> ? HandlerOf<K, Infer<I>, InferInput<O>, C> : never;

type HandlerOf<K extends MethodKind, Request, Reply, C> = {
  unary: (request: Request, context: C) => Promise<Reply>;
  server_streaming: (request: Request, context: C) => AsyncIterable<Reply>;
  client_streaming: (requests: AsyncIterable<Request>, context: C) => Promise<Reply>;
  bidi_streaming: (requests: AsyncIterable<Request>, context: C) => AsyncIterable<Reply>;
}[K];

/** The handlers of a service, one per method by the method's name. */
export type ServiceHandlers<S extends ServiceSchema, C = CallContext> = {
  readonly [K in keyof S['methods']]: MethodHandler<S['methods'][K], C>;
};

/** What a client's caller may say of one call: a signal to cancel it, and a deadline in milliseconds. */
export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/**
 * A client's function for one method. It sends requests as a caller may give them (`InferInput`,
 * defaults filled in by the client) and gives replies as decoded (`Infer`); a stream is an async
 * iterable either way:
 * - unary: `(request, options?) => Promise<Reply>`;
 * - server streaming: `(request, options?) => AsyncIterable<Reply>`;
 * - client streaming: `(requests: AsyncIterable<Request>, options?) => Promise<Reply>`;
 * - bidi streaming: `(requests: AsyncIterable<Request>, options?) => AsyncIterable<Reply>`.
 */
export type ClientMethod<M extends MethodSchema, O = CallOptions> =
  M extends MethodSchema<infer I, infer R, infer K> ? ClientMethodOf<K, InferInput<I>, Infer<R>, O> : never;

type ClientMethodOf<K extends MethodKind, Request, Reply, O> = {
  unary: (request: Request, options?: O) => Promise<Reply>;
  server_streaming: (request: Request, options?: O) => AsyncIterable<Reply>;
  client_streaming: (requests: AsyncIterable<Request>, options?: O) => Promise<Reply>;
  bidi_streaming: (requests: AsyncIterable<Request>, options?: O) => AsyncIterable<Reply>;
}[K];

/** A client of a service: one method per method of the service, by its name. */
export type ServiceClient<S extends ServiceSchema, O = CallOptions> = {
  readonly [K in keyof S['methods']]: ClientMethod<S['methods'][K], O>;
};

/** The request type of a method, as its handler receives it. */
export type InferRequest<M extends MethodSchema> = Infer<M['input']>;

/** The reply type of a method, as its client receives it. */
export type InferReply<M extends MethodSchema> = Infer<M['output']>;
