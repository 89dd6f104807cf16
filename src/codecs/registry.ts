/**
 * Makes a codec by format name or media type, every format's code loaded up front: the HTTP
 * plugin, the envelope and the CLI go through this table, so adding a format is one entry here, one
 * in load-codec.ts (the same codecs, each loaded on first use, for a browser page) and its facts in
 * formats.ts.
 */
import type { Infer, Schema } from '../schema/index.js';
import { createArrowCodec } from './arrow/index.js';
import { createAvroCodec } from './avro/index.js';
import { createCborCodec } from './cbor/index.js';
import type { Codec, CodecOptions, FormatName } from './core/codec.js';
import { createFlatBuffersCodec } from './flatbuffers/index.js';
import { type CodecFormat, codecFormat, type SelfDescribingFormat } from './formats.js';
import { createJsonCodec } from './json/index.js';
import { createMsgpackCodec } from './msgpack/index.js';
import { createProtobufCodec } from './protobuf/index.js';

export {
  type CodecFormat,
  findFormat,
  formatNeedsSchema,
  mediaTypesOf,
  type SelfDescribingFormat,
} from './formats.js';

const creators: Readonly<Record<FormatName, (options: CodecOptions) => Codec<unknown>>> = {
  json: createJsonCodec,
  msgpack: createMsgpackCodec,
  cbor: createCborCodec,
  protobuf: createProtobufCodec,
  avro: createAvroCodec,
  flatbuffers: createFlatBuffersCodec,
  arrow: createArrowCodec as (options: CodecOptions) => Codec<unknown>,
};

/**
 * Creates the codec for a format name or media type. The types catch a misspelt format and a
 * schema-bound format without its schema at compile time; a string from elsewhere (a header, a
 * config file) goes through `findFormat` first, which also takes parameters and any letter case.
 * At run time, anything else throws WK_UNKNOWN_FORMAT, and a format that needs a schema given none
 * throws WK_SCHEMA_REQUIRED. Arrow without a schema gives a codec that decodes by the input's own
 * schema, and whose encode throws WK_SCHEMA_REQUIRED.
 */
export function createCodec<S extends Schema>(
  format: CodecFormat,
  options: CodecOptions & { readonly schema: S },
): Codec<Infer<S>>;
export function createCodec<T = unknown>(
  format: SelfDescribingFormat,
  options?: CodecOptions & { readonly schema?: undefined },
): Codec<T>;
/** A schema known only at run time, which may be absent: checked then (WK_SCHEMA_REQUIRED). */
export function createCodec<T = unknown>(
  format: CodecFormat,
  options: CodecOptions & { readonly schema: Schema | undefined },
): Codec<T>;
export function createCodec(format: string, options: CodecOptions = {}): Codec<unknown> {
  return creators[codecFormat(format, options.schema)](options);
}
