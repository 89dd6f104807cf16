/**
 * Encoding with an envelope, and `decodeAny`: read whatever a wirekit writer produced, learning the
 * format, compression and schema version from the payload itself.
 */
import type { Codec, CodecOptions, FormatName } from '../codecs/core/codec.js';
import { createCodec } from '../codecs/registry.js';
import { type CompressionName, type DecompressOptions, getCompressor } from '../compression/index.js';
import { WirekitError } from '../errors/index.js';
import { schemaFingerprint } from './fingerprint.js';
import { type EnvelopeHeader, fingerprintBytes, readEnvelope, writeEnvelope } from './header.js';

export interface EnvelopeOptions {
  readonly compression?: CompressionName;
  /** Compression level, where the algorithm has levels. */
  readonly level?: number;
  /** Write the schema fingerprint (default: whenever the codec has a schema). */
  readonly fingerprint?: boolean;
}

export interface DecodeAnyOptions extends CodecOptions, DecompressOptions {
  /**
   * With a schema and a fingerprinted payload, refuse data written with another schema version
   * (WK_ENVELOPE_SCHEMA). Default true; turn it off where the format resolves versions itself.
   */
  readonly checkFingerprint?: boolean;
}

export interface Decoded<T> {
  readonly value: T;
  readonly header: EnvelopeHeader;
  readonly compression: CompressionName;
}

export function encodeEnveloped<T>(codec: Codec<T>, value: T, options: EnvelopeOptions = {}): Uint8Array {
  const compressor = getCompressor(options.compression ?? 'none');
  const payload = compressor.compress(codec.encode(value), options.level);
  return writeEnvelope(
    { format: codec.format, compressionId: compressor.id, fingerprint: fingerprintOf(codec, options) },
    payload,
  );
}

/** Like encodeEnveloped, compressing on a worker thread (and the only way to write zstd here). */
export async function encodeEnvelopedAsync<T>(
  codec: Codec<T>,
  value: T,
  options: EnvelopeOptions = {},
): Promise<Uint8Array> {
  const compressor = getCompressor(options.compression ?? 'none');
  const payload = await compressor.compressAsync(codec.encode(value), options.level);
  return writeEnvelope(
    { format: codec.format, compressionId: compressor.id, fingerprint: fingerprintOf(codec, options) },
    payload,
  );
}

/** Decodes an enveloped payload of any format and compression, on the calling thread. */
export function decodeAny<T = unknown>(bytes: Uint8Array, options: DecodeAnyOptions = {}): Decoded<T> {
  const { header, payload } = readEnvelope(bytes);
  const compressor = getCompressor(header.compressionId);
  const plain = compressor.decompress(payload, decompressOptions(options));
  return finish<T>(header, compressor.name, plain, options);
}

export async function decodeAnyAsync<T = unknown>(
  bytes: Uint8Array,
  options: DecodeAnyOptions = {},
): Promise<Decoded<T>> {
  const { header, payload } = readEnvelope(bytes);
  const compressor = getCompressor(header.compressionId);
  const plain = await compressor.decompressAsync(payload, decompressOptions(options));
  return finish<T>(header, compressor.name, plain, options);
}

/** The decompression caps of decodeAny's options: the absolute one and the ratio. */
function decompressOptions(options: DecodeAnyOptions): DecompressOptions {
  return {
    maxDecompressedBytes: options.maxDecompressedBytes,
    maxDecompressionRatio: options.maxDecompressionRatio,
  };
}

function finish<T>(
  header: EnvelopeHeader,
  compression: CompressionName,
  plain: Uint8Array,
  options: DecodeAnyOptions,
): Decoded<T> {
  const { schema } = options;
  if (schema !== undefined && header.fingerprint !== undefined && options.checkFingerprint !== false) {
    const expected = schemaFingerprint(schema).subarray(0, fingerprintBytes);
    if (!expected.every((byte, i) => byte === header.fingerprint?.[i])) {
      throw new WirekitError(
        'WK_ENVELOPE_SCHEMA',
        `the payload was written with schema ${hex(header.fingerprint)}, not ${hex(expected)} (the one given).`,
      );
    }
  }
  const codec = codecFor(header.format, options);
  return { value: codec.decode(plain) as T, header, compression };
}

/**
 * One codec per (schema, format, limits) for the life of the schema: `decodeAny` is called per cache
 * entry or per message, and building a codec plans the whole schema.
 */
const codecs = new WeakMap<object, Map<string, Codec<unknown>>>();
const schemaless = {};

function codecFor(format: FormatName, options: CodecOptions): Codec<unknown> {
  const key = `${format} ${JSON.stringify(options.limits ?? {})}`;
  let byKey = codecs.get(options.schema ?? schemaless);
  if (byKey === undefined) {
    byKey = new Map();
    codecs.set(options.schema ?? schemaless, byKey);
  }
  let codec = byKey.get(key);
  if (codec === undefined) {
    codec = createCodec(format, { schema: options.schema, limits: options.limits });
    byKey.set(key, codec);
  }
  return codec;
}

function fingerprintOf<T>(codec: Codec<T>, options: EnvelopeOptions): Uint8Array | undefined {
  if (codec.schema === undefined || options.fingerprint === false) return undefined;
  return schemaFingerprint(codec.schema).subarray(0, fingerprintBytes);
}

export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
