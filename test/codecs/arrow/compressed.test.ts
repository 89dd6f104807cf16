/**
 * Arrow IPC bodies compressed with LZ4_FRAME or ZSTD (Message.fbs BodyCompression), as pyarrow
 * writes them with one option and Arrow Flight servers send them: wirekit reads pyarrow's, pyarrow
 * reads wirekit's (ipcCompression), and hostile compressed bodies (lengths that lie, bombs, ratios,
 * codecs that do not exist, random mutations) are refused with a code, before anything large is
 * allocated.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { createArrowCodec } from '../../../src/codecs/arrow/index.js';
import { type Infer, t } from '../../../src/index.js';
import { EveryKindFlat, everyKindValue } from '../../fixtures/every-kind.js';
import { compressBodies, compressWith } from '../../support/arrow-ipc-rewrite.js';
import { codeOf } from '../../support/code-of.js';
import { outcome } from '../../support/outcome.js';
import { noPyarrowVariants, pyarrowRead, pyarrowVariants, VariantOrders } from '../../support/pyarrow-ipc.js';
import { chunked, collect, readAll } from '../../support/streams.js';
import { has } from '../../support/tools.js';

const usable = has('venv:pyarrow');
let variant = noPyarrowVariants;
beforeAll(() => {
  if (usable) variant = pyarrowVariants();
});

const schemaless = createArrowCodec();

describe.skipIf(!usable)('wirekit reads the compressed bodies pyarrow writes', () => {
  for (const codec of ['lz4', 'zstd'] as const) {
    for (const ext of ['arrows', 'arrow'] as const) {
      test(`every kind of column, ${codec}, ${ext === 'arrows' ? 'stream' : 'file'}: as the uncompressed rows`, () => {
        const plain = schemaless.decode(variant(`kinds.plain.${ext}`));
        expect(plain).toHaveLength(6);
        expect(schemaless.decode(variant(`kinds.${codec}.${ext}`))).toStrictEqual(plain);
        const orders = createArrowCodec({ schema: VariantOrders });
        expect(orders.decode(variant(`orders.${codec}.${ext}`))).toStrictEqual(
          orders.decode(variant(`orders.plain.${ext}`)),
        );
      });
    }

    test(`${codec} streams read as they arrive, one byte at a time, and as a table`, async () => {
      const bytes = variant(`kinds.${codec}.arrows`);
      const rows = await collect(schemaless.decodeStream(chunked(bytes, [1])));
      expect(rows).toStrictEqual(schemaless.decode(variant('kinds.plain.arrows')));
      const table = createArrowCodec({ schema: VariantOrders }).decodeTable(
        variant(`orders.${codec}.arrows`),
      );
      expect(table.numRows).toBe(5);
      expect(table.getChild('name')?.toArray()).toEqual(['ann', 'bob', 'cy', 'dee', 'ed']);
    });
  }
});

type Flat = Infer<typeof EveryKindFlat>;
const flatRows = (): Flat[] => {
  const { category: _, ...first } = everyKindValue();
  return [first, { ...first, i8: 5, name: 'second', tags: [], nickname: undefined }];
};

describe.skipIf(!usable)('pyarrow reads the compressed bodies wirekit writes', () => {
  for (const ipcCompression of ['lz4', 'zstd'] as const) {
    for (const ipcFormat of ['stream', 'file'] as const) {
      test(`every field of EveryKindFlat, ${ipcCompression}, ${ipcFormat}: as the uncompressed`, () => {
        const options = { schema: EveryKindFlat, ipcFormat, batchSize: 1 };
        const compressed = createArrowCodec<Flat>({ ...options, ipcCompression }).encode(flatRows());
        const plain = createArrowCodec<Flat>(options).encode(flatRows());
        expect(Buffer.from(compressed).equals(plain)).toBe(false);
        const seen = pyarrowRead(compressed);
        expect(seen.format).toBe(ipcFormat);
        expect(seen.batches).toEqual([1, 1]);
        expect(seen.rows).toEqual(pyarrowRead(plain).rows);
        expect(createArrowCodec<Flat>(options).decode(compressed)).toEqual(flatRows());
      });
    }
  }

  test('encodeStream writes compressed batches too, and compressible columns shrink', async () => {
    const Rows = t.object('Rows', { id: t.int64(), text: t.string() });
    const rows = Array.from({ length: 5000 }, (_, i) => ({ id: BigInt(i), text: `row ${i % 7}` }));
    const codec = createArrowCodec({ schema: Rows, ipcCompression: 'zstd', batchSize: 1000 });
    const bytes = await readAll(codec.encodeStream(rows));
    expect(bytes.length).toBeLessThan(createArrowCodec({ schema: Rows }).encode(rows).length / 4);
    const seen = pyarrowRead(bytes);
    expect(seen.batches).toEqual([1000, 1000, 1000, 1000, 1000]);
    expect(seen.rows[4321]).toEqual({ id: 4321, text: 'row 2' });
  });
});

describe('compressed bodies wirekit writes and reads', () => {
  test('an unknown ipcCompression is an options error', () => {
    const make = () => createArrowCodec({ schema: VariantOrders, ipcCompression: 'gzip' as 'zstd' });
    expect(codeOf(make)).toBe('WK_OPTIONS_INVALID');
  });

  test('the codec says what it writes; decoding reads either, whatever the option', () => {
    const lz4 = createArrowCodec<Flat>({ schema: EveryKindFlat, ipcCompression: 'lz4' });
    const zstd = createArrowCodec<Flat>({ schema: EveryKindFlat, ipcCompression: 'zstd', compile: false });
    expect([lz4.ipcCompression, zstd.ipcCompression]).toEqual(['lz4', 'zstd']);
    expect(zstd.decode(lz4.encode(flatRows()))).toEqual(flatRows());
    expect(lz4.decode(zstd.encode(flatRows()))).toEqual(flatRows());
    expect(createArrowCodec().decodeTable(lz4.encode(flatRows())).numRows).toBe(2);
  });
});

/** One Int32 column of `rows` values from `value(i)`, written by wirekit uncompressed. */
function intStream(rows: number, value: (i: number) => number = (i) => i): Uint8Array {
  const Row = t.object('Row', { n: t.int32() });
  return createArrowCodec({ schema: Row }).encode(Array.from({ length: rows }, (_, i) => ({ n: value(i) })));
}

/** A zstd frame of `blocks` RLE blocks of 128 KiB of zeros each: 4 bytes a block, no content size. */
function zstdRleBomb(blocks: number): Uint8Array {
  const out = new Uint8Array(6 + 4 * blocks);
  out.set([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38]); // magic, no size, a window of 128 KiB
  for (let i = 0; i < blocks; i++) {
    const header = (131_072 << 3) | (1 << 1) | (i === blocks - 1 ? 1 : 0);
    out.set([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff, 0], 6 + 4 * i);
  }
  return out;
}

/** The stream with its values buffer (the Int32 column's second buffer) written by `write`. */
const rewriteValues = (
  stream: Uint8Array,
  write: (raw: Uint8Array) => { length: bigint; data: Uint8Array } | { region: Uint8Array },
) =>
  compressBodies(stream, 'zstd', {
    rewrite: (raw, index) => (index === 1 ? write(raw) : compressWith('zstd')(raw, index)),
  });

describe('hostile compressed bodies are refused with a code', () => {
  const stream = intStream(1000);
  const decode = (bytes: Uint8Array, limits?: Record<string, number>) =>
    codeOf(() => createArrowCodec({ limits }).decode(bytes));

  test('the helper writes what pyarrow would: compressed bodies that read as the plain rows', () => {
    const rows = schemaless.decode(stream);
    expect(schemaless.decode(compressBodies(stream, 'zstd'))).toStrictEqual(rows);
    expect(schemaless.decode(compressBodies(stream, 'lz4'))).toStrictEqual(rows);
  });

  test('stated lengths past maxInputBytes: refused before anything is inflated', () => {
    // The bytes after the length are no frame: inflating first would have said so instead.
    const bytes = rewriteValues(stream, () => ({ length: 2n ** 40n, data: new Uint8Array(16) }));
    expect(decode(bytes)).toBe('WK_LIMIT_DECOMPRESSED');
    // 4,000 bytes of sevens, compressed to a few dozen: the input fits maxInputBytes, its values do not.
    const sevens = compressBodies(
      intStream(1000, () => 7),
      'zstd',
    );
    expect(sevens.length).toBeLessThan(2000);
    expect(decode(sevens, { maxInputBytes: 2000 })).toBe('WK_LIMIT_DECOMPRESSED');
  });

  test('a body stating more than maxDecompressionRatio times its size, unless the ratio allows it', () => {
    // 8 MiB of zeros, which zstd writes in a few hundred bytes: a ratio past 10,000.
    const Blob = t.object('Blob', { data: t.bytes() });
    const zeros = createArrowCodec({ schema: Blob, ipcCompression: 'zstd' }).encode([
      { data: new Uint8Array(8 << 20) },
    ]);
    expect(zeros.length).toBeLessThan(2000);
    expect(decode(zeros)).toBe('WK_LIMIT_DECOMPRESSED');
    const codec = createArrowCodec({ schema: Blob, maxDecompressionRatio: Number.POSITIVE_INFINITY });
    const [row] = codec.decode(zeros) as [{ data: Uint8Array }];
    // Checked by hand: a deep equality of 8 MiB runs for minutes.
    expect(row.data.length === 8 << 20 && row.data.every((byte) => byte === 0)).toBe(true);
    expect(codeOf(() => createArrowCodec({ maxDecompressionRatio: 0.5 }))).toBe('WK_OPTIONS_INVALID');
  });

  test('a zstd bomb (1 GiB of zeros in 32 KiB) behind a small stated length: refused, nothing allocated', () => {
    const before = process.memoryUsage().arrayBuffers;
    const bomb = rewriteValues(stream, () => ({ length: 4000n, data: zstdRleBomb(8192) }));
    expect(decode(bomb, { maxInputBytes: 2 ** 31 })).toBe('WK_COMPRESSION_FAILED');
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * 1024);
  });

  test('an LZ4 frame that could inflate past its stated length is refused before it is inflated', () => {
    const big = compressWith('lz4')(new Uint8Array(16 * 1024 * 1024), 0) as { data: Uint8Array };
    const bytes = compressBodies(stream, 'lz4', {
      rewrite: (raw, index) =>
        index === 1 ? { length: 4000n, data: big.data } : compressWith('lz4')(raw, index),
    });
    expect(decode(bytes)).toBe('WK_COMPRESSION_FAILED');
  });

  test('lengths that disagree with the frame, and bytes that are no frame', () => {
    const compressed = (raw: Uint8Array) => (compressWith('zstd')(raw, 0) as { data: Uint8Array }).data;
    const more = rewriteValues(stream, (raw) => ({ length: BigInt(raw.length + 8), data: compressed(raw) }));
    const less = rewriteValues(stream, (raw) => ({ length: BigInt(raw.length - 8), data: compressed(raw) }));
    const noise = rewriteValues(stream, (raw) => ({
      length: BigInt(raw.length),
      data: raw.map((b) => b ^ 0x5a),
    }));
    for (const bytes of [more, less, noise]) expect(decode(bytes)).toBe('WK_COMPRESSION_FAILED');
  });

  test('a region too short for its length, or a negative length other than -1, is malformed', () => {
    const short = rewriteValues(stream, () => ({ region: Uint8Array.of(1, 2, 3, 4) }));
    const negative = rewriteValues(stream, (raw) => ({ length: -2n, data: raw }));
    expect(decode(short)).toBe('WK_DECODE_MALFORMED');
    expect(decode(negative)).toBe('WK_DECODE_MALFORMED');
    const stored = rewriteValues(stream, (raw) => ({ length: -1n, data: raw }));
    expect(schemaless.decode(stored)).toStrictEqual(schemaless.decode(stream));
  });

  test('a codec or method Arrow does not define is an unknown extension', () => {
    expect(decode(compressBodies(stream, 'zstd', { codecNumber: 2 }))).toBe('WK_DECODE_UNKNOWN_EXTENSION');
    expect(decode(compressBodies(stream, 'zstd', { method: 1 }))).toBe('WK_DECODE_UNKNOWN_EXTENSION');
  });

  test('inflated bytes add up across a whole input; a stream counts them per record batch', async () => {
    const Row = t.object('Row', { n: t.int32() });
    const rows = Array.from({ length: 200_000 }, (_, i) => ({ n: i % 100 }));
    const bytes = createArrowCodec({ schema: Row, ipcCompression: 'zstd', batchSize: 50_000 }).encode(rows);
    // Four batches of 200 KB of values each, in far less than maxInputBytes.
    const limits = { maxInputBytes: 600_000 };
    expect(bytes.length).toBeLessThan(100_000);
    expect(codeOf(() => createArrowCodec({ schema: Row, limits }).decode(bytes))).toBe(
      'WK_LIMIT_DECOMPRESSED',
    );
    const streamed = await collect(
      createArrowCodec({ schema: Row, limits }).decodeStream(chunked(bytes, [4096])),
    );
    expect(streamed).toEqual(rows);
  });

  test('random mutations of compressed streams give rows or wirekit errors, never anything else', () => {
    const samples = [
      compressBodies(stream, 'zstd'),
      compressBodies(stream, 'lz4'),
      createArrowCodec<Flat>({ schema: EveryKindFlat, ipcCompression: 'lz4' }).encode(flatRows()),
      createArrowCodec<Flat>({ schema: EveryKindFlat, ipcCompression: 'zstd' }).encode(flatRows()),
    ];
    const typed = createArrowCodec<Flat>({ schema: EveryKindFlat });
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
    for (const sample of samples)
      for (let cut = 0; cut < sample.length; cut += 7)
        expect(outcome(() => schemaless.decode(sample.subarray(0, cut)))).toMatchObject({ ok: false });
  });
});
