/**
 * The Fastify plugin through `inject`: every format × every compression for replies and bodies,
 * and each error status with its wirekit code, in the negotiated format.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HttpError } from '../../../src/boundaries/http/index.js';
import { createCodec, type FormatName, findFormat, formatNames } from '../../../src/codecs/index.js';
import { getCompressor } from '../../../src/compression/index.js';
import { Reading } from '../../../src/lab/datasets/timeseries.js';
import { User } from '../../../src/lab/datasets/users.js';
import { t } from '../../../src/schema/index.js';
import { collect } from '../../support/streams.js';
import { buildApp, sampleUsers, UserList } from './app.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildApp();
});
afterAll(() => app.close());

const codings = { gzip: 'gzip', br: 'brotli', zstd: 'zstd' } as const;

/**
 * How a list of users comes back in `format`: the list as one value of the format where it has
 * one (docs/http.md's table), else the rows' sequence (Avro's container file, Arrow's IPC stream).
 */
function listReader(format: FormatName): { mediaType: string; read(bytes: Uint8Array): Promise<unknown> } {
  if (format === 'avro') {
    const codec = createCodec(format, { schema: User });
    return { mediaType: 'application/avro', read: (bytes) => collect(codec.decodeStream(once(bytes))) };
  }
  const codec =
    format === 'arrow' ? createCodec('arrow', { schema: User }) : createCodec(format, { schema: UserList });
  return { mediaType: codec.mediaType, read: async (bytes) => codec.decode(bytes) };
}

async function* once(bytes: Uint8Array) {
  yield bytes;
}

function bodyOf(response: { rawPayload: Buffer; headers: Record<string, unknown> }): Uint8Array {
  const coding = response.headers['content-encoding'] as keyof typeof codings | undefined;
  const raw = new Uint8Array(response.rawPayload);
  return coding === undefined ? raw : getCompressor(codings[coding]).decompress(raw);
}

function errorOf(response: { rawPayload: Buffer; headers: Record<string, unknown> }): HttpError {
  const format = createCodec(findFormat(String(response.headers['content-type'])) ?? 'json', {
    schema: HttpError,
  });
  return format.decode(bodyOf(response)) as HttpError;
}

describe('replies: every format, every compression', () => {
  const cases = formatNames.flatMap((format) =>
    [undefined, 'gzip', 'br', 'zstd'].map((coding) => [format, coding] as const),
  );
  test.each(cases)('%s with %s', async (format, coding) => {
    const codec = listReader(format);
    const response = await app.inject({
      method: 'GET',
      url: '/users',
      headers: { accept: codec.mediaType, ...(coding && { 'accept-encoding': coding }) },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(codec.mediaType);
    expect(response.headers.vary).toBe('Accept, Accept-Encoding');
    expect(response.headers['content-encoding']).toBe(coding);
    expect(await codec.read(bodyOf(response))).toEqual(sampleUsers);
  });

  test('no Accept gets JSON; aliases are answered with the alias asked for', async () => {
    const bare = await app.inject({ method: 'GET', url: '/users' });
    expect(bare.headers['content-type']).toBe('application/json');
    expect(JSON.parse(bare.body)).toHaveLength(sampleUsers.length);
    const alias = await app.inject({
      method: 'GET',
      url: '/users',
      headers: { accept: 'application/x-msgpack' },
    });
    expect(alias.headers['content-type']).toBe('application/x-msgpack');
  });

  test('q-values, wildcards and parameters decide', async () => {
    const typeFor = async (accept: string) => {
      const response = await app.inject({ method: 'GET', url: '/users', headers: { accept } });
      return response.statusCode === 406 ? 406 : response.headers['content-type'];
    };
    expect(await typeFor('application/json;q=0.5, application/msgpack')).toBe('application/msgpack');
    expect(await typeFor('application/cbor;q=0.9, application/avro;q=0.95')).toBe('application/avro');
    expect(await typeFor('text/html, application/*;q=0.8')).toBe('application/json');
    expect(await typeFor('*/*')).toBe('application/json');
    expect(await typeFor('application/*, application/json;q=0')).toBe('application/msgpack');
    expect(await typeFor('application/json; charset=utf-8')).toBe('application/json');
    expect(await typeFor('application/msgpack; version=2')).toBe(406);
  });

  test('HEAD negotiates like GET and sends no body', async () => {
    const head = await app.inject({
      method: 'HEAD',
      url: '/users',
      headers: { accept: 'application/msgpack' },
    });
    const get = await app.inject({
      method: 'GET',
      url: '/users',
      headers: { accept: 'application/msgpack' },
    });
    expect([head.statusCode, head.headers['content-type'], head.headers.vary]).toEqual([
      200,
      'application/msgpack',
      'Accept, Accept-Encoding',
    ]);
    expect(head.headers['content-length']).toBe(String(get.rawPayload.length));
    expect(head.rawPayload.length).toBe(0);
    const refused = await app.inject({ method: 'HEAD', url: '/users', headers: { accept: 'text/html' } });
    expect(refused.statusCode).toBe(406);
  });

  test('small replies are not compressed, but still vary on Accept-Encoding', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/small',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
      payload: JSON.stringify({ text: 'hi' }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.vary).toBe('Accept, Accept-Encoding');
    expect(response.json()).toEqual({ length: 2 });
  });
});

describe('request bodies: every format, every Content-Encoding', () => {
  const user = sampleUsers[3] as User;
  const bodyFormats = formatNames.filter((format) => format !== 'arrow');
  const cases = bodyFormats.flatMap((format) =>
    [undefined, 'gzip', 'br', 'zstd'].map((coding) => [format, coding] as const),
  );
  test.each(cases)('%s with %s', async (format, coding) => {
    const codec = createCodec(format, { schema: User });
    let payload = codec.encode(user);
    if (coding !== undefined)
      payload = getCompressor(codings[coding as keyof typeof codings]).compress(payload);
    const response = await app.inject({
      method: 'POST',
      url: '/users',
      headers: {
        'content-type': codec.mediaType,
        accept: codec.mediaType,
        ...(coding && { 'content-encoding': coding }),
      },
      payload: Buffer.from(payload),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(codec.decode(bodyOf(response))).toEqual({ ...user, name: user.name.toUpperCase() });
  });

  test('schemaless routes read and answer JSON, MessagePack and CBOR', async () => {
    for (const format of ['json', 'msgpack', 'cbor'] as const) {
      const codec = createCodec(format);
      const value = { a: [1, 'two', { three: true }] };
      const response = await app.inject({
        method: 'POST',
        url: '/echo',
        headers: { 'content-type': codec.mediaType, accept: codec.mediaType },
        payload: Buffer.from(codec.encode(value)),
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(codec.decode(bodyOf(response))).toEqual(value);
    }
    const refused = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { accept: 'application/x-protobuf' },
    });
    expect(refused.statusCode).toBe(406);
  });
});

describe('errors carry a status, a wirekit code and a path, in the negotiated format', () => {
  test('406 lists what is offered, in JSON, with Vary: Accept', async () => {
    const response = await app.inject({ method: 'GET', url: '/users', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(406);
    expect(response.headers.vary).toBe('Accept');
    expect(response.headers['wirekit-error-code']).toBe('WK_HTTP_NOT_ACCEPTABLE');
    const error = response.json() as HttpError;
    expect(error.code).toBe('WK_HTTP_NOT_ACCEPTABLE');
    expect(error.offered).toContain('application/msgpack');
    expect(error.offered).toContain('application/vnd.apache.arrow.stream');
    const refusedAll = await app.inject({ method: 'GET', url: '/users', headers: { accept: '*/*;q=0' } });
    expect(refusedAll.statusCode).toBe(406);
  });

  test.each([
    ['text/plain', 'hello'],
    ['application/xml', '<user/>'],
    ['application/x-ndjson', '{}\n'],
  ])('415 for a body in %s', async (type, payload) => {
    const response = await app.inject({
      method: 'POST',
      url: '/users',
      headers: { 'content-type': type, accept: 'application/cbor' },
      payload,
    });
    expect(response.statusCode).toBe(415);
    expect(response.headers['content-type']).toBe('application/cbor');
    const error = errorOf(response);
    expect(error.code).toBe('WK_HTTP_UNSUPPORTED_MEDIA_TYPE');
  });

  test('415 for an unknown Content-Encoding', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/users',
      headers: { 'content-type': 'application/json', 'content-encoding': 'compress' },
      payload: '{}',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe('WK_HTTP_UNSUPPORTED_MEDIA_TYPE');
  });

  test('413 past the route body limit, raw or after decompression (a brotli bomb)', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(5000) });
    const raw = await app.inject({
      method: 'POST',
      url: '/small',
      headers: { 'content-type': 'application/json' },
      payload: big,
    });
    expect(raw.statusCode).toBe(413);
    expect(raw.json().code).toBe('WK_HTTP_BODY_TOO_LARGE');
    // 10 MB of JSON in a few hundred bytes of brotli: under the limit on the wire, far over it inflated.
    const inflated = new TextEncoder().encode(JSON.stringify({ text: ' '.repeat(10_000_000) }));
    const bomb = getCompressor('brotli').compress(inflated, 11);
    expect(bomb.length).toBeLessThan(1000);
    const response = await app.inject({
      method: 'POST',
      url: '/small',
      headers: { 'content-type': 'application/json', 'content-encoding': 'br' },
      payload: Buffer.from(bomb),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe('WK_HTTP_BODY_TOO_LARGE');
  });

  test.each(formatNames.filter((f) => f !== 'arrow'))(
    '400 for a malformed %s body, answered in that format',
    async (format) => {
      const codec = createCodec(format, { schema: User });
      const bytes = codec.encode(sampleUsers[0] as User);
      const response = await app.inject({
        method: 'POST',
        url: '/users',
        headers: { 'content-type': codec.mediaType, accept: codec.mediaType },
        payload: Buffer.from(bytes.subarray(0, bytes.length - 3)),
      });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toBe(codec.mediaType);
      expect(errorOf(response).code).toMatch(/^WK_DECODE_/);
    },
  );

  test('400 for a schema-invalid body names the path', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/users',
      headers: { 'content-type': 'application/json', accept: 'application/msgpack' },
      payload: JSON.stringify({ ...JSON.parse(JSON.stringify(sampleUsers[0])), age: 300 }),
    });
    expect(response.statusCode).toBe(400);
    const error = errorOf(response);
    // The JSON reader refuses a uint8 of 300 itself, and a text past its maxLength too.
    expect([error.code, error.path]).toEqual(['WK_DECODE_SCHEMA_MISMATCH', 'age']);
    const tooLong = await app.inject({
      method: 'POST',
      url: '/small',
      headers: { 'content-type': 'application/json', accept: 'application/msgpack' },
      payload: JSON.stringify({ text: 'x'.repeat(60) }),
    });
    expect(tooLong.statusCode).toBe(400);
    expect([errorOf(tooLong).code, errorOf(tooLong).path]).toEqual(['WK_DECODE_SCHEMA_MISMATCH', 'text']);
  });

  test('415 for a body without a Content-Type', async () => {
    const response = await app.inject({ method: 'POST', url: '/users', payload: Buffer.from('{"id":1}') });
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe('WK_HTTP_UNSUPPORTED_MEDIA_TYPE');
  });

  test('400 for a missing body', async () => {
    const response = await app.inject({ method: 'POST', url: '/users' });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('WK_HTTP_BODY_REQUIRED');
  });

  test('prototype poisoning is refused on wirekit routes and plain ones alike', async () => {
    const poisoned = '{"id":1,"__proto__":{"admin":true}}';
    // A schema route refuses it as a key its schema does not have; a schemaless one as unsafe.
    for (const [url, code] of [
      ['/users', 'WK_DECODE_SCHEMA_MISMATCH'],
      ['/echo', 'WK_DECODE_UNSAFE_KEY'],
    ]) {
      const response = await app.inject({
        method: 'POST',
        url: url as string,
        headers: { 'content-type': 'application/json' },
        payload: poisoned,
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().code).toBe(code);
    }
    const msgpack = createCodec('msgpack');
    // A map {"__proto__": 1} written by hand: fixmap(1), fixstr(9) "__proto__", 1.
    const bytes = Buffer.from([0x81, 0xa9, ...Buffer.from('__proto__'), 0x01]);
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': msgpack.mediaType },
      payload: bytes,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('WK_DECODE_UNSAFE_KEY');
    const plain = await app.inject({
      method: 'POST',
      url: '/plain',
      headers: { 'content-type': 'application/json' },
      payload: poisoned,
    });
    expect(plain.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  test('plain Fastify routes keep their JSON', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/plain',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":1}',
    });
    expect(response.json()).toEqual({ got: { a: 1 } });
  });

  test("a handler's unexpected error is a 500 that does not leak its message", async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/fails',
      headers: { accept: 'application/cbor' },
    });
    expect(response.statusCode).toBe(500);
    const error = errorOf(response);
    expect(error.code).toBe('WK_HTTP_STATUS');
    expect(error.message).not.toContain('hunter2');
  });
});

describe('streamed replies', () => {
  const readingList = createCodec('json', { schema: t.array(Reading) });
  const sequenceTypes: Record<FormatName, string> = {
    json: 'application/x-ndjson',
    msgpack: 'application/x-msgpack-seq',
    cbor: 'application/cbor-seq',
    protobuf: 'application/x-protobuf-delimited',
    avro: 'application/avro',
    flatbuffers: 'application/x-flatbuffers-seq',
    arrow: 'application/vnd.apache.arrow.stream',
  };
  test.each(formatNames)('%s: every row arrives in the stream framing', async (format) => {
    const codec = createCodec(format, { schema: Reading });
    const response = await app.inject({
      method: 'GET',
      url: '/readings?count=250',
      headers: { accept: sequenceTypes[format] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe(sequenceTypes[format]);
    const rows = await collect(codec.decodeStream(once(new Uint8Array(response.rawPayload))));
    expect(rows).toHaveLength(250);
    expect((rows[249] as { deviceId: string }).deviceId).toBe('d4');
  });

  test('application/json gets one JSON array, gzip-compressed when asked', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/readings?count=300',
      headers: { accept: 'application/json', 'accept-encoding': 'gzip' },
    });
    expect(response.headers['content-encoding']).toBe('gzip');
    const rows = readingList.decode(bodyOf(response)) as unknown[];
    expect(rows).toHaveLength(300);
  });

  test('zero rows is an empty, valid stream', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/readings?count=0',
      headers: { accept: 'application/json' },
    });
    expect(response.json()).toEqual([]);
  });
});
