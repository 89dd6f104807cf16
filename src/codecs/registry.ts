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

/**
 * Creates the codec for a format name or media type. Throws WK_UNKNOWN_FORMAT for anything else,
 * and WK_SCHEMA_REQUIRED where the format needs a schema and none is given.
 */
export function createCodec<S extends Schema>(
  format: FormatName | string,
  options: CodecOptions & { readonly schema: S },
): Codec<Infer<S>>;
export function createCodec<T = unknown>(format: FormatName | string, options?: CodecOptions): Codec<T>;
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
