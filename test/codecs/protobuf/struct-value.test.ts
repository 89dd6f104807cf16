/**
 * google.protobuf.Value, Struct and ListValue import as the json kind declaring that message
 * (t.json({ proto: 'value' | 'struct' | 'list' }), issue 32). For random JSON values in each of
 * those fields (alone, in a list, as a map value), wirekit's bytes, compiled and interpreted, are
 * Python protobuf's deterministic serialization of the same document byte for byte (Struct entries
 * in the UTF-8 order of their keys), wirekit reads Python's bytes back to the value, Python reads
 * wirekit's to the same JSON, and `protoc --decode` finds no unknown field. `toProto` of the
 * imported schema compiles to the same fields. Hostile nesting ends in typed errors.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createProtobufCodec, schemaFromProto } from '../../../src/codecs/protobuf/index.js';
import { toProto } from '../../../src/schema/export/index.js';
import { walkJson } from '../../../src/schema/json-kind.js';
import type { ObjectSchema } from '../../../src/schema/types.js';
import { has, python, withTempDir } from '../../support/tools.js';

const include = '/usr/include';
const proto = `syntax = "proto3";
package wkt.v1;
import "google/protobuf/struct.proto";
message Doc {
  google.protobuf.Value v = 1;
  google.protobuf.Struct s = 2;
  google.protobuf.ListValue l = 3;
  repeated google.protobuf.Value vs = 4;
  map<string, google.protobuf.Value> m = 5;
}
`;
const imports = (path: string) => readFileSync(join(include, path), 'utf8');
const Doc = schemaFromProto(proto, { imports }).types.get('wkt.v1.Doc') as ObjectSchema;

/**
 * Reads {"descriptors", "docs": [JSON document...], "ours": [hex...]}: Python's deterministic bytes
 * of each document (json_format.ParseDict), and for each of wirekit's messages the JSON Python
 * reads from it and the bytes it writes back.
 */
const pythonScript = `
import json, sys
from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
case = json.load(sys.stdin)
fds = descriptor_pb2.FileDescriptorSet()
fds.ParseFromString(open(case['descriptors'], 'rb').read())
pool = descriptor_pool.DescriptorPool()
for f in fds.file: pool.Add(f)
desc = pool.FindMessageTypeByName('wkt.v1.Doc')
cls = message_factory.GetMessageClass(desc) if hasattr(message_factory, 'GetMessageClass') else message_factory.MessageFactory(pool).GetPrototype(desc)
theirs = []
for doc in case['docs']:
    m = cls(); json_format.ParseDict(doc, m)
    theirs.append(m.SerializeToString(deterministic=True).hex())
read = []
for h in case['ours']:
    m = cls(); m.ParseFromString(bytes.fromhex(h))
    read.append([json_format.MessageToDict(m, preserving_proto_field_name=True), m.SerializeToString(deterministic=True).hex()])
print(json.dumps({'theirs': theirs, 'read': read}))
`;

const hex = (data: Uint8Array) => Buffer.from(data).toString('hex');
/** The value as every format reads it back: `-0` is written as 0, as JSON text writes it. */
const normal = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** JSON values the json kind holds (no unsafe keys), with keys across the planes. */
const jsonValue = fc
  .jsonValue({ maxDepth: 4 })
  .filter((value) => walkJson(value, { depth: 0, maxDepth: 50 }) === undefined);
const fixedValues: unknown[] = [
  null,
  0,
  -0,
  '',
  false,
  {},
  [],
  { b: 1, a: 2, '': 3, é: 4, '\u{1F600}': 5, '\uFFFD': 6, z: [null, { y: true }] },
  [1.5, -2e300, 'x', [[]], { k: {} }],
];

/** The document of one value: in each field of Doc. */
function docOf(value: unknown): Record<string, unknown> {
  const object = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : { value };
  return { v: value, s: object, l: [value], vs: [value, null], m: { key: value } };
}

function compile(dir: string, name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  const descriptors = join(dir, `${name}.pb`);
  const run = spawnSync(
    'protoc',
    [`-I${dir}`, `-I${include}`, '--include_imports', `--descriptor_set_out=${descriptors}`, name],
    { encoding: 'utf8' },
  );
  expect(run.stderr).toBe('');
  return descriptors;
}

describe('Struct, Value and ListValue import as the json kind, declared', () => {
  test('each field keeps its message', () => {
    const kinds = Object.fromEntries(Doc.fields.map((field) => [field.name, field.schema]));
    expect(kinds).toEqual({
      v: { kind: 'optional', inner: { kind: 'json', proto: 'value' } },
      s: { kind: 'optional', inner: { kind: 'json', proto: 'struct' } },
      l: { kind: 'optional', inner: { kind: 'json', proto: 'list' } },
      vs: { kind: 'array', items: { kind: 'json', proto: 'value' } },
      m: { kind: 'map', keys: { kind: 'string' }, values: { kind: 'json', proto: 'value' } },
    });
  });

  test('a Struct holds objects and a ListValue arrays, when written and when read', () => {
    const codec = createProtobufCodec({ schema: Doc });
    expect(() => codec.encode({ s: [1] } as never)).toThrow(
      /expected an object \(a google.protobuf.Struct\)/,
    );
    expect(() => codec.encode({ l: { a: 1 } } as never)).toThrow(/expected an array/);
    expect(() => codec.encode({ v: Number.NaN } as never)).toThrow(/JSON numbers are finite/);
    // A Value that sets no kind has no JSON value: Python's MessageToDict refuses it as well.
    expect(() => codec.decode(Uint8Array.of(0x0a, 0x00))).toThrow(/sets no kind/);
    // A number that is not finite is no JSON value, whoever wrote it.
    const infinity = Buffer.from('0a09117ff00000000000007f', 'hex');
    infinity.writeDoubleLE(Number.POSITIVE_INFINITY, 3);
    expect(() => codec.decode(infinity)).toThrow(/JSON numbers are finite/);
  });
});

describe('hostile nesting', () => {
  /** A Doc whose v is a ListValue `levels` deep around a null. */
  function deepList(levels: number): Uint8Array {
    const varint = (n: number) => {
      const out: number[] = [];
      while (n > 0x7f) {
        out.push((n & 0x7f) | 0x80);
        n >>>= 7;
      }
      out.push(n);
      return out;
    };
    // Lengths from the inside out, then each level's tag and length from the outside in.
    const prefixes: number[][] = [];
    let size = 2; // the innermost Value: null_value (08 00)
    for (let i = 0; i < levels; i++) {
      const list = [0x0a, ...varint(size)];
      const value = [0x32, ...varint(size + list.length)];
      prefixes.push([...value, ...list]);
      size += list.length + value.length;
    }
    const out = [0x0a, ...varint(size)];
    for (let i = prefixes.length - 1; i >= 0; i--) out.push(...(prefixes[i] as number[]));
    out.push(0x08, 0x00);
    return Uint8Array.from(out);
  }

  test.each([true, false])(
    'a 10,000-deep ListValue is WK_LIMIT_DEPTH, written or read (compile: %s)',
    (compile) => {
      const codec = createProtobufCodec({ schema: Doc, compile });
      expect(() => codec.decode(deepList(10_000))).toThrow(
        expect.objectContaining({ code: 'WK_LIMIT_DEPTH' }),
      );
      let deep: unknown = null;
      for (let i = 0; i < 10_000; i++) deep = [deep];
      expect(() => codec.encode({ v: deep } as never)).toThrow(
        expect.objectContaining({ code: 'WK_LIMIT_DEPTH' }),
      );
      // Within maxDepth (100 levels of the value), it reads.
      expect(codec.decode(deepList(99))).toEqual({ vs: [], m: {}, v: expect.any(Array) });
    },
  );

  test('items of a ListValue and members of a Struct count against maxElements', () => {
    const codec = createProtobufCodec({ schema: Doc, limits: { maxElements: 10 } });
    const bytes = createProtobufCodec({ schema: Doc }).encode({
      vs: [],
      m: {},
      l: Array(11).fill(1),
    } as never);
    expect(() => codec.decode(bytes)).toThrow(expect.objectContaining({ code: 'WK_LIMIT_ELEMENTS' }));
  });
});

describe.skipIf(!has('protoc') || !has('python:google.protobuf'))(
  'Python protobuf and protoc read and write the same bytes',
  () => {
    test.each([true, false])('random JSON values in every field (compile: %s)', (compile) => {
      const codec = createProtobufCodec({ schema: Doc, compile });
      const values = [...fixedValues, ...fc.sample(jsonValue, { numRuns: 60, seed: 32 })];
      const docs = values.map(docOf);
      withTempDir((dir) => {
        const descriptors = compile_(dir);
        const ours = docs.map((doc) => hex(codec.encode(doc as never)));
        const run = spawnSync(python, ['-c', pythonScript], {
          input: JSON.stringify({ descriptors, docs: docs.map(normal), ours }),
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        });
        expect(run.stderr).toBe('');
        const answer = JSON.parse(run.stdout) as { theirs: string[]; read: [unknown, string][] };
        docs.forEach((doc, i) => {
          const want = normal(doc);
          // Byte for byte: Python's deterministic serialization of the document is wirekit's.
          expect({ i, bytes: ours[i] }).toEqual({ i, bytes: answer.theirs[i] });
          // wirekit reads Python's bytes to the value; Python reads wirekit's to the same JSON.
          expect(codec.decode(Buffer.from(answer.theirs[i] as string, 'hex'))).toEqual(want);
          expect(answer.read[i]).toEqual([want, ours[i]]);
        });
        // protoc's own reader: every field known.
        const decoded = spawnSync(
          'protoc',
          [`-I${dir}`, `-I${include}`, '--decode=wkt.v1.Doc', 'doc.proto'],
          {
            input: Buffer.from(ours[7] as string, 'hex'),
            encoding: 'utf8',
          },
        );
        expect(decoded.status, decoded.stderr).toBe(0);
        expect(decoded.stdout).toContain('struct_value');
        expect(decoded.stdout).not.toMatch(/^\s*\d+:/m);
      });
    });

    test('toProto of the imported schema compiles to the same fields', () => {
      const printed = toProto(Doc);
      expect(printed).toContain('import "google/protobuf/struct.proto";');
      expect(printed).not.toContain('JSON text');
      withTempDir((dir) => {
        const original = compile_(dir);
        const again = compile(dir, 'printed.proto', printed);
        const fieldsOf = (path: string) => {
          const run = spawnSync(
            python,
            [
              '-c',
              `
import json, sys
from google.protobuf import descriptor_pb2
fds = descriptor_pb2.FileDescriptorSet(); fds.ParseFromString(open(sys.argv[1], 'rb').read())
doc = [m for f in fds.file if f.package == 'wkt.v1' for m in f.message_type if m.name == 'Doc'][0]
print(json.dumps([[f.name, f.number, f.type, f.label, f.type_name] for f in doc.field if not f.type_name.endswith('Entry')] + [[f.name, f.number, f.type, f.label] for f in doc.field if f.type_name.endswith('Entry')]))
`,
              path,
            ],
            { encoding: 'utf8' },
          );
          expect(run.stderr).toBe('');
          return JSON.parse(run.stdout) as unknown;
        };
        expect(fieldsOf(again)).toEqual(fieldsOf(original));
      });
    });
  },
);

function compile_(dir: string): string {
  return compile(dir, 'doc.proto', proto);
}
