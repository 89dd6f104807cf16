/**
 * Helpers shared by the MessagePack and CBOR tests: cutting bytes at chosen offsets, reading a
 * codec's stream, bytes from and to hex. The general stream helpers are in test/support/streams.ts;
 * Debian's Python for their interop checks in test/support/python.ts.
 */
import type { Codec } from '../../src/codecs/index.js';
import { collect } from './streams.js';

/**
 * `bytes` cut at `cuts`, offsets in ascending order, as an async source of chunks. Unlike
 * `chunked` of test/support/streams.ts (chunk sizes, cycled), this puts the cuts exactly where the
 * test chose them. Empty pieces (a repeated cut, one at 0 or at the end) are skipped, and
 * each piece is a copy.
 */
export async function* cutAt(bytes: Uint8Array, cuts: readonly number[]): AsyncGenerator<Uint8Array> {
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (cut > from) yield bytes.slice(from, cut);
    from = Math.max(from, cut);
  }
}

/** Every value `codec` reads from `source`. */
export function decodeAll<T>(codec: Codec<T>, source: AsyncIterable<Uint8Array>): Promise<T[]> {
  return collect(codec.decodeStream(source));
}

export function hex(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text.replaceAll(' ', ''), 'hex'));
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}
