/**
 * What a route declares, and what the plugin compiles from it once, at registration: a codec per
 * format for the body, the reply and errors, and the negotiation tables. Nothing here runs per
 * request except lookups.
 */
import { createArrowCodec } from '../../codecs/arrow/index.js';
import type { Codec, FormatName } from '../../codecs/codec.js';
import type { DecodeLimits } from '../../codecs/limits.js';
import { createCodec, mediaTypesOf } from '../../codecs/registry.js';
import { WirekitError } from '../../errors/index.js';
import { Negotiator } from '../../negotiate/index.js';
import type { ObjectSchema, Schema } from '../../schema/index.js';
import { errorCodecFor, type HttpError } from './wire-error.js';

/** What a route declares under `config.wirekit` (or through `wirekitRoute`). */
export interface WirekitRouteSpec {
  /** The request body's schema; the body is decoded and validated into it. */
  readonly body?: Schema;
  /** The reply's schema: the handler returns one such value. */
  readonly reply?: Schema;
  /**
   * The schema of one row of a streamed reply: the handler returns an iterable, async iterable or
   * stream of rows, sent as they come (Arrow record batches, NDJSON, a JSON array, or the framing
   * for sequences of the other formats). Excludes `reply`.
   */
  readonly stream?: ObjectSchema;
  /** The formats this route speaks, in order of preference; defaults to the plugin's. */
  readonly formats?: readonly FormatName[];
  /** Rows per Arrow record batch on a streamed reply (default 8,192: a first batch comes soon). */
  readonly batchSize?: number;
}

/** One reply media type the route offers, and what writes it. */
export interface ReplyOffer {
  readonly mediaType: string;
  readonly format: FormatName;
  /** For single values; streams use `stream`. */
  readonly codec: Codec<unknown> | undefined;
  /** How a stream of rows is written in this media type. */
  readonly stream: StreamKind | undefined;
  /** How errors are written to a client that negotiated this offer. */
  readonly errors: Codec<HttpError>;
}

/**
 * `array`: a JSON array written row by row; `sequence`: the codec's own framing for sequences
 * (NDJSON, MessagePack values back to back, CBOR sequence, length-delimited Protobuf, Avro object
 * container, size-prefixed FlatBuffers, Arrow IPC stream).
 */
export type StreamKind = { readonly kind: 'array' | 'sequence'; readonly codec: Codec<unknown> };

export interface CompiledRoute {
  readonly spec: WirekitRouteSpec;
  readonly offers: readonly ReplyOffer[];
  readonly negotiator: Negotiator;
  /** Body codecs by media type essence (lowercase, no parameters). */
  readonly bodyCodecs: ReadonlyMap<string, Codec<unknown>>;
  /** The media types the body may come in, for 415 answers. */
  readonly bodyTypes: readonly string[];
}

const schemalessFormats: readonly FormatName[] = ['json', 'msgpack', 'cbor'];
/** Formats whose root is one record: an array of records travels in their sequence framing. */
export const sequenceOnly: readonly FormatName[] = ['protobuf', 'avro', 'flatbuffers'];

/** The row schema when `schema` is an array of objects (what Arrow carries), else undefined. */
export function rowsOf(schema: Schema | undefined): ObjectSchema | undefined {
  if (schema?.kind !== 'array') return undefined;
  return schema.items.kind === 'object' ? schema.items : undefined;
}

/**
 * The codec of `format` for values of `schema` (undefined: schemaless), or undefined when the
 * format cannot carry such values: formats without names on the wire need a schema, Arrow needs
 * an array of objects, and Protobuf, Avro and FlatBuffers need an object at the root (they
 * describe messages and records).
 */
function codecFor(
  format: FormatName,
  schema: Schema | undefined,
  limits: Partial<DecodeLimits> | undefined,
): Codec<unknown> | undefined {
  if (schema === undefined && !schemalessFormats.includes(format)) return undefined;
  let codecSchema = schema;
  if (format === 'arrow') codecSchema = rowsOf(schema);
  else if (format === 'protobuf' || format === 'avro' || format === 'flatbuffers') {
    if (schema?.kind !== 'object') codecSchema = undefined;
  }
  if (codecSchema === undefined && schema !== undefined) return undefined;
  return createCodec(format, { schema: codecSchema, ...(limits && { limits }) });
}

/**
 * The media types a format answers to for one value: sequence-only types (NDJSON, CBOR sequences)
 * are for streams, and Arrow's file format is read but not offered (its footer comes last, so it
 * cannot stream).
 */
function singleValueTypes(format: FormatName, codec: Codec<unknown>): readonly string[] {
  if (format === 'json' || format === 'arrow') return [codec.mediaType];
  return mediaTypesOf(format).filter((type) => type === codec.mediaType || type !== codec.streamMediaType);
}

/** The reply offers of a streamed route: per format its sequence framing; JSON also as an array. */
function streamOffers(
  row: ObjectSchema,
  formats: readonly FormatName[],
  limits: Partial<DecodeLimits> | undefined,
  batchSize: number,
): ReplyOffer[] {
  const offers: ReplyOffer[] = [];
  for (const format of formats) {
    const errors = errorCodecFor(format);
    const codec =
      format === 'arrow'
        ? (createArrowCodec({ schema: row, batchSize, ...(limits && { limits }) }) as Codec<unknown>)
        : (codecFor(format, row, limits) as Codec<unknown>);
    if (format === 'json') {
      offers.push({ mediaType: codec.mediaType, format, codec, stream: { kind: 'array', codec }, errors });
    }
    const stream: StreamKind = { kind: 'sequence', codec };
    offers.push({ mediaType: codec.streamMediaType, format, codec, stream, errors });
  }
  return offers;
}

/** Compiles a route's spec against the plugin's formats. Throws WK_SCHEMA_INVALID for a bad spec. */
export function compileRoute(
  spec: WirekitRouteSpec,
  pluginFormats: readonly FormatName[],
  limits: Partial<DecodeLimits> | undefined,
): CompiledRoute {
  if (spec.stream !== undefined && spec.reply !== undefined) {
    throw new WirekitError('WK_SCHEMA_INVALID', 'a wirekit route has either `reply` or `stream`, not both.');
  }
  if (spec.stream !== undefined && spec.stream.kind !== 'object') {
    throw new WirekitError('WK_SCHEMA_INVALID', '`stream` is the schema of one row: an object schema.');
  }
  // JSON first whatever the order given: it is what a client that states no preference (no
  // Accept, or `*/*` as curl sends) gets, since ties go to the first offer.
  const given = spec.formats ?? pluginFormats;
  const formats = given.includes('json') ? ['json' as const, ...given.filter((f) => f !== 'json')] : given;
  let offers: ReplyOffer[];
  if (spec.stream !== undefined) {
    offers = streamOffers(spec.stream, formats, limits, spec.batchSize ?? 8192);
  } else {
    offers = [];
    const rows = rowsOf(spec.reply);
    for (const format of formats) {
      const codec = codecFor(format, spec.reply, limits);
      const errors = errorCodecFor(format);
      if (codec === undefined) {
        // A list of records in a format whose root is one record: its framing for sequences.
        if (rows !== undefined && sequenceOnly.includes(format)) {
          const rowCodec = codecFor(format, rows, limits) as Codec<unknown>;
          const stream: StreamKind = { kind: 'sequence', codec: rowCodec };
          offers.push({ mediaType: rowCodec.streamMediaType, format, codec: undefined, stream, errors });
        }
        continue;
      }
      // Every media type the format answers to, so a client asking for an alias gets it back.
      for (const mediaType of singleValueTypes(format, codec)) {
        offers.push({ mediaType, format, codec, stream: undefined, errors });
      }
    }
  }
  if (offers.length === 0) {
    throw new WirekitError(
      'WK_SCHEMA_INVALID',
      `none of the formats ${formats.join(', ')} can write this route's reply.`,
    );
  }
  const bodyCodecs = new Map<string, Codec<unknown>>();
  for (const format of formats) {
    const codec = codecFor(format, spec.body, limits);
    if (codec === undefined) continue;
    // Arrow bodies may come as a stream or a file: decode reads either.
    const types = format === 'arrow' ? mediaTypesOf(format) : singleValueTypes(format, codec);
    for (const mediaType of types) bodyCodecs.set(mediaType, codec);
  }
  return {
    spec,
    offers,
    negotiator: new Negotiator(offers.map((offer) => offer.mediaType)),
    bodyCodecs,
    bodyTypes: [...bodyCodecs.keys()],
  };
}
