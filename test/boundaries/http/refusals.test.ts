/**
 * Every refusal of a request is wirekit's error record, in the negotiated format, with its code and
 * what would have been accepted: the refusals the plugin makes from the headers (415 for a type or
 * coding the route does not read, 413 for a Content-Length past the limit, 406), those made while
 * the body is read (Fastify's own: a chunked body growing past the limit, a body shorter than its
 * Content-Length, a missing parser; wirekit's: a decompression bomb, a malformed body), through
 * `inject` and through a real socket, and as the typed errors the client raises. Routes that are
 * not wirekit's keep Fastify's own answers, and the app's own parsers.
 */
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createClient,
  HttpError,
  HttpResponseError,
  wirekit,
  wirekitRoute,
} from '../../../src/boundaries/http/index.js';
import { createCodec, findFormat } from '../../../src/codecs/index.js';
import { allFormats } from '../../../src/codecs/registry.js';
import { getCompressor } from '../../../src/compression/index.js';
import { User } from '../../../src/lab/datasets/users.js';
import { t } from '../../../src/schema/index.js';
import { buildApp, Note, sampleUsers } from './app.js';

/** What POST /users (body: User) reads: one value of every format but Arrow, every alias. */
const userBodyTypes = [
  'application/json',
  'application/msgpack',
  'application/x-msgpack',
  'application/cbor',
  'application/x-protobuf',
  'application/protobuf',
  'application/vnd.google.protobuf',
  'application/avro',
  'application/vnd.apache.avro+binary',
  'application/x-avro-binary',
  'application/x-flatbuffers',
  'application/flatbuffers',
];

let app: FastifyInstance;
let baseUrl: string;
beforeAll(async () => {
  app = await buildApp();
  app.route(
    wirekitRoute({
      method: 'GET',
      url: '/slow',
      reply: Note,
      handlerTimeout: 50,
      handler: () =>
        new Promise<{ text: string }>((resolve) => setTimeout(() => resolve({ text: 'late' }), 1000)),
    }),
  );
  app.route(
    wirekitRoute({ method: 'QUERY', url: '/search', body: Note, reply: Note, handler: (r) => r.body }),
  );
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => app.close());

/** The error record of a response, decoded by the codec its Content-Type names. */
function recordOf(response: { rawPayload: Buffer; headers: Record<string, unknown> }): HttpError {
  const codec = createCodec(findFormat(String(response.headers['content-type'])) ?? 'json', {
    schema: HttpError,
  });
  return codec.decode(new Uint8Array(response.rawPayload));
}

const post = (url: string, headers: Record<string, string>, payload?: string | Buffer | Readable) =>
  app.inject({ method: 'POST', url, headers, ...(payload !== undefined && { payload }) });

describe('415: a body the route does not read, refused from its headers', () => {
  test.each([
    ['application/xml', '<user/>'],
    ['application/octet-stream', 'raw bytes'],
    ['text/csv', 'id,name\n1,Ada'],
    ['text/plain', 'hello'],
    ['application/x-www-form-urlencoded', 'id=1&name=Ada'],
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="id"\r\n\r\n1\r\n--x--'],
    ['application/x-ndjson', '{}\n'],
    ['application/vnd.apache.arrow.stream', 'not a table'],
    ['bad type', '{}'],
    ['application /json', '{}'],
  ])('%s', async (type, payload) => {
    const response = await post('/users', { 'content-type': type, accept: 'application/cbor' }, payload);
    expect(response.statusCode).toBe(415);
    // In the format the client negotiated, with the code in a header too.
    expect(response.headers['content-type']).toBe('application/cbor');
    expect(response.headers['wirekit-error-code']).toBe('WK_HTTP_UNSUPPORTED_MEDIA_TYPE');
    expect(response.headers.connection).toBe('close');
    const error = recordOf(response);
    expect(error).toMatchObject({
      status: 415,
      code: 'WK_HTTP_UNSUPPORTED_MEDIA_TYPE',
      offered: userBodyTypes,
    });
    expect(error.message).toContain(`this route does not read ${type}; it reads application/json, `);
  });

  test('a body without a Content-Type, with a length or in chunks', async () => {
    const framings: Record<string, string>[] = [
      { 'content-length': '8' },
      { 'transfer-encoding': 'chunked' },
    ];
    for (const headers of framings) {
      const response = await post('/users', headers, '{"id":1}');
      expect(response.statusCode).toBe(415);
      const error = response.json() as HttpError;
      expect(error.message).toContain('this route does not read a body without a Content-Type');
      expect(error.offered).toEqual(userBodyTypes);
    }
  });

  test("the route's own parser is the only one that reads: another plugin's never sees the body", async () => {
    const own = Fastify();
    let xmlParsed = 0;
    own.addContentTypeParser(
      'application/xml',
      { parseAs: 'string' },
      async (_request: unknown, body: string) => {
        xmlParsed++;
        return body;
      },
    );
    await own.register(wirekit);
    own.post('/soap', async (request) => ({ got: request.body }));
    own.route(
      wirekitRoute({ method: 'POST', url: '/users', body: User, reply: User, handler: (r) => r.body }),
    );
    const refused = await own.inject({
      method: 'POST',
      url: '/users',
      headers: { 'content-type': 'application/xml' },
      payload: '<user/>',
    });
    expect(refused.statusCode).toBe(415);
    expect(xmlParsed).toBe(0);
    const plain = await own.inject({
      method: 'POST',
      url: '/soap',
      headers: { 'content-type': 'application/xml' },
      payload: '<ok/>',
    });
    expect(plain.json()).toEqual({ got: '<ok/>' });
    expect(xmlParsed).toBe(1);
    await own.close();
  });

  test('a Content-Encoding it does not undo: the codings it does, in the record and Accept-Encoding', async () => {
    const response = await post(
      '/users',
      { 'content-type': 'application/json', 'content-encoding': 'compress', accept: 'application/msgpack' },
      '{}',
    );
    expect(response.statusCode).toBe(415);
    expect(response.headers['accept-encoding']).toBe('gzip, br, zstd');
    expect(recordOf(response)).toMatchObject({
      code: 'WK_HTTP_UNSUPPORTED_MEDIA_TYPE',
      encodings: ['gzip', 'br', 'zstd'],
    });
  });

  test('a QUERY request must state its Content-Type (RFC 10008)', async () => {
    const response = await app.inject({ method: 'QUERY', url: '/search' });
    expect(response.statusCode).toBe(415);
    expect((response.json() as HttpError).offered).toContain('application/json');
    const answered = await app.inject({
      method: 'QUERY',
      url: '/search',
      headers: { 'content-type': 'application/json' },
      payload: '{"text":"hi"}',
    });
    expect(answered.json()).toEqual({ text: 'hi' });
  });
});

describe('413: the limit, in bytes, in the record', () => {
  test('a Content-Length past the limit, before a byte is read', async () => {
    const response = await post(
      '/small',
      { 'content-type': 'application/json', 'content-length': '5000', accept: 'application/cbor' },
      'x'.repeat(5000),
    );
    expect(response.statusCode).toBe(413);
    expect(response.headers.connection).toBe('close');
    expect(recordOf(response)).toMatchObject({
      code: 'WK_HTTP_BODY_TOO_LARGE',
      limit: 1000,
      message: "a Content-Length of 5000 bytes is larger than this route's limit of 1000 bytes.",
    });
  });

  test('a body of no stated length that grows past the limit while it arrives', async () => {
    const chunks = Readable.from([Buffer.from('{"text":"'), Buffer.alloc(1500, 0x78), Buffer.from('"}')]);
    const response = await post('/small', { 'content-type': 'application/json' }, chunks);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      code: 'WK_HTTP_BODY_TOO_LARGE',
      limit: 1000,
      message: "the body is larger than this route's limit of 1000 bytes.",
    });
  });

  test('a body that decompresses past the limit (a brotli bomb)', async () => {
    const bomb = getCompressor('brotli').compress(new TextEncoder().encode(' '.repeat(1_000_000)), 11);
    const response = await post(
      '/small',
      { 'content-type': 'application/json', 'content-encoding': 'br' },
      Buffer.from(bomb),
    );
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'WK_HTTP_BODY_TOO_LARGE', limit: 1000 });
  });

  test("the server's bodyLimit where the route sets none", async () => {
    const small = Fastify({ bodyLimit: 32 });
    await small.register(wirekit);
    small.route(
      wirekitRoute({ method: 'POST', url: '/notes', body: Note, reply: Note, handler: (r) => r.body }),
    );
    const response = await small.inject({
      method: 'POST',
      url: '/notes',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ text: 'x'.repeat(45) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ limit: 32 });
    await small.close();
  });
});

describe('400 and 406, and what Fastify answers on its own', () => {
  test('malformed JSON, an empty JSON body, a body shorter than its Content-Length', async () => {
    const malformed = await post(
      '/users',
      { 'content-type': 'application/json', accept: 'application/msgpack' },
      '{bad',
    );
    expect(malformed.statusCode).toBe(400);
    expect(recordOf(malformed)).toMatchObject({ code: 'WK_DECODE_MALFORMED' });
    const empty = await post('/users', { 'content-type': 'application/json', 'content-length': '0' }, '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'WK_DECODE_TRUNCATED' });
    const short = await post('/users', { 'content-type': 'application/json', 'content-length': '50' }, '{}');
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({
      code: 'WK_DECODE_TRUNCATED',
      message: 'the body is not as long as its Content-Length.',
    });
  });

  test('406 names the offered types', async () => {
    const response = await app.inject({ method: 'GET', url: '/users', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(406);
    expect(response.json()).toMatchObject({ code: 'WK_HTTP_NOT_ACCEPTABLE' });
    expect((response.json() as HttpError).offered?.[0]).toBe('application/json');
  });

  test('an Accept header cut at 64 ranges: a type listed 65th is not read, and the 406 says so', async () => {
    const filler = Array.from({ length: 64 }, (_, i) => `application/x-unknown-${i}`);
    const cut = await app.inject({
      url: '/users',
      headers: { accept: [...filler, 'application/msgpack'].join(', ') },
    });
    expect(cut.statusCode).toBe(406);
    expect((cut.json() as HttpError).message).toBe(
      `none of the offered types is acceptable: ${(cut.json() as HttpError).offered?.join(', ')}. ` +
        'The Accept header lists more than 64 media ranges: only the first 64 were read and 1 more ' +
        'was not; list the types you want first.',
    );
    // Listed within the first 64, the same type is found; a 406 of a header under the cap says nothing of it.
    const read = await app.inject({
      url: '/users',
      headers: { accept: [...filler.slice(1), 'application/msgpack'].join(', ') },
    });
    expect(read.headers['content-type']).toBe('application/msgpack');
    const short = await app.inject({ url: '/users', headers: { accept: filler.join(', ') } });
    expect(short.statusCode).toBe(406);
    expect((short.json() as HttpError).message).not.toContain('64');
  });

  test("a handler that runs past its handlerTimeout: Fastify's 503, as a wirekit record", async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/slow',
      headers: { accept: 'application/cbor' },
    });
    expect(response.statusCode).toBe(503);
    expect(recordOf(response)).toMatchObject({ status: 503, code: 'WK_HTTP_STATUS' });
    expect(recordOf(response).message).toContain('timed out');
  });

  test('a body sent with GET is not read, as Fastify reads none', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/users',
      headers: { 'content-type': 'application/xml' },
      payload: '<ignored/>',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toHaveLength(sampleUsers.length);
  });

  test('a GET route that declares a body is refused when it is registered', async () => {
    const own = Fastify();
    await own.register(wirekit);
    expect(() =>
      own.route(wirekitRoute({ method: 'GET', url: '/x', body: Note, handler: () => null })),
    ).toThrow(expect.objectContaining({ code: 'WK_OPTIONS_INVALID' }));
    await own.close();
  });
});

describe("the app's parsers and plain routes", () => {
  test('plain routes get what Fastify alone would answer', async () => {
    const msgpack = await post('/plain', { 'content-type': 'application/msgpack' }, Buffer.from([0x80]));
    expect(msgpack.statusCode).toBe(415);
    expect(msgpack.json()).toMatchObject({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' });
    const empty = await post('/plain', { 'content-type': 'application/json' }, '');
    expect(empty.json()).toMatchObject({ code: 'FST_ERR_CTP_EMPTY_JSON_BODY' });
    const bad = await post('/plain', { 'content-type': 'application/json' }, '{bad');
    expect(bad.json()).toMatchObject({ code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
  });

  test("plain JSON follows the app's onProtoPoisoning", async () => {
    const lenient = Fastify({ onProtoPoisoning: 'remove' });
    await lenient.register(wirekit);
    lenient.post('/plain', async (request) => ({ got: request.body }));
    const response = await lenient.inject({
      method: 'POST',
      url: '/plain',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":1,"__proto__":{"admin":true}}',
    });
    expect(response.json()).toEqual({ got: { a: 1 } });
    await lenient.close();
  });

  test("an app's own JSON parser is not removed: registration says to give wirekit a scope", async () => {
    const own = Fastify();
    own.addContentTypeParser(
      'application/json',
      { parseAs: 'string' },
      async (_r: unknown, body: string) => ({
        mine: body,
      }),
    );
    await expect(own.register(wirekit)).rejects.toThrow(
      /already has one for it\. Register wirekit and its routes/,
    );
    await own.close();

    // The remedy: wirekit and its routes in a scope of their own; the app's parser stays outside.
    const scoped = Fastify();
    scoped.addContentTypeParser(
      'application/json',
      { parseAs: 'string' },
      async (_r: unknown, body: string) => ({
        mine: body,
      }),
    );
    scoped.post('/plain', async (request) => request.body);
    await scoped.register(async (api) => {
      api.removeContentTypeParser('application/json');
      await api.register(wirekit);
      api.route(
        wirekitRoute({ method: 'POST', url: '/notes', body: Note, reply: Note, handler: (r) => r.body }),
      );
    });
    const plain = await scoped.inject({
      method: 'POST',
      url: '/plain',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(plain.json()).toEqual({ mine: '{}' });
    const note = await scoped.inject({
      method: 'POST',
      url: '/notes',
      headers: { 'content-type': 'application/json' },
      payload: '{"text":"hi"}',
    });
    expect(note.json()).toEqual({ text: 'hi' });
    await scoped.close();
  });

  test("a scope that takes the parsers away: Fastify's 415 in wirekit's terms; a foreign parser: 500", async () => {
    const own = Fastify({ logger: false });
    await own.register(wirekit);
    let handled = 0;
    await own.register(async (bare) => {
      bare.removeAllContentTypeParsers();
      bare.route(wirekitRoute({ method: 'POST', url: '/bare', body: Note, handler: () => handled++ }));
    });
    await own.register(async (foreign) => {
      foreign.removeContentTypeParser('application/json');
      foreign.addContentTypeParser('application/json', { parseAs: 'string' }, async () => ({
        text: 'unchecked',
      }));
      foreign.route(wirekitRoute({ method: 'POST', url: '/foreign', body: Note, handler: () => handled++ }));
    });
    const bare = await own.inject({
      method: 'POST',
      url: '/bare',
      headers: { 'content-type': 'application/json' },
      payload: '{"text":"hi"}',
    });
    expect(bare.statusCode).toBe(415);
    expect(bare.json()).toMatchObject({
      code: 'WK_HTTP_UNSUPPORTED_MEDIA_TYPE',
      offered: expect.arrayContaining(['application/json']),
    });
    const foreign = await own.inject({
      method: 'POST',
      url: '/foreign',
      headers: { 'content-type': 'application/json' },
      payload: '{"text":"hi"}',
    });
    expect(foreign.statusCode).toBe(500);
    expect(handled).toBe(0);
    await own.close();
  });
});

/** Writes `head` to a raw socket, then each of `more` after a pause; returns what the server answers. */
function rawExchange(head: string, more: readonly string[] = [], keepOpenMs = 2000): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, async () => {
      socket.write(head);
      for (const part of more) {
        await new Promise((wait) => setTimeout(wait, 20));
        if (!socket.destroyed) socket.write(part);
      }
    });
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (data) => {
      answer += data;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    setTimeout(() => socket.destroy(), keepOpenMs);
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as HttpError;

describe('through a real socket', () => {
  test('undici: 415 for XML, with what the route reads', async () => {
    const response = await request(`${baseUrl}/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<user/>',
    });
    expect(response.statusCode).toBe(415);
    expect(await response.body.json()).toMatchObject({
      code: 'WK_HTTP_UNSUPPORTED_MEDIA_TYPE',
      offered: userBodyTypes,
    });
  });

  test('a chunked body that grows past the limit: 413 with the limit, and the connection closed', async () => {
    const head =
      'POST /small HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    const chunk = `1f4\r\n${'x'.repeat(500)}\r\n`;
    const answer = await rawExchange(head, ['9\r\n{"text":"\r\n', chunk, chunk, chunk, chunk]);
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(bodyOf(answer)).toMatchObject({ code: 'WK_HTTP_BODY_TOO_LARGE', limit: 1000 });
  });

  test('a Content-Length past the limit: 413 at once, with the limit', async () => {
    const answer = await rawExchange(
      'POST /small HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n{"te',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(bodyOf(answer)).toMatchObject({ code: 'WK_HTTP_BODY_TOO_LARGE', limit: 1000 });
  });
});

describe('the client raises each refusal as a HttpResponseError with its code', () => {
  test('415: a format the route does not read, with the types it does', async () => {
    // /echo has no schemas: it reads JSON, MessagePack and CBOR only.
    const client = createClient({ baseUrl, codecs: allFormats, format: 'avro' });
    const error = await client.post('/echo', { text: 'hi' }, { body: Note }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpResponseError);
    expect(error).toMatchObject({
      status: 415,
      code: 'WK_HTTP_UNSUPPORTED_MEDIA_TYPE',
      offered: ['application/json', 'application/msgpack', 'application/x-msgpack', 'application/cbor'],
    });
  });

  test('413: a body past the limit, with the limit', async () => {
    for (const format of ['json', 'msgpack'] as const) {
      const client = createClient({ baseUrl, codecs: allFormats, format });
      // The client's schema lets the long text through; the server's limit does not.
      const big = await client
        .post('/small', { text: 'x'.repeat(100_000) }, { body: t.object('Loose', { text: t.string() }) })
        .catch((e: unknown) => e);
      expect(big, format).toBeInstanceOf(HttpResponseError);
      expect(big).toMatchObject({ status: 413, code: 'WK_HTTP_BODY_TOO_LARGE', limit: 1000 });
    }
  });

  test('503 from Fastify, decoded from the negotiated format', async () => {
    const client = createClient({ baseUrl, codecs: allFormats, format: 'cbor' });
    const error = await client.get('/slow', { reply: Note }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, code: 'WK_HTTP_STATUS' });
  });
});
