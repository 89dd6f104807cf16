/**
 * An imported google.protobuf.Timestamp holds the Timestamp's own years, 0001 to 9999 (issue 32):
 * Python protobuf writes Timestamps at both ends of the range and in between, and wirekit reads
 * them, compiled and interpreted; wirekit writes the same instants and Python reads them and writes
 * back the same bytes (deterministic serialization). Nanos finer than a millisecond are rounded
 * toward the past, as docs/survival.md says. Refusals just outside the range, in all seven formats,
 * are rows of test/codecs/cross-format-outcomes.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createProtobufCodec, schemaFromProto } from '../../../src/codecs/protobuf/index.js';
import type { ObjectSchema } from '../../../src/schema/types.js';
import { has, python, withTempDir } from '../../support/tools.js';

const include = '/usr/include';
const proto = `syntax = "proto3";
package years.v1;
import "google/protobuf/timestamp.proto";
message Stamped {
  google.protobuf.Timestamp at = 1;
  repeated google.protobuf.Timestamp many = 2;
}
`;

/** [seconds, nanos] as Python sets them, and the Date wirekit reads (nanos rounded down to ms). */
const instants: readonly (readonly [number, number, string])[] = [
  [-62_135_596_800, 0, '0001-01-01T00:00:00.000Z'],
  [-62_135_596_800, 999_999, '0001-01-01T00:00:00.000Z'],
  [-2_208_988_800, 123_456_789, '1900-01-01T00:00:00.123Z'],
  [-1, 999_999_999, '1969-12-31T23:59:59.999Z'],
  [0, 0, '1970-01-01T00:00:00.000Z'],
  [32_503_680_000, 1_000_000, '3000-01-01T00:00:00.001Z'],
  [253_402_300_799, 999_999_999, '9999-12-31T23:59:59.999Z'],
];

/** Reads {"write": [[s, n]...], "read": [hex...]}: writes a Stamped per instant, parses each hex. */
const pythonScript = `
import json, sys
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
case = json.load(sys.stdin)
fds = descriptor_pb2.FileDescriptorSet()
fds.ParseFromString(open(case['descriptors'], 'rb').read())
pool = descriptor_pool.DescriptorPool()
for f in fds.file: pool.Add(f)
desc = pool.FindMessageTypeByName('years.v1.Stamped')
cls = message_factory.GetMessageClass(desc) if hasattr(message_factory, 'GetMessageClass') else message_factory.MessageFactory(pool).GetPrototype(desc)
written = []
for s, n in case['write']:
    m = cls()
    m.at.seconds = s; m.at.nanos = n
    extra = m.many.add(); extra.seconds = s; extra.nanos = n
    written.append(m.SerializeToString(deterministic=True).hex())
read = []
for h in case['read']:
    m = cls(); m.ParseFromString(bytes.fromhex(h))
    read.append([m.at.ToJsonString(), [x.ToJsonString() for x in m.many], m.SerializeToString(deterministic=True).hex()])
print(json.dumps({'written': written, 'read': read}))
`;

const hex = (data: Uint8Array) => Buffer.from(data).toString('hex');

describe.skipIf(!has('protoc') || !has('python:google.protobuf'))(
  'google.protobuf.Timestamp from year 0001 to 9999',
  () => {
    const imports = (path: string) => readFileSync(join(include, path), 'utf8');
    const schema = schemaFromProto(proto, { imports }).types.get('years.v1.Stamped') as ObjectSchema;

    test('the imported field declares the Timestamp’s years', () => {
      const at = schema.fields.find((field) => field.name === 'at');
      expect(at?.schema).toEqual({
        kind: 'optional',
        inner: { kind: 'timestamp', precision: 'us', range: '0001-9999' },
      });
    });

    test.each([true, false])(
      'Python’s bytes read, and wirekit’s bytes are Python’s (compile: %s)',
      (compile) => {
        const codec = createProtobufCodec({ schema, compile });
        withTempDir((dir) => {
          writeFileSync(join(dir, 'years.proto'), proto);
          const descriptors = join(dir, 'years.pb');
          const protoc = spawnSync(
            'protoc',
            [
              `-I${dir}`,
              `-I${include}`,
              '--include_imports',
              `--descriptor_set_out=${descriptors}`,
              'years.proto',
            ],
            { encoding: 'utf8' },
          );
          expect(protoc.stderr).toBe('');
          const values = instants.map(([, , iso]) => ({ at: new Date(iso), many: [new Date(iso)] }));
          const ours = values.map((value) => hex(codec.encode(value)));
          const run = spawnSync(python, ['-c', pythonScript], {
            input: JSON.stringify({
              descriptors,
              write: instants.map(([seconds, nanos]) => [seconds, nanos]),
              read: ours,
            }),
            encoding: 'utf8',
          });
          expect(run.stderr).toBe('');
          const answer = JSON.parse(run.stdout) as { written: string[]; read: [string, string[], string][] };
          // wirekit reads each of Python's Timestamps, finer nanos rounded toward the past.
          expect(answer.written.map((bytes) => codec.decode(Buffer.from(bytes, 'hex')))).toEqual(values);
          // Python reads wirekit's as the same instants, and writes them back byte for byte.
          answer.read.forEach(([at, many, again], i) => {
            const iso = (instants[i] as readonly [number, number, string])[2];
            const json = iso.replace(/\.000Z$/, 'Z');
            expect([at, many, again]).toEqual([json, [json], ours[i]]);
          });
          // Where the nanos are whole milliseconds, Python's bytes are wirekit's.
          instants.forEach(([, nanos], i) => {
            if (nanos % 1_000_000 === 0) expect(ours[i]).toBe(answer.written[i]);
          });
        });
      },
    );
  },
);
