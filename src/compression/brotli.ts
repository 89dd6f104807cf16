/**
 * Brotli (RFC 7932) from node:zlib, for HTTP (`Content-Encoding: br`), where it beats gzip on size
 * at similar speed. Quality 0-11. The default is 5, not Node's 11: quality 11 took ~130× as long
 * as 5 on 1.9 MB of JSON records here (3.2 s against 25 ms) for a third less output, a price
 * worth paying for static assets compressed once, not for payloads compressed per message.
 * The input length is passed as a size hint, which lets brotli pick its window to fit.
 */
import {
  type BrotliOptions,
  brotliCompress,
  brotliCompressSync,
  brotliDecompress,
  brotliDecompressSync,
  constants,
  createBrotliCompress,
} from 'node:zlib';
import type { Compressor } from './compressor.js';
import { zlibCompressor } from './node-zlib.js';

export const brotli: Compressor = zlibCompressor<BrotliOptions, BrotliOptions>({
  name: 'brotli',
  id: 5,
  httpEncoding: 'br',
  levels: { min: constants.BROTLI_MIN_QUALITY, max: constants.BROTLI_MAX_QUALITY, fallback: 5 },
  compressOptions: (level, length) => ({
    params: {
      [constants.BROTLI_PARAM_QUALITY]: level,
      // The hint is a 32-bit field; past that it only has to say "large".
      [constants.BROTLI_PARAM_SIZE_HINT]: Math.min(length, 0xffff_ffff),
    },
  }),
  decompressOptions: (maxOutputLength) => ({ maxOutputLength }),
  compressSync: brotliCompressSync,
  compress: brotliCompress,
  decompressSync: brotliDecompressSync,
  decompress: brotliDecompress,
  flushingStream: (level) =>
    createBrotliCompress({
      flush: constants.BROTLI_OPERATION_FLUSH,
      params: { [constants.BROTLI_PARAM_QUALITY]: level },
    }),
});
