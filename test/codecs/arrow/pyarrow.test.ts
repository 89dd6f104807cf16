/**
 * Interop both ways with pyarrow, the reference Arrow implementation (from PyPI, in the venv
 * .ci/run makes): wirekit reads the streams pyarrow writes (test/support/peers/pyarrow_streams.py)
 * without a schema, by their own types, and with a schema, from a peer's compatible physical
 * types; pyarrow reads (and fully validates) what wirekit writes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createArrowCodec } from '../../../src/codecs/arrow/index.js';
import { createCodec } from '../../../src/codecs/registry.js';
import { isWirekitError } from '../../../src/errors/index.js';
import { type Infer, type Schema, t } from '../../../src/index.js';
import { EveryKindFlat, everyKindValue } from '../../fixtures/every-kind.js';
import { codeOf } from '../../support/code-of.js';
import { outcome } from '../../support/outcome.js';
import { collect, oneByteAtATime } from '../../support/streams.js';
import { has, venvPython, withTempDir } from '../../support/tools.js';

const peers = new URL('../../support/peers/', import.meta.url).pathname;
const usable = has('venv:pyarrow');

function runPython(args: string[]): string {
  const result = spawnSync(venvPython, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`pyarrow failed:\n${result.stderr}`);
  return result.stdout;
}

let dir = '';
const streams = new Map<string, Uint8Array>();
const stream = (name: string) => {
  const bytes = streams.get(name);
  if (bytes === undefined) throw new Error(`pyarrow wrote no ${name}`);
  return bytes;
};

beforeAll(() => {
  if (!usable) return;
  dir = mkdtempSync(join(tmpdir(), 'wirekit-pyarrow-'));
  runPython([join(peers, 'pyarrow_streams.py'), dir]);
  for (const file of readdirSync(dir))
    streams.set(file.replace(/\.arrows?$/, ''), new Uint8Array(readFileSync(join(dir, file))));
});
afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

const schemaless = createArrowCodec();

/** wirekit's kinds for the columns of the peer streams (pyarrow_streams.py). */
const Peer = t.object('Peer', {
  small: t.uint8(),
  count: t.int32(),
  big: t.int64(),
  ratio: t.float64(),
  at: t.timestamp({ precision: 'ms' }),
  day: t.timestamp({ precision: 's' }),
  name: t.string(),
  color: t.enum('Color', ['red', 'green', 'blue']),
  blob: t.bytes(),
  tags: t.array(t.string()),
  price: t.decimal({ precision: 12, scale: 2 }),
  label: t.string(),
});
const date = (text: string) => new Date(text);

describe.skipIf(!usable)('wirekit reads pyarrow without a schema', () => {
  test('integers of every width: numbers while safe, bigints beyond', () => {
    expect(schemaless.decode(stream('ints'))).toStrictEqual([
      {
        i8: -128,
        i16: -32768,
        i32: -(2 ** 31),
        i64: -(2n ** 63n),
        u8: 0,
        u16: 0,
        u32: 0,
        u64: 2n ** 64n - 1n,
      },
      {
        i8: 127,
        i16: 32767,
        i32: 2 ** 31 - 1,
        i64: Number.MAX_SAFE_INTEGER,
        u8: 255,
        u16: 65535,
        u32: 2 ** 32 - 1,
        u64: 2n ** 53n,
      },
      // -2^53 is exact as a double but no safe integer: its neighbours are not.
      { i8: null, i16: 0, i32: null, i64: -(2n ** 53n), u8: 1, u16: null, u32: 7, u64: 0 },
    ]);
  });

  test('floats (float16 too), booleans and the null type', () => {
    const rows = schemaless.decode(stream('floats'));
    expect(rows).toStrictEqual([
      { f16: 1.5, f32: Math.fround(0.1), f64: 0.1, flag: true, nothing: null },
      { f16: -0, f32: Number.POSITIVE_INFINITY, f64: -1e308, flag: null, nothing: null },
      { f16: null, f32: Number.NaN, f64: 5e-324, flag: false, nothing: null },
    ]);
    expect(Object.is(rows[1]?.f16, -0)).toBe(true);
  });

  test('text and bytes: 32- and 64-bit offsets, dictionaries, fixed size, nulls', () => {
    expect(schemaless.decode(stream('text'))).toStrictEqual([
      {
        s: '',
        large: 'a'.repeat(40),
        dict: 'red',
        dictNull: 'x',
        b: new Uint8Array([0, 255]),
        lb: null,
        fixed: new Uint8Array([97, 98, 99]),
      },
      {
        s: 'Zoë 🚀',
        large: null,
        dict: 'green',
        dictNull: null,
        b: new Uint8Array(0),
        lb: new Uint8Array([97, 98, 99]),
        fixed: new Uint8Array([0, 1, 2]),
      },
      { s: null, large: 'ünï', dict: 'red', dictNull: 'y', b: null, lb: new Uint8Array([1]), fixed: null },
    ]);
  });

  test('string and binary views, inline and in data buffers', () => {
    expect(schemaless.decode(stream('views'))).toStrictEqual([
      { sv: 'short', bv: new Uint8Array(13) },
      { sv: 'a string longer than twelve bytes 🚀', bv: null },
      { sv: null, bv: new TextEncoder().encode('abc') },
      { sv: '', bv: new TextEncoder().encode('0123456789abcdef') },
    ]);
    expect(codeOf(() => createArrowCodec({ limits: { maxStringBytes: 20 } }).decode(stream('views')))).toBe(
      'WK_LIMIT_LENGTH',
    );
  });

  test('dates, times of day, timestamps of every unit and zone, durations', () => {
    expect(schemaless.decode(stream('temporal'))).toStrictEqual([
      {
        d32: date('1969-12-31'),
        d64: date('2000-01-01'),
        t32s: '00:00:00',
        t32ms: '12:34:56.789',
        t64us: '12:34:56.000001',
        t64ns: '23:59:59.999999999',
        ts_s: date('1969-07-20T20:17:40Z'),
        ts_ms: date('2024-02-29T12:34:56.789Z'),
        // A Date holds milliseconds: finer parts are rounded toward the past.
        ts_us: date('2024-02-29T12:34:56.789Z'),
        ts_ns: date('2024-02-29T12:34:56.789Z'),
        ts_tz: date('1970-01-01T00:00:00Z'),
        dur_s: -5,
        dur_ns: 2n ** 62n,
      },
      {
        d32: date('2024-02-29'),
        d64: null,
        t32s: '23:59:59',
        t32ms: '00:00:00.001',
        t64us: null,
        t64ns: '00:00:00.000000005',
        ts_s: date('1970-01-01T00:00:00Z'),
        ts_ms: date('1969-12-31T23:59:59.999Z'),
        ts_us: date('1969-12-31T23:59:59.999Z'),
        ts_ns: date('1969-12-31T23:59:59.999Z'),
        ts_tz: date('1970-01-01T00:00:01Z'),
        dur_s: 0,
        dur_ns: 1,
      },
      {
        d32: null,
        d64: date('1970-01-01'),
        t32s: null,
        t32ms: '00:00:00.000',
        t64us: '00:00:00.000000',
        t64ns: '00:00:00.000000000',
        ts_s: null,
        ts_ms: date('1970-01-01T00:00:00Z'),
        ts_us: null,
        ts_ns: date('2262-04-11T23:47:16.854Z'),
        ts_tz: null,
        dur_s: null,
        dur_ns: -1,
      },
    ]);
  });

  test('decimals of every width as exact text at their scale', () => {
    expect(schemaless.decode(stream('decimals'))).toStrictEqual([
      {
        d128: '-1234567890.12',
        d256: `${'9'.repeat(35)}.12345`,
        d32: '-999.99',
        d64: '12345678.901',
        whole: '123',
      },
      { d128: '0.05', d256: '-0.00001', d32: '1.50', d64: null, whole: '-7' },
      { d128: null, d256: '0.00000', d32: null, d64: '-0.001', whole: '0' },
    ]);
  });

  test('lists of every kind, structs, maps by key type, sparse and dense unions', () => {
    expect(schemaless.decode(stream('nested'))).toStrictEqual([
      {
        list: [1, 2],
        largeList: ['a'],
        pair: [1.5, 2.5],
        point: { x: 1, label: 'one' },
        points: [{ x: 2, label: 'p' }],
        byName: { a: 1, b: null },
        byId: new Map([[7, 'seven']]),
        sparse: 1,
        dense: 1.5,
      },
      {
        list: [],
        largeList: null,
        pair: null,
        point: null,
        points: [],
        byName: {},
        byId: new Map([
          [-1, ''],
          [2, 'two'],
        ]),
        sparse: 'b',
        dense: true,
      },
      {
        list: null,
        largeList: ['b', null],
        pair: [0, -1],
        point: { x: null, label: 'three' },
        points: [null],
        byName: null,
        byId: new Map(),
        sparse: 3,
        dense: null,
      },
    ]);
  });

  test('several batches with a dictionary delta, an empty stream, and the file format', async () => {
    const rows = [
      { id: 1, color: 'red' },
      { id: 2, color: 'blue' },
      { id: 3, color: 'red' },
      { id: 4, color: 'green' },
    ];
    expect(schemaless.decode(stream('batches'))).toStrictEqual(rows);
    expect(await collect(schemaless.decodeStream(oneByteAtATime(stream('batches'))))).toStrictEqual(rows);
    expect(schemaless.decode(stream('empty'))).toStrictEqual([]);
    expect(schemaless.decodeTable(stream('empty')).schema.fields.map((field) => field.name)).toEqual([
      'id',
      'name',
    ]);
    expect(schemaless.decode(stream('file'))).toStrictEqual([
      { n: 1, s: 'a' },
      { n: null, s: 'b' },
      { n: 3, s: null },
    ]);
  });

  test('mutations of every pyarrow stream only ever give rows or wirekit errors', () => {
    const samples = [...streams.values()];
    const typed = createArrowCodec({ schema: Peer });
    fc.assert(
      fc.property(
        fc.nat({ max: samples.length - 1 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
        (which, edits) => {
          const mutated = (samples[which] as Uint8Array).slice();
          for (const [position, value] of edits) mutated[position % mutated.length] = value;
          for (const codec of [schemaless, typed]) {
            const result = outcome(() => codec.decode(mutated));
            if (!result.ok) expect(typeof result.code, result.message).toBe('string');
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('the registry makes the schemaless reader, and refuses to encode with it', () => {
    const codec = createCodec('arrow');
    expect(codec.decode(stream('file'))).toHaveLength(3);
    const refused = outcome(() => codec.encode([{ n: 1 }]));
    expect(refused).toMatchObject({ ok: false, code: 'WK_SCHEMA_REQUIRED' });
    expect(JSON.stringify(refused)).toContain('inferSchema');
  });
});

/** A codec of one field of Peer, for the streams that hold only that column. */
const fieldOf = (name: keyof Infer<typeof Peer>, schema?: Schema, compile = true) =>
  createArrowCodec({
    schema: t.object('Peer', {
      [name]: schema ?? (Peer.fields.find((f) => f.name === name)?.schema as Schema),
    }),
    compile,
  });

describe.skipIf(!usable)('wirekit reads pyarrow with a schema: a peer’s compatible types', () => {
  test('widths, signedness, units, dates, dictionaries, large types and scales, where values fit', () => {
    const expected: Infer<typeof Peer>[] = [
      {
        small: 0,
        count: -5,
        big: 0n,
        ratio: 0.5,
        at: date('2024-02-29T12:34:56.789Z'),
        day: date('2024-02-29'),
        name: 'a',
        color: 'red',
        blob: new Uint8Array([0]),
        tags: ['x'],
        price: '1.50',
        label: 'x',
      },
      {
        small: 255,
        count: 2 ** 31 - 1,
        big: 2n ** 32n - 1n,
        ratio: -2,
        at: date('1970-01-01T00:00:00Z'),
        day: date('1970-01-01'),
        name: 'b',
        color: 'green',
        blob: new Uint8Array(0),
        tags: [],
        price: '-2.00',
        label: 'y',
      },
      {
        small: 7,
        count: 0,
        big: 1n,
        ratio: Number.POSITIVE_INFINITY,
        at: date('1969-12-31T23:59:59.999Z'),
        day: date('1969-12-31'),
        name: 'a',
        color: 'red',
        blob: new Uint8Array([255, 254]),
        tags: ['y', 'z'],
        price: '0.01',
        label: 'z',
      },
    ];
    for (const compile of [true, false]) {
      const codec = createArrowCodec({ schema: Peer, compile });
      expect(codec.decode(stream('peer'))).toStrictEqual(expected);
    }
  });

  const refusals: [string, keyof Infer<typeof Peer>, RegExp, Schema?][] = [
    ['peer-bad-small', 'small', /^\[1\]\.small: 256 is outside uint8/],
    ['peer-bad-at', 'at', /^\[1\]\.at: a timestamp in ns holds a part finer than the schema's unit \(ms\)/],
    [
      'peer-bad-price',
      'price',
      /^\[1\]\.price: a decimal has more fraction digits than the schema's scale 2/,
    ],
    ['peer-bad-label', 'label', /^\[1\]\.label: a null where the schema allows none/],
    ['peer-bad-ratio', 'ratio', /^\[1\]\.ratio: 0\.1 is not exactly a float32/, t.float32()],
    ['peer-bad-tags', 'tags', /^\[1\]\.tags\[1\]: a null where the schema allows none/],
    ['peer-bad-big', 'big', /^\[1\]\.big: -1 is outside uint64/, t.uint64()],
  ];

  test.each(refusals)(
    '%s: the value that does not fit is refused with its row and column',
    (name, field, message, schema) => {
      const compiled = outcome(() => fieldOf(field, schema).decode(stream(name)));
      expect(compiled).toMatchObject({
        ok: false,
        code: 'WK_DECODE_SCHEMA_MISMATCH',
        message: expect.stringMatching(message),
      });
      // The compiled codec hands a peer's types to the interpreter: the same error, path included.
      expect(compiled).toStrictEqual(outcome(() => fieldOf(field, schema, false).decode(stream(name))));
      try {
        fieldOf(field, schema).decode(stream(name));
      } catch (error) {
        if (!isWirekitError(error)) throw error;
        expect(error.path?.slice(0, 2)).toEqual([1, field]);
        // The format is the error's `format`, no longer a prefix of its message.
        expect(error.format).toBe('arrow');
      }
    },
  );

  test('a row index counts rows across batches', () => {
    const codec = createArrowCodec({
      schema: t.object('B', { id: t.int64(), color: t.enum('C', ['red', 'blue']) }),
    });
    expect(outcome(() => codec.decode(stream('batches')))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^\[3\]\.color: a value is not a member of red, blue/),
    });
    expect(() => codec.decode(stream('batches'))).toThrow(expect.objectContaining({ format: 'arrow' }));
  });

  test('every peer stream decodes to the same outcome compiled and interpreted', () => {
    const schemas: Schema[] = [Peer, ...Peer.fields.map((f) => t.object('Peer', { [f.name]: f.schema }))];
    for (const [name, bytes] of streams) {
      for (const schema of schemas) {
        const a = outcome(() => createArrowCodec({ schema }).decode(bytes));
        expect(a, name).toStrictEqual(
          outcome(() => createArrowCodec({ schema, compile: false }).decode(bytes)),
        );
      }
    }
  });
});

type Flat = Infer<typeof EveryKindFlat>;

function flatRows(): Flat[] {
  const { category: _, ...first } = everyKindValue();
  return [
    first,
    { ...first, i64: 42n, u64: 7n, nickname: 'Z', work: { street: 'W', zip: '1' }, shapes: [], extra: null },
  ];
}

interface PyarrowView {
  format: string;
  schema: Record<string, string>;
  metadata: Record<string, string>;
  batches: number[];
  rows: Record<string, unknown>[];
}

function readWithPyarrow(bytes: Uint8Array): PyarrowView {
  return withTempDir((tmp) => {
    const path = join(tmp, 'in.arrow');
    writeFileSync(path, bytes);
    return JSON.parse(runPython([join(peers, 'pyarrow_read.py'), path])) as PyarrowView;
  });
}

describe.skipIf(!usable)('pyarrow reads what wirekit writes', () => {
  for (const ipcFormat of ['stream', 'file'] as const) {
    test(`every field of EveryKindFlat, ${ipcFormat} format, two batches`, () => {
      const bytes = createArrowCodec<Flat>({ schema: EveryKindFlat, ipcFormat, batchSize: 1 }).encode(
        flatRows(),
      );
      const seen = readWithPyarrow(bytes);
      expect(seen.format).toBe(ipcFormat);
      expect(seen.batches).toEqual([1, 1]);
      expect(seen.metadata['wirekit.type']).toBe('EveryKindFlat');
      expect(seen.schema).toMatchObject({
        i64: 'int64',
        u64: 'uint64',
        price: 'decimal128(12, 2)',
        createdAt: 'timestamp[ms, tz=UTC]',
        updatedAt: 'timestamp[us, tz=UTC]',
        color: 'dictionary<values=string, indices=int8, ordered=0>',
      });
      const [first, second] = seen.rows as [Record<string, unknown>, Record<string, unknown>];
      expect(first).toEqual({
        flag: true,
        i8: -128,
        i16: 32767,
        i32: -2147483648,
        u8: 255,
        u16: 65535,
        u32: 4294967295,
        i64: '-9223372036854775808',
        u64: '18446744073709551615',
        i64n: 9007199254740991,
        f32: 1.5,
        f64: -0.1,
        price: '-1234567890.12',
        name: 'Zoë 🚀',
        blob: '000102feff',
        createdAt: '2024-02-29T12:34:56.789000+00:00',
        updatedAt: '1969-12-31T23:59:59.999000+00:00',
        color: 'green',
        home: { street: '1 Main St', zip: '12345' },
        work: null,
        tags: ['a', '', 'ünïcödé'],
        matrix: [[1, 2], [], [3]],
        scores: [
          ['math', 9.5],
          ['art', -1],
        ],
        byId: [
          [7, { street: 'Elm', zip: '9' }],
          [-1, { street: '', zip: '' }],
        ],
        nickname: null,
        manager: null,
        shape: { radius: 2 },
        shapes: [{ width: 1, height: 2.5 }, { radius: 0 }],
        extra: JSON.stringify(everyKindValue().extra),
        legacy: 'old',
      });
      expect(second).toMatchObject({
        i64: 42,
        u64: 7,
        nickname: 'Z',
        work: { street: 'W', zip: '1' },
        shapes: [],
        extra: 'null',
      });
    });
  }

  test('an empty stream is a schema and no batches', () => {
    const seen = readWithPyarrow(createArrowCodec({ schema: EveryKindFlat }).encode([]));
    expect(seen.batches).toEqual([]);
    expect(Object.keys(seen.schema)).toContain('shapes');
  });

  test('what wirekit writes, wirekit reads back without a schema as pyarrow reads it', () => {
    const rows = flatRows();
    const [back] = schemaless.decode(createArrowCodec<Flat>({ schema: EveryKindFlat }).encode(rows));
    const [first] = rows;
    // Int64 within safe integers comes back as a number, the union tag from wirekit's metadata.
    expect(back).toMatchObject({
      i64: first?.i64,
      i64n: first?.i64n,
      shape: first?.shape,
      extra: first?.extra,
    });
  });
});
