/**
 * Sequences against independent implementations, both ways: what decodeSequence reads was written
 * by Python's msgpack, cbor2, protobuf and avro and by flatc, and what encodeSequence writes is
 * read back by them, value for value.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createCodec } from '../../src/codecs/registry.js';
import { t } from '../../src/index.js';
import { toAvro, toFlatBuffers, toProto } from '../../src/schema/export/index.js';
import { has, python, withTempDir } from '../support/tools.js';

const User = t.object('User', {
  id: t.int64({ as: 'number' }),
  name: t.string(),
  tags: t.array(t.string()),
  score: t.float64(),
});
const users = Array.from({ length: 30 }, (_, i) => ({
  id: i * 1000 + 7,
  name: `user ${i} é`,
  tags: Array.from({ length: i % 3 }, (_, j) => `t${j}`),
  score: i / 4,
}));
const usersJson = JSON.stringify(users);

/** Runs a Python script with `input` on standard input; gives its standard output. */
function runPython(script: string, args: readonly string[], input: string | Uint8Array = ''): Buffer {
  const result = spawnSync(python, ['-c', script, ...args], { input, maxBuffer: 64 * 1024 * 1024 });
  expect(result.stderr.toString()).toBe('');
  expect(result.status).toBe(0);
  return result.stdout;
}

describe.skipIf(!has('python:msgpack'))('MessagePack values back to back, with Python msgpack', () => {
  test('Python packs, wirekit reads; wirekit writes, Python unpacks', () => {
    const packed = runPython(
      'import json, sys, msgpack\nfor u in json.load(sys.stdin): sys.stdout.buffer.write(msgpack.packb(u))',
      [],
      usersJson,
    );
    expect(createCodec('msgpack', { schema: User }).decodeSequence(new Uint8Array(packed))).toEqual(users);
    expect(createCodec('msgpack').decodeSequence(new Uint8Array(packed))).toEqual(users);
    const ours = createCodec('msgpack', { schema: User }).encodeSequence(users);
    const back = runPython(
      'import json, sys, msgpack\nu = msgpack.Unpacker(raw=False)\nu.feed(sys.stdin.buffer.read())\nprint(json.dumps(list(u)))',
      [],
      ours,
    );
    expect(JSON.parse(back.toString())).toEqual(users);
  });
});

describe.skipIf(!has('python:cbor2'))('CBOR sequences (RFC 8742), with Python cbor2', () => {
  test('Python dumps, wirekit reads; wirekit writes, Python loads to the end', () => {
    const dumped = runPython(
      'import json, sys, cbor2\nfor u in json.load(sys.stdin): sys.stdout.buffer.write(cbor2.dumps(u))',
      [],
      usersJson,
    );
    expect(createCodec('cbor', { schema: User }).decodeSequence(new Uint8Array(dumped))).toEqual(users);
    const ours = createCodec('cbor', { schema: User }).encodeSequence(users);
    const back = runPython(
      `import io, json, sys, cbor2
data = sys.stdin.buffer.read()
f = io.BytesIO(data)
out = []
while f.tell() < len(data):
    out.append(cbor2.CBORDecoder(f).decode())
print(json.dumps(out))`,
      [],
      ours,
    );
    expect(JSON.parse(back.toString())).toEqual(users);
  });
});

describe.skipIf(!has('protoc') || !has('python:google.protobuf'))(
  'varint-delimited Protocol Buffers, with Python protobuf',
  () => {
    const script = `
import json, sys
from google.protobuf import descriptor_pb2, json_format, message_factory
from google.protobuf.internal.decoder import _DecodeVarint32
from google.protobuf.internal.encoder import _VarintBytes
fds = descriptor_pb2.FileDescriptorSet()
fds.ParseFromString(open(sys.argv[1], 'rb').read())
cls = message_factory.GetMessages(fds.file)['User']
if sys.argv[2] == 'write':
    for u in json.load(sys.stdin):
        body = json_format.ParseDict(u, cls()).SerializeToString(deterministic=True)
        sys.stdout.buffer.write(_VarintBytes(len(body)) + body)
else:
    data = sys.stdin.buffer.read()
    pos, out = 0, []
    while pos < len(data):
        size, pos = _DecodeVarint32(data, pos)
        out.append(json_format.MessageToDict(cls.FromString(data[pos:pos + size]), preserving_proto_field_name=True))
        pos += size
    print(json.dumps(out))
`;
    test('writeDelimited by Python, read by wirekit; wirekit writes, Python parses each', () => {
      const codec = createCodec('protobuf', { schema: User });
      withTempDir((dir) => {
        writeFileSync(join(dir, 'user.proto'), toProto(User));
        const descriptors = join(dir, 'user.pb');
        const compiled = spawnSync('protoc', [
          `--proto_path=${dir}`,
          `--descriptor_set_out=${descriptors}`,
          'user.proto',
        ]);
        expect(compiled.stderr.toString()).toBe('');
        const theirs = runPython(script, [descriptors, 'write'], usersJson);
        expect(codec.decodeSequence(new Uint8Array(theirs))).toEqual(users);
        expect(Buffer.from(codec.encodeSequence(users))).toEqual(theirs);
        const read = JSON.parse(
          runPython(script, [descriptors, 'read'], codec.encodeSequence(users)).toString(),
        );
        // proto3 JSON writes int64 as strings and leaves out defaults (empty lists, zeros).
        expect(read).toEqual(
          users.map((u) => ({
            ...(u.id !== 0 && { id: String(u.id) }),
            name: u.name,
            ...(u.tags.length > 0 && { tags: u.tags }),
            ...(u.score !== 0 && { score: u.score }),
          })),
        );
      });
    });
  },
);

describe.skipIf(!has('python:avro'))('Avro object container files, with Python avro', () => {
  const script = `
import json, sys
import avro.datafile, avro.io, avro.schema
if sys.argv[1] == 'write':
    schema = avro.schema.parse(sys.argv[3])
    with avro.datafile.DataFileWriter(open(sys.argv[2], 'wb'), avro.io.DatumWriter(), schema, codec=sys.argv[4]) as w:
        for u in json.load(sys.stdin):
            w.append(u)
else:
    with avro.datafile.DataFileReader(open(sys.argv[2], 'rb'), avro.io.DatumReader()) as r:
        print(json.dumps(list(r)))
`;
  test.each(['null', 'deflate'])(
    'a %s container from Python reads synchronously; Python reads ours',
    (codecName) => {
      const codec = createCodec('avro', { schema: User });
      withTempDir((dir) => {
        const file = join(dir, 'users.avro');
        runPython(script, ['write', file, JSON.stringify(toAvro(User)), codecName], usersJson);
        expect(codec.decodeSequence(new Uint8Array(readFileSync(file)))).toEqual(users);
        writeFileSync(file, codec.encodeSequence(users));
        expect(JSON.parse(runPython(script, ['read', file]).toString())).toEqual(users);
      });
    },
  );
});

describe.skipIf(!has('flatc'))('size-prefixed FlatBuffers, with flatc', () => {
  test('flatc writes size-prefixed buffers that wirekit reads as a sequence; flatc reads each of ours', () => {
    const codec = createCodec('flatbuffers', { schema: User });
    withTempDir((dir) => {
      writeFileSync(join(dir, 'user.fbs'), toFlatBuffers(User));
      const names = users.map((user, i) => {
        writeFileSync(join(dir, `u${i}.json`), JSON.stringify(user));
        return `u${i}.json`;
      });
      const flatc = (args: readonly string[]) => {
        const result = spawnSync('flatc', args, { cwd: dir, encoding: 'utf8' });
        expect(result.status, result.stderr).toBe(0);
      };
      flatc(['--binary', '--size-prefixed', '-o', 'bin', 'user.fbs', ...names]);
      const theirs = Buffer.concat(users.map((_, i) => readFileSync(join(dir, 'bin', `u${i}.bin`))));
      expect(codec.decodeSequence(new Uint8Array(theirs))).toEqual(users);

      // Ours, cut where each size prefix says, one file per frame for flatc.
      const ours = Buffer.from(codec.encodeSequence(users));
      const frames: string[] = [];
      for (let at = 0; at < ours.length; at += 4 + ours.readUInt32LE(at)) {
        writeFileSync(join(dir, `f${frames.length}.bin`), ours.subarray(at, at + 4 + ours.readUInt32LE(at)));
        frames.push(`f${frames.length}.bin`);
      }
      expect(frames).toHaveLength(users.length);
      flatc([
        '--json',
        '--strict-json',
        '--defaults-json',
        '--raw-binary',
        '--size-prefixed',
        '-o',
        'out',
        'user.fbs',
        '--',
        ...frames,
      ]);
      const read = frames.map((name) =>
        JSON.parse(readFileSync(join(dir, 'out', name.replace('.bin', '.json')), 'utf8')),
      );
      expect(read).toEqual(users);
    });
  });
});
