/**
 * `wirekitRoute`: a Fastify route whose handler is typed by its schemas. It only fills in
 * `config.wirekit`; the plugin does the work, so an untyped route with the same config behaves
 * the same.
 *
 *   app.route(wirekitRoute({
 *     method: 'POST', url: '/users', body: NewUser, reply: User,
 *     handler: async (request) => store.add(request.body),   // request.body: Infer<typeof NewUser>
 *   }));
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { FormatName, UnknownKeys } from '../../codecs/core/codec.js';
import type { Infer, ObjectSchema, Schema } from '../../schema/index.js';
import type { WirekitRouteSpec } from './route.js';
import type { RowSource } from './stream-reply.js';

type Awaitable<T> = T | Promise<T>;

interface Common<B extends Schema | undefined> extends Omit<RouteOptions, 'handler' | 'config' | 'schema'> {
  readonly body?: B;
  readonly formats?: readonly FormatName[];
  /** A body key that `body` does not name: skipped or refused (WirekitRouteSpec.unknownKeys). */
  readonly unknownKeys?: UnknownKeys;
  readonly config?: Record<string, unknown>;
}

type TypedRequest<B extends Schema | undefined> = FastifyRequest<{
  Body: B extends Schema ? Infer<B> : undefined;
}>;

export interface ReplyRoute<B extends Schema | undefined, R extends Schema | undefined> extends Common<B> {
  readonly reply?: R;
  readonly stream?: undefined;
  handler(
    this: FastifyInstance,
    request: TypedRequest<B>,
    reply: FastifyReply,
  ): Awaitable<R extends Schema ? Infer<R> : unknown>;
}

export interface StreamRoute<B extends Schema | undefined, S extends ObjectSchema> extends Common<B> {
  readonly stream: S;
  /** Rows per Arrow record batch (default 8,192). */
  readonly batchSize?: number;
  handler(
    this: FastifyInstance,
    request: TypedRequest<B>,
    reply: FastifyReply,
  ): Awaitable<RowSource<Infer<S>>>;
}

export function wirekitRoute<B extends Schema | undefined = undefined, S extends ObjectSchema = ObjectSchema>(
  route: StreamRoute<B, S>,
): RouteOptions;
export function wirekitRoute<
  B extends Schema | undefined = undefined,
  R extends Schema | undefined = undefined,
>(route: ReplyRoute<B, R>): RouteOptions;
export function wirekitRoute(
  route: (
    | ReplyRoute<Schema | undefined, Schema | undefined>
    | StreamRoute<Schema | undefined, ObjectSchema>
  ) & {
    readonly batchSize?: number;
  },
): RouteOptions {
  const { body, reply, stream, formats, batchSize, unknownKeys, config, handler, ...rest } = route as Omit<
    ReplyRoute<Schema | undefined, Schema | undefined>,
    'stream'
  > & { stream?: ObjectSchema; batchSize?: number };
  const wirekit: WirekitRouteSpec = {
    ...(body && { body }),
    ...(reply && { reply }),
    ...(stream && { stream }),
    ...(formats && { formats }),
    ...(batchSize === undefined ? {} : { batchSize }),
    ...(unknownKeys && { unknownKeys }),
  };
  return { ...rest, config: { ...config, wirekit }, handler: handler as RouteOptions['handler'] };
}
