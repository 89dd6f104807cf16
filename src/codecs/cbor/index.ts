/**
 * CBOR (RFC 8949), and CBOR sequences (RFC 8742) for streams. With a schema, wirekit's interpreter
 * writes and reads the mapping of docs/mapping/cbor.md; without one, values follow the natural
 * mapping of cbor-x (the library beneath; integral numbers always as integers), read by cbor-x after
 * wirekit's scanner has checked the bytes. cbor-x's own extensions (records, packing, tag 259 maps,
 * typed-array tags) are never written, so any CBOR implementation reads what this writes. Every
 * value is written in preferred serialization (§4.1); `deterministic` adds §4.2.1's key order.
 */
import { Decoder, type Options } from 'cbor-x';
import type { Codec, CodecOptions } from '../core/codec.js';
import type { FormatEntry } from '../core/format-entry.js';
import { resolveLimits } from '../core/limits.js';
import { cborMediaTypes, cborSequenceMediaType } from '../core/media-types.js';
import { type FormatKit, keyedCodec } from '../keyed/codec.js';
import { checkingScan, measuringScan } from '../keyed/decode/scan-items.js';
import { cborCompiled } from './compiled.js';
import { NaturalReader } from './decode/natural.js';
import { CborScanner } from './decode/scan.js';
import { CborSource } from './decode/source.js';
import { sortMapKeys } from './encode/deterministic.js';
import { CborEmitter } from './encode/emitter.js';

export type { Codec, CodecOptions } from '../core/codec.js';
export type { FormatEntry } from '../core/format-entry.js';
export type { DecodeLimits } from '../core/limits.js';
export { cborMediaTypes, cborSequenceMediaType };

export interface CborCodecOptions extends CodecOptions {
  /**
   * Write RFC 8949's Core Deterministic Encoding (§4.2.1), for signing and hashing: every map's
   * keys sorted bytewise by their encoding (an object's fields too), on top of what every CBOR
   * codec of wirekit writes (preferred serialization: shortest integers, lengths and floats;
   * definite lengths). Default false: maps in the schema's field order, which costs nothing.
   * Decoding is unchanged (any order is read).
   */
  readonly deterministic?: boolean;
}

export function createCborCodec<T = unknown>(options: CborCodecOptions = {}): Codec<T> {
  const limits = resolveLimits(options.limits);
  // int64AsNumber (in cbor-x's README, not its typings): 64-bit integer forms as numbers, exact
  // for safe integers; the scanner sends wider ones to wirekit's reader, which gives bigints.
  const decoder = new Decoder({
    useRecords: false,
    mapsAsObjects: true,
    copyBuffers: true,
    int64AsNumber: true,
  } as Options);
  const kit: FormatKit = {
    format: 'cbor',
    mediaType: cborMediaTypes[0] as string,
    streamMediaType: cborSequenceMediaType,
    emitter: () => new CborEmitter(),
    source: (decodeLimits) => new CborSource(decodeLimits),
    checker: (decodeLimits) => new CborScanner(decodeLimits, checkingScan),
    measurer: (decodeLimits) => new CborScanner(decodeLimits, measuringScan),
    libraryDecode: (bytes) => decoder.decode(bytes),
    ownDecode: (bytes) => new NaturalReader(bytes).read(),
    compiled: cborCompiled,
    ...(options.deterministic === true && { finishEncoded: sortMapKeys }),
  };
  return keyedCodec<T>(kit, options, limits);
}

/** CBOR as a value, for what is handed its formats (the HTTP client, the registry). */
export const cborFormat: FormatEntry<'cbor'> = { name: 'cbor', create: createCborCodec };
