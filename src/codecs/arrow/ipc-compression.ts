/**
 * Arrow's buffer codecs (Message.fbs BodyCompression): LZ4_FRAME, the LZ4 frame format, and ZSTD.
 * pyarrow writes them with `IpcWriteOptions(compression=...)`, and Arrow Flight servers send them.
 * The libraries are the package's own (lz4-napi, @toondepauw/node-zstd), loaded on first use as
 * the Avro container's are, so readers of uncompressed streams never load native code, and a
 * runtime without Node gets a WirekitError rather than a failed import.
 *
 * A compressed buffer states its inflated length up front (decode/body.ts checks it against the limits
 * before any buffer is inflated). Neither library takes an output limit, so the frames are walked
 * first (core/frame-bounds.ts): frames that could inflate further than that length, beyond the
 * slack of one block that an honest writer's last block leaves, are refused before the library
 * runs, and the output must then be exactly the stated length.
 */
import { WirekitError } from '../../errors/index.js';
import { joinBytes } from '../../util/join-bytes.js';
import { requirePackage } from '../../util/node-runtime.js';
import { lz4FrameBounds, zstdBlockMax, zstdBound } from '../core/frame-bounds.js';

/** Arrow's buffer codecs: LZ4_FRAME and ZSTD. */
export type IpcCompression = 'lz4' | 'zstd';

type Lz4 = typeof import('lz4-napi');
type Zstd = typeof import('@toondepauw/node-zstd');

/** The zstd level written: Arrow C++'s default for IPC, which trades ratio for speed. */
const zstdLevel = 1;

const names: Record<IpcCompression, string> = { lz4: 'LZ4_FRAME', zstd: 'ZSTD' };

function library<T>(codec: IpcCompression): T {
  if (requirePackage === undefined) {
    throw new WirekitError(
      'WK_UNKNOWN_FORMAT',
      `Arrow bodies compressed with ${names[codec]} need a native library that only Node (20.16 or later) can load.`,
      { format: 'arrow' },
    );
  }
  return requirePackage(codec === 'lz4' ? 'lz4-napi' : '@toondepauw/node-zstd') as T;
}

function corrupt(codec: IpcCompression, reason: string, cause?: unknown): WirekitError {
  return new WirekitError('WK_COMPRESSION_FAILED', `a ${names[codec]} buffer is corrupt: ${reason}.`, {
    format: 'arrow',
    cause,
  });
}

/** The libraries take any Uint8Array, though their types say Buffer. */
function asBuffer(bytes: Uint8Array): Buffer {
  return bytes as Buffer;
}

/** A plain Uint8Array over a library's Buffer (Buffer's `slice` is a view; Uint8Array's a copy). */
function plain(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Inflates one buffer's compressed bytes to exactly `length` bytes, or throws. */
export function inflateBuffer(codec: IpcCompression, compressed: Uint8Array, length: number): Uint8Array {
  const out = codec === 'lz4' ? inflateLz4(compressed, length) : inflateZstd(compressed, length);
  if (out.length !== length)
    throw corrupt(codec, `it inflates to ${out.length} bytes where its prefix says ${length}`);
  return out;
}

function inflateLz4(compressed: Uint8Array, length: number): Uint8Array {
  const frames = lz4FrameBounds(compressed);
  if (frames === undefined || frames.length === 0) throw corrupt('lz4', 'it is not a sequence of LZ4 frames');
  let bound = 0;
  let slack = 0;
  for (const frame of frames) {
    if (frame.declared !== undefined && frame.declared > length)
      throw corrupt(
        'lz4',
        `a frame declares ${frame.declared} bytes where the buffer's prefix says ${length}`,
      );
    bound += frame.bound;
    slack = Math.max(slack, frame.blockMax);
  }
  if (bound > length + slack)
    throw corrupt('lz4', `its blocks could inflate to ${bound} bytes where its prefix says ${length}`);
  const { decompressFrameSync } = library<Lz4>('lz4');
  // lz4-napi inflates the first frame of its input only: each frame goes on its own.
  const parts: Uint8Array[] = [];
  let size = 0;
  for (const { start, end } of frames) {
    let part: Uint8Array;
    try {
      part = plain(decompressFrameSync(asBuffer(compressed.subarray(start, end))));
    } catch (error) {
      throw corrupt('lz4', error instanceof Error ? error.message : String(error), error);
    }
    size += part.length;
    if (size > length) throw corrupt('lz4', `it inflates past the ${length} bytes its prefix says`);
    parts.push(part);
  }
  return parts.length === 1 ? (parts[0] as Uint8Array) : joinBytes(parts, size);
}

function inflateZstd(compressed: Uint8Array, length: number): Uint8Array {
  const cap = length + zstdBlockMax;
  const bound = zstdBound(compressed, cap);
  if (bound === undefined || compressed.length === 0)
    throw corrupt('zstd', 'it is not a sequence of zstd frames');
  if (bound > cap)
    throw corrupt(
      'zstd',
      `its blocks could inflate to more than ${cap} bytes where its prefix says ${length}`,
    );
  const { Decoder } = library<Zstd>('zstd');
  try {
    return plain(new Decoder().decodeSync(asBuffer(compressed)));
  } catch (error) {
    throw corrupt('zstd', error instanceof Error ? error.message : String(error), error);
  }
}

/** Compresses one buffer as Arrow writes it; undefined when that would not make it smaller. */
export function deflateBuffer(codec: IpcCompression, bytes: Uint8Array): Uint8Array | undefined {
  let out: Uint8Array;
  try {
    if (codec === 'lz4') out = plain(library<Lz4>('lz4').compressFrameSync(asBuffer(bytes)));
    else out = plain(new (library<Zstd>('zstd').Encoder)(zstdLevel).encodeSync(asBuffer(bytes)));
  } catch (error) {
    if (error instanceof WirekitError) throw error;
    throw new WirekitError(
      'WK_ENCODE_UNSUPPORTED',
      `${names[codec]} could not compress a buffer: ${error instanceof Error ? error.message : String(error)}.`,
      { format: 'arrow', cause: error },
    );
  }
  return out.length < bytes.length ? out : undefined;
}

export function isIpcCompression(value: unknown): value is IpcCompression {
  return value === 'lz4' || value === 'zstd';
}
