/**
 * The lists of the HTTP plugin read by other implementations (forms.test.ts has the media types
 * themselves): Python's cbor2 reads a streamed indefinite-length array, Python's msgpack the
 * MessagePack sequence and the whole list, protoc and flatc the list as one message or buffer,
 * against the schemas toProto and toFlatBuffers export.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Reading } from '../../../src/lab/datasets/timeseries.js';
import { User } from '../../../src/lab/datasets/users.js';
import { toFlatBuffers, toProto } from '../../../src/schema/export/index.js';
import { t } from '../../../src/schema/index.js';
import { has, python, withTempDir } from '../../support/tools.js';
import { buildApp, getBytes, readings, sampleUsers } from './app.js';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildApp();
});
afterAll(() => app.close());

const get = (url: string, accept: string) => getBytes(app, url, accept);

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
