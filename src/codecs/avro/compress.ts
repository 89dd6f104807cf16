/**
 * The block codecs of Avro Object Container Files. Kept to one small file over the libraries
 * themselves so that it can move onto the compression layer later. Every decompressor is capped,
 * at maxInputBytes and at maxDecompressionRatio times the block's compressed size (the lower one):
 * the output size is known or bounded *before* a byte is inflated, so a tiny block cannot claim
 * gigabytes. The libraries are loaded on first use, so datum-only users never load native code.
 *
 * On Node, deflate is Node's zlib and snappy and zstandard are native libraries. Elsewhere (a
 * browser) deflate goes through the web's CompressionStream and DecompressionStream, which are
 * asynchronous: decodeStream and readContainer read such blocks there, decodeSequence cannot; snappy
 * and zstandard blocks are WK_UNKNOWN_FORMAT, as there is no library to run them.
 */
import { WirekitError } from '../../errors/index.js';
import { crc32 } from '../../util/crc32.js';
import { ratioLimit } from '../../util/decompression-ratio.js';
import { joinBytes } from '../../util/join-bytes.js';
import { maxNodeBufferLength, nodeBuiltin, requirePackage } from '../../util/node-runtime.js';
import { zstdBound } from '../core/frame-bounds.js';

export const containerCodecs = ['null', 'deflate', 'snappy', 'zstandard'] as const;
export type ContainerCodec = (typeof containerCodecs)[number];

export function isContainerCodec(name: string): name is ContainerCodec {
  return (containerCodecs as readonly string[]).includes(name);
}

type Zlib = typeof import('node:zlib');
type Snappy = typeof import('snappy');
type Zstd = typeof import('@toondepauw/node-zstd');

/** Node's zlib, or undefined where there is none. */
const zlib = nodeBuiltin<Zlib>('zlib');

/** The native library for `codec`'s blocks, loaded on first use; only Node can load one. */
function library<T>(codec: 'snappy' | 'zstandard'): T {
  if (requirePackage === undefined) {
    throw new WirekitError(
      'WK_UNKNOWN_FORMAT',
      `${codec} blocks need a native library that only Node (20.16 or later) can load; write the container with deflate or null to read it here.`,
      { format: 'avro' },
    );
  }
  return requirePackage(codec === 'snappy' ? 'snappy' : '@toondepauw/node-zstd') as T;
}

function corrupt(codec: string, cause?: unknown): WirekitError {
  return new WirekitError('WK_COMPRESSION_FAILED', `a ${codec} block is corrupt.`, { format: 'avro', cause });
}

/** The most one block may inflate to, and the limit that sets it in words. */
interface BlockCap {
  readonly bytes: number;
  readonly limit: string;
}

/** A block's cap: maxInputBytes, or `ratio` times its compressed size where that is lower. */
function blockCap(data: Uint8Array, maxInputBytes: number, ratio: number): BlockCap {
  const byRatio = ratioLimit(data.length, ratio);
  return byRatio >= maxInputBytes
    ? { bytes: maxInputBytes, limit: `maxInputBytes (${maxInputBytes})` }
    : {
        bytes: byRatio,
        limit: `the ${byRatio} bytes maxDecompressionRatio (${ratio}) allows from ${data.length} compressed bytes`,
      };
}

function tooBig(codec: string, size: number | string, cap: BlockCap): WirekitError {
  return new WirekitError(
    'WK_LIMIT_DECOMPRESSED',
    `a ${codec} block would inflate to ${size} bytes, beyond ${cap.limit}.`,
    { format: 'avro' },
  );
}

export async function compressBlock(codec: ContainerCodec, data: Uint8Array): Promise<Uint8Array> {
  switch (codec) {
    case 'null':
      return data;
    case 'deflate':
      return zlib !== undefined
        ? zlib.deflateRawSync(data)
        : await webStream(data, new CompressionStream('deflate-raw'));
    case 'snappy': {
      const { compressSync } = library<Snappy>('snappy');
      const body = compressSync(data);
      const out = new Uint8Array(body.length + 4);
      out.set(body);
      new DataView(out.buffer).setUint32(body.length, crc32(data), false);
      return out;
    }
    case 'zstandard': {
      const { Encoder } = library<Zstd>('zstandard');
      // The library takes any Uint8Array, though its types say Buffer.
      return new Encoder(3).encode(data as Buffer);
    }
  }
}

/**
 * Inflates one block, refusing output beyond `maxInputBytes` or `ratio` times its size;
 * zstandard inflates off the event loop.
 */
export async function decompressBlock(
  codec: ContainerCodec,
  data: Uint8Array,
  maxInputBytes: number,
  ratio: number,
): Promise<Uint8Array> {
  if (codec === 'deflate' && zlib === undefined)
    return inflateWeb(data, blockCap(data, maxInputBytes, ratio));
  if (codec !== 'zstandard') return decompressBlockSync(codec, data, maxInputBytes, ratio);
  const cap = blockCap(data, maxInputBytes, ratio);
  checkZstdBound(data, cap);
  const { Decoder } = library<Zstd>('zstandard');
  const out = await new Decoder().decode(data as Buffer).catch((error: unknown) => {
    throw corrupt(codec, error);
  });
  return checkZstdOutput(out, cap);
}

/** Inflates one block on the calling thread, refusing output beyond `maxInputBytes` or `ratio` times its size. */
export function decompressBlockSync(
  codec: ContainerCodec,
  data: Uint8Array,
  maxInputBytes: number,
  ratio: number,
): Uint8Array {
  const cap = blockCap(data, maxInputBytes, ratio);
  switch (codec) {
    case 'null':
      return data;
    case 'deflate': {
      if (zlib === undefined || maxNodeBufferLength === undefined) {
        throw new WirekitError(
          'WK_UNKNOWN_FORMAT',
          'deflate blocks are read synchronously only on Node, with its zlib; decodeStream and readContainer read them here.',
          { format: 'avro' },
        );
      }
      let out: Uint8Array;
      try {
        out = zlib.inflateRawSync(data, {
          maxOutputLength: Math.max(1, Math.min(cap.bytes, maxNodeBufferLength)),
        });
      } catch (error) {
        if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE')
          throw tooBig(codec, 'more than that', cap);
        throw corrupt(codec, error);
      }
      // maxOutputLength is at least 1, so a cap of 0 is checked here.
      if (out.length > cap.bytes) throw tooBig(codec, out.length, cap);
      return out;
    }
    case 'snappy': {
      if (data.length < 4) throw corrupt(codec);
      const body = data.subarray(0, data.length - 4);
      const size = snappyLength(body);
      if (size === undefined) throw corrupt(codec);
      if (size > cap.bytes) throw tooBig(codec, size, cap);
      const { uncompressSync } = library<Snappy>('snappy');
      let out: Uint8Array;
      try {
        out = uncompressSync(body) as Uint8Array;
      } catch (error) {
        throw corrupt(codec, error);
      }
      const expected = new DataView(data.buffer, data.byteOffset + body.length, 4).getUint32(0, false);
      if (crc32(out) !== expected) throw corrupt(codec);
      return out;
    }
    case 'zstandard': {
      checkZstdBound(data, cap);
      const { Decoder } = library<Zstd>('zstandard');
      let out: Uint8Array;
      try {
        out = new Decoder().decodeSync(data as Buffer);
      } catch (error) {
        throw corrupt(codec, error);
      }
      return checkZstdOutput(out, cap);
    }
  }
}

/** `data` through a web CompressionStream, whole (for the block being written). */
async function webStream(data: Uint8Array, transform: CompressionStream): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([data]).stream().pipeThrough(transform)).arrayBuffer());
}

/**
 * A deflate block through the web's DecompressionStream, read a chunk at a time and given up as
 * soon as the output passes the cap, so that a hostile block never inflates beyond it.
 */
async function inflateWeb(data: Uint8Array, cap: BlockCap): Promise<Uint8Array> {
  const reader = new Blob([data]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > cap.bytes) {
        await reader.cancel().catch(() => undefined);
        throw tooBig('deflate', 'more than that', cap);
      }
      parts.push(value);
    }
  } catch (error) {
    if (error instanceof WirekitError) throw error;
    throw corrupt('deflate', error);
  }
  return joinBytes(parts, size);
}

function checkZstdBound(data: Uint8Array, cap: BlockCap): void {
  const bound = zstdBound(data, cap.bytes);
  if (bound === undefined) throw corrupt('zstandard');
  if (bound > cap.bytes) throw tooBig('zstandard', `up to ${bound}`, cap);
}

/** The bound was checked before inflating; the output is checked too, in case the walk missed a frame. */
function checkZstdOutput(out: Uint8Array, cap: BlockCap): Uint8Array {
  if (out.length > cap.bytes) throw tooBig('zstandard', out.length, cap);
  return out;
}

/** The uncompressed length a raw snappy block declares up front (a varint of at most 32 bits). */
function snappyLength(body: Uint8Array): number | undefined {
  let value = 0;
  for (let i = 0; i < 5 && i < body.length; i++) {
    const byte = body[i] as number;
    value += (byte & 0x7f) * 2 ** (7 * i);
    if (byte < 0x80) return value;
  }
  return undefined;
}
