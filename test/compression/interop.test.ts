/**
 * Interop with independent implementations, both ways: Debian's Python modules and the reference
 * CLIs decompress what wirekit writes, and wirekit decompresses what they write (with the options
 * that change the frame layout: declared sizes or not, block sizes, linked blocks, checksums).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type Compressor, getCompressor } from '../../src/compression/index.js';
import { has, hasCommand, python, withTempDir } from '../support/tools.js';
import { codeOfAsync, expectSameBytes, joinBytes, MiB, textLike } from './support.js';

const payload = textLike(300_000, 7);
const exact = { maxDecompressedBytes: payload.length };

function run(command: string, args: readonly string[], input?: Uint8Array): Uint8Array {
  const result = spawnSync(command, args, { input, maxBuffer: 64 * MiB });
  if (result.error !== undefined) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${String(result.stderr)}`);
  return new Uint8Array(result.stdout);
}

/** Runs a Python body with `data` (stdin's bytes) and `sys` in scope; `out` goes to stdout. */
function py(imports: string, body: string, input: Uint8Array): Uint8Array {
  const script = `import sys, ${imports}\ndata = sys.stdin.buffer.read()\n${body}\nsys.stdout.buffer.write(out)\n`;
  return run(python, ['-c', script], input);
}

/** Their output, read back by wirekit with the cap at exactly the payload's size. */
async function expectReads(compressor: Compressor, theirs: Uint8Array): Promise<void> {
  expectSameBytes(await compressor.decompressAsync(theirs, exact), payload);
  expectSameBytes(compressor.decompress(theirs, exact), payload);
}

describe.skipIf(!has('python:snappy'))('python snappy', () => {
  const snappy = getCompressor('snappy');
  test('reads ours', () =>
    expectSameBytes(py('snappy', 'out = snappy.uncompress(data)', snappy.compress(payload)), payload));
  test('we read theirs', () => expectReads(snappy, py('snappy', 'out = snappy.compress(data)', payload)));
});

describe.skipIf(!has('python:lz4.frame'))('python lz4.frame', () => {
  const lz4 = getCompressor('lz4');
  test('reads ours', () =>
    expectSameBytes(py('lz4.frame', 'out = lz4.frame.decompress(data)', lz4.compress(payload)), payload));
  test.each([
    ['defaults: linked 64 KiB blocks, size declared', ''],
    [
      '4 MiB independent blocks, no size, checksums',
      'block_size=lz4.frame.BLOCKSIZE_MAX4MB, block_linked=False, store_size=False, content_checksum=True, block_checksum=True',
    ],
    ['level 9 (HC)', 'compression_level=9'],
  ])('we read theirs: %s', (_, args) =>
    expectReads(lz4, py('lz4.frame', `out = lz4.frame.compress(data, ${args})`, payload)),
  );
  test('we read several of their frames in a row', async () => {
    const frames = py(
      'lz4.frame',
      'out = lz4.frame.compress(data[:1000]) + lz4.frame.compress(data[1000:])',
      payload,
    );
    expectSameBytes(await lz4.decompressAsync(frames, exact), payload);
  });
});

describe.skipIf(!has('python:zstandard'))('python zstandard', () => {
  const zstd = getCompressor('zstd');
  test('reads ours with the one-shot API, which needs the declared size', async () => {
    const ours = await zstd.compressAsync(payload);
    expectSameBytes(py('zstandard', 'out = zstandard.ZstdDecompressor().decompress(data)', ours), payload);
  });
  test.each([
    ['one-shot, size declared', 'out = zstandard.ZstdCompressor(level=3).compress(data)'],
    [
      'with a checksum, level 19',
      'out = zstandard.ZstdCompressor(level=19, write_checksum=True).compress(data)',
    ],
    ['two frames', 'c = zstandard.ZstdCompressor()\nout = c.compress(data[:1000]) + c.compress(data[1000:])'],
  ])('we read theirs: %s', (_, body) => expectReads(zstd, py('zstandard', body, payload)));
  test('we read their streamed frame (no size: the cap is exact to within a block per block)', async () => {
    const body = 'c = zstandard.ZstdCompressor().compressobj()\nout = c.compress(data) + c.flush()';
    const theirs = py('zstandard', body, payload);
    expectSameBytes(await zstd.decompressAsync(theirs), payload);
    expect(await codeOfAsync(() => zstd.decompressAsync(theirs, exact))).toBe('WK_LIMIT_DECOMPRESSED');
    const blocks = Math.ceil(payload.length / (128 * 1024));
    expectSameBytes(
      await zstd.decompressAsync(theirs, { maxDecompressedBytes: blocks * 128 * 1024 }),
      payload,
    );
  });
});

describe.skipIf(!has('python:gzip'))('python gzip', () => {
  const gzip = getCompressor('gzip');
  test('reads ours', () =>
    expectSameBytes(py('gzip', 'out = gzip.decompress(data)', gzip.compress(payload)), payload));
  test('we read theirs', () => expectReads(gzip, py('gzip', 'out = gzip.compress(data, 9)', payload)));
});

/**
 * python3-brotli is not in .ci/apt-packages.txt, so a missing module skips (loudly) even under CI,
 * unlike the tools above; add the package there and this can use `has` like the rest.
 */
const pythonBrotli = spawnSync(python, ['-c', 'import brotli'], { stdio: 'pipe' }).status === 0;
if (!pythonBrotli) console.warn('\n*** SKIPPING brotli interop: python3-brotli is not installed. ***\n');

describe.skipIf(!pythonBrotli)('python brotli', () => {
  const brotli = getCompressor('brotli');
  test('reads ours', () =>
    expectSameBytes(py('brotli', 'out = brotli.decompress(data)', brotli.compress(payload)), payload));
  test('we read theirs', () =>
    expectReads(brotli, py('brotli', 'out = brotli.compress(data, quality=9)', payload)));
});

describe.skipIf(!hasCommand('zstd'))('zstd CLI', () => {
  const zstd = getCompressor('zstd');
  test('reads ours', async () =>
    expectSameBytes(run('zstd', ['-dcq'], await zstd.compressAsync(payload)), payload));
  test('we read theirs, compressed from a file (size declared)', async () => {
    const theirs = withTempDir((dir) => {
      writeFileSync(join(dir, 'payload'), payload);
      return run('zstd', ['-qc', join(dir, 'payload')]);
    });
    await expectReads(zstd, theirs);
  });
  test('we read theirs, compressed from a pipe (no size)', async () => {
    expectSameBytes(await zstd.decompressAsync(run('zstd', ['-qc', '-19'], payload)), payload);
  });
});

describe.skipIf(!hasCommand('lz4'))('lz4 CLI', () => {
  const lz4 = getCompressor('lz4');
  test('reads ours', () => expectSameBytes(run('lz4', ['-d', '-c', '-q'], lz4.compress(payload)), payload));
  test.each([
    ['defaults (4 MiB blocks, content checksum)', []],
    ['linked 64 KiB blocks, block checksums', ['-BD', '-B4', '-BX']],
    ['content size declared, level 9', ['--content-size', '-9']],
  ])('we read theirs: %s', async (_, flags) => {
    const theirs = withTempDir((dir) => {
      writeFileSync(join(dir, 'payload'), payload);
      return run('lz4', ['-q', '-c', ...flags, join(dir, 'payload')]);
    });
    await expectReads(lz4, theirs);
  });
  test('lz4 -l (legacy frames) is refused as corrupt, not misread', async () => {
    expect(await codeOfAsync(() => lz4.decompressAsync(run('lz4', ['-q', '-c', '-l'], payload)))).toBe(
      'WK_COMPRESSION_FAILED',
    );
  });
});

describe.skipIf(!hasCommand('gzip'))('gzip CLI', () => {
  const gzip = getCompressor('gzip');
  test('reads ours', () => expectSameBytes(run('gzip', ['-dc'], gzip.compress(payload)), payload));
  test('we read theirs, several members in a row as gunzip does', async () => {
    const members = joinBytes(
      run('gzip', ['-c'], payload.subarray(0, 1000)),
      run('gzip', ['-9c'], payload.subarray(1000)),
    );
    await expectReads(gzip, members);
  });
});
