/**
 * What every algorithm checks and throws, in one place so that codes and wording stay uniform:
 * argument checks, the decompression cap, and turning a library's errors into WirekitErrors.
 */
import { isWirekitError, WirekitError } from '../errors/index.js';
import { ratioLimit, resolveRatio } from '../util/decompression-ratio.js';
import type { CompressionName, DecompressOptions } from './compressor.js';
import { defaultMaxDecompressedBytes } from './compressor.js';

/**
 * The most one call may decompress to: the lower of maxDecompressedBytes and
 * maxDecompressionRatio × the compressed size (never below ratioFloorBytes), with the limit that
 * sets it in words, for the error that names it.
 */
export interface Cap {
  readonly bytes: number;
  readonly limit: string;
}

/**
 * The cap in force for one call on `compressed` bytes; a cap that is not a non-negative safe
 * integer, or a ratio below 1, is refused.
 */
export function resolveCap(options: DecompressOptions | undefined, compressed: Uint8Array): Cap {
  const max = options?.maxDecompressedBytes ?? defaultMaxDecompressedBytes;
  if (!Number.isSafeInteger(max) || max < 0) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `maxDecompressedBytes must be a non-negative integer, got ${String(max)}.`,
    );
  }
  const ratio = resolveRatio(options?.maxDecompressionRatio);
  const byRatio = ratioLimit(compressed.byteLength, ratio);
  if (byRatio >= max) return { bytes: max, limit: `maxDecompressedBytes (${max})` };
  return {
    bytes: byRatio,
    limit: `the ${byRatio} bytes maxDecompressionRatio (${ratio}) allows from ${compressed.byteLength} compressed bytes`,
  };
}

/** Refuses a level outside [min, max]; undefined means the algorithm's default. */
export function resolveLevel(
  name: CompressionName,
  level: number | undefined,
  min: number,
  max: number,
  fallback: number,
): number {
  if (level === undefined) return fallback;
  if (!Number.isInteger(level) || level < min || level > max) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `${name} level must be an integer from ${min} to ${max}, got ${String(level)}.`,
    );
  }
  return level;
}

/**
 * A Buffer over the same memory, without copying: the native libraries take Buffers. Also refuses
 * a string or array at run time, which snappy and lz4-napi would otherwise encode as UTF-8.
 */
export function asBuffer(bytes: Uint8Array): Buffer {
  checkBytes(bytes);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function checkBytes(bytes: Uint8Array): void {
  if (!(bytes instanceof Uint8Array)) {
    throw new WirekitError('WK_OPTIONS_INVALID', `compression takes a Uint8Array, got ${typeof bytes}.`);
  }
}

/**
 * The libraries return Buffers. A plain Uint8Array view (no copy) keeps Buffer's different
 * `slice` (a view, where Uint8Array's is a copy) from surprising callers typed for Uint8Array.
 */
export function plain(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function tooLarge(name: CompressionName, size: number, cap: Cap, how = 'declares'): WirekitError {
  return new WirekitError(
    'WK_LIMIT_DECOMPRESSED',
    `the ${name} input ${how} ${size} decompressed bytes, more than ${cap.limit}.`,
  );
}

/**
 * For formats whose size is measured from their blocks rather than declared: `exact` when the
 * blocks were measured precisely (lz4), else an upper bound was passed (zstd without a size).
 */
export function blocksPassCap(name: CompressionName, cap: Cap, exact: boolean): WirekitError {
  const verb = exact ? 'decompress' : 'could decompress';
  return new WirekitError(
    'WK_LIMIT_DECOMPRESSED',
    `the ${name} input's blocks ${verb} to more than ${cap.limit}; refused before decompressing.`,
  );
}

export function passedCap(name: CompressionName, cap: Cap): WirekitError {
  return new WirekitError(
    'WK_LIMIT_DECOMPRESSED',
    `decompressing the ${name} input passed ${cap.limit}; stopped there.`,
  );
}

export function corrupt(name: CompressionName, reason: string, cause?: unknown): WirekitError {
  return new WirekitError('WK_COMPRESSION_FAILED', `the ${name} input is corrupt: ${reason}.`, { cause });
}

export type Direction = 'compress' | 'decompress';

/**
 * A library's error as a WirekitError (WirekitErrors pass unchanged). Decompressing, any error
 * means the input is corrupt. Compressing, the only foreseeable one is an output too large for one
 * buffer (WK_LIMIT_INPUT); anything else is reported as WK_COMPRESSION_FAILED with its reason.
 */
function asWirekitError(name: CompressionName, error: unknown, direction: Direction): WirekitError {
  if (isWirekitError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  if (direction === 'decompress') return corrupt(name, reason, error);
  if ((error as { code?: unknown } | undefined)?.code === 'ERR_BUFFER_TOO_LARGE') {
    return new WirekitError('WK_LIMIT_INPUT', `the ${name} output would not fit one buffer: ${reason}.`, {
      cause: error,
    });
  }
  return new WirekitError('WK_COMPRESSION_FAILED', `${name} could not compress the input: ${reason}.`, {
    cause: error,
  });
}

/** Runs `body`, letting only WirekitErrors out. */
export function guarded<T>(name: CompressionName, direction: Direction, body: () => T): T {
  try {
    return body();
  } catch (error) {
    throw asWirekitError(name, error, direction);
  }
}

/** The async form of `guarded`; also turns a synchronous throw into a rejection. */
export async function guardedAsync<T>(
  name: CompressionName,
  direction: Direction,
  body: () => Promise<T>,
): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw asWirekitError(name, error, direction);
  }
}

/** Joins the outputs of several frames; one frame is returned as it is, without a copy. */
export function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Refuses input longer than the format can describe (snappy's 32-bit length), before the library sees it. */
export function checkInputLength(name: CompressionName, bytes: Uint8Array, max: number): void {
  if (bytes.byteLength > max) {
    throw new WirekitError(
      'WK_LIMIT_INPUT',
      `${name} can compress at most ${max} bytes at once; the input is ${bytes.byteLength}.`,
    );
  }
}
