/**
 * The async methods must leave the event loop free while they work: the native libraries run on
 * libuv's thread pool (snappy, lz4-napi, node:zlib) or napi-rs's worker threads (zstd). A
 * setImmediate chain counts the loop's turns while a 16 MB job is in flight; a job done on the
 * main thread lets none happen before its promise settles. The check is on behaviour (did the
 * loop turn at all while the job was pending), not on how long anything took.
 */
import { describe, expect, test } from 'vitest';
import { type Compressor, compressors, none } from '../../src/compression/index.js';
import { expectSameBytes, MiB, textLike } from './support.js';

/** How many times the event loop turned while `job` was pending. */
async function turnsDuring<T>(job: () => Promise<T>): Promise<{ turns: number; result: T }> {
  let turns = 0;
  let pending = true;
  const turn = () => {
    if (!pending) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  const result = await job();
  pending = false;
  return { turns, result };
}

const input = textLike(16 * MiB);
const offloaded = compressors.filter((compressor) => compressor.name !== 'none');

describe.each(offloaded.map((c) => [c.name, c] as const))('%s', (_, compressor: Compressor) => {
  test('compressAsync and decompressAsync of 16 MB let the event loop run', async () => {
    const compressing = await turnsDuring(() => compressor.compressAsync(input));
    expect(compressing.turns).toBeGreaterThanOrEqual(3);
    const options = { maxDecompressedBytes: input.length };
    const decompressing = await turnsDuring(() => compressor.decompressAsync(compressing.result, options));
    expect(decompressing.turns).toBeGreaterThanOrEqual(3);
    expectSameBytes(decompressing.result, input);
  });
});

test('the probe tells: "none" does its copy on the main thread, and the loop does not turn', async () => {
  const { turns } = await turnsDuring(() => none.compressAsync(input));
  expect(turns).toBe(0);
});
