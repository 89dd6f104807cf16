/**
 * t.either in Protocol Buffers against protoc and Debian's Python protobuf, on the `.proto` that
 * toProto prints: protoc compiles it and `protoc --decode` reads wirekit's bytes as one oneof member
 * per either; Python parses them into the same message and re-serializes them deterministically to
 * the same bytes; and what Python writes from text format, wirekit reads. The codec's own tests are
 * in either.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createProtobufCodec } from '../../../src/codecs/protobuf/index.js';
import { toProto } from '../../../src/schema/export/proto.js';
import { t } from '../../../src/schema/index.js';
import { has, python, withTempDir } from '../../support/tools.js';

const Point = t.object('Point', { x: t.float64(), y: t.float64() });
const Color = t.enum('Color', ['red', 'green']);
const Order = t.object('Order', {
  price: t.either([t.int64(), Point]),
  amount: t.either([t.decimal(), t.float64()]),
  id: t.either([t.string(), t.uint32()]),
  when: t.either([t.timestamp(), t.bool()]),
  tags: t.array(t.either([t.string(), t.array(t.float64())])),
  byName: t.map(t.string(), t.either([Color, t.literal(0.5)])),
  note: t.optional(t.either([t.bytes(), t.float32()])),
});

const order = {
  price: { x: 1.5, y: -2 },
  amount: '-12.50',
  id: 0,
  when: new Date(Date.UTC(2024, 1, 29, 12, 0, 0, 5)),
  tags: ['a', [1.5, 2], [], ''],
  byName: { b: 0.5, a: 'red' },
  note: new Uint8Array([0, 255]),
};

/** The same order in protobuf text format (map entries out of key order, as a writer may). */
const orderText = `
price { point { x: 1.5 y: -2 } }
amount { decimal_value: "-12.50" }
id { uint32_value: 0 }
when { timestamp_value { seconds: 1709208000 nanos: 5000000 } }
tags { string_value: "a" }
tags { array_value { items: [1.5, 2] } }
tags { array_value { } }
tags { string_value: "" }
byName { key: "b" value { literal_value: 0.5 } }
byName { key: "a" value { color: COLOR_RED } }
note { bytes_value: "\\000\\377" }
`;

const others = [
  { ...order, price: -1n, amount: 0, id: 'x', when: false, tags: [], byName: {}, note: undefined },
  { ...order, price: 9_007_199_254_740_993n, note: 0.25 },
];

const codecs = [
  createProtobufCodec<unknown>({ schema: Order }),
  createProtobufCodec<unknown>({ schema: Order, compile: false }),
];

interface Compiled {
  readonly dir: string;
  readonly descriptors: string;
}

function withProto<T>(body: (compiled: Compiled) => T): T {
  return withTempDir((dir) => {
    writeFileSync(join(dir, 'order.proto'), toProto(Order));
    const descriptors = join(dir, 'order.pb');
    const result = spawnSync(
      'protoc',
      [`--proto_path=${dir}`, '--include_imports', `--descriptor_set_out=${descriptors}`, 'order.proto'],
      { encoding: 'utf8', cwd: dir },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    return body({ dir, descriptors });
  });
}

function protoc(compiled: Compiled, mode: 'encode' | 'decode', input: Uint8Array | string): Buffer {
  const result = spawnSync('protoc', [`--${mode}=Order`, `--proto_path=${compiled.dir}`, 'order.proto'], {
    input,
    cwd: compiled.dir,
  });
  expect(result.stderr.toString()).toBe('');
  expect(result.status).toBe(0);
  return result.stdout;
}

/**
 * Python protobuf over the descriptor set: for each hex on stdin, the oneof member set in each
 * either and the deterministic re-serialization; for `text`, its deterministic serialization.
 */
const pythonScript = `
import json, sys
from google.protobuf import descriptor_pb2, message_factory, text_format
fds = descriptor_pb2.FileDescriptorSet()
fds.ParseFromString(open(sys.argv[1], 'rb').read())
Order = message_factory.GetMessages(fds.file)['Order']
request = json.load(sys.stdin)
def members(message):
    return {
        'price': message.price.WhichOneof('value'),
        'amount': message.amount.WhichOneof('value'),
        'id': message.id.WhichOneof('value'),
        'when': message.when.WhichOneof('value'),
        'tags': [tag.WhichOneof('value') for tag in message.tags],
        'byName': {key: value.WhichOneof('value') for key, value in message.byName.items()},
        'note': message.note.WhichOneof('value') if message.HasField('note') else None,
    }
out = {'parsed': [], 'text': None}
for hex in request['hex']:
    message = Order.FromString(bytes.fromhex(hex))
    out['parsed'].append({'members': members(message), 'again': message.SerializeToString(deterministic=True).hex()})
out['text'] = text_format.Parse(request['text'], Order()).SerializeToString(deterministic=True).hex()
print(json.dumps(out))
`;

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe.skipIf(!has('protoc'))('t.either with protoc', () => {
  test('protoc --decode reads one oneof member per either in wirekit bytes', () => {
    for (const codec of codecs) {
      const text = withProto((compiled) => protoc(compiled, 'decode', codec.encode(order)).toString('utf8'));
      for (const line of [
        'price {\n  point {\n    x: 1.5\n    y: -2\n  }\n}',
        'amount {\n  decimal_value: "-12.50"\n}',
        // A branch holding proto3's default is written all the same: a oneof member has presence.
        'id {\n  uint32_value: 0\n}',
        'when {\n  timestamp_value {\n    seconds: 1709208000\n    nanos: 5000000\n  }\n}',
        'tags {\n  string_value: "a"\n}\ntags {\n  array_value {\n    items: 1.5\n    items: 2\n  }\n}',
        'tags {\n  array_value {\n  }\n}\ntags {\n  string_value: ""\n}',
        'byName {\n  key: "a"\n  value {\n    color: COLOR_RED\n  }\n}',
        'byName {\n  key: "b"\n  value {\n    literal_value: 0.5\n  }\n}',
        'note {\n  bytes_value: "\\000\\377"\n}',
      ]) {
        expect(text).toContain(line);
      }
    }
  });

  test('wirekit reads what protoc --encode writes from text format', () => {
    const bytes = withProto((compiled) => protoc(compiled, 'encode', orderText));
    for (const codec of codecs) expect(codec.decode(new Uint8Array(bytes))).toEqual(order);
  });
});

describe.skipIf(!has('protoc') || !has('python:google.protobuf'))('t.either with Python protobuf', () => {
  test('Python parses wirekit bytes into the same oneof members, and re-serializes them to the same bytes', () => {
    for (const codec of codecs) {
      const ours = [order, ...others].map((value) => codec.encode(value));
      const out = withProto((compiled) => {
        const result = spawnSync(python, ['-c', pythonScript, compiled.descriptors], {
          input: JSON.stringify({ hex: ours.map(hex), text: orderText }),
          encoding: 'utf8',
        });
        expect(result.stderr).toBe('');
        return JSON.parse(result.stdout) as {
          parsed: { members: Record<string, unknown>; again: string }[];
          text: string;
        };
      });
      expect(out.parsed.map((parsed) => parsed.members)).toEqual([
        {
          price: 'point',
          amount: 'decimal_value',
          id: 'uint32_value',
          when: 'timestamp_value',
          tags: ['string_value', 'array_value', 'array_value', 'string_value'],
          byName: { a: 'color', b: 'literal_value' },
          note: 'bytes_value',
        },
        {
          price: 'int64_value',
          amount: 'float64_value',
          id: 'string_value',
          when: 'bool_value',
          tags: [],
          byName: {},
          note: null,
        },
        {
          price: 'int64_value',
          amount: 'decimal_value',
          id: 'uint32_value',
          when: 'timestamp_value',
          tags: ['string_value', 'array_value', 'array_value', 'string_value'],
          byName: { a: 'color', b: 'literal_value' },
          note: 'float32_value',
        },
      ]);
      expect(out.parsed.map((parsed) => parsed.again)).toEqual(ours.map(hex));
      // Python's deterministic bytes for the text are wirekit's bytes for the same value.
      expect(out.text).toBe(hex(ours[0] as Uint8Array));
      expect(codec.decode(new Uint8Array(Buffer.from(out.text, 'hex')))).toEqual(order);
    }
  });
});
