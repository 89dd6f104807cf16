/**
 * Decompression bombs: small inputs that decode to far more than the cap. Each must be refused
 * with WK_LIMIT_DECOMPRESSED (or, where a header lies, WK_COMPRESSION_FAILED) while the process's
 * peak resident memory stays far below what the bomb declares. The ratio cap
 * (maxDecompressionRatio) is checked the same way, below the absolute one.
 */
import { Encoder } from '@toondepauw/node-zstd';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  type Compressor,
  compressors,
  defaultMaxDecompressionRatio,
  getCompressor,
  ratioFloorBytes,
} from '../../src/compression/index.js';
import { WirekitError } from '../../src/errors/index.js';
import { codeOf } from '../support/code-of.js';
import { codeOfAsync, MiB, peakGrowth } from './support.js';

const cap = { maxDecompressedBytes: 1 * MiB };
/** What a refusal may cost at most: the cap, library chunks and the heap's own growth. */
const allowance = 16 * MiB;
const bombSize = 200 * MiB;

/** A zstd frame header, then `count` RLE blocks of 128 KiB (4 bytes each, 32,768:1). */
function zstdRleFrame(count: number, header: number[]): Uint8Array {
  const out = new Uint8Array(4 + header.length + 4 * count);
  out.set([0x28, 0xb5, 0x2f, 0xfd, ...header]);
  for (let i = 0; i < count; i++) {
    const word = (i === count - 1 ? 1 : 0) | (1 << 1) | ((128 * 1024) << 3);
    out.set([word & 0xff, (word >> 8) & 0xff, (word >> 16) & 0xff, 0], 4 + header.length + 4 * i);
  }
  return out;
}

interface Bomb {
  readonly compressor: Compressor;
  readonly bytes: Uint8Array;
  readonly code: 'WK_LIMIT_DECOMPRESSED' | 'WK_COMPRESSION_FAILED';
}

const bombs = new Map<string, Bomb>();

beforeAll(async () => {
  // Buffer.alloc maps zeroed pages lazily, so these 200 MB cost little until read.
  const zeros = Buffer.alloc(bombSize);
  for (const compressor of compressors.filter((c) => c.name !== 'none')) {
    const bytes = await compressor.compressAsync(zeros);
    bombs.set(`${compressor.name}: 200 MB of zeros`, { compressor, bytes, code: 'WK_LIMIT_DECOMPRESSED' });
  }
  const zstd = getCompressor('zstd');
  // The binding itself writes frames without a declared size (wirekit's own declare it).
  const unsized = new Uint8Array(await new Encoder(3).encode(zeros));
  bombs.set('zstd: 200 MB of zeros, no declared size', {
    compressor: zstd,
    bytes: unsized,
    code: 'WK_LIMIT_DECOMPRESSED',
  });
  // A frame without a content size: window 128 KiB, then 1 GiB of RLE blocks.
  bombs.set('zstd: 1 GiB of RLE blocks, no declared size', {
    compressor: zstd,
    bytes: zstdRleFrame(8192, [0x00, 0x38]),
    code: 'WK_LIMIT_DECOMPRESSED',
  });
  // Declares 2^40 bytes (8-byte content size) and holds one block.
  bombs.set('zstd: declares 1 TiB', {
    compressor: zstd,
    bytes: zstdRleFrame(1, [0xc0, 0x38, 0, 0, 0, 0, 0, 1, 0, 0]),
    code: 'WK_LIMIT_DECOMPRESSED',
  });
  // Declares 1,000 bytes (within the cap) but holds 1 GiB of blocks: the library sizes its output
  // by the declaration and fails when the blocks do not fit, instead of growing it.
  bombs.set('zstd: declares 1,000 bytes, holds 1 GiB', {
    compressor: zstd,
    bytes: zstdRleFrame(8192, [0x80, 0x38, 0xe8, 0x03, 0, 0]),
    code: 'WK_COMPRESSION_FAILED',
  });
  // snappy's varint header declaring 2^32 - 1 bytes, then a few literal bytes.
  bombs.set('snappy: declares 4 GiB', {
    compressor: getCompressor('snappy'),
    bytes: new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f, 0x08, 1, 2, 3]),
    code: 'WK_LIMIT_DECOMPRESSED',
  });
  // An LZ4 frame declaring 2^40 bytes (FLG with content size); refused before its checksum is read.
  bombs.set('lz4: declares 1 TiB', {
    compressor: getCompressor('lz4'),
    bytes: new Uint8Array([0x04, 0x22, 0x4d, 0x18, 0x68, 0x40, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]),
    code: 'WK_LIMIT_DECOMPRESSED',
  });
}, 120_000);

const names = [
  'snappy: 200 MB of zeros',
  'lz4: 200 MB of zeros',
  'zstd: 200 MB of zeros',
  'gzip: 200 MB of zeros',
  'brotli: 200 MB of zeros',
  'zstd: 200 MB of zeros, no declared size',
  'zstd: 1 GiB of RLE blocks, no declared size',
  'zstd: declares 1 TiB',
  'zstd: declares 1,000 bytes, holds 1 GiB',
  'snappy: declares 4 GiB',
  'lz4: declares 1 TiB',
];

describe('decompression bombs, cap 1 MiB', () => {
  test.each(names)('%s is refused without allocating its size', async (name) => {
    const bomb = bombs.get(name) as Bomb;
    const { compressor, bytes, code } = bomb;
    if (name.endsWith('200 MB of zeros')) expect(bytes.length * 20).toBeLessThan(bombSize);
    let found = '';
    const asyncGrowth = await peakGrowth(async () => {
      found = await codeOfAsync(() => compressor.decompressAsync(bytes, cap));
    });
    expect(found).toBe(code);
    expect(asyncGrowth, `peak growth ${(asyncGrowth / MiB).toFixed(1)} MiB`).toBeLessThan(allowance);
    const syncGrowth = await peakGrowth(() => {
      found = codeOf(() => compressor.decompress(bytes, cap));
    });
    expect(found).toBe(code);
    expect(syncGrowth, `peak growth ${(syncGrowth / MiB).toFixed(1)} MiB`).toBeLessThan(allowance);
  });

  test('the memory probe sees a real allocation of that size (so the checks above can fail)', async () => {
    const bomb = bombs.get('gzip: 200 MB of zeros') as Bomb;
    const growth = await peakGrowth(() =>
      bomb.compressor.decompress(bomb.bytes, {
        maxDecompressedBytes: bombSize,
        maxDecompressionRatio: Number.POSITIVE_INFINITY,
      }),
    );
    expect(growth).toBeGreaterThan(bombSize * 0.9);
  });

  test('with the default cap (64 MiB) the 200 MB bombs are refused too', async () => {
    for (const name of names.filter((n) => n.endsWith('200 MB of zeros'))) {
      const { compressor, bytes } = bombs.get(name) as Bomb;
      expect(await codeOfAsync(() => compressor.decompressAsync(bytes)), name).toBe('WK_LIMIT_DECOMPRESSED');
    }
  });
});

/** The error `run` throws (a WirekitError), or rejects with. */
async function errorOf(run: () => unknown): Promise<WirekitError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof WirekitError) return error;
    throw error;
  }
  throw new Error('expected a WirekitError');
}

describe('the ratio cap (maxDecompressionRatio)', () => {
  const zeros = Buffer.alloc(32 * MiB);
  /**
   * A ratio every algorithm's 32 MiB of zeros passes (snappy's, the lowest, is about 21×), low
   * enough that what it lets through is far below the 32 MiB.
   */
  const ratio = 10;
  const packed = compressors.filter((c) => c.name !== 'none');

  test.each(packed.map((c) => c.name))(
    '%s: output past the ratio is refused, sync and async, without allocating it',
    async (name) => {
      const compressor = getCompressor(name);
      const bytes = await compressor.compressAsync(zeros);
      expect(zeros.length / bytes.length, 'the input passes the ratio').toBeGreaterThan(ratio);
      const options = { maxDecompressionRatio: ratio };
      let refusal: WirekitError | undefined;
      const syncGrowth = await peakGrowth(async () => {
        refusal = await errorOf(() => compressor.decompress(bytes, options));
      });
      expect(refusal?.code).toBe('WK_LIMIT_DECOMPRESSED');
      expect(refusal?.message).toMatch(/maxDecompressionRatio \(\d+\) allows/);
      const asyncGrowth = await peakGrowth(async () => {
        refusal = await errorOf(() => compressor.decompressAsync(bytes, options));
      });
      expect(refusal?.code).toBe('WK_LIMIT_DECOMPRESSED');
      // What the ratio lets through, plus the library's chunks: far below the 32 MiB it holds.
      const allowed = Math.max(ratioFloorBytes, ratio * bytes.length);
      expect(syncGrowth).toBeLessThan(allowed + allowance);
      expect(asyncGrowth).toBeLessThan(allowed + allowance);
      // Without the ratio cap, the absolute cap (64 MiB) lets the same bytes through.
      const off = { maxDecompressionRatio: Number.POSITIVE_INFINITY };
      expect(compressor.decompress(bytes, off).length).toBe(zeros.length);
      expect((await compressor.decompressAsync(bytes, off)).length).toBe(zeros.length);
    },
    60_000,
  );

  test('the default ratio (1,000) refuses zeros compressed by zstd, brotli and gzip', async () => {
    for (const name of ['zstd', 'brotli', 'gzip'] as const) {
      const compressor = getCompressor(name);
      const bytes = await compressor.compressAsync(zeros);
      expect(zeros.length / bytes.length, name).toBeGreaterThan(defaultMaxDecompressionRatio);
      expect(
        codeOf(() => compressor.decompress(bytes)),
        name,
      ).toBe('WK_LIMIT_DECOMPRESSED');
      expect(await codeOfAsync(() => compressor.decompressAsync(bytes)), name).toBe('WK_LIMIT_DECOMPRESSED');
    }
  });

  test('outputs up to 1 MiB pass whatever their ratio: a few bytes of brotli for 1 MiB of zeros', async () => {
    const brotli = getCompressor('brotli');
    const bytes = brotli.compress(Buffer.alloc(ratioFloorBytes), 11);
    expect(bytes.length).toBeLessThan(100);
    expect(brotli.decompress(bytes).length).toBe(ratioFloorBytes);
    expect((await brotli.decompressAsync(bytes)).length).toBe(ratioFloorBytes);
    const more = brotli.compress(Buffer.alloc(ratioFloorBytes + 1), 11);
    expect(codeOf(() => brotli.decompress(more))).toBe('WK_LIMIT_DECOMPRESSED');
  });

  test('the lower cap applies: maxDecompressedBytes below what the ratio allows', () => {
    const gzip = getCompressor('gzip');
    const bytes = gzip.compress(Buffer.alloc(2 * MiB));
    const error = codeOf(() => gzip.decompress(bytes, { maxDecompressedBytes: MiB }));
    expect(error).toBe('WK_LIMIT_DECOMPRESSED');
    expect(() => gzip.decompress(bytes, { maxDecompressedBytes: MiB })).toThrow(
      /passed maxDecompressedBytes \(1048576\)/,
    );
  });

  test.each([0.5, 0, -1, Number.NaN, '10'])('a ratio of %s is refused (WK_OPTIONS_INVALID)', (ratio) => {
    for (const compressor of compressors) {
      const options = { maxDecompressionRatio: ratio as number };
      expect(codeOf(() => compressor.decompress(compressor.compress(new Uint8Array(8)), options))).toBe(
        'WK_OPTIONS_INVALID',
      );
    }
  });

  test('none is never held to the ratio: its output is its input', () => {
    const none = getCompressor('none');
    expect(none.decompress(new Uint8Array(4 * MiB), { maxDecompressionRatio: 1 }).length).toBe(4 * MiB);
  });
});
