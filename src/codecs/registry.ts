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
  /** Whether the format carries no names or types on the wire, so it cannot work without a schema. */
  readonly needsSchema: boolean;
  readonly create: (options: CodecOptions) => Codec<unknown>;
}

const formats: Readonly<Record<FormatName, FormatEntry>> = {
  json: { mediaTypes: [...jsonMediaTypes, ...ndjsonMediaTypes], needsSchema: false, create: createJsonCodec },
  msgpack: { mediaTypes: msgpackMediaTypes, needsSchema: false, create: createMsgpackCodec },
  cbor: { mediaTypes: cborMediaTypes, needsSchema: false, create: createCborCodec },
  protobuf: { mediaTypes: protobufMediaTypes, needsSchema: true, create: createProtobufCodec },
  avro: { mediaTypes: avroMediaTypes, needsSchema: true, create: createAvroCodec },
  flatbuffers: { mediaTypes: flatBuffersMediaTypes, needsSchema: true, create: createFlatBuffersCodec },
  arrow: {
    mediaTypes: arrowMediaTypes,
    needsSchema: true,
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

export function formatNeedsSchema(format: FormatName): boolean {
  return formats[format].needsSchema;
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

/** The formats that work without a schema, by name or media type. */
export type SelfDescribingFormat = 'json' | 'msgpack' | 'cbor' | SelfDescribingMediaType;

/**
 * Creates the codec for a format name or media type. The types catch a misspelt format and a
 * schema-bound format without its schema at compile time; a string from elsewhere (a header, a
 * config file) goes through `findFormat` first, which also takes parameters and any letter case.
 * At run time, anything else throws WK_UNKNOWN_FORMAT, and a format that needs a schema given none
 * throws WK_SCHEMA_REQUIRED.
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
  if (entry.needsSchema && options.schema === undefined) {
    throw new WirekitError(
      'WK_SCHEMA_REQUIRED',
      `${name} carries no field names or types, so it needs a schema.`,
    );
  }
  return entry.create(options);
}
