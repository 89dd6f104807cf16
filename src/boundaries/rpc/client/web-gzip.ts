/**
 * gzip for the browser transports, on the platform's CompressionStream (in every current browser,
 * and in Node): a reply's decompressed size is counted as it streams and refused past the read
 * limit, so a small compressed reply cannot expand without bound in the page.
 */
import { Code, ConnectError } from '@connectrpc/connect';
import type { Compression } from '@connectrpc/connect/protocol';

async function through(bytes: Uint8Array, stream: CompressionStream | DecompressionStream, limit: number) {
  const output = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream);
  const reader = output.getReader();
  const parts: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > limit) {
      await reader.cancel();
      throw new ConnectError(
        `message is larger than configured readMaxBytes ${limit} after decompression`,
        Code.ResourceExhausted,
      );
    }
    parts.push(value);
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

export const webGzip: Compression = {
  name: 'gzip',
  compress: (bytes) => through(bytes, new CompressionStream('gzip'), Number.POSITIVE_INFINITY),
  decompress: async (bytes, readMaxBytes) => {
    if (bytes.byteLength === 0) return new Uint8Array(0);
    try {
      return await through(bytes, new DecompressionStream('gzip'), readMaxBytes);
    } catch (error) {
      if (error instanceof ConnectError) throw error;
      throw new ConnectError('decompression failed', Code.InvalidArgument, undefined, undefined, error);
    }
  },
};
