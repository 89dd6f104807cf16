/**
 * A route's params, query and headers from wirekit schemas, through a real Fastify server: values
 * read out of their text (numbers, booleans, enums, timestamps, 64-bit integers, arrays from
 * repeated keys, optional fields, defaults), refusals in the body's 400 record naming `query.limit`
 * or `params.id`, hostile input (repeated keys, `__proto__`, a flood of values) refused with typed
 * errors and no prototype touched, mistakes refused when the route is registered, and the client
 * calling the same endpoint over a socket: path parameters encoded into the URL, the query and
 * headers written as text.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createClient,
  endpoint,
  HttpResponseError,
  wirekit,
  wirekitRoute,
} from '../../../src/boundaries/http/index.js';
import { jsonFormat } from '../../../src/codecs/json/index.js';
import { msgpackFormat } from '../../../src/codecs/msgpack/index.js';
import { t } from '../../../src/schema/index.js';

const Color = t.enumeration('Color', ['red', 'green']);
const Search = t.object('Search', {
  limit: t.field(t.uint16(), { default: 20 }),
  exact: t.optional(t.bool()),
  color: t.optional(Color),
  since: t.optional(t.timestamp()),
  after: t.optional(t.int64()),
  tag: t.optional(t.array(t.string({ maxLength: 8 }), { maxItems: 5 })),
  mode: t.optional(t.literal(2)),
});
const Found = t.object('Found', {
  id: t.string(),
  search: t.json(),
  tenant: t.string(),
  ids: t.array(t.uint32()),
});

const findItems = endpoint({
  method: 'GET',
  url: '/shops/:shop/items/:id',
  params: t.object('ItemRef', { shop: t.string(), id: t.string() }),
  query: Search,
  headers: t.object('Tenant', {
    'x-tenant': t.string({ minLength: 1 }),
    'x-ids': t.optional(t.array(t.uint32())),
  }),
  reply: Found,
});
const getOrder = endpoint({
  method: 'GET',
  url: '/orders/:id',
  params: t.object('OrderRef', { id: t.uint32() }),
  reply: t.object('Order', { id: t.uint32() }),
});
const countdown = endpoint({
  method: 'GET',
  url: '/countdown/:from',
  params: t.object('From', { from: t.uint8() }),
  headers: t.object('Step', { 'x-step': t.field(t.uint8(), { default: 1 }) }),
  stream: t.object('Tick', { left: t.uint8() }),
});
const strictSearch = endpoint({
  method: 'GET',
  url: '/strict',
  query: t.object('Strict', { q: t.string() }),
});

/** What the handler saw, as JSON can carry it (a Date as its ISO text, a bigint as a string). */
function seen(query: Record<string, unknown>) {
  return JSON.parse(JSON.stringify(query, (_, value) => (typeof value === 'bigint' ? `${value}n` : value)));
}

let app: FastifyInstance;
let baseUrl: string;
beforeAll(async () => {
  app = Fastify({ logger: false });
  await app.register(wirekit, { formats: ['json', 'msgpack'] });
  app.route(
    wirekitRoute({
      ...findItems,
      handler: async (request) => {
        const { since, after } = request.query;
        // The values are what the schema says, not text.
        expect(since === undefined || since instanceof Date).toBe(true);
        expect(after === undefined || typeof after === 'bigint').toBe(true);
        return {
          id: `${request.params.shop}:${request.params.id}`,
          search: seen(request.query),
          tenant: request.headers['x-tenant'],
          ids: request.headers['x-ids'] ?? [],
        };
      },
    }),
  );
  app.route(wirekitRoute({ ...getOrder, handler: async (request) => ({ id: request.params.id + 1 }) }));
  app.route(
    wirekitRoute({
      ...countdown,
      // A hook of the app that sets a header of its own: reading the route's headers keeps it.
      onRequest: async (request) => {
        request.headers = { ...request.headers, 'x-hook': 'set' };
      },
      handler: async function* (request) {
        expect([request.headers['x-hook'], request.raw.headers['x-hook']]).toEqual(['set', undefined]);
        const step = request.headers['x-step'];
        for (let left = request.params.from; left > 0; left -= step) yield { left: left - 1 };
      },
    }),
  );
  app.route(wirekitRoute({ ...strictSearch, unknownKeys: 'reject', handler: async () => null }));
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => app.close());

async function get(url: string, headers: Record<string, string> = { 'x-tenant': 'acme' }) {
  const response = await app.inject({ method: 'GET', url, headers });
  return { status: response.statusCode, body: response.json() };
}

describe('values read from their text', () => {
  test('params, query and headers become the values their schemas describe', async () => {
    const query =
      'limit=5&exact=true&color=green&since=2026-12-06T19:30:00Z&after=9007199254740993&tag=a&tag=b&mode=2';
    const { status, body } = await get(`/shops/s1/items/42?${query}`, {
      'x-tenant': 'acme',
      'x-ids': '3, 4,5',
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      id: 's1:42',
      search: {
        limit: 5,
        exact: true,
        color: 'green',
        since: '2026-12-06T19:30:00.000Z',
        after: '9007199254740993n',
        tag: ['a', 'b'],
        mode: 2,
      },
      tenant: 'acme',
      ids: [3, 4, 5],
    });
  });

  test('a missing field takes its default, an optional one stays out, one value is an array of one', async () => {
    const { body } = await get('/shops/s1/items/42?tag=only&exact=0');
    expect(body.search).toEqual({ limit: 20, exact: false, tag: ['only'] });
  });

  test('a path parameter typed as a number is one', async () => {
    expect(await get('/orders/41')).toEqual({ status: 200, body: { id: 42 } });
  });
});

describe('refusals: the body’s 400 record, naming the part', () => {
  const cases: [string, string, Record<string, string>, string, string][] = [
    ['a number that is not one', '?limit=ten', {}, 'query.limit', 'expected a number, got "ten".'],
    ['a number out of range', '?limit=70000', {}, 'query.limit', 'outside uint16'],
    ['a boolean that is not one', '?exact=yes', {}, 'query.exact', 'expected true, false, 1 or 0'],
    ['an enum member that is not one', '?color=blue', {}, 'query.color', 'blue'],
    ['a timestamp that is not ISO 8601', '?since=yesterday', {}, 'query.since', 'ISO 8601'],
    ['a literal that differs', '?mode=3', {}, 'query.mode', ''],
    ['an item too long', '?tag=abcdefghij', {}, 'query.tag[0]', ''],
    ['too many items', '?tag=a&tag=b&tag=c&tag=d&tag=e&tag=f', {}, 'query.tag', ''],
    ['a repeated key for one value', '?limit=1&limit=2', {}, 'query.limit', 'expected one value, got 2'],
    ['an empty number', '?limit=', {}, 'query.limit', 'expected a number'],
    ['a hexadecimal number', '?limit=0x10', {}, 'query.limit', 'expected a number'],
    ['a missing header', '', { 'x-tenant': '' }, 'headers["x-tenant"]', ''],
    [
      'a header list item that is no number',
      '',
      { 'x-ids': '1, two' },
      'headers["x-ids"][1]',
      'expected a number',
    ],
  ];
  test.each(cases)('%s', async (_, query, headers, path, message) => {
    const { status, body } = await get(`/shops/s1/items/42${query}`, { 'x-tenant': 'acme', ...headers });
    expect(status).toBe(400);
    expect(body).toMatchObject({ status: 400, code: 'WK_VALIDATION_FAILED', path });
    expect(body.message).toContain(message);
    expect(body.message.startsWith(`${path}: `)).toBe(true);
  });

  test('a path parameter that is no number', async () => {
    const { status, body } = await get('/orders/abc');
    expect([status, body.code, body.path]).toEqual([400, 'WK_VALIDATION_FAILED', 'params.id']);
  });

  test('an unknown query key, where the route rejects unknown keys; ignored elsewhere', async () => {
    const strict = await get('/strict?q=a&qq=b');
    expect([strict.status, strict.body.code, strict.body.path]).toEqual([
      400,
      'WK_VALIDATION_FAILED',
      'query.qq',
    ]);
    expect((await get('/shops/s1/items/42?utm_source=x')).status).toBe(200);
  });
});

describe('hostile input', () => {
  test('a __proto__ key is refused, and no prototype is touched', async () => {
    for (const url of ['/shops/s1/items/42?__proto__=x', '/strict?q=a&__proto__=1']) {
      const { status, body } = await get(url);
      expect([status, body.code, body.path], url).toEqual([400, 'WK_VALIDATION_FAILED', 'query.__proto__']);
    }
    // Fastify's parser makes no nested objects: this key is just a name the route does not know.
    expect((await get('/shops/s1/items/42?__proto__[polluted]=1&a[__proto__][polluted]=1')).status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // `constructor` is just an unknown key: ignored, or refused where the route rejects them.
    expect((await get('/shops/s1/items/42?constructor=1&toString=2')).status).toBe(200);
    expect((await get('/strict?q=a&constructor=1')).body.path).toBe('query.constructor');
  });

  test('a flood of values for one field is refused before any is read', async () => {
    const flood = Array.from({ length: 5000 }, (_, i) => `tag=${i}`).join('&');
    const { status, body } = await get(`/shops/s1/items/42?${flood}`);
    expect([status, body.code, body.path]).toEqual([400, 'WK_LIMIT_ELEMENTS', 'query.tag']);
  });

  test('a flood of keys the route does not name costs a lookup each, and is ignored', async () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `k${i}=${i}`).join('&');
    expect((await get(`/shops/s1/items/42?limit=3&${keys}`)).body.search).toEqual({ limit: 3 });
    // Where unknown keys are refused, the record lists at most 100 of them.
    const strict = await get(`/strict?q=a&${keys}`);
    expect([strict.status, strict.body.code]).toEqual([400, 'WK_VALIDATION_FAILED']);
    expect(strict.body.message).toContain('(and 99 more)');
  });

  test('a 64-bit integer with too many digits is refused before it is read', async () => {
    const { body } = await get(`/shops/s1/items/42?after=${'9'.repeat(10_000)}`);
    expect([body.code, body.path]).toEqual(['WK_VALIDATION_FAILED', 'query.after']);
  });
});

describe('refused when the route is registered', () => {
  async function register(route: Parameters<typeof wirekitRoute>[0]) {
    const server = Fastify({ logger: false });
    await server.register(wirekit);
    try {
      server.route(wirekitRoute(route));
      await server.ready();
    } finally {
      await server.close();
    }
  }
  const handler = async () => null;

  test.each([
    [
      'a params field the path lacks',
      { method: 'GET', url: '/a/:id', params: t.object('P', { idd: t.string() }), handler },
      'params.idd is no parameter of the path (it has :id)',
    ],
    [
      'an object in the query',
      {
        method: 'GET',
        url: '/a',
        query: t.object('Q', { where: t.object('W', { a: t.string() }) }),
        handler,
      },
      'query.where is object',
    ],
    [
      'an array in the path',
      { method: 'GET', url: '/a/:ids', params: t.object('P', { ids: t.array(t.string()) }), handler },
      'a path parameter is one value',
    ],
    [
      'an untagged union, which text cannot tell apart',
      {
        method: 'GET',
        url: '/a',
        query: t.object('Q', { id: t.either([t.string(), t.float64()]) }),
        handler,
      },
      'id is either, which a URL cannot carry as text',
    ],
    [
      'a header name with capitals',
      { method: 'GET', url: '/a', headers: t.object('H', { 'X-Tenant': t.string() }), handler },
      'name the field "x-tenant"',
    ],
  ] as const)('%s', async (_, route, message) => {
    await expect(register(route as never)).rejects.toMatchObject({
      code: 'WK_OPTIONS_INVALID',
      message: expect.stringContaining(message),
    });
  });
});

describe('the client calls the same endpoint', () => {
  test.each([
    ['json', [jsonFormat]],
    ['msgpack', [msgpackFormat, jsonFormat]],
  ] as const)('in %s: params encoded into the path, query and headers as text', async (_, codecs) => {
    const api = createClient({ baseUrl, codecs: [...codecs] });
    const found = await api.call(findItems, {
      params: { shop: 'a/b c', id: 'ü?#' },
      query: {
        limit: 7,
        exact: false,
        since: new Date('2026-12-06T00:00:00Z'),
        after: 2n ** 60n,
        tag: ['x', 'y'],
      },
      headers: { 'x-tenant': 'acme', 'x-ids': [1, 2] },
    });
    expect(found).toEqual({
      id: 'a/b c:ü?#',
      search: {
        limit: 7,
        exact: false,
        since: '2026-12-06T00:00:00.000Z',
        after: `${2n ** 60n}n`,
        tag: ['x', 'y'],
      },
      tenant: 'acme',
      ids: [1, 2],
    });
    expect(await api.call(getOrder, { params: { id: 9 } })).toEqual({ id: 10 });
  });

  test('a streamed endpoint’s rows come back whole, typed by its row', async () => {
    const api = createClient({ baseUrl, codecs: [msgpackFormat, jsonFormat] });
    // x-step is left out: its default, 1, is the server's to fill in.
    expect(await api.call(countdown, { params: { from: 3 } })).toEqual([
      { left: 2 },
      { left: 1 },
      { left: 0 },
    ]);
  });

  test('a refusal comes back as the server’s code and path', async () => {
    const api = createClient({ baseUrl, codecs: [jsonFormat] });
    const error = await api
      .call(findItems, {
        params: { shop: 's', id: '1' },
        query: { limit: 70_000 },
        headers: { 'x-tenant': 'acme' },
      })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(HttpResponseError);
    expect([(error as HttpResponseError).code, (error as HttpResponseError).at]).toEqual([
      'WK_VALIDATION_FAILED',
      'query.limit',
    ]);
  });

  test('a path parameter left out is refused before anything is sent', async () => {
    const api = createClient({ baseUrl, codecs: [jsonFormat] });
    await expect(api.call(getOrder, { params: {} as { id: number } })).rejects.toMatchObject({
      code: 'WK_OPTIONS_INVALID',
      message: expect.stringContaining('params.id'),
    });
  });
});
