/**
 * LZ4 in the standard frame format (magic 04 22 4D 18), which the `lz4` CLI, python-lz4's
 * `lz4.frame` and every other LZ4 library read. lz4-napi (napi-rs over the Rust lz4_flex crate)
 * writes it with `compressFrame*`; its `compress*` functions write a raw block behind a 4-byte
 * length of lz4_flex's own making, which no other tool reads, so they are not used.
 *
 * Frames are written with a content checksum (xxHash32, as the lz4 CLI does by default), so that
 * corruption inside a block is detected rather than decoded into wrong bytes.
 *
 * lz4-napi decodes only the first frame of its input and silently drops the rest, so frames are
 * found by `lz4Frames` and decoded one at a time: concatenated frames decode to the concatenation
 * of their contents, as the LZ4 frame format specifies.
 */
import { compressFrame, compressFrameSync, decompressFrame, decompressFrameSync } from 'lz4-napi';
import { asBuffer, type Cap, concat, guarded, guardedAsync, passedCap, plain, resolveCap } from './checks.js';
import type { Compressor, DecompressOptions } from './compressor.js';
import { lz4Frames } from './lz4-frames.js';

const frameOptions = Object.freeze({ contentChecksum: true });

/** The output, checked once more against the cap in case the frame walk and the library disagree. */
function checked(parts: readonly Uint8Array[], cap: Cap): Uint8Array {
  const out = concat(parts);
  if (out.length > cap.bytes) throw passedCap('lz4', cap);
  return out;
}

export const lz4: Compressor = Object.freeze({
  name: 'lz4',
  id: 2,
  compress(bytes: Uint8Array): Uint8Array {
    const buffer = asBuffer(bytes);
    return guarded('lz4', 'compress', () => plain(compressFrameSync(buffer, frameOptions)));
  },
  decompress(bytes: Uint8Array, options?: DecompressOptions): Uint8Array {
    const buffer = asBuffer(bytes);
    const cap = resolveCap(options, buffer);
    const frames = lz4Frames(buffer, cap);
    return guarded('lz4', 'decompress', () =>
      checked(
        frames.map(({ start, end }) => plain(decompressFrameSync(buffer.subarray(start, end)))),
        cap,
      ),
    );
  },
  compressAsync(bytes: Uint8Array): Promise<Uint8Array> {
    return guardedAsync('lz4', 'compress', async () =>
      plain(await compressFrame(asBuffer(bytes), frameOptions)),
    );
  },
  decompressAsync(bytes: Uint8Array, options?: DecompressOptions): Promise<Uint8Array> {
    return guardedAsync('lz4', 'decompress', async () => {
      const buffer = asBuffer(bytes);
      const cap = resolveCap(options, buffer);
      const parts: Uint8Array[] = [];
      // One frame after another: concurrent calls would only hold more thread-pool threads at once.
      for (const { start, end } of lz4Frames(buffer, cap)) {
        parts.push(plain(await decompressFrame(buffer.subarray(start, end))));
      }
      return checked(parts, cap);
    });
  },
});
