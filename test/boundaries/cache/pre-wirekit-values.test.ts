/**
 * The cache's readers of values written before wirekit, fed bytes that the raw libraries wrote
 * themselves: JSON.stringify, @msgpack/msgpack's encode, msgpackr's pack, the `snappy` package, and
 * Debian's Python (msgpack, snappy.compress). With a schema a reader gives the app's own value back
 * or fails; without one, what the library reads. Hostile and random bytes fail with WirekitErrors only.
 */
import { spawnSync } from 'node:child_process';
import { decode as msgpackDecode, encode as msgpackEncode } from '@msgpack/msgpack';
import fc from 'fast-check';
import { FLOAT32_OPTIONS, Packr, pack, unpack } from 'msgpackr';
import { compress, compressSync } from 'snappy';
import { describe, expect, test } from 'vitest';
import {
  type LegacyReader,
  type LegacySpec,
  legacyFormats,
  legacyReaders,
} from '../../../src/boundaries/cache/pre-wirekit-values.js';
import { isWirekitError, WirekitError } from '../../../src/errors/index.js';
import { type Schema, t, validate } from '../../../src/index.js';
import { Product, products } from '../../../src/lab/datasets/index.js';
import { codeOf } from '../../support/code-of.js';
import { has, python } from '../../support/tools.js';

const items = products(24, 7);
const text = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const jsonRoundTrip = (value: unknown) => JSON.parse(JSON.stringify(value));
/** The `snappy` package's raw block, as the report's pipelines call it. */
const snappyOf = (bytes: Uint8Array | string) => new Uint8Array(compressSync(Buffer.from(bytes)));

/** One reader by its name, built for `schema` (none: schemaless). */
function reader(name: (typeof legacyFormats)[number], schema?: Schema, options = {}): LegacyReader {
  const [only] = legacyReaders([name], { schema, ...options });
  return only as LegacyReader;
}

/** What the cache does: the first reader that reads wins; its name and value, or every failure's code. */
function firstRead(readers: readonly LegacyReader[], bytes: Uint8Array) {
  const codes: string[] = [];
  for (const candidate of readers) {
    try {
      return { name: candidate.name, value: candidate.read(bytes) };
    } catch (error) {
      if (!isWirekitError(error)) throw error;
      codes.push(error.code);
    }
  }
  return { name: undefined, codes };
}

describe('JSON written by JSON.stringify', () => {
  test('with the schema, every product comes back as the app had it: Dates, decimals, enums, absent optionals', () => {
    const json = reader('json', Product);
    const jsonSnappy = reader('json+snappy', Product);
    expect(items.some((item) => item.compareAtPrice === undefined)).toBe(true);
    expect(items.some((item) => item.compareAtPrice !== undefined)).toBe(true);
    for (const item of items) {
      const back = json.read(text(item)) as typeof item;
      expect(back).toStrictEqual(item);
      expect(back.createdAt).toBeInstanceOf(Date);
      expect(jsonSnappy.read(snappyOf(JSON.stringify(item)))).toStrictEqual(item);
    }
  });

  test('Dates across the whole range a Date holds, and the timestamp precisions', () => {
    const Event = t.object('Event', {
      at: t.timestamp(),
      us: t.timestamp({ precision: 'us' }),
      seconds: t.optional(t.timestamp({ precision: 's' })),
      list: t.array(t.timestamp()),
    });
    const dates = [
      new Date(0),
      new Date(-1),
      new Date('0001-01-01T00:00:00.000Z'),
      new Date('9999-12-31T23:59:59.999Z'),
      new Date(8.64e15), // +275760-09-13T00:00:00.000Z: toISOString's expanded year
      new Date(-8.64e15),
      new Date('2024-02-29T12:34:56.789Z'),
    ];
    const json = reader('json', Event);
    for (const at of dates) {
      const value = { at, us: at, seconds: new Date(Math.floor(at.getTime() / 1000) * 1000), list: [at, at] };
      expect(json.read(text(value))).toStrictEqual(value);
    }
    // A precision the text breaks is refused, not rounded.
    const sub = { at: dates[0], us: dates[0], seconds: new Date(1500), list: [] };
    expect(codeOf(() => json.read(text(sub)))).toBe('WK_DECODE_SCHEMA_MISMATCH');
  });

  test('without a schema, values are what JSON.parse gives (Dates stay text)', () => {
    const json = reader('json');
    for (const item of items) expect(json.read(text(item))).toStrictEqual(JSON.parse(JSON.stringify(item)));
    expect(json.read(text('x'))).toBe('x');
    expect(json.read(text(null))).toBe(null);
  });

  test('fields the schema no longer has are dropped; missing or mistyped ones fail', () => {
    const json = reader('json', Product);
    const [item] = items as [(typeof items)[number]];
    expect(json.read(text({ ...item, retired: 'field' }))).toStrictEqual(item);
    const { sku: _sku, ...withoutSku } = item;
    expect(codeOf(() => json.read(text(withoutSku)))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    expect(codeOf(() => json.read(text({ ...item, id: '1' })))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    expect(codeOf(() => json.read(text({ ...item, price: { amount: 'ten', currency: 'USD' } })))).toBe(
      'WK_DECODE_SCHEMA_MISMATCH',
    );
    // What JSON.stringify did to a NaN (null) is no float64.
    const nan = { ...item, dimensions: { ...item.dimensions, weight: Number.NaN } };
    expect(codeOf(() => json.read(text(nan)))).toBe('WK_DECODE_SCHEMA_MISMATCH');
  });
});

describe('MessagePack written by @msgpack/msgpack and msgpackr', () => {
  const writers = {
    '@msgpack/msgpack encode': (value: unknown) => msgpackEncode(value),
    'msgpackr pack': (value: unknown) => new Uint8Array(pack(value)),
  };

  for (const [writer, write] of Object.entries(writers)) {
    test(`${writer}: products with the schema, Dates kept or made text by a JSON round trip first`, () => {
      const msgpack = reader('msgpack', Product);
      const msgpackSnappy = reader('msgpack+snappy', Product);
      for (const item of items) {
        expect(msgpack.read(write(item))).toStrictEqual(item);
        expect(msgpack.read(write(jsonRoundTrip(item)))).toStrictEqual(item);
        expect(msgpackSnappy.read(snappyOf(write(jsonRoundTrip(item))))).toStrictEqual(item);
      }
    });
  }

  test('without a schema, products come back as each library reads them', () => {
    const msgpack = reader('msgpack');
    for (const item of items) {
      expect(msgpack.read(msgpackEncode(item))).toStrictEqual(msgpackDecode(msgpackEncode(item)));
      expect(msgpack.read(pack(item))).toStrictEqual(unpack(pack(item)));
      expect(msgpack.read(msgpackEncode(jsonRoundTrip(item)))).toStrictEqual(jsonRoundTrip(item));
    }
  });

  test('schemaless values: integral floats as integers, 64-bit forms, Dates, bytes, Maps with integer keys', () => {
    const msgpack = reader('msgpack');
    const values = [
      { n: 12.0, half: 12.5, neg: -7, big: 2 ** 40, negBig: -(2 ** 40), max: Number.MAX_SAFE_INTEGER },
      [new Date('2024-02-29T12:34:56.789Z'), new Date(-1), new Date(2 ** 40 * 1000)],
      { bytes: Uint8Array.of(1, 2, 3), empty: new Uint8Array(0) },
      'x'.repeat(300),
      [true, false, null, 0, -0.5, Number.POSITIVE_INFINITY],
    ];
    for (const value of values) {
      // Both libraries agree on these, and so does the reader.
      expect(msgpack.read(msgpackEncode(value))).toStrictEqual(msgpackDecode(msgpackEncode(value)));
      // (@msgpack/msgpack's byte strings are views of its input: given a Buffer, Buffers.)
      expect(msgpack.read(pack(value))).toStrictEqual(msgpackDecode(new Uint8Array(pack(value))));
    }
    // msgpackr writes 2^40 as a float 64 and @msgpack/msgpack as a uint 64: the same number either way.
    expect(pack(2 ** 40)[0]).toBe(0xcb);
    expect(msgpackEncode(2 ** 40)[0]).toBe(0xcf);
    // msgpackr's bigints: int 64 forms; a safe one reads as a number (msgpackr's own unpack gives 5n).
    expect(msgpack.read(pack(5n))).toBe(5);
    expect(unpack(pack(5n))).toBe(5n);
    expect(msgpack.read(pack(-(2n ** 63n)))).toBe(-(2n ** 63n));
    expect(msgpack.read(pack(2n ** 64n - 1n))).toBe(2n ** 64n - 1n);
    // An integer key makes a Map (msgpackr's own default unpack gives { '1': 'a' }).
    expect(
      msgpack.read(
        pack(
          new Map<unknown, unknown>([
            [1, 'a'],
            ['b', 2],
          ]),
        ),
      ),
    ).toStrictEqual(
      new Map<unknown, unknown>([
        [1, 'a'],
        ['b', 2],
      ]),
    );
  });

  test("msgpackr's undefined (fixext 1 of type 0) reads as nil: null without a schema, absent with one", () => {
    expect(pack({ a: undefined })).toStrictEqual(Buffer.from('de0001a161d40000', 'hex'));
    const schemaless = reader('msgpack');
    expect(schemaless.read(pack({ a: undefined, b: [undefined, 1], c: 'x' }))).toStrictEqual({
      a: null,
      b: [null, 1],
      c: 'x',
    });
    expect(schemaless.read(pack(undefined))).toBe(null);
    const Thing = t.object('Thing', {
      a: t.optional(t.string()),
      b: t.array(t.optional(t.int32())),
      c: t.string(),
    });
    expect(reader('msgpack', Thing).read(pack({ a: undefined, b: [undefined, 1], c: 'x' }))).toStrictEqual({
      b: [undefined, 1],
      c: 'x',
    });
    // The same three bytes inside a byte string or a string are data, not an item.
    const holder = { a: undefined, bin: Uint8Array.of(0xd4, 0, 0) };
    expect(schemaless.read(pack(holder))).toStrictEqual({ a: null, bin: Uint8Array.of(0xd4, 0, 0) });
    // Any other extension is refused as ever, beside an undefined or not: { a: undefined, e: ext 1 }.
    expect(codeOf(() => schemaless.read(Buffer.from('82a161d40000a165d40100', 'hex')))).toBe(
      'WK_DECODE_UNKNOWN_EXTENSION',
    );
    expect(codeOf(() => schemaless.read(Buffer.from('d40100', 'hex')))).toBe('WK_DECODE_UNKNOWN_EXTENSION');
    // msgpackr's invalid Date (a 1-byte timestamp) is refused.
    expect(codeOf(() => schemaless.read(pack(new Date(Number.NaN))))).toBe('WK_DECODE_MALFORMED');
  });

  test('with a schema: integers msgpackr wrote as float 64, float 32 where a Packr chose it', () => {
    const Big = t.object('Big', { id: t.int64(), n: t.int64({ as: 'number' }), u: t.uint64() });
    const big = reader('msgpack', Big);
    expect(big.read(pack({ id: 2 ** 40, n: -(2 ** 40), u: 2 ** 53 }))).toStrictEqual({
      id: 2n ** 40n,
      n: -(2 ** 40),
      u: 2n ** 53n,
    });
    // Past 2^53 the float still holds one integer, read exactly; as: 'number' refuses it (not safe).
    expect(big.read(pack({ id: 2 ** 60, n: 1, u: 2 ** 63 }))).toStrictEqual({
      id: 2n ** 60n,
      n: 1,
      u: 2n ** 63n,
    });
    expect(codeOf(() => big.read(pack({ id: 1, n: 2 ** 60, u: 1 })))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    // A fraction is no integer, and a float for a uint32 kind is read only if integral and in range.
    expect(codeOf(() => big.read(pack({ id: 1.5, n: 1, u: 1 })))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    expect(codeOf(() => big.read(pack({ id: 1, n: 1, u: -(2 ** 40) })))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    const Small = t.object('Small', { count: t.uint32(), x: t.float64(), y: t.float32() });
    const small = reader('msgpack', Small);
    expect(small.read(msgpackEncode({ count: 3, x: 2.0, y: 0.5 }))).toStrictEqual({ count: 3, x: 2, y: 0.5 });
    expect(codeOf(() => small.read(msgpackEncode({ count: 3.5, x: 1, y: 1 })))).toBe(
      'WK_DECODE_SCHEMA_MISMATCH',
    );
    const packr = new Packr({ useRecords: false, useFloat32: FLOAT32_OPTIONS.DECIMAL_FIT });
    const written = packr.pack({ count: 1, x: 12.3, y: 12.3 });
    expect(written.includes(0xca)).toBe(true);
    // The float 32 on the wire is what is read: 12.3 written as float 32 is 12.300000190734863.
    expect(small.read(written)).toStrictEqual({ count: 1, x: Math.fround(12.3), y: Math.fround(12.3) });
  });

  test('with a schema, only a timestamp takes text, and only RFC 3339 text; nothing else is reinterpreted', () => {
    const Stamp = t.object('Stamp', { at: t.timestamp(), label: t.string(), blob: t.bytes() });
    const stamp = reader('msgpack', Stamp);
    const at = new Date('2024-02-29T12:34:56.789Z');
    const blob = Uint8Array.of(1, 2);
    expect(stamp.read(pack({ at: '2024-02-29T12:34:56.789Z', label: 'l', blob }))).toStrictEqual({
      at,
      label: 'l',
      blob,
    });
    expect(stamp.read(pack({ at: '2024-02-29T13:34:56.789+01:00', label: 'l', blob }))).toStrictEqual({
      at,
      label: 'l',
      blob,
    });
    for (const bad of ['yesterday', '2024-02-29', '1709210096789', ''])
      expect(codeOf(() => stamp.read(pack({ at: bad, label: 'l', blob })))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    // A Date where the schema has a string, text or base64 where it has bytes: refused.
    expect(codeOf(() => stamp.read(pack({ at, label: at, blob })))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    expect(codeOf(() => stamp.read(pack({ at, label: 'l', blob: 'AQI=' })))).toBe(
      'WK_DECODE_SCHEMA_MISMATCH',
    );
    // A key twice ({ a: 1, a: 2 }) is refused, whatever msgpackr would have kept.
    const twice = Buffer.from('82a16101a16102', 'hex');
    expect(unpack(twice)).toStrictEqual({ a: 2 });
    expect(codeOf(() => reader('msgpack', t.object('Pair', { a: t.int32() })).read(twice))).toBe(
      'WK_DECODE_MALFORMED',
    );
  });
});

describe('bytes as a store hands them over', () => {
  test('a Buffer (ioredis replies are Buffers) gives plain Uint8Arrays that do not share its memory', () => {
    const Blob = t.object('Blob', { data: t.bytes() });
    for (const name of legacyFormats) {
      const encoded = name.startsWith('json')
        ? text({ data: 'AQID' })
        : msgpackEncode({ data: Uint8Array.of(1, 2, 3) });
      const stored = Buffer.from(name.endsWith('+snappy') ? snappyOf(encoded) : encoded);
      const value = reader(name, Blob).read(stored) as { data: Uint8Array };
      stored.fill(0);
      expect(value.data, name).toStrictEqual(Uint8Array.of(1, 2, 3));
      expect(value.data.constructor, name).toBe(Uint8Array);
    }
  });
});

describe("the report's two pipelines", () => {
  /** old: JSON round trip → @msgpack/msgpack → snappy; new: JSON.stringify → async snappy. */
  const oldPipeline = (value: unknown) => snappyOf(msgpackEncode(JSON.parse(JSON.stringify(value))));
  const newPipeline = async (value: unknown) => new Uint8Array(await compress(JSON.stringify(value)));

  test('with the schema, each is read by its reader, in either order, and gives the product back', async () => {
    for (const order of [
      ['json+snappy', 'msgpack+snappy'],
      ['msgpack+snappy', 'json+snappy'],
    ] as const) {
      const readers = legacyReaders(order, { schema: Product });
      for (const item of items) {
        expect(firstRead(readers, oldPipeline(item))).toStrictEqual({ name: 'msgpack+snappy', value: item });
        expect(firstRead(readers, await newPipeline(item))).toStrictEqual({
          name: 'json+snappy',
          value: item,
        });
      }
    }
  });

  test('without a schema, values are what the old app read back: Dates as text', async () => {
    const readers = legacyReaders(['json', 'json+snappy', 'msgpack+snappy']);
    for (const item of items) {
      expect(firstRead(readers, oldPipeline(item))).toStrictEqual({
        name: 'msgpack+snappy',
        value: jsonRoundTrip(item),
      });
      expect(firstRead(readers, await newPipeline(item))).toStrictEqual({
        name: 'json+snappy',
        value: jsonRoundTrip(item),
      });
    }
  });

  test("a reader refuses the other pipeline's bytes with a WirekitError", async () => {
    const [item] = items;
    const json = reader('json+snappy', Product);
    const msgpack = reader('msgpack+snappy', Product);
    expect(codeOf(() => json.read(oldPipeline(item)))).toBe('WK_DECODE_MALFORMED'); // not UTF-8
    const newBytes = await newPipeline(item);
    // '{' is the fixint 123: no map for the schema, and bytes after a value without one.
    expect(codeOf(() => msgpack.read(newBytes))).toBe('WK_DECODE_SCHEMA_MISMATCH');
    expect(codeOf(() => reader('msgpack+snappy').read(newBytes))).toBe('WK_DECODE_TRAILING');
  });
});

describe.skipIf(!has('python:msgpack') || !has('python:snappy'))("bytes from Debian's Python", () => {
  /** Python reads the products' JSON and writes each item four ways; base64 strings back. */
  function fromPython(): Record<string, Uint8Array[]> {
    const script = `
import sys, json, base64, datetime, msgpack, snappy
items = json.loads(sys.stdin.read())
def stamp(text):
    return datetime.datetime.fromisoformat(text.replace('Z', '+00:00'))
def dated(item):
    return dict(item, createdAt=stamp(item['createdAt']), updatedAt=stamp(item['updatedAt']))
out = {
    'json+snappy': [snappy.compress(json.dumps(i).encode()) for i in items],
    'msgpack+snappy': [snappy.compress(msgpack.packb(i)) for i in items],
    'msgpack': [msgpack.packb(i) for i in items],
    'msgpack dated': [msgpack.packb(dated(i), datetime=True) for i in items],
}
print(json.dumps({k: [base64.b64encode(b).decode() for b in v] for k, v in out.items()}))
`;
    const result = spawnSync(python, ['-c', script], { input: JSON.stringify(items), encoding: 'utf8' });
    if (result.status !== 0) throw new Error(result.stderr);
    const parsed = JSON.parse(result.stdout) as Record<string, string[]>;
    return Object.fromEntries(
      Object.entries(parsed).map(([key, list]) => [
        key,
        list.map((b64) => new Uint8Array(Buffer.from(b64, 'base64'))),
      ]),
    );
  }

  test('json.dumps + snappy.compress, msgpack.packb (+ snappy, + timestamps): the products, exactly', () => {
    const written = fromPython();
    const readers = legacyReaders(['json+snappy', 'msgpack+snappy', 'msgpack'], { schema: Product });
    items.forEach((item, i) => {
      for (const [kind, name] of [
        ['json+snappy', 'json+snappy'],
        ['msgpack+snappy', 'msgpack+snappy'],
        ['msgpack', 'msgpack'],
        ['msgpack dated', 'msgpack'],
      ] as const) {
        expect(firstRead(readers, written[kind]?.[i] as Uint8Array)).toStrictEqual({ name, value: item });
      }
    });
    // Python's timestamps are the extension -1, read as Dates without a schema too.
    const schemaless = reader('msgpack').read(written['msgpack dated']?.[0] as Uint8Array) as {
      createdAt: Date;
    };
    expect(schemaless.createdAt).toStrictEqual(items[0]?.createdAt);
  });
});

describe("a user's reader", () => {
  test('returns the value; named by its function, or by { name, decode }', () => {
    const readers = legacyReaders([
      function base64Json(bytes) {
        return JSON.parse(Buffer.from(Buffer.from(bytes).toString(), 'base64').toString());
      },
      { name: 'reversed', decode: (bytes) => Buffer.from(bytes).toString().split('').reverse().join('') },
      (bytes) => bytes.length,
    ]);
    expect(readers.map((r) => r.name)).toStrictEqual(['base64Json', 'reversed', 'custom']);
    expect(
      readers[0]?.read(new TextEncoder().encode(Buffer.from('{"a":1}').toString('base64'))),
    ).toStrictEqual({ a: 1 });
    expect(readers[1]?.read(new TextEncoder().encode('abc'))).toBe('cba');
  });

  test('a plain Error is wrapped (WK_DECODE_MALFORMED, the cause kept); a WirekitError passes as it is', () => {
    const thrown = new TypeError('not mine');
    const [plain, wirekit, stringy] = legacyReaders([
      () => {
        throw thrown;
      },
      () => {
        throw new WirekitError('WK_DECODE_TRUNCATED', 'short');
      },
      () => {
        throw 'a string';
      },
    ]);
    const error = (() => {
      try {
        plain?.read(Uint8Array.of(1));
      } catch (caught) {
        return caught;
      }
    })() as WirekitError;
    expect(error).toBeInstanceOf(WirekitError);
    expect(error.code).toBe('WK_DECODE_MALFORMED');
    expect(error.cause).toBe(thrown);
    expect(error.message).toContain('not mine');
    expect(codeOf(() => wirekit?.read(Uint8Array.of(1)))).toBe('WK_DECODE_TRUNCATED');
    expect(codeOf(() => stringy?.read(Uint8Array.of(1)))).toBe('WK_DECODE_MALFORMED');
  });

  test('with a schema, its value is validated: the wrong type fails, never reaches the app', () => {
    const User = t.object('User', { id: t.int64(), at: t.timestamp() });
    const [good, bad] = legacyReaders(
      [() => ({ id: 1n, at: new Date(0) }), () => ({ id: 1, at: '1970-01-01T00:00:00Z' })],
      { schema: User },
    );
    expect(good?.read(Uint8Array.of(1))).toStrictEqual({ id: 1n, at: new Date(0) });
    expect(codeOf(() => bad?.read(Uint8Array.of(1)))).toBe('WK_VALIDATION_FAILED');
  });

  test('undefined (a miss to a cache) and a Promise are refused; bytes over maxInputBytes never reach it', () => {
    let calls = 0;
    const [undef, promise, counted] = legacyReaders(
      [
        () => undefined,
        async () => 1,
        () => {
          calls++;
          return 1;
        },
      ],
      { limits: { maxInputBytes: 4 } },
    );
    expect(codeOf(() => undef?.read(Uint8Array.of(1)))).toBe('WK_DECODE_MALFORMED');
    expect(codeOf(() => promise?.read(Uint8Array.of(1)))).toBe('WK_OPTIONS_INVALID');
    expect(codeOf(() => counted?.read(new Uint8Array(5)))).toBe('WK_LIMIT_INPUT');
    expect(calls).toBe(0);
  });

  test('specs that cannot work are refused when the readers are made', () => {
    const made = (specs: unknown, options = {}) =>
      codeOf(() => legacyReaders(specs as LegacySpec[], options));
    expect(made(['json', 'cbor'])).toBe('WK_OPTIONS_INVALID');
    expect(made(['JSON'])).toBe('WK_OPTIONS_INVALID');
    expect(made([{ name: '', decode: () => 1 }])).toBe('WK_OPTIONS_INVALID');
    expect(made([{ name: 'x' }])).toBe('WK_OPTIONS_INVALID');
    expect(made([42])).toBe('WK_OPTIONS_INVALID');
    expect(made('json')).toBe('WK_OPTIONS_INVALID');
    expect(made(['json'], { limits: { maxDepth: -1 } })).toBe('WK_OPTIONS_INVALID');
    expect(made(['json'], { maxDecompressionRatio: 0.5 })).toBe('WK_OPTIONS_INVALID');
    expect(made(['json'], { maxDecompressedBytes: 1.5 })).toBe('WK_OPTIONS_INVALID');
    expect(made([])).toBe('no error');
    // Reading anything but bytes is refused with a WirekitError too.
    for (const one of legacyReaders([...legacyFormats, () => 1]))
      expect(codeOf(() => one.read('{}' as unknown as Uint8Array))).toBe('WK_OPTIONS_INVALID');
  });
});

describe('hostile bytes', () => {
  /** A snappy block that declares `length` bytes (its varint header) and holds one literal byte. */
  function declaring(length: number): Uint8Array {
    const header: number[] = [];
    let rest = length;
    while (rest >= 0x80) {
      header.push((rest & 0x7f) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    header.push(rest);
    return Uint8Array.from([...header, 0x00, 0x7b]);
  }

  test('a snappy block declaring 4 GB, or more than the caps allow, is refused before anything is allocated', () => {
    for (const name of ['json+snappy', 'msgpack+snappy'] as const) {
      expect(codeOf(() => reader(name).read(declaring(0xffff_ffff)))).toBe('WK_LIMIT_DECOMPRESSED');
      expect(codeOf(() => reader(name).read(declaring(2 ** 35)))).toBe('WK_COMPRESSION_FAILED');
      expect(codeOf(() => reader(name, undefined, { maxDecompressedBytes: 100 }).read(declaring(101)))).toBe(
        'WK_LIMIT_DECOMPRESSED',
      );
      // The default cap is the limits' maxInputBytes.
      expect(
        codeOf(() => reader(name, undefined, { limits: { maxInputBytes: 100 } }).read(declaring(101))),
      ).toBe('WK_LIMIT_DECOMPRESSED');
    }
    // 2 MiB of zeros is ~100 KB of snappy: past a ratio of 10, within the default 1,000.
    const zeros = snappyOf(new Uint8Array(2 * 1024 * 1024));
    expect(codeOf(() => reader('json+snappy', undefined, { maxDecompressionRatio: 10 }).read(zeros))).toBe(
      'WK_LIMIT_DECOMPRESSED',
    );
    expect(codeOf(() => reader('json+snappy').read(zeros))).toMatch(/^WK_DECODE_/); // NUL is no JSON
  });

  test('corrupt and truncated blocks and values', () => {
    const [item] = items;
    const block = snappyOf(JSON.stringify(item));
    expect(codeOf(() => reader('json+snappy').read(block.subarray(0, block.length - 10)))).toBe(
      'WK_COMPRESSION_FAILED',
    );
    expect(codeOf(() => reader('json+snappy').read(new Uint8Array(0)))).toBe('WK_COMPRESSION_FAILED');
    const json = text(item);
    expect(codeOf(() => reader('json', Product).read(json.subarray(0, 100)))).toBe('WK_DECODE_TRUNCATED');
    const msgpack = msgpackEncode(item);
    for (const schema of [undefined, Product])
      expect(codeOf(() => reader('msgpack', schema).read(msgpack.subarray(0, 100)))).toBe(
        'WK_DECODE_TRUNCATED',
      );
    expect(codeOf(() => reader('msgpack').read(new Uint8Array(0)))).toBe('WK_DECODE_TRUNCATED');
    expect(codeOf(() => reader('json').read(new Uint8Array(0)))).toBe('WK_DECODE_TRUNCATED');
    expect(codeOf(() => reader('msgpack').read(Uint8Array.of(0x01, 0x02)))).toBe('WK_DECODE_TRAILING');
    expect(codeOf(() => reader('msgpack').read(Uint8Array.of(0xc1)))).toBe('WK_DECODE_MALFORMED');
  });

  test('deep nesting, __proto__ keys, long strings, many elements, large input: the limits hold, with snappy too', () => {
    const deepJson = new TextEncoder().encode(`${'['.repeat(5000)}${']'.repeat(5000)}`);
    const deepMsgpack = Uint8Array.from([...new Array(5000).fill(0x91), 0xc0]);
    const protoJson = new TextEncoder().encode('{"a":{"__proto__":{"polluted":true}}}');
    const protoMsgpack = Buffer.from('81a16181a95f5f70726f746f5f5f01', 'hex');
    const cases: [string, (typeof legacyFormats)[number], Uint8Array, string][] = [
      ['deep JSON', 'json', deepJson, 'WK_LIMIT_DEPTH'],
      ['deep MessagePack', 'msgpack', deepMsgpack, 'WK_LIMIT_DEPTH'],
      ['__proto__ in JSON', 'json', protoJson, 'WK_DECODE_UNSAFE_KEY'],
      ['__proto__ in MessagePack', 'msgpack', protoMsgpack, 'WK_DECODE_UNSAFE_KEY'],
      ['a long JSON string', 'json', text('x'.repeat(2000)), 'WK_LIMIT_LENGTH'],
      ['a long MessagePack string', 'msgpack', msgpackEncode('x'.repeat(2000)), 'WK_LIMIT_LENGTH'],
      ['many JSON elements', 'json', text(new Array(600).fill(0)), 'WK_LIMIT_ELEMENTS'],
      ['many MessagePack elements', 'msgpack', msgpackEncode(new Array(600).fill(0)), 'WK_LIMIT_ELEMENTS'],
    ];
    const limits = { maxStringBytes: 1000, maxElements: 500 };
    for (const [what, name, bytes, code] of cases) {
      expect(
        codeOf(() => reader(name, undefined, { limits }).read(bytes)),
        what,
      ).toBe(code);
      const snappy = `${name}+snappy` as (typeof legacyFormats)[number];
      expect(
        codeOf(() => reader(snappy, undefined, { limits }).read(snappyOf(bytes))),
        `${what}, snappy`,
      ).toBe(code);
    }
    // With a schema, a map's __proto__ key is refused too.
    const Attributes = t.object('A', { attributes: t.map(t.string(), t.int32()) });
    for (const bytes of [
      text({ attributes: JSON.parse('{"__proto__":1}') }),
      msgpackEncode({ attributes: JSON.parse('{"__proto__":1}') }),
    ]) {
      const name = bytes[0] === 0x7b ? 'json' : 'msgpack';
      expect(codeOf(() => reader(name, Attributes).read(bytes))).toBe('WK_DECODE_UNSAFE_KEY');
    }
    expect(
      codeOf(() => reader('json', undefined, { limits: { maxInputBytes: 10 } }).read(text('x'.repeat(20)))),
    ).toBe('WK_LIMIT_INPUT');
    // The limit is on the decompressed bytes: a small block of a large value is refused.
    expect(
      codeOf(() =>
        reader('msgpack+snappy', undefined, {
          limits: { maxInputBytes: 1000 },
          maxDecompressedBytes: 10_000,
        }).read(snappyOf(msgpackEncode('y'.repeat(5000)))),
      ),
    ).toBe('WK_LIMIT_INPUT');
  });

  test('fuzz: random bytes into every reader, with and without the schema, fail only with WirekitErrors', () => {
    const readers = [
      ...legacyReaders([...legacyFormats]),
      ...legacyReaders([...legacyFormats, (bytes) => JSON.parse(Buffer.from(bytes).toString())], {
        schema: Product,
      }),
    ];
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 2048 }),
          // Bytes that start like each format, so that the fuzz gets past the first byte.
          fc.uint8Array({ maxLength: 512 }).map((rest) => Uint8Array.from([0x7b, ...rest])),
          fc.uint8Array({ maxLength: 512 }).map((rest) => Uint8Array.from([0xde, 0x00, 0x1a, ...rest])),
          fc.uint8Array({ maxLength: 512 }).map((rest) => snappyOf(rest)),
        ),
        (bytes) => {
          for (const candidate of readers) {
            try {
              const value = candidate.read(bytes);
              // Whatever a schema reader returns is of the schema's type.
              if (readers.indexOf(candidate) >= legacyFormats.length)
                expect(validate(Product, value)).toStrictEqual([]);
            } catch (error) {
              if (!isWirekitError(error)) throw error;
            }
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  test('fuzz: real products mutated and cut, every format: WirekitErrors, or a value of the schema', () => {
    const [item] = items;
    const samples = {
      json: text(item),
      'json+snappy': snappyOf(JSON.stringify(item)),
      msgpack: new Uint8Array(pack(jsonRoundTrip(item))),
      'msgpack+snappy': snappyOf(msgpackEncode(item)),
    };
    const readers = legacyReaders([...legacyFormats], { schema: Product });
    fc.assert(
      fc.property(
        fc.constantFrom(...legacyFormats),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }),
        fc.nat({ max: 8 }),
        (name, edits, cut) => {
          const mutated = samples[name].slice(0, Math.max(1, samples[name].length - cut));
          for (const [position, value] of edits) mutated[position % mutated.length] = value;
          for (const candidate of readers) {
            try {
              expect(validate(Product, candidate.read(mutated))).toStrictEqual([]);
            } catch (error) {
              if (!isWirekitError(error)) throw error;
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('when one format meets the other', () => {
  test('only a lone ASCII digit is both JSON and MessagePack: the first reader in the order decides', () => {
    for (let digit = 0; digit <= 9; digit++) {
      const bytes = text(digit); // JSON.stringify(7) is "7", the byte 0x37: MessagePack's 55
      expect(msgpackEncode(48 + digit)).toStrictEqual(bytes);
      expect(firstRead(legacyReaders(['json', 'msgpack']), bytes)).toStrictEqual({
        name: 'json',
        value: digit,
      });
      expect(firstRead(legacyReaders(['msgpack', 'json']), bytes)).toStrictEqual({
        name: 'msgpack',
        value: 48 + digit,
      });
      // Inside snappy the same: the blocks are the same bytes.
      expect(snappyOf(bytes)).toStrictEqual(snappyOf(msgpackEncode(48 + digit)));
    }
    // An object schema has no value one byte long: no ambiguity there.
    const readers = legacyReaders(['json', 'msgpack'], { schema: Product });
    expect(firstRead(readers, text(7))).toStrictEqual({
      name: undefined,
      codes: ['WK_DECODE_SCHEMA_MISMATCH', 'WK_DECODE_SCHEMA_MISMATCH'],
    });
  });

  test('property: JSON text is refused by the MessagePack reader, and MessagePack by the JSON reader, but for that digit', () => {
    const json = reader('json');
    const msgpack = reader('msgpack');
    const loneDigit = (bytes: Uint8Array) =>
      bytes.length === 1 && (bytes[0] as number) >= 0x30 && (bytes[0] as number) <= 0x39;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const asJson = text(value);
        const asMsgpack = msgpackEncode(value);
        if (!loneDigit(asJson)) expect(codeOf(() => msgpack.read(asJson))).not.toBe('no error');
        if (!loneDigit(asMsgpack)) expect(codeOf(() => json.read(asMsgpack))).not.toBe('no error');
      }),
      { numRuns: 1000 },
    );
  });

  test('the plain MessagePack reader can take a snappy block for a value of its own, so it goes last', () => {
    // A real block of the old pipeline (found by a property test: about 1 in 30,000 random values):
    // its length header 82 01 is also a MessagePack map of two entries, and the rest happens to
    // parse. msgpack+snappy reads the value that was written; msgpack reads another one.
    const block = Buffer.from(
      '8201609397c0c0c2c2c2a42826532bcbc8e6aea8bdb34d6a93c0cb000901f0620ea323643c8aa137c0a32e4a73c0a0aa7d3e7a4e' +
        '227679285b3da7474a705f545a22a173a166cbc4d8be3085954dbca4232d363ba956726a7051386e5361a970282f48434e596c' +
        '79c3a27240c3a74c587568427e35a472315473a733647e2876743dc3',
      'hex',
    );
    const written = reader('msgpack+snappy').read(block) as unknown[];
    expect(written).toHaveLength(3);
    expect(written[0]).toStrictEqual([null, null, false, false, false, '(&S+', -1.5807229741016412e43]);
    const misread = reader('msgpack').read(block) as Map<unknown, unknown>;
    expect(misread).toBeInstanceOf(Map);
    expect([...misread.keys()][0]).toBe(1);
    expect(misread.get(1)).toBe(96);
    expect(firstRead(legacyReaders(['msgpack', 'msgpack+snappy']), block).name).toBe('msgpack');
    expect(firstRead(legacyReaders(['msgpack+snappy', 'msgpack']), block)).toStrictEqual({
      name: 'msgpack+snappy',
      value: written,
    });
  });

  test("property: in the order snappy first, JSON, MessagePack last, each writer's bytes are read by its own reader", () => {
    const readers = legacyReaders(['json+snappy', 'msgpack+snappy', 'json', 'msgpack']);
    const writers: [string, (value: unknown) => Uint8Array][] = [
      ['json+snappy', (value) => snappyOf(JSON.stringify(value))],
      ['msgpack+snappy', (value) => snappyOf(msgpackEncode(value))],
      ['json', (value) => text(value)],
      ['msgpack', (value) => msgpackEncode(value)],
    ];
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        // The one ambiguity of the formats themselves: a value one byte long (see above).
        if (text(value).length === 1 || msgpackEncode(value).length === 1) return;
        // Keys every reader refuses (tested above).
        if (/"(__proto__|constructor|prototype)":/.test(JSON.stringify(value))) return;
        for (const [name, write] of writers)
          expect(firstRead(readers, write(value)), name).toStrictEqual({ name, value: jsonRoundTrip(value) });
      }),
      { numRuns: 2000 },
    );
  });
});
