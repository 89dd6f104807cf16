/**
 * What a route declares, and what the plugin compiles from it once, at registration: a codec per
 * format for the body, the reply and errors, and the negotiation tables. Nothing here runs per
 * request except lookups.
 */
import { type ArrowCodec, createArrowCodec } from '../../codecs/arrow/index.js';
import type { Codec, FormatName, UnknownKeys } from '../../codecs/core/codec.js';
import type { DecodeLimits } from '../../codecs/core/limits.js';
import { defaultFormat, factsOf, formatNeedsSchema, mediaTypesOf } from '../../codecs/formats.js';
import { createCodec } from '../../codecs/registry.js';
import { WirekitError } from '../../errors/index.js';
import { Negotiator } from '../../negotiate/index.js';
import type { ObjectSchema, Schema } from '../../schema/index.js';
import { errorCodecFor } from './error-codec.js';
import { listForms, rowsOf, type Streamed } from './list-forms.js';
import { type PartName, type PartReader, partReader } from './text-parts.js';
import type { HttpError } from './wire-error.js';

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
  /**
   * A key of the body that `body` does not name, in every format: 'ignore' skips it, 'reject'
   * answers 400 WK_DECODE_SCHEMA_MISMATCH naming it (CodecOptions.unknownKeys); a query key that
   * `query` does not name likewise (400 WK_VALIDATION_FAILED at `query.<key>`). Defaults to the
   * plugin's `unknownKeys`, which defaults to 'ignore'.
   */
  readonly unknownKeys?: UnknownKeys;
  /** The path parameters' schema, read from their text (text-parts.ts); 400 with `params.<name>`. */
  readonly params?: ObjectSchema;
  /** The query string's schema, read from its text; an unknown key follows `unknownKeys`. */
  readonly query?: ObjectSchema;
  /** The schema of the headers the route reads, by lower-case name; other headers pass by. */
  readonly headers?: ObjectSchema;
}

/** One reply media type the route offers, and what writes it. */
export interface ReplyOffer {
  readonly mediaType: string;
  readonly format: FormatName;
  /** Writes the reply value whole: single values, and lists in their whole form on list routes. */
  readonly codec: Codec<unknown> | undefined;
  /** How rows are written in this media type: on streamed routes, and sequences on list routes. */
  readonly stream: StreamKind | undefined;
  /** How errors are written to a client that negotiated this offer. */
  readonly errors: Codec<HttpError>;
}

/**
 * `sequence`: the row codec's own framing for sequences (NDJSON, MessagePack or CBOR values back
 * to back, varint-delimited Protobuf, an Avro object container, size-prefixed FlatBuffers, an
 * Arrow IPC stream); otherwise the list as one value, written around the rows as they come
 * (streamed-lists.ts).
 */
export type StreamKind = { readonly kind: 'sequence' | Streamed; readonly codec: Codec<unknown> };

export interface CompiledRoute {
  readonly spec: WirekitRouteSpec;
  readonly offers: readonly ReplyOffer[];
  readonly negotiator: Negotiator;
  /** Body codecs by media type essence (lowercase, no parameters). */
  readonly bodyCodecs: ReadonlyMap<string, Codec<unknown>>;
  /** The media types the body may come in, for 415 answers. */
  readonly bodyTypes: readonly string[];
  /**
   * Why a type that a client may ask for is not offered here, and what to ask for instead, by
   * media type: for the 406's message.
   */
  readonly notOffered: ReadonlyMap<string, string>;
  /**
   * On a streamed route: reads the rows out of record batches a handler returns (a table source's
   * query), for every format but Arrow, and checks the batches' schema against the route's row.
   */
  readonly tables: ArrowCodec | undefined;
  /** Readers of the parts of the request the route types, in the order they are read. */
  readonly parts: readonly (readonly [PartName, PartReader])[];
}

/**
 * The codec of `format` for values of `schema` (undefined: schemaless), or undefined when the
 * format cannot carry such values: formats without names on the wire need a schema, and a format
 * that carries only rows (Arrow) a list of them, whose codec takes the row. Protocol Buffers and FlatBuffers wrap a root that is not a record in a root
 * message or table of their own (`toProto` and `toFlatBuffers` declare it).
 */
function codecFor(
  format: FormatName,
  schema: Schema | undefined,
  limits: Partial<DecodeLimits> | undefined,
  unknownKeys?: UnknownKeys,
): Codec<unknown> | undefined {
  if (schema === undefined) {
    return !formatNeedsSchema(format)
      ? createCodec(format, { schema: undefined, ...(limits && { limits }) })
      : undefined;
  }
  const codecSchema = factsOf(format).carries === 'rows' ? rowsOf(schema) : schema;
  if (codecSchema === undefined) return undefined;
  return createCodec(format, {
    schema: codecSchema,
    ...(limits && { limits }),
    ...(unknownKeys && { unknownKeys }),
  });
}

/**
 * The media types a format answers to for one value: not the types of sequences (NDJSON, CBOR
 * sequences), and none for a format that carries only rows (Arrow, whose every message is part of
 * a table).
 */
function singleValueTypes(format: FormatName): readonly string[] {
  if (factsOf(format).carries === 'rows') return [];
  const [own, ...aliases] = mediaTypesOf(format);
  return [own as string, ...aliases.filter((type) => !listForms[format].sequence.includes(type))];
}

/**
 * The offers of a route whose reply is a list of rows (`list`), or of a streamed route: per format
 * the list as one value, then the rows' sequence. Whole forms come first, in the formats' order,
 * then sequences: a client that accepts `application/*` gets a plain value of the first format.
 *
 * A list route writes its whole forms with the codec of the list, and its sequences with the row
 * codec's stream. A streamed route writes every form as the rows come, so it offers a whole form
 * only where the format can begin it before it knows how many rows will come.
 */
function listOffers(
  row: ObjectSchema,
  list: Schema | undefined,
  formats: readonly FormatName[],
  limits: Partial<DecodeLimits> | undefined,
  batchSize: number,
): ReplyOffer[] {
  const whole: ReplyOffer[] = [];
  const sequences: ReplyOffer[] = [];
  for (const format of formats) {
    const errors = errorCodecFor(format);
    const forms = listForms[format];
    if (factsOf(format).sequences === 'table') {
      // An Arrow IPC stream is the table itself: a list route's codec writes it whole, a streamed
      // route's batch by batch.
      const writer: Pick<ReplyOffer, 'codec' | 'stream'> =
        list === undefined
          ? {
              codec: undefined,
              stream: {
                kind: 'sequence',
                codec: createArrowCodec({
                  schema: row,
                  batchSize,
                  ...(limits && { limits }),
                }) as Codec<unknown>,
              },
            }
          : { codec: codecFor(format, list, limits), stream: undefined };
      for (const mediaType of forms.sequence) sequences.push({ mediaType, format, ...writer, errors });
      continue;
    }
    const rows = codecFor(format, row, limits) as Codec<unknown>;
    if (list !== undefined) {
      const codec = codecFor(format, list, limits);
      for (const mediaType of forms.whole)
        whole.push({ mediaType, format, codec, stream: undefined, errors });
    } else if (forms.streamed !== undefined) {
      const stream: StreamKind = { kind: forms.streamed, codec: rows };
      for (const mediaType of forms.whole)
        whole.push({ mediaType, format, codec: undefined, stream, errors });
    }
    const stream: StreamKind = { kind: 'sequence', codec: rows };
    for (const mediaType of forms.sequence)
      sequences.push({ mediaType, format, codec: undefined, stream, errors });
  }
  return [...whole, ...sequences];
}

/** Compiles a route's spec against the plugin's formats. Throws WK_OPTIONS_INVALID for a bad spec. */
export function compileRoute(
  spec: WirekitRouteSpec,
  pluginFormats: readonly FormatName[],
  limits: Partial<DecodeLimits> | undefined,
  pluginUnknownKeys?: UnknownKeys,
): CompiledRoute {
  if (spec.stream !== undefined && spec.reply !== undefined) {
    throw new WirekitError('WK_OPTIONS_INVALID', 'a wirekit route has either `reply` or `stream`, not both.');
  }
  if (spec.stream !== undefined && spec.stream.kind !== 'object') {
    throw new WirekitError('WK_OPTIONS_INVALID', '`stream` is the schema of one row: an object schema.');
  }
  // JSON first whatever the order given: it is what a client that states no preference (no
  // Accept, or `*/*` as curl sends) gets, since ties go to the first offer.
  const given = spec.formats ?? pluginFormats;
  const formats = given.includes(defaultFormat)
    ? [defaultFormat, ...given.filter((f) => f !== defaultFormat)]
    : given;
  const rows = rowsOf(spec.reply);
  let offers: ReplyOffer[];
  if (spec.stream !== undefined) {
    offers = listOffers(spec.stream, undefined, formats, limits, spec.batchSize ?? 8192);
  } else if (rows !== undefined) {
    offers = listOffers(rows, spec.reply, formats, limits, spec.batchSize ?? 8192);
  } else {
    offers = [];
    for (const format of formats) {
      const codec = codecFor(format, spec.reply, limits);
      if (codec === undefined) continue;
      const errors = errorCodecFor(format);
      // Every media type the format answers to, so a client asking for an alias gets it back.
      for (const mediaType of singleValueTypes(format)) {
        offers.push({ mediaType, format, codec, stream: undefined, errors });
      }
    }
  }
  if (offers.length === 0) {
    throw new WirekitError(
      'WK_OPTIONS_INVALID',
      `none of the formats ${formats.join(', ')} can write this route's reply.`,
    );
  }
  const bodyCodecs = new Map<string, Codec<unknown>>();
  const unknownKeys = spec.unknownKeys ?? pluginUnknownKeys;
  for (const format of formats) {
    const codec = codecFor(format, spec.body, limits, unknownKeys);
    if (codec === undefined) continue;
    // A table (Arrow) may come as a stream or a file: decode reads either.
    const types = factsOf(format).carries === 'rows' ? mediaTypesOf(format) : singleValueTypes(format);
    for (const mediaType of types) bodyCodecs.set(mediaType, codec);
  }
  const parts: (readonly [PartName, PartReader])[] = [];
  for (const part of ['params', 'query', 'headers'] as const) {
    const schema = spec[part];
    if (schema !== undefined)
      parts.push([part, partReader(part, schema, { unknownKeys, ...(limits && { limits }) })]);
  }
  return {
    spec,
    parts,
    offers,
    negotiator: new Negotiator(offers.map((offer) => offer.mediaType)),
    bodyCodecs,
    bodyTypes: [...bodyCodecs.keys()],
    notOffered: notOffered(offers, spec.stream !== undefined),
    tables:
      spec.stream === undefined
        ? undefined
        : createArrowCodec({ schema: spec.stream, ...(limits && { limits }) }),
  };
}

/**
 * For each media type of a format this route speaks that it does not offer: why, and the types
 * of that format to ask for instead.
 */
function notOffered(offers: readonly ReplyOffer[], streamed: boolean): Map<string, string> {
  const reasons = new Map<string, string>();
  const offered = new Set(offers.map((offer) => offer.mediaType));
  const formats = new Set(offers.map((offer) => offer.format));
  for (const format of formats) {
    const instead = offers.filter((offer) => offer.format === format).map((offer) => offer.mediaType);
    const forms = listForms[format];
    const known = [...mediaTypesOf(format), ...forms.whole, ...forms.sequence];
    for (const type of known) {
      if (offered.has(type) || reasons.has(type)) continue;
      const why =
        streamed && forms.whole.includes(type) && forms.wholeNeeds !== undefined
          ? `${type} is the whole list as one value, and ${forms.wholeNeeds}; this route streams its rows`
          : `this route does not answer in ${type}`;
      reasons.set(type, `${why}; for ${format} ask for ${instead.join(' or ')}.`);
    }
  }
  return reasons;
}
