/**
 * gzip (RFC 1952) from node:zlib: the Content-Encoding every HTTP client speaks, and the one
 * format here that every tool reads. Its CRC-32 and length trailer catch corruption and
 * truncation. Levels 0-9; the default is zlib's own 6. Concatenated members decode as one stream,
 * as gunzip does; bytes after the last member that are not a member are refused.
 */
import {
  constants,
  createGzip,
  gunzip,
  gunzipSync,
  gzip as gzipAsync,
  gzipSync,
  type ZlibOptions,
} from 'node:zlib';
import type { Compressor } from './compressor.js';
import { zlibCompressor } from './node-zlib.js';

export const gzip: Compressor = zlibCompressor<ZlibOptions, ZlibOptions>({
  name: 'gzip',
  id: 4,
  httpEncoding: 'gzip',
  levels: { min: 0, max: 9, fallback: 6 },
  compressOptions: (level) => ({ level }),
  decompressOptions: (maxOutputLength) => ({ maxOutputLength }),
  compressSync: gzipSync,
  compress: gzipAsync,
  decompressSync: gunzipSync,
  decompress: gunzip,
  flushingStream: (level) => createGzip({ level, flush: constants.Z_SYNC_FLUSH }),
});
