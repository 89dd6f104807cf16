/**
 * A request body nested far past maxDepth (20 KB and 1 MB of opening brackets) is the client's
 * fault wherever it stands: at the root, in a scalar field, in an unknown field (on a route that
 * refuses unknown keys), in a json value. The plugin answers 400 with the decoder's code, in JSON,
 * MessagePack and CBOR, and the handler never runs. The error message once walked the value and
 * overflowed the stack: a 500.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { wirekit, wirekitRoute } from '../../../src/boundaries/http/index.js';
import { t } from '../../../src/schema/index.js';

const Row = t.object('Row', { id: t.int32(), data: t.optional(t.json()) });

let app: FastifyInstance;
let handled = 0;
beforeAll(async () => {
  app = Fastify({ logger: false });
  await app.register(wirekit);
  app.route(
    wirekitRoute({
      method: 'POST',
      url: '/rows',
      bodyLimit: 4 * 1024 * 1024,
      body: Row,
      reply: Row,
      handler: async (request) => {
        handled++;
        return request.body;
      },
    }),
  );
  app.route(
    wirekitRoute({
      method: 'POST',
      url: '/strict-rows',
      bodyLimit: 4 * 1024 * 1024,
      unknownKeys: 'reject',
      body: Row,
      reply: Row,
      handler: async (request) => {
        handled++;
        return request.body;
      },
    }),
  );
});
afterAll(() => app.close());

const positions = ['root', 'scalar field', 'unknown field', 'json field'] as const;
type Position = (typeof positions)[number];

function jsonBody(where: Position, levels: number): Buffer {
  const deep = `${'['.repeat(levels)}${']'.repeat(levels)}`;
  const text =
    where === 'root'
      ? deep
      : where === 'scalar field'
        ? `{"id":${deep}}`
        : `{"id":1,"${where === 'unknown field' ? 'extra' : 'data'}":${deep}}`;
  return Buffer.from(text);
}

/** The same in MessagePack or CBOR, built by hand: arrays of one item, one inside the next. */
function keyedBody(where: Position, levels: number, cbor: boolean): Buffer {
  const deep = Buffer.alloc(levels, cbor ? 0x81 : 0x91);
  deep[levels - 1] = cbor ? 0x80 : 0x90;
  const text = (value: string) => [(cbor ? 0x60 : 0xa0) | value.length, ...Buffer.from(value)];
  const map = (entries: number) => (cbor ? 0xa0 : 0x80) | entries;
  const head =
    where === 'root'
      ? []
      : where === 'scalar field'
        ? [map(1), ...text('id')]
        : [map(2), ...text('id'), 1, ...text(where === 'unknown field' ? 'extra' : 'data')];
  return Buffer.concat([Buffer.from(head), deep]);
}

const bodies: Record<string, (where: Position, levels: number) => Buffer> = {
  'application/json': jsonBody,
  'application/msgpack': (where, levels) => keyedBody(where, levels, false),
  'application/cbor': (where, levels) => keyedBody(where, levels, true),
};

describe.each([20_000, 1_000_000])('%i levels', (levels) => {
  for (const type of Object.keys(bodies))
    test.each(positions)(`${type}, in the %s: 400 with the decoder's code`, async (where) => {
      const before = handled;
      const response = await app.inject({
        method: 'POST',
        url: '/strict-rows',
        headers: { 'content-type': type, accept: 'application/json' },
        payload: (bodies[type] as (where: Position, levels: number) => Buffer)(where, levels),
      });
      expect(response.statusCode).toBe(400);
      const record = response.json();
      expect(['WK_LIMIT_DEPTH', 'WK_DECODE_SCHEMA_MISMATCH']).toContain(record.code);
      if (where === 'json field') expect(record.code).toBe('WK_LIMIT_DEPTH');
      expect(record.message.length).toBeLessThan(400);
      expect(handled).toBe(before);
    });
});

test.each([20_000, 1_000_000])(
  '%i levels in an unknown field a route ignores: JSON drops it, MessagePack and CBOR walk it (400 WK_LIMIT_DEPTH)',
  async (levels) => {
    const post = (type: string) =>
      app.inject({
        method: 'POST',
        url: '/rows',
        headers: { 'content-type': type, accept: 'application/json' },
        payload: (bodies[type] as (where: Position, levels: number) => Buffer)('unknown field', levels),
      });
    const json = await post('application/json');
    expect(json.statusCode).toBe(200);
    expect(json.json()).toEqual({ id: 1 });
    for (const type of ['application/msgpack', 'application/cbor']) {
      const response = await post(type);
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('WK_LIMIT_DEPTH');
    }
  },
);
