/**
 * What a command touches outside itself, passed in so that tests can run commands in-process and
 * read what they wrote.
 *
 * Input is read as a stream and never past a limit: a command given /dev/zero, a FIFO that never
 * ends or a file larger than it can hold stops at the limit with WK_LIMIT_INPUT, instead of
 * reading until memory runs out. The limit is the decoders' own `maxInputBytes` (64 MiB) unless
 * `--max-input-bytes` raises it.
 */
import { createReadStream } from 'node:fs';
import { defaultDecodeLimits } from '../codecs/index.js';
import { isWirekitError, WirekitError } from '../errors/index.js';
import { inputTooLarge } from '../util/input-limit.js';
import { usageError } from './usage.js';

export interface CliIo {
  readonly stdin: AsyncIterable<Uint8Array | string>;
  readonly stdout: { write(chunk: string | Uint8Array): unknown };
  readonly stderr: { write(chunk: string): unknown };
}

export const processIo: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };

/** The most bytes a command reads from one input unless told otherwise. */
const defaultInputLimit = defaultDecodeLimits.maxInputBytes;

/** The parseArgs option every command that reads input takes. */
export const inputLimitOption = { 'max-input-bytes': { type: 'string' } } as const;

/** The --max-input-bytes value (a whole number of bytes; K, M, G suffixes count 1024s), or the default. */
export function inputLimitOf(values: { readonly 'max-input-bytes'?: string | undefined }): number {
  const text = values['max-input-bytes'];
  return text === undefined ? defaultInputLimit : byteCountOf('--max-input-bytes', text);
}

/** A whole number of bytes, at least 1, with K, M, G suffixes counting 1024s. */
function byteCountOf(flag: string, text: string): number {
  const match = /^([0-9]+)([KMG]i?B?)?$/i.exec(text.trim());
  const unit = match?.[2]?.[0]?.toUpperCase();
  const limit = Number(match?.[1]) * (unit === undefined ? 1 : 1024 ** ('KMG'.indexOf(unit) + 1));
  if (match === null || !Number.isSafeInteger(limit) || limit < 1) {
    throw usageError(`${flag} takes a whole number of bytes, e.g. 134217728 or 128M (got ${text}).`);
  }
  return limit;
}

/** The parseArgs options of the commands that decode: the memory a value may take, and the ratio cap. */
export const decodeLimitOptions = {
  'max-allocated-bytes': { type: 'string' },
  'max-decompression-ratio': { type: 'string' },
} as const;

/**
 * The heap a decoded value may take (maxAllocatedBytes): --max-allocated-bytes, else four times
 * the input limit, which is the decoders' own 256 MiB for the default 64 MiB of input and grows
 * with --max-input-bytes, so that a larger input allowed is a larger value allowed.
 */
export function allocationLimitOf(
  values: { readonly 'max-allocated-bytes'?: string | undefined },
  inputLimit: number,
): number {
  const text = values['max-allocated-bytes'];
  return text === undefined
    ? Math.min(4 * inputLimit, Number.MAX_SAFE_INTEGER)
    : byteCountOf('--max-allocated-bytes', text);
}

/** --max-decompression-ratio: a number of at least 1, or `none`; undefined for the default. */
export function decompressionRatioOf(values: {
  readonly 'max-decompression-ratio'?: string | undefined;
}): number | undefined {
  const text = values['max-decompression-ratio'];
  if (text === undefined) return undefined;
  if (text.trim() === 'none') return Number.POSITIVE_INFINITY;
  const ratio = Number(text);
  if (text.trim() === '' || !(ratio >= 1) || !Number.isFinite(ratio)) {
    throw usageError(`--max-decompression-ratio takes a number of at least 1, or none (got ${text}).`);
  }
  return ratio;
}

/**
 * Reads a file, or standard input for '-', as a stream: at most `maxBytes` bytes, failing with
 * WK_LIMIT_INPUT as soon as the input passes them.
 */
export async function readInput(
  io: CliIo,
  path: string,
  maxBytes: number = defaultInputLimit,
): Promise<Buffer> {
  const name = path === '-' ? 'standard input' : path;
  const source = path === '-' ? io.stdin : createReadStream(path);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of source) {
      const bytes =
        typeof chunk === 'string'
          ? Buffer.from(chunk)
          : Buffer.isBuffer(chunk)
            ? chunk
            : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      size += bytes.length;
      // Leaving the loop destroys the stream: nothing past the limit is read or kept.
      if (size > maxBytes) throw inputTooLarge(name, maxBytes);
      chunks.push(bytes);
    }
  } catch (cause) {
    if (isWirekitError(cause)) throw cause;
    throw new WirekitError('WK_CLI_INPUT', `cannot read ${name}: ${(cause as Error).message}`, { cause });
  }
  return Buffer.concat(chunks, size);
}
