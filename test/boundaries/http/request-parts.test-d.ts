/**
 * The types a route's params, query and headers give its handler, and the ones the client asks for
 * when it calls the same endpoint.
 */
import { describe, expectTypeOf, test } from 'vitest';
import {
  createClient,
  type EndpointInput,
  endpoint,
  type WirekitClient,
  wirekitRoute,
} from '../../../src/boundaries/http/index.js';
import { jsonFormat } from '../../../src/codecs/json/index.js';
import { t } from '../../../src/schema/index.js';

const User = t.object('User', { id: t.uint32(), name: t.string() });
const NewUser = t.object('NewUser', { name: t.string() });
const Reading = t.object('Reading', { at: t.timestamp(), value: t.float64() });

const getUser = endpoint({
  method: 'GET',
  url: '/users/:id',
  params: t.object('UserRef', { id: t.uint32() }),
  query: t.object('UserQuery', { full: t.optional(t.bool()), fields: t.optional(t.array(t.string())) }),
  headers: t.object('TenantHeaders', { 'x-tenant': t.string() }),
  reply: User,
});
const addUser = endpoint({ method: 'POST', url: '/users', body: NewUser, reply: User });
const listUsers = endpoint({ method: 'GET', url: '/users', reply: t.array(User) });
const readings = endpoint({
  method: 'GET',
  url: '/readings',
  query: t.object('Window', { limit: t.uint32() }),
  stream: Reading,
});

describe('the handler', () => {
  test('sees params, query and headers typed by their schemas', () => {
    wirekitRoute({
      ...getUser,
      handler: async (request) => {
        expectTypeOf(request.params).toEqualTypeOf<{ id: number }>();
        expectTypeOf(request.query).toEqualTypeOf<{ full?: boolean; fields?: string[] }>();
        expectTypeOf(request.headers['x-tenant']).toEqualTypeOf<string>();
        // Headers the route does not name keep Node's type.
        expectTypeOf(request.headers['user-agent']).toEqualTypeOf<string | undefined>();
        return { id: request.params.id, name: request.headers['x-tenant'] };
      },
    });
  });

  test('a stream route reads them too', () => {
    wirekitRoute({
      ...readings,
      handler: async (request) => {
        expectTypeOf(request.query.limit).toEqualTypeOf<number>();
        return [];
      },
    });
  });

  test('without them, params and query stay unknown, as Fastify types them', () => {
    wirekitRoute({
      ...listUsers,
      handler: async (request) => {
        expectTypeOf(request.params).toEqualTypeOf<unknown>();
        expectTypeOf(request.query).toEqualTypeOf<unknown>();
        return [];
      },
    });
  });

  test('a handler that misreads a part does not compile', () => {
    wirekitRoute({
      ...getUser,
      handler: async (request) => {
        // @ts-expect-error id is a number
        request.params.id satisfies string;
        // @ts-expect-error the route declares no such query field
        void request.query.limit;
        return { id: 1, name: 'a' };
      },
    });
  });
});

describe('the client', () => {
  const api: WirekitClient = createClient({ baseUrl: 'http://localhost', codecs: [jsonFormat] });

  test('asks for what the endpoint declares, and returns its reply', () => {
    expectTypeOf(api.call(getUser, { params: { id: 7 }, headers: { 'x-tenant': 'acme' } })).toEqualTypeOf<
      Promise<{ id: number; name: string }>
    >();
    expectTypeOf(api.call(addUser, { body: { name: 'Ada' } })).resolves.toEqualTypeOf<{
      id: number;
      name: string;
    }>();
    expectTypeOf(api.call(readings, { query: { limit: 10 } })).resolves.toEqualTypeOf<
      { at: Date; value: number }[]
    >();
  });

  test('needs no input when the endpoint needs none', () => {
    expectTypeOf(api.call(listUsers)).resolves.toEqualTypeOf<{ id: number; name: string }[]>();
    // An all-optional query may be left out.
    expectTypeOf<EndpointInput<typeof getUser>['query']>().toEqualTypeOf<
      { full?: boolean; fields?: string[] } | undefined
    >();
  });

  test('may leave out a field with a default: the server or the client fills it in', () => {
    const paged = endpoint({
      method: 'POST',
      url: '/pages',
      query: t.object('Page', { limit: t.field(t.uint32(), { default: 50 }) }),
      headers: t.object('Trace', { 'x-trace': t.field(t.string(), { default: '-' }) }),
      body: t.object('Search', { text: t.string(), exact: t.field(t.bool(), { default: false }) }),
      reply: User,
    });
    expectTypeOf(api.call(paged, { body: { text: 'ada' } })).resolves.toEqualTypeOf<{
      id: number;
      name: string;
    }>();
    expectTypeOf<EndpointInput<typeof paged>['query']>().toEqualTypeOf<{ limit?: number } | undefined>();
    // The handler sees them filled in.
    wirekitRoute({
      ...paged,
      handler: async (request) => {
        expectTypeOf(request.query.limit).toEqualTypeOf<number>();
        expectTypeOf(request.body.exact).toEqualTypeOf<boolean>();
        return { id: request.query.limit, name: request.headers['x-trace'] };
      },
    });
  });

  test('refuses input the endpoint does not type', () => {
    // @ts-expect-error params are required
    void api.call(getUser, { headers: { 'x-tenant': 'acme' } });
    // @ts-expect-error id is a number
    void api.call(getUser, { params: { id: '7' }, headers: { 'x-tenant': 'acme' } });
    // @ts-expect-error the body is required
    void api.call(addUser);
    // @ts-expect-error the endpoint reads no query
    void api.call(addUser, { body: { name: 'Ada' }, query: { x: 1 } });
  });
});
