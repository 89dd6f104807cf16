/**
 * A JSON request body that is not JSON is answered 400 with the fault's code and place, found by
 * wirekit (before, V8 named no position for "Unexpected token" and every such body was "the input
 * ends inside JSON text" at its end); a number past float64 is refused, on a route with a schema
 * (a float field) and on one without. The handler never runs.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { wirekit, wirekitRoute } from '../../../src/boundaries/http/index.js';
import { t } from '../../../src/schema/index.js';

const Reading = t.object('Reading', { value: t.float64() });

let app: FastifyInstance;
let handled = 0;
beforeAll(async () => {
  app = Fastify({ logger: false });
  await app.register(wirekit);
  app.route(
    wirekitRoute({
      method: 'POST',
      url: '/readings',
      body: Reading,
      reply: Reading,
      handler: async (request) => {
        handled++;
        return request.body;
      },
    }),
  );
  app.route(
    wirekitRoute({
      method: 'POST',
      url: '/echo',
      body: undefined,
      handler: async (request) => {
        handled++;
        return request.body ?? null;
      },
    }),
  );
});
afterAll(() => app.close());

const post = (url: string, payload: string) =>
  app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    payload,
  });

describe.each(['/readings', '/echo'])('%s', (url) => {
  test.each([
    ['{"value":1,,}', 'WK_DECODE_MALFORMED', 'at byte 11'],
    ["{'value':1}", 'WK_DECODE_MALFORMED', 'at byte 1'],
    ['{"value":NaN}', 'WK_DECODE_MALFORMED', 'at byte 9'],
    ['{"value":"\\x"}', 'WK_DECODE_MALFORMED', 'at byte 11'],
    ['{"value":1', 'WK_DECODE_TRUNCATED', 'at byte 10'],
    ['{"value":1} {}', 'WK_DECODE_TRAILING', 'ends at byte 12'],
    ['{"value":1e400}', 'WK_DECODE_SCHEMA_MISMATCH', ''],
  ])('%s: 400 %s', async (payload, code, where) => {
    const before = handled;
    const response = await post(url, payload);
    expect(response.statusCode).toBe(400);
    const record = response.json();
    expect(record.code).toBe(code);
    expect(record.message).toContain(where);
    expect(handled).toBe(before);
  });
});

test('a float field reads the JSON form of infinity, a string', async () => {
  const response = await post('/readings', '{"value":"-Infinity"}');
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual({ value: '-Infinity' });
});
