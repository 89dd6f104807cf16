/**
 * Integer types a schema declares for Protocol Buffers (`t.int32({ proto: 'sfixed32' })`) and
 * unpacked repeated fields (`t.array(x, { packed: false })`): toProto prints them as declared, and
 * both codecs (compiled and interpreted) write exactly the bytes Python protobuf's deterministic
 * serialization writes for the printed `.proto`, and read them back.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  checkCompatibility,
  parseRegisteredSchema,
} from '../../../src/boundaries/events/compatibility/index.js';
import { createProtobufCodec } from '../../../src/codecs/protobuf/index.js';
import { type Infer, schemaFromJson, schemaToJson, t, WirekitError } from '../../../src/index.js';
import { toProto } from '../../../src/schema/export/proto.js';
import { has, python, withTempDir } from '../../support/tools.js';

const Declared = t.object('Declared', {
  i32: t.int32({ proto: 'int32' }),
  s32: t.int32({ proto: 'sint32' }),
  f32: t.int32({ proto: 'sfixed32' }),
  u32: t.uint32({ proto: 'uint32' }),
  x32: t.uint32({ proto: 'fixed32' }),
  i8: t.int8({ proto: 'int32' }),
  u16: t.uint16({ proto: 'fixed32' }),
  i64: t.int64({ proto: 'int64' }),
  s64: t.int64({ proto: 'sint64' }),
  f64: t.int64({ proto: 'sfixed64' }),
  n64: t.int64({ as: 'number', proto: 'sfixed64' }),
  u64: t.uint64({ proto: 'uint64' }),
  x64: t.uint64({ proto: 'fixed64' }),
  packedI32: t.array(t.int32({ proto: 'int32' })),
  packedX64: t.array(t.uint64({ proto: 'fixed64' })),
  unpackedF32: t.array(t.int32({ proto: 'sfixed32' }), { packed: false }),
  unpackedI64: t.array(t.int64({ proto: 'int64' }), { packed: false }),
  unpackedFlags: t.array(t.bool(), { packed: false }),
  optI32: t.optional(t.int32({ proto: 'int32' })),
  byFixed: t.map(t.int32({ proto: 'sfixed32' }), t.uint64({ proto: 'fixed64' })),
});
type Declared = Infer<typeof Declared>;

const int32Min = -(2 ** 31);
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;
const uint64Max = 2n ** 64n - 1n;

const values: readonly Declared[] = [
  {
    i32: -1,
    s32: -1,
    f32: -1,
    u32: 1,
    x32: 1,
    i8: -128,
    u16: 65535,
    i64: -1n,
    s64: -1n,
    f64: -1n,
    n64: -5,
    u64: 1n,
    x64: 1n,
    packedI32: [-1, 0, 150, int32Min],
    packedX64: [0n, uint64Max],
    unpackedF32: [int32Min, 2 ** 31 - 1, 0],
    unpackedI64: [int64Min, 0n, int64Max],
    unpackedFlags: [true, false],
    optI32: 0,
    byFixed: new Map([
      [-7, 3n],
      [0, 0n],
      [9, uint64Max],
    ]),
  },
  {
    i32: int32Min,
    s32: 2 ** 31 - 1,
    f32: int32Min,
    u32: 2 ** 32 - 1,
    x32: 2 ** 32 - 1,
    i8: 127,
    u16: 0,
    i64: int64Min,
    s64: int64Max,
    f64: int64Min,
    n64: Number.MAX_SAFE_INTEGER,
    u64: uint64Max,
    x64: uint64Max,
    packedI32: [],
    packedX64: [],
    unpackedF32: [],
    unpackedI64: [],
    unpackedFlags: [],
    byFixed: new Map(),
  },
  {
    i32: 0,
    s32: 0,
    f32: 0,
    u32: 0,
    x32: 0,
    i8: 0,
    u16: 0,
    i64: 0n,
    s64: 0n,
    f64: 0n,
    n64: 0,
    u64: 0n,
    x64: 0n,
    packedI32: [0],
    packedX64: [0n],
    unpackedF32: [0],
    unpackedI64: [0n],
    unpackedFlags: [false],
    optI32: int32Min,
    byFixed: new Map([[int32Min, 0n]]),
  },
];

/** A value in protobuf text format, which Python reads into its message before serializing it. */
function textFormat(value: Declared): string {
  const lines: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined) continue;
    if (field instanceof Map) {
      for (const [k, v] of field) lines.push(`${key} { key: ${k} value: ${v} }`);
    } else if (Array.isArray(field)) {
      for (const item of field) lines.push(`${key}: ${item}`);
    } else {
      lines.push(`${key}: ${field}`);
    }
  }
  return lines.join('\n');
}

const pythonScript = `
import json, sys
from google.protobuf import descriptor_pb2, message_factory, text_format
fds = descriptor_pb2.FileDescriptorSet()
fds.ParseFromString(open(sys.argv[1], 'rb').read())
cls = message_factory.GetMessages(fds.file)['Declared']
print(json.dumps([text_format.Parse(text, cls()).SerializeToString(deterministic=True).hex()
                  for text in json.load(sys.stdin)]))
`;

/** Python protobuf's deterministic bytes of each value, from the `.proto` toProto prints. */
function pythonBytes(proto: string, texts: readonly string[]): string[] {
  return withTempDir((dir) => {
    writeFileSync(join(dir, 'declared.proto'), proto);
    const descriptors = join(dir, 'declared.pb');
    const compiled = spawnSync(
      'protoc',
      [`--proto_path=${dir}`, `--descriptor_set_out=${descriptors}`, 'declared.proto'],
      { encoding: 'utf8' },
    );
    expect(compiled.stderr).toBe('');
    const result = spawnSync(python, ['-c', pythonScript, descriptors], {
      input: JSON.stringify(texts),
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    return JSON.parse(result.stdout) as string[];
  });
}

const hex = (data: Uint8Array) => Buffer.from(data).toString('hex');

describe('declared Protocol Buffers types', () => {
  test('toProto prints each field as declared, unpacked lists with [packed = false]', () => {
    const proto = toProto(Declared);
    for (const line of [
      'int32 i32 = 1;',
      'sint32 s32 = 2;',
      'sfixed32 f32 = 3;',
      'uint32 u32 = 4;',
      'fixed32 x32 = 5;',
      'int32 i8 = 6;',
      'fixed32 u16 = 7;',
      'int64 i64 = 8;',
      'sint64 s64 = 9;',
      'sfixed64 f64 = 10;',
      'sfixed64 n64 = 11;',
      'uint64 u64 = 12;',
      'fixed64 x64 = 13;',
      'repeated int32 packedI32 = 14;',
      'repeated fixed64 packedX64 = 15;',
      'repeated sfixed32 unpackedF32 = 16 [packed = false];',
      'repeated int64 unpackedI64 = 17 [packed = false];',
      'repeated bool unpackedFlags = 18 [packed = false];',
      'optional int32 optI32 = 19;',
      'map<sfixed32, fixed64> byFixed = 20;',
    ]) {
      expect(proto).toContain(`  ${line}`);
    }
  });

  test('a schema that declares nothing keeps wirekit default types', () => {
    const proto = toProto(
      t.object('Plain', { a: t.int32(), b: t.uint32(), c: t.int64(), d: t.array(t.int8()) }),
    );
    expect(proto).toContain('  sint32 a = 1;');
    expect(proto).toContain('  uint32 b = 2;');
    expect(proto).toContain('  sint64 c = 3;');
    expect(proto).toContain('  repeated sint32 d = 4;');
    expect(proto).not.toContain('packed');
    expect(t.int32()).toEqual({ kind: 'int32' });
    expect(t.array(t.bool(), { packed: true })).toEqual({ kind: 'array', items: { kind: 'bool' } });
  });

  test('a type that does not fit the kind is refused when the schema is built', () => {
    const refused = (build: () => unknown) => {
      try {
        build();
      } catch (error) {
        return error instanceof WirekitError ? error.code : error;
      }
      return 'built';
    };
    expect(refused(() => t.int32({ proto: 'fixed32' as never }))).toBe('WK_SCHEMA_INVALID');
    expect(refused(() => t.uint8({ proto: 'sint32' as never }))).toBe('WK_SCHEMA_INVALID');
    expect(refused(() => t.uint64({ proto: 'int64' as never }))).toBe('WK_SCHEMA_INVALID');
    expect(refused(() => t.int64({ proto: 'int32' as never }))).toBe('WK_SCHEMA_INVALID');
    expect(refused(() => t.array(t.bool(), { packed: 'no' as never }))).toBe('WK_SCHEMA_INVALID');
  });

  test('the JSON form keeps declared types and packing', () => {
    const document = schemaToJson(Declared);
    const again = schemaFromJson(JSON.parse(JSON.stringify(document)));
    expect(toProto(again)).toBe(toProto(Declared));
    expect(schemaToJson(again)).toEqual(document);
    const codec = createProtobufCodec({ schema: again });
    const ours = createProtobufCodec({ schema: Declared });
    for (const value of values) expect(hex(codec.encode(value))).toBe(hex(ours.encode(value)));
    const bad = { format: 'wirekit-schema', version: 1, root: { kind: 'uint16', proto: 'sfixed32' } };
    expect(() => schemaFromJson(bad)).toThrow(/\$\.root: uint16: proto must be one of uint32, fixed32/);
  });

  test("the registry's Protobuf rules see a changed declared type in a WIREKIT schema", () => {
    const registered = (schema: Parameters<typeof schemaToJson>[0]) =>
      parseRegisteredSchema({ schemaType: 'WIREKIT', schema: JSON.stringify(schemaToJson(schema)) });
    const before = registered(t.object('M', { n: t.int32() }));
    const fixed = checkCompatibility(
      registered(t.object('M', { n: t.int32({ proto: 'sfixed32' }) })),
      [before],
      'BACKWARD',
    );
    expect(fixed.compatible).toBe(false);
    expect(fixed.messages[0]).toContain('FIELD_SCALAR_KIND_CHANGED');
    // Declaring the default changes no byte.
    const same = checkCompatibility(
      registered(t.object('M', { n: t.int32({ proto: 'sint32' }) })),
      [before],
      'BACKWARD',
    );
    expect(same.compatible).toBe(true);
  });

  for (const compile of [true, false]) {
    test(`${compile ? 'compiled' : 'interpreted'} codec: both forms of a repeated field are read`, () => {
      const codec = createProtobufCodec({ schema: Declared, compile });
      expect(codec.compiled).toBe(compile);
      const packed = createProtobufCodec({
        schema: t.object('P', { list: t.array(t.int64({ proto: 'int64' })) }),
        compile,
      });
      const unpacked = createProtobufCodec({
        schema: t.object('P', { list: t.array(t.int64({ proto: 'int64' }), { packed: false }) }),
        compile,
      });
      const list = [-1n, 2n];
      const a = packed.encode({ list });
      const b = unpacked.encode({ list });
      expect(hex(a)).toBe('0a0bffffffffffffffffff0102');
      expect(hex(b)).toBe('08ffffffffffffffffff010802');
      expect(packed.decode(b)).toEqual({ list });
      expect(unpacked.decode(a)).toEqual({ list });
    });
  }
});

describe.skipIf(!has('protoc') || !has('python:google.protobuf'))(
  'declared Protocol Buffers types: Python protobuf',
  () => {
    const theirs = pythonBytes(toProto(Declared), values.map(textFormat));
    for (const compile of [true, false]) {
      test(`${compile ? 'compiled' : 'interpreted'} codec writes Python's bytes and reads them`, () => {
        const codec = createProtobufCodec({ schema: Declared, compile });
        values.forEach((value, i) => {
          expect(hex(codec.encode(value))).toBe(theirs[i]);
          expect(codec.decode(new Uint8Array(Buffer.from(theirs[i] as string, 'hex')))).toEqual(value);
        });
      });
    }
  },
);
