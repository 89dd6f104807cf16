/**
 * schemaFromProto against protoc and Python protobuf, for every well-known .proto Debian's
 * libprotobuf-dev ships (descriptor.proto, a big proto2 file, among them) and for this repo's
 * fixtures covering each construct the importer maps: for every message, random values (fast-check)
 * encoded by wirekit, compiled and interpreted, are bytes Python parses (required fields set, no
 * unknown field) and writes back identically with deterministic serialization, so they are its
 * bytes; wirekit reads them back to the value; `protoc --decode` reads them with no unknown field.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { schemaFromProtoFile } from '../../../src/codecs/protobuf/from-proto-file.js';
import { createProtobufCodec, schemaFromProto } from '../../../src/codecs/protobuf/index.js';
import { toProto } from '../../../src/schema/export/index.js';
import type { ObjectSchema, Schema } from '../../../src/schema/types.js';
import { arbitraryOf } from '../../support/proto-arbitrary.js';
import { has, python, withTempDir } from '../../support/tools.js';

const include = '/usr/include';
const fixtures = new URL('../../fixtures/proto-import/', import.meta.url).pathname;

/** Each file: its include folder and its path in it. */
const files: readonly (readonly [string, string])[] = [
  ...['any', 'api', 'descriptor', 'duration', 'empty', 'field_mask', 'source_context', 'timestamp']
    .concat(['type', 'wrappers'])
    .map((name) => [include, `google/protobuf/${name}.proto`] as const),
  [fixtures, 'legacy.proto'],
  [fixtures, 'modern.proto'],
  [fixtures, 'wrapped.proto'],
];

/**
 * For each case, Python parses each hex string as the message, checks it is initialized (required
 * fields), drops nothing (no unknown fields) and writes it back with deterministic serialization.
 */
const pythonScript = `
import json, sys
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
out = []
for case in json.load(sys.stdin):
    fds = descriptor_pb2.FileDescriptorSet()
    fds.ParseFromString(open(case['descriptors'], 'rb').read())
    pool = descriptor_pool.DescriptorPool()
    for f in fds.file: pool.Add(f)
    desc = pool.FindMessageTypeByName(case['type'])
    cls = message_factory.GetMessageClass(desc) if hasattr(message_factory, 'GetMessageClass') else message_factory.MessageFactory(pool).GetPrototype(desc)
    results = []
    for h in case['values']:
        m = cls()
        m.ParseFromString(bytes.fromhex(h))
        known = cls(); known.CopyFrom(m); known.DiscardUnknownFields()
        results.append([m.IsInitialized(), known.SerializeToString(deterministic=True).hex()])
    out.append(results)
print(json.dumps(out))
`;

const hex = (data: Uint8Array) => Buffer.from(data).toString('hex');

function compile(dir: string, folder: string, path: string): string {
  const descriptors = join(dir, `${path.replaceAll('/', '_')}.pb`);
  const result = spawnSync(
    'protoc',
    [`-I${folder}`, `-I${include}`, '--include_imports', `--descriptor_set_out=${descriptors}`, path],
    { encoding: 'utf8' },
  );
  expect(result.stderr).toBe('');
  return descriptors;
}

describe.skipIf(!has('protoc') || !has('python:google.protobuf'))(
  'schemaFromProto: protoc and Python protobuf read and write the same bytes',
  () => {
    for (const [folder, path] of files) {
      test(`${path}: every message, random values, both codecs`, () => {
        const { types } = schemaFromProtoFile(join(folder, path), { includePaths: [folder, include] });
        const messages = [...types.entries()].filter(
          (entry): entry is [string, ObjectSchema] => entry[1].kind === 'object',
        );
        expect(messages.length).toBeGreaterThan(0);
        withTempDir((dir) => {
          const descriptors = compile(dir, folder, path);
          const cases = messages.map(([name, schema], index) => {
            const values = fc.sample(arbitraryOf(schema, 0), { numRuns: 12, seed: 32 + index });
            const compiled = createProtobufCodec({ schema, compile: true });
            const interpreted = createProtobufCodec({ schema, compile: false });
            const written = values.map((value) => {
              const bytes = compiled.encode(value);
              expect(hex(interpreted.encode(value))).toBe(hex(bytes));
              expect(compiled.decode(bytes)).toEqual(value);
              expect(interpreted.decode(bytes)).toEqual(value);
              return hex(bytes);
            });
            return { name, descriptors, type: name, values: written };
          });
          const run = spawnSync(python, ['-c', pythonScript], {
            input: JSON.stringify(cases),
            encoding: 'utf8',
          });
          expect(run.stderr).toBe('');
          const answers = JSON.parse(run.stdout) as [boolean, string][][];
          cases.forEach((item, i) => {
            item.values.forEach((written, j) => {
              expect({ type: item.type, value: j, answer: answers[i]?.[j] }).toEqual({
                type: item.type,
                value: j,
                answer: [true, written],
              });
            });
            // protoc's own reader: every field known, nothing left as a bare number.
            const first = item.values.find((value) => value.length > 0) ?? '';
            const decoded = spawnSync(
              'protoc',
              [`-I${folder}`, `-I${include}`, `--decode=${item.type}`, path],
              {
                input: Buffer.from(first, 'hex'),
                encoding: 'utf8',
              },
            );
            expect(decoded.status, decoded.stderr).toBe(0);
            expect(decoded.stdout).not.toMatch(/^\s*\d+:/m);
          });
        });
      });
    }
  },
);

/**
 * Compares two descriptor sets, message by message of the second (toProto's file) with the message
 * of the same full name in the first (the original): each field's name, number, type, label, type
 * name, effective packing and (for scalars) proto3 presence, and each enum's values and numbers.
 * A proto2 `required` is compared as `optional` (toProto writes proto3, where it writes the same
 * bytes), and a message field's `optional` is not compared (message fields always have presence).
 */
const compareScript = `
import json, sys
from google.protobuf import descriptor_pb2
def load(path, only=None):
    fds = descriptor_pb2.FileDescriptorSet()
    fds.ParseFromString(open(path, 'rb').read())
    messages, enums = {}, {}
    for f in fds.file:
        if only is not None and f.name != only:
            continue
        syntax = f.syntax or 'proto2'
        def walk(prefix, ms, es):
            for e in es:
                enums[prefix + e.name] = [[v.name, v.number] for v in e.value]
            for m in ms:
                messages[prefix + m.name] = [view(fd, syntax) for fd in m.field]
                walk(prefix + m.name + '.', m.nested_type, m.enum_type)
        walk('.' + f.package + '.' if f.package else '.', f.message_type, f.enum_type)
    return messages, enums
def view(fd, syntax):
    packable = fd.label == 3 and fd.type not in (9, 10, 11, 12)
    explicit = fd.options.HasField('packed')
    packed = packable and (fd.options.packed if explicit else syntax == 'proto3')
    return {'name': fd.name, 'number': fd.number, 'type': fd.type, 'label': 1 if fd.label == 2 else fd.label,
            'type_name': fd.type_name, 'packed': packed,
            'optional': None if fd.type == 11 else (fd.proto3_optional or (syntax == 'proto2' and fd.label == 1))}
original = load(sys.argv[1])
printed = load(sys.argv[2], sys.argv[3])
out = {'compared': 0, 'differences': []}
for kind in (0, 1):
    for name, item in printed[kind].items():
        out['compared'] += 1
        if original[kind].get(name) != item:
            out['differences'].append([name, original[kind].get(name), item])
print(json.dumps(out))
`;

describe.skipIf(!has('protoc') || !has('python:google.protobuf'))(
  'toProto of an imported schema: protoc compiles it to the descriptors of the original',
  () => {
    const cases: readonly (readonly [string, string, string])[] = [
      [fixtures, 'nested.proto', 'nested.v1.Order'],
      [fixtures, 'wrapped.proto', 'wrapped.v1.Reading'],
      [include, 'google/protobuf/type.proto', 'google.protobuf.Type'],
      [include, 'google/protobuf/api.proto', 'google.protobuf.Api'],
      [include, 'google/protobuf/any.proto', 'google.protobuf.Any'],
      [include, 'google/protobuf/duration.proto', 'google.protobuf.Duration'],
      [include, 'google/protobuf/field_mask.proto', 'google.protobuf.FieldMask'],
      [include, 'google/protobuf/wrappers.proto', 'google.protobuf.UInt64Value'],
    ];
    for (const [folder, path, root] of cases) {
      test(`${path}: ${root}`, () => {
        const { types } = schemaFromProtoFile(join(folder, path), { includePaths: [folder, include] });
        const printed = toProto(types.get(root) as Schema);
        withTempDir((dir) => {
          const original = compile(dir, folder, path);
          writeFileSync(join(dir, 'printed.proto'), printed);
          const again = compile(dir, dir, 'printed.proto');
          const run = spawnSync(python, ['-c', compareScript, original, again, 'printed.proto'], {
            encoding: 'utf8',
          });
          expect(run.stderr).toBe('');
          const result = JSON.parse(run.stdout) as { compared: number; differences: unknown[] };
          expect(result.differences).toEqual([]);
          expect(result.compared).toBeGreaterThan(0);
        });
      });
    }
  },
);

describe('schemaFromProto: what the fixtures and libprotobuf-dev files become', () => {
  test('struct.proto: Struct, Value and ListValue are the json kind, written as those messages', () => {
    const { types } = schemaFromProto(
      'syntax = "proto3"; import "google/protobuf/struct.proto"; message M { google.protobuf.Struct s = 1; }',
    );
    const message = types.get('M') as ObjectSchema;
    expect(message.fields[0]?.schema).toEqual({ kind: 'optional', inner: { kind: 'json', proto: 'struct' } });
  });

  test('enums keep their names and numbers; proto3 and proto2 unknown numbers are refused when read', () => {
    const text = readFileSync(join(fixtures, 'modern.proto'), 'utf8');
    const { types } = schemaFromProto(text);
    expect(types.get('modern.v1.Color')).toMatchObject({
      members: ['COLOR_UNSPECIFIED', 'COLOR_RED', 'COLOR_BLUE', 'COLOR_GREEN'],
      numbers: [0, 5, -2, 1_000_000],
    });
    const Event = types.get('modern.v1.Event') as ObjectSchema;
    const codec = createProtobufCodec({ schema: Event });
    // color = 3: COLOR_BLUE is -2, a ten-byte varint, as protoc writes int32 enums.
    expect(hex(codec.encode({ ...emptyEvent, color: 'COLOR_BLUE' }))).toBe('18feffffffffffffffff01');
    // Open in proto3, but wirekit's enums are closed in every format: number 7 is refused.
    expect(() => codec.decode(Uint8Array.from([0x18, 0x07]))).toThrow(/enum number 7 is no member of Color/);
  });

  test('wrappers are nullable scalars written as the wrapper messages; toProto names them again', () => {
    const { types } = schemaFromProto(readFileSync(join(fixtures, 'modern.proto'), 'utf8'));
    const Event = types.get('modern.v1.Event') as ObjectSchema;
    const maybeInt = Event.fields.find((field) => field.name === 'maybe_int');
    expect(maybeInt?.schema).toEqual({
      kind: 'nullable',
      inner: { kind: 'int32', proto: 'int32' },
      proto: 'wrapper',
    });
    const codec = createProtobufCodec({ schema: Event });
    // 0 is a wrapper holding 0: field 15, an empty message; null is no field at all.
    expect(hex(codec.encode({ ...emptyEvent, maybe_int: 0 }))).toBe('7a00');
    expect(hex(codec.encode({ ...emptyEvent, maybe_int: -1 }))).toBe('7a0b08ffffffffffffffffff01');
    expect(hex(codec.encode(emptyEvent))).toBe('');
    expect(codec.decode(Uint8Array.from([0x7a, 0x00]))).toMatchObject({ maybe_int: 0 });
    const { types: wrapped } = schemaFromProto(readFileSync(join(fixtures, 'wrapped.proto'), 'utf8'));
    const printed = toProto(wrapped.get('wrapped.v1.Reading') as Schema);
    expect(printed).toContain('import "google/protobuf/wrappers.proto";');
    expect(printed).toContain('google.protobuf.Int32Value delta = 5;');
  });

  test('proto2: required fields are written even when they hold their default; defaults are field defaults', () => {
    const { types } = schemaFromProto(readFileSync(join(fixtures, 'legacy.proto'), 'utf8'));
    const Record = types.get('legacy.v1.Record') as ObjectSchema;
    const byName = Object.fromEntries(Record.fields.map((field) => [field.name, field]));
    expect(byName.id).toMatchObject({ presence: 'explicit', schema: { kind: 'int64' } });
    expect(byName.count).toMatchObject({ default: -7, schema: { kind: 'optional' } });
    expect(byName.fallback?.default).toBe('LEVEL_HIGH');
    expect(byName.weight?.default).toBe(Number.NEGATIVE_INFINITY);
    const Part = types.get('legacy.v1.Record.Part') as ObjectSchema;
    expect(Part.fields[1]?.default).toEqual(Uint8Array.from([1, 255]));
    const codec = createProtobufCodec({ schema: Record });
    const value = {
      id: 0n,
      level: 'LEVEL_LOW',
      plain: [],
      packed: [],
      levels: [],
      parts: [],
      by_id: new Map(),
    };
    // id = 0 and level = LEVEL_LOW (1) are written: a proto2 reader needs them.
    expect(hex(codec.encode(value))).toBe('08001001');
    expect(() => codec.decode(Uint8Array.from([0x08, 0x00]))).toThrow(
      /required field level \(2\) is not in the message/,
    );
  });
});

const emptyEvent = {
  id: '',
  kind: 'KIND_NONE',
  color: 'COLOR_UNSPECIFIED',
  palette: [],
  by_int64: new Map(),
  by_sint32: new Map(),
  by_fixed64: new Map(),
  children: {},
  sizes: [],
  maybe_int: null,
  maybe_text: null,
  maybe_bytes: null,
  maybe_big: null,
  history: [],
  notes: {},
};
