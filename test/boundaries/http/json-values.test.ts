/**
 * A route whose body holds a json value (`t.json()`): a `__proto__` key inside it is refused with
 * 400 before the handler runs, so a handler that merges the body by assignment (the code prototype
 * pollution feeds on) never sees it, in JSON as in the binary formats.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { wirekit, wirekitRoute } from '../../../src/boundaries/http/index.js';
import { t } from '../../../src/schema/index.js';

const Doc = t.object('Doc', { data: t.json() });

/** The naive deep merge of many a codebase: it follows `__proto__` as any other key. */
function merge(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const key in source) {
    const value = source[key];
    if (typeof value === 'object' && value !== null) {
      if (typeof target[key] !== 'object' || target[key] === null) target[key] = {};
      merge(target[key] as Record<string, unknown>, value as Record<string, unknown>);
    } else target[key] = value;
  }
}

let app: FastifyInstance;
let handled = 0;
beforeAll(async () => {
  app = Fastify({ logger: false });
  await app.register(wirekit);
  app.route(
    wirekitRoute({
      method: 'POST',
      url: '/settings',
      body: Doc,
      reply: t.object('Merged', { keys: t.uint32() }),
      handler: async (request) => {
        handled++;
        const settings: Record<string, unknown> = {};
        merge(settings, request.body.data as Record<string, unknown>);
        return { keys: Object.keys(settings).length };
      },
    }),
  );
});
afterAll(() => app.close());
afterEach(() => {
  // Should a case pollute, the next ones must not inherit it.
  delete (Object.prototype as Record<string, unknown>).polluted;
});

const post = (payload: string) =>
  app.inject({
    method: 'POST',
    url: '/settings',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    payload,
  });

describe('a json value in a route body', () => {
  test('is merged by the handler when it is harmless', async () => {
    const response = await post('{"data":{"theme":"dark","size":{"w":1}}}');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ keys: 2 });
  });

  test.each([
    '{"data":{"__proto__":{"polluted":"yes"}}}',
    '{"data":{"a":{"__proto__":{"polluted":"yes"}}}}',
    '{"data":{"constructor":{"prototype":{"polluted":"yes"}}}}',
    '{"data":{"\\u005f_proto__":{"polluted":"yes"}}}',
  ])('answers 400 to %s and pollutes nothing', async (payload) => {
    const before = handled;
    const response = await post(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('WK_DECODE_UNSAFE_KEY');
    expect(handled).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  test('answers 400 to a json value nested past maxDepth', async () => {
    const response = await post(`{"data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('WK_LIMIT_DEPTH');
  });
});
