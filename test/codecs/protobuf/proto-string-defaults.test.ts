/**
 * A `.proto` string literal is bytes, as protoc reads it: its escapes (`\303\251`, `\xc3`, `\u00e9`)
 * are bytes and its text is UTF-8, and the whole literal (adjacent literals joined) is decoded as
 * UTF-8 for a string default and kept as bytes for a bytes default. The imported defaults equal
 * what protoc writes into the descriptor's `default_value`, toProto's printed file compiles back to
 * the same descriptor, and a string default whose bytes are not UTF-8 is refused where it stands.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { schemaFromProtoText } from '../../../src/codecs/protobuf/from-proto-file.js';
import { SchemaImportError } from '../../../src/errors/index.js';
import { toProto } from '../../../src/schema/export/index.js';
import type { ObjectSchema, Schema } from '../../../src/schema/index.js';
import { compareDescriptors, compileProto } from '../../support/proto-equivalence.js';
import { has, python, withTempDir } from '../../support/tools.js';

const proto = String.raw`syntax = "proto2";
package fidelity.v1;

message Defaults {
  optional string ascii = 1 [default = "plain text"];
  optional string octal = 2 [default = "caf\303\251"];
  optional string hex = 3 [default = "caf\xc3\xa9"];
  optional string split = 4 [default = "caf\xc3" '\xa9'];
  optional string unicode = 5 [default = "\u00e9\U0001F600 \uD83D\uDE00"];
  optional string raw = 6 [default = "café ☕"];
  optional string controls = 7 [default = "a\nb\t\"q\" \\ \'s\' \a\b\f\v\r\?"];
  optional bytes octets = 8 [default = "\000\001\377\x80ab"];
  optional bytes utf8 = 9 [default = "caf\303\251 é \u00e9"];
  optional bytes escapes = 10 [default = "\n\"\\'"];
  optional string empty = 11 [default = ""];
}
`;

/** Each field's `default_value` as protoc wrote it: a string's text, a bytes default's octets. */
function protocDefaults(set: string): Record<string, string | number[]> {
  const script = `
import codecs, json, sys
from google.protobuf import descriptor_pb2
fds = descriptor_pb2.FileDescriptorSet()
fds.ParseFromString(open(sys.argv[1], 'rb').read())
out = {}
for field in fds.file[0].message_type[0].field:
    if field.type == field.TYPE_BYTES:
        out[field.name] = list(codecs.escape_decode(field.default_value.encode('latin-1'))[0])
    else:
        out[field.name] = field.default_value
print(json.dumps(out))
`;
  const result = spawnSync(python, ['-c', script, set], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout);
}

function importedDefaults(): Record<string, unknown> {
  const schema = schemaFromProtoText(proto).types.get('fidelity.v1.Defaults') as ObjectSchema;
  return Object.fromEntries(
    schema.fields.map((field) => [
      field.name,
      field.default instanceof Uint8Array ? [...field.default] : field.default,
    ]),
  );
}

describe('string literals in .proto defaults are bytes, as protoc reads them', () => {
  test('escapes spell UTF-8 bytes: a string default is their text, a bytes default the bytes', () => {
    const defaults = importedDefaults();
    expect(defaults.octal).toBe('café');
    expect(defaults.hex).toBe('café');
    expect(defaults.split).toBe('café');
    expect(defaults.unicode).toBe('é😀 😀');
    expect(defaults.raw).toBe('café ☕');
    expect(defaults.octets).toEqual([0, 1, 255, 128, 97, 98]);
    expect(defaults.utf8).toEqual([...new TextEncoder().encode('café é é')]);
  });

  test('a string default whose bytes are not UTF-8 is refused at its line and column', () => {
    const text = 'syntax = "proto2";\nmessage M {\n  optional string s = 1 [default = "ab\\377"];\n}\n';
    const error = (() => {
      try {
        schemaFromProtoText(text);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(SchemaImportError);
    expect(error).toMatchObject({ code: 'WK_SCHEMA_IMPORT', line: 3, column: 26, format: 'protobuf' });
    expect((error as Error).message).toMatch(/the default of a string field must be UTF-8/);
    const lone = 'syntax = "proto2";\nmessage M {\n  optional string s = 1 [default = "\\uD83D"];\n}\n';
    expect(() => schemaFromProtoText(lone)).toThrow(/must be UTF-8/);
    // The same bytes are a bytes default's value.
    const bytes = 'syntax = "proto2";\nmessage M {\n  optional bytes b = 1 [default = "ab\\377"];\n}\n';
    const schema = schemaFromProtoText(bytes).types.get('M') as ObjectSchema;
    expect(schema.fields[0]?.default).toEqual(new Uint8Array([0x61, 0x62, 0xff]));
  });
});

describe.skipIf(!has('protoc') || !has('python:google.protobuf'))(
  'string and bytes defaults against protoc',
  () => {
    test('each imported default equals the default_value of protoc’s descriptor', () => {
      withTempDir((dir) => {
        writeFileSync(join(dir, 'defaults.proto'), proto);
        const expected = protocDefaults(compileProto(dir, [dir], 'defaults.proto'));
        expect(Object.keys(expected)).toHaveLength(11);
        expect(importedDefaults()).toEqual(expected);
      });
    });

    test('toProto’s printed file compiles to the same descriptor, defaults included', () => {
      const schema = schemaFromProtoText(proto).types.get('fidelity.v1.Defaults') as Schema;
      withTempDir((dir) => {
        writeFileSync(join(dir, 'defaults.proto'), proto);
        const original = compileProto(dir, [dir], 'defaults.proto');
        writeFileSync(join(dir, 'printed.proto'), toProto(schema));
        const printed = compileProto(dir, [dir], 'printed.proto');
        const result = compareDescriptors(original, printed, 'printed.proto');
        expect(result.differences).toEqual([]);
        expect(result.compared).toBe(1);
      });
    });
  },
);
