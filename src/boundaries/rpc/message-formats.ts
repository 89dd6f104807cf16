/**
 * The formats an RPC call's messages travel in, and how each protocol names them in its content
 * type. gRPC, gRPC-Web and Connect all name a message format by a short codec name: `proto` and
 * `json` are the two every peer knows (Protocol Buffers bytes, and canonical ProtoJSON); wirekit
 * adds its other schema-driven formats under their own names, so one call can pick MessagePack,
 * CBOR or Avro where the protocol lets a codec name through. The server and the client both read
 * this table: a content type the server answers is one the client can ask for, and no other.
 *
 *   gRPC          application/grpc (= +proto), application/grpc+<codec>
 *   gRPC-Web      application/grpc-web[-text] (= +proto), application/grpc-web[-text]+<codec>
 *   Connect unary application/<codec> (application/json may carry `; charset=utf-8`)
 *   Connect stream application/connect+<codec>
 */

import { avroFormat } from '../../codecs/avro/index.js';
import { cborFormat } from '../../codecs/cbor/index.js';
import type { Codec, CodecOptions } from '../../codecs/core/codec.js';
import type { FormatEntry } from '../../codecs/core/format-entry.js';
import { msgpackFormat } from '../../codecs/msgpack/index.js';
import { protobufFormat } from '../../codecs/protobuf/index.js';
import { createProtoJsonCodec } from '../../codecs/protobuf/protojson.js';
import type { ObjectSchema } from '../../schema/index.js';

/** The codec names of RPC content types, in the order a server offers them. */
export const rpcCodecNames = ['proto', 'json', 'msgpack', 'cbor', 'avro'] as const;
export type RpcCodecName = (typeof rpcCodecNames)[number];

/** Where a content type is read: each protocol spells the codec name its own way. */
export type RpcProtocol = 'grpc' | 'grpc-web' | 'connect-unary' | 'connect-stream';

/** What a request's content type says: the codec, and for gRPC-Web whether the body is base64 text. */
export interface RpcContentType {
  readonly codec: RpcCodecName;
  /** gRPC-Web's `-text` variant: the framed body travels as base64. */
  readonly text: boolean;
}

const codecNamePattern = '([a-z0-9-]+)';
// Parameters are compared without case and spaces; only `charset=utf-8` is accepted, on JSON alone
// (ProtoJSON is UTF-8 by definition; a binary format with a charset is a client's mistake).
const charsetPattern = '(?:\\s*;\\s*charset=utf-?8)?';
const patterns: Readonly<Record<RpcProtocol, RegExp>> = {
  grpc: new RegExp(`^application/grpc(?:\\+${codecNamePattern})?${charsetPattern}$`, 'i'),
  'grpc-web': new RegExp(`^application/grpc-web(-text)?(?:\\+${codecNamePattern})?${charsetPattern}$`, 'i'),
  'connect-unary': new RegExp(`^application/${codecNamePattern}${charsetPattern}$`, 'i'),
  'connect-stream': new RegExp(`^application/connect\\+${codecNamePattern}${charsetPattern}$`, 'i'),
};

function isCodecName(name: string): name is RpcCodecName {
  return (rpcCodecNames as readonly string[]).includes(name);
}

/**
 * The codec a request's content type names under `protocol`, or undefined when it names none of
 * `rpcCodecNames` (the server answers 415, or gRPC's UNIMPLEMENTED). A charset is accepted on JSON
 * only. Connect's unary content types are bare `application/<codec>`, so `application/grpc` is not
 * a Connect codec: the protocols are told apart by their prefixes first (`protocolOfContentType`).
 */
export function codecOfContentType(protocol: RpcProtocol, contentType: string): RpcContentType | undefined {
  const match = patterns[protocol].exec(contentType.trim());
  if (match === null) return undefined;
  const text = protocol === 'grpc-web' && match[1] !== undefined;
  const name = (protocol === 'grpc-web' ? match[2] : match[1])?.toLowerCase() ?? 'proto';
  if (!isCodecName(name)) return undefined;
  if (name !== 'json' && /charset/i.test(contentType)) return undefined;
  return { codec: name, text };
}

/** Which protocol a request's content type belongs to, by its prefix (before the codec is checked). */
export function protocolOfContentType(contentType: string): RpcProtocol {
  const lower = contentType.trim().toLowerCase();
  if (lower.startsWith('application/grpc-web')) return 'grpc-web';
  if (lower.startsWith('application/grpc')) return 'grpc';
  if (lower.startsWith('application/connect+')) return 'connect-stream';
  return 'connect-unary';
}

/** The content type a message in `codec` travels under on `protocol` (what a reply echoes). */
export function contentTypeOf(protocol: RpcProtocol, codec: RpcCodecName, text = false): string {
  switch (protocol) {
    case 'grpc':
      return codec === 'proto' ? 'application/grpc' : `application/grpc+${codec}`;
    case 'grpc-web':
      return `application/grpc-web${text ? '-text' : ''}+${codec}`;
    case 'connect-unary':
      return codec === 'json' ? 'application/json' : `application/${codec}`;
    case 'connect-stream':
      return `application/connect+${codec}`;
  }
}

/** One message type in one format: what a protocol's framing hands bytes to and takes bytes from. */
export interface MessageSerializer<T> {
  readonly codec: RpcCodecName;
  /** Decodes one message; throws a WirekitError on bad bytes. */
  parse(bytes: Uint8Array): T;
  /** The message's bytes (a view into a slab; see Codec.encode). */
  serialize(value: T): Uint8Array;
}

/** The codec options an RPC boundary passes on (limits, unknown keys, validation, compile). */
export type MessageCodecOptions = Omit<CodecOptions, 'schema'>;

/**
 * The formats behind the binary codec names, each by its own entry rather than the registry: an RPC
 * client on a page then bundles these four and not Arrow or FlatBuffers, which no RPC call carries.
 */
const binaryFormats: Readonly<Record<Exclude<RpcCodecName, 'json'>, FormatEntry>> = {
  proto: protobufFormat,
  msgpack: msgpackFormat,
  cbor: cborFormat,
  avro: avroFormat,
};

/**
 * A message's serializer in `codec`: Protocol Buffers is wirekit's protobuf codec (the bytes protoc's
 * runtimes read for the message `toProto(schema)` declares), `json` is canonical ProtoJSON, and the
 * others are wirekit's codecs of those formats for the same schema.
 */
export function messageSerializer<T>(
  schema: ObjectSchema,
  codec: RpcCodecName,
  options: MessageCodecOptions = {},
): MessageSerializer<T> {
  const inner: Codec<T> =
    codec === 'json'
      ? protoJsonCodec<T>(schema, options)
      : (binaryFormats[codec].create({ ...options, schema }) as Codec<T>);
  return {
    codec,
    parse: (bytes) => inner.decode(bytes),
    serialize: (value) => inner.encode(value),
  };
}

/**
 * ProtoJSON under the options of the other formats: an unknown key is skipped or refused as
 * `unknownKeys` says for every format (skipped by default, so a newer client's field does not fail
 * an older server), where ProtoJSON's own parsers refuse it by default.
 */
function protoJsonCodec<T>(schema: ObjectSchema, options: MessageCodecOptions): Codec<T> {
  const { unknownKeys, compile: _interpretedOnly, ...rest } = options;
  return createProtoJsonCodec<T>({ ...rest, schema, ignoreUnknownFields: unknownKeys !== 'reject' });
}

/**
 * A message type's serializers, each made on first use and kept: a method builds one per side and
 * a call picks by the content type's codec, without compiling a format no call asked for.
 */
export class MessageSerializers<T> {
  readonly #byCodec = new Map<RpcCodecName, MessageSerializer<T>>();

  constructor(
    readonly schema: ObjectSchema,
    readonly options: MessageCodecOptions = {},
  ) {}

  of(codec: RpcCodecName): MessageSerializer<T> {
    let serializer = this.#byCodec.get(codec);
    if (serializer === undefined) {
      serializer = messageSerializer<T>(this.schema, codec, this.options);
      this.#byCodec.set(codec, serializer);
    }
    return serializer;
  }
}
