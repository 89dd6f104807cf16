/**
 * An endpoint: one route's method, URL and schemas, declared once and shared by the server and the
 * client, so that both are typed from the same definition.
 *
 *   export const getUser = endpoint({
 *     method: 'GET', url: '/users/:id',
 *     params: t.object('UserRef', { id: t.uint32() }), reply: User,
 *   });
 *   app.route(wirekitRoute({ ...getUser, handler: async (request) => users.get(request.params.id) }));
 *   const user = await api.call(getUser, { params: { id: 7 } });   // User
 *
 * Plain data, no Fastify: the client entry (`wirekit-ts/http/client`) exports it too.
 */
import { WirekitError } from '../../errors/index.js';
import type { Infer, InferInput, ObjectSchema, Schema } from '../../schema/index.js';
import { toText } from './text-parts.js';

/** What an endpoint declares. */
export interface EndpointSpec {
  /** One method: `GET`, `POST`, ... */
  readonly method: string;
  /** Fastify's path syntax: `/users/:id`. */
  readonly url: string;
  /** The path parameters' schema: one field per `:name` of the URL. */
  readonly params?: ObjectSchema;
  /** The query string's schema. */
  readonly query?: ObjectSchema;
  /** The schema of the headers the route reads, by their lower-case names (`'x-tenant'`). */
  readonly headers?: ObjectSchema;
  readonly body?: Schema;
  readonly reply?: Schema;
  /** The schema of one row of a streamed reply (excludes `reply`). */
  readonly stream?: ObjectSchema;
}

/** Declares an endpoint; it returns its argument, with every schema's type kept. */
export function endpoint<const E extends EndpointSpec>(spec: E): E {
  return spec;
}

type Present<E, K extends keyof EndpointSpec> = E extends { readonly [P in K]: infer S }
  ? S extends Schema
    ? S
    : never
  : never;

/**
 * `{ key: value }` when the endpoint declares `key`; optional when every field of it is. Input
 * types: a field with a default may be left out, since the server fills params, query and headers
 * in, and the client fills the body in before encoding it.
 */
type Part<E, K extends keyof EndpointSpec> = [Present<E, K>] extends [never]
  ? { readonly [P in K]?: undefined }
  : Record<string, never> extends InferInput<Present<E, K>>
    ? { readonly [P in K]?: InferInput<Present<E, K>> }
    : { readonly [P in K]: InferInput<Present<E, K>> };

/** What a call of an endpoint sends: its params, query, headers and body, as the endpoint types them. */
export type EndpointInput<E extends EndpointSpec> = Part<E, 'params'> &
  Part<E, 'query'> &
  Part<E, 'headers'> &
  ([Present<E, 'body'>] extends [never]
    ? { readonly body?: undefined }
    : { readonly body: InferInput<Present<E, 'body'>> }) & {
    readonly signal?: AbortSignal;
  };

/** What a call of an endpoint returns: its reply, or every row of its stream. */
export type EndpointOutput<E extends EndpointSpec> = [Present<E, 'stream'>] extends [never]
  ? [Present<E, 'reply'>] extends [never]
    ? unknown
    : Infer<Present<E, 'reply'>>
  : Infer<Present<E, 'stream'>>[];

/** Whether a call may leave its input out: nothing in it is required. */
export type InputArgs<E extends EndpointSpec> =
  Record<string, never> extends Omit<EndpointInput<E>, 'signal'>
    ? [input?: EndpointInput<E>]
    : [input: EndpointInput<E>];

/**
 * The names of a URL's path parameters, in Fastify's syntax: `:name` (up to a character that
 * cannot be in a name), `*` for the wildcard; `::` is a literal colon.
 */
export function pathParamNames(url: string): string[] {
  const names: string[] = [];
  for (const match of url.replaceAll('::', '').matchAll(/:([A-Za-z0-9_]+)|\*/g)) names.push(match[1] ?? '*');
  return names;
}

/**
 * The path with each parameter's value in place, encoded as a path segment (the wildcard keeps its
 * slashes). A parameter without a value is refused: the request would go to another route.
 */
export function fillPath(url: string, params: Readonly<Record<string, unknown>> | undefined): string {
  const segment = (name: string): string => {
    const value = params?.[name];
    if (value === undefined || value === null) {
      throw new WirekitError(
        'WK_OPTIONS_INVALID',
        `${url} needs a value for its path parameter ${name} (params.${name}).`,
      );
    }
    return toText(value);
  };
  return url
    .split('::')
    .map((piece) =>
      piece
        .replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, (_, name: string) => encodeURIComponent(segment(name)))
        .replace(/\*/g, () => encodeURIComponent(segment('*')).replaceAll('%2F', '/')),
    )
    .join(':');
}
