/**
 * Every format at once, and the registry that makes a codec by a format's name or media type. A
 * service that speaks a few formats imports theirs alone (`wirekit-ts/json`, `wirekit-ts/msgpack`,
 * ...): this entry loads every format's code and the libraries beneath them.
 */
export {
  type ArrowCodec,
  type ArrowCodecOptions,
  arrowFormat,
  arrowMediaTypes,
  createArrowCodec,
  type IpcCompression,
} from './arrow/index.js';
export {
  type AvroCodecOptions,
  avroFormat,
  avroMediaTypes,
  createAvroCodec,
  readContainer,
  writeContainer,
} from './avro/index.js';
export { type CborCodecOptions, cborFormat, cborMediaTypes, createCborCodec } from './cbor/index.js';
export {
  type Codec,
  type CodecOptions,
  type FormatName,
  formatNames,
  type UnknownKeys,
} from './core/codec.js';
export type { FormatEntry, LazyFormatEntry } from './core/format-entry.js';
export { type DecodeLimits, defaultDecodeLimits } from './core/limits.js';
export {
  createFlatBuffersCodec,
  type FlatBuffersCodec,
  flatBuffersFormat,
  flatBuffersMediaTypes,
  flatBuffersSequenceMediaType,
  viewFlatBuffers,
} from './flatbuffers/index.js';
export {
  defaultFormat,
  type FormatFacts,
  factsOf,
  findFormat,
  formatNeedsSchema,
  mediaTypesOf,
} from './formats.js';
export {
  createJsonCodec,
  type JsonCodecOptions,
  jsonFormat,
  jsonMediaTypes,
  ndjsonMediaTypes,
} from './json/index.js';
export { lazyFormat, lazyFormats } from './load-codec.js';
export {
  createMsgpackCodec,
  type MsgpackCodecOptions,
  msgpackFormat,
  msgpackMediaTypes,
  msgpackSequenceMediaType,
} from './msgpack/index.js';
export {
  createProtobufCodec,
  protobufFormat,
  protobufMediaTypes,
  protobufStreamMediaType,
} from './protobuf/index.js';
export { allFormats, createCodec } from './registry.js';
