/**
 * What ProtoJSON's parsers accept beyond the canonical form, and what they refuse, judged by
 * Python's json_format.Parse: for each text, either both accept it and mean the same message
 * (Python's deterministic bytes equal the binary codec's bytes of wirekit's value), or both refuse
 * it (wirekit with a typed WirekitError). The options (emitDefaults, ignoreUnknownFields) against
 * Python's own.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  createProtobufCodec,
  createProtoJsonCodec,
  schemaFromProto,
} from '../../../src/codecs/protobuf/index.js';
import { WirekitError } from '../../../src/errors/index.js';
import type { Schema } from '../../../src/schema/index.js';
import { protocDescriptorSet, protocIncludeDir } from '../../support/protoc.js';
import { has, venvPython, withTempDir } from '../../support/tools.js';

const proto = `
syntax = "proto3";
package pj.parse;
import "google/protobuf/duration.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";
import "google/protobuf/struct.proto";
enum Kind { KIND_UNSPECIFIED = 0; KIND_A = 1; KIND_B = 2; }
message Inner { int32 inner_value = 1; }
message Msg {
  int32 small_number = 1;
  int64 big_number = 2;
  uint64 unsigned_big = 3;
  uint32 unsigned_small = 4;
  float single = 5;
  double real = 6;
  bytes data = 7;
  Kind kind = 8;
  repeated Kind kinds = 9;
  map<int64, string> by_id = 10;
  map<uint32, int32> by_small = 11;
  google.protobuf.Timestamp at = 12;
  google.protobuf.Duration span = 13;
  google.protobuf.Int32Value wrapped = 14;
  Inner inner = 15;
  oneof pick { string pick_text = 16; int32 pick_number = 17; }
  bool flag = 18;
  string text = 19;
  google.protobuf.Value any_value = 20;
}
`;
const imports = (path: string) => readFileSync(join(protocIncludeDir, path), 'utf8');

const script = `
import json, sys
from google.protobuf import descriptor_pb2, json_format, message_factory
fds = descriptor_pb2.FileDescriptorSet()
fds.ParseFromString(open(sys.argv[1], 'rb').read())
cls = message_factory.GetMessages(fds.file)[sys.argv[2]]
request = json.load(sys.stdin)
out = []
for text in request['parse']:
    try:
        out.append(json_format.Parse(text, cls(), ignore_unknown_fields=request['ignore']).SerializeToString(deterministic=True).hex())
    except json_format.ParseError as e:
        out.append(None)
printed = []
for binary in request['print']:
    m = cls()
    m.ParseFromString(bytes.fromhex(binary))
    printed.append(json_format.MessageToJson(m, indent=None, always_print_fields_with_no_presence=True))
print(json.dumps({'parsed': out, 'printed': printed}))
`;

function python(request: { parse: string[]; print: string[]; ignore: boolean }) {
  return withTempDir((dir) => {
    const set = protocDescriptorSet(dir, 'file.proto', proto, { includeImports: true });
    const run = spawnSync(venvPython, ['-c', script, set, 'pj.parse.Msg'], {
      input: JSON.stringify(request),
      encoding: 'utf8',
      env: { ...process.env, PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION: 'python' },
    });
    expect(run.stderr).toBe('');
    return JSON.parse(run.stdout) as { parsed: (string | null)[]; printed: string[] };
  });
}

const accepted = [
  '{}',
  '{"small_number": 5, "big_number": 7}',
  '{"smallNumber": "12", "bigNumber": "-9223372036854775808"}',
  '{"smallNumber": 1e2, "bigNumber": 1.0}',
  '{"smallNumber": "1e2", "unsignedSmall": "4294967295"}',
  '{"bigNumber": 9007199254740991, "unsignedBig": "18446744073709551615"}',
  '{"single": "NaN", "real": "-Infinity"}',
  '{"single": "1.5", "real": "1e10"}',
  '{"single": 3.4028234663852886e38}',
  '{"data": "AQID"}',
  '{"data": "AQI"}',
  '{"data": "-_8"}',
  '{"data": "+/8="}',
  '{"data": "_-_-"}',
  '{"kind": "KIND_B", "kinds": ["KIND_A", 2, 0]}',
  '{"kind": 1}',
  '{"byId": {"-5": "a", "9223372036854775807": "b"}, "bySmall": {"4294967295": 1, "0": 2}}',
  '{"at": "2026-12-07T05:40:00Z"}',
  '{"at": "2026-12-07T05:40:00.123456789Z"}',
  '{"at": "2026-12-07T07:40:00.5+02:00"}',
  '{"at": "1972-06-30T23:59:59-00:30"}',
  '{"span": "0s"}',
  '{"span": "-0.000000001s"}',
  '{"span": "1.5s"}',
  '{"wrapped": 0}',
  '{"wrapped": null}',
  '{"inner": {"inner_value": 3}}',
  '{"inner": {}}',
  '{"inner": null, "kind": null, "bigNumber": null}',
  '{"pick_text": "a"}',
  '{"pickNumber": 0}',
  '{"flag": true, "text": ""}',
  '{"anyValue": null}',
  '{"anyValue": {"a": [1, "b", null, false]}}',
];

const refused = [
  '{"smallNumber": 1.5}',
  '{"smallNumber": 2147483648}',
  '{"smallNumber": "0x10"}',
  '{"smallNumber": true}',
  '{"bigNumber": "9223372036854775808"}',
  '{"unsignedBig": "-1"}',
  '{"unsignedSmall": -1}',
  '{"single": 3.5e38}',
  '{"single": "nan"}',
  '{"data": "A"}',
  '{"data": "A*"}',
  '{"kind": "KIND_C"}',
  '{"at": "2026-12-07 05:40:00Z"}',
  '{"at": "2026-02-30T00:00:00Z"}',
  '{"at": "2026-12-07T05:40:00"}',
  '{"at": "10000-01-01T00:00:00Z"}',
  '{"at": 0}',
  '{"span": "1.5"}',
  '{"span": "315576000001s"}',
  '{"pickText": "a", "pickNumber": 1}',
  '{"unknownField": 1}',
  '{"inner": {"nope": 1}}',
  '{"inner": 5}',
  '{"kinds": 1}',
  '{"byId": {"x": "a"}}',
  '{"bySmall": {"-1": 1}}',
  '{"bySmall": {"1.5": 1}}',
  '{"flag": "true"}',
  '{"text": 5}',
];

/**
 * Texts the specification rules out that Python's pure-Python parser lets through; wirekit refuses
 * them. Each says why.
 */
const stricter: readonly [string, string][] = [
  ['[]', 'a message is a JSON object (Python reads a list as an empty message)'],
  ['{"real": "1e400"}', 'a number past a double (Python reads it as Infinity)'],
  ['{"data": "AQ=D"}', 'padding inside base64 (Python decodes around it)'],
  ['{"data": "AQ==="}', 'too much padding'],
  ['{"kind": 7}', "a number no value has: wirekit's enums are closed (docs/mapping/protobuf.md)"],
  ['{"kind": true}', 'a boolean for an enum (Python takes it as the number 1)'],
  ['{"span": "1.0000000001s"}', 'a Duration has at most 9 fractional digits'],
  [
    '{"smallNumber": 1, "small_number": 2}',
    'one field under both its names (the specification refuses it; Python keeps the last)',
  ],
];

const Msg = schemaFromProto(proto, { imports }).types.get('pj.parse.Msg') as Schema;
const binary = createProtobufCodec({ schema: Msg });
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const utf8 = (text: string) => new TextEncoder().encode(text);

/**
 * Python's bytes as wirekit reads them back (a Date holds milliseconds, so a Timestamp's finer
 * nanoseconds are dropped, as the binary codec drops them), to compare with ours.
 */
const asWirekitHolds = (bytes: string | null) =>
  bytes === null ? null : hex(binary.encode(binary.decode(Buffer.from(bytes, 'hex'))));

/** wirekit's reading of a text: the binary codec's bytes of the value, or null when refused. */
function ours(text: string, ignoreUnknownFields = false): string | null {
  try {
    return hex(binary.encode(createProtoJsonCodec({ schema: Msg, ignoreUnknownFields }).decode(utf8(text))));
  } catch (error) {
    expect(error).toBeInstanceOf(WirekitError);
    return null;
  }
}

describe.skipIf(!(has('protoc') && has('venv:google.protobuf.json_format')))(
  'ProtoJSON parsing, judged by Python',
  () => {
    test('texts beyond the canonical form mean what they mean to json_format.Parse', () => {
      const { parsed } = python({ parse: accepted, print: [], ignore: false });
      expect(parsed.every((bytes) => bytes !== null)).toBe(true);
      expect(accepted.map((text) => ({ text, bytes: ours(text) }))).toEqual(
        accepted.map((text, i) => ({ text, bytes: asWirekitHolds(parsed[i] as string) })),
      );
    });

    test('texts json_format.Parse refuses are refused with a WirekitError', () => {
      const { parsed } = python({ parse: refused, print: [], ignore: false });
      expect(refused.map((text, i) => ({ text, python: parsed[i] }))).toEqual(
        refused.map((text) => ({ text, python: null })),
      );
      expect(refused.map((text) => ({ text, bytes: ours(text) }))).toEqual(
        refused.map((text) => ({ text, bytes: null })),
      );
    });

    test('texts the specification rules out and Python lets through are refused', () => {
      const texts = stricter.map(([text]) => text);
      const { parsed } = python({ parse: texts, print: [], ignore: false });
      expect(parsed.every((bytes) => bytes !== null)).toBe(true);
      expect(stricter.map(([text, why]) => ({ text, why, bytes: ours(text) }))).toEqual(
        stricter.map(([text, why]) => ({ text, why, bytes: null })),
      );
    });

    test('ignoreUnknownFields skips unknown keys and enum names, as ignore_unknown_fields does', () => {
      const texts = [
        '{"unknownField": {"x": [1]}, "smallNumber": 3}',
        '{"kind": "KIND_Z", "kinds": ["KIND_A", "KIND_Z"]}',
      ];
      const { parsed } = python({ parse: texts, print: [], ignore: true });
      expect(texts.map((text) => ours(text, true))).toEqual(parsed);
      expect(texts.map((text) => ours(text, false))).toEqual([null, null]);
    });

    test('emitDefaults writes what always_print_fields_with_no_presence writes', () => {
      const value = binary.decode(new Uint8Array(0));
      const { printed } = python({ parse: [], print: [hex(binary.encode(value))], ignore: false });
      const written = new TextDecoder().decode(
        createProtoJsonCodec({ schema: Msg, emitDefaults: true }).encode(value),
      );
      expect(JSON.parse(written)).toEqual(JSON.parse(printed[0] as string));
      expect(new TextDecoder().decode(createProtoJsonCodec({ schema: Msg }).encode(value))).toBe('{}');
    });
  },
);
