/**
 * Stream plumbing for tests, in one place so that every codec's streaming tests feed and read
 * streams the same way. Codecs take chunks as `AsyncIterable<Uint8Array>` (or a web
 * `ReadableStream`), give values back as `AsyncIterable<T>`, and write `ReadableStream<Uint8Array>`.
 *
 * Chunks are views (`subarray`) of the caller's bytes, not copies, as Node's streams often hand out
 * data (Buffers that view a larger pooled allocation, at a non-zero byteOffset): a decoder that
 * reads `chunk.buffer` without its `byteOffset` fails here rather than in production. No helper
 * writes to the bytes it is given.
 */

/** Every item of an async iterable (the values `decodeStream` reads, say), in order. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/**
 * All the bytes of a stream (what `encodeStream` writes) as one array. Rejects as the stream does,
 * so an encoding error raised mid-stream reaches the test.
 */
export async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return concat(await collect(stream));
}

/**
 * `bytes` as an async source of chunks of the given sizes, cycled (`[7, 3]` gives 7, 3, 7, 3, …
 * bytes; the last chunk takes what is left), as a network would cut them. A size below 1 counts
 * as 1, so random sizes may include 0 without the source stalling on empty chunks. Empty input
 * gives no chunks.
 */
export async function* chunked(bytes: Uint8Array, sizes: readonly number[]): AsyncGenerator<Uint8Array> {
  if (sizes.length === 0) throw new Error('chunked needs at least one size');
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = Math.max(1, sizes[i % sizes.length] as number);
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

/** `bytes` one byte per chunk: the harshest cut, where every multi-byte item spans chunks. */
export function oneByteAtATime(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  return chunked(bytes, [1]);
}

/**
 * The parts one after another in a new array. Parts may be plain arrays of byte values
 * (`[0x02, 0x00]`), which hand-built inputs use for headers and varints.
 */
export function concat(parts: readonly ArrayLike<number>[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
