/**
 * The identity: bytes pass through as they are. It exists so that "no compression" is a choice the
 * envelope can record (id 0) and callers need no special case for it. The output is a copy, like
 * every other algorithm's, so that a caller who reuses its buffer cannot change what it got back.
 */
import { checkBytes, resolveCap, tooLarge } from './checks.js';
import type { Compressor, DecompressOptions } from './compressor.js';

function copy(bytes: Uint8Array): Uint8Array {
  checkBytes(bytes);
  // new Uint8Array(view) copies; a Buffer's own slice() would return a view instead.
  return new Uint8Array(bytes);
}

function passThrough(bytes: Uint8Array, options: DecompressOptions | undefined): Uint8Array {
  checkBytes(bytes);
  const cap = resolveCap(options, bytes);
  if (bytes.byteLength > cap.bytes) throw tooLarge('none', bytes.byteLength, cap, 'holds');
  return new Uint8Array(bytes);
}

export const none: Compressor = Object.freeze({
  name: 'none',
  id: 0,
  compress: copy,
  decompress: passThrough,
  compressAsync: async (bytes: Uint8Array) => copy(bytes),
  decompressAsync: async (bytes: Uint8Array, options?: DecompressOptions) => passThrough(bytes, options),
});
