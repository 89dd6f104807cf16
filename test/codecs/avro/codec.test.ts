import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createAvroCodec } from '../../../src/codecs/avro/index.js';
import { isWirekitError } from '../../../src/errors/index.js';
import { type Schema, t } from '../../../src/index.js';
import { avroValue, categoryChain } from '../../fixtures/avro-values.js';
import { Category, EveryKind, EveryKindFlat, everyKindValue, Shape } from '../../fixtures/every-kind.js';
import { codeOf } from '../../support/code-of.js';
import { concat } from '../../support/streams.js';
import { describeHostileInput } from '../../support/suites/hostile-input.js';

const codec = <T = unknown>(schema: Schema, limits?: Record<string, number>) =>
  createAvroCodec<T>({ schema, limits });
const bytes = (...values: number[]) => new Uint8Array(values);
const hex = (data: Uint8Array) => Buffer.from(data).toString('hex');
const roundTrip = (schema: Schema, value: unknown) => {
  const c = codec(schema);
  return c.decode(c.encode(value));
};

/** The error (code and path) that `run` throws. */
function failure(run: () => unknown): { code: string; path: unknown } {
  try {
    run();
  } catch (error) {
    if (isWirekitError(error)) return { code: error.code, path: error.path };
    throw error;
  }
  return { code: 'no error', path: undefined };
}

/** The bytes of EveryKind's first `count` fields of `value` (a record is its fields, one after another). */
function prefix(count: number, value: Record<string, unknown> = avroValue()): Uint8Array {
  const fields = EveryKind.fields.slice(0, count);
  const Prefix = t.object('Prefix', Object.fromEntries(fields.map((f) => [f.name, f.schema])));
  return codec(Prefix).encode(Object.fromEntries(fields.map((f) => [f.name, value[f.name]])));
}

const fieldIndex = (name: string) => EveryKind.fields.findIndex((f) => f.name === name);

/** EveryKind with its last field, category, nested `levels` deep without any names. */
function deepEveryKind(levels: number): Uint8Array {
  const shallow = codec(EveryKind).encode({ ...avroValue(), category: { name: '', children: [] } });
  const head = shallow.subarray(0, shallow.length - 2);
  const chain = new Uint8Array(3 * levels - 1);
  for (let i = 0; i < levels - 1; i++) chain.set([0x00, 0x02], 2 * i);
  return concat([head, chain.subarray(0, 2 * (levels - 1)), [0x00, 0x00], new Array(levels - 1).fill(0)]);
}

describe('avro codec: round trips', () => {
  test('EveryKind and EveryKindFlat', () => {
    const value = avroValue();
    expect(roundTrip(EveryKind, value)).toEqual(value);
    const { category: _, ...flat } = value;
    expect(roundTrip(EveryKindFlat, flat)).toEqual(flat);
  });

  test('a present optional, a non-null nullable, other variants', () => {
    const value = {
      ...avroValue(),
      work: { street: 'w', zip: 'z' },
      nickname: '🚀',
      manager: 'm',
      shape: { kind: 'rect', width: 3, height: 4 },
      shapes: [],
      byId: new Map(),
      scores: {},
      extra: null,
    };
    expect(roundTrip(EveryKind, value)).toEqual(value);
  });

  test('decoded literal fields are present, absent optionals absent', () => {
    const decoded = roundTrip(EveryKind, avroValue()) as Record<string, unknown>;
    expect(decoded.version).toBe('v1');
    expect(decoded.shape).toEqual({ kind: 'circle', radius: 2 });
    expect(Object.hasOwn(decoded, 'work')).toBe(false);
    expect(Object.hasOwn(decoded, 'nickname')).toBe(false);
    expect(decoded.manager).toBeNull();
  });

  test('roots that are not records', () => {
    expect(roundTrip(t.int32(), -5)).toBe(-5);
    expect(roundTrip(t.array(t.string()), ['a', 'b'])).toEqual(['a', 'b']);
    expect(roundTrip(t.map(t.int64(), t.string()), new Map([[1n, 'x']]))).toEqual(new Map([[1n, 'x']]));
    expect(roundTrip(Shape, { kind: 'rect', width: 1, height: 2 })).toEqual({
      kind: 'rect',
      width: 1,
      height: 2,
    });
    expect(roundTrip(t.optional(t.string()), undefined)).toBeUndefined();
    expect(roundTrip(t.nullable(Shape), null)).toBeNull();
    expect(codec(t.literal('x')).encode('x')).toEqual(bytes());
    expect(codec(t.literal('x')).decode(bytes())).toBe('x');
    expect(roundTrip(Category, categoryChain(3))).toEqual(categoryChain(3));
  });
});

const Edge = t.object('Edge', {
  i64: t.int64(),
  u64: t.uint64(),
  i64n: t.int64({ as: 'number' }),
  u64n: t.uint64({ as: 'number' }),
  u32: t.uint32(),
  f32: t.float32(),
  f64: t.float64(),
  text: t.string(),
  blob: t.bytes(),
  list: t.array(t.int32()),
  dict: t.map(t.string(), t.string()),
  bigKeys: t.map(t.int64(), t.bool()),
  smallKeys: t.map(t.uint8(), t.string()),
  opt: t.optional(t.string()),
  nul: t.nullable(t.int32()),
  both: t.optional(t.nullable(t.string())),
  maybeShape: t.nullable(Shape),
  optShape: t.optional(t.nullable(Shape)),
  dec: t.decimal({ precision: 38, scale: 4 }),
  decText: t.decimal(),
  sec: t.timestamp({ precision: 's' }),
  micros: t.timestamp({ precision: 'us' }),
  nanos: t.timestamp({ precision: 'ns' }),
  any: t.json(),
  lit: t.literal(42),
  optLit: t.optional(t.literal(true)),
  litList: t.array(t.literal('x')),
  defaulted: t.field(t.optional(t.int32()), { default: 7 }),
});

const edge = {
  i64: 2n ** 63n - 1n,
  u64: 0n,
  i64n: -Number.MAX_SAFE_INTEGER,
  u64n: Number.MAX_SAFE_INTEGER,
  u32: 0,
  f32: Number.NaN,
  f64: -0,
  text: '',
  blob: new Uint8Array(0),
  list: [],
  dict: {},
  bigKeys: new Map<bigint, boolean>(),
  smallKeys: new Map<number, string>(),
  nul: null,
  both: null,
  maybeShape: null,
  optShape: null,
  dec: '0.0000',
  decText: '-0.5',
  sec: new Date(0),
  micros: new Date(-1),
  nanos: new Date('2262-04-11T23:47:16.854Z'),
  any: [],
  lit: 42,
  litList: [],
  defaulted: 1,
};

describe('avro codec: edge values', () => {
  const c = codec(Edge);
  const check = (patch: Record<string, unknown>) => {
    const value = { ...edge, ...patch };
    expect(c.decode(c.encode(value))).toEqual(value);
  };

  test('integer limits', () => {
    check({});
    check({ i64: -(2n ** 63n), u64: 2n ** 63n - 1n, i64n: Number.MAX_SAFE_INTEGER, u32: 4_294_967_295 });
    check({ i64: 2n ** 52n, u64: 2n ** 53n + 1n, i64n: 2 ** 52, u64n: 0 });
    check({ i64: -(2n ** 31n), i64n: -(2 ** 31) - 1, u32: 2 ** 31 });
  });

  test('NaN, -0, infinities and float32 extremes', () => {
    for (const f of [
      Number.NaN,
      -0,
      0,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      3.4028234663852886e38,
    ]) {
      check({ f32: f, f64: f });
    }
    check({ f32: 1.401298464324817e-45, f64: 5e-324 });
    check({ f64: Number.MAX_VALUE });
  });

  test('strings: empty, unicode, astral, long, at the one-byte length boundary', () => {
    for (const text of [
      '',
      'é',
      '🚀',
      'a'.repeat(63),
      'a'.repeat(64),
      'é'.repeat(31),
      'é'.repeat(32),
      '€'.repeat(21),
    ]) {
      check({ text, dict: { [text]: text } });
    }
    check({ text: `${'x'.repeat(100)}🚀${'ü'.repeat(5000)}` });
    check({ text: '\u0000\uffff\u{10ffff}' });
  });

  test('empty and filled collections; integer keys stay numbers or bigints', () => {
    check({ list: [0, -1, 2_147_483_647], dict: { a: 'b', '': 'empty' }, litList: ['x', 'x'] });
    check({
      bigKeys: new Map([
        [-(2n ** 63n), true],
        [0n, false],
      ]),
      smallKeys: new Map([
        [255, 'max'],
        [0, 'min'],
      ]),
    });
  });

  test('optional and nullable, alone and stacked', () => {
    check({ opt: 'here', nul: 0, both: 'x', maybeShape: { kind: 'circle', radius: 1 } });
    check({ optShape: null, optLit: true });
    check({ optShape: { kind: 'rect', width: 0.5, height: 2 } });
    // optional(nullable(x)) has one "null" on the wire, which reads back as null.
    expect(c.decode(c.encode({ ...edge, both: undefined }))).toMatchObject({ both: null });
  });

  test('decimals come back with exactly the scale', () => {
    check({ dec: '99999999999999999999999999999999.9999', decText: '123456789012345678901234567890.5' });
    check({ dec: '-99999999999999999999999999999999.9999' });
    check({ dec: '-0.0001' });
    check({ dec: '127.0000' });
    check({ dec: '-128.0000' });
    expect(c.decode(c.encode({ ...edge, dec: '1.5' }))).toMatchObject({ dec: '1.5000' });
    expect(c.decode(c.encode({ ...edge, dec: '-0' }))).toMatchObject({ dec: '0.0000' });
  });

  test('timestamps in s, us and ns, before and after the epoch', () => {
    check({
      sec: new Date('1900-01-01T00:00:00Z'),
      micros: new Date(8.64e15),
      nanos: new Date(-9_223_372_036_854),
    });
    check({ micros: new Date(-8.64e15), nanos: new Date('1677-09-21T00:12:43.146Z') });
  });

  test('json values', () => {
    check({ any: { a: [1, 'two', null, true, { b: -1.5 }] } });
    check({ any: 'text' });
    check({ any: null });
  });

  test('recursion within the depth limit', () => {
    const deep = categoryChain(49);
    expect(roundTrip(Category, deep)).toEqual(deep);
    expect(
      codeOf(() => codec(Category).decode(codec(Category, { maxDepth: 1000 }).encode(categoryChain(51)))),
    ).toBe('WK_LIMIT_DEPTH');
    expect(roundTrip(Category, categoryChain(10))).toEqual(categoryChain(10));
  });
});

describe('avro codec: the bytes', () => {
  test('zigzag varints for int and long', () => {
    const int = codec(t.int32());
    expect([0, -1, 1, -64, 64, -2_147_483_648].map((n) => hex(int.encode(n)))).toEqual([
      '00',
      '01',
      '02',
      '7f',
      '8001',
      'ffffffff0f',
    ]);
    const long = codec(t.int64());
    expect(hex(long.encode(-(2n ** 63n)))).toBe('ffffffffffffffffff01');
    expect(hex(long.encode(2n ** 63n - 1n))).toBe('feffffffffffffffff01');
    expect(hex(codec(t.int64({ as: 'number' })).encode(2 ** 53 - 1))).toBe('feffffffffffff1f');
    expect(long.decode(bytes(0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01))).toBe(
      2n ** 63n - 1n,
    );
  });

  test('floats little-endian, strings and bytes length-prefixed, booleans one byte', () => {
    expect(hex(codec(t.float32()).encode(1.5))).toBe('0000c03f');
    expect(hex(codec(t.float64()).encode(-2))).toBe('00000000000000c0');
    expect(hex(codec(t.string()).encode('hé'))).toBe('0668c3a9');
    expect(hex(codec(t.bytes()).encode(bytes(1, 2)))).toBe('040102');
    expect(hex(codec(t.bool()).encode(true))).toBe('01');
  });

  test('decimals: shortest big-endian two’s complement', () => {
    const d = codec(t.decimal({ precision: 9, scale: 2 }));
    expect(['12.50', '-1', '0', '1.27', '1.28', '-1.28', '-1.29'].map((v) => hex(d.encode(v)))).toEqual([
      '0404e2',
      '029c',
      '0200',
      '027f',
      '040080',
      '0280',
      '04ff7f',
    ]);
  });

  test('arrays and maps: one block and a 0; negative counts with a byte size are read', () => {
    const list = codec(t.array(t.int32()));
    expect(hex(list.encode([1, 2]))).toBe('04020400');
    expect(hex(list.encode([]))).toBe('00');
    expect(list.decode(bytes(0x03, 0x04, 0x02, 0x04, 0x00))).toEqual([1, 2]);
    expect(list.decode(bytes(0x02, 0x02, 0x01, 0x02, 0x04, 0x00))).toEqual([1, 2]);
    const map = codec(t.map(t.string(), t.int32()));
    expect(map.decode(bytes(0x01, 0x06, 0x02, 0x61, 0x02, 0x00))).toEqual({ a: 1 });
  });

  test('unions: branch index then value; null where the exporter put it', () => {
    const Holder = t.object('Holder', {
      a: t.optional(t.int32()),
      b: t.field(t.optional(t.int32()), { default: 5 }),
      s: Shape,
    });
    const c = codec(Holder);
    expect(hex(c.encode({ a: 1, b: 1, s: { kind: 'rect', width: 0, height: 0 } }))).toBe(
      '02020002020000000000000000',
    );
    expect(hex(c.encode({ s: { kind: 'circle', radius: 0 } }))).toBe('0002000000000000000000');
  });

  test('integer-keyed maps are arrays of key/value records', () => {
    expect(hex(codec(t.map(t.int32(), t.string())).encode(new Map([[3, 'x']])))).toBe('0206027800');
  });
});

describe('avro codec: encoding checks', () => {
  const c = codec(EveryKind);

  test('wrong types fail with the path', () => {
    expect(failure(() => c.encode({ ...avroValue(), i8: 128 }))).toEqual({
      code: 'WK_VALIDATION_FAILED',
      path: ['i8'],
    });
    expect(failure(() => c.encode({ ...avroValue(), i64: 1 }))).toEqual({
      code: 'WK_VALIDATION_FAILED',
      path: ['i64'],
    });
    expect(failure(() => c.encode({ ...avroValue(), tags: ['a', 2] }))).toEqual({
      code: 'WK_VALIDATION_FAILED',
      path: ['tags', 1],
    });
    expect(failure(() => c.encode({ ...avroValue(), home: { street: 's' } }))).toEqual({
      code: 'WK_VALIDATION_FAILED',
      path: ['home', 'zip'],
    });
    expect(failure(() => c.encode({ ...avroValue(), shapes: [{ kind: 'oval' }] }))).toEqual({
      code: 'WK_VALIDATION_FAILED',
      path: ['shapes', 0, 'kind'],
    });
    expect(failure(() => c.encode({ ...avroValue(), byId: new Map([[7, { street: 1 }]]) }))).toEqual({
      code: 'WK_VALIDATION_FAILED',
      path: ['byId', '7', 'street'],
    });
    expect(failure(() => c.encode({ ...avroValue(), version: 'v2' }))).toEqual({
      code: 'WK_VALIDATION_FAILED',
      path: ['version'],
    });
    expect(failure(() => c.encode({ ...avroValue(), color: 'pink' })).code).toBe('WK_VALIDATION_FAILED');
    expect(failure(() => c.encode({ ...avroValue(), price: '1.234' })).code).toBe('WK_VALIDATION_FAILED');
    expect(failure(() => c.encode({ ...avroValue(), createdAt: new Date(Number.NaN) })).code).toBe(
      'WK_VALIDATION_FAILED',
    );
    expect(failure(() => c.encode({ ...avroValue(), extra: 1n })).code).toBe('WK_VALIDATION_FAILED');
    expect(failure(() => c.encode(null)).code).toBe('WK_VALIDATION_FAILED');
  });

  test('a uint64 of 2^63 or more is refused: Avro’s long is signed', () => {
    // A valid uint64 that no long holds: the format cannot carry it (the value is not invalid).
    expect(failure(() => c.encode(everyKindValue()))).toEqual({
      code: 'WK_ENCODE_UNSUPPORTED',
      path: ['u64'],
    });
    expect(codeOf(() => codec(t.uint64()).encode(2n ** 63n))).toBe('WK_ENCODE_UNSUPPORTED');
    expect(codeOf(() => codec(t.uint64()).encode(2n ** 64n))).toBe('WK_VALIDATION_FAILED');
    expect(codeOf(() => codec(t.uint64()).encode(-1n))).toBe('WK_VALIDATION_FAILED');
  });

  test('a lone surrogate cannot be written, in a short or a long string or a key', () => {
    expect(codeOf(() => c.encode({ ...avroValue(), name: 'a\ud800' }))).toBe('WK_ENCODE_UNSUPPORTED');
    expect(codeOf(() => c.encode({ ...avroValue(), name: `${'a'.repeat(100)}\udc00` }))).toBe(
      'WK_ENCODE_UNSUPPORTED',
    );
    expect(codeOf(() => c.encode({ ...avroValue(), scores: { '\ud800': 1 } }))).toBe('WK_ENCODE_UNSUPPORTED');
  });

  test('constraints are checked on every encode; validate: true adds unknown keys', () => {
    const value = { ...avroValue(), home: { street: 's', zip: 'x'.repeat(11) } };
    expect(codeOf(() => c.encode(value))).toBe('WK_VALIDATION_FAILED');
    const extra = { ...avroValue(), unknown: 1 };
    expect(codeOf(() => c.encode(extra))).toBe('no error');
    expect(codeOf(() => createAvroCodec({ schema: EveryKind, validate: true }).encode(extra))).toBe(
      'WK_VALIDATION_FAILED',
    );
  });

  test('a cyclic value stops at the depth limit', () => {
    const cyclic: { name: string; children: unknown[] } = { name: 'loop', children: [] };
    cyclic.children.push(cyclic);
    expect(codeOf(() => codec(Category).encode(cyclic))).toBe('WK_LIMIT_DEPTH');
  });

  test('encoding is re-entrant', () => {
    const inner = codec(t.string());
    const outer = codec(t.object('O', { a: t.string(), b: t.bytes() }));
    const value = {
      a: 'first',
      get b() {
        return outer.encode({ a: 'nested', b: inner.encode('x') });
      },
    };
    const decoded = outer.decode(outer.encode(value)) as { a: string; b: Uint8Array };
    expect(decoded.a).toBe('first');
    expect(outer.decode(decoded.b)).toEqual({ a: 'nested', b: inner.encode('x') });
  });

  test('outputs stay intact across later encodes, even after a buffer is transferred away', () => {
    const c = codec(t.string());
    const outputs = Array.from({ length: 2000 }, (_, i) => c.encode(`value ${i} ${'x'.repeat(i % 300)}`));
    expect(outputs.map((out) => c.decode(out))).toEqual(
      outputs.map((_, i) => `value ${i} ${'x'.repeat(i % 300)}`),
    );
    const first = c.encode('transfer me');
    structuredClone(first.buffer, { transfer: [first.buffer as ArrayBuffer] });
    expect(c.decode(c.encode('after'))).toBe('after');
    const big = 'y'.repeat(3_000_000);
    expect(c.decode(c.encode(big))).toBe(big);
    expect(c.decode(c.encode('small again'))).toBe('small again');
  });

  test('a failed encode leaves nothing behind', () => {
    const c = codec(t.object('O', { a: t.string(), b: t.int8() }));
    expect(codeOf(() => c.encode({ a: 'z'.repeat(20_000), b: 1000 }))).toBe('WK_VALIDATION_FAILED');
    expect(c.decode(c.encode({ a: 'ok', b: 1 }))).toEqual({ a: 'ok', b: 1 });
  });

  test('the schema must be one Avro can express', () => {
    expect(codeOf(() => createAvroCodec())).toBe('WK_SCHEMA_REQUIRED');
    expect(codeOf(() => codec(t.enum('E', ['in-progress'])))).toBe('WK_EXPORT_UNSUPPORTED');
  });
});

describe('avro codec: decoding checks', () => {
  const int8 = codec(t.int8());
  test('values outside the schema’s kind are a schema mismatch', () => {
    expect(codeOf(() => int8.decode(bytes(0x80, 0x02)))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    expect(codeOf(() => codec(t.uint64()).decode(bytes(0x01)))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    expect(codeOf(() => codec(t.uint32()).decode(bytes(0x80, 0x80, 0x80, 0x80, 0x20)))).toBe(
      'WK_DECODE_SCHEMA_MISMATCH',
    );
    expect(
      codeOf(() =>
        codec(t.int64({ as: 'number' })).decode(bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40)),
      ),
    ).toBe('WK_DECODE_SCHEMA_MISMATCH');
    expect(codeOf(() => codec(t.enum('E', ['a', 'b'])).decode(bytes(0x04)))).toBe(
      'WK_DECODE_SCHEMA_MISMATCH',
    );
    expect(codeOf(() => codec(Shape).decode(bytes(0x04)))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    expect(codeOf(() => codec(t.decimal({ precision: 2, scale: 0 })).decode(bytes(0x02, 0x7f)))).toBe(
      'WK_DECODE_SCHEMA_MISMATCH',
    );
    expect(codeOf(() => codec(t.decimal()).decode(bytes(0x04, 0x31, 0x2e)))).toBe(
      'WK_DECODE_SCHEMA_MISMATCH',
    );
    expect(codeOf(() => codec(t.literal(3)).decode(bytes()))).toBe('no error');
    expect(codeOf(() => codec(t.array(t.literal('x'))).decode(bytes(0x02, 0x02, 0x79, 0x00)))).toBe(
      'WK_DECODE_SCHEMA_MISMATCH',
    );
  });

  test('bytes the format does not allow are malformed', () => {
    expect(codeOf(() => codec(t.bool()).decode(bytes(0x02)))).toBe('WK_DECODE_MALFORMED');
    expect(codeOf(() => codec(t.int32()).decode(bytes(0xff, 0xff, 0xff, 0xff, 0x1f)))).toBe(
      'WK_DECODE_MALFORMED',
    );
    expect(codeOf(() => codec(t.int64()).decode(new Uint8Array(11).fill(0xff)))).toBe('WK_DECODE_MALFORMED');
    expect(codeOf(() => codec(t.int64()).decode(bytes(...new Array(9).fill(0xff), 0x02)))).toBe(
      'WK_DECODE_MALFORMED',
    );
    expect(codeOf(() => codec(t.string()).decode(bytes(0x01)))).toBe('WK_DECODE_MALFORMED');
    expect(codeOf(() => codec(t.json()).decode(bytes(0x02, 0x7b)))).toBe('WK_DECODE_MALFORMED');
    expect(codeOf(() => codec(t.timestamp()).decode(bytes(...new Array(9).fill(0xfe), 0x01)))).toBe(
      'WK_DECODE_MALFORMED',
    );
  });

  test('unsafe keys are refused in maps and json values', () => {
    const map = codec(t.map(t.string(), t.int32()));
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const encoded = new TextEncoder().encode(key);
      expect(codeOf(() => map.decode(concat([[0x02, encoded.length * 2], encoded, [0x00, 0x00]])))).toBe(
        'WK_DECODE_UNSAFE_KEY',
      );
    }
    const json = codec(t.json());
    const text = new TextEncoder().encode('{"a":{"__proto__":{"polluted":1}}}');
    expect(codeOf(() => json.decode(concat([[text.length * 2], text])))).toBe('WK_DECODE_UNSAFE_KEY');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('a Buffer input gives plain Uint8Array bytes, copied out of the input', () => {
    const input = Buffer.from(codec(t.bytes()).encode(bytes(1, 2, 3)));
    const decoded = codec(t.bytes()).decode(input) as Uint8Array;
    expect(decoded.constructor).toBe(Uint8Array);
    input[1] = 9;
    expect(decoded).toEqual(bytes(1, 2, 3));
  });

  test('trailing bytes are refused', () => {
    expect(codeOf(() => codec(t.int32()).decode(bytes(0x02, 0x00)))).toBe('WK_DECODE_TRAILING');
  });
});

describe('avro codec: limits', () => {
  const Holder = t.object('Holder', {
    s: t.string(),
    b: t.bytes(),
    list: t.array(t.int32()),
    m: t.map(t.string(), t.int32()),
    ids: t.map(t.int32(), t.bool()),
    any: t.json(),
  });
  const value = {
    s: 'ten bytes!',
    b: new Uint8Array(10),
    list: [1, 2, 3],
    m: { a: 1 },
    ids: new Map([[1, true]]),
    any: [1, [2]],
  };
  const encoded = codec(Holder).encode(value);
  const decodeWith = (limits: Record<string, number>) => codeOf(() => codec(Holder, limits).decode(encoded));

  test('each limit triggers its code, and exactly at the limit passes', () => {
    expect(decodeWith({ maxInputBytes: encoded.length })).toBe('no error');
    expect(decodeWith({ maxInputBytes: encoded.length - 1 })).toBe('WK_LIMIT_INPUT');
    expect(decodeWith({ maxStringBytes: 10 })).toBe('no error');
    expect(decodeWith({ maxStringBytes: 9 })).toBe('WK_LIMIT_LENGTH');
    expect(decodeWith({ maxBytesLength: 10 })).toBe('no error');
    expect(decodeWith({ maxBytesLength: 9 })).toBe('WK_LIMIT_LENGTH');
    // 3 items + 1 map entry + 1 int-keyed entry + 2 json array items + 1 nested json item.
    expect(decodeWith({ maxElements: 8 })).toBe('no error');
    expect(decodeWith({ maxElements: 7 })).toBe('WK_LIMIT_ELEMENTS');
    expect(decodeWith({ maxDepth: 3 })).toBe('no error');
    expect(decodeWith({ maxDepth: 2 })).toBe('WK_LIMIT_DEPTH');
  });

  test('a huge count of zero-byte items stops at maxElements, not after 2^62 iterations', () => {
    const nulls = codec(t.array(t.literal('x')));
    const Empty = t.object('Empty', { tag: t.literal('e') });
    const empties = codec(t.array(Empty));
    const huge = bytes(0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f);
    expect(codeOf(() => nulls.decode(huge))).toBe('WK_LIMIT_ELEMENTS');
    expect(codeOf(() => empties.decode(huge))).toBe('WK_LIMIT_ELEMENTS');
    expect(codeOf(() => codec(t.array(Empty), { maxElements: 3 }).decode(bytes(0x08, 0x00)))).toBe(
      'WK_LIMIT_ELEMENTS',
    );
    expect(codec(t.array(Empty)).decode(bytes(0x08, 0x00))).toEqual(new Array(4).fill({ tag: 'e' }));
  });

  test('a count larger than the bytes left fails before reading items', () => {
    expect(codeOf(() => codec(t.array(t.float64())).decode(bytes(0x80, 0x80, 0x04, 0x00)))).toBe(
      'WK_DECODE_TRUNCATED',
    );
  });
});

describe('avro codec: the decoder never mistakes one schema for another silently', () => {
  test('EveryKind bytes decoded as Category fail cleanly', () => {
    const encoded = codec(EveryKind).encode(avroValue());
    expect(codeOf(() => codec(Category).decode(encoded))).not.toBe('no error');
  });
});

/** Values the hostile suite truncates, extends and mutates. */
const samples = [
  avroValue(),
  { ...avroValue(), work: { street: 'w', zip: 'z' }, nickname: '🚀', manager: 'm', shapes: [], extra: 'x' },
];

describeHostileInput('avro', {
  codec: codec(EveryKind),
  withLimits: (limits) => codec(EveryKind, limits),
  samples,
  deep: deepEveryKind,
  // price, the first length-prefixed field, claims 2^40 bytes.
  hugeLength: () => concat([prefix(fieldIndex('price')), [0x80, 0x80, 0x80, 0x80, 0x80, 0x40]]),
  invalidUtf8: () => concat([prefix(fieldIndex('name')), [0x04, 0xc3, 0x28]]),
  protoKey: () =>
    concat([
      prefix(fieldIndex('scores')),
      [0x02, 0x12],
      new TextEncoder().encode('__proto__'),
      new Array(8).fill(0),
    ]),
  detectsTrailing: true,
});

describe('avro codec: hostile input beyond the suite', () => {
  test('mutations of values using every plan step only give values or wirekit errors', () => {
    const c = codec(Edge);
    const encoded = [
      c.encode(edge),
      c.encode({
        ...edge,
        opt: 'x',
        nul: 5,
        both: 'y',
        maybeShape: { kind: 'rect', width: 1, height: 2 },
        optShape: { kind: 'circle', radius: 1 },
        list: [1, 2, 3],
        dict: { a: 'b' },
        bigKeys: new Map([[5n, true]]),
        smallKeys: new Map([[1, 'one']]),
        any: { deep: [[{ x: 1 }]] },
        litList: ['x'],
        optLit: true,
      }),
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...encoded),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }),
        (original, edits) => {
          const mutated = original.slice();
          for (const [position, value] of edits) mutated[position % mutated.length] = value;
          codeOf(() => c.decode(mutated));
        },
      ),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (random) => {
        codeOf(() => c.decode(random));
      }),
      { numRuns: 1000 },
    );
  });

  test('the deep input really nests (and decodes when the limit allows)', () => {
    const value = codec(EveryKind, { maxDepth: 1000 }).decode(deepEveryKind(300)) as { category: Category };
    let depth = 0;
    for (let node: Category | undefined = value.category; node !== undefined; node = node.children[0])
      depth++;
    expect(depth).toBe(300);
  });

  test('a huge maxDepth still ends a 100,000-level nest in a wirekit error', () => {
    expect(codeOf(() => codec(EveryKind, { maxDepth: 10_000_000 }).decode(deepEveryKind(100_000)))).toMatch(
      /^WK_LIMIT_DEPTH$|^no error$/,
    );
  });

  test('huge string and map lengths claim nothing', () => {
    const s = codec(t.string());
    expect(codeOf(() => s.decode(bytes(0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01)))).toBe(
      'WK_LIMIT_LENGTH',
    );
    expect(codeOf(() => s.decode(bytes(0x80, 0x80, 0x80, 0x10)))).toBe('WK_DECODE_TRUNCATED');
    const map = codec(t.map(t.string(), t.bool()));
    expect(codeOf(() => map.decode(bytes(0x80, 0x80, 0x80, 0x01)))).toBe('WK_DECODE_TRUNCATED');
    expect(codeOf(() => map.decode(bytes(0xfe, 0xff, 0xff, 0xff, 0x0f)))).toBe('WK_LIMIT_ELEMENTS');
  });
});
