/**
 * Looks compressors up by name (configuration, CLI flags) or by id (the envelope's header byte).
 * The list is indexed by id, so an id is also its position: ids are stable and never reused.
 */
import { WirekitError } from '../errors/index.js';
import { brotli } from './brotli.js';
import { type CompressionName, type Compressor, compressionNames } from './compressor.js';
import { gzip } from './gzip.js';
import { lz4 } from './lz4.js';
import { none } from './none.js';
import { snappy } from './snappy.js';
import { zstd } from './zstd.js';

/** Every compressor, in id order. */
export const compressors: readonly Compressor[] = Object.freeze([none, snappy, lz4, zstd, gzip, brotli]);

/** The compressor with this name or envelope id; WK_UNKNOWN_FORMAT for any other value. */
export function getCompressor(nameOrId: CompressionName | number): Compressor {
  const found =
    typeof nameOrId === 'number'
      ? compressors.find((compressor) => compressor.id === nameOrId)
      : compressors.find((compressor) => compressor.name === nameOrId);
  if (found === undefined) {
    throw new WirekitError(
      'WK_UNKNOWN_FORMAT',
      `no compression is registered under ${JSON.stringify(nameOrId) ?? String(nameOrId)}; ` +
        `use one of ${compressionNames.join(', ')} (ids 0-${compressors.length - 1}).`,
    );
  }
  return found;
}
