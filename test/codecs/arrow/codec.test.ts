import * as flatbuffers from 'flatbuffers';
import { describe, expect, test } from 'vitest';
import {
  type ArrowCodec,
  type ArrowCodecOptions,
  createArrowCodec,
} from '../../../src/codecs/arrow/index.js';
import type { Codec } from '../../../src/codecs/core/codec.js';
import { isWirekitError } from '../../../src/errors/index.js';
import { type Infer, type Schema, t } from '../../../src/index.js';
import { nestedListStream } from '../../fixtures/arrow-messages.js';
import { EveryKind, EveryKindFlat, everyKindValue, Shape } from '../../fixtures/every-kind.js';
import { codeOf } from '../../support/code-of.js';
import { collect, oneByteAtATime, readAll } from '../../support/streams.js';
import { describeHostileInput } from '../../support/suites/hostile-input.js';

type Flat = Infer<typeof EveryKindFlat>;

function flatValue(): Flat {
  const { category: _, ...rest } = everyKindValue();
  return rest;
}

/** Three rows that between them use every optional, null and variant the schema has. */
function flatRows(): Flat[] {
  return [
    flatValue(),
    {
      ...flatValue(),
      work: { street: 'Work St', zip: '' },
      nickname: '',
      manager: 'Ann',
      shape: { kind: 'rect', width: 0.5, height: -2 },
      shapes: [],
      matrix: [],
      scores: {},
      byId: new Map(),
      tags: [],
      extra: null,
      color: 'blue',
    },
    { ...flatValue(), extra: [1, 'two', { three: [3] }], name: '', blob: new Uint8Array(0), color: 'red' },
  ];
}

const arrow = <S extends Schema>(schema: S, options: Omit<ArrowCodecOptions, 'schema'> = {}) =>
  createArrowCodec<Infer<S>>({ schema, ...options });

/** Cuts bytes at `cuts` pseudo-random places (a fixed seed, so failures repeat). */
async function* randomChunks(data: Uint8Array, seed: number): AsyncGenerator<Uint8Array> {
  let state = seed;
  let at = 0;
  while (at < data.length) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const size = 1 + (state % 97);
    yield data.subarray(at, at + size);
    at += size;
  }
}

async function asyncCodeOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (isWirekitError(error)) return error.code;
    throw error;
  }
  return 'no error';
}

/** Replaces the first occurrence of `from` in `bytes` with `to` (same length). */
function patch(bytes: Uint8Array, from: string | number[], to: number[]): Uint8Array {
  const needle = typeof from === 'string' ? [...new TextEncoder().encode(from)] : from;
  const out = bytes.slice();
  for (let i = 0; i + needle.length <= out.length; i++) {
    if (needle.every((byte, j) => out[i + j] === byte)) {
      out.set(to, i);
      return out;
    }
  }
  throw new Error(`${String(from)} not found`);
}

describe('arrow: round trips', () => {
  for (const ipcFormat of ['stream', 'file'] as const) {
    test(`EveryKindFlat, ${ipcFormat} format`, () => {
      const codec = arrow(EveryKindFlat, { ipcFormat });
      const rows = flatRows();
      expect(codec.decode(codec.encode(rows))).toEqual(rows);
      expect(codec.decode(codec.encode([]))).toEqual([]);
    });
  }

  test('many rows over several batches, each row with its own nulls and variants', () => {
    const codec = arrow(EveryKindFlat, { batchSize: 4 });
    const rows = Array.from({ length: 23 }, (_, i) => flatRows()[i % 3] as Flat);
    expect(codec.decode(codec.encode(rows))).toEqual(rows);
    expect(codec.decodeTable(codec.encode(rows)).batches.map((batch) => batch.numRows)).toEqual([
      4, 4, 4, 4, 4, 3,
    ]);
  });

  test('literal fields cost nothing, come back on decode, and must hold their value', () => {
    const codec = arrow(t.object('R', { v: t.literal('v1'), n: t.int8() }));
    expect(codec.arrowSchema.fields.map((field) => field.name)).toEqual(['n']);
    expect(codec.decode(codec.encode([{ v: 'v1', n: 1 }]))).toEqual([{ v: 'v1', n: 1 }]);
    expect(codeOf(() => codec.encode([{ v: 'v2', n: 1 } as never]))).toBe('WK_VALIDATION_FAILED');
  });

  test('integer limits, int64 as numbers, and floats that are not ordinary numbers', () => {
    const Limits = t.object('Limits', {
      i64: t.array(t.int64()),
      u64: t.array(t.uint64()),
      n64: t.array(t.int64({ as: 'number' })),
      u64n: t.array(t.uint64({ as: 'number' })),
      f64: t.array(t.float64()),
      f32: t.array(t.float32()),
      i8: t.array(t.int8()),
      u32: t.array(t.uint32()),
    });
    const row = {
      i64: [-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n],
      u64: [0n, 2n ** 64n - 1n, 2n ** 32n],
      n64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, -1, 0, 2 ** 32],
      u64n: [0, Number.MAX_SAFE_INTEGER],
      f64: [
        Number.NaN,
        -0,
        Number.POSITIVE_INFINITY,
        Number.NEGATIVE_INFINITY,
        5e-324,
        1.7976931348623157e308,
      ],
      f32: [Number.NaN, -0, Number.POSITIVE_INFINITY, 1.5, 3.4028234663852886e38],
      i8: [-128, 127],
      u32: [0, 4_294_967_295],
    };
    const [back] = arrow(Limits).decode(arrow(Limits).encode([row]));
    expect(back).toEqual(row);
    expect(Object.is(back?.f64[1], -0)).toBe(true);
    expect(Object.is(back?.f32[1], -0)).toBe(true);
  });

  test('strings: empty, unicode, astral, long and non-ASCII past the short path', () => {
    const codec = arrow(t.object('S', { s: t.array(t.string()) }));
    const strings = [
      '',
      'a',
      'Zoë',
      '🚀',
      '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🎉 — ok',
      'é'.repeat(100),
      'x'.repeat(70),
      `${'a'.repeat(64)}é`,
    ];
    expect(codec.decode(codec.encode([{ s: strings }]))).toEqual([{ s: strings }]);
  });

  test('optional and nullable fields: absent stays absent, null stays null', () => {
    // Arrow has one null; for optional(nullable(x)) it reads back as null, absent or not.
    const R = t.object('R', {
      o: t.optional(t.int32()),
      n: t.nullable(t.string()),
      on: t.optional(t.nullable(t.bool())),
      s: t.optional(t.nullable(Shape)),
      items: t.array(t.nullable(t.int16())),
      maybe: t.optional(t.literal(3)),
      obj: t.optional(t.object('Inner', { a: t.int8() })),
    });
    const codec = arrow(R);
    const rows: Infer<typeof R>[] = [
      { n: null, items: [] },
      {
        o: 1,
        n: 'x',
        on: true,
        s: { kind: 'circle', radius: 1 },
        items: [null, 1, null],
        maybe: 3,
        obj: { a: 1 },
      },
      { n: null, on: null, s: null, items: [null] },
    ];
    const back = codec.decode(codec.encode(rows));
    expect(back).toEqual([{ ...rows[0], on: null, s: null }, rows[1], rows[2]]);
    expect(Object.keys(back[0] as object)).toEqual(['n', 'on', 's', 'items']);
  });

  test('decimals: Decimal128, Decimal256 and text, at fixed scale', () => {
    const R = t.object('R', {
      small: t.decimal({ precision: 5, scale: 2 }),
      wide: t.decimal({ precision: 60, scale: 10 }),
      whole: t.decimal({ precision: 38, scale: 0 }),
      text: t.decimal(),
    });
    const codec = arrow(R);
    const rows = [
      {
        small: '-999.99',
        wide: `-${'9'.repeat(50)}.${'9'.repeat(10)}`,
        whole: '9'.repeat(38),
        text: '123.4500',
      },
      { small: '0.05', wide: '0.0000000001', whole: '-1', text: '-0.1' },
      { small: '0.50', wide: '1.0000000000', whole: '0', text: '7' },
    ];
    expect(codec.decode(codec.encode(rows))).toEqual(rows);
    // Arrow stores the unscaled integer: fewer fraction digits come back padded to the scale.
    expect(codec.decode(codec.encode([{ ...rows[0], small: '1.5' } as (typeof rows)[0]]))[0]?.small).toBe(
      '1.50',
    );
    expect(codeOf(() => codec.encode([{ ...rows[0], small: '1.234' } as never]))).toBe(
      'WK_VALIDATION_FAILED',
    );
    expect(codeOf(() => codec.encode([{ ...rows[0], small: '1000' } as never]))).toBe('WK_VALIDATION_FAILED');
  });

  test('timestamps in every unit, before 1970 and far from it', () => {
    const R = t.object('R', {
      s: t.timestamp({ precision: 's' }),
      ms: t.timestamp({ precision: 'ms' }),
      us: t.timestamp({ precision: 'us' }),
      ns: t.timestamp({ precision: 'ns' }),
    });
    const codec = arrow(R);
    const at = (text: string) => new Date(text);
    const rows = [
      {
        s: at('1969-07-20T20:17:40Z'),
        ms: at('0001-01-01T00:00:00.001Z'),
        us: at('1969-12-31T23:59:59.999Z'),
        ns: at('2262-04-11T23:47:16.854Z'),
      },
      {
        s: at('2038-01-19T03:14:08Z'),
        ms: new Date(8.64e15),
        us: new Date(-8.64e15),
        ns: at('1677-09-21T00:12:43.146Z'),
      },
    ];
    expect(codec.decode(codec.encode(rows))).toEqual(rows);
    expect(codeOf(() => codec.encode([{ ...rows[0], s: at('2024-01-01T00:00:00.5Z') } as never]))).toBe(
      'WK_VALIDATION_FAILED',
    );
    expect(codeOf(() => codec.encode([{ ...rows[0], ns: at('2300-01-01T00:00:00Z') } as never]))).toBe(
      'WK_VALIDATION_FAILED',
    );
    expect(codeOf(() => codec.encode([{ ...rows[0], ms: new Date(Number.NaN) } as never]))).toBe(
      'WK_VALIDATION_FAILED',
    );
  });

  test('enums wider than Int8 indices, enums in lists, and maps with every key kind', () => {
    const Wide = t.enum(
      'Wide',
      Array.from({ length: 300 }, (_, i) => `m${i}`),
    );
    const R = t.object('R', {
      wide: Wide,
      colors: t.array(t.nullable(t.enum('Color', ['red', 'green']))),
      byBig: t.map(t.int64(), t.string()),
      byU8: t.map(t.uint8(), t.array(t.literal(true))),
      byName: t.map(t.string(), t.nullable(t.int32())),
    });
    const codec = arrow(R);
    const rows = [
      {
        wide: 'm299',
        colors: ['green', null, 'red'],
        byBig: new Map([
          [-(2n ** 63n), 'min'],
          [0n, ''],
        ]),
        byU8: new Map([[255, [true, true]]]),
        byName: { a: 1, b: null, 'ü 🚀': -1 },
      },
      { wide: 'm0', colors: [], byBig: new Map(), byU8: new Map(), byName: {} },
    ];
    expect(codec.decode(codec.encode(rows as never))).toEqual(rows);
  });

  test('a root that is not an object: each row is one value', () => {
    const numbers = arrow(t.float64());
    expect(numbers.decode(numbers.encode([1, -0.5, Number.NaN]))).toEqual([1, -0.5, Number.NaN]);
    const lists = arrow(t.nullable(t.array(t.string())));
    expect(lists.decode(lists.encode([['a'], null, []]))).toEqual([['a'], null, []]);
    const shapes = arrow(Shape);
    const values: Infer<typeof Shape>[] = [
      { kind: 'rect', width: 1, height: 2 },
      { kind: 'circle', radius: 3 },
    ];
    expect(shapes.decode(shapes.encode(values))).toEqual(values);
  });

  test('deep nesting within the limits', () => {
    let schema: Schema = t.int32();
    let value: unknown = 7;
    for (let i = 0; i < 40; i++) {
      schema = i % 2 === 0 ? t.array(schema) : t.object(`L${i}`, { inner: schema, n: t.optional(t.int8()) });
      value = i % 2 === 0 ? [value] : { inner: value, n: i };
    }
    const codec = arrow(schema);
    expect(codec.decode(codec.encode([value, value]))).toEqual([value, value]);
    expect(codeOf(() => arrow(schema, { limits: { maxDepth: 30 } }).decode(codec.encode([value])))).toBe(
      'WK_LIMIT_DEPTH',
    );
  });

  test('recursive schemas are refused when the codec is made', () => {
    expect(codeOf(() => createArrowCodec({ schema: EveryKind }))).toBe('WK_EXPORT_UNSUPPORTED');
    // Without a schema the codec reads by the input's own schema, and cannot write.
    expect(codeOf(() => createArrowCodec({}).encode([]))).toBe('WK_SCHEMA_REQUIRED');
    expect(codeOf(() => createArrowCodec({ schema: t.int8(), batchSize: 0 }))).toBe('WK_OPTIONS_INVALID');
  });

  test('is a Codec: the registry can hold it', () => {
    const codec: Codec = createArrowCodec({ schema: EveryKindFlat });
    expect([codec.format, codec.mediaType, codec.streamMediaType]).toEqual([
      'arrow',
      'application/vnd.apache.arrow.stream',
      'application/vnd.apache.arrow.stream',
    ]);
    expect(arrow(EveryKindFlat, { ipcFormat: 'file' }).mediaType).toBe('application/vnd.apache.arrow.file');
  });
});

describe('arrow: encoding refuses wrong values with their path', () => {
  const codec = arrow(EveryKindFlat);
  const withField = (index: number, patchRow: Record<string, unknown>) => {
    const rows: unknown[] = flatRows();
    rows[index] = { ...(rows[index] as object), ...patchRow };
    return rows as Flat[];
  };
  const failure = (rows: Flat[]) => {
    try {
      codec.encode(rows);
    } catch (error) {
      if (!isWirekitError(error)) throw error;
      return { code: error.code, path: error.path, message: error.message };
    }
    return undefined;
  };

  test('scalars, nested objects, lists, maps and union variants', () => {
    expect(failure(withField(1, { i8: 128 }))).toMatchObject({
      code: 'WK_VALIDATION_FAILED',
      path: [1, 'i8'],
    });
    expect(failure(withField(2, { i64: 1 }))?.path).toEqual([2, 'i64']);
    expect(failure(withField(0, { home: { street: 1, zip: '' } }))?.path).toEqual([0, 'home', 'street']);
    expect(failure(withField(0, { matrix: [[1], [2, 'x']] }))?.path).toEqual([0, 'matrix', 1, 1]);
    expect(failure(withField(1, { scores: { a: 1, b: '2' } }))?.path).toEqual([1, 'scores', 'b']);
    expect(failure(withField(0, { byId: new Map([[1.5, { street: '', zip: '' }]]) }))?.path).toEqual([
      0,
      'byId',
      '1.5',
    ]);
    expect(
      failure(
        withField(0, {
          shapes: [
            { kind: 'circle', radius: 1 },
            { kind: 'rect', width: 1, height: 'x' },
          ],
        }),
      )?.path,
    ).toEqual([0, 'shapes', 1, 'height']);
    expect(failure(withField(0, { shape: { kind: 'hexagon' } }))?.path).toEqual([0, 'shape', 'kind']);
    expect(failure(withField(2, { color: 'purple' }))?.message).toMatch(
      /^\[2\]\.color: expected one of red, green, blue/,
    );
    expect(failure(withField(0, { manager: undefined }))?.path).toEqual([0, 'manager']);
    expect(failure(withField(0, { nickname: null }))?.path).toEqual([0, 'nickname']);
    expect(failure(withField(0, { extra: { n: 1n } }))?.path).toEqual([0, 'extra']);
    expect(failure(withField(1, { f32: 1e39 }))?.path).toEqual([1, 'f32']);
  });

  test('a lone surrogate cannot be written as UTF-8', () => {
    expect(failure(withField(1, { name: 'a\uD800b' }))).toMatchObject({
      code: 'WK_ENCODE_UNSUPPORTED',
      path: [1, 'name'],
    });
  });

  test('rows must be an array of objects', () => {
    expect(codeOf(() => codec.encode({} as never))).toBe('WK_VALIDATION_FAILED');
    expect(failure([flatValue(), null as never])?.path).toEqual([1]);
  });

  test('constraints are checked on every encode; validate: true adds unknown keys', () => {
    const tooLong = withField(0, { home: { street: '', zip: '12345678901' } });
    expect(codeOf(() => codec.encode(tooLong))).toBe('WK_VALIDATION_FAILED');
    const extra = withField(0, { unknown: 1 });
    expect(codeOf(() => codec.encode(extra))).toBe('no error');
    const strict = arrow(EveryKindFlat, { validate: true });
    expect(codeOf(() => strict.encode(extra))).toBe('WK_VALIDATION_FAILED');
  });

  test('paths count rows across batches and streams', async () => {
    const small = arrow(EveryKindFlat, { batchSize: 2 });
    const rows = [...flatRows(), ...withField(1, { u8: -1 })];
    expect(() => small.encode(rows)).toThrow(/^\[4\]\.u8: /);
    const stream = small.encodeStream(rows);
    await expect(readAll(stream)).rejects.toMatchObject({ path: [4, 'u8'] });
  });
});

describe('arrow: streams', () => {
  const rows = Array.from({ length: 50 }, (_, i) => ({ ...(flatRows()[i % 3] as Flat), i32: i }));

  for (const ipcFormat of ['stream', 'file'] as const) {
    test(`encodeStream writes what encode writes (${ipcFormat}), from sync and async sources`, async () => {
      const codec = arrow(EveryKindFlat, { ipcFormat, batchSize: 16 });
      const whole = codec.encode(rows);
      expect(await readAll(codec.encodeStream(rows))).toEqual(whole);
      async function* slowly() {
        for (const row of rows) yield row;
      }
      expect(await readAll(codec.encodeStream(slowly()))).toEqual(whole);
      expect(codec.decode(await readAll(codec.encodeStream([])))).toEqual([]);
    });

    test(`decodeStream reads chunks cut anywhere (${ipcFormat})`, async () => {
      const codec = arrow(EveryKindFlat, { ipcFormat, batchSize: 7 });
      const bytes = codec.encode(rows);
      for (const seed of [1, 2, 3])
        expect(await collect(codec.decodeStream(randomChunks(bytes, seed)))).toEqual(rows);
      expect(await collect(codec.decodeStream(oneByteAtATime(bytes)))).toEqual(rows);
      const web = new Blob([bytes]).stream() as ReadableStream<Uint8Array>;
      expect(await collect(codec.decodeStream(web))).toEqual(rows);
    });
  }

  test('rows arrive batch by batch, before the stream ends', async () => {
    const codec = arrow(EveryKindFlat, { batchSize: 10 });
    const bytes = codec.encode(rows);
    let sent = 0;
    async function* source() {
      for (let at = 0; at < bytes.length; at += 64) {
        sent = at + 64;
        yield bytes.subarray(at, at + 64);
      }
    }
    const iterator = codec.decodeStream(source())[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toEqual(rows[0]);
    expect(sent).toBeLessThan(bytes.length / 2);
    await iterator.return?.();
  });

  test('decodeBatches gives apache-arrow record batches as they come', async () => {
    const codec = arrow(EveryKindFlat, { batchSize: 20 });
    const batches = await collect(codec.decodeBatches(randomChunks(codec.encode(rows), 9)));
    expect(batches.map((batch) => batch.numRows)).toEqual([20, 20, 10]);
    expect(batches[2]?.getChild('i32')?.toArray()).toEqual(Int32Array.from({ length: 10 }, (_, i) => 40 + i));
  });

  test('cancelling the byte stream ends the row source', async () => {
    let finished = false;
    function* source() {
      try {
        for (let i = 0; ; i++) yield { ...flatValue(), i32: i };
      } finally {
        finished = true;
      }
    }
    const reader = arrow(EveryKindFlat, { batchSize: 5 }).encodeStream(source()).getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    expect(finished).toBe(true);
  });

  test('a stream without its end marker is truncated; bytes after it are trailing', async () => {
    const codec = arrow(EveryKindFlat);
    const bytes = codec.encode(rows);
    const cut = bytes.subarray(0, bytes.length - 8);
    expect(await asyncCodeOf(() => collect(codec.decodeStream(randomChunks(cut, 4))))).toBe(
      'WK_DECODE_TRUNCATED',
    );
    expect(codeOf(() => codec.decode(cut))).toBe('WK_DECODE_TRUNCATED');
    const extended = new Uint8Array([...bytes, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
    expect(await asyncCodeOf(() => collect(codec.decodeStream(randomChunks(extended, 4))))).toBe(
      'WK_DECODE_TRAILING',
    );
    expect(await asyncCodeOf(() => collect(codec.decodeStream(oneByteAtATime(new Uint8Array(0)))))).toBe(
      'WK_DECODE_TRUNCATED',
    );
  });
});

describe('arrow: apache-arrow tables', () => {
  test('decodeTable gives columns that are views into the input', () => {
    const codec = arrow(EveryKindFlat);
    const bytes = codec.encode(flatRows());
    const table = codec.decodeTable(bytes);
    expect(table.numRows).toBe(3);
    const i32 = table.getChild('i32')?.data[0]?.values as Int32Array;
    expect(i32.buffer).toBe(bytes.buffer);
    expect([...i32]).toEqual([-2_147_483_648, -2_147_483_648, -2_147_483_648]);
    expect(table.getChild('color')?.toArray()).toEqual(['green', 'blue', 'red']);
    expect(table.schema.metadata.get('wirekit.type')).toBe('EveryKindFlat');
    const fromFile = codec.decodeTable(arrow(EveryKindFlat, { ipcFormat: 'file' }).encode(flatRows()));
    expect(fromFile.schema.metadata.get('wirekit.type')).toBe('EveryKindFlat');
    expect(fromFile.getChild('home')?.get(1)?.toJSON()).toEqual({ street: '1 Main St', zip: '12345' });
    expect(codec.decodeTable(arrow(EveryKindFlat, { ipcFormat: 'file' }).encode([])).numRows).toBe(0);
  });

  test('a Node Buffer reads like any Uint8Array, and decoded bytes are copies', () => {
    const codec = arrow(EveryKindFlat);
    const input = Buffer.from(codec.encode(flatRows()));
    const [row] = codec.decode(input);
    expect(row?.blob.constructor).toBe(Uint8Array);
    expect(row?.blob.buffer).not.toBe(input.buffer);
    expect(codec.decode(input)).toEqual(flatRows());
  });

  test('a misaligned input is copied where typed arrays need alignment, and reads the same', () => {
    const codec = arrow(EveryKindFlat);
    const bytes = codec.encode(flatRows());
    for (const shift of [1, 2, 4]) {
      const shifted = new Uint8Array(bytes.length + shift).subarray(shift);
      shifted.set(bytes);
      expect(codec.decode(shifted)).toEqual(flatRows());
    }
  });
});

describe('arrow: limits', () => {
  const rows = flatRows();
  const bytes = arrow(EveryKindFlat).encode(rows);
  const limited = (limits: Record<string, number>) => arrow(EveryKindFlat, { limits });

  test('each limit triggers its code', async () => {
    expect(codeOf(() => limited({ maxInputBytes: bytes.length - 1 }).decode(bytes))).toBe('WK_LIMIT_INPUT');
    expect(
      await asyncCodeOf(() => collect(limited({ maxInputBytes: 1000 }).decodeStream(randomChunks(bytes, 1)))),
    ).toBe('WK_LIMIT_INPUT');
    expect(codeOf(() => limited({ maxStringBytes: 8 }).decode(bytes))).toBe('WK_LIMIT_LENGTH');
    expect(codeOf(() => limited({ maxBytesLength: 4 }).decode(bytes))).toBe('WK_LIMIT_LENGTH');
    expect(codeOf(() => limited({ maxElements: 2 }).decode(bytes))).toBe('WK_LIMIT_ELEMENTS');
    expect(codeOf(() => limited({ maxElements: 15 }).decode(bytes))).toBe('WK_LIMIT_ELEMENTS');
    expect(codeOf(() => limited({ maxDepth: 3 }).decode(bytes))).toBe('WK_LIMIT_DEPTH');
    expect(codeOf(() => limited({ maxElements: 100, maxStringBytes: 100, maxDepth: 5 }).decode(bytes))).toBe(
      'no error',
    );
  });

  test('maxElements counts rows, list items and map entries of the whole value, or of one batch in a stream', async () => {
    const codec = arrow(t.object('R', { xs: t.array(t.int8()) }), { batchSize: 2 });
    const data = codec.encode([{ xs: [1, 2] }, { xs: [3] }, { xs: [] }, { xs: [4] }]);
    // 4 rows and 4 items.
    expect(codeOf(() => arrow(codec.schema, { limits: { maxElements: 8 } }).decode(data))).toBe('no error');
    expect(codeOf(() => arrow(codec.schema, { limits: { maxElements: 7 } }).decode(data))).toBe(
      'WK_LIMIT_ELEMENTS',
    );
    const streamed = arrow(codec.schema, { limits: { maxElements: 5 } }).decodeStream(randomChunks(data, 3));
    expect(await collect(streamed)).toHaveLength(4);
  });

  test('JSON values count toward depth and elements', () => {
    const codec = arrow(t.object('J', { j: t.json() }));
    let deep: unknown = 1;
    for (let i = 0; i < 200; i++) deep = [deep];
    // Written by a codec allowed the depth (the default one refuses to write it, as every format does).
    const data = arrow(codec.schema, { limits: { maxDepth: 300 } }).encode([{ j: deep as never }]);
    expect(codeOf(() => codec.encode([{ j: deep as never }]))).toBe('WK_LIMIT_DEPTH');
    expect(codeOf(() => codec.decode(data))).toBe('WK_LIMIT_DEPTH');
    const wide = codec.encode([{ j: Array.from({ length: 100 }, () => ({ a: 1 })) }]);
    expect(codeOf(() => arrow(codec.schema, { limits: { maxElements: 150 } }).decode(wide))).toBe(
      'WK_LIMIT_ELEMENTS',
    );
  });
});

describe('arrow: schema mismatch and unsafe keys', () => {
  test('data of another schema is refused', () => {
    const bytes = arrow(EveryKindFlat).encode(flatRows());
    const other = (fields: Record<string, Schema>) => arrow(t.object('EveryKindFlat', fields as never));
    // A column the schema does not name is an unknown key: left out, or refused when asked to.
    expect(other({ flag: t.bool() }).decode(bytes)).toEqual(flatRows().map(({ flag }) => ({ flag })));
    const strict = arrow(t.object('EveryKindFlat', { flag: t.bool() }), { unknownKeys: 'reject' });
    expect(codeOf(() => strict.decode(bytes))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    expect(codeOf(() => other({ flag: t.bool(), absent: t.int8() }).decode(bytes))).toBe(
      'WK_DECODE_SCHEMA_MISMATCH',
    );
    const { fields } = EveryKindFlat;
    const retyped = Object.fromEntries(fields.map((f) => [f.name, f.name === 'i16' ? t.string() : f.schema]));
    expect(codeOf(() => other(retyped).decode(bytes))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    // Another integer width or time unit is read where the values fit (pyarrow.test.ts).
    const narrowed = Object.fromEntries(fields.map((f) => [f.name, f.name === 'i16' ? t.uint8() : f.schema]));
    expect(() => other(narrowed).decode(bytes)).toThrow(/^\[0\]\.i16: 32767 is outside uint8/);
    expect(() => other(narrowed).decode(bytes)).toThrow(expect.objectContaining({ format: 'arrow' }));
  });

  test('a null where the codec allows none, and an enum member it does not know', () => {
    const loose = arrow(t.object('R', { s: t.nullable(t.string()), e: t.enum('E', ['a', 'b', 'c']) }));
    const strict = arrow(t.object('R', { s: t.string(), e: t.enum('E', ['a', 'b']) }));
    expect(codeOf(() => strict.decode(loose.encode([{ s: 'x', e: 'a' }])))).toBe('no error');
    expect(codeOf(() => strict.decode(loose.encode([{ s: null, e: 'a' }])))).toBe(
      'WK_DECODE_SCHEMA_MISMATCH',
    );
    expect(codeOf(() => strict.decode(loose.encode([{ s: 'x', e: 'c' }])))).toBe('WK_DECODE_SCHEMA_MISMATCH');
  });

  test('map keys and JSON keys that could reach a prototype are refused', () => {
    const codec = arrow(t.object('M', { m: t.map(t.string(), t.int8()), j: t.json() }));
    const planted = (row: { m: Record<string, number>; j: unknown }, from: string, to: string) =>
      patch(codec.encode([row as never]), from, [...new TextEncoder().encode(to)]);
    expect(
      codeOf(() => codec.decode(planted({ m: { xxproto__: 1 }, j: null }, 'xxproto__', '__proto__'))),
    ).toBe('WK_DECODE_UNSAFE_KEY');
    expect(
      codeOf(() => codec.decode(planted({ m: { xonstructor: 1 }, j: null }, 'xonstructor', 'constructor'))),
    ).toBe('WK_DECODE_UNSAFE_KEY');
    expect(
      codeOf(() =>
        codec.decode(planted({ m: {}, j: { xrototype: { polluted: 1 } } }, 'xrototype', 'prototype')),
      ),
    ).toBe('WK_DECODE_UNSAFE_KEY');
    expect(codeOf(() => codec.decode(planted({ m: { ok: 1 }, j: '__proto__' }, 'ok', 'ok')))).toBe(
      'no error',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

/** A record batch message of `rows` rows and no buffers, framed. */
function emptyBatchMessage(rows: number): Uint8Array {
  const b = new flatbuffers.Builder(128);
  b.startObject(5);
  b.addFieldInt64(0, BigInt(rows), 0n);
  const batch = b.endObject();
  b.startObject(5);
  b.addFieldInt16(0, 4, 0);
  b.addFieldInt8(1, 3, 0);
  b.addFieldOffset(2, batch, 0);
  b.finish(b.endObject());
  const metadata = b.asUint8Array();
  const out = new Uint8Array(8 + metadata.length);
  new DataView(out.buffer).setUint32(0, 0xffffffff, true);
  new DataView(out.buffer).setInt32(4, metadata.length, true);
  out.set(metadata, 8);
  return out;
}

describe('arrow: objects with no stored fields', () => {
  const Tagged = t.object('Tagged', { kind: t.literal('x'), v: t.literal(2) });
  const codec = arrow(Tagged);

  test('round-trip as rows with no columns', () => {
    const rows = [{ kind: 'x', v: 2 } as const, { kind: 'x', v: 2 } as const];
    expect(codec.arrowSchema.fields).toEqual([]);
    expect(codec.decode(codec.encode(rows))).toEqual(rows);
  });

  test('a batch claiming a billion rows of nothing stops at maxElements', () => {
    const schema = codec.encode([]).subarray(0, -8);
    const bomb = new Uint8Array([...schema, ...emptyBatchMessage(1e9), 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
    const before = process.memoryUsage().heapUsed;
    expect(codeOf(() => codec.decode(bomb))).toBe('WK_LIMIT_ELEMENTS');
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024);
    expect(
      codec.decode(new Uint8Array([...schema, ...emptyBatchMessage(3), 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0])),
    ).toHaveLength(3);
  });
});

// Both paths: the compiled row reader (the default) and the interpreter (compile: false).
for (const [ipcFormat, compile] of [
  ['stream', true],
  ['file', true],
  ['stream', false],
] as const) {
  const withLimits = (limits: Record<string, number>): ArrowCodec<Flat> =>
    arrow(EveryKindFlat, { ipcFormat, limits, batchSize: 2, compile });
  const codec = withLimits({});
  const planted = (row: Flat, from: string, to: number[]) => patch(codec.encode([row]), from, to);
  describeHostileInput(`arrow (${ipcFormat}${compile ? '' : ', interpreter'})`, {
    codec: codec as unknown as Codec<Flat[]>,
    withLimits: withLimits as unknown as (limits: Record<string, number>) => Codec<Flat[]>,
    samples: [[], [flatValue()], flatRows()],
    deep: nestedListStream,
    hugeLength: () => {
      // A message prefix that declares 2 GiB of metadata, then a handful of bytes.
      const bytes = new Uint8Array(16);
      new DataView(bytes.buffer).setUint32(0, 0xffffffff, true);
      new DataView(bytes.buffer).setInt32(4, 0x7fffffff, true);
      return bytes;
    },
    invalidUtf8: () => planted({ ...flatValue(), name: 'zqzqzq' }, 'zqzq', [0x7a, 0xff, 0xfe, 0x7a]),
    protoKey: () =>
      planted({ ...flatValue(), scores: { xxproto__: 1 } }, 'xxproto__', [
        ...new TextEncoder().encode('__proto__'),
      ]),
    detectsTrailing: true,
    mutationRuns: 400,
  });
}
