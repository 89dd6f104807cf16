import fc from 'fast-check';
import { Packr, Unpackr } from 'msgpackr';
import { describe, expect, test } from 'vitest';
import { createMsgpackCodec, msgpackMediaTypes } from '../../../src/codecs/msgpack/index.js';
import { type Infer, t } from '../../../src/index.js';
import { Category, EveryKind, everyKindValue } from '../../fixtures/every-kind.js';
import { codeOf } from '../../support/code-of.js';
import { cutAt, decodeAll, hex, toHex } from '../../support/self-describing.js';
import { concat, oneByteAtATime, readAll } from '../../support/streams.js';
import { describeHostileInput } from '../../support/suites/hostile-input.js';

const typed = createMsgpackCodec<Infer<typeof EveryKind>>({ schema: EveryKind });
const plain = createMsgpackCodec();

/** A nest of `levels` single-item arrays around nil. */
function deepArrays(levels: number): Uint8Array {
  const bytes = new Uint8Array(levels + 1).fill(0x91);
  bytes[levels] = 0xc0;
  return bytes;
}

/** A Category nested `levels` deep: {name: '', children: [ ... ]}. */
function deepCategories(levels: number): Uint8Array {
  const level = hex('82 a4 6e616d65 a0 a8 6368696c6472656e 91');
  const last = hex('82 a4 6e616d65 a0 a8 6368696c6472656e 90');
  return concat([...Array.from({ length: levels - 1 }, () => level), last]);
}

function nestedCategory(levels: number): Category {
  let node: Category = { name: 'leaf', children: [] };
  for (let i = 1; i < levels; i++) node = { name: `n${i}`, children: [node] };
  return node;
}

describe('msgpack codec', () => {
  test('media types: the registered one first', () => {
    expect(msgpackMediaTypes).toEqual([
      'application/msgpack',
      'application/x-msgpack',
      'application/x-msgpack-seq',
    ]);
    expect(typed.mediaType).toBe('application/msgpack');
    expect(typed.streamMediaType).toBe('application/x-msgpack-seq');
    expect(typed.format).toBe('msgpack');
    expect(typed.schema).toBe(EveryKind);
    expect(plain.schema).toBeUndefined();
  });

  test('EveryKind round-trips with the schema, in the schema types', () => {
    const value = everyKindValue();
    const back = typed.decode(typed.encode(value));
    expect(back).toEqual(value);
    expect(typeof back.i64).toBe('bigint');
    expect(typeof back.i64n).toBe('number');
    expect(back.blob.constructor).toBe(Uint8Array);
    expect(back.createdAt).toBeInstanceOf(Date);
    expect(back.byId).toBeInstanceOf(Map);
    expect(Object.getPrototypeOf(back.scores)).toBe(Object.prototype);
    expect('work' in back).toBe(false);
    expect('nickname' in back).toBe(false);
  });

  test('EveryKind round-trips schemaless, in the natural mapping', () => {
    const value = everyKindValue();
    const back = plain.decode(plain.encode(value)) as typeof value;
    expect(back).toEqual(value);
    expect(back.blob.constructor).toBe(Uint8Array);
    expect(back.byId).toBeInstanceOf(Map);
  });

  test('decoded bytes are copies, never views of the input', () => {
    const bytes = typed.encode(everyKindValue());
    const back = typed.decode(bytes);
    bytes.fill(0);
    expect(back.blob).toEqual(new Uint8Array([0, 1, 2, 254, 255]));
    const raw = plain.encode(new Uint8Array([9, 9]));
    const decoded = plain.decode(Buffer.from(raw)) as Uint8Array;
    expect(decoded.constructor).toBe(Uint8Array);
    expect(decoded).toEqual(new Uint8Array([9, 9]));
  });

  describe('edge values round-trip with a schema', () => {
    const cases: [string, ReturnType<typeof t.int8> | object, unknown][] = [
      ['int64 min', t.int64(), -(2n ** 63n)],
      ['int64 max', t.int64(), 2n ** 63n - 1n],
      ['uint64 max', t.uint64(), 2n ** 64n - 1n],
      ['uint64 zero', t.uint64(), 0n],
      ['int64 as number, min safe', t.int64({ as: 'number' }), Number.MIN_SAFE_INTEGER],
      ['int64 as number, 2^40', t.int64({ as: 'number' }), 2 ** 40],
      ['uint32 max', t.uint32(), 4_294_967_295],
      ['int32 min', t.int32(), -2_147_483_648],
      ['NaN', t.float64(), Number.NaN],
      ['-0', t.float64(), -0],
      ['+Infinity', t.float64(), Number.POSITIVE_INFINITY],
      ['-Infinity', t.float32(), Number.NEGATIVE_INFINITY],
      ['float32 NaN', t.float32(), Number.NaN],
      ['empty string', t.string(), ''],
      ['astral string', t.string(), '𝄞 🚀 中文 é'],
      ['long string', t.string(), 'x'.repeat(70_000)],
      ['long unicode string', t.string(), 'é'.repeat(40)],
      ['empty bytes', t.bytes(), new Uint8Array(0)],
      ['long bytes', t.bytes(), new Uint8Array(70_000).fill(7)],
      ['empty array', t.array(t.int8()), []],
      ['empty string map', t.map(t.string(), t.bool()), {}],
      ['empty int map', t.map(t.uint64(), t.bool()), new Map()],
      ['bigint-keyed map', t.map(t.int64(), t.string()), new Map([[-(2n ** 63n), 'min']])],
      ['null', t.nullable(t.string()), null],
      ['decimal', t.decimal(), '-0.000'],
      ['timestamp before 1970 with ms', t.timestamp(), new Date(-1)],
      ['timestamp far future', t.timestamp(), new Date(8.64e15)],
      ['timestamp far past', t.timestamp(), new Date(-8.64e15)],
      ['timestamp in the 64-bit form', t.timestamp(), new Date(2 ** 33 * 1000 + 5)],
      ['json', t.json(), [1, -2.5, 'x', null, false, { a: [] }, 2 ** 53 - 1]],
      ['array of optional', t.array(t.optional(t.int8())), [1, undefined, 3]],
    ];
    for (const [name, schema, value] of cases) {
      test(name, () => {
        const codec = createMsgpackCodec({ schema: schema as never });
        expect(codec.decode(codec.encode(value as never))).toEqual(value);
      });
    }

    test('missing optionals stay absent; nulls stay null', () => {
      const Schema = t.object('O', {
        a: t.optional(t.string()),
        b: t.nullable(t.int8()),
        c: t.optional(t.nullable(t.bool())),
      });
      const codec = createMsgpackCodec({ schema: Schema });
      for (const value of [{ b: null }, { a: 'x', b: 1, c: null }, { b: 2, c: true }]) {
        const back = codec.decode(codec.encode(value as never));
        expect(back).toEqual(value);
        expect(Object.keys(back as object).sort()).toEqual(Object.keys(value).sort());
      }
    });

    test('recursion within the limits', () => {
      const codec = createMsgpackCodec({ schema: Category });
      const value = nestedCategory(45); // an object and an array per level: 90 levels of nesting
      expect(codec.decode(codec.encode(value))).toEqual(value);
    });
  });

  describe('bytes on the wire follow docs/mapping/msgpack.md', () => {
    test('int64 is an integer, never a float; smallest form', () => {
      const codec = createMsgpackCodec({ schema: t.int64({ as: 'number' }) });
      expect(toHex(codec.encode(2 ** 40))).toBe('cf0000010000000000');
      expect(toHex(codec.encode(-(2 ** 40)))).toBe('d3ffffff0000000000');
      expect(toHex(codec.encode(5))).toBe('05');
      expect(toHex(createMsgpackCodec({ schema: t.int64() }).encode(-(2n ** 63n)))).toBe(
        'd38000000000000000',
      );
      // msgpackr alone writes the same number as a float64.
      expect(toHex(new Packr({ useRecords: false }).pack(2 ** 40))).toBe('cb4270000000000000');
    });

    test('float64 stays a float even when integral; float32 is 4 bytes', () => {
      expect(toHex(createMsgpackCodec({ schema: t.float64() }).encode(2))).toBe('cb4000000000000000');
      expect(toHex(createMsgpackCodec({ schema: t.float32() }).encode(1.5))).toBe('ca3fc00000');
    });

    test('objects are maps keyed by field name, literal and tag fields included, absent optionals left out', () => {
      const Schema = t.object('P', { kind: t.literal('p'), x: t.int8(), note: t.optional(t.string()) });
      expect(toHex(createMsgpackCodec({ schema: Schema }).encode({ kind: 'p', x: 1 }))).toBe(
        '82a46b696e64a170a17801',
      );
    });

    test('timestamps use the extension -1 in its smallest form', () => {
      const codec = createMsgpackCodec({ schema: t.timestamp() });
      expect(toHex(codec.encode(new Date(1000)))).toBe('d6ff00000001');
      expect(toHex(codec.encode(new Date(1001)))).toBe('d7ff003d090000000001');
      expect(toHex(codec.encode(new Date(-1)))).toBe('c70cff3b8b87c0ffffffffffffffff');
    });

    test('plain MessagePack by default: no msgpackr records, readable by a plain Unpackr', () => {
      const values = [
        { a: 1, b: 'x' },
        { a: 2, b: 'y' },
      ];
      const ours = plain.encode(values);
      expect(new Unpackr({ useRecords: false, mapsAsObjects: true }).unpack(ours)).toEqual(values);
      expect(toHex(ours)).toBe('9282a16101a162a17882a16102a162a179');
      // msgpackr's defaults write its record extension (ext 0x72), which other implementations cannot read.
      expect(toHex(new Packr().pack(values))).toContain('d47240');
    });

    test('schemaless numbers: safe integers as integers in their smallest form, others as float64; bigints as integers', () => {
      expect(toHex(plain.encode([1, -1, 2 ** 32 - 1, 2 ** 40, -0, 0.5]))).toBe(
        '9601ffceffffffffcf0000010000000000cb8000000000000000cb3fe0000000000000',
      );
      expect(toHex(plain.encode(5n))).toBe('05');
      expect(plain.decode(plain.encode([5n, 2n ** 64n - 1n, -0, 2 ** 40]))).toEqual([
        5,
        2n ** 64n - 1n,
        -0,
        2 ** 40,
      ]);
    });
  });

  describe('encoding checks the types it writes', () => {
    const cases: [string, unknown, string, (string | number)[]][] = [
      ['a string for an int32', { ...everyKindValue(), i32: '1' }, 'WK_VALIDATION_FAILED', ['i32']],
      ['an int8 out of range', { ...everyKindValue(), i8: 128 }, 'WK_VALIDATION_FAILED', ['i8']],
      ['a number for int64 as bigint', { ...everyKindValue(), i64: 1 }, 'WK_VALIDATION_FAILED', ['i64']],
      ['uint64 beyond 2^64', { ...everyKindValue(), u64: 2n ** 64n }, 'WK_VALIDATION_FAILED', ['u64']],
      ['an unsafe int64 number', { ...everyKindValue(), i64n: 2 ** 60 }, 'WK_VALIDATION_FAILED', ['i64n']],
      ['a bad enum', { ...everyKindValue(), color: 'pink' }, 'WK_VALIDATION_FAILED', ['color']],
      ['a wrong literal', { ...everyKindValue(), version: 'v2' }, 'WK_VALIDATION_FAILED', ['version']],
      ['a bad decimal', { ...everyKindValue(), price: '1e5' }, 'WK_VALIDATION_FAILED', ['price']],
      [
        'an invalid Date',
        { ...everyKindValue(), createdAt: new Date(Number.NaN) },
        'WK_VALIDATION_FAILED',
        ['createdAt'],
      ],
      [
        'a missing required field',
        { ...everyKindValue(), home: undefined },
        'WK_VALIDATION_FAILED',
        ['home'],
      ],
      [
        'a deep wrong item',
        { ...everyKindValue(), matrix: [[1], [2, 'x']] },
        'WK_VALIDATION_FAILED',
        ['matrix', 1, 1],
      ],
      [
        'an unknown union tag',
        { ...everyKindValue(), shape: { kind: 'hex' } },
        'WK_VALIDATION_FAILED',
        ['shape', 'kind'],
      ],
      ['a lone surrogate', { ...everyKindValue(), name: 'a\ud800b' }, 'WK_ENCODE_UNSUPPORTED', ['name']],
      [
        'a long lone surrogate',
        { ...everyKindValue(), tags: [`${'x'.repeat(80)}\udc00`] },
        'WK_ENCODE_UNSUPPORTED',
        ['tags', 0],
      ],
      [
        'an unsafe map key',
        { ...everyKindValue(), scores: JSON.parse('{"__proto__": 1}') },
        'WK_ENCODE_UNSUPPORTED',
        ['scores', '__proto__'],
      ],
      [
        'a non-JSON value in json',
        { ...everyKindValue(), extra: { d: new Date() } },
        'WK_VALIDATION_FAILED',
        ['extra', 'd'],
      ],
      ['NaN in json', { ...everyKindValue(), extra: [Number.NaN] }, 'WK_VALIDATION_FAILED', ['extra', 0]],
    ];
    for (const [name, value, code, path] of cases) {
      test(name, () => {
        try {
          typed.encode(value as never);
          expect.unreachable();
        } catch (error) {
          expect(error).toMatchObject({ code, path });
        }
      });
    }

    test('validate: true checks constraints and unknown keys first', () => {
      const strict = createMsgpackCodec({ schema: EveryKind, validate: true });
      expect(
        codeOf(() => strict.encode({ ...everyKindValue(), home: { street: '', zip: '12345678901' } })),
      ).toBe('WK_VALIDATION_FAILED');
      expect(codeOf(() => strict.encode({ ...everyKindValue(), surplus: 1 } as never))).toBe(
        'WK_VALIDATION_FAILED',
      );
      // Without it, keys the schema does not know are simply not written.
      const back = typed.decode(typed.encode({ ...everyKindValue(), surplus: 1 } as never));
      expect('surplus' in back).toBe(false);
    });

    test('schemaless refuses what it cannot write back', () => {
      for (const value of [
        () => 1,
        Symbol('s'),
        new Set([1]),
        new Float32Array(1),
        new Date(Number.NaN),
        2n ** 64n,
        { a: 'x\udfff' },
      ]) {
        expect(
          codeOf(() => plain.encode(value)),
          String(value),
        ).toBe('WK_ENCODE_UNSUPPORTED');
      }
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      expect(codeOf(() => plain.encode(cyclic))).toBe('WK_ENCODE_UNSUPPORTED');
      // The codec still works after a failure.
      expect(plain.decode(plain.encode({ ok: true }))).toEqual({ ok: true });
    });

    test('a getter that encodes with the same codec gets its own buffer', () => {
      const value = {
        get inner() {
          return plain.encode({ deep: 'x'.repeat(100) });
        },
        after: 'y'.repeat(50),
      };
      const back = plain.decode(plain.encode(value)) as { inner: Uint8Array; after: string };
      expect(plain.decode(back.inner)).toEqual({ deep: 'x'.repeat(100) });
      expect(back.after).toBe('y'.repeat(50));
    });
  });

  describe('decoding with a schema converts and checks', () => {
    const Point = t.object('Point', {
      kind: t.literal('point'),
      x: t.int32(),
      label: t.field(t.string(), { default: 'none' }),
      note: t.optional(t.string()),
    });
    const codec = createMsgpackCodec({ schema: Point });

    test('a string where an int32 is expected is a mismatch, with the path', () => {
      const error = (() => {
        try {
          codec.decode(plain.encode({ kind: 'point', x: '1', label: 'a' }));
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toMatchObject({ code: 'WK_DECODE_SCHEMA_MISMATCH', path: ['x'] });
    });

    test('out-of-range integers, floats for integers and bad enum members are mismatches', () => {
      expect(codeOf(() => codec.decode(plain.encode({ kind: 'point', x: 2 ** 31, label: 'a' })))).toBe(
        'WK_DECODE_SCHEMA_MISMATCH',
      );
      expect(codeOf(() => codec.decode(plain.encode({ kind: 'point', x: 1.5, label: 'a' })))).toBe(
        'WK_DECODE_SCHEMA_MISMATCH',
      );
      expect(codeOf(() => codec.decode(plain.encode({ kind: 'other', x: 1, label: 'a' })))).toBe(
        'WK_DECODE_SCHEMA_MISMATCH',
      );
      const colors = createMsgpackCodec({ schema: t.enum('C', ['red']) });
      expect(codeOf(() => colors.decode(plain.encode('blue')))).toBe('WK_DECODE_SCHEMA_MISMATCH');
      const small = createMsgpackCodec({ schema: t.int64({ as: 'number' }) });
      expect(codeOf(() => small.decode(plain.encode(2n ** 60n)))).toBe('WK_DECODE_SCHEMA_MISMATCH');
      const unsigned = createMsgpackCodec({ schema: t.uint64() });
      expect(codeOf(() => unsigned.decode(plain.encode(-1)))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    });

    test('unknown keys are skipped; literals and defaults are filled in; optionals stay absent', () => {
      const bytes = plain.encode({ extra: { deep: [1, 2, { x: 'y' }] }, x: 7, later: new Uint8Array(3) });
      expect(codec.decode(bytes)).toEqual({ kind: 'point', x: 7, label: 'none' });
    });

    test('a missing required field, a duplicate field and a nil for a required field are refused', () => {
      expect(codeOf(() => codec.decode(plain.encode({ kind: 'point', label: 'a' })))).toBe(
        'WK_DECODE_SCHEMA_MISMATCH',
      );
      expect(codeOf(() => codec.decode(hex('82a17801a17802')))).toBe('WK_DECODE_MALFORMED');
      expect(codeOf(() => codec.decode(plain.encode({ x: null })))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    });

    test('a nil for an optional field means absent', () => {
      expect(codec.decode(plain.encode({ x: 1, note: null }))).toEqual({
        kind: 'point',
        x: 1,
        label: 'none',
      });
    });

    test('a union whose tag is not the first key, and an unknown tag', () => {
      const shapes = createMsgpackCodec({
        schema: EveryKind.fields.find((f) => f.name === 'shape')?.schema as never,
      });
      expect(shapes.decode(plain.encode({ width: 1, height: 2, kind: 'rect' }))).toEqual({
        kind: 'rect',
        width: 1,
        height: 2,
      });
      expect(codeOf(() => shapes.decode(plain.encode({ kind: 'hex' })))).toBe('WK_DECODE_SCHEMA_MISMATCH');
      expect(codeOf(() => shapes.decode(plain.encode({ radius: 1 })))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    });

    test('integers read as floats; float32 fields round to float32', () => {
      const floats = createMsgpackCodec({ schema: t.object('F', { a: t.float64(), b: t.float32() }) });
      expect(floats.decode(plain.encode({ a: 3, b: 0.1 }))).toEqual({ a: 3, b: Math.fround(0.1) });
    });

    test('string-keyed maps refuse unsafe keys and duplicates', () => {
      const scores = createMsgpackCodec({ schema: t.map(t.string(), t.int8()) });
      for (const key of ['__proto__', 'constructor', 'prototype']) {
        expect(codeOf(() => scores.decode(concat([hex('81'), plain.encode(key), hex('01')])))).toBe(
          'WK_DECODE_UNSAFE_KEY',
        );
      }
      expect(codeOf(() => scores.decode(hex('82a16101a16102')))).toBe('WK_DECODE_MALFORMED');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    test('trailing bytes and truncation', () => {
      const bytes = typed.encode(everyKindValue());
      expect(codeOf(() => typed.decode(concat([bytes, hex('00')])))).toBe('WK_DECODE_TRAILING');
      expect(codeOf(() => typed.decode(bytes.subarray(0, bytes.length - 1)))).toBe('WK_DECODE_TRUNCATED');
    });

    test('timestamps with nanoseconds keep their milliseconds (rounded toward the past)', () => {
      const stamps = createMsgpackCodec<Date>({ schema: t.timestamp({ precision: 'ns' }) });
      // 1 s + 999,999,999 ns
      expect(stamps.decode(hex('d7ffee6b27fc00000001')).getTime()).toBe(1999);
      // -1 s + 500,000 ns in the 96-bit form
      expect(stamps.decode(hex('c70cff0007a120ffffffffffffffff')).getTime()).toBe(-1000);
      expect(codeOf(() => stamps.decode(hex('c70cff3b9aca00ffffffffffffffff')))).toBe('WK_DECODE_MALFORMED');
    });
  });

  describe('streaming', () => {
    const values = [
      everyKindValue(),
      { ...everyKindValue(), name: 'second', nickname: 'nick' },
      everyKindValue(),
    ];

    test('encodeStream → decodeStream from random cuts and single bytes, with a schema', async () => {
      const bytes = await readAll(typed.encodeStream(values));
      expect(bytes).toEqual(concat(values.map((value) => typed.encode(value))));
      expect(await decodeAll(typed, oneByteAtATime(bytes))).toEqual(values);
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }),
          async (cuts) => {
            expect(
              await decodeAll(
                typed,
                cutAt(
                  bytes,
                  cuts.sort((a, b) => a - b),
                ),
              ),
            ).toEqual(values);
          },
        ),
        { numRuns: 40 },
      );
    });

    test('schemaless streams, from an async source, including scalars', async () => {
      const items: unknown[] = [
        1,
        'two',
        [3],
        { four: 4 },
        null,
        new Map([[5, 'five']]),
        new Uint8Array([6]),
      ];
      async function* source() {
        yield* items;
      }
      const bytes = await readAll(plain.encodeStream(source()));
      expect(await decodeAll(plain, oneByteAtATime(bytes))).toEqual(items);
      expect(await decodeAll(plain, cutAt(bytes, [3, 4, 9]))).toEqual(items);
    });

    test('a large value in many small chunks, and two streams read at once on one codec', async () => {
      const big = Array.from({ length: 20_000 }, (_, i) => ({ i, s: `item ${i}`, nested: [i, [i]] }));
      const bytes = concat([plain.encode(big), plain.encode('after')]);
      const cuts = Array.from({ length: Math.floor(bytes.length / 700) }, (_, i) => (i + 1) * 700);
      const [first, second] = await Promise.all([
        decodeAll(plain, cutAt(bytes, cuts)),
        decodeAll(
          plain,
          cutAt(
            bytes,
            cuts.map((cut) => cut - 350),
          ),
        ),
      ]);
      expect(first).toEqual([big, 'after']);
      expect(second).toEqual([big, 'after']);
    });

    test('a stream that ends inside a value, or holds bad bytes, fails with a code', async () => {
      const bytes = typed.encode(everyKindValue());
      await expect(decodeAll(typed, cutAt(bytes.subarray(0, 50), [10]))).rejects.toMatchObject({
        code: 'WK_DECODE_TRUNCATED',
      });
      await expect(decodeAll(plain, cutAt(hex('01c1'), []))).rejects.toMatchObject({
        code: 'WK_DECODE_MALFORMED',
      });
      const small = createMsgpackCodec({ limits: { maxInputBytes: 100 } });
      const big = concat([hex('c6000003e8'), new Uint8Array(200)]);
      await expect(decodeAll(small, cutAt(big, [100]))).rejects.toMatchObject({ code: 'WK_LIMIT_INPUT' });
    });
  });

  describe('limits', () => {
    const cases: [string, Record<string, number>, Uint8Array, string][] = [
      ['maxInputBytes', { maxInputBytes: 3 }, plain.encode('abcd'), 'WK_LIMIT_INPUT'],
      ['maxDepth', { maxDepth: 3 }, deepArrays(4), 'WK_LIMIT_DEPTH'],
      ['maxStringBytes', { maxStringBytes: 3 }, plain.encode('abcd'), 'WK_LIMIT_LENGTH'],
      ['maxBytesLength', { maxBytesLength: 3 }, plain.encode(new Uint8Array(4)), 'WK_LIMIT_LENGTH'],
      ['maxElements (items)', { maxElements: 3 }, plain.encode([[1, 2], [3]]), 'WK_LIMIT_ELEMENTS'],
      ['maxElements (entries)', { maxElements: 2 }, plain.encode({ a: 1, b: { c: 2 } }), 'WK_LIMIT_ELEMENTS'],
    ];
    for (const [name, limits, bytes, code] of cases) {
      test(`${name}, schemaless`, () => {
        expect(codeOf(() => createMsgpackCodec({ limits }).decode(bytes))).toBe(code);
      });
      test(`${name}, with a schema`, () => {
        expect(codeOf(() => createMsgpackCodec({ schema: t.json(), limits }).decode(bytes))).toBe(
          name.startsWith('maxBytes') ? 'WK_DECODE_SCHEMA_MISMATCH' : code,
        );
      });
    }

    test('the limits are inclusive', () => {
      expect(createMsgpackCodec({ limits: { maxDepth: 4 } }).decode(deepArrays(4))).toEqual([[[[null]]]]);
      expect(createMsgpackCodec({ limits: { maxElements: 4 } }).decode(plain.encode([[1], [3]]))).toEqual([
        [1],
        [3],
      ]);
      const bytes = createMsgpackCodec({ schema: t.bytes(), limits: { maxBytesLength: 4 } });
      expect(bytes.decode(plain.encode(new Uint8Array(4)))).toEqual(new Uint8Array(4));
      expect(
        codeOf(() =>
          createMsgpackCodec({ schema: t.bytes(), limits: { maxBytesLength: 3 } }).decode(
            plain.encode(new Uint8Array(4)),
          ),
        ),
      ).toBe('WK_LIMIT_LENGTH');
    });

    test('a maxDepth far above the default still ends in a code, not a stack overflow', () => {
      const limits = { maxDepth: 2_000_000 };
      const deep = deepArrays(1_000_000);
      expect(codeOf(() => createMsgpackCodec({ limits }).decode(deep))).toBe('WK_LIMIT_DEPTH');
      expect(codeOf(() => createMsgpackCodec({ schema: t.json(), limits }).decode(deep))).toBe(
        'WK_LIMIT_DEPTH',
      );
      let nest: unknown[] = [];
      for (let i = 0; i < 1_000_000; i++) nest = [nest];
      expect(codeOf(() => createMsgpackCodec({ limits }).encode(nest))).toBe('WK_ENCODE_UNSUPPORTED');
    });

    test('skipped unknown keys count against the limits too', () => {
      const codec = createMsgpackCodec({
        schema: t.object('A', { a: t.int8() }),
        limits: { maxDepth: 2, maxElements: 10 },
      });
      expect(codeOf(() => codec.decode(plain.encode({ a: 1, skip: [[[1]]] })))).toBe('WK_LIMIT_DEPTH');
      expect(codeOf(() => codec.decode(plain.encode({ a: 1, skip: new Array(20).fill(0) })))).toBe(
        'WK_LIMIT_ELEMENTS',
      );
    });
  });

  describe('the scanner refuses what msgpackr would get wrong', () => {
    test('a deep nest overflows msgpackr; wirekit stops at maxDepth', () => {
      expect(() => new Unpackr({ useRecords: false }).unpack(deepArrays(100_000))).toThrow(RangeError);
      expect(codeOf(() => plain.decode(deepArrays(100_000)))).toBe('WK_LIMIT_DEPTH');
    });

    test('msgpackr renames __proto__ silently; wirekit refuses it', () => {
      const bytes = hex('81a95f5f70726f746f5f5f01');
      expect(new Unpackr({ useRecords: false }).unpack(bytes)).toEqual({ __proto_: 1 });
      expect(codeOf(() => plain.decode(bytes))).toBe('WK_DECODE_UNSAFE_KEY');
      expect(codeOf(() => plain.decode(hex('81ab636f6e7374727563746f7201')))).toBe('WK_DECODE_UNSAFE_KEY');
    });

    test('msgpackr turns invalid UTF-8 into U+FFFD; wirekit refuses it', () => {
      expect(new Unpackr({ useRecords: false }).unpack(hex('a2c328'))).toContain('\ufffd');
      for (const bad of ['a2c328', 'a3eda080', 'a2c0af', 'a4f4908080', 'a1ff']) {
        expect(
          codeOf(() => plain.decode(hex(bad))),
          bad,
        ).toBe('WK_DECODE_MALFORMED');
      }
    });

    test('extensions other than the timestamp are refused', () => {
      for (const bytes of ['d40000', 'd40101', 'c70142ff', 'd57201ff', 'c800010501']) {
        expect(
          codeOf(() => plain.decode(hex(bytes))),
          bytes,
        ).toBe('WK_DECODE_UNKNOWN_EXTENSION');
      }
      expect(codeOf(() => plain.decode(hex('d5ff0000')))).toBe('WK_DECODE_MALFORMED');
      expect(codeOf(() => plain.decode(hex('c1')))).toBe('WK_DECODE_MALFORMED');
    });

    test('maps with non-string keys decode as Map, the others as objects', () => {
      const bytes = plain.encode({
        outer: new Map<unknown, unknown>([
          [1, { inner: 'x' }],
          ['s', 2],
        ]),
      });
      const back = plain.decode(bytes) as { outer: Map<unknown, unknown> };
      expect(back).toEqual({
        outer: new Map<unknown, unknown>([
          [1, { inner: 'x' }],
          ['s', 2],
        ]),
      });
      expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
      expect(plain.decode(plain.encode(new Map([['only', 'strings']])))).toEqual({ only: 'strings' });
      expect(plain.decode(hex('81c401ff01'))).toEqual(new Map([[new Uint8Array([255]), 1]]));
    });

    test('timestamps from other writers decode as msgpackr reads them', () => {
      expect(plain.decode(hex('d6ff00000001'))).toEqual(new Date(1000));
      expect(codeOf(() => plain.decode(hex('c70cff3b9aca00ffffffffffffffff')))).toBe('WK_DECODE_MALFORMED');
      expect(codeOf(() => plain.decode(hex('c70cff000000000000100000000000')))).toBe('WK_DECODE_MALFORMED');
    });
  });

  describe('spec vectors (the msgpack-test-suite package is not installed; these follow the spec tables)', () => {
    const vectors: [string, unknown][] = [
      ['c0', null],
      ['c2', false],
      ['c3', true],
      ['00', 0],
      ['7f', 127],
      ['cc80', 128],
      ['ccff', 255],
      ['cd0100', 256],
      ['cdffff', 65_535],
      ['ce00010000', 65_536],
      ['ceffffffff', 4_294_967_295],
      ['cf0000000100000000', 4_294_967_296],
      ['cfffffffffffffffff', 18_446_744_073_709_551_615n],
      ['ff', -1],
      ['e0', -32],
      ['d0df', -33],
      ['d080', -128],
      ['d1ff7f', -129],
      ['d18000', -32_768],
      ['d2ffff7fff', -32_769],
      ['d280000000', -2_147_483_648],
      ['d3ffffffff7fffffff', -2_147_483_649],
      ['d38000000000000000', -(2n ** 63n)],
      ['ca3f800000', 1],
      ['cb3ff0000000000000', 1],
      ['cb7ff8000000000000', Number.NaN],
      ['a0', ''],
      ['a161', 'a'],
      ['d90161', 'a'],
      ['da000161', 'a'],
      ['db0000000161', 'a'],
      ['c40101', new Uint8Array([1])],
      ['c5000101', new Uint8Array([1])],
      ['c600000001 01', new Uint8Array([1])],
      ['90', []],
      ['dc000101', [1]],
      ['dd0000000101', [1]],
      ['80', {}],
      ['de0001a16101', { a: 1 }],
      ['df00000001a16101', { a: 1 }],
      ['d6ff00000000', new Date(0)],
      ['d7ff0000000000000000', new Date(0)],
      ['c70cff000000000000000000000000', new Date(0)],
    ];
    test.each(vectors)('%s', (bytes, value) => {
      expect(plain.decode(hex(bytes))).toEqual(value);
    });
  });

  describe('msgpackRecords, schemaless', () => {
    const records = createMsgpackCodec({ msgpackRecords: true });
    const rows = Array.from({ length: 50 }, (_, i) => ({
      id: i,
      name: `n${i}`,
      tags: ['a'],
      at: new Date(i),
    }));

    test('round-trips, smaller than plain maps, each value standing alone', () => {
      const bytes = records.encode(rows);
      expect(records.decode(bytes)).toEqual(rows);
      expect(bytes.length).toBeLessThan(plain.encode(rows).length);
      expect(records.decode(records.encode({ x: 1 }))).toEqual({ x: 1 });
      expect(records.decode(records.encode(new Map([[1, 2]])))).toEqual(new Map([[1, 2]]));
    });

    test('streams', async () => {
      const bytes = await readAll(records.encodeStream([rows, rows.slice(3)]));
      expect(await decodeAll(records, oneByteAtATime(bytes))).toEqual([rows, rows.slice(3)]);
    });

    test('a reference to an undefined record, unsafe record keys and deep records are refused', () => {
      expect(codeOf(() => records.decode(hex('40')))).toBe('WK_DECODE_MALFORMED');
      expect(codeOf(() => records.decode(hex('d4724091a95f5f70726f746f5f5f01')))).toBe(
        'WK_DECODE_UNSAFE_KEY',
      );
      const deep = concat([hex('d4724091a178'), ...Array.from({ length: 200 }, () => hex('40')), hex('c0')]);
      expect(codeOf(() => records.decode(deep))).toBe('WK_LIMIT_DEPTH');
    });

    test('takes a schema too (records.test.ts tests that mode)', () => {
      const withSchema = createMsgpackCodec({ msgpackRecords: true, schema: t.int8() });
      expect(withSchema.decode(withSchema.encode(100))).toBe(100);
    });
  });
});

describeHostileInput('msgpack (schemaless)', {
  codec: plain,
  withLimits: (limits) => createMsgpackCodec({ limits }),
  samples: [everyKindValue(), { a: [1, 2.5, 'x'], b: new Map([[1, true]]) }, 'text', 2n ** 63n],
  deep: deepArrays,
  hugeLength: () => hex('dbfffffff0 61'),
  invalidUtf8: () => hex('81a16ba3e28228'),
  protoKey: () => hex('81a95f5f70726f746f5f5f81a8706f6c6c75746564c3'),
  detectsTrailing: true,
});

describeHostileInput('msgpack (EveryKind)', {
  codec: typed,
  withLimits: (limits) => createMsgpackCodec({ schema: EveryKind, limits }) as typeof typed,
  samples: [everyKindValue(), { ...everyKindValue(), work: { street: 'w', zip: '1' }, nickname: 'n' }],
  hugeLength: () => hex('dfffffffff'),
  detectsTrailing: true,
});

describeHostileInput('msgpack (recursive schema)', {
  codec: createMsgpackCodec({ schema: Category }),
  withLimits: (limits) => createMsgpackCodec({ schema: Category, limits }),
  samples: [nestedCategory(5), { name: 'x', children: [] }],
  deep: deepCategories,
  hugeLength: () => hex('82a46e616d65dbffffff00'),
  invalidUtf8: () => hex('82a46e616d65a2c328a86368696c6472656e90'),
  detectsTrailing: true,
});

describeHostileInput('msgpack (json kind)', {
  codec: createMsgpackCodec({ schema: t.json() }),
  withLimits: (limits) => createMsgpackCodec({ schema: t.json(), limits }),
  samples: [{ a: [1, 'x', null, true, { b: -2.5 }] }],
  deep: deepArrays,
  hugeLength: () => hex('ddffffffff'),
  invalidUtf8: () => hex('a3e28228'),
  protoKey: () => hex('81a95f5f70726f746f5f5f81a8706f6c6c75746564c3'),
  detectsTrailing: true,
});

describeHostileInput('msgpack (records)', {
  codec: createMsgpackCodec({ msgpackRecords: true }),
  withLimits: (limits) => createMsgpackCodec({ msgpackRecords: true, limits }),
  samples: [
    [
      { a: 1, b: 'x' },
      { a: 2, b: 'y' },
    ],
    { nested: { deep: [1, 2] } },
  ],
  deep: deepArrays,
  invalidUtf8: () => hex('a2c328'),
  protoKey: () => hex('81a95f5f70726f746f5f5f01'),
  detectsTrailing: true,
});
