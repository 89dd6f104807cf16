/**
 * Zstandard frames (RFC 8878), the format of the `zstd` CLI, python-zstandard and HTTP's
 * `Content-Encoding: zstd`. @mongodb-js/zstd 1.2.2 (napi-rs over libzstd 1.5.2) does the work on
 * its own worker threads, off the event loop.
 *
 * That library has only async functions, so this build has no synchronous zstd: `compress` and
 * `decompress` throw and `sync` is false. docs/compression.md lists the ways to get one.
 *
 * The package's index.js drops the `level` argument before calling the native binding (every level
 * gave identical output), so the binding is loaded directly; its functions take the same arguments.
 */
import { createRequire } from 'node:module';
import { WirekitError } from '../errors/index.js';
import { asBuffer, concat, guardedAsync, passedCap, plain, resolveCap, resolveLevel } from './checks.js';
import type { Compressor, DecompressOptions } from './compressor.js';
import { declareContentSize, zstdFrames } from './zstd-frames.js';

interface ZstdBinding {
  compress(data: Buffer, level?: number): Promise<Buffer>;
  decompress(data: Buffer): Promise<Buffer>;
}

const binding = createRequire(import.meta.url)('@mongodb-js/zstd/bindings.js') as ZstdBinding;

/** libzstd's range: negative levels trade ratio for speed; 0 means its default, 3. */
const minLevel = -131_072;
const maxLevel = 22;
const defaultLevel = 3;

function noSync(): never {
  throw new WirekitError(
    'WK_UNKNOWN_FORMAT',
    'this build has no synchronous zstd (@mongodb-js/zstd 1.2.2 is async only): use compressAsync ' +
      'and decompressAsync, or pick a compressor whose `sync` is true.',
  );
}

export const zstd: Compressor = Object.freeze({
  name: 'zstd',
  id: 3,
  httpEncoding: 'zstd',
  sync: false,
  compress: noSync,
  decompress: noSync,
  compressAsync(bytes: Uint8Array, level?: number): Promise<Uint8Array> {
    return guardedAsync('zstd', 'compress', async () => {
      const chosen = resolveLevel('zstd', level, minLevel, maxLevel, defaultLevel);
      const buffer = asBuffer(bytes);
      return declareContentSize(plain(await binding.compress(buffer, chosen)), buffer.length);
    });
  },
  decompressAsync(bytes: Uint8Array, options?: DecompressOptions): Promise<Uint8Array> {
    return guardedAsync('zstd', 'decompress', async () => {
      const cap = resolveCap(options);
      const buffer = asBuffer(bytes);
      const parts: Uint8Array[] = [];
      // Frame by frame, so that each call meets exactly one frame whose bound was checked.
      for (const { start, end } of zstdFrames(buffer, cap)) {
        parts.push(plain(await binding.decompress(buffer.subarray(start, end))));
      }
      const out = concat(parts);
      if (out.length > cap) throw passedCap('zstd', cap);
      return out;
    });
  },
});
