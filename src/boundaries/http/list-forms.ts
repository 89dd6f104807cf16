/**
 * The media types a list of rows travels in, per format: the list as one value of the format, and
 * the rows one after another in the format's framing for sequences. The server offers these on
 * routes whose reply is a list (`reply: t.array(Row)`, or `stream: Row`); the client asks for them
 * and reads a reply by the type it came in. One table, so that the two cannot disagree.
 *
 * A type means one thing wherever it is served: `application/msgpack` is always one MessagePack
 * value, never values back to back. A whole form that needs every row before its first byte (a
 * MessagePack array's count, a FlatBuffer's offsets, written back to front) is not served by a
 * streamed route; the 406 there names the sequence type to ask for instead.
 */
import type { FormatName } from '../../codecs/core/codec.js';
import {
  flatBuffersSequenceMediaType,
  msgpackSequenceMediaType,
  protobufStreamMediaType,
} from '../../codecs/core/media-types.js';
import type { ObjectSchema, Schema } from '../../schema/index.js';

export interface ListForms {
  /**
   * The list as one value: the bytes that the codec of `t.array(Row)` writes and reads (for
   * Protocol Buffers and FlatBuffers, their root wrapper with the rows in field `value`).
   */
  readonly whole: readonly string[];
  /**
   * How a streamed route writes the whole form as rows come, or undefined where the format needs
   * every row first. `json-array`: `[`, rows and commas, `]`; `cbor-array`: an indefinite-length
   * array (RFC 8949 §3.2.2); `protobuf-repeated`: each row as field 1 (tag, length, message).
   */
  readonly streamed: 'json-array' | 'cbor-array' | 'protobuf-repeated' | undefined;
  /** Where `streamed` is undefined: what the whole form needs first, for the 406's message. */
  readonly wholeNeeds?: string;
  /** Rows one after another, in the framing the format's codec reads and writes as a stream. */
  readonly sequence: readonly string[];
}

export type Streamed = NonNullable<ListForms['streamed']>;

export const listForms: Readonly<Record<FormatName, ListForms>> = {
  json: {
    whole: ['application/json'],
    streamed: 'json-array',
    sequence: ['application/x-ndjson', 'application/jsonl'],
  },
  msgpack: {
    whole: ['application/msgpack', 'application/x-msgpack'],
    streamed: undefined,
    wholeNeeds: 'an array states its count of items before the first',
    sequence: [msgpackSequenceMediaType],
  },
  cbor: { whole: ['application/cbor'], streamed: 'cbor-array', sequence: ['application/cbor-seq'] },
  protobuf: {
    whole: ['application/x-protobuf', 'application/protobuf', 'application/vnd.google.protobuf'],
    streamed: 'protobuf-repeated',
    sequence: [protobufStreamMediaType],
  },
  // An object container file is Avro's own form for many records (schema first, then blocks), and
  // what Avro libraries read a list of records from; a datum of an array is not offered for lists.
  avro: { whole: [], streamed: undefined, sequence: ['application/avro'] },
  flatbuffers: {
    whole: ['application/x-flatbuffers', 'application/flatbuffers'],
    streamed: undefined,
    wholeNeeds: 'a FlatBuffer is built back to front, from the last row to its root',
    sequence: [flatBuffersSequenceMediaType],
  },
  // An Arrow IPC stream is the table itself, written batch by batch.
  arrow: { whole: [], streamed: undefined, sequence: ['application/vnd.apache.arrow.stream'] },
};

/** How a list arrives in `mediaType` (its essence), or undefined for a type no list is sent in. */
export function listFormOf(
  mediaType: string,
): { readonly format: FormatName; readonly whole: boolean } | undefined {
  return formsByType.get(mediaType);
}

const formsByType = new Map<string, { readonly format: FormatName; readonly whole: boolean }>(
  (Object.entries(listForms) as [FormatName, ListForms][]).flatMap(([format, forms]) => [
    ...forms.whole.map((type) => [type, { format, whole: true }] as const),
    ...forms.sequence.map((type) => [type, { format, whole: false }] as const),
  ]),
);

/** The row schema when `schema` is an array of objects (a list of rows), else undefined. */
export function rowsOf(schema: Schema | undefined): ObjectSchema | undefined {
  if (schema?.kind !== 'array') return undefined;
  return schema.items.kind === 'object' ? schema.items : undefined;
}
