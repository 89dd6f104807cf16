/**
 * Header values named like members every object inherits (`constructor`, `__proto__`, `toString`…)
 * are names like any other the plugin does not know: a table keyed by a header must never answer
 * them with an inherited function. Each header the plugin reads, through `inject` and a real socket.
 */
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from './app.js';

const inherited = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];

let app: FastifyInstance;
let baseUrl: string;
beforeAll(async () => {
  app = await buildApp();
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => app.close());

/** Never read: every refusal here is made from the headers, before the body. */
const payload = '{}';

describe.each(inherited)('%s', (name) => {
  test('as a Content-Encoding: 415 with the codings the route undoes, like any unknown coding', async () => {
    const viaInject = await app.inject({
      method: 'POST',
      url: '/users',
      headers: { 'content-type': 'application/json', 'content-encoding': name },
      payload,
    });
    const viaSocket = await request(`${baseUrl}/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': name },
      body: payload,
    });
    for (const [status, headers, record] of [
      [viaInject.statusCode, viaInject.headers, viaInject.json()],
      [viaSocket.statusCode, viaSocket.headers, await viaSocket.body.json()],
    ] as const) {
      expect(status).toBe(415);
      expect(headers['accept-encoding']).toBe('gzip, br, zstd');
      expect(record).toEqual({
        status: 415,
        code: 'WK_HTTP_UNSUPPORTED_MEDIA_TYPE',
        message: `unsupported Content-Encoding ${name}; send the body as it is or in gzip, br, zstd.`,
        encodings: ['gzip', 'br', 'zstd'],
      });
    }
  });

  test('in a Content-Type: 415 with the types the route reads', async () => {
    for (const type of [name, `application/${name}`, `${name}/json`, `application/json+${name}`]) {
      const response = await app.inject({
        method: 'POST',
        url: '/users',
        headers: { 'content-type': type },
        payload,
      });
      expect(response.statusCode, type).toBe(415);
      expect(response.json(), type).toMatchObject({
        code: 'WK_HTTP_UNSUPPORTED_MEDIA_TYPE',
        offered: expect.arrayContaining(['application/json']),
      });
    }
  });

  test('in Accept: a type of that name is not offered (406); a malformed range is no preference', async () => {
    const refused = await app.inject({ url: '/users', headers: { accept: `application/${name}` } });
    expect(refused.statusCode).toBe(406);
    expect(refused.json()).toMatchObject({ code: 'WK_HTTP_NOT_ACCEPTABLE' });
    const answered = await app.inject({ url: '/users', headers: { accept: name } });
    expect(answered.statusCode).toBe(200);
    expect(answered.headers['content-type']).toBe('application/json');
  });

  test('in Accept-Encoding: not a coding the plugin offers, so the reply goes uncompressed', async () => {
    const plain = await app.inject({ url: '/users', headers: { 'accept-encoding': name } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Array.isArray(plain.json())).toBe(true);
    const gzip = await app.inject({ url: '/users', headers: { 'accept-encoding': `${name}, gzip` } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
  });
});
