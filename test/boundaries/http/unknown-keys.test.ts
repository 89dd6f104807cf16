/**
 * A request body with a key the route's `body` schema does not name, in every format a body comes
 * in: skipped by default (a client newer than the server keeps working; the handler sees the value
 * without it), refused with 400 and the key's name when the route or the plugin says
 * `unknownKeys: 'reject'` (docs/values.md). The bodies are written with a newer client's schema,
 * the field appended so that no field number moves.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type WirekitPluginOptions, wirekit, wirekitRoute } from '../../../src/boundaries/http/index.js';
import type { Codec, FormatName } from '../../../src/codecs/core/codec.js';
import { mediaTypesOf } from '../../../src/codecs/formats.js';
import { createCodec } from '../../../src/codecs/registry.js';
import { t } from '../../../src/schema/index.js';

const Order = t.object('Order', { id: t.int32(), qty: t.int32() });
/** The newer client's Order: a `coupon` the server's does not know. */
const NewerOrder = t.object('Order', { id: t.int32(), qty: t.int32(), coupon: t.string() });
/**
 * Arrow bodies are tables (rows), not one Order. An Avro body carries no writer schema, so a newer
 * client's bytes are simply another layout (its unknown keys are seen through resolution only).
 */
const formats: readonly FormatName[] = ['json', 'msgpack', 'cbor', 'protobuf', 'flatbuffers'];

async function appWith(plugin: WirekitPluginOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(wirekit, plugin);
  for (const [url, unknownKeys] of [
    ['/orders', undefined],
    ['/strict', 'reject'],
    ['/lenient', 'ignore'],
  ] as const) {
    app.route(
      wirekitRoute({
        method: 'POST',
        url,
        body: Order,
        reply: Order,
        ...(unknownKeys && { unknownKeys }),
        // The handler sees exactly what it is typed to: the echo shows no key beyond Order's.
        handler: async (request) => {
          expect(Object.keys(request.body)).toEqual(['id', 'qty']);
          return request.body;
        },
      }),
    );
  }
  return app;
}

let lenientByDefault: FastifyInstance;
let strictByDefault: FastifyInstance;
beforeAll(async () => {
  lenientByDefault = await appWith({});
  strictByDefault = await appWith({ unknownKeys: 'reject' });
});
afterAll(async () => {
  await lenientByDefault.close();
  await strictByDefault.close();
});

async function post(app: FastifyInstance, url: string, format: FormatName) {
  const writer = createCodec(format, { schema: NewerOrder }) as Codec<unknown>;
  const response = await app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': mediaTypesOf(format)[0] as string, accept: 'application/json' },
    payload: Buffer.from(writer.encode({ id: 7, qty: 2, coupon: 'SPRING' })),
  });
  return { status: response.statusCode, body: response.json() };
}

describe.each(formats)('a %s body with a key the route does not name', (format) => {
  test('is read without it by default, and where the route ignores them', async () => {
    for (const [app, url] of [
      [lenientByDefault, '/orders'],
      [lenientByDefault, '/lenient'],
      [strictByDefault, '/lenient'],
    ] as const) {
      expect(await post(app, url, format), url).toEqual({ status: 200, body: { id: 7, qty: 2 } });
    }
  });

  test("is refused with 400 where the route or the plugin says 'reject'", async () => {
    for (const [app, url] of [
      [lenientByDefault, '/strict'],
      [strictByDefault, '/orders'],
      [strictByDefault, '/strict'],
    ] as const) {
      const { status, body } = await post(app, url, format);
      expect(status, url).toBe(400);
      expect(body, url).toMatchObject({ status: 400, code: 'WK_DECODE_SCHEMA_MISMATCH' });
      // The key by name where the wire has names, by number (Protocol Buffers) or id (FlatBuffers).
      expect(body.message, url).toMatch(/Order has no (field "coupon"|field number 3|field id 2)\./);
    }
  });
});
