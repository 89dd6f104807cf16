/**
 * Zstandard frames (RFC 8878), the format of the `zstd` CLI, python-zstandard and HTTP's
 * `Content-Encoding: zstd`. @toondepauw/node-zstd 2.0.0 (napi-rs over the Rust `zstd` crate and
 * libzstd 1.5.7) does the work: synchronously on the calling thread, or on libuv's pool for the
 * async functions. It ships its Linux, macOS and Windows builds as npm packages, so installing it
 * downloads nothing from outside the registry (@mongodb-js/zstd 2.x, zstd-napi did).
 *
 * Its decoder streams into a growing buffer with no limit of its own, so every input is walked
 * first (zstd-frames.ts): declared sizes and block bounds are checked against the cap before
 * libzstd allocates anything. The walk also proves the input is whole frames, so one call decodes
 * them all (libzstd skips skippable frames itself).
 */
import { Decoder, Encoder } from '@toondepauw/node-zstd';
import {
  asBuffer,
  type Cap,
  guarded,
  guardedAsync,
  passedCap,
  plain,
  resolveCap,
  resolveLevel,
} from './checks.js';
import type { Compressor, DecompressOptions } from './compressor.js';
import { declareContentSize, zstdFrames } from './zstd-frames.js';

/** libzstd's range: negative levels trade ratio for speed. */
const minLevel = -131_072;
const maxLevel = 22;
const defaultLevel = 3;

const decoder = new Decoder();

/** An Encoder holds its level; one per level used, made on first use. */
const encoders = new Map<number, Encoder>();
function encoderFor(level: number | undefined): Encoder {
  const chosen = resolveLevel('zstd', level, minLevel, maxLevel, defaultLevel);
  let encoder = encoders.get(chosen);
  if (encoder === undefined) {
    encoder = new Encoder(chosen);
    encoders.set(chosen, encoder);
  }
  return encoder;
}

/** The input as a Buffer after the frame walk has bounded what it can decode to. */
function walked(buffer: Buffer, cap: Cap): Buffer {
  zstdFrames(buffer, cap);
  return buffer;
}

/** The output, checked once more against the cap in case the frame walk and libzstd disagree. */
function checked(out: Uint8Array, cap: Cap): Uint8Array {
  if (out.length > cap.bytes) throw passedCap('zstd', cap);
  return plain(out);
}

export const zstd: Compressor = Object.freeze({
  name: 'zstd',
  id: 3,
  httpEncoding: 'zstd',
  compress(bytes: Uint8Array, level?: number): Uint8Array {
    const encoder = encoderFor(level);
    const buffer = asBuffer(bytes);
    return guarded('zstd', 'compress', () =>
      declareContentSize(plain(encoder.encodeSync(buffer)), buffer.length),
    );
  },
  decompress(bytes: Uint8Array, options?: DecompressOptions): Uint8Array {
    const buffer = asBuffer(bytes);
    const cap = resolveCap(options, buffer);
    return guarded('zstd', 'decompress', () => checked(decoder.decodeSync(walked(buffer, cap)), cap));
  },
  compressAsync(bytes: Uint8Array, level?: number): Promise<Uint8Array> {
    return guardedAsync('zstd', 'compress', async () => {
      const encoder = encoderFor(level);
      const buffer = asBuffer(bytes);
      return declareContentSize(plain(await encoder.encode(buffer)), buffer.length);
    });
  },
  decompressAsync(bytes: Uint8Array, options?: DecompressOptions): Promise<Uint8Array> {
    return guardedAsync('zstd', 'decompress', async () => {
      const buffer = asBuffer(bytes);
      const cap = resolveCap(options, buffer);
      return checked(await decoder.decode(walked(buffer, cap)), cap);
    });
  },
});
