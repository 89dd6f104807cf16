/**
 * What the cache benchmark measures of wirekit: the cache's own value codec (the one step between a
 * cache's value and the bytes it stores: the compiled codec, compression, the envelope), so that a
 * wirekit row is exactly what `createCache` would write and read.
 */
import {
  createValueCodec,
  defaultCacheCompression,
  defaultCacheFormat,
  defaultMaxValueBytes,
} from 'wirekit-ts/cache';
import type { FormatName } from 'wirekit-ts/codecs';
import type { CompressionName } from 'wirekit-ts/compression';
import type { ObjectSchema } from 'wirekit-ts/schema';

export interface ValueCodecAdapter {
  encode(value: unknown): Uint8Array | Promise<Uint8Array>;
  decode(bytes: Uint8Array): unknown | Promise<unknown>;
}

export type Mode = 'sync' | 'async';

export interface EnvelopeCodecOptions {
  readonly format: FormatName;
  readonly compression: CompressionName;
  /** 'async' compresses and decompresses on libuv's pool whatever the size; 'sync' never does. */
  readonly mode: Mode;
}

/** One format × compression × mode, compressing every value (the thresholds pinned to the mode). */
export function envelopeValueCodec(schema: ObjectSchema, options: EnvelopeCodecOptions): ValueCodecAdapter {
  return adapt(
    createValueCodec({
      schema,
      format: options.format,
      compression: options.compression,
      compressAbove: 0,
      asyncAbove: options.mode === 'async' ? 0 : Number.MAX_SAFE_INTEGER,
      maxValueBytes: defaultMaxValueBytes,
      legacy: [],
    }),
  );
}

/** The cache as `createCache({ schema })` makes it: its default format, compression and thresholds. */
export function defaultCacheValueCodec(schema: ObjectSchema): ValueCodecAdapter {
  return adapt(
    createValueCodec({
      schema,
      format: defaultCacheFormat.withSchema,
      compression: defaultCacheCompression,
      maxValueBytes: defaultMaxValueBytes,
      legacy: [],
    }),
  );
}

function adapt(codec: ReturnType<typeof createValueCodec>): ValueCodecAdapter {
  return {
    encode: async (value) => (await codec.encode(value)).bytes,
    decode: async (bytes) => (await codec.decode(bytes)).value,
  };
}
