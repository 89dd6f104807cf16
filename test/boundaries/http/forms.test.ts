/**
 * The media types a list travels in, per format and per kind of route (docs/http.md's table):
 * each type that is offered answers with the bytes it names, read back by the codecs alone (and by
 * Python's cbor2 and msgpack, protoc and flatc); each that is not answers 406 with the types to
 * ask for instead.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type HttpError, wirekit, wirekitRoute } from '../../../src/boundaries/http/index.js';
import { createCodec, type FormatName, formatNames } from '../../../src/codecs/index.js';
import { Reading } from '../../../src/lab/datasets/timeseries.js';
import { User } from '../../../src/lab/datasets/users.js';
import { toFlatBuffers, toProto } from '../../../src/schema/export/index.js';
import { t } from '../../../src/schema/index.js';
import { collect } from '../../support/streams.js';
import { has, python, withTempDir } from '../../support/tools.js';
import { buildApp, sampleUsers } from './app.js';

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

/** The readings that GET /readings?count=N streams (test/boundaries/http/app.ts). */
function readings(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    timestamp: new Date(1_700_000_000_000 + i * 1000),
    deviceId: `d${i % 7}`,
    temperature: 20 + (i % 10) / 4,
    humidity: 0.5,
  }));
}

async function get(url: string, accept: string) {
  const response = await app.inject({ method: 'GET', url, headers: { accept } });
  return { response, bytes: new Uint8Array(response.rawPayload) };
}

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

describe.skipIf(!has('python:cbor2'))('Python cbor2 reads a streamed indefinite-length array', () => {
  test('one array of every row, timestamps as datetimes', async () => {
    const { bytes } = await get('/readings?count=300', 'application/cbor');
    const out = spawnSync(
      python,
      [
        '-c',
        `import sys, json, cbor2
rows = cbor2.loads(sys.stdin.buffer.read())
assert isinstance(rows, list), type(rows)
print(json.dumps([[r['timestamp'].timestamp(), r['deviceId'], r['temperature'], r['humidity']] for r in rows]))`,
      ],
      { input: bytes, encoding: 'utf8' },
    );
    expect(out.stderr).toBe('');
    const expected = readings(300).map((r) => [
      r.timestamp.getTime() / 1000,
      r.deviceId,
      r.temperature,
      r.humidity,
    ]);
    expect(JSON.parse(out.stdout)).toEqual(expected);
  });
});

describe.skipIf(!has('python:msgpack'))('Python msgpack reads the MessagePack sequence', () => {
  test('Unpacker reads the rows back to back; unpackb reads the list as one value', async () => {
    const sequence = (await get('/readings?count=50', 'application/x-msgpack-seq')).bytes;
    const whole = (await get('/users', 'application/msgpack')).bytes;
    const out = spawnSync(
      python,
      [
        '-c',
        `import sys, json, msgpack
seq, whole = sys.stdin.buffer.read().split(b'--split--')
unpacker = msgpack.Unpacker(raw=False)
unpacker.feed(seq)
rows = [r['deviceId'] for r in unpacker]
users = msgpack.unpackb(whole, raw=False, timestamp=0)
print(json.dumps({'rows': rows, 'users': [u['id'] for u in users]}))`,
      ],
      { input: Buffer.concat([sequence, Buffer.from('--split--'), whole]), encoding: 'utf8' },
    );
    expect(out.stderr).toBe('');
    expect(JSON.parse(out.stdout)).toEqual({
      rows: readings(50).map((r) => r.deviceId),
      users: sampleUsers.map((u) => u.id),
    });
  });
});

describe.skipIf(!has('protoc'))(
  'protoc reads the list as one message, with the .proto toProto exports',
  () => {
    /** protoc --decode=Root of `bytes`, against toProto(schema). */
    function decode(schema: Parameters<typeof toProto>[0], bytes: Uint8Array): string {
      return withTempDir((dir) => {
        writeFileSync(join(dir, 'list.proto'), toProto(schema));
        const result = spawnSync('protoc', ['--decode=Root', `--proto_path=${dir}`, 'list.proto'], {
          input: bytes,
          cwd: dir,
          encoding: 'utf8',
        });
        expect(result.stderr).toBe('');
        return result.stdout;
      });
    }

    test('a streamed route: every row as field 1', async () => {
      const { bytes } = await get('/readings?count=3', 'application/x-protobuf');
      const text = decode(t.array(Reading), bytes);
      // protoc prints each repeated element as its own `value { … }` block, in order.
      expect(text.match(/^value \{/gm)).toHaveLength(3);
      expect([...text.matchAll(/deviceId: "(d\d)"/g)].map((m) => m[1])).toEqual(['d0', 'd1', 'd2']);
      expect(text).toContain('seconds: 1700000002');
    });

    test('a list route', async () => {
      const { bytes } = await get('/users', 'application/x-protobuf');
      const text = decode(t.array(User), bytes);
      expect(text.match(/^value \{/gm)).toHaveLength(sampleUsers.length);
      expect([...text.matchAll(/^ {2}id: (\d+)/gm)].map((m) => Number(m[1]))).toEqual(
        sampleUsers.map((u) => u.id),
      );
    });
  },
);

describe.skipIf(!has('flatc'))(
  'flatc reads the list as one FlatBuffer, with the schema toFlatBuffers exports',
  () => {
    test('a list route', async () => {
      const { bytes } = await get('/users', 'application/x-flatbuffers');
      const json = withTempDir((dir) => {
        writeFileSync(join(dir, 'list.fbs'), toFlatBuffers(t.array(User)));
        writeFileSync(join(dir, 'list.bin'), bytes);
        const result = spawnSync(
          'flatc',
          ['--json', '--strict-json', '--raw-binary', '-o', 'out', 'list.fbs', '--', 'list.bin'],
          { cwd: dir, encoding: 'utf8' },
        );
        expect(result.status, result.stderr).toBe(0);
        return JSON.parse(readFileSync(join(dir, 'out', 'list.json'), 'utf8')) as Record<string, unknown>;
      });
      const [field] = Object.keys(json);
      const items = json[field as string] as { id: number; email: string }[];
      expect(items.map((u) => [u.id, u.email])).toEqual(sampleUsers.map((u) => [u.id, u.email]));
    });
  },
);
