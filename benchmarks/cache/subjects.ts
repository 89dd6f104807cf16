/**
 * What the cache benchmark compares, each as a value codec (value → stored bytes → value) and, for
 * the table's breakdown, its compression step alone:
 *
 * - `old`: the report's old pipeline, JSON.parse(JSON.stringify(value)) → @msgpack/msgpack encode →
 *   snappy compressSync; read with uncompressSync → @msgpack/msgpack decode.
 * - `new`: the report's new one and the yardstick, JSON.stringify → snappy's async `compress`; read
 *   with async `uncompress` (to a string) → JSON.parse.
 * - `msgpackr-records`, `msgpackr-records-async`: msgpackr with shared structures (`structures: []`,
 *   which turns records on) and snappy, sync or async, as the report would add it. The structures
 *   live in the one Packr that writes and reads here, the best case: a fleet must persist and load
 *   them (`saveStructures`/`getStructures`), which is not measured.
 * - `wirekit:FORMAT:COMPRESSION:MODE`: the cache's own value codec (adapter.ts) in that format and
 *   compression, compressing every value, always on the loop (sync) or always on the pool (async).
 * - `wirekit-default`: the cache as `createCache({ schema })` makes it: its default format and
 *   compression, with the measured thresholds deciding when to compress and where.
 *
 * The JSON pipelines give Dates back as strings; what each subject must give back is `expected`.
 */
import { decode as msgpackDecode, encode as msgpackEncode } from '@msgpack/msgpack';
import { Packr } from 'msgpackr';
import { compress, compressSync, uncompress, uncompressSync } from 'snappy';
import { defaultCacheCompression, defaultCacheFormat } from 'wirekit-ts/cache';
import type { FormatName } from 'wirekit-ts/codecs';
import { createCodec } from 'wirekit-ts/codecs';
import { type CompressionName, getCompressor } from 'wirekit-ts/compression';
import type { ObjectSchema } from 'wirekit-ts/schema';
import { defaultCacheValueCodec, envelopeValueCodec, type Mode, type ValueCodecAdapter } from './adapter.js';

/**
 * The stages of a compressing subject, each on its own, for the table's breakdown: the serializer
 * (value → what the compressor is handed) and its inverse, and the compressor both ways.
 */
export interface CompressionStep {
  readonly name: string;
  serialize(value: unknown): Uint8Array | string;
  /** The inverse of `serialize`, on what `decompress` gives back. */
  deserialize(plain: unknown): unknown;
  compress(input: Uint8Array | string): Uint8Array | Promise<Uint8Array>;
  decompress(compressed: Uint8Array): unknown | Promise<unknown>;
}

export interface CacheSubject {
  readonly id: string;
  /** For tables: "old pipeline", "wirekit avro + zstd". */
  readonly label: string;
  readonly mode: Mode;
  readonly codec: ValueCodecAdapter;
  readonly compression?: CompressionStep;
  /** What a read must give back for `value` (the value itself unless the pipeline is lossy by design). */
  expected(value: unknown): unknown;
}

export const baselineIds = [
  'old',
  'new',
  'msgpackr-records',
  'msgpackr-records-async',
  'wirekit-default',
] as const;
/** The yardstick every ratio is taken against, timed in the same process as each subject. */
export const yardstick = 'new';
export const cacheFormats = ['json', 'msgpack', 'cbor', 'protobuf', 'avro', 'flatbuffers', 'arrow'] as const;
/**
 * Arrow is left out unless named: one value is a table of one row, which carries the whole Arrow
 * schema message in every entry (14.7 KB per products item against 6.3 KB of JSON).
 */
export const defaultCacheFormats = cacheFormats.filter((format) => format !== 'arrow');
export const cacheCompressions = [
  'none',
  'snappy',
  'lz4',
  'zstd',
] as const satisfies readonly CompressionName[];

function wirekitId(format: FormatName, compression: CompressionName, mode: Mode): string {
  return `wirekit:${format}:${compression}:${mode}`;
}

/** Every wirekit subject of these formats and compressions; no compression has one mode only. */
export function wirekitIds(
  formats: readonly FormatName[],
  compressions: readonly CompressionName[],
  modes: readonly Mode[],
): string[] {
  return formats.flatMap((format) =>
    compressions.flatMap((compression) =>
      (compression === 'none' ? (['sync'] as const) : modes).map((mode) =>
        wirekitId(format, compression, mode),
      ),
    ),
  );
}

const jsonForm = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export function createCacheSubject(id: string, schema: ObjectSchema): CacheSubject {
  switch (id) {
    case 'old': {
      const serialize = (value: unknown) => msgpackEncode(jsonForm(value));
      return {
        id,
        label: 'old pipeline (JSON round trip → @msgpack/msgpack → snappy)',
        mode: 'sync',
        codec: {
          encode: (value) => compressSync(serialize(value)),
          decode: (bytes) => msgpackDecode(uncompressSync(asBuffer(bytes), { asBuffer: true }) as Buffer),
        },
        compression: {
          name: 'snappy (sync)',
          serialize,
          deserialize: (plain) => msgpackDecode(plain as Uint8Array),
          compress: (input) => compressSync(input),
          decompress: (bytes) => uncompressSync(asBuffer(bytes), { asBuffer: true }),
        },
        expected: jsonForm,
      };
    }
    case 'new':
      return {
        id,
        label: 'new pipeline (JSON + async snappy)',
        mode: 'async',
        codec: {
          encode: (value) => compress(JSON.stringify(value)),
          decode: async (bytes) =>
            JSON.parse((await uncompress(asBuffer(bytes), { asBuffer: false })) as string),
        },
        compression: {
          name: 'snappy (async)',
          serialize: (value) => JSON.stringify(value),
          deserialize: (plain) => JSON.parse(plain as string),
          compress: (input) => compress(input),
          decompress: (bytes) => uncompress(asBuffer(bytes), { asBuffer: false }),
        },
        expected: jsonForm,
      };
    case 'msgpackr-records':
    case 'msgpackr-records-async': {
      const packr = new Packr({ structures: [] });
      const sync = id === 'msgpackr-records';
      return {
        id,
        label: `msgpackr records + snappy${sync ? '' : ' (async)'}`,
        mode: sync ? 'sync' : 'async',
        codec: sync
          ? {
              encode: (value) => compressSync(packr.pack(value)),
              decode: (bytes) => packr.unpack(uncompressSync(asBuffer(bytes), { asBuffer: true }) as Buffer),
            }
          : {
              encode: (value) => compress(packr.pack(value)),
              decode: async (bytes) =>
                packr.unpack((await uncompress(asBuffer(bytes), { asBuffer: true })) as Buffer),
            },
        compression: {
          name: `snappy (${sync ? 'sync' : 'async'})`,
          serialize: (value) => packr.pack(value),
          deserialize: (plain) => packr.unpack(plain as Buffer),
          compress: (input) => (sync ? compressSync(input) : compress(input)),
          decompress: (bytes) =>
            sync ? uncompressSync(asBuffer(bytes), { asBuffer: true }) : uncompress(asBuffer(bytes)),
        },
        expected: (value) => value,
      };
    }
    case 'wirekit-default': {
      // The stages are those of the same format and compression on the loop, which is where the
      // default thresholds put a value of this size.
      const stages = wirekitSubject(
        wirekitId(defaultCacheFormat.withSchema, defaultCacheCompression, 'sync'),
        schema,
      );
      return {
        ...stages,
        id,
        label: `wirekit cache default (${defaultCacheFormat.withSchema} + ${defaultCacheCompression})`,
        codec: defaultCacheValueCodec(schema),
      };
    }
    default:
      return wirekitSubject(id, schema);
  }
}

/** The parts of a wirekit subject's id, or undefined when `id` names none. */
function parseWirekitId(
  id: string,
): { format: FormatName; compression: CompressionName; mode: Mode } | undefined {
  const [prefix, format, compression, mode, ...rest] = id.split(':');
  if (
    prefix !== 'wirekit' ||
    rest.length > 0 ||
    !(cacheFormats as readonly string[]).includes(format ?? '') ||
    !(cacheCompressions as readonly string[]).includes(compression ?? '') ||
    (mode !== 'sync' && mode !== 'async') ||
    (compression === 'none' && mode === 'async')
  ) {
    return undefined;
  }
  return { format: format as FormatName, compression: compression as CompressionName, mode };
}

/** Throws, saying what is known, unless `id` names a subject. */
export function checkSubjectId(id: string): void {
  if ((baselineIds as readonly string[]).includes(id) || parseWirekitId(id) !== undefined) return;
  throw new Error(
    `unknown subject ${id}; known: ${baselineIds.join(', ')}, or wirekit:FORMAT:COMPRESSION:sync|async ` +
      `(formats ${cacheFormats.join(', ')}; compressions ${cacheCompressions.join(', ')}; none is sync only)`,
  );
}

function wirekitSubject(id: string, schema: ObjectSchema): CacheSubject {
  const parsed = parseWirekitId(id);
  if (parsed === undefined) {
    checkSubjectId(id);
    throw new Error(`unknown subject ${id}`);
  }
  const { format, compression, mode } = parsed;
  const codec = envelopeValueCodec(schema, { format, compression, mode });
  if (compression === 'none')
    return { id, label: `wirekit ${format}`, mode, codec, expected: (value) => value };
  const plain = createCodec(format, { schema });
  const compressor = getCompressor(compression);
  const oneRow = format === 'arrow';
  return {
    id,
    label: `wirekit ${format} + ${compression}${mode === 'async' ? ' (async)' : ''}`,
    mode,
    codec,
    compression: {
      name: `${compression} (${mode})`,
      serialize: (value) => plain.encode((oneRow ? [value] : value) as never),
      deserialize: oneRow
        ? (bytes) => (plain.decode(bytes as Uint8Array) as unknown[])[0]
        : (bytes) => plain.decode(bytes as Uint8Array),
      compress: (input) =>
        mode === 'sync'
          ? compressor.compress(input as Uint8Array)
          : compressor.compressAsync(input as Uint8Array),
      decompress: (bytes) =>
        mode === 'sync' ? compressor.decompress(bytes) : compressor.decompressAsync(bytes),
    },
    expected: (value) => value,
  };
}
