/**
 * How a cache turns a value into the bytes a store keeps, and back: the format's compiled codec, then
 * compression where it pays, inside the wirekit envelope (format, compression, schema fingerprint).
 *
 * Reads do not assume the current settings: each value says how it was written, so a cache can move
 * from one format or compression to another with one setting and no flush: old entries stay readable
 * until their TTLs end. Bytes without an envelope go to the legacy readers, in the order given.
 *
 * Every step is timed with `performance.now()`, because the point of the cache is to know what each
 * operation costs the event loop: the timings are what the metrics report.
 */

import type { Codec, FormatName } from '../../codecs/core/codec.js';
import type { DecodeLimits } from '../../codecs/core/limits.js';
import { factsOf } from '../../codecs/formats.js';
import { createCodec, formatNeedsSchema } from '../../codecs/registry.js';
import { type CompressionName, getCompressor } from '../../compression/index.js';
import { hex } from '../../envelope/enveloped.js';
import { schemaFingerprint } from '../../envelope/fingerprint.js';
import {
  type EnvelopeHeader,
  fingerprintBytes,
  hasEnvelope,
  readEnvelope,
  writeEnvelope,
} from '../../envelope/header.js';
import { WirekitError } from '../../errors/index.js';
import type { Schema } from '../../schema/index.js';
import { plainBytes } from '../../util/plain-bytes.js';
import type { LegacyReader } from './pre-wirekit-values.js';
import { assumedCompressionRatio, compressionThresholds } from './thresholds.js';

/** The largest value a cache writes or reads, encoded and uncompressed. */
export const defaultMaxValueBytes = 8 * 1024 * 1024;

/** Room for a stored value's envelope header and its compressed form's growth over maxValueBytes. */
const storedAllowance = 64;

/** The error of a stored value too large to read: its `size` in bytes, over the cache's limit. */
export function storedTooLarge(size: number, maxValueBytes: number): WirekitError {
  return new WirekitError(
    'WK_LIMIT_INPUT',
    `the stored value has ${size} bytes, more than maxValueBytes (${maxValueBytes}).`,
  );
}

export interface ValueCodecOptions {
  readonly schema?: Schema;
  readonly format: FormatName;
  readonly compression: CompressionName;
  readonly compressionLevel?: number;
  /** Override of compressionThresholds[compression].compressAbove. */
  readonly compressAbove?: number;
  /** Override of compressionThresholds[compression].asyncAbove. */
  readonly asyncAbove?: number;
  readonly maxValueBytes: number;
  readonly limits?: Partial<DecodeLimits>;
  readonly legacy: readonly LegacyReader[];
}

/** The loop time, in milliseconds, one encode or decode spent in each step. */
export interface StepTimings {
  codecMs: number;
  compressionMs: number;
}

export interface Encoded {
  readonly bytes: Uint8Array;
  readonly compression: CompressionName;
  readonly timings: StepTimings;
}

export interface DecodedValue<T> {
  readonly value: T;
  /** The format read: a wirekit format name, or `legacy:NAME` for a legacy reader. */
  readonly format: string;
  readonly compression: CompressionName;
  readonly legacy: boolean;
  readonly timings: StepTimings;
}

export interface ValueCodec<T> {
  readonly format: FormatName;
  readonly maxValueBytes: number;
  /** The most bytes a stored value may have to be read: what the cache asks its store to hand over. */
  readonly maxStoredBytes: number;
  encode(value: T): Promise<Encoded>;
  /** Throws a WirekitError when no reader reads the bytes (the cache counts it as a miss). */
  decode(bytes: Uint8Array): Promise<DecodedValue<T>>;
}

export function createValueCodec<T>(options: ValueCodecOptions): ValueCodec<T> {
  const { schema, format, maxValueBytes, legacy } = options;
  if (schema === undefined && formatNeedsSchema(format)) {
    throw new WirekitError('WK_SCHEMA_REQUIRED', `a cache in ${format} needs a schema.`);
  }
  const compressor = getCompressor(options.compression);
  const compressAbove = options.compressAbove ?? compressionThresholds[compressor.name].compressAbove;
  const asyncAbove = options.asyncAbove ?? compressionThresholds[compressor.name].asyncAbove;
  // Checks a level now, not on the first write.
  if (options.compressionLevel !== undefined)
    compressor.compress(new Uint8Array(0), options.compressionLevel);
  const fingerprint =
    schema === undefined ? undefined : schemaFingerprint(schema).subarray(0, fingerprintBytes);
  const limits: Partial<DecodeLimits> = { ...options.limits, maxInputBytes: maxValueBytes };
  const decompressCaps = { maxDecompressedBytes: maxValueBytes };

  // One codec per format met, for the cache's life: building one plans (and compiles) the schema.
  const codecs = new Map<FormatName, Codec<unknown>>();
  const codecFor = (name: FormatName): Codec<unknown> => {
    let codec = codecs.get(name);
    if (codec === undefined) {
      codec =
        factsOf(name).carries === 'rows'
          ? oneRowTable(createCodec(name, { schema, limits }))
          : createCodec(name, { schema, limits });
      codecs.set(name, codec);
    }
    return codec;
  };
  const writer = codecFor(format);

  const encode = async (value: T): Promise<Encoded> => {
    const started = performance.now();
    const plain = writer.encode(value);
    const encoded = performance.now();
    if (plain.length > maxValueBytes) {
      throw new WirekitError(
        'WK_CACHE_VALUE_TOO_LARGE',
        `the value encodes to ${plain.length} bytes, more than maxValueBytes (${maxValueBytes}).`,
      );
    }
    const used = plain.length >= compressAbove ? compressor : getCompressor('none');
    let payload: Uint8Array;
    let compressionMs: number;
    if (used.name === 'none') {
      payload = plain;
      compressionMs = 0;
    } else if (plain.length < asyncAbove) {
      payload = used.compress(plain, options.compressionLevel);
      compressionMs = performance.now() - encoded;
    } else {
      // The loop's share is the call until the promise is returned; the work runs on the pool.
      const pending = used.compressAsync(plain, options.compressionLevel);
      compressionMs = performance.now() - encoded;
      payload = await pending;
    }
    const bytes = writeEnvelope({ format, compressionId: used.id, fingerprint }, payload);
    return { bytes, compression: used.name, timings: { codecMs: encoded - started, compressionMs } };
  };

  const decodeEnveloped = async (bytes: Uint8Array): Promise<DecodedValue<T>> => {
    const { header, payload } = readEnvelope(bytes);
    checkFingerprint(header, fingerprint);
    const used = getCompressor(header.compressionId);
    const started = performance.now();
    let plain: Uint8Array;
    let compressionMs: number;
    if (used.name === 'none') {
      plain = payload;
      compressionMs = 0;
    } else if (
      payload.length * assumedCompressionRatio <
      (options.asyncAbove ?? compressionThresholds[used.name].asyncAbove)
    ) {
      plain = used.decompress(payload, decompressCaps);
      compressionMs = performance.now() - started;
    } else {
      const pending = used.decompressAsync(payload, decompressCaps);
      compressionMs = performance.now() - started;
      plain = await pending;
    }
    const decoding = performance.now();
    const value = codecFor(header.format).decode(plain) as T;
    return {
      value,
      format: header.format,
      compression: used.name,
      legacy: false,
      timings: { codecMs: performance.now() - decoding, compressionMs },
    };
  };

  const decodeWithoutEnvelope = (bytes: Uint8Array): DecodedValue<T> => {
    let first: unknown;
    for (const reader of legacy) {
      const started = performance.now();
      try {
        const value = reader.read(bytes) as T;
        return {
          value,
          format: `legacy:${reader.name}`,
          compression: 'none',
          legacy: true,
          timings: { codecMs: performance.now() - started, compressionMs: 0 },
        };
      } catch (error) {
        first ??= error;
      }
    }
    if (first instanceof WirekitError) throw first;
    throw new WirekitError(
      'WK_ENVELOPE_INVALID',
      legacy.length === 0
        ? 'the value has no wirekit envelope and the cache has no legacy readers.'
        : `the value has no wirekit envelope and no legacy reader (${legacy.map((r) => r.name).join(', ')}) reads it.`,
      { offset: 0 },
    );
  };

  const maxStoredBytes = maxValueBytes + storedAllowance;
  return {
    format,
    maxValueBytes,
    maxStoredBytes,
    encode,
    async decode(stored) {
      const bytes = plainBytes(stored);
      if (bytes.length > maxStoredBytes) throw storedTooLarge(bytes.length, maxValueBytes);
      if (!hasEnvelope(bytes)) return decodeWithoutEnvelope(bytes);
      try {
        return await decodeEnveloped(bytes);
      } catch (error) {
        // The envelope's magic is three bytes a legacy value can begin with (MessagePack's fixmap
        // 0x89, then 'W', 'K'): give the legacy readers their turn before giving up, except when the
        // envelope was read and the value belongs to another schema.
        if (legacy.length === 0 || (error instanceof WirekitError && error.code === 'WK_ENVELOPE_SCHEMA')) {
          throw error;
        }
        try {
          return decodeWithoutEnvelope(bytes);
        } catch {
          throw error;
        }
      }
    },
  };
}

function checkFingerprint(header: EnvelopeHeader, expected: Uint8Array | undefined): void {
  const found = header.fingerprint;
  if (expected === undefined || found === undefined) return;
  for (let i = 0; i < fingerprintBytes; i++) {
    if (found[i] !== expected[i]) {
      throw new WirekitError(
        'WK_ENVELOPE_SCHEMA',
        `the value was written with schema ${hex(found)}, not ${hex(expected)} (this cache's).`,
      );
    }
  }
}

/**
 * Arrow holds tables of rows of the schema's type: a cache keeps each value as a table of one row,
 * so Arrow is a cache format like the others (one schema, every format).
 */
function oneRowTable(table: Codec<unknown>): Codec<unknown> {
  return {
    ...table,
    encode: (value) => table.encode([value]),
    decode(bytes) {
      const rows = table.decode(bytes) as unknown[];
      if (rows.length !== 1) {
        throw new WirekitError(
          'WK_DECODE_SCHEMA_MISMATCH',
          `a cached Arrow value holds one row, not ${rows.length}.`,
        );
      }
      return rows[0];
    },
  };
}
