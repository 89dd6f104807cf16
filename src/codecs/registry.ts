/**
 * Makes a codec by format name or media type, every format's code loaded up front: the HTTP
 * plugin, the envelope and the CLI go through this table, so adding a format is its entry here, one
 * loader in load-codec.ts (the same codecs, each loaded on first use, for a browser page) and its
 * facts in formats.ts. Code that speaks a few formats imports those formats' own entry points
 * instead (`wirekit-ts/msgpack`), and loads no other format's code.
 */
import type { Infer, Schema } from '../schema/index.js';
import { arrowFormat } from './arrow/index.js';
import { avroFormat } from './avro/index.js';
import { cborFormat } from './cbor/index.js';
import type { Codec, CodecOptions, FormatName } from './core/codec.js';
import type { FormatEntry } from './core/format-entry.js';
import { flatBuffersFormat } from './flatbuffers/index.js';
import { type CodecFormat, codecFormat, type SelfDescribingFormat } from './formats.js';
import { jsonFormat } from './json/index.js';
import { msgpackFormat } from './msgpack/index.js';
import { protobufFormat } from './protobuf/index.js';

export {
  type CodecFormat,
  formatNeedsSchema,
  mediaTypesOf,
  type SelfDescribingFormat,
} from './formats.js';

const entries: { readonly [Name in FormatName]: FormatEntry<Name> } = {
  json: jsonFormat,
  msgpack: msgpackFormat,
  cbor: cborFormat,
  protobuf: protobufFormat,
  avro: avroFormat,
  flatbuffers: flatBuffersFormat,
  arrow: arrowFormat,
};

/** Every format's entry, in formatNames' order: for a client that speaks whatever it is asked to. */
export const allFormats: readonly FormatEntry[] = Object.values(entries);

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
  return entries[codecFormat(format, options.schema)].create(options);
}
