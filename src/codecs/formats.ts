/**
 * What wirekit knows about each format without its codec: the media types it answers to and what
 * it cannot do without a schema. Finding a format by a name or a Content-Type, and refusing a
 * request for a codec that cannot be made, happen here once, for the codecs made at once
 * (registry.ts) and for those loaded on first use (load-codec.ts) alike.
 */
import { WirekitError } from '../errors/index.js';
import type { Schema } from '../schema/index.js';
import { type FormatName, formatNames } from './core/codec.js';
import {
  arrowMediaTypes,
  avroMediaTypes,
  cborMediaTypes,
  flatBuffersMediaTypes,
  jsonMediaTypes,
  msgpackMediaTypes,
  ndjsonMediaTypes,
  protobufMediaTypes,
} from './core/media-types.js';

interface FormatFacts {
  readonly mediaTypes: readonly string[];
  /**
   * What the format cannot do without a schema: nothing (the wire carries names and types),
   * 'encode' (Arrow: a stream carries its schema, but writing one needs the columns' types), or
   * 'both' (the wire carries no names or types at all).
   */
  readonly needsSchema: 'nothing' | 'encode' | 'both';
}

const formats: Readonly<Record<FormatName, FormatFacts>> = {
  json: { mediaTypes: [...jsonMediaTypes, ...ndjsonMediaTypes], needsSchema: 'nothing' },
  msgpack: { mediaTypes: msgpackMediaTypes, needsSchema: 'nothing' },
  cbor: { mediaTypes: cborMediaTypes, needsSchema: 'nothing' },
  protobuf: { mediaTypes: protobufMediaTypes, needsSchema: 'both' },
  avro: { mediaTypes: avroMediaTypes, needsSchema: 'both' },
  flatbuffers: { mediaTypes: flatBuffersMediaTypes, needsSchema: 'both' },
  arrow: { mediaTypes: arrowMediaTypes, needsSchema: 'encode' },
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

/**
 * The format a codec is asked for by, checked: WK_UNKNOWN_FORMAT for a name or media type no format
 * answers to, WK_SCHEMA_REQUIRED for a format that needs a schema given none.
 */
export function codecFormat(format: string, schema: Schema | undefined): FormatName {
  const name = findFormat(format);
  if (name === undefined) {
    throw new WirekitError(
      'WK_UNKNOWN_FORMAT',
      `no codec for ${JSON.stringify(format)}; known formats: ${formatNames.join(', ')}.`,
    );
  }
  if (formats[name].needsSchema === 'both' && schema === undefined) {
    throw new WirekitError(
      'WK_SCHEMA_REQUIRED',
      `${name} carries no field names or types, so it needs a schema.`,
    );
  }
  return name;
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
