/**
 * `wirekitRoute`: a Fastify route whose handler is typed by its schemas. It only fills in
 * `config.wirekit`; the plugin does the work, so an untyped route with the same config behaves
 * the same.
 *
 *   app.route(wirekitRoute({
 *     method: 'POST', url: '/users', body: NewUser, reply: User,
 *     handler: async (request) => store.add(request.body),   // request.body: Infer<typeof NewUser>
 *   }));
 *
 * `params`, `query` and `headers` type `request.params`, `request.query` and `request.headers` the
 * same way, from object schemas read out of their text (text-parts.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { FormatName, UnknownKeys } from '../../codecs/core/codec.js';
import type { Infer, ObjectSchema, Schema } from '../../schema/index.js';
import type { WirekitRouteSpec } from './route.js';
import type { RowSource } from './stream-reply.js';

type Awaitable<T> = T | Promise<T>;

type Part = ObjectSchema | undefined;

/** The parts of a request a route types: path parameters, query string, headers. */
export interface RouteParts<P extends Part, Q extends Part, H extends Part> {
  /** Path parameters, read from their text (docs/http.md, "Params, query and headers"). */
  readonly params?: P;
  readonly query?: Q;
  /** Headers by lower-case name; headers it does not name pass by untouched. */
  readonly headers?: H;
}

interface Common<B extends Schema | undefined, P extends Part, Q extends Part, H extends Part>
  extends Omit<RouteOptions, 'handler' | 'config' | 'schema'>,
    RouteParts<P, Q, H> {
  readonly body?: B;
  readonly formats?: readonly FormatName[];
  /**
   * A body or query key the route's schema does not name: skipped or refused
   * (WirekitRouteSpec.unknownKeys).
   */
  readonly unknownKeys?: UnknownKeys;
  readonly config?: Record<string, unknown>;
}

type Typed<S extends Part> = S extends ObjectSchema ? Infer<S> : unknown;

/** The request a handler sees: each part the route declares typed by its schema. */
export type TypedRequest<
  B extends Schema | undefined,
  P extends Part = undefined,
  Q extends Part = undefined,
  H extends Part = undefined,
> = FastifyRequest<{
  Body: B extends Schema ? Infer<B> : undefined;
  Params: Typed<P>;
  Querystring: Typed<Q>;
  Headers: Typed<H>;
}>;

export interface ReplyRoute<
  B extends Schema | undefined,
  R extends Schema | undefined,
  P extends Part = undefined,
  Q extends Part = undefined,
  H extends Part = undefined,
> extends Common<B, P, Q, H> {
  readonly reply?: R;
  readonly stream?: undefined;
  handler(
    this: FastifyInstance,
    request: TypedRequest<B, P, Q, H>,
    reply: FastifyReply,
  ): Awaitable<R extends Schema ? Infer<R> : unknown>;
}

export interface StreamRoute<
  B extends Schema | undefined,
  S extends ObjectSchema,
  P extends Part = undefined,
  Q extends Part = undefined,
  H extends Part = undefined,
> extends Common<B, P, Q, H> {
  readonly stream: S;
  /** Rows per Arrow record batch (default 8,192). */
  readonly batchSize?: number;
  handler(
    this: FastifyInstance,
    request: TypedRequest<B, P, Q, H>,
    reply: FastifyReply,
  ): Awaitable<RowSource<Infer<S>>>;
}

export function wirekitRoute<
  B extends Schema | undefined = undefined,
  S extends ObjectSchema = ObjectSchema,
  P extends Part = undefined,
  Q extends Part = undefined,
  H extends Part = undefined,
>(route: StreamRoute<B, S, P, Q, H>): RouteOptions;
export function wirekitRoute<
  B extends Schema | undefined = undefined,
  R extends Schema | undefined = undefined,
  P extends Part = undefined,
  Q extends Part = undefined,
  H extends Part = undefined,
>(route: ReplyRoute<B, R, P, Q, H>): RouteOptions;
export function wirekitRoute(
  route: (
    | ReplyRoute<Schema | undefined, Schema | undefined, Part, Part, Part>
    | StreamRoute<Schema | undefined, ObjectSchema, Part, Part, Part>
  ) & {
    readonly batchSize?: number;
  },
): RouteOptions {
  const {
    body,
    reply,
    stream,
    formats,
    batchSize,
    unknownKeys,
    params,
    query,
    headers,
    config,
    handler,
    ...rest
  } = route as Omit<ReplyRoute<Schema | undefined, Schema | undefined, Part, Part, Part>, 'stream'> & {
    stream?: ObjectSchema;
    batchSize?: number;
  };
  const wirekit: WirekitRouteSpec = {
    ...(body && { body }),
    ...(reply && { reply }),
    ...(stream && { stream }),
    ...(formats && { formats }),
    ...(batchSize === undefined ? {} : { batchSize }),
    ...(unknownKeys && { unknownKeys }),
    ...(params && { params }),
    ...(query && { query }),
    ...(headers && { headers }),
  };
  return { ...rest, config: { ...config, wirekit }, handler: handler as RouteOptions['handler'] };
}
