/**
 * Codecs whose format's code is loaded on first use, by a dynamic import: a browser page that
 * speaks only JSON never fetches Arrow, MessagePack, CBOR, Protocol Buffers, Avro or FlatBuffers,
 * nor the libraries beneath them. The codecs are registry.ts's own; only when their code arrives
 * differs. Each format's module is imported once (the module system keeps it), and codecs are
 * made anew per call, as createCodec makes them.
 */
import type { Infer, Schema } from '../schema/index.js';
import type { ArrowCodec, ArrowCodecOptions } from './arrow/index.js';
import type { Codec, CodecOptions } from './core/codec.js';
import { type FormatName, formatNames } from './core/codec.js';
import type { FormatEntry, LazyFormatEntry } from './core/format-entry.js';
import { type CodecFormat, codecFormat, type SelfDescribingFormat } from './formats.js';

/** Each format's module, as a bundler sees it: one dynamic import per format, a chunk each. */
const loaders: { readonly [Name in FormatName]: () => Promise<FormatEntry<Name>> } = {
  json: async () => (await import('./json/index.js')).jsonFormat,
  msgpack: async () => (await import('./msgpack/index.js')).msgpackFormat,
  cbor: async () => (await import('./cbor/index.js')).cborFormat,
  protobuf: async () => (await import('./protobuf/index.js')).protobufFormat,
  avro: async () => (await import('./avro/index.js')).avroFormat,
  flatbuffers: async () => (await import('./flatbuffers/index.js')).flatBuffersFormat,
  arrow: async () => (await import('./arrow/index.js')).arrowFormat,
};

/** `name`'s entry, its code loaded on first use: for the client on a page that may never need it. */
export function lazyFormat<Name extends FormatName>(name: Name): LazyFormatEntry<Name> {
  return { name, load: loaders[name] as () => Promise<FormatEntry<Name>> };
}

/** Every format, each loaded on first use: a page's client that may be asked for any of them. */
export const lazyFormats: readonly LazyFormatEntry[] = formatNames.map((name) => lazyFormat(name));

/**
 * createCodec, with the format's code loaded first if it is not yet. The same checks, thrown as
 * rejections: WK_UNKNOWN_FORMAT, WK_SCHEMA_REQUIRED, and whatever the codec refuses of `options`.
 * @internal exported for its tests: no entry point exports it.
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
  const entry = await loaders[codecFormat(format, options.schema)]();
  return entry.create(options);
}

/**
 * createArrowCodec, loaded on first use: for the readers of record batches (decodeBatches).
 * @internal exported for its tests: no entry point exports it.
 */
export async function loadArrowCodec<Row = unknown>(
  options: ArrowCodecOptions & { readonly schema: Schema },
): Promise<ArrowCodec<Row>> {
  const { createArrowCodec } = await import('./arrow/index.js');
  return createArrowCodec<Row>(options);
}
