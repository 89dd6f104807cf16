/**
 * Codecs whose format's code is loaded on first use, by a dynamic import: a browser page that
 * speaks only JSON never fetches Arrow, MessagePack, CBOR, Protocol Buffers, Avro or FlatBuffers,
 * nor the libraries beneath them. The codecs are registry.ts's own; only when their code arrives
 * differs. Each format's module is imported once (the module system keeps it), and codecs are
 * made anew per call, as createCodec makes them.
 */
import type { Infer, Schema } from '../schema/index.js';
import type { ArrowCodec, ArrowCodecOptions } from './arrow/index.js';
import type { Codec, CodecOptions, FormatName } from './core/codec.js';
import { type CodecFormat, codecFormat, type SelfDescribingFormat } from './formats.js';

type Creator = (options: CodecOptions) => Codec<unknown>;

/** Each format's module, as a bundler sees it: one dynamic import per format, a chunk each. */
const loaders: Readonly<Record<FormatName, () => Promise<Creator>>> = {
  json: async () => (await import('./json/index.js')).createJsonCodec,
  msgpack: async () => (await import('./msgpack/index.js')).createMsgpackCodec,
  cbor: async () => (await import('./cbor/index.js')).createCborCodec,
  protobuf: async () => (await import('./protobuf/index.js')).createProtobufCodec,
  avro: async () => (await import('./avro/index.js')).createAvroCodec,
  flatbuffers: async () => (await import('./flatbuffers/index.js')).createFlatBuffersCodec,
  arrow: async () => (await import('./arrow/index.js')).createArrowCodec as Creator,
};

/**
 * createCodec, with the format's code loaded first if it is not yet. The same checks, thrown as
 * rejections: WK_UNKNOWN_FORMAT, WK_SCHEMA_REQUIRED, and whatever the codec refuses of `options`.
 */
export function loadCodec<S extends Schema>(
  format: CodecFormat,
  options: CodecOptions & { readonly schema: S },
): Promise<Codec<Infer<S>>>;
export function loadCodec<T = unknown>(
  format: SelfDescribingFormat,
  options?: CodecOptions & { readonly schema?: undefined },
): Promise<Codec<T>>;
/** A schema known only at run time, which may be absent: checked then (WK_SCHEMA_REQUIRED). */
export function loadCodec<T = unknown>(
  format: CodecFormat,
  options: CodecOptions & { readonly schema: Schema | undefined },
): Promise<Codec<T>>;
export async function loadCodec(format: string, options: CodecOptions = {}): Promise<Codec<unknown>> {
  const create = await loaders[codecFormat(format, options.schema)]();
  return create(options);
}

/** createArrowCodec, loaded on first use: for the readers of record batches (decodeBatches). */
export async function loadArrowCodec<Row = unknown>(
  options: ArrowCodecOptions & { readonly schema: Schema },
): Promise<ArrowCodec<Row>> {
  const { createArrowCodec } = await import('./arrow/index.js');
  return createArrowCodec<Row>(options);
}
