/**
 * The media types each format answers to, apart from the codecs themselves: what a caller needs to
 * name a format, pick one from a Content-Type or list what a route offers, without loading any
 * format's code or library (the fetch client in a browser loads a codec only once it is used).
 * Each codec's module re-exports its own.
 */

export const jsonMediaTypes = ['application/json'] as const;
export const ndjsonMediaTypes = ['application/x-ndjson', 'application/jsonl'] as const;

/**
 * Values back to back (`encodeStream`, `encodeSequence`). MessagePack registers no type for that;
 * this one is named after CBOR's `application/cbor-seq` (RFC 8742), so that `application/msgpack`
 * always means one value.
 */
export const msgpackSequenceMediaType = 'application/x-msgpack-seq';

/** The registered type first; `application/x-msgpack` is what older services send. */
export const msgpackMediaTypes = Object.freeze([
  'application/msgpack',
  'application/x-msgpack',
  msgpackSequenceMediaType,
] as const);

/** The value media type first; the sequence type names this codec's streams. */
export const cborMediaTypes = Object.freeze(['application/cbor', 'application/cbor-seq'] as const);

/** A stream of CBOR values back to back, as RFC 8742 defines. */
export const cborSequenceMediaType = cborMediaTypes[1] as string;

/** Messages each prefixed with its length as a varint (writeDelimitedTo / parseDelimitedFrom). */
export const protobufStreamMediaType = 'application/x-protobuf-delimited';

/** Canonical first; the last is the type of sequences. */
export const protobufMediaTypes = Object.freeze([
  'application/x-protobuf',
  'application/protobuf',
  'application/vnd.google.protobuf',
  protobufStreamMediaType,
] as const);

/**
 * `application/avro` first; `application/vnd.apache.avro+binary` and `application/x-avro-binary`
 * are in use for single datums too. (`avro/binary`, from the spec's RPC transport, is not a valid
 * media type and frames RPC messages rather than datums, so it is left out.)
 */
export const avroMediaTypes = Object.freeze([
  'application/avro',
  'application/vnd.apache.avro+binary',
  'application/x-avro-binary',
] as const);

/**
 * Size-prefixed buffers back to back (`encodeStream`, `encodeSequence`). FlatBuffers registers no
 * type for that; this one is named after CBOR's `application/cbor-seq` (RFC 8742), so that
 * `application/x-flatbuffers` always means one buffer.
 */
export const flatBuffersSequenceMediaType = 'application/x-flatbuffers-seq';

export const flatBuffersMediaTypes = Object.freeze([
  'application/x-flatbuffers',
  'application/flatbuffers',
  flatBuffersSequenceMediaType,
] as const);

/** The stream format first: it is the default and the one `encodeStream` writes unless told. */
export const arrowMediaTypes = [
  'application/vnd.apache.arrow.stream',
  'application/vnd.apache.arrow.file',
] as const;
