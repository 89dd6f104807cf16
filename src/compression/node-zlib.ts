/**
 * What gzip and brotli share: both come from node:zlib, whose sync functions run on the calling
 * thread and whose callback functions run on libuv's thread pool, and whose `maxOutputLength`
 * stops inflating as soon as the output passes it. Neither format declares its decompressed size
 * up front (gzip's ISIZE trailer comes last and is taken modulo 2^32), so that early abort is what
 * enforces the cap: decompressing stops after at most one internal chunk past the limit.
 */
import { constants } from 'node:buffer';
import type { Transform } from 'node:stream';
import {
  asBuffer,
  type Cap,
  guarded,
  guardedAsync,
  passedCap,
  plain,
  resolveCap,
  resolveLevel,
} from './checks.js';
import type { CompressionName, Compressor, DecompressOptions } from './compressor.js';

type Callback = (error: Error | null, result: Buffer) => void;
type SyncFn<O> = (buffer: Buffer, options: O) => Buffer;
type AsyncFn<O> = (buffer: Buffer, options: O, callback: Callback) => void;

export interface ZlibAlgorithm<C, D> {
  readonly name: CompressionName;
  readonly id: number;
  readonly httpEncoding: string;
  readonly levels: { readonly min: number; readonly max: number; readonly fallback: number };
  /** The library's options for a level and an input length. */
  readonly compressOptions: (level: number, length: number) => C;
  readonly decompressOptions: (maxOutputLength: number) => D;
  readonly compressSync: SyncFn<C>;
  readonly compress: AsyncFn<C>;
  readonly decompressSync: SyncFn<D>;
  readonly decompress: AsyncFn<D>;
  /** The library's compressing stream at `level`, flushing after every write. */
  readonly flushingStream: (level: number) => Transform;
}

function run<O>(fn: AsyncFn<O>, buffer: Buffer, options: O): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    fn(buffer, options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** node:zlib refuses a maxOutputLength of 0 or beyond the largest Buffer. */
function maxOutputLength(cap: Cap): number {
  return Math.min(Math.max(cap.bytes, 1), constants.MAX_LENGTH);
}

/** zlib's ERR_BUFFER_TOO_LARGE is the early abort, not corruption. */
function capError(name: CompressionName, error: unknown, cap: Cap): unknown {
  return (error as { code?: unknown } | undefined)?.code === 'ERR_BUFFER_TOO_LARGE'
    ? passedCap(name, cap)
    : error;
}

function withinCap(name: CompressionName, out: Buffer, cap: Cap): Uint8Array {
  // maxOutputLength is at least 1, so a cap of 0 is checked here.
  if (out.length > cap.bytes) throw passedCap(name, cap);
  return plain(out);
}

export function zlibCompressor<C, D>(algorithm: ZlibAlgorithm<C, D>): Compressor {
  const { name, levels } = algorithm;
  const optionsFor = (bytes: Uint8Array, level: number | undefined): C =>
    algorithm.compressOptions(
      resolveLevel(name, level, levels.min, levels.max, levels.fallback),
      bytes.length,
    );
  return Object.freeze({
    name,
    id: algorithm.id,
    httpEncoding: algorithm.httpEncoding,
    flushingStream: (level?: number): Transform =>
      algorithm.flushingStream(resolveLevel(name, level, levels.min, levels.max, levels.fallback)),
    compress(bytes: Uint8Array, level?: number): Uint8Array {
      const options = optionsFor(bytes, level);
      const buffer = asBuffer(bytes);
      return guarded(name, 'compress', () => plain(algorithm.compressSync(buffer, options)));
    },
    decompress(bytes: Uint8Array, options?: DecompressOptions): Uint8Array {
      const buffer = asBuffer(bytes);
      const cap = resolveCap(options, buffer);
      const zlibOptions = algorithm.decompressOptions(maxOutputLength(cap));
      return guarded(name, 'decompress', () => {
        try {
          return withinCap(name, algorithm.decompressSync(buffer, zlibOptions), cap);
        } catch (error) {
          throw capError(name, error, cap);
        }
      });
    },
    compressAsync(bytes: Uint8Array, level?: number): Promise<Uint8Array> {
      return guardedAsync(name, 'compress', async () => {
        const options = optionsFor(bytes, level);
        return plain(await run(algorithm.compress, asBuffer(bytes), options));
      });
    },
    decompressAsync(bytes: Uint8Array, options?: DecompressOptions): Promise<Uint8Array> {
      return guardedAsync(name, 'decompress', async () => {
        const buffer = asBuffer(bytes);
        const cap = resolveCap(options, buffer);
        const zlibOptions = algorithm.decompressOptions(maxOutputLength(cap));
        try {
          return withinCap(name, await run(algorithm.decompress, buffer, zlibOptions), cap);
        } catch (error) {
          throw capError(name, error, cap);
        }
      });
    },
  });
}
