/**
 * The fetch client against a real server on a loopback socket: every format both ways, errors
 * back as WirekitErrors with the server's code, and streamed rows as they arrive.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { lazyFormat } from '../../../src/boundaries/http/client-entry.js';
import {
  createClient,
  HttpResponseError,
  wirekit,
  wirekitRoute,
} from '../../../src/boundaries/http/index.js';
import { arrowFormat } from '../../../src/codecs/arrow/index.js';
import { writeContainer } from '../../../src/codecs/avro/encode/container.js';
import { allFormats, createCodec, formatNames } from '../../../src/codecs/index.js';
import { jsonFormat } from '../../../src/codecs/json/index.js';
import { msgpackFormat } from '../../../src/codecs/msgpack/index.js';
import { protobufFormat } from '../../../src/codecs/protobuf/index.js';
import { Reading } from '../../../src/lab/datasets/timeseries.js';
import { User } from '../../../src/lab/datasets/users.js';
import { t } from '../../../src/schema/index.js';
import { collect } from '../../support/streams.js';
import { buildApp, Note, sampleUsers, UserList } from './app.js';

let app: FastifyInstance;
let baseUrl: string;
beforeAll(async () => {
  app = await buildApp();
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => app.close());

describe.each(formatNames)('%s', (format) => {
  // Made per test: the server's port is known only once beforeAll has run.
  const client = () => createClient({ baseUrl, codecs: allFormats, format });

  test('get a list, post a record', async () => {
    const list = await client().get('/users', { reply: UserList });
    expect(list).toEqual(sampleUsers);
    if (format === 'arrow') return; // a table is no body for one record
    const user = sampleUsers[5] as User;
    const back = await client().post('/users', user, { body: User, reply: User });
    expect(back).toEqual({ ...user, name: user.name.toUpperCase() });
  });

  test('a list from a streamed route, and a stream from a list route', async () => {
    // A streamed route cannot send a MessagePack array or a FlatBuffer (they need every row
    // first): the client's Accept lets it fall back to the rows' sequence.
    const readings = await client().get('/readings', { reply: t.array(Reading), query: { count: 300 } });
    expect(readings).toHaveLength(300);
    expect(readings[299]?.deviceId).toBe('d5');
    expect(await collect(client().stream('/users', { row: User }))).toEqual(sampleUsers);
  });

  test('streamed rows arrive in order', async () => {
    const rows = await collect(client().stream('/readings', { row: Reading, query: { count: 1000 } }));
    expect(rows).toHaveLength(1000);
    expect(rows[999]?.timestamp).toEqual(new Date(1_700_000_000_000 + 999_000));
  });

  test('an invalid body is refused before it is sent, with the code and path', async () => {
    if (format === 'arrow') return;
    // Encoders hold values to the schema's constraints as decoders do (docs/values.md): the text
    // past its maxLength never leaves the client.
    const error = await client()
      .post('/small', { text: 'x'.repeat(60) }, { body: Note })
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(HttpResponseError);
    expect(error).toMatchObject({ code: 'WK_VALIDATION_FAILED', path: ['text'] });
  });
});

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

describe('the client', () => {
  test('Arrow batches arrive as record batches with zero-copy columns', async () => {
    const client = createClient({ baseUrl, codecs: allFormats, format: 'arrow' });
    const batches = await collect(client.batches('/readings', { row: Reading, query: { count: 250 } }));
    expect(batches.map((batch) => batch.numRows)).toEqual([100, 100, 50]);
    expect(batches[0]?.getChild('temperature')?.toArray()).toBeInstanceOf(Float64Array);
  });

  test('a 406 and a non-wirekit error status become HttpResponseErrors', async () => {
    // /echo has no schemas, so it speaks only the schemaless formats.
    const client = createClient({ baseUrl, codecs: allFormats, format: 'avro' });
    const refused = await client.post('/echo', { a: 1 }, { reply: Note }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 406, code: 'WK_HTTP_NOT_ACCEPTABLE' });
    expect((refused as HttpResponseError).offered).toEqual([
      'application/json',
      'application/msgpack',
      'application/x-msgpack',
      'application/cbor',
    ]);
    const missing = await client.get('/nowhere').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(HttpResponseError);
    expect(missing).toMatchObject({ status: 404, code: 'WK_HTTP_STATUS' });
  });

  test('gzip request bodies, and a reply larger than maxInputBytes is refused while reading', async () => {
    const gzipping = createClient({ baseUrl, codecs: allFormats, format: 'json', gzipRequestsFrom: 10 });
    const user = sampleUsers[1] as User;
    expect(await gzipping.post('/users', user, { body: User, reply: User })).toMatchObject({ id: user.id });
    const small = createClient({
      baseUrl,
      codecs: allFormats,
      format: 'json',
      limits: { maxInputBytes: 1000 },
    });
    const error = await small.get('/users', { reply: UserList }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'WK_LIMIT_INPUT' });
  });

  test('asks for the list as one value, else its sequence; for a stream the other way round', async () => {
    const asked: [string, string][] = [];
    const recording: typeof fetch = (input, init) => {
      asked.push([String(input).replace(baseUrl, ''), new Headers(init?.headers).get('accept') ?? '']);
      return fetch(input, init);
    };
    for (const format of formatNames) {
      const client = createClient({ baseUrl, codecs: allFormats, format, fetch: recording });
      await client.get('/users', { reply: UserList });
      await collect(client.stream('/readings', { row: Reading, query: { count: 3 } }));
    }
    expect(asked).toEqual([
      ['/users', 'application/json, application/x-ndjson;q=0.9'],
      ['/readings?count=3', 'application/x-ndjson, application/json;q=0.5'],
      ['/users', 'application/msgpack, application/x-msgpack-seq;q=0.9'],
      ['/readings?count=3', 'application/x-msgpack-seq, application/msgpack;q=0.5'],
      ['/users', 'application/cbor, application/cbor-seq;q=0.9'],
      ['/readings?count=3', 'application/cbor-seq, application/cbor;q=0.5'],
      ['/users', 'application/x-protobuf, application/x-protobuf-delimited;q=0.9'],
      ['/readings?count=3', 'application/x-protobuf-delimited, application/x-protobuf;q=0.5'],
      ['/users', 'application/avro'],
      ['/readings?count=3', 'application/avro'],
      ['/users', 'application/x-flatbuffers, application/x-flatbuffers-seq;q=0.9'],
      ['/readings?count=3', 'application/x-flatbuffers-seq, application/x-flatbuffers;q=0.5'],
      ['/users', 'application/vnd.apache.arrow.stream'],
      ['/readings?count=3', 'application/vnd.apache.arrow.stream'],
    ]);
  });

  test('reads a list in whichever form a server sends, whatever it asked for', async () => {
    // A server that ignores Accept: each form of the list, under its own Content-Type.
    const rows = sampleUsers.slice(0, 5);
    const forms = [
      ['application/json', createCodec('json', { schema: UserList }).encode(rows)],
      ['application/x-ndjson', await bytesOf(createCodec('json', { schema: User }).encodeStream(rows))],
      ['application/cbor', createCodec('cbor', { schema: UserList }).encode(rows)],
      ['application/x-protobuf', createCodec('protobuf', { schema: UserList }).encode(rows)],
      [
        'application/x-flatbuffers-seq',
        await bytesOf(createCodec('flatbuffers', { schema: User }).encodeStream(rows)),
      ],
      ['application/x-flatbuffers', createCodec('flatbuffers', { schema: UserList }).encode(rows)],
    ] as const;
    for (const [type, bytes] of forms) {
      const serving: typeof fetch = async () =>
        new Response(new Uint8Array(bytes), { headers: { 'content-type': type } });
      const client = createClient({
        baseUrl: 'http://nowhere',
        codecs: allFormats,
        format: 'msgpack',
        fetch: serving,
      });
      expect(await client.get('/users', { reply: UserList }), type).toEqual(rows);
      expect(await collect(client.stream('/users', { row: User })), type).toEqual(rows);
    }
  });

  test('works over undici 7 as well as the global fetch', async () => {
    const client = createClient({
      baseUrl,
      codecs: allFormats,
      format: 'cbor',
      fetch: undiciFetch as unknown as typeof fetch,
    });
    expect(await client.get('/users', { reply: UserList })).toEqual(sampleUsers);
  });
});

describe("an error's format crosses the wire", () => {
  let own: FastifyInstance;
  let ownUrl: string;
  beforeAll(async () => {
    own = Fastify({ logger: false });
    await own.register(wirekit);
    // A real failure of a real codec: an Avro container asked for a codec Avro does not have.
    own.route(
      wirekitRoute({
        method: 'GET',
        url: '/container',
        reply: Note,
        handler: async () => {
          await writeContainer([], { schema: Note, codec: 'lzma' as 'null' });
          return { text: 'unreachable' };
        },
      }),
    );
    ownUrl = await own.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => own.close());

  // Arrow replies carry tables, not one record (its clients get error records in JSON, tested above).
  test.each(formatNames.filter((name) => name !== 'arrow'))('in a %s error record', async (format) => {
    const error = await createClient({ baseUrl: ownUrl, codecs: allFormats, format })
      .get('/container', { reply: Note })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpResponseError);
    expect(error).toMatchObject({ status: 500, code: 'WK_OPTIONS_INVALID', format: 'avro' });
    expect((error as Error).message).toBe('unknown container codec "lzma".');
  });
});

describe('the codecs a client is given', () => {
  test('a JSON-only client, and one whose formats load on first use, speak to the server', async () => {
    const json = createClient({ baseUrl, codecs: [jsonFormat] });
    expect(json.format).toBe('json');
    expect(await json.get('/users', { reply: UserList })).toEqual(sampleUsers);
    const lazy = createClient({ baseUrl, codecs: [lazyFormat('msgpack'), lazyFormat('json')] });
    expect(lazy.format).toBe('msgpack');
    expect(await collect(lazy.stream('/users', { row: User }))).toEqual(sampleUsers);
  });

  test('codecs that cannot serve the client are refused when it is made', () => {
    const codeOf = (make: () => unknown) => {
      try {
        make();
        return 'made';
      } catch (error) {
        return (error as { code?: string }).code;
      }
    };
    expect(codeOf(() => createClient({ baseUrl, codecs: [] }))).toBe('WK_OPTIONS_INVALID');
    expect(codeOf(() => createClient({ baseUrl, codecs: [jsonFormat], format: 'cbor' }))).toBe(
      'WK_UNKNOWN_FORMAT',
    );
    // A server sends its errors to an Arrow client in JSON.
    expect(codeOf(() => createClient({ baseUrl, codecs: [arrowFormat] }))).toBe('WK_OPTIONS_INVALID');
    expect(codeOf(() => createClient({ baseUrl, codecs: [arrowFormat, jsonFormat] }))).toBe('made');
  });

  test('a reply in a format the client was not given is refused, not loaded', async () => {
    // A client of MessagePack alone, whose fetch asks for JSON behind its back.
    const askingForJson: typeof fetch = (url, init) =>
      fetch(url, {
        ...init,
        headers: { ...(init?.headers as Record<string, string>), accept: 'application/json' },
      });
    const client = createClient({ baseUrl, codecs: [msgpackFormat], fetch: askingForJson });
    const error = await client.get('/users', { reply: UserList }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'WK_UNKNOWN_FORMAT' });
  });

  test('a call without a schema on a client of a schema-bound format without JSON is WK_SCHEMA_REQUIRED', async () => {
    const client = createClient({ baseUrl, codecs: [protobufFormat] });
    expect(await client.post('/echo', { a: 1 }).catch((e: unknown) => (e as { code?: string }).code)).toBe(
      'WK_SCHEMA_REQUIRED',
    );
  });
});
