/**
 * Interop with independent implementations of Protocol Buffers, both ways, on the schemas that
 * `toProto` exports: protoc (C++, text format in and out) and Debian's Python protobuf (message
 * classes built from protoc's descriptor set). Byte identity is checked against Python's
 * deterministic serialization, which is what protoc-generated code writes.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createProtobufCodec } from '../../../src/codecs/protobuf/index.js';
import { type Schema, t } from '../../../src/index.js';
import { toProto } from '../../../src/schema/export/proto.js';
import { Color, EveryKind, everyKindValue } from '../../fixtures/every-kind.js';
import { has, python, withTempDir } from '../../support/tools.js';

const hex = (data: Uint8Array) => Buffer.from(data).toString('hex');
const fromHex = (text: string) => new Uint8Array(Buffer.from(text, 'hex'));

/** A string in protobuf text format: quotes and backslashes escaped, UTF-8 kept as is. */
const quoted = (text: string) => `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

/** everyKindValue() in protobuf text format, map entries deliberately out of key order. */
const everyKindText = `
flag: true
i8: -128
i16: 32767
i32: -2147483648
u8: 255
u16: 65535
u32: 4294967295
i64: -9223372036854775808
u64: 18446744073709551615
i64n: 9007199254740991
f32: 1.5
f64: -0.1
price: "-1234567890.12"
name: "Zoë 🚀"
blob: "\\000\\001\\002\\376\\377"
createdAt { seconds: 1709210096 nanos: 789000000 }
updatedAt { seconds: -1 nanos: 999000000 }
color: COLOR_GREEN
home { street: "1 Main St" zip: "12345" }
tags: "a"
tags: ""
tags: "ünïcödé"
matrix { items: [1, 2] }
matrix { }
matrix { items: 3 }
scores { key: "math" value: 9.5 }
scores { key: "art" value: -1 }
byId { key: 7 value { street: "Elm" zip: "9" } }
byId { key: -1 value { } }
shape { circle { radius: 2 } }
shapes { rect { width: 1 height: 2.5 } }
shapes { circle { } }
extra: ${quoted(JSON.stringify(everyKindValue().extra))}
legacy: "old"
category { name: "root" children { name: "leaf" } }
`;

/** Edge values where implementations tend to differ: -0, NaN, infinities, presence, key order. */
const Wire = t.object('Wire', {
  negZero32: t.float32(),
  negZero64: t.float64(),
  nan32: t.float32(),
  nan64: t.float64(),
  inf: t.float64(),
  ninf: t.float32(),
  zero: t.int32(),
  optZero: t.optional(t.int32()),
  optEmpty: t.optional(t.string()),
  nulFalse: t.nullable(t.bool()),
  big: t.uint64(),
  small: t.int64(),
  keys: t.map(t.string(), t.int32()),
  ukeys: t.map(t.uint64(), t.bool()),
  ikeys: t.map(t.int64(), t.string()),
  optList: t.optional(t.array(t.int32())),
  opts: t.array(t.optional(t.int32())),
  lits: t.array(t.literal(2.5)),
  color: Color,
  colors: t.array(Color),
  when: t.timestamp(),
});

const wireValue = {
  negZero32: -0,
  negZero64: -0,
  nan32: Number.NaN,
  nan64: Number.NaN,
  inf: Number.POSITIVE_INFINITY,
  ninf: Number.NEGATIVE_INFINITY,
  zero: 0,
  optZero: 0,
  optEmpty: '',
  nulFalse: false,
  big: 2n ** 64n - 1n,
  small: -1n,
  keys: { '🚀': 1, '\uE000': 2, b: 0, a: -1, '10': 3, '9': 4 },
  ukeys: new Map([
    [2n ** 63n, true],
    [1n, false],
    [0n, true],
  ]),
  ikeys: new Map([
    [1n, 'x'],
    [-(2n ** 63n), 'min'],
    [0n, ''],
  ]),
  optList: [],
  opts: [1, undefined, 0],
  lits: [2.5, 2.5],
  color: 'red',
  colors: ['red', 'blue', 'red'],
  when: new Date(0),
};

const wireText = `
negZero32: -0
negZero64: -0
nan32: nan
nan64: nan
inf: inf
ninf: -inf
optZero: 0
optEmpty: ""
nulFalse: false
big: 18446744073709551615
small: -1
keys { key: "🚀" value: 1 } keys { key: "\uE000" value: 2 } keys { key: "b" value: 0 }
keys { key: "a" value: -1 } keys { key: "10" value: 3 } keys { key: "9" value: 4 }
ukeys { key: 9223372036854775808 value: true } ukeys { key: 1 value: false } ukeys { key: 0 value: true }
ikeys { key: 1 value: "x" } ikeys { key: -9223372036854775808 value: "min" } ikeys { key: 0 value: "" }
optList { }
opts { value: 1 } opts { } opts { value: 0 }
lits: [2.5, 2.5]
colors: [COLOR_RED, COLOR_BLUE, COLOR_RED]
when { }
`;

/** A map-heavy message, the shape of the id-keyed catalog: thousands of entries, every key kind. */
const MapHeavy = t.object('MapHeavy', {
  names: t.map(t.string(), t.string()),
  events: t.map(
    t.string(),
    t.object('Event', {
      id: t.int32(),
      name: t.string(),
      logo: t.nullable(t.string()),
      topicIds: t.array(t.int32()),
      color: Color,
    }),
  ),
  blobs: t.map(t.int64(), t.bytes()),
  times: t.map(t.uint32({ proto: 'fixed32' }), t.timestamp()),
  ratios: t.map(t.int32({ proto: 'sint32' }), t.float64()),
  totals: t.map(t.uint64(), t.int64({ proto: 'sfixed64' })),
  nested: t.map(t.string(), t.map(t.int32(), t.string())),
  lists: t.map(t.string(), t.array(t.int32())),
});

/** Keys in no order: ids of 1 to 9 digits (so numeric order is not byte order), prefixes, non-ASCII. */
function mapHeavyValue() {
  const ids = Array.from({ length: 2000 }, (_, i) => String((i * 7_919_993) % 999_999_937));
  const colors = ['red', 'green', 'blue'] as const;
  return {
    names: Object.fromEntries(
      [...ids.slice(0, 500), 'a', 'ab', 'é', '🚀', '\uE000', ''].map((id) => [id, `name ${id}`]),
    ),
    events: Object.fromEntries(
      ids.map((id, i) => [
        id,
        {
          id: i,
          name: `Événement ${i}`,
          logo: i % 3 === 0 ? null : `/logo/${i}.png`,
          topicIds: [i, i + 1],
          color: colors[i % 3] as string,
        },
      ]),
    ),
    blobs: new Map([
      [5n, new Uint8Array([1, 2])],
      [-(2n ** 63n), new Uint8Array(0)],
      [0n, new Uint8Array([255])],
    ]),
    times: new Map([
      [2 ** 32 - 1, new Date(1_700_000_000_123)],
      [0, new Date(0)],
      [7, new Date(-1)],
    ]),
    ratios: new Map([
      [-3, -0.5],
      [3, 0],
      [-(2 ** 31), Number.MAX_VALUE],
    ]),
    totals: new Map([
      [2n ** 64n - 1n, -1n],
      [1n, 2n ** 63n - 1n],
      [0n, 0n],
    ]),
    nested: {
      b: new Map([
        [2, 'two'],
        [-1, ''],
      ]),
      a: new Map(),
    },
    lists: Object.fromEntries(ids.slice(0, 300).map((id, i) => [id, [i, -i]])),
  };
}

interface Compiled {
  readonly dir: string;
  readonly descriptors: string;
}

/** Writes the schema's .proto, compiles it to a descriptor set, and runs `body` with both. */
function withProto<T>(schema: Schema, body: (compiled: Compiled) => T): T {
  return withTempDir((dir) => {
    writeFileSync(join(dir, 'schema.proto'), toProto(schema));
    const descriptors = join(dir, 'schema.pb');
    const result = spawnSync(
      'protoc',
      [`--proto_path=${dir}`, '--include_imports', `--descriptor_set_out=${descriptors}`, 'schema.proto'],
      { encoding: 'utf8', cwd: dir },
    );
    expect(result.stderr).toBe('');
    return body({ dir, descriptors });
  });
}

function protoc(compiled: Compiled, mode: 'encode' | 'decode', message: string, input: Uint8Array | string) {
  const result = spawnSync(
    'protoc',
    [`--${mode}=${message}`, `--proto_path=${compiled.dir}`, 'schema.proto'],
    {
      input,
      cwd: compiled.dir,
    },
  );
  // The only chatter allowed: protoc warns that the text sets the deprecated field `legacy`.
  expect(result.stderr.toString().replace(/.*deprecated field "legacy"\n/, '')).toBe('');
  expect(result.status).toBe(0);
  return result.stdout;
}

/**
 * Python protobuf over a descriptor set: parses `hex` (wirekit's bytes) and reports the message as
 * proto3 JSON plus its deterministic re-serialization; serializes `text` (text format) deterministically.
 */
const pythonScript = `
import json, sys
from google.protobuf import descriptor_pb2, json_format, message_factory, text_format
fds = descriptor_pb2.FileDescriptorSet()
fds.ParseFromString(open(sys.argv[1], 'rb').read())
cls = message_factory.GetMessages(fds.file)[sys.argv[2]]
request = json.load(sys.stdin)
out = {}
if 'hex' in request:
    message = cls.FromString(bytes.fromhex(request['hex']))
    out['json'] = json_format.MessageToDict(message, preserving_proto_field_name=True)
    out['reserialized'] = message.SerializeToString(deterministic=True).hex()
if 'text' in request:
    out['hex'] = text_format.Parse(request['text'], cls()).SerializeToString(deterministic=True).hex()
print(json.dumps(out))
`;

interface PythonResult {
  readonly json?: Record<string, unknown>;
  readonly reserialized?: string;
  readonly hex?: string;
}

function runPython(
  compiled: Compiled,
  message: string,
  request: { hex?: string; text?: string },
): PythonResult {
  const result = spawnSync(python, ['-c', pythonScript, compiled.descriptors, message], {
    input: JSON.stringify(request),
    encoding: 'utf8',
  });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as PythonResult;
}

const every = createProtobufCodec({ schema: EveryKind });
const wire = createProtobufCodec({ schema: Wire });

describe.skipIf(!has('protoc'))('protobuf interop: protoc', () => {
  test('protoc --decode reads wirekit bytes of EveryKind', () => {
    const text = withProto(EveryKind, (compiled) =>
      protoc(compiled, 'decode', 'EveryKind', every.encode(everyKindValue())).toString('utf8'),
    );
    for (const line of [
      'i64: -9223372036854775808',
      'u64: 18446744073709551615',
      'u32: 4294967295',
      'i64n: 9007199254740991',
      'f64: -0.1',
      'price: "-1234567890.12"',
      'name: "Zo\\303\\253 \\360\\237\\232\\200"',
      'blob: "\\000\\001\\002\\376\\377"',
      'color: COLOR_GREEN',
      'createdAt {\n  seconds: 1709210096\n  nanos: 789000000\n}',
      'updatedAt {\n  seconds: -1\n  nanos: 999000000\n}',
      'matrix {\n  items: 1\n  items: 2\n}\nmatrix {\n}\nmatrix {\n  items: 3\n}',
      'scores {\n  key: "art"\n  value: -1\n}\nscores {\n  key: "math"\n  value: 9.5\n}',
      'byId {\n  key: -1\n  value {\n  }\n}',
      'shape {\n  circle {\n    radius: 2\n  }\n}',
      'shapes {\n  rect {\n    width: 1\n    height: 2.5\n  }\n}\nshapes {\n  circle {\n  }\n}',
      'legacy: "old"',
      'category {\n  name: "root"\n  children {\n    name: "leaf"\n  }\n}',
    ]) {
      expect(text).toContain(line);
    }
    expect(text).not.toContain('manager');
    expect(text).not.toContain('version');
  });

  test('wirekit decodes what protoc --encode writes from text format', () => {
    const encoded = withProto(EveryKind, (compiled) =>
      protoc(compiled, 'encode', 'EveryKind', everyKindText),
    );
    expect(every.decode(new Uint8Array(encoded))).toEqual(everyKindValue());
  });

  test('edge values: protoc --encode to wirekit, and wirekit to protoc --decode', () => {
    withProto(Wire, (compiled) => {
      const encoded = protoc(compiled, 'encode', 'Wire', wireText);
      expect(wire.decode(new Uint8Array(encoded))).toEqual(wireValue);
      const text = protoc(compiled, 'decode', 'Wire', wire.encode(wireValue)).toString('utf8');
      for (const line of [
        'negZero32: -0',
        'nan64: nan',
        'ninf: -inf',
        'optZero: 0',
        'optEmpty: ""',
        'small: -1',
      ]) {
        expect(text).toContain(line);
      }
      expect(text).toContain('optList {\n}');
      expect(text).toContain('opts {\n  value: 1\n}\nopts {\n}\nopts {\n  value: 0\n}');
      expect(text).not.toMatch(/^zero:/m);
    });
  });
});

describe.skipIf(!has('protoc') || !has('python:google.protobuf'))('protobuf interop: Python protobuf', () => {
  test('Python parses wirekit bytes of EveryKind into the expected message', () => {
    const { json } = withProto(EveryKind, (compiled) =>
      runPython(compiled, 'EveryKind', { hex: hex(every.encode(everyKindValue())) }),
    );
    expect(json).toEqual({
      flag: true,
      i8: -128,
      i16: 32767,
      i32: -2147483648,
      u8: 255,
      u16: 65535,
      u32: 4294967295,
      i64: '-9223372036854775808',
      u64: '18446744073709551615',
      i64n: '9007199254740991',
      f32: 1.5,
      f64: -0.1,
      price: '-1234567890.12',
      name: 'Zoë 🚀',
      blob: 'AAEC/v8=',
      createdAt: '2024-02-29T12:34:56.789Z',
      updatedAt: '1969-12-31T23:59:59.999Z',
      color: 'COLOR_GREEN',
      home: { street: '1 Main St', zip: '12345' },
      tags: ['a', '', 'ünïcödé'],
      matrix: [{ items: [1, 2] }, {}, { items: [3] }],
      scores: { math: 9.5, art: -1 },
      byId: { '7': { street: 'Elm', zip: '9' }, '-1': {} },
      shape: { circle: { radius: 2 } },
      shapes: [{ rect: { width: 1, height: 2.5 } }, { circle: {} }],
      extra: JSON.stringify(everyKindValue().extra),
      legacy: 'old',
      category: { name: 'root', children: [{ name: 'leaf' }] },
    });
  });

  test('byte identity: Python serializes the fixture (deterministic) to exactly wirekit bytes, and back', () => {
    const ours = every.encode(everyKindValue());
    const { hex: theirs, reserialized } = withProto(EveryKind, (compiled) => ({
      ...runPython(compiled, 'EveryKind', { text: everyKindText }),
      ...runPython(compiled, 'EveryKind', { hex: hex(ours) }),
    }));
    expect(theirs).toBe(hex(ours));
    expect(reserialized).toBe(hex(ours));
    expect(every.decode(fromHex(theirs as string))).toEqual(everyKindValue());
  });

  test('byte identity on edge values: -0, NaN, infinities, presence, map key order', () => {
    const ours = wire.encode(wireValue);
    const theirs = withProto(Wire, (compiled) => runPython(compiled, 'Wire', { text: wireText }).hex);
    expect(theirs).toBe(hex(ours));
    expect(wire.decode(fromHex(theirs as string))).toEqual(wireValue);
  });

  test('a map-heavy message: Python reads the compiled and interpreted bytes and writes them back identically', () => {
    const value = mapHeavyValue();
    const compiled = createProtobufCodec<ReturnType<typeof mapHeavyValue>>({ schema: MapHeavy });
    const interpreted = createProtobufCodec({ schema: MapHeavy, compile: false });
    expect(compiled.compiled).toBe(true);
    const ours = compiled.encode(value);
    expect(hex(interpreted.encode(value))).toBe(hex(ours));
    const { json, reserialized } = withProto(MapHeavy, (protoFiles) =>
      runPython(protoFiles, 'MapHeavy', { hex: hex(ours) }),
    );
    // Python's deterministic serialization of what it read: wirekit's bytes, entries in its order.
    expect(reserialized).toBe(hex(ours));
    const read = json as Record<string, Record<string, unknown>>;
    expect(Object.keys(read.events ?? {}).length).toBe(2000);
    expect(read.events?.['7919993']).toEqual({
      id: 1,
      name: 'Événement 1',
      logo: '/logo/1.png',
      topicIds: [1, 2],
      color: 'COLOR_GREEN',
    });
    expect(read.names?.['🚀']).toBe('name 🚀');
    expect(read.blobs).toEqual({ '5': 'AQI=', '-9223372036854775808': '', '0': '/w==' });
    expect(read.totals).toEqual({ '18446744073709551615': '-1', '1': '9223372036854775807', '0': '0' });
    expect(read.nested).toEqual({ b: { entries: { '2': 'two', '-1': '' } }, a: {} });
    // Read back, the maps come in wire order: the same value, written again to the same bytes.
    expect(compiled.decode(ours)).toStrictEqual(interpreted.decode(ours));
    expect(hex(compiled.encode(compiled.decode(ours)))).toBe(hex(ours));
    expect(Object.keys(compiled.decode(ours).events)).toEqual(Object.keys(value.events));
  });

  test('a non-object root: the generated { value = 1 } wrapper', () => {
    const Root = t.array(t.map(t.string(), t.nullable(t.int64())));
    const value = [{ b: 1n, a: null }, {}];
    const root = createProtobufCodec({ schema: Root });
    const text = 'value { entries { key: "b" value { value: 1 } } entries { key: "a" value { } } } value { }';
    const theirs = withProto(Root, (compiled) => runPython(compiled, 'Root', { text }).hex);
    expect(theirs).toBe(hex(root.encode(value)));
    expect(root.decode(fromHex(theirs as string))).toEqual(value);
  });
});
