/**
 * The protobuf → ProtoJSON transcoder (src/codecs/protobuf/protojson-transcode.ts) against what it
 * promises to equal: `protojson.encode(protobuf.decode(bytes))`, bytes for bytes and error for
 * error. Random schemas and values, the bench's user list, random and mutated bytes, hand-made
 * encodings that are not canonical (each must give the codecs' outcome), tight limits; and proof
 * that the fast path, not the codecs, answers the common case.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { DecodeLimits } from '../../../src/codecs/core/limits.js';
import { createProtobufCodec, createProtoJsonCodec } from '../../../src/codecs/protobuf/index.js';
import { createProtoJsonTranscoder } from '../../../src/codecs/protobuf/protojson-transcode.js';
import { BodyTranscoder } from '../../../src/codecs/protobuf/transcode/body.js';
import { flatten, User, users } from '../../../src/lab/index.js';
import { type Schema, t } from '../../../src/schema/index.js';
import { leafKinds, schemaArbitraryOf, valuesOf } from '../../support/protobuf-schemas.js';

interface Options {
  readonly emitDefaults?: boolean;
  readonly limits?: Partial<DecodeLimits>;
  readonly validate?: boolean;
}

/** The transcoder and the expression it must equal, with the same options. */
function pairOf(schema: Schema, options: Options = {}) {
  const protobuf = createProtobufCodec({ schema, limits: options.limits, validate: options.validate });
  const protojson = createProtoJsonCodec({ schema, ...options });
  const transcoder = createProtoJsonTranscoder({ schema, ...options });
  return {
    protobuf,
    protojson,
    transcode: (bytes: Uint8Array) => transcoder.transcode(bytes),
    reference: (bytes: Uint8Array) => protojson.encode(protobuf.decode(bytes)),
  };
}

/** What a call gave, as data: its text, or its error's class, code, message and every detail. */
function outcomeOf(body: () => Uint8Array): unknown {
  try {
    return { ok: true, text: Buffer.from(body()).toString('latin1') };
  } catch (error) {
    const { name, message, ...details } = error as Error & Record<string, unknown>;
    return { ok: false, class: (error as object).constructor, name, message, ...details };
  }
}

function expectSame(pair: ReturnType<typeof pairOf>, bytes: Uint8Array): void {
  expect(outcomeOf(() => pair.transcode(bytes))).toStrictEqual(outcomeOf(() => pair.reference(bytes)));
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Counts the inputs the fast path answered (returned) and bailed on (threw). */
function watchFastPath() {
  const spy = vi.spyOn(BodyTranscoder.prototype, 'transcode');
  return {
    answered: () => spy.mock.results.filter((result) => result.type === 'return').length,
    bailed: () => spy.mock.results.filter((result) => result.type === 'throw').length,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

// ---------------------------------------------------------------------------------------------
// Protobuf bytes by hand, for the encodings wirekit's encoder never writes.

function varint(value: number | bigint): number[] {
  let rest = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  while (rest >= 0x80n) {
    out.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  out.push(Number(rest));
  return out;
}

const key = (number: number, wire: number) => varint(number * 8 + wire);
const len = (number: number, body: number[]) => [...key(number, 2), ...varint(body.length), ...body];
const utf8 = (text: string) => [...new TextEncoder().encode(text)];
const bytesOf = (...parts: (number | number[])[]) => new Uint8Array(parts.flat());

// ---------------------------------------------------------------------------------------------
// The bench's list of users.

const UserList = t.object('UserList', { users: t.array(User) });
const userList = { users: flatten(users(200, 1)) };

describe('the user list', () => {
  const pair = pairOf(UserList);
  const bytes = pair.protobuf.encode(userList);

  test('gives the codecs’ bytes, from the fast path (the codecs are not run)', () => {
    const watch = watchFastPath();
    const decode = vi.spyOn(pair.protobuf, 'decode');
    expect(text(pair.transcode(bytes))).toBe(text(pair.protojson.encode(userList)));
    expect(watch.answered()).toBe(1);
    expect(watch.bailed()).toBe(0);
    expect(decode).not.toHaveBeenCalled();
  });

  test('with emitDefaults, and with a user at every default', () => {
    const defaults = {
      ...userList,
      users: [...userList.users, pairOf(User).protobuf.decode(new Uint8Array(0))],
    };
    const emitting = pairOf(UserList, { emitDefaults: true });
    const watch = watchFastPath();
    const input = emitting.protobuf.encode(defaults);
    expect(text(emitting.transcode(input))).toBe(text(emitting.protojson.encode(defaults)));
    expect(text(pair.transcode(input))).toBe(text(pair.protojson.encode(defaults)));
    expect(watch.bailed()).toBe(0);
  });

  test('mutated bytes give the codecs’ outcome', () => {
    const small = pair.protobuf.encode({ users: userList.users.slice(0, 3) });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
        fc.nat({ max: small.length }),
        (edits, cut) => {
          const mutated = small.slice(0, small.length - (cut % 8));
          for (const [position, value] of edits) mutated[position % mutated.length] = value;
          expectSame(pair, mutated);
        },
      ),
      { numRuns: 400 },
    );
  });

  test('every truncation and every single bit flip gives the codecs’ outcome', () => {
    const one = pair.protobuf.encode({ users: userList.users.slice(0, 2) });
    for (let end = 0; end <= one.length; end++) expectSame(pair, one.subarray(0, end));
    for (let bit = 0; bit < one.length * 8; bit++) {
      const flipped = one.slice();
      flipped[bit >> 3] = (flipped[bit >> 3] as number) ^ (1 << (bit & 7));
      expectSame(pair, flipped);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Random schemas of the kinds the fast path writes, and random values.

/** The leaf kinds the fast path writes itself (decimals go to the codecs). */
const transcodedKinds = leafKinds.filter((make) => make().kind !== 'decimal');
const { message: messageArbitrary } = schemaArbitraryOf(transcodedKinds);

describe('random schemas', () => {
  test('transcode(protobuf.encode(v)) is the codecs’ round trip, with and without emitDefaults', () => {
    const watch = watchFastPath();
    fc.assert(
      fc.property(
        messageArbitrary.chain((schema) =>
          fc.tuple(
            fc.constant(schema),
            fc.array(valuesOf(schema), { minLength: 1, maxLength: 3 }),
            fc.boolean(),
          ),
        ),
        ([schema, values, emitDefaults]) => {
          const pair = pairOf(schema, { emitDefaults });
          for (const value of values) {
            // The codecs' round trip rather than protojson.encode(value): a map comes back from the
            // wire in the encoder's key order, not the value's.
            expectSame(pair, pair.protobuf.encode(value));
          }
        },
      ),
      { numRuns: 300, seed: 71 },
    );
    // Most random schemas are the fast path's (arrays of arrays or of nullables are not: wrappers).
    expect(watch.answered()).toBeGreaterThan(watch.bailed() * 2);
  });

  test('mutated encodings give the codecs’ outcome', () => {
    fc.assert(
      fc.property(
        messageArbitrary.chain((schema) =>
          fc.tuple(
            fc.constant(schema),
            fc.array(valuesOf(schema), { minLength: 1, maxLength: 3 }),
            fc.boolean(),
          ),
        ),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 3 }),
        fc.nat(),
        ([schema, values, emitDefaults], edits, cut) => {
          const pair = pairOf(schema, { emitDefaults });
          for (const value of values) {
            const bytes = pair.protobuf.encode(value);
            if (bytes.length === 0) continue;
            const mutated = bytes.slice(0, Math.max(1, bytes.length - (cut % 4)));
            for (const [position, byte] of edits) mutated[position % mutated.length] = byte;
            expectSame(pair, mutated);
          }
        },
      ),
      { numRuns: 300, seed: 72 },
    );
  });

  test('random bytes give the codecs’ outcome', () => {
    fc.assert(
      fc.property(messageArbitrary, fc.uint8Array({ maxLength: 40 }), (schema, bytes) => {
        expectSame(pairOf(schema), bytes);
      }),
      { numRuns: 300, seed: 73 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Encodings wirekit never writes: each must give exactly what the codecs give.

const Hue = t.enum('Hue', ['red', 'green', 'blue']);
const Inner = t.object('Inner', { a: t.int32(), b: t.string() });
const Wide = t.object('Wide', {
  n: t.int32(),
  s: t.string(),
  inner: Inner,
  list: t.array(t.int32()),
  names: t.array(t.string()),
  hue: Hue,
  big: t.int64(),
  when: t.timestamp(),
  blob: t.bytes(),
  maybe: t.optional(t.uint32()),
  byName: t.map(t.string(), t.int32()),
  byId: t.map(t.int32(), Inner),
  ratio: t.float32(),
  small: t.uint8(),
  safe: t.int64({ as: 'number' }),
});

describe('hand-made encodings', () => {
  const pair = pairOf(Wide);
  const emitting = pairOf(Wide, { emitDefaults: true });
  const cases: Record<string, Uint8Array> = {
    empty: bytesOf(),
    canonical: bytesOf(key(1, 0), varint(5), len(2, utf8('x')), len(3, [...key(1, 0), 7])),
    'fields reversed': bytesOf(len(2, utf8('x')), key(1, 0), varint(5)),
    'a singular field twice': bytesOf(key(1, 0), varint(5), key(1, 0), varint(6)),
    'a string twice': bytesOf(len(2, utf8('x')), len(2, utf8('y'))),
    'a message split in two': bytesOf(len(3, [...key(1, 0), 7]), len(3, len(2, utf8('q')))),
    'an interleaved repeated field': bytesOf(len(5, utf8('a')), key(1, 0), 1, len(5, utf8('b'))),
    'packed then unpacked': bytesOf(len(4, [1, 2]), key(4, 0), 3),
    unpacked: bytesOf(key(4, 0), 1, key(4, 0), 2),
    'two packed runs': bytesOf(len(4, [1]), len(4, [2])),
    'an empty packed run': bytesOf(len(4, [])),
    'an unknown field': bytesOf(key(1, 0), 1, key(99, 0), 5, len(2, utf8('x'))),
    'an unknown group': bytesOf(key(99, 3), key(1, 0), 1, key(99, 4)),
    'unknown fields of every wire type, between and after known ones': bytesOf(
      key(1, 0),
      5,
      key(16, 0),
      varint(2n ** 63n),
      len(2, utf8('x')),
      key(17, 1),
      [1, 2, 3, 4, 5, 6, 7, 8],
      key(18, 5),
      [1, 2, 3, 4],
      len(19, utf8('skipped')),
      key(2000, 0),
      1,
    ),
    'an unknown field inside a nested message': bytesOf(len(3, [...key(1, 0), 7, ...key(9, 0), 1])),
    'an unknown field inside a list of messages': bytesOf(
      len(12, [...key(1, 0), 3, ...len(2, [...key(7, 5), 1, 2, 3, 4])]),
    ),
    'an unknown field between the items of a list': bytesOf(
      len(5, utf8('a')),
      key(99, 0),
      1,
      len(5, utf8('b')),
    ),
    'an unknown field before a known one of a lower number': bytesOf(key(99, 0), 1, key(1, 0), 1),
    'an unknown field, truncated': bytesOf(key(1, 0), 5, key(17, 1), [1, 2, 3]),
    'an unknown varint of eleven bytes': bytesOf(key(16, 0), ...Array(10).fill([0x80]), [0]),
    'an unknown length past the end': bytesOf(key(19, 2), [9], utf8('ab')),
    'an unknown end-group key': bytesOf(key(99, 4)),
    'field number 0 with a long key': bytesOf([0x80, 0x00], [1]),
    'field number 0, wire type 2': bytesOf([0x02], [0]),
    'a wrong wire type': bytesOf(key(1, 2), 1, 0),
    'a string as a varint': bytesOf(key(2, 0), 1),
    'an overlong varint': bytesOf(key(1, 0), 0x85, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0),
    'an eleven-byte varint': bytesOf(key(1, 0), ...Array(10).fill([0x80]), [0]),
    'an overlong key': bytesOf([0x88, 0x80, 0x80, 0x80, 0x80, 0], [1]),
    'field number 0': bytesOf([0], [1]),
    'wire type 7': bytesOf([0x0f], [1]),
    'a 64-bit int32': bytesOf(key(1, 0), varint(-1)),
    'an int32 past 32 bits': bytesOf(key(1, 0), varint(2n ** 40n + 3n)),
    'invalid UTF-8': bytesOf(len(2, [0xc3, 0x28])),
    'a lone surrogate in UTF-8': bytesOf(len(2, [0xed, 0xa0, 0x80])),
    'an overlong UTF-8 slash': bytesOf(len(2, [0xc0, 0xaf])),
    'a BOM and U+FFFD': bytesOf(len(2, [0xef, 0xbb, 0xbf, 0xef, 0xbf, 0xbd])),
    'an ASCII quote': bytesOf(len(2, utf8('say "hi"'))),
    'an ASCII quote and backslash': bytesOf(len(2, utf8('say "hi" \\ bye'))),
    'escapes and controls': bytesOf(len(2, utf8('a"b\\c\n\t\u0000\u001f\u007f é 😀 \u2028'))),
    'a 2 GiB length': bytesOf(key(2, 2), varint(2 ** 31), utf8('abc')),
    'a 2^64 length': bytesOf(key(2, 2), varint(2n ** 64n - 1n), utf8('abc')),
    'a truncated string': bytesOf(key(2, 2), [5], utf8('ab')),
    'an enum number with no member': bytesOf(key(6, 0), 7),
    'a negative enum number': bytesOf(key(6, 0), varint(-1)),
    'the first enum member on the wire': bytesOf(key(6, 0), 0),
    'int64 extremes': bytesOf(key(7, 0), varint(-(2n ** 63n))),
    'uint8 past 255': bytesOf(key(14, 0), varint(256)),
    // sint64, zigzag: 2^54 is 2^53, 2^54 - 2 is 2^53 - 1, 2^54 - 1 is -2^53.
    'int64 as number past the safe integers': bytesOf(key(15, 0), varint(2n ** 54n)),
    'int64 as number at the edge': bytesOf(key(15, 0), varint(2n ** 54n - 2n)),
    'int64 as number at the negative edge': bytesOf(key(15, 0), varint(2n ** 54n - 3n)),
    'int64 as number past the negative edge': bytesOf(key(15, 0), varint(2n ** 54n - 1n)),
    'a timestamp before year 1': bytesOf(len(8, varint(-62_135_596_801))),
    'a timestamp after 9999': bytesOf(len(8, varint(253_402_300_800))),
    'a timestamp with nanos and reversed fields': bytesOf(
      len(8, [...key(2, 0), ...varint(123_456_789), ...key(1, 0), 5]),
    ),
    'a timestamp with negative nanos': bytesOf(len(8, [...key(2, 0), ...varint(-1)])),
    'a timestamp with sub-millisecond nanos': bytesOf(
      len(8, [...key(1, 0), 5, ...key(2, 0), ...varint(999)]),
    ),
    'a timestamp with an unknown field': bytesOf(len(8, [...key(3, 0), 1])),
    'an empty timestamp': bytesOf(len(8, [])),
    'bytes of every length': bytesOf(len(9, [1, 2, 3, 4, 5, 250])),
    'an optional field at 0': bytesOf(key(10, 0), 0),
    'a map entry': bytesOf(len(11, [...len(1, utf8('k')), ...key(2, 0), 4])),
    'a map entry, value first': bytesOf(len(11, [...key(2, 0), 4, ...len(1, utf8('k'))])),
    'a map entry without a key': bytesOf(len(11, [...key(2, 0), 4])),
    'a map entry without a value': bytesOf(len(11, len(1, utf8('k')))),
    'a repeated map key': bytesOf(
      len(11, [...len(1, utf8('k')), ...key(2, 0), 4]),
      len(11, [...len(1, utf8('k')), ...key(2, 0), 5]),
    ),
    'integer-like map keys': bytesOf(
      len(11, [...len(1, utf8('b')), ...key(2, 0), 1]),
      len(11, [...len(1, utf8('10')), ...key(2, 0), 2]),
      len(11, [...len(1, utf8('2')), ...key(2, 0), 3]),
    ),
    'a __proto__ map key': bytesOf(len(11, [...len(1, utf8('__proto__')), ...key(2, 0), 4])),
    'integer map keys': bytesOf(
      len(12, [...key(1, 0), ...varint(-5), ...len(2, [...key(1, 0), 1])]),
      len(12, [...key(1, 0), 3, ...len(2, [])]),
    ),
    'a repeated integer map key': bytesOf(
      len(12, [...key(1, 0), 3, ...len(2, [])]),
      len(12, [...key(1, 0), 3, ...len(2, [...key(1, 0), 1])]),
    ),
    'a map entry with an extra field': bytesOf(
      len(11, [...len(1, utf8('k')), ...key(2, 0), 4, ...key(3, 0), 1]),
    ),
    floats: bytesOf(key(13, 5), [0, 0, 0x80, 0x7f]),
    'a float NaN': bytesOf(key(13, 5), [1, 0, 0xc0, 0x7f]),
    'a float -0': bytesOf(key(13, 5), [0, 0, 0, 0x80]),
    'a float 0.1': bytesOf(key(13, 5), [0xcd, 0xcc, 0xcc, 0x3d]),
    'the largest float': bytesOf(key(13, 5), [0xff, 0xff, 0x7f, 0x7f]),
    'a truncated float': bytesOf(key(13, 5), [0, 0]),
    'a nested message past its parent': bytesOf(key(3, 2), [5], key(1, 0), [1]),
  };
  for (const [name, bytes] of Object.entries(cases)) {
    test(name, () => {
      expectSame(pair, bytes);
      expectSame(emitting, bytes);
    });
  }

  test('the canonical cases are the fast path’s', () => {
    const watch = watchFastPath();
    for (const name of [
      'empty',
      'canonical',
      'escapes and controls',
      'a BOM and U+FFFD',
      'floats',
      'a map entry',
      'int64 as number at the edge',
      'int64 as number at the negative edge',
    ]) {
      pair.transcode(cases[name] as Uint8Array);
    }
    expect(watch.bailed()).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Limits: whichever the decoder reaches, the transcoder reaches it too.

describe('limits', () => {
  const Node = t.object('TreeNode', {
    label: t.string(),
    data: t.bytes(),
    children: t.array(t.lazy((): Schema => Node)),
  });
  const tree = (depth: number): unknown =>
    depth === 0
      ? { label: 'leaf', data: new Uint8Array([1, 2]), children: [] }
      : { label: `n${depth}`, data: new Uint8Array(0), children: [tree(depth - 1), tree(depth - 1)] };
  const bytes = pairOf(Node).protobuf.encode(tree(5));

  test.each<[string, Partial<DecodeLimits>]>([
    ['maxDepth', { maxDepth: 6 }],
    ['maxDepth, enough', { maxDepth: 12 }],
    ['maxElements', { maxElements: 20 }],
    ['maxStringBytes', { maxStringBytes: 3 }],
    ['maxBytesLength', { maxBytesLength: 1 }],
    ['maxInputBytes', { maxInputBytes: 50 }],
    ['maxAllocatedBytes', { maxAllocatedBytes: 2000 }],
    ['maxAllocatedBytes, enough', { maxAllocatedBytes: 100_000 }],
  ])('%s', (_, limits) => {
    expectSame(pairOf(Node, { limits }), bytes);
    expectSame(pairOf(Node, { limits, emitDefaults: true }), bytes);
  });

  /** The least value of a limit that the codecs decode `bytes` within. */
  function threshold(limit: keyof DecodeLimits, high: number): number {
    let low = 0;
    let top = high;
    while (low < top) {
      const middle = Math.floor((low + top) / 2);
      const pair = pairOf(Node, { limits: { [limit]: middle } });
      if ((outcomeOf(() => pair.reference(bytes)) as { ok: boolean }).ok) top = middle;
      else low = middle + 1;
    }
    return low;
  }

  test.each<[keyof DecodeLimits, number, number]>([
    ['maxAllocatedBytes', 1_000_000, 40],
    ['maxElements', 10_000, 3],
    ['maxDepth', 1000, 3],
    ['maxStringBytes', 1000, 2],
    ['maxBytesLength', 1000, 2],
  ])(
    '%s around the least the input needs: the codecs’ outcome, and the fast path’s answer at it',
    (limit, high, around) => {
      const least = threshold(limit, high);
      expect(least).toBeGreaterThan(0);
      for (let value = Math.max(0, least - around); value <= least + around; value++) {
        expectSame(pairOf(Node, { limits: { [limit]: value } }), bytes);
        expectSame(pairOf(Node, { limits: { [limit]: value }, emitDefaults: true }), bytes);
      }
      // The fast path counts exactly what the decoder counts: at the least, it still answers.
      const watch = watchFastPath();
      pairOf(Node, { limits: { [limit]: least } }).transcode(bytes);
      expect(watch.answered()).toBe(1);
    },
  );
});

// ---------------------------------------------------------------------------------------------
// Rules and required fields, and the schemas the fast path leaves to the codecs.

describe('rules and schemas', () => {
  test.each<[string, Schema, Uint8Array]>([
    [
      'a string under its minLength',
      t.object('R1', { s: t.string({ minLength: 2 }) }),
      bytesOf(len(1, utf8('a'))),
    ],
    ['an absent string with a minLength', t.object('R2', { s: t.string({ minLength: 1 }) }), bytesOf()],
    [
      'a string over its maxLength',
      t.object('R3', { s: t.string({ maxLength: 1 }) }),
      bytesOf(len(1, utf8('ab'))),
    ],
    ['too few items', t.object('R4', { l: t.array(t.int32(), { minItems: 2 }) }), bytesOf(len(1, [1]))],
    ['no items where some are needed', t.object('R5', { l: t.array(t.int32(), { minItems: 1 }) }), bytesOf()],
    [
      'a bounded float',
      t.object('R6', { f: t.float64({ min: 1 }) }),
      bytesOf(key(1, 1), [0, 0, 0, 0, 0, 0, 0, 0]),
    ],
    [
      'a seconds timestamp with millis',
      t.object('R7', { w: t.timestamp({ precision: 's' }) }),
      bytesOf(len(1, [...key(2, 0), ...varint(5_000_000)])),
    ],
    [
      'a nanosecond timestamp past its range',
      t.object('R8', { w: t.timestamp({ precision: 'ns' }) }),
      bytesOf(len(1, varint(10_000_000_000))),
    ],
    ['a nullable field absent', t.object('R9', { n: t.nullable(t.string()) }), bytesOf()],
    [
      'a union (the codecs only)',
      t.object('R10', { u: t.union('U', 'k', [t.object('A', { k: t.literal('a') })]) }),
      bytesOf(),
    ],
    ['a decimal (the codecs only)', t.object('R11', { d: t.decimal() }), bytesOf(len(1, utf8('1.5')))],
    ['a root array (the codecs only)', t.array(t.int32()), bytesOf(len(1, [1, 2]))],
  ])('%s', (_, schema, bytes) => {
    expectSame(pairOf(schema), bytes);
    expectSame(pairOf(schema, { emitDefaults: true }), bytes);
  });

  test('validate: true gives the codecs’ outcome', () => {
    const pair = pairOf(UserList, { validate: true });
    expectSame(pair, pair.protobuf.encode({ users: userList.users.slice(0, 5) }));
  });
});
