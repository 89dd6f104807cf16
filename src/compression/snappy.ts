/**
 * Snappy in its raw block format (what `snappy.compress` writes in Python, Go, Java and C++): a
 * varint of the decompressed length, then the compressed elements. The framed "stream" format is
 * not used: a payload is one block, and the block's length header lets the cap be checked before
 * anything is allocated. The `snappy` package (napi-rs over the Rust `snap` crate) does the work,
 * synchronously or on libuv's thread pool.
 */
import { compress, compressSync, uncompress, uncompressSync } from 'snappy';
import {
  asBuffer,
  type Cap,
  checkBytes,
  checkInputLength,
  corrupt,
  guarded,
  guardedAsync,
  plain,
  resolveCap,
  tooLarge,
} from './checks.js';
import type { Compressor, DecompressOptions } from './compressor.js';

/** The length header is 32 bits: the format cannot describe a larger block. */
const maxBlockBytes = 0xffff_ffff;

/** Reads the length header, refusing (before any allocation) a length beyond the cap. */
function checkDeclaredLength(bytes: Uint8Array, cap: Cap): void {
  let length = 0;
  for (let i = 0; i < 5; i++) {
    const byte = bytes[i];
    if (byte === undefined) throw corrupt('snappy', 'the length header is truncated');
    length += (byte & 0x7f) * 2 ** (7 * i);
    if (byte < 0x80) {
      if (length > maxBlockBytes) throw corrupt('snappy', 'the length header exceeds 32 bits');
      if (length > cap.bytes) throw tooLarge('snappy', length, cap);
      return;
    }
  }
  throw corrupt('snappy', 'the length header is longer than 5 bytes');
}

function checkedInput(bytes: Uint8Array): Buffer {
  checkBytes(bytes);
  checkInputLength('snappy', bytes, maxBlockBytes);
  return asBuffer(bytes);
}

function decompressSnappy(bytes: Uint8Array, options: DecompressOptions | undefined): Uint8Array {
  const buffer = asBuffer(bytes);
  checkDeclaredLength(buffer, resolveCap(options, buffer));
  return guarded('snappy', 'decompress', () => plain(uncompressSync(buffer, { asBuffer: true }) as Buffer));
}

export const snappy: Compressor = Object.freeze({
  name: 'snappy',
  id: 1,
  compress(bytes: Uint8Array): Uint8Array {
    const buffer = checkedInput(bytes);
    return guarded('snappy', 'compress', () => plain(compressSync(buffer)));
  },
  decompress: decompressSnappy,
  compressAsync(bytes: Uint8Array): Promise<Uint8Array> {
    return guardedAsync('snappy', 'compress', async () => plain(await compress(checkedInput(bytes))));
  },
  decompressAsync(bytes: Uint8Array, options?: DecompressOptions): Promise<Uint8Array> {
    return guardedAsync('snappy', 'decompress', async () => {
      const buffer = asBuffer(bytes);
      checkDeclaredLength(buffer, resolveCap(options, buffer));
      return plain((await uncompress(buffer, { asBuffer: true })) as Buffer);
    });
  },
});
