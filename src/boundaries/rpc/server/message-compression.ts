/**
 * The compressions an RPC server accepts on messages (gRPC's `grpc-encoding`, Connect's
 * `content-encoding`), as Connect's `Compression` objects backed by wirekit's compressors: the
 * decompressed size is capped by both the message limit Connect passes in and the compression
 * module's caps (`maxDecompressedBytes`, and `maxDecompressionRatio`, which refuses a small bomb
 * long before the size cap is reached), and a refusal is a status (RESOURCE_EXHAUSTED for a cap,
 * INVALID_ARGUMENT for corrupt bytes), never an INTERNAL.
 */
import type { Compression } from '@connectrpc/connect/protocol';
import { brotli } from '../../../compression/brotli.js';
import type { Compressor } from '../../../compression/compressor.js';
import { gzip } from '../../../compression/gzip.js';
import { callErrorOf } from './call-error.js';

export interface DecompressionLimits {
  /** The largest decompressed message, in bytes (never above the server's `readMaxBytes`). */
  readonly maxDecompressedBytes: number;
  /** The largest ratio of decompressed to compressed bytes (the compression module's rule). */
  readonly maxDecompressionRatio: number;
}

function compressionOf(name: string, compressor: Compressor, limits: DecompressionLimits): Compression {
  return {
    name,
    compress: async (bytes) => asArrayBufferView(await compressor.compressAsync(bytes)),
    async decompress(bytes, readMaxBytes) {
      if (bytes.length === 0) return new Uint8Array(0);
      try {
        const out = await compressor.decompressAsync(bytes, {
          maxDecompressedBytes: Math.min(readMaxBytes, limits.maxDecompressedBytes),
          maxDecompressionRatio: limits.maxDecompressionRatio,
        });
        return asArrayBufferView(out);
      } catch (error) {
        throw callErrorOf(error);
      }
    },
  };
}

/** Connect's type asks for a view of a plain ArrayBuffer; node:zlib's Buffers always are one. */
function asArrayBufferView(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}

/** gzip (every gRPC runtime's) and brotli (`br`, Connect's other), in the order a server offers them. */
export function messageCompressions(limits: DecompressionLimits): Compression[] {
  return [compressionOf('gzip', gzip, limits), compressionOf('br', brotli, limits)];
}
