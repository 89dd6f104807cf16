/**
 * The media types a list travels in, per format and per kind of route (docs/http.md's table):
 * each type that is offered answers with the bytes it names, read back by the codecs alone (and by
 * Python's cbor2 and msgpack, protoc and flatc: forms-interop.test.ts); each that is not answers 406
 * with the types to ask for instead.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type HttpError, wirekit, wirekitRoute } from '../../../src/boundaries/http/index.js';
import { createCodec, type FormatName, formatNames } from '../../../src/codecs/index.js';
import { Reading } from '../../../src/lab/datasets/timeseries.js';
import { User } from '../../../src/lab/datasets/users.js';
import { t } from '../../../src/schema/index.js';
import { collect } from '../../support/streams.js';
import { buildApp, getBytes, readings, sampleUsers } from './app.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildApp();
});
afterAll(() => app.close());

/** What docs/http.md promises, written out here rather than read from the server's table. */
const forms: Record<FormatName, { whole: string[]; streamsWhole: boolean; sequence: string[] }> = {
  json: {
    whole: ['application/json'],
    streamsWhole: true,
    sequence: ['application/x-ndjson', 'application/jsonl'],
  },
  msgpack: {
    whole: ['application/msgpack', 'application/x-msgpack'],
    streamsWhole: false,
    sequence: ['application/x-msgpack-seq'],
  },
  cbor: { whole: ['application/cbor'], streamsWhole: true, sequence: ['application/cbor-seq'] },
  protobuf: {
    whole: ['application/x-protobuf', 'application/protobuf', 'application/vnd.google.protobuf'],
    streamsWhole: true,
    sequence: ['application/x-protobuf-delimited'],
  },
  avro: { whole: [], streamsWhole: false, sequence: ['application/avro'] },
  flatbuffers: {
    whole: ['application/x-flatbuffers', 'application/flatbuffers'],
    streamsWhole: false,
    sequence: ['application/x-flatbuffers-seq'],
  },
  arrow: { whole: [], streamsWhole: false, sequence: ['application/vnd.apache.arrow.stream'] },
};

async function* once(bytes: Uint8Array) {
  yield bytes;
}

const get = (url: string, accept: string) => getBytes(app, url, accept);

/** The list in a whole form, read by the codec of the list (Arrow: of its rows). */
function readWhole(format: FormatName, row: typeof User | typeof Reading, bytes: Uint8Array): unknown {
  const schema = format === 'arrow' ? row : t.array(row);
  return createCodec(format, { schema }).decode(bytes);
}

function readSequence(format: FormatName, row: typeof User | typeof Reading, bytes: Uint8Array) {
  return collect(createCodec(format, { schema: row }).decodeStream(once(bytes)));
}

const wholeCases = formatNames.flatMap((format) =>
  forms[format].whole.map((type) => [format, type] as const),
);
const sequenceCases = formatNames.flatMap((format) =>
  forms[format].sequence.map((type) => [format, type] as const),
);

describe('a list route (reply: t.array(User))', () => {
  test.each(wholeCases)('%s as one value: %s', async (format, type) => {
    const { response, bytes } = await get('/users', type);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe(type);
    expect(readWhole(format, User, bytes)).toEqual(sampleUsers);
  });

  test.each(sequenceCases)('%s as a sequence: %s', async (format, type) => {
    const { response, bytes } = await get('/users', type);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe(type);
    expect(await readSequence(format, User, bytes)).toEqual(sampleUsers);
  });

  test('an Avro datum type is not a list of records: 406, naming application/avro', async () => {
    const { response } = await get('/users', 'application/vnd.apache.avro+binary');
    expect(response.statusCode).toBe(406);
    const error = response.json() as HttpError;
    expect(error.offered).toContain('application/avro');
    expect(error.message).toContain('for avro ask for application/avro.');
  });
});

describe('a streamed route (stream: Reading)', () => {
  const rows = readings(250);

  test.each(wholeCases)('%s as one value: %s', async (format, type) => {
    const { response, bytes } = await get('/readings?count=250', type);
    if (!forms[format].streamsWhole) {
      // Needs every row before its first byte: refused, with the sequence type to ask for.
      expect(response.statusCode).toBe(406);
      const error = response.json() as HttpError;
      expect(error.offered).not.toContain(type);
      expect(error.offered).toContain(forms[format].sequence[0]);
      expect(error.message).toContain(`${type} is the whole list as one value`);
      expect(error.message).toContain(`for ${format} ask for ${forms[format].sequence[0]}.`);
      return;
    }
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe(type);
    expect(readWhole(format, Reading, bytes)).toEqual(rows);
  });

  test.each(sequenceCases)('%s as a sequence: %s', async (format, type) => {
    const { response, bytes } = await get('/readings?count=250', type);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe(type);
    expect(await readSequence(format, Reading, bytes)).toEqual(rows);
  });

  test('streamed Protobuf is byte for byte what the codec of the list writes; CBOR is 0x9f … 0xff', async () => {
    const protobuf = await get('/readings?count=250', 'application/x-protobuf');
    const list = createCodec('protobuf', { schema: t.array(Reading) });
    expect(Buffer.from(protobuf.bytes).equals(Buffer.from(list.encode(rows)))).toBe(true);
    const cbor = await get('/readings?count=250', 'application/cbor');
    const row = createCodec('cbor', { schema: Reading });
    const expected = Buffer.concat([
      Buffer.from([0x9f]),
      ...rows.map((r) => row.encode(r)),
      Buffer.from([0xff]),
    ]);
    expect(Buffer.from(cbor.bytes).equals(expected)).toBe(true);
  });

  test('zero rows: an empty message, an empty CBOR array', async () => {
    expect((await get('/readings?count=0', 'application/x-protobuf')).bytes).toHaveLength(0);
    const cbor = await get('/readings?count=0', 'application/cbor');
    expect([...cbor.bytes]).toEqual([0x9f, 0xff]);
    expect(readWhole('cbor', Reading, cbor.bytes)).toEqual([]);
  });

  test('a client that accepts application/* gets a JSON array; without JSON, CBOR', async () => {
    expect((await get('/readings?count=1', 'application/*')).response.headers['content-type']).toBe(
      'application/json',
    );
    const noJson = await get('/readings?count=1', 'application/*, application/json;q=0');
    expect(noJson.response.headers['content-type']).toBe('application/cbor');
  });
});

describe('a single-value route', () => {
  test('answers one value, not a sequence: 406 naming the plain type', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/users',
      headers: { 'content-type': 'application/json', accept: 'application/x-protobuf-delimited' },
      payload: JSON.stringify(sampleUsers[0]),
    });
    expect(response.statusCode).toBe(406);
    const error = response.json() as HttpError;
    expect(error.offered).toContain('application/x-protobuf');
    expect(error.offered).not.toContain('application/x-protobuf-delimited');
    expect(error.message).toContain('for protobuf ask for application/x-protobuf or');
  });
});

describe('a root that is not a record', () => {
  test('goes out in every format but Arrow, Protobuf and FlatBuffers inside their root wrapper', async () => {
    const own = Fastify();
    await own.register(wirekit);
    const Tags = t.array(t.string());
    own.route(wirekitRoute({ method: 'GET', url: '/count', reply: t.uint32(), handler: () => 42 }));
    own.route(
      wirekitRoute({
        method: 'POST',
        url: '/tags',
        body: Tags,
        reply: Tags,
        handler: (r) => r.body.toReversed(),
      }),
    );
    for (const format of formatNames.filter((f) => f !== 'arrow')) {
      const count = createCodec(format, { schema: t.uint32() });
      const got = await own.inject({ method: 'GET', url: '/count', headers: { accept: count.mediaType } });
      expect(got.statusCode, format).toBe(200);
      expect(count.decode(new Uint8Array(got.rawPayload))).toBe(42);
      const tags = createCodec(format, { schema: Tags });
      const posted = await own.inject({
        method: 'POST',
        url: '/tags',
        headers: { accept: tags.mediaType, 'content-type': tags.mediaType },
        payload: Buffer.from(tags.encode(['a', 'b'])),
      });
      expect(posted.statusCode, format).toBe(200);
      expect(tags.decode(new Uint8Array(posted.rawPayload))).toEqual(['b', 'a']);
    }
    const arrow = await own.inject({
      method: 'GET',
      url: '/count',
      headers: { accept: 'application/vnd.apache.arrow.stream' },
    });
    expect(arrow.statusCode).toBe(406);
    await own.close();
  });
});
