export { type ArrowCodec, type ArrowCodecOptions, arrowMediaTypes, createArrowCodec } from './arrow/index.js';
export {
  type AvroCodecOptions,
  avroMediaTypes,
  createAvroCodec,
  readContainer,
  writeContainer,
} from './avro/index.js';
export { cborMediaTypes, createCborCodec } from './cbor/index.js';
export { type Codec, type CodecOptions, type FormatName, formatNames } from './core/codec.js';
export { type DecodeLimits, defaultDecodeLimits } from './core/limits.js';
export {
  createFlatBuffersCodec,
  type FlatBuffersCodec,
  flatBuffersMediaTypes,
  flatBuffersSequenceMediaType,
  viewFlatBuffers,
} from './flatbuffers/index.js';
export { createJsonCodec, type JsonCodecOptions, jsonMediaTypes, ndjsonMediaTypes } from './json/index.js';
export {
  createMsgpackCodec,
  type MsgpackCodecOptions,
  msgpackMediaTypes,
  msgpackSequenceMediaType,
} from './msgpack/index.js';
export { createProtobufCodec, protobufMediaTypes, protobufStreamMediaType } from './protobuf/index.js';
export { createCodec, findFormat, formatNeedsSchema, mediaTypesOf } from './registry.js';
