export { brotli } from './brotli.js';
export {
  type CompressionName,
  type Compressor,
  compressionNames,
  type DecompressOptions,
  defaultMaxDecompressedBytes,
  defaultMaxDecompressionRatio,
  ratioFloorBytes,
} from './compressor.js';
export { gzip } from './gzip.js';
export { lz4 } from './lz4.js';
export { none } from './none.js';
export { compressors, getCompressor } from './registry.js';
export { snappy } from './snappy.js';
export { zstd } from './zstd.js';
