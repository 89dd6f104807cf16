/**
 * Protobuf written by protoc itself (`protoc --encode`) and by Python's protobuf, inspected without
 * --format: sniffed as Protobuf, shown field by field as `protoc --decode_raw` shows the same bytes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cli } from '../support/cli.js';
import { runPython } from '../support/python.js';
import { has } from '../support/tools.js';

const proto = `syntax = "proto3";
package demo;
message Address { string city = 1; fixed32 zip = 2; }
message Person {
  string name = 1;
  int64 id = 2;
  repeated string emails = 3;
  Address home = 4;
  double score = 5;
  bytes avatar = 6;
}
`;

describe.skipIf(!has('protoc'))('wirekit inspect of bytes protoc wrote', () => {
  test.each([
    // The name's length, 34, is '"': after the tag '\n' the bytes start as JSON text would.
    ['a message that starts like JSON text', 'x'.repeat(34)],
    ['a message with a short name', 'Ada'],
  ])('%s is sniffed as Protobuf and read as protoc --decode_raw reads it', async (_, name) => {
    const dir = mkdtempSync(join(tmpdir(), 'wirekit-sniff-'));
    try {
      writeFileSync(join(dir, 'person.proto'), proto);
      const text = `name: "${name}" id: 150 emails: "a@b.c" emails: "d@e.f" home { city: "Oslo" zip: 305 } score: 0.5 avatar: "\\377\\000\\001"`;
      const bytes = execFileSync('protoc', [`-I${dir}`, '--encode=demo.Person', join(dir, 'person.proto')], {
        input: text,
      });
      const decodeRaw = execFileSync('protoc', ['--decode_raw'], { input: bytes }).toString();
      expect(decodeRaw).toContain('4 {\n  1: "Oslo"\n  2: 0x00000131\n}');

      const { code, text: shown } = await cli(['inspect', '-', '--json'], bytes);
      expect(code).toBe(0);
      const report = JSON.parse(shown);
      expect(report).toMatchObject({ sniffed: ['protobuf'], format: 'protobuf', decoded: true });
      expect(report.protobufFields).toEqual([
        `1 (len, text): ${JSON.stringify(name)}`,
        '2 (varint): 150',
        '3 (len, text): "a@b.c"',
        '3 (len, text): "d@e.f"',
        '4 (len, message) {',
        '  1 (len, text): "Oslo"',
        '  2 (fixed32): 0x00000131',
        '}',
        '5 (fixed64): 0x3fe0000000000000',
        '6 (len, 3 bytes): /wAB',
      ]);
      // The same numbers and values as protoc's own raw reading.
      expect(decodeRaw).toContain('2: 150');
      expect(decodeRaw).toContain('5: 0x3fe0000000000000');
      expect(report.value).toMatchObject({ '1': name, '2': 150, '4': { '1': 'Oslo', '2': '0x00000131' } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!has('python:google.protobuf.descriptor_pb2'))(
  'wirekit inspect of bytes Python protobuf wrote',
  () => {
    test('a FileDescriptorProto, messages nested two deep, is sniffed and read field by field', async () => {
      const bytes = runPython(`
import sys
from google.protobuf import descriptor_pb2
file = descriptor_pb2.FileDescriptorProto(name="demo.proto", package="demo")
person = file.message_type.add(name="Person")
person.field.add(name="id", number=1, label=1, type=3)
sys.stdout.buffer.write(file.SerializeToString())
`);
      const { code, text } = await cli(['inspect', '-', '--json'], bytes);
      expect(code).toBe(0);
      const report = JSON.parse(text);
      expect(report).toMatchObject({ sniffed: ['protobuf'], format: 'protobuf' });
      expect(report.guess).toMatch(/^guessed protobuf \(raw field tree, no schema\)/);
      expect(report.protobufFields).toEqual([
        '1 (len, text): "demo.proto"',
        '2 (len, text): "demo"',
        '4 (len, message) {',
        '  1 (len, text): "Person"',
        '  2 (len, message) {',
        '    1 (len, text): "id"',
        '    3 (varint): 1',
        '    4 (varint): 1',
        '    5 (varint): 3',
        '  }',
        '}',
      ]);
    });
  },
);
