/**
 * MessagePack. With a schema, wirekit's interpreter writes and reads the mapping of
 * docs/mapping/msgpack.md; without one, values follow the natural mapping of msgpackr (the library
 * beneath; integral numbers always as integers), read by msgpackr after wirekit's scanner has
 * checked the bytes. Plain MessagePack by default, so any implementation reads what this writes.
 */
import { Unpackr } from 'msgpackr';
import type { Schema } from '../../schema/index.js';
import type { Codec, CodecOptions } from '../core/codec.js';
import type { FormatEntry } from '../core/format-entry.js';
import { resolveLimits } from '../core/limits.js';
import { msgpackMediaTypes, msgpackSequenceMediaType } from '../core/media-types.js';
import { type FormatKit, keyedCodec } from '../keyed/codec.js';
import { checkingScan, measuringScan } from '../keyed/decode/scan-items.js';
import { msgpackCompiled, msgpackRecordsCompiled } from './compiled.js';
import { NaturalReader } from './decode/natural.js';
import { MsgpackScanner } from './decode/scan.js';
import { MsgpackSource, type MsgpackSourceOptions } from './decode/source.js';
import { MsgpackEmitter } from './encode/emitter.js';
import { RecordsEmitter } from './encode/records-emitter.js';
import { RecordsMode } from './records.js';

export type { Codec, CodecOptions } from '../core/codec.js';
export type { FormatEntry } from '../core/format-entry.js';
export type { DecodeLimits } from '../core/limits.js';
export { msgpackMediaTypes, msgpackSequenceMediaType };

export interface MsgpackCodecOptions extends CodecOptions {
  /**
   * Write objects with msgpackr's record extension (each object shape's keys once per value, then
   * only values), which is smaller and faster on arrays of same-shaped objects, but which only
   * msgpackr (with `useRecords`) and wirekit read as objects: other MessagePack readers see an
   * extension type. No structures are shared between values: each value stands alone. Such a codec
   * reads record-mode data (positive integers 64–127 may mean records there); with a schema it
   * reads maps too. See docs/mapping/msgpack.md.
   */
  readonly msgpackRecords?: boolean;
}

export function createMsgpackCodec<T = unknown>(options: MsgpackCodecOptions = {}): Codec<T> {
  return buildMsgpackCodec(options, {});
}

/**
 * A schema's MessagePack codec that also reads the spellings writers before wirekit leave (see
 * MsgpackSourceOptions.otherSpellings): for the cache's readers of such values, not for new data,
 * whose writers follow the mapping. It writes what createMsgpackCodec writes.
 */
export function createLegacyMsgpackCodec<T = unknown>(
  options: CodecOptions & { readonly schema: Schema },
): Codec<T> {
  return buildMsgpackCodec(options, { otherSpellings: true });
}

function buildMsgpackCodec<T>(options: MsgpackCodecOptions, sourceOptions: MsgpackSourceOptions): Codec<T> {
  const limits = resolveLimits(options.limits);
  const records = options.msgpackRecords === true;
  if (records && options.schema !== undefined)
    return keyedCodec<T>(schemaRecordsKit(sourceOptions), options, limits);
  const recordsMode = records ? new RecordsMode() : undefined;
  // int 64 and uint 64 as numbers, exact for safe integers and without a bigint on the way; the
  // scanner sends values with wider ones to wirekit's reader, which gives those as bigints.
  const library = new Unpackr({
    useRecords: false,
    mapsAsObjects: true,
    copyBuffers: true,
    int64AsType: 'number',
  });
  const kit: FormatKit = {
    format: 'msgpack',
    mediaType: msgpackMediaTypes[0] as string,
    streamMediaType: msgpackSequenceMediaType,
    emitter: () => new MsgpackEmitter(),
    source: (decodeLimits) => new MsgpackSource(decodeLimits, sourceOptions),
    checker: (decodeLimits) => new MsgpackScanner(decodeLimits, { ...checkingScan, records }),
    measurer: (decodeLimits) => new MsgpackScanner(decodeLimits, { ...measuringScan, records }),
    libraryDecode: recordsMode ? (bytes) => recordsMode.decode(bytes) : (bytes) => library.unpack(bytes),
    ownDecode: recordsMode
      ? (bytes) => recordsMode.decodeExactly(bytes)
      : (bytes) => new NaturalReader(bytes).read(),
    schemalessEncode: recordsMode ? (value) => recordsMode.encode(value) : undefined,
    compiled: msgpackCompiled,
  };
  return keyedCodec<T>(kit, options, limits);
}

/**
 * A schema's codec in records mode: wirekit writes each object as msgpackr's record
 * (encode/records-emitter.ts) and reads records and maps (decode/source.ts); the scanners (stream
 * framing) know records. Schemaless decoding, which alone uses the library, never happens here.
 */
function schemaRecordsKit(sourceOptions: MsgpackSourceOptions): FormatKit {
  const schemaOnly = (): never => {
    throw new Error('a schema codec decodes with its schema');
  };
  return {
    format: 'msgpack',
    mediaType: msgpackMediaTypes[0] as string,
    streamMediaType: msgpackSequenceMediaType,
    emitter: () => new RecordsEmitter(),
    source: (decodeLimits) => new MsgpackSource(decodeLimits, { ...sourceOptions, records: true }),
    checker: (decodeLimits) => new MsgpackScanner(decodeLimits, { ...checkingScan, records: true }),
    measurer: (decodeLimits) => new MsgpackScanner(decodeLimits, { ...measuringScan, records: true }),
    libraryDecode: schemaOnly,
    ownDecode: schemaOnly,
    compiled: msgpackRecordsCompiled,
    objectRecords: true,
  };
}

/** MessagePack as a value, for what is handed its formats (the HTTP client, the registry). */
export const msgpackFormat: FormatEntry<'msgpack'> = { name: 'msgpack', create: createMsgpackCodec };
