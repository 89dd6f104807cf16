/**
 * ProtoJSON against Python protobuf's json_format (the CI venv's protobuf 7.36.2, pure-Python
 * runtime for byte order: test/support/protoc.ts), both ways, over a corpus of every kind the
 * codec maps: wirekit's JSON parsed by `json_format.Parse` serializes (deterministically) to the
 * bytes wirekit's Protocol Buffers codec writes for the same value, and the JSON
 * `json_format.MessageToJson` prints for those bytes decodes in wirekit to the value the binary
 * codec reads from them. Two schemas: a `.proto` with the well-known types, imported, and a wirekit
 * schema (unions, eithers, decimals, nested lists) as `toProto` prints it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  createProtobufCodec,
  createProtoJsonCodec,
  schemaFromProto,
} from '../../../src/codecs/protobuf/index.js';
import { toProto } from '../../../src/schema/export/index.js';
import { type Schema, t } from '../../../src/schema/index.js';
import { arbitraryOf } from '../../support/proto-arbitrary.js';
import { protocDescriptorSet, protocIncludeDir } from '../../support/protoc.js';
import { has, venvPython, withTempDir } from '../../support/tools.js';

const script = `
import json, sys
from google.protobuf import descriptor_pb2, json_format, message_factory
fds = descriptor_pb2.FileDescriptorSet()
fds.ParseFromString(open(sys.argv[1], 'rb').read())
cls = message_factory.GetMessages(fds.file)[sys.argv[2]]
out = []
for text, binary in json.load(sys.stdin):
    parsed = json_format.Parse(text, cls()).SerializeToString(deterministic=True).hex()
    m = cls()
    m.ParseFromString(bytes.fromhex(binary))
    out.append([parsed, json_format.MessageToJson(m, indent=None)])
print(json.dumps(out))
`;

/** For each value: Python's bytes of wirekit's JSON, and Python's JSON of wirekit's bytes. */
function viaPython(proto: string, message: string, items: [string, string][]): [string, string][] {
  return withTempDir((dir) => {
    const set = protocDescriptorSet(dir, 'file.proto', proto, { includeImports: true });
    const run = spawnSync(venvPython, ['-c', script, set, message], {
      maxBuffer: 256 * 1024 * 1024,
      input: JSON.stringify(items),
      encoding: 'utf8',
      env: { ...process.env, PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION: 'python' },
    });
    expect(run.stderr).toBe('');
    return JSON.parse(run.stdout) as [string, string][];
  });
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function checkBothWays(schema: Schema, proto: string, message: string, values: readonly unknown[]): void {
  const binary = createProtobufCodec({ schema });
  const json = createProtoJsonCodec({ schema });
  const items = values.map((value): [string, string] => [
    text(json.encode(value)),
    hex(binary.encode(value)),
  ]);
  const answers = viaPython(proto, message, items);
  answers.forEach(([parsed, printed], i) => {
    const [ours, bytes] = items[i] as [string, string];
    // wirekit's JSON means, to Python, the message wirekit's binary codec writes.
    expect({ value: i, json: ours, bytes: parsed }).toEqual({ value: i, json: ours, bytes });
    // Python's JSON reads in wirekit as the binary codec reads the same message.
    const expected = binary.decode(Buffer.from(bytes, 'hex'));
    expect({ value: i, printed, decoded: json.decode(new TextEncoder().encode(printed)) }).toEqual({
      value: i,
      printed,
      decoded: expected,
    });
  });
}

const wellKnownProto = `
syntax = "proto3";
package pj.v1;
import "google/protobuf/duration.proto";
import "google/protobuf/empty.proto";
import "google/protobuf/field_mask.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";

enum Status { STATUS_UNSPECIFIED = 0; STATUS_OPEN = 1; STATUS_CLOSED = 5; STATUS_BROKEN = -2; }

message Line { string sku_code = 1; uint32 qty = 2; }

message Everything {
  bool flag = 1;
  int32 i32 = 2;
  sint32 s32 = 3;
  uint32 u32 = 4;
  fixed32 f32 = 5;
  sfixed32 sf32 = 6;
  int64 i64 = 7;
  sint64 s64 = 8;
  uint64 u64 = 9;
  fixed64 f64 = 10;
  sfixed64 sf64 = 11;
  float real32 = 12;
  double real64 = 13;
  string display_name = 14;
  bytes raw_data = 15;
  Status status = 16;
  repeated Status history = 17;
  repeated int64 big_list = 18;
  map<string, Line> lines_by_sku = 19;
  map<int32, string> names_by_id = 20;
  map<uint64, bool> flags_by_id = 21;
  optional int32 maybe = 22;
  oneof choice { string text_choice = 23; Line line_choice = 24; }
  google.protobuf.Timestamp created_at = 25;
  google.protobuf.Duration timeout = 26;
  google.protobuf.Int64Value big_wrapped = 27;
  google.protobuf.StringValue name_wrapped = 28;
  google.protobuf.BytesValue bytes_wrapped = 29;
  google.protobuf.FloatValue float_wrapped = 30;
  google.protobuf.BoolValue bool_wrapped = 31;
  google.protobuf.UInt32Value u32_wrapped = 32;
  google.protobuf.DoubleValue double_wrapped = 33;
  google.protobuf.Struct attributes = 34;
  google.protobuf.Value anything = 35;
  google.protobuf.ListValue list = 36;
  google.protobuf.FieldMask mask = 37;
  google.protobuf.Empty nothing = 38;
  repeated google.protobuf.Int32Value wrapped_list = 39;
  repeated Line lines = 40;
  repeated google.protobuf.Timestamp times = 41;
}
`;

const imports = (path: string) => readFileSync(join(protocIncludeDir, path), 'utf8');

const hasPeers = has('protoc') && has('venv:google.protobuf.json_format');

describe.skipIf(!hasPeers)('ProtoJSON and Python json_format agree both ways', () => {
  test('on a .proto with every scalar, enums, maps, oneofs and the well-known types', () => {
    const Everything = schemaFromProto(wellKnownProto, { imports }).types.get('pj.v1.Everything') as Schema;
    const line = { sku_code: 'A-1', qty: 2 };
    const values: unknown[] = [
      {},
      {
        flag: true,
        i32: -2147483648,
        s32: 2147483647,
        u32: 4294967295,
        f32: 7,
        sf32: -7,
        i64: -(2n ** 63n),
        s64: 2n ** 63n - 1n,
        u64: 2n ** 64n - 1n,
        f64: 9007199254740993n,
        sf64: -1n,
        real32: Math.fround(0.1),
        real64: 1e-300,
        display_name: 'café ☕ "quoted" \\ \n',
        raw_data: new Uint8Array([0, 1, 2, 250, 251, 252, 253, 254, 255]),
        status: 'STATUS_CLOSED',
        history: ['STATUS_OPEN', 'STATUS_UNSPECIFIED', 'STATUS_BROKEN'],
        big_list: [1n, -1n, 123456789012345678n],
        lines_by_sku: { b: line, a: { sku_code: '', qty: 0 } },
        names_by_id: new Map([
          [-5, 'minus five'],
          [3, 'three'],
        ]),
        flags_by_id: new Map([[18446744073709551615n, true]]),
        maybe: 0,
        text_choice: 'picked',
        created_at: new Date('2026-12-07T05:40:01.123Z'),
        timeout: { seconds: -3n, nanos: -500000000 },
        big_wrapped: 0n,
        name_wrapped: '',
        bytes_wrapped: new Uint8Array([255]),
        float_wrapped: Number.NaN,
        bool_wrapped: false,
        u32_wrapped: 0,
        double_wrapped: Number.NEGATIVE_INFINITY,
        attributes: { nested: { list: [1, 'two', null, true, { deep: [] }] }, n: -0.5 },
        anything: null,
        list: [[], {}, 'x'],
        mask: { paths: ['display_name', 'lines_by_sku.qty'] },
        nothing: {},
        wrapped_list: [{ value: 0 }, { value: -1 }],
        lines: [line, { sku_code: 'Z', qty: 4294967295 }],
        times: [new Date(0), new Date('0001-01-01T00:00:00Z'), new Date('9999-12-31T23:59:59.999Z')],
      },
      {
        real32: Number.POSITIVE_INFINITY,
        real64: Number.NaN,
        line_choice: { sku_code: 'in a oneof', qty: 1 },
        timeout: { seconds: 315576000000n, nanos: 999999999 },
        created_at: new Date('1969-12-31T23:59:59.999Z'),
        anything: { a: 1.5 },
        double_wrapped: -0,
        mask: { paths: [] },
      },
      {
        timeout: { seconds: 0n, nanos: 340012 },
        anything: 'text',
        real64: 5e-324,
        real32: 3.4028234663852886e38,
      },
      { anything: [1, [2, [3]]], i64: 9007199254740993n, real64: 1.7976931348623157e308 },
    ];
    // Each value is the message with no field set (every field at its default) and the fields given.
    const defaults = createProtobufCodec({ schema: Everything }).decode(new Uint8Array(0)) as object;
    const full = values.map((value) => ({ ...defaults, ...(value as object) }));
    checkBothWays(Everything, wellKnownProto, 'pj.v1.Everything', full);
  });

  test('on a wirekit schema as toProto prints it: unions, eithers, decimals, lists of lists, optional lists, json', () => {
    const Circle = t.object('Circle', { kind: t.literal('circle'), radius: t.float64() });
    const Square = t.object('Square', { kind: t.literal('square'), side_length: t.float64() });
    const Doc = t.object('Doc', {
      docId: t.int64(),
      small: t.int8(),
      shape: t.union('Shape', 'kind', [Circle, Square]),
      either: t.either([t.string(), t.int32(), Circle]),
      price: t.decimal({ precision: 12, scale: 2 }),
      grid: t.array(t.array(t.int32())),
      tags: t.optional(t.array(t.string())),
      color: t.enum('Color', ['red', 'dark-green']),
      note: t.optional(t.nullable(t.string())),
      at: t.timestamp({ precision: 'ms' }),
      meta: t.json(),
      byName: t.map(t.string(), t.array(t.int64({ as: 'number' }))),
    });
    const proto = toProto(Doc, { package: 'pj.doc' });
    const values = [
      {
        docId: 1n,
        small: -128,
        shape: { kind: 'circle', radius: 1.5 },
        either: 'text',
        price: '12.30',
        grid: [[1, 2], [], [3]],
        color: 'red',
        at: new Date(0),
        meta: null,
        byName: {},
      },
      {
        docId: -(2n ** 63n),
        small: 127,
        shape: { kind: 'square', side_length: 0 },
        either: { kind: 'circle', radius: 2 },
        price: '-0.01',
        grid: [],
        tags: [],
        color: 'dark-green',
        note: 'n',
        at: new Date('2000-02-29T12:00:00.5Z'),
        meta: { a: [1, { b: 'c' }] },
        byName: { x: [1, -9007199254740991] },
      },
      {
        docId: 0n,
        small: 0,
        shape: { kind: 'square', side_length: -1 },
        either: -5,
        price: '0',
        grid: [[0]],
        tags: ['a', 'b'],
        color: 'red',
        at: new Date('2026-01-01T00:00:00Z'),
        meta: 'just text',
        byName: { y: [] },
      },
    ];
    checkBothWays(Doc, proto, 'pj.doc.Doc', values);
  });

  test('on 200 random values of a recursive message with every scalar, maps and a oneof', () => {
    const proto = `
      syntax = "proto3";
      package pj.random;
      enum Mood { MOOD_UNSPECIFIED = 0; MOOD_GOOD = 1; MOOD_BAD = -3; }
      message Node {
        int32 a = 1; sint64 b = 2; uint64 c = 3; fixed64 d = 4; float e = 5; double f = 6;
        string g = 7; bytes h = 8; bool i = 9; Mood mood = 10; sfixed32 j = 11; fixed32 k = 12;
        repeated Node children = 13;
        map<string, Node> named = 14;
        map<int64, Mood> moods = 15;
        optional string note = 16;
        oneof either { string left = 17; Node right = 18; }
        repeated double reals = 19;
        repeated int64 longs = 20;
      }
    `;
    const Node = schemaFromProto(proto).types.get('pj.random.Node') as Schema;
    const values = fc.sample(arbitraryOf(Node, 0), { numRuns: 200, seed: 3434 });
    checkBothWays(Node, proto, 'pj.random.Node', values);
  });
});
