/**
 * The Arrow codec's own options, checked once when a codec is made: what it writes (stream or
 * file, rows per batch, compressed bodies) and how far a compressed body it reads may inflate.
 */
import { WirekitError } from '../../errors/index.js';
import { resolveRatio } from '../../util/decompression-ratio.js';
import type { CodecOptions } from '../core/codec.js';
import type { IpcFormat } from './encode/ipc-writer.js';
import { type IpcCompression, isIpcCompression } from './ipc-compression.js';

export interface ArrowCodecOptions extends CodecOptions {
  /** 'stream' (default) or 'file', for what encode writes; decode reads either. */
  readonly ipcFormat?: IpcFormat;
  /**
   * Rows per record batch (default 65,536). Smaller batches let a stream reader start sooner and
   * hold less; larger ones cost less metadata per row.
   */
  readonly batchSize?: number;
  /**
   * Compress the buffers of each record batch and dictionary, as Arrow's IPC compression does:
   * 'lz4' (LZ4_FRAME) or 'zstd' (ZSTD, level 1). Off by default. Decoding reads either, whatever
   * this says. Node only: the codecs are native libraries.
   */
  readonly ipcCompression?: IpcCompression;
  /**
   * How many times its compressed size a record batch body may inflate to (default 1000, never
   * below 1 MiB; Infinity for no ratio cap). Inflated bodies also count toward maxInputBytes.
   */
  readonly maxDecompressionRatio?: number;
}

export interface ResolvedArrowOptions {
  readonly ipcFormat: IpcFormat;
  readonly batchSize: number;
  readonly ipcCompression: IpcCompression | undefined;
  readonly maxDecompressionRatio: number;
}

const defaultBatchSize = 65_536;

function invalid(message: string): WirekitError {
  return new WirekitError('WK_OPTIONS_INVALID', message, { format: 'arrow' });
}

export function resolveArrowOptions(options: ArrowCodecOptions): ResolvedArrowOptions {
  const ipcFormat = options.ipcFormat ?? 'stream';
  if (ipcFormat !== 'stream' && ipcFormat !== 'file')
    throw invalid(`ipcFormat must be 'stream' or 'file', got ${String(ipcFormat)}.`);
  const batchSize = options.batchSize ?? defaultBatchSize;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1)
    throw invalid(`batchSize must be a positive integer, got ${batchSize}.`);
  const { ipcCompression } = options;
  if (ipcCompression !== undefined && !isIpcCompression(ipcCompression))
    throw invalid(`ipcCompression must be 'lz4' or 'zstd', got ${String(ipcCompression)}.`);
  return {
    ipcFormat,
    batchSize,
    ipcCompression,
    maxDecompressionRatio: resolveRatio(options.maxDecompressionRatio),
  };
}
