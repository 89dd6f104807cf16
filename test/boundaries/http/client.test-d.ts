import { describe, expectTypeOf, test } from 'vitest';
import { createClient, wirekitRoute } from '../../../src/boundaries/http/index.js';
import { jsonFormat } from '../../../src/codecs/json/index.js';
import { t } from '../../../src/schema/index.js';

const NewUser = t.object('NewUser', {
  name: t.string(),
  role: t.field(t.string(), { default: 'member' }),
});
const client = createClient({ baseUrl: 'http://localhost:3000', codecs: [jsonFormat] });

describe('request bodies take input types', () => {
  test('a field with a default may be left out of a body the client sends', () => {
    void client.post('/users', { name: 'ada' }, { body: NewUser });
    void client.post('/users', { name: 'ada', role: 'admin' }, { body: NewUser });
    // @ts-expect-error a field without a default is still required
    void client.post('/users', { role: 'admin' }, { body: NewUser });
  });

  test('the handler sees the output type, with the default filled in', () => {
    wirekitRoute({
      method: 'POST',
      url: '/users',
      body: NewUser,
      handler: async (request) => {
        expectTypeOf(request.body).toEqualTypeOf<{ name: string; role: string }>();
      },
    });
  });
});
