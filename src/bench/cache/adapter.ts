/**
 * What the cache benchmark measures of wirekit: a value codec, the one step between a cache's value
 * and the bytes it stores. Every wirekit row goes through `envelopeValueCodec`, which writes the
 * envelope exactly as the cache writes it (format, compression, schema fingerprint) and reads
 * whatever envelope it finds. To measure the cache's own value codec instead, return it from there:
 * anything with this shape will do.
 */
import type { FormatName } from '../../codecs/codec.js';
import { createCodec } from '../../codecs/registry.js';
import type { CompressionName } from '../../compression/index.js';
import { decodeAny, decodeAnyAsync, encodeEnveloped, encodeEnvelopedAsync } from '../../envelope/index.js';
import type { ObjectSchema } from '../../schema/index.js';

export interface ValueCodecAdapter {
  encode(value: unknown): Uint8Array | Promise<Uint8Array>;
  decode(bytes: Uint8Array): unknown | Promise<unknown>;
}

export type Mode = 'sync' | 'async';

export interface EnvelopeCodecOptions {
  readonly format: FormatName;
  readonly compression: CompressionName;
  /** 'async' compresses and decompresses on libuv's pool (encodeEnvelopedAsync, decodeAnyAsync). */
  readonly mode: Mode;
}

export function envelopeValueCodec(schema: ObjectSchema, options: EnvelopeCodecOptions): ValueCodecAdapter {
  const { format, compression, mode } = options;
  // Arrow holds rows: a value is a table of one row.
  const oneRow = format === 'arrow';
  const codec = createCodec(format, { schema }) as Parameters<typeof encodeEnveloped<unknown>>[0];
  const write = oneRow ? (value: unknown) => [value] : (value: unknown) => value;
  const read = oneRow ? (decoded: unknown) => (decoded as unknown[])[0] : (decoded: unknown) => decoded;
  const envelope = { compression };
  const decodeOptions = { schema };
  if (mode === 'sync') {
    return {
      encode: (value) => encodeEnveloped(codec, write(value), envelope),
      decode: (bytes) => read(decodeAny(bytes, decodeOptions).value),
    };
  }
  return {
    encode: (value) => encodeEnvelopedAsync(codec, write(value), envelope),
    decode: async (bytes) => read((await decodeAnyAsync(bytes, decodeOptions)).value),
  };
}
