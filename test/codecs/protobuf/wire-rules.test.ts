/**
 * Three rules of the Protocol Buffers encoding, as the specification and every runtime apply them,
 * read by wirekit's compiled and interpreted decoders alike:
 * - a non-repeated message field that occurs more than once is merged (scalars last-wins, lists
 *   concatenated, maps merged by key, messages merged, a oneof replaced by another member or merged
 *   with the same one): parsing two messages back to back is merging them. Before, the last
 *   occurrence replaced the others;
 * - a known field number with another wire type is an unknown field: skipped (its bytes still
 *   well-formed), or refused where the codec refuses unknown keys. Before, WK_DECODE_SCHEMA_MISMATCH;
 * - proto3 enums are open, and runtimes keep a number that names no member; a wirekit enum's value
 *   is one of its members in every format, so such a number is WK_DECODE_SCHEMA_MISMATCH in every
 *   position (wirekit's documented rule, unchanged, now tested everywhere and named in the message).
 *
 * Python protobuf (Debian's, C++ backend) writes the bytes from text format over the descriptor set
 * of `toProto`'s file, and is the reference for what they mean: its own parse of them.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createCodec } from '../../../src/codecs/index.js';
import { createProtobufCodec } from '../../../src/codecs/protobuf/index.js';
import { isWirekitError } from '../../../src/errors/index.js';
import { type Infer, t } from '../../../src/index.js';
import { toProto } from '../../../src/schema/export/proto.js';
import { has, python, withTempDir } from '../../support/tools.js';

const Plan = t.enum('Plan', ['free', 'pro', 'team']);
const Inner = t.object('Inner', { x: t.int32(), y: t.int32() });
const Circle = t.object('Circle', { kind: t.literal('circle'), radius: t.float64(), label: t.string() });
const Rect = t.object('Rect', { kind: t.literal('rect'), width: t.float64() });
const Sub = t.object('Sub', {
  a: t.int32(),
  b: t.string(),
  c: t.array(t.int32()),
  d: t.map(t.string(), t.int32()),
  inner: Inner,
  when: t.timestamp(),
  plan: Plan,
});
const Outer = t.object('Outer', {
  sub: Sub,
  opt: t.optional(Sub),
  list: t.array(Sub),
  plan: Plan,
  plans: t.array(Plan),
  byName: t.map(t.string(), Sub),
  shape: t.optional(t.union('Shape', 'kind', [Circle, Rect])),
  n: t.int32(),
});

type OuterValue = Infer<typeof Outer>;
const decoders = {
  compiled: createProtobufCodec<OuterValue>({ schema: Outer }),
  interpreted: createProtobufCodec<OuterValue>({ schema: Outer, compile: false }),
};
const hex = (text: string) => new Uint8Array(Buffer.from(text.replaceAll(' ', ''), 'hex'));

/** What a decode gives: the value, or the error's code and message. */
function outcome(decode: () => unknown): unknown {
  try {
    return { value: decode() };
  } catch (error) {
    if (!isWirekitError(error)) throw error;
    return { code: error.code, message: error.message };
  }
}

describe('without a peer: the rules on hand-built bytes', () => {
  test.each(Object.keys(decoders))("%s: a message field twice is merged (the issue's example)", (name) => {
    const codec = decoders[name as keyof typeof decoders];
    // sub { a: 1 b: "x" c: [1] } sub { a: 2 c: [2] }, with n: 5 between them.
    const bytes = hex('0a 08 0802 1201 78 1a01 02   40 0a   0a 05 0804 1a01 04');
    const value = codec.decode(bytes);
    expect(value.sub).toMatchObject({ a: 2, b: 'x', c: [1, 2] });
    expect(value.n).toBe(5);
  });

  test.each(Object.keys(decoders))('%s: a known field with another wire type is skipped', (name) => {
    const codec = decoders[name as keyof typeof decoders];
    // n as a length-delimited field, plan as fixed32, sub as a varint; then n: 2.
    const bytes = hex('42 02 0102   25 07000000   08 05   40 04');
    expect(codec.decode(bytes)).toMatchObject({ n: 2, plan: 'free', sub: { a: 0, b: '' } });
    // Still well-formed: cut short, it is truncated.
    expect(outcome(() => codec.decode(hex('42 05 01')))).toMatchObject({ code: 'WK_DECODE_TRUNCATED' });
    expect(outcome(() => codec.decode(hex('29 0000')))).toMatchObject({ code: 'WK_DECODE_TRUNCATED' });
  });

  test.each([true, false])(
    'compile %s, unknownKeys reject: another wire type is refused, naming both',
    (compile) => {
      const codec = createProtobufCodec({ schema: Outer, compile, unknownKeys: 'reject' });
      expect(outcome(() => codec.decode(hex('42 02 0102')))).toEqual({
        code: 'WK_DECODE_SCHEMA_MISMATCH',
        message: 'field n (8) has wire type 2, not 0 (at byte 0).',
      });
    },
  );

  test.each(Object.keys(decoders))('%s: an enum number past the members, in every position', (name) => {
    const codec = decoders[name as keyof typeof decoders];
    for (const bytes of [
      '20 07', // plan: 7
      '2a 02 0109', // plans: [1, 9], packed
      '28 01 28 09', // plans, one by one
      '0a 02 3805', // sub { plan: 5 }
      '12 02 3804', // opt { plan: 4 }
      '1a 02 3803', // list { plan: 3 }
      '32 07 0a016b 12023808', // byName { key: "k" value { plan: 8 } }
    ]) {
      const result = outcome(() => codec.decode(hex(bytes)));
      expect(result).toMatchObject({ code: 'WK_DECODE_SCHEMA_MISMATCH' });
      expect((result as { message: string }).message).toMatch(/enum number \d+ is no member of Plan/);
    }
  });
});

/** Python protobuf over `toProto(Outer)`: builds bytes from text format, and parses bytes itself. */
const script = `
import json, sys
from google.protobuf import descriptor_pb2, message_factory, text_format
fds = descriptor_pb2.FileDescriptorSet()
fds.ParseFromString(open(sys.argv[1], 'rb').read())
Outer = message_factory.GetMessages(fds.file)['Outer']
out = []
for case in json.load(sys.stdin):
    if 'parts' in case:
        data = b''.join(text_format.Parse(p, Outer()).SerializeToString(deterministic=True) for p in case['parts'])
    else:
        data = bytes.fromhex(case['raw'])
    try:
        message = Outer.FromString(data)
    except Exception as error:
        out.append({'bytes': data.hex(), 'error': type(error).__name__})
        continue
    kept = {'plan': message.plan, 'plans': list(message.plans)}
    message.DiscardUnknownFields()
    out.append({'bytes': data.hex(), 'parsed': message.SerializeToString(deterministic=True).hex(), 'enums': kept})
print(json.dumps(out))
`;

interface PythonCase {
  readonly bytes: string;
  readonly parsed?: string;
  readonly error?: string;
  readonly enums?: { plan: number; plans: number[] };
}

function python3(cases: readonly ({ parts: string[] } | { raw: string })[]): PythonCase[] {
  return withTempDir((dir) => {
    writeFileSync(join(dir, 'schema.proto'), toProto(Outer));
    const descriptors = join(dir, 'schema.pb');
    const built = spawnSync(
      'protoc',
      [`--proto_path=${dir}`, '--include_imports', `--descriptor_set_out=${descriptors}`, 'schema.proto'],
      { encoding: 'utf8' },
    );
    expect(built.stderr).toBe('');
    const result = spawnSync(python, ['-c', script, descriptors], {
      input: JSON.stringify(cases),
      encoding: 'utf8',
    });
    // The C++ backend logs on stderr what it merges or refuses (repeated map keys); the answer is on stdout.
    expect(result.status, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as PythonCase[];
  });
}

const mergeCases: Record<string, string[]> = {
  "the issue's example, with a field between": ['sub { a: 1 b: "x" c: [1] } n: 5', 'sub { a: 2 c: [2] }'],
  'three occurrences': ['sub { a: 1 }', 'sub { b: "x" }', 'sub { c: [3] a: 4 }'],
  'maps merged by key': [
    'sub { d { key: "k1" value: 1 } d { key: "k2" value: 2 } }',
    'sub { d { key: "k2" value: 3 } d { key: "k3" value: 4 } }',
  ],
  'nested messages merged': ['sub { inner { x: 1 } }', 'sub { inner { y: 2 } }'],
  'timestamps merged field by field': ['sub { when { seconds: 5 } }', 'sub { when { nanos: 7000000 } }'],
  'an optional message merged': ['opt { a: 1 c: [1] }', 'opt { b: "z" c: [2] }'],
  'a oneof member merged with itself': ['shape { circle { radius: 2 } }', 'shape { circle { label: "x" } }'],
  'a oneof member replaced by another': ['shape { circle { radius: 2 } }', 'shape { rect { width: 3 } }'],
  'and back, from its defaults': ['shape { rect { width: 3 } }', 'shape { circle { label: "y" } }'],
  'map values replaced, not merged': [
    'byName { key: "k" value { a: 1 } }',
    'byName { key: "k" value { b: "y" } }',
  ],
  'repeated messages appended': ['list { a: 1 }', 'list { a: 2 }'],
  'a message inside a map value merged within one entry': ['byName { key: "k" value { inner { x: 1 } } }'],
};

/** Known fields with another wire type (Outer: sub 1, plan 4, plans 5, byName 6, shape 7, n 8). */
const mistypedCases: Record<string, string> = {
  'a varint field as length-delimited': '42 02 0102 40 04',
  'an enum field as fixed32': '25 07000000 20 02',
  'a message field as a varint': '08 05 0a 02 0802',
  'a packed list item as fixed64': '29 0100000000000000 2a 02 0102',
  'a map field as fixed32': '35 01000000',
  'a union field as a varint, and a member as one': '38 01 3a 04 0801 1200',
  "a message's fields as the wrong types": '0a 16 09 0100000000000000 1001 19 0200000000000000 2001',
  'a map entry key as a varint': '0a 06 22 04 0801 1002',
  "a timestamp's seconds as fixed64": '0a 0b 32 09 09 0500000000000000',
  'cut short: a length past the end': '42 05 01',
  'cut short: fixed64 of three bytes': '29 000000',
};

const enumCases: Record<string, string[]> = {
  'a singular enum': ['plan: 7'],
  'a packed list': ['plans: [1, 9]'],
  'in a message': ['sub { plan: 5 }'],
  'in an optional message': ['opt { plan: 4 }'],
  'in a list of messages': ['list { plan: 3 }'],
  'in a map value': ['byName { key: "k" value { plan: 8 } }'],
};

describe.skipIf(!has('protoc') || !has('python:google.protobuf'))('Python protobuf as the reference', () => {
  const merges = python3(Object.values(mergeCases).map((parts) => ({ parts })));
  const mistyped = python3(Object.values(mistypedCases).map((raw) => ({ raw: raw.replaceAll(' ', '') })));
  const enums = python3(Object.values(enumCases).map((parts) => ({ parts })));

  describe.each(Object.keys(decoders))('%s', (name) => {
    const codec = decoders[name as keyof typeof decoders];

    test.each(Object.keys(mergeCases).map((title, i) => [title, i] as const))(
      'merged as Python merges: %s',
      (_title, i) => {
        const reference = merges[i] as PythonCase;
        // Python's own parse of the bytes, written back once: the merged message, each field once.
        expect(codec.decode(hex(reference.bytes))).toEqual(codec.decode(hex(reference.parsed as string)));
      },
    );

    test("the issue's example, as values", () => {
      const value = codec.decode(hex((merges[0] as PythonCase).bytes));
      expect(value.sub).toEqual({
        a: 2,
        b: 'x',
        c: [1, 2],
        d: {},
        inner: { x: 0, y: 0 },
        when: new Date(0),
        plan: 'free',
      });
      expect(codec.decode(hex((merges[4] as PythonCase).bytes)).sub.when).toEqual(new Date(5007));
      expect(codec.decode(hex((merges[7] as PythonCase).bytes)).shape).toEqual({ kind: 'rect', width: 3 });
    });

    test.each(Object.keys(mistypedCases).map((title, i) => [title, i] as const))(
      'another wire type, as Python reads it: %s',
      (title, i) => {
        const reference = mistyped[i] as PythonCase;
        if (title.startsWith('cut short')) {
          expect(reference.error).toBe('DecodeError');
          expect(outcome(() => codec.decode(hex(reference.bytes)))).toMatchObject({
            code: 'WK_DECODE_TRUNCATED',
          });
          return;
        }
        expect(reference.error).toBeUndefined();
        expect(codec.decode(hex(reference.bytes))).toEqual(codec.decode(hex(reference.parsed as string)));
      },
    );

    test.each(Object.keys(enumCases).map((title, i) => [title, i] as const))(
      'an enum number Python keeps is refused: %s',
      (_title, i) => {
        const reference = enums[i] as PythonCase;
        expect(reference.error).toBeUndefined();
        const result = outcome(() => codec.decode(hex(reference.bytes)));
        expect(result).toMatchObject({ code: 'WK_DECODE_SCHEMA_MISMATCH' });
        expect((result as { message: string }).message).toMatch(/enum number \d+ is no member of Plan/);
      },
    );
  });

  test('Python keeps the numbers (proto3 enums are open)', () => {
    expect(enums[0]?.enums).toEqual({ plan: 7, plans: [] });
    expect(enums[1]?.enums).toEqual({ plan: 0, plans: [1, 9] });
  });
});

describe("one rule for an enum value the reader's enum lacks, in every format", () => {
  // A newer writer's enum has a member more; the reader's has not: every format refuses it.
  const Writer = t.object('Row', { plan: t.enum('Plan', ['free', 'pro', 'team', 'extra']) });
  const Reader = t.object('Row', { plan: t.enum('Plan', ['free', 'pro', 'team']) });
  test.each(['json', 'msgpack', 'cbor', 'protobuf', 'avro', 'flatbuffers', 'arrow'] as const)(
    '%s',
    (format) => {
      const row = { plan: 'extra' as const };
      const bytes = createCodec(format, { schema: Writer }).encode(
        (format === 'arrow' ? [row] : row) as never,
      );
      for (const compile of [true, false]) {
        const codec = createCodec(format, { schema: Reader, compile });
        expect(outcome(() => codec.decode(bytes))).toMatchObject({ code: 'WK_DECODE_SCHEMA_MISMATCH' });
      }
    },
  );
});
