/**
 * The one interface every format implements. Callers hold a `Codec<T>` and never see which library
 * (or generated code) sits beneath it, so a format's implementation can be swapped for a faster one
 * without any caller noticing.
 */
import { WirekitError, wireFormats } from '../../errors/index.js';
import type { Schema } from '../../schema/index.js';
import type { DecodeLimits } from './limits.js';

/** The formats' names, kept with the errors that carry them (`WirekitError.format`). */
export const formatNames = wireFormats;
export type FormatName = (typeof formatNames)[number];

export interface Codec<T = unknown> {
  readonly format: FormatName;
  /** The media type this codec writes, e.g. application/msgpack. */
  readonly mediaType: string;
  /** The media type of `encodeStream`'s output (application/x-ndjson for JSON). */
  readonly streamMediaType: string;
  readonly schema: Schema | undefined;
  /**
   * Whether this codec runs code generated from its schema (each format's compiled.ts) rather than the
   * format's interpreter. Both give the same bytes and values; see CodecOptions.compile.
   */
  readonly compiled?: boolean;
  /**
   * The value's bytes. Binary formats (MessagePack, CBOR, Protocol Buffers, Avro) return a view
   * into a slab that their later outputs are written after, as Node's Buffer pool does: the bytes
   * never change once returned, but honour `byteOffset`, and `slice()` them before handing their
   * `.buffer` to something that reads the whole ArrayBuffer, or to keep a small output for long
   * apart from its slab (16 KiB).
   */
  encode(value: T): Uint8Array;
  /** Decodes exactly one value; throws a WirekitError (never anything else) on bad input. */
  decode(bytes: Uint8Array): T;
  /**
   * Writes values one after another in the format's framing for sequences: NDJSON, MessagePack
   * values back to back, a CBOR sequence (RFC 8742), varint-delimited Protobuf messages, an Avro
   * Object Container File, size-prefixed FlatBuffers, one Arrow IPC stream.
   */
  encodeStream(values: Iterable<T> | AsyncIterable<T>): ReadableStream<Uint8Array>;
  /** Reads values as their bytes arrive, one at a time, however the chunks are cut. */
  decodeStream(chunks: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): AsyncIterable<T>;
  /**
   * `encodeStream`'s bytes in one call, synchronously (an Avro container gets a fresh random sync
   * marker each time, as from encodeStream).
   */
  encodeSequence(values: Iterable<T>): Uint8Array;
  /**
   * Every value of a sequence held whole, synchronously: what `encodeStream` or `encodeSequence`
   * wrote, or a list reply of wirekit's HTTP server read to its end. `maxInputBytes` bounds the
   * whole input and `maxElements` the number of values; each value is checked as `decode` checks
   * it. Throws a WirekitError (never anything else) on bad input.
   */
  decodeSequence(bytes: Uint8Array): T[];
}

/** What a decoder does with a key its schema does not name (CodecOptions.unknownKeys). */
export type UnknownKeys = 'ignore' | 'reject';

/**
 * Whether `options` ask to refuse unknown keys; ignoring them is the default. Any other value is
 * refused (WK_OPTIONS_INVALID), since a misspelt 'reject' would otherwise ignore them silently.
 */
export function rejectsUnknownKeys(options: { readonly unknownKeys?: UnknownKeys }): boolean {
  const { unknownKeys } = options;
  if (unknownKeys !== undefined && unknownKeys !== 'ignore' && unknownKeys !== 'reject') {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `unknownKeys is 'ignore' or 'reject', got ${JSON.stringify(unknownKeys)}.`,
    );
  }
  return unknownKeys === 'reject';
}

export interface CodecOptions {
  /** Drives schema-aware formats; required by protobuf, avro and flatbuffers, and by arrow to encode. */
  readonly schema?: Schema;
  /** Overrides of the decode limits (see limits.ts for the defaults). */
  readonly limits?: Partial<DecodeLimits>;
  /**
   * Check values fully against the schema before encoding (default false). Encoders always refuse
   * what `validate` refuses, constraints included (lengths, patterns, item counts, a decimal's
   * scale, a timestamp's unit; docs/values.md), at the first problem; this adds keys the schema
   * does not know, which encoders otherwise leave unwritten, and reports every problem at once (a
   * ValidationError with its `issues`).
   */
  readonly validate?: boolean;
  /**
   * A key the schema does not name, in what this codec reads (docs/values.md): 'ignore' (default)
   * skips it, without building its value, so a reader keeps working when a newer writer adds a
   * field; 'reject' refuses the value (WK_DECODE_SCHEMA_MISMATCH at the key), for an API that must
   * not lose what a sender meant. What a key is on each wire: an object key (JSON, MessagePack,
   * CBOR), a field number (Protocol Buffers), a field id past the schema's (FlatBuffers), a writer
   * field the reader lacks (Avro, resolving a writer schema), a column (Arrow). Encoders write the
   * fields the schema names either way; `validate: true` refuses unknown keys on the way out.
   */
  readonly unknownKeys?: UnknownKeys;
  /**
   * Generate an encoder and decoder from the schema (default true, where the runtime allows
   * `new Function`). False keeps the interpreter: for a Content Security Policy without
   * 'unsafe-eval', or to rule generated code out while debugging. Both paths agree byte for byte.
   */
  readonly compile?: boolean;
}
