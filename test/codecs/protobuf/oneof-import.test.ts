/**
 * A `.proto` file's `oneof` groups, imported by schemaFromProto as optional fields in a oneof group
 * (schema/oneofs.ts), against protoc and Python protobuf: random values (members of every scalar
 * type, an enum and a message, beside a proto3 `optional`) encode to the bytes Python's deterministic
 * serialization writes, both read each other's, two concatenated messages decode as protobuf
 * decodes them (the last member wins), protoc decodes wirekit's bytes, and toProto of the imported
 * schema compiles to the descriptor of the original file, oneof_index included.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createProtobufCodec, schemaFromProto } from '../../../src/codecs/protobuf/index.js';
import { toProto } from '../../../src/schema/export/index.js';
import type { ObjectSchema } from '../../../src/schema/types.js';
import { codeOf } from '../../support/code-of.js';
import { protocDescriptorSet, pythonProtoBytes, textFormatBytes } from '../../support/protoc.js';
import { type SeededRandom, seededRandom } from '../../support/seeded-random.js';
import { has, python, withTempDir } from '../../support/tools.js';

const eventProto = `
syntax = "proto3";
package oneofs.v1;

enum Color {
  COLOR_UNSPECIFIED = 0;
  COLOR_RED = 1;
  COLOR_BLUE = 2;
}

message Order {
  string sku = 1;
  uint32 quantity = 2;
}

message Event {
  string label = 1;
  oneof kind {
    string name = 2;
    int64 id = 3;
    Order order = 4;
  }
  optional sint32 priority = 5;
  oneof scalar {
    double f_double = 6;
    float f_float = 7;
    int32 f_int32 = 8;
    int64 f_int64 = 9;
    uint32 f_uint32 = 10;
    uint64 f_uint64 = 11;
    sint32 f_sint32 = 12;
    sint64 f_sint64 = 13;
    fixed32 f_fixed32 = 14;
    fixed64 f_fixed64 = 15;
    sfixed32 f_sfixed32 = 16;
    sfixed64 f_sfixed64 = 17;
    bool f_bool = 18;
    string f_string = 19;
    bytes f_bytes = 20;
    Color f_color = 21;
    Order f_order = 22;
  }
  repeated Order lines = 23;
}
`;

const { types } = schemaFromProto(eventProto);
const Event = types.get('oneofs.v1.Event') as ObjectSchema;

type Rng = SeededRandom;

const order = (rng: Rng) => ({ sku: rng.pick(['', 'A-1', 'ünï']), quantity: rng.int(0, 2 ** 32 - 1) });

/** Each member's values: a member that is set is written even when it holds its type's default. */
const scalarMembers: Record<string, (rng: Rng) => unknown> = {
  f_double: (rng) => rng.pick([0, -1.5, 1e300, 0.1]),
  f_float: (rng) => rng.pick([0, 1.5, -0.25]),
  f_int32: (rng) => rng.pick([0, rng.int(-(2 ** 31), 2 ** 31 - 1)]),
  f_int64: (rng) => rng.pick([0n, rng.big(64, true)]),
  f_uint32: (rng) => rng.pick([0, rng.int(0, 2 ** 32 - 1)]),
  f_uint64: (rng) => rng.pick([0n, rng.big(64, false)]),
  f_sint32: (rng) => rng.pick([0, rng.int(-(2 ** 31), 2 ** 31 - 1)]),
  f_sint64: (rng) => rng.pick([0n, rng.big(64, true)]),
  f_fixed32: (rng) => rng.pick([0, rng.int(0, 2 ** 32 - 1)]),
  f_fixed64: (rng) => rng.pick([0n, rng.big(64, false)]),
  f_sfixed32: (rng) => rng.pick([0, rng.int(-(2 ** 31), 2 ** 31 - 1)]),
  f_sfixed64: (rng) => rng.pick([0n, rng.big(64, true)]),
  f_bool: (rng) => rng.chance(0.5),
  f_string: (rng) => rng.pick(['', 'x', '🚀 ü']),
  f_bytes: (rng) => new Uint8Array(Array.from({ length: rng.int(0, 3) }, () => rng.int(0, 255))),
  f_color: (rng) => rng.pick(['COLOR_UNSPECIFIED', 'COLOR_RED', 'COLOR_BLUE']),
  f_order: order,
};

function event(rng: Rng): Record<string, unknown> {
  const value: Record<string, unknown> = { label: rng.pick(['', 'e']), lines: [] };
  const kind = rng.int(0, 3);
  if (kind === 1) value.name = rng.pick(['', 'n']);
  if (kind === 2) value.id = rng.pick([0n, rng.big(64, true)]);
  if (kind === 3) value.order = order(rng);
  if (rng.chance(0.5)) value.priority = rng.pick([0, -3, 2 ** 31 - 1]);
  if (rng.chance(0.9)) {
    const member = rng.pick(Object.keys(scalarMembers));
    value[member] = scalarMembers[member]?.(rng);
  }
  value.lines = Array.from({ length: rng.int(0, 2) }, () => order(rng));
  return value;
}

/** protobuf text format of a value; strings and bytes as escaped octets, enum members by name. */
function text(value: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    for (const item of Array.isArray(field) ? field : [field]) parts.push(`${key}: ${scalarText(item)}`);
  }
  return parts.join(' ');
}

function scalarText(value: unknown): string {
  if (typeof value === 'string')
    return value.startsWith('COLOR_') ? value : textFormatBytes(new TextEncoder().encode(value));
  if (value instanceof Uint8Array) return textFormatBytes(value);
  if (typeof value === 'object' && value !== null) return `{ ${text(value as Record<string, unknown>)} }`;
  return String(value);
}

const hex = (data: Uint8Array) => Buffer.from(data).toString('hex');
const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'hex'));

describe('schemaFromProto: oneof', () => {
  test('members become optional fields of a oneof group; a proto3 optional stays a plain optional field', () => {
    expect(Event.oneofs).toEqual([
      { name: 'kind', fields: ['name', 'id', 'order'] },
      { name: 'scalar', fields: Object.keys(scalarMembers) },
    ]);
    const schemas = Object.fromEntries(Event.fields.map((field) => [field.name, field.schema]));
    expect(schemas.id).toEqual({ kind: 'optional', inner: { kind: 'int64', as: 'bigint', proto: 'int64' } });
    expect(schemas.f_color?.kind).toBe('optional');
    expect(schemas.priority).toEqual({ kind: 'optional', inner: { kind: 'int32', proto: 'sint32' } });
    expect(schemas.label).toEqual({ kind: 'string' });
  });

  test("toProto prints each group as a oneof block with the members' numbers", () => {
    const text = toProto(Event);
    expect(text).toContain(
      '  oneof kind {\n    string name = 2;\n    int64 id = 3;\n    Order order = 4;\n  }\n',
    );
    expect(text).toContain('  optional sint32 priority = 5;');
  });

  for (const compiled of [true, false]) {
    test(`two members present are refused on encode (${compiled ? 'compiled' : 'interpreted'})`, () => {
      const codec = createProtobufCodec({ schema: Event, compile: compiled });
      let error: unknown;
      try {
        codec.encode({ label: '', lines: [], name: 'a', order: { sku: '', quantity: 0 } });
      } catch (caught) {
        error = caught;
      }
      expect(error).toMatchObject({
        code: 'WK_VALIDATION_FAILED',
        message: expect.stringContaining("'name' and 'order' are both present, but oneof 'kind'"),
      });
      const nested = createProtobufCodec({ schema: Event, compile: compiled });
      expect(
        codeOf(() =>
          nested.encode({ label: '', lines: [], f_order: { sku: '', quantity: 0 }, f_bool: false }),
        ),
      ).toBe('WK_VALIDATION_FAILED');
    });
  }
});

describe.skipIf(!has('protoc') || !has('python:google.protobuf'))(
  'schemaFromProto: oneof against protoc and Python',
  () => {
    const values = Array.from({ length: 60 }, (_, seed) => event(seededRandom(seed + 1)));
    const theirs = pythonProtoBytes(
      eventProto,
      'oneofs.v1.Event',
      values.map((value) => text(value)),
    );

    for (const compiled of [true, false]) {
      test(`random values: ${compiled ? 'compiled' : 'interpreted'} bytes equal Python's, and read back`, () => {
        const codec = createProtobufCodec({ schema: Event, compile: compiled });
        values.forEach((value, seed) => {
          expect({ seed, hex: hex(codec.encode(value)) }).toEqual({ seed, hex: theirs[seed] });
          expect(codec.decode(bytes(theirs[seed] as string))).toEqual(value);
        });
      });
    }

    test('two messages concatenated: the last member on the wire wins, as in Python', () => {
      const pairs = values.slice(0, 30).map((value, i) => [value, values[(i * 7 + 3) % values.length]]);
      const codec = createProtobufCodec({ schema: Event });
      const written = pairs.map(([a, b]) => [hex(codec.encode(a)), hex(codec.encode(b))]);
      const merged = pythonProtoBytes(eventProto, 'oneofs.v1.Event', written, 'concat');
      for (const compiled of [true, false]) {
        const reader = createProtobufCodec({ schema: Event, compile: compiled });
        written.forEach(([a, b], i) => {
          const value = reader.decode(bytes(`${a}${b}`));
          expect({ i, compiled, hex: hex(codec.encode(value)) }).toEqual({ i, compiled, hex: merged[i] });
        });
      }
      // One pair by hand: `name` then `order` on the wire leaves only `order`.
      const both = `${hex(codec.encode({ label: '', lines: [], name: 'x' }))}${hex(codec.encode({ label: '', lines: [], order: { sku: 'y', quantity: 1 } }))}`;
      for (const compiled of [true, false]) {
        expect(createProtobufCodec({ schema: Event, compile: compiled }).decode(bytes(both))).toEqual({
          label: '',
          lines: [],
          order: { sku: 'y', quantity: 1 },
        });
      }
    });

    test("protoc --decode reads wirekit's bytes, one member of each group", () => {
      const value = { label: 'l', lines: [], id: 0n, f_color: 'COLOR_UNSPECIFIED', priority: 0 };
      const decoded = withTempDir((dir) => {
        writeFileSync(join(dir, 'event.proto'), eventProto);
        return spawnSync('protoc', [`--proto_path=${dir}`, '--decode=oneofs.v1.Event', 'event.proto'], {
          input: createProtobufCodec({ schema: Event }).encode(value),
          encoding: 'utf8',
        });
      });
      expect(decoded.stderr).toBe('');
      expect(decoded.stdout).toBe('label: "l"\nid: 0\npriority: 0\nf_color: COLOR_UNSPECIFIED\n');
    });

    test('toProto(imported) compiles to the original descriptor, field by field with oneof_index', () => {
      const described = (proto: string) =>
        withTempDir((dir) => {
          const descriptors = protocDescriptorSet(dir, 'event.proto', proto);
          const result = spawnSync(python, ['-c', descriptorScript, descriptors, 'Event'], {
            encoding: 'utf8',
          });
          expect(result.stderr).toBe('');
          return JSON.parse(result.stdout) as unknown;
        });
      const original = described(eventProto);
      expect(original).toMatchObject({ oneofs: ['kind', 'scalar', '_priority'] });
      expect(described(toProto(Event))).toEqual(original);
    });
  },
);

/** The parts of one message's descriptor that decide its bytes and its oneofs, as JSON. */
const descriptorScript = `
import json, sys
from google.protobuf import descriptor_pb2
fds = descriptor_pb2.FileDescriptorSet()
fds.ParseFromString(open(sys.argv[1], 'rb').read())
message = next(m for f in fds.file for m in f.message_type if m.name == sys.argv[2])
fields = [[f.name, f.number, f.type, f.label, f.type_name.split('.')[-1],
           f.oneof_index if f.HasField('oneof_index') else None, f.proto3_optional]
          for f in message.field]
print(json.dumps({'oneofs': [o.name for o in message.oneof_decl], 'fields': fields}))
`;
