import { describe, expect, test } from 'vitest';
import { createProtobufCodec, schemaFromProto } from '../../../src/codecs/protobuf/index.js';
import { WirekitError } from '../../../src/index.js';
import type { ObjectSchema } from '../../../src/schema/types.js';
import { pythonProtoBytes, textFormatBytes } from '../../support/protoc.js';
import { type SeededRandom, seededRandom } from '../../support/seeded-random.js';
import { has } from '../../support/tools.js';

const orderProto = `
syntax = "proto3";
package shop.v1;
import "google/protobuf/timestamp.proto";

enum Status { STATUS_UNKNOWN = 0; STATUS_OPEN = 1; STATUS_CLOSED = 2; }

message Order {
  message Line {
    string sku = 1;
    uint32 quantity = 2;
    sfixed64 price_micros = 3;
  }
  reserved 4, 9 to 11;
  int64 id = 1;
  string customer = 2;
  repeated Line lines = 3;
  Status status = 5;
  optional sint32 discount = 6;
  map<string, fixed32> tags = 7;
  repeated int32 codes = 8 [packed = false];
  repeated double weights = 12;
  google.protobuf.Timestamp placed_at = 13;
  Order parent = 14;
  bytes note = 15;
  bool rush = 16;
  float ratio = 17;
  int32 delta = 18;
  fixed64 checksum = 19;
  uint64 big = 20;
  map<sfixed32, Line> by_slot = 21;
  repeated Status history = 22;
}
`;

const legacyProto = `
syntax = "proto2";
message Legacy {
  repeated int32 plain = 1;
  repeated int32 packed = 2 [packed = true];
  optional sint64 total = 3;
}
`;

type Rng = SeededRandom;
const statuses = ['STATUS_UNKNOWN', 'STATUS_OPEN', 'STATUS_CLOSED'] as const;

function line(rng: Rng) {
  return {
    sku: rng.pick(['', 'A-1', 'ünï', '🚀x']),
    quantity: rng.chance(0.3) ? 0 : rng.int(0, 2 ** 32 - 1),
    price_micros: rng.chance(0.3) ? 0n : rng.big(64, true),
  };
}

function order(rng: Rng, depth: number): Record<string, unknown> {
  const value: Record<string, unknown> = {
    id: rng.chance(0.2) ? 0n : rng.big(64, true),
    customer: rng.pick(['', 'Zoë', 'a"b\\c']),
    lines: Array.from({ length: rng.int(0, 3) }, () => line(rng)),
    status: rng.pick(statuses),
    tags: Object.fromEntries(
      Array.from({ length: rng.int(0, 3) }, (_, i) => [`k${i}`, rng.int(0, 2 ** 32 - 1)]),
    ),
    codes: Array.from({ length: rng.int(0, 3) }, () => rng.int(-(2 ** 31), 2 ** 31 - 1)),
    weights: Array.from({ length: rng.int(0, 3) }, () => rng.pick([0, -1.5, 1e300, 0.1])),
    note: new Uint8Array(Array.from({ length: rng.int(0, 4) }, () => rng.int(0, 255))),
    rush: rng.chance(0.5),
    ratio: rng.pick([0, 1.5, -0.25]),
    delta: rng.chance(0.3) ? 0 : rng.int(-(2 ** 31), 2 ** 31 - 1),
    checksum: rng.big(64, false),
    big: rng.big(64, false),
    by_slot: new Map(
      [...new Set(Array.from({ length: rng.int(0, 3) }, () => rng.int(-(2 ** 31), 2 ** 31 - 1)))]
        .sort((a, b) => a - b)
        .map((slot) => [slot, line(rng)]),
    ),
    history: Array.from({ length: rng.int(0, 3) }, () => rng.pick(statuses)),
  };
  if (rng.chance(0.5)) value.discount = rng.int(-(2 ** 31), 2 ** 31 - 1);
  if (rng.chance(0.5)) value.placed_at = new Date(rng.int(-(2 ** 40), 2 ** 40));
  if (depth < 2 && rng.chance(0.4)) value.parent = order(rng, depth + 1);
  return value;
}

/** protobuf text format of a value; strings and bytes as escaped octets, enums as names. */
function text(value: unknown): string {
  if (typeof value === 'string') {
    return statuses.includes(value as never) ? value : textFormatBytes(new TextEncoder().encode(value));
  }
  if (value instanceof Uint8Array) return textFormatBytes(value);
  if (value instanceof Date) {
    const millis = value.getTime();
    const seconds = Math.floor(millis / 1000);
    return `{ seconds: ${seconds} nanos: ${(millis - seconds * 1000) * 1_000_000} }`;
  }
  if (typeof value === 'object' && value !== null) {
    const parts: string[] = [];
    for (const [key, field] of Object.entries(value)) {
      if (field instanceof Map || (key === 'tags' && typeof field === 'object')) {
        const entries = field instanceof Map ? [...field] : Object.entries(field as object);
        for (const [k, v] of entries) parts.push(`${key} { key: ${text(k)} value: ${text(v)} }`);
      } else if (Array.isArray(field)) {
        for (const item of field) parts.push(`${key}: ${text(item)}`);
      } else {
        parts.push(`${key}: ${text(field)}`);
      }
    }
    return `{ ${parts.join(' ')} }`;
  }
  return String(value);
}

const hex = (data: Uint8Array) => Buffer.from(data).toString('hex');
const { types } = schemaFromProto(orderProto);
const Order = types.get('shop.v1.Order') as ObjectSchema;

describe('schemaFromProto', () => {
  test('messages, nested ones and enums are named by their full names, with numbers and reserved kept', () => {
    expect([...types.keys()].sort()).toEqual(['shop.v1.Order', 'shop.v1.Order.Line', 'shop.v1.Status']);
    expect(Order.namespace).toBe('shop.v1');
    expect(types.get('shop.v1.Order.Line')).toMatchObject({ name: 'Line', namespace: 'shop.v1.Order' });
    expect(Order.fields.map((field) => [field.name, field.id])).toContainEqual(['by_slot', 21]);
    expect(Order.reserved).toEqual([4, 9, 10, 11]);
    const kinds = Object.fromEntries(Order.fields.map((field) => [field.name, field.schema]));
    expect(kinds.delta).toEqual({ kind: 'int32', proto: 'int32' });
    expect(kinds.discount).toEqual({ kind: 'optional', inner: { kind: 'int32', proto: 'sint32' } });
    expect(kinds.codes).toMatchObject({ kind: 'array', packed: false });
    expect(kinds.weights).not.toHaveProperty('packed');
    expect(kinds.placed_at).toEqual({
      kind: 'optional',
      inner: { kind: 'timestamp', precision: 'us', range: '0001-9999' },
    });
    expect(kinds.parent?.kind).toBe('optional');
  });

  test('proto2 repeated fields are unpacked unless [packed = true]', () => {
    const Legacy = schemaFromProto(legacyProto).types.get('Legacy') as ObjectSchema;
    const [plain, packed, total] = Legacy.fields.map((field) => field.schema);
    expect(plain).toMatchObject({ kind: 'array', packed: false });
    expect(packed).not.toHaveProperty('packed');
    expect(total).toEqual({ kind: 'optional', inner: { kind: 'int64', as: 'bigint', proto: 'sint64' } });
  });

  test('what is not imported yet is refused by name', () => {
    const refusal = (proto: string) => {
      try {
        schemaFromProto(proto);
      } catch (error) {
        return error instanceof WirekitError ? `${error.code}: ${error.message}` : String(error);
      }
      return 'imported';
    };
    expect(refusal('syntax = "proto3"; import "other.proto"; message M {}')).toMatch(
      /^WK_SCHEMA_IMPORT: \(text\):1:20: import "other.proto" is not found/,
    );
  });

  test('imports come from the imports option', () => {
    const { types: both } = schemaFromProto(
      'syntax = "proto3"; import "dep.proto"; message M { dep.D d = 1; }',
      {
        imports: (path) =>
          path === 'dep.proto' ? 'syntax = "proto3"; package dep; message D { int32 x = 1; }' : undefined,
      },
    );
    const M = both.get('M') as ObjectSchema;
    const codec = createProtobufCodec({ schema: M });
    expect(hex(codec.encode({ d: { x: -1 } }))).toBe('0a0b08ffffffffffffffffff01');
  });
});

describe.skipIf(!has('protoc') || !has('python:google.protobuf'))('schemaFromProto: Python protobuf', () => {
  const values = Array.from({ length: 40 }, (_, seed) => order(seededRandom(seed + 1), 0));
  const theirs = pythonProtoBytes(
    orderProto,
    'shop.v1.Order',
    values.map((value) => text(value).slice(1, -1)),
  );
  for (const compile of [true, false]) {
    test(`random values: ${compile ? 'compiled' : 'interpreted'} bytes equal Python's, and read back`, () => {
      const codec = createProtobufCodec({ schema: Order, compile });
      values.forEach((value, seed) => {
        expect({ seed, hex: hex(codec.encode(value)) }).toEqual({ seed, hex: theirs[seed] });
        expect(codec.decode(new Uint8Array(Buffer.from(theirs[seed] as string, 'hex')))).toEqual(value);
      });
    });
  }

  test('proto2 packing: wirekit writes what Python writes', () => {
    const Legacy = schemaFromProto(legacyProto).types.get('Legacy') as ObjectSchema;
    const value = { plain: [1, -2], packed: [3, -4], total: -5n };
    const [expected] = pythonProtoBytes(legacyProto, 'Legacy', [
      'plain: 1 plain: -2 packed: 3 packed: -4 total: -5',
    ]);
    expect(hex(createProtobufCodec({ schema: Legacy }).encode(value))).toBe(expected);
  });
});
