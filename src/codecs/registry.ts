/**
 * Finds a codec by format name or media type. Every format registers here once; the HTTP
 * boundary, the envelope and the CLI all go through this table, so adding a format is one entry.
 */
import { WirekitError } from '../errors/index.js';
import type { Infer, Schema } from '../schema/index.js';
import { arrowMediaTypes, createArrowCodec } from './arrow/index.js';
import { avroMediaTypes, createAvroCodec } from './avro/index.js';
import { cborMediaTypes, createCborCodec } from './cbor/index.js';
import { type Codec, type CodecOptions, type FormatName, formatNames } from './codec.js';
import { createFlatBuffersCodec, flatBuffersMediaTypes } from './flatbuffers/index.js';
import { createJsonCodec, jsonMediaTypes, ndjsonMediaTypes } from './json/index.js';
import { createMsgpackCodec, msgpackMediaTypes } from './msgpack/index.js';
import { createProtobufCodec, protobufMediaTypes } from './protobuf/index.js';

interface FormatEntry {
  readonly mediaTypes: readonly string[];
  /**
   * What the format cannot do without a schema: nothing (the wire carries names and types),
   * 'encode' (Arrow: a stream carries its schema, but writing one needs the columns' types), or
   * 'both' (the wire carries no names or types at all).
   */
  readonly needsSchema: 'nothing' | 'encode' | 'both';
  readonly create: (options: CodecOptions) => Codec<unknown>;
}

const formats: Readonly<Record<FormatName, FormatEntry>> = {
  json: {
    mediaTypes: [...jsonMediaTypes, ...ndjsonMediaTypes],
    needsSchema: 'nothing',
    create: createJsonCodec,
  },
  msgpack: { mediaTypes: msgpackMediaTypes, needsSchema: 'nothing', create: createMsgpackCodec },
  cbor: { mediaTypes: cborMediaTypes, needsSchema: 'nothing', create: createCborCodec },
  protobuf: { mediaTypes: protobufMediaTypes, needsSchema: 'both', create: createProtobufCodec },
  avro: { mediaTypes: avroMediaTypes, needsSchema: 'both', create: createAvroCodec },
  flatbuffers: { mediaTypes: flatBuffersMediaTypes, needsSchema: 'both', create: createFlatBuffersCodec },
  arrow: {
    mediaTypes: arrowMediaTypes,
    needsSchema: 'encode',
    create: createArrowCodec as FormatEntry['create'],
  },
};

const byMediaType = new Map<string, FormatName>(
  formatNames.flatMap((name) => formats[name].mediaTypes.map((type) => [type, name] as const)),
);

/** The format for a name ("msgpack") or a media type ("application/x-msgpack; charset=…"), if any. */
export function findFormat(nameOrMediaType: string): FormatName | undefined {
  const key = nameOrMediaType.split(';')[0]?.trim().toLowerCase() ?? '';
  return (formatNames as readonly string[]).includes(key) ? (key as FormatName) : byMediaType.get(key);
}

/**
 * Whether `format` needs a schema to encode (the default: a caller that writes values needs one),
 * or with 'decode', to decode: Arrow decodes without one, since a stream carries its schema.
 */
export function formatNeedsSchema(format: FormatName, use: 'encode' | 'decode' = 'encode'): boolean {
  const needs = formats[format].needsSchema;
  return needs === 'both' || (needs === 'encode' && use === 'encode');
}

/** The media types a format answers to, canonical first. */
export function mediaTypesOf(format: FormatName): readonly string[] {
  return formats[format].mediaTypes;
}

type MediaTypesOf<Types extends readonly string[]> = Types[number];

/** The media types of the formats that carry names and types on the wire. */
type SelfDescribingMediaType =
  | MediaTypesOf<typeof jsonMediaTypes>
  | MediaTypesOf<typeof ndjsonMediaTypes>
  | MediaTypesOf<typeof msgpackMediaTypes>
  | MediaTypesOf<typeof cborMediaTypes>;

/** A format name, or one of the media types a format answers to, exactly as registered. */
export type CodecFormat =
  | FormatName
  | SelfDescribingMediaType
  | MediaTypesOf<typeof protobufMediaTypes>
  | MediaTypesOf<typeof avroMediaTypes>
  | MediaTypesOf<typeof flatBuffersMediaTypes>
  | MediaTypesOf<typeof arrowMediaTypes>;

/**
 * The formats whose bytes describe themselves, by name or media type: they decode without a
 * schema. Arrow is one (a stream carries its schema), though it encodes only with a schema.
 */
export type SelfDescribingFormat =
  | 'json'
  | 'msgpack'
  | 'cbor'
  | 'arrow'
  | SelfDescribingMediaType
  | MediaTypesOf<typeof arrowMediaTypes>;

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
  const name = findFormat(format);
  if (name === undefined) {
    throw new WirekitError(
      'WK_UNKNOWN_FORMAT',
      `no codec for ${JSON.stringify(format)}; known formats: ${formatNames.join(', ')}.`,
    );
  }
  const entry = formats[name];
  if (entry.needsSchema === 'both' && options.schema === undefined) {
    throw new WirekitError(
      'WK_SCHEMA_REQUIRED',
      `${name} carries no field names or types, so it needs a schema.`,
    );
  }
  return entry.create(options);
}
