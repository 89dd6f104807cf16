/**
 * What wirekit knows about each format without its codec: the media types it answers to, what it
 * cannot do without a schema, what one value of it can hold, how its sequences are framed, and
 * which format its errors travel in. Finding a format by a name or a Content-Type, refusing a
 * request for a codec that cannot be made, and every choice a boundary makes by a format's
 * abilities (the HTTP plugin's offers, the client's requests) read this table, so that no caller
 * tests a format's name.
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

export interface FormatFacts {
  readonly mediaTypes: readonly string[];
  /**
   * What the format cannot do without a schema: nothing (the wire carries names and types),
   * 'encode' (Arrow: a stream carries its schema, but writing one needs the columns' types), or
   * 'both' (the wire carries no names or types at all).
   */
  readonly needsSchema: 'nothing' | 'encode' | 'both';
  /**
   * What one value of the format can be: 'any' value a schema describes (Protocol Buffers and
   * FlatBuffers wrap a root that is no record in a root message or table of their own), or only
   * 'rows', a list of records (Arrow: every message belongs to a table, whose codec takes the row).
   */
  readonly carries: 'any' | 'rows';
  /**
   * How a sequence of values is framed: 'joined', each value framed on its own, so that two
   * sequences concatenate into one (NDJSON lines, MessagePack and CBOR values back to back,
   * varint-delimited Protocol Buffers, size-prefixed FlatBuffers); 'container', one header then
   * blocks (an Avro object container), so that sequences do not join; 'table', where the sequence
   * is itself the one value (an Arrow IPC stream, the table batch by batch).
   */
  readonly sequences: 'joined' | 'container' | 'table';
  /** The format an error record travels in to a client of this one (a table is no place for one). */
  readonly errorsIn: FormatName;
}

/** The format spoken where nothing says otherwise: readable by a person with curl, and by every client. */
export const defaultFormat: FormatName = 'json';

const formats: Readonly<Record<FormatName, FormatFacts>> = {
  json: {
    mediaTypes: [...jsonMediaTypes, ...ndjsonMediaTypes],
    needsSchema: 'nothing',
    carries: 'any',
    sequences: 'joined',
    errorsIn: 'json',
  },
  msgpack: {
    mediaTypes: msgpackMediaTypes,
    needsSchema: 'nothing',
    carries: 'any',
    sequences: 'joined',
    errorsIn: 'msgpack',
  },
  cbor: {
    mediaTypes: cborMediaTypes,
    needsSchema: 'nothing',
    carries: 'any',
    sequences: 'joined',
    errorsIn: 'cbor',
  },
  protobuf: {
    mediaTypes: protobufMediaTypes,
    needsSchema: 'both',
    carries: 'any',
    sequences: 'joined',
    errorsIn: 'protobuf',
  },
  avro: {
    mediaTypes: avroMediaTypes,
    needsSchema: 'both',
    carries: 'any',
    sequences: 'container',
    errorsIn: 'avro',
  },
  flatbuffers: {
    mediaTypes: flatBuffersMediaTypes,
    needsSchema: 'both',
    carries: 'any',
    sequences: 'joined',
    errorsIn: 'flatbuffers',
  },
  arrow: {
    mediaTypes: arrowMediaTypes,
    needsSchema: 'encode',
    carries: 'rows',
    sequences: 'table',
    errorsIn: 'json',
  },
};

/** What wirekit knows of `format` without its code (see FormatFacts). */
export function factsOf(format: FormatName): FormatFacts {
  return formats[format];
}

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
