/**
 * Field defaults through the HTTP boundary: a body posted by the typed client without its fields
 * that have defaults reaches the route's handler with the defaults filled in, in every format that
 * carries one record (Protocol Buffers and FlatBuffers decode an absent field as zero, Avro cannot
 * leave one out: the client fills defaults in before encoding, so the format does not matter).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createClient, wirekit, wirekitRoute } from '../../../src/boundaries/http/index.js';
import { allFormats, formatNames } from '../../../src/codecs/index.js';
import { type Infer, t } from '../../../src/schema/index.js';

const Prefs = t.object('Prefs', {
  theme: t.field(t.enum('Theme', ['light', 'dark']), { default: 'light' }),
  digest: t.field(t.bool(), { default: true }),
});
const NewUser = t.object('NewUser', {
  name: t.string(),
  role: t.field(t.string(), { default: 'member' }),
  quota: t.field(t.int32(), { default: 100 }),
  prefs: t.array(Prefs),
});

let app: FastifyInstance;
let baseUrl: string;
/** The body each handler call saw, as the handler got it. */
const seen: Infer<typeof NewUser>[] = [];

beforeAll(async () => {
  app = Fastify({ logger: false });
  await app.register(wirekit);
  app.route(
    wirekitRoute({
      method: 'POST',
      url: '/users',
      body: NewUser,
      reply: NewUser,
      handler: async (request) => {
        seen.push(request.body);
        return request.body;
      },
    }),
  );
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => app.close());

// Arrow carries tables of rows, not one record.
describe.each(formatNames.filter((format) => format !== 'arrow'))('%s', (format) => {
  test('a body without its defaulted fields reaches the handler with the defaults', async () => {
    const client = createClient({ baseUrl, codecs: allFormats, format });
    seen.length = 0;
    const back = await client.post(
      '/users',
      { name: 'ada', prefs: [{ theme: 'dark' }, {}] },
      { body: NewUser, reply: NewUser },
    );
    const expected = {
      name: 'ada',
      role: 'member',
      quota: 100,
      prefs: [
        { theme: 'dark', digest: true },
        { theme: 'light', digest: true },
      ],
    };
    expect(seen).toEqual([expected]);
    expect(back).toEqual(expected);
  });

  test('a value given for a defaulted field is sent as given', async () => {
    const client = createClient({ baseUrl, codecs: allFormats, format });
    seen.length = 0;
    await client.post('/users', { name: 'bo', role: 'admin', quota: 0, prefs: [] }, { body: NewUser });
    expect(seen).toEqual([{ name: 'bo', role: 'admin', quota: 0, prefs: [] }]);
  });
});
