/**
 * Finds the payload of `wirekit inspect`'s input and what it is: from the envelope when there is
 * one, from --format/--compress when given, else from the first bytes (sniff.ts). Decompresses it,
 * so that what follows works on the format's own bytes.
 */
import type { FormatName } from '../codecs/codec.js';
import { type CompressionName, getCompressor } from '../compression/index.js';
import { readEnvelope } from '../envelope/index.js';
import { WirekitError } from '../errors/index.js';
import { isCompression, leadingHex, type Sniffed, sniff, sniffedLabels } from './sniff.js';

export interface Located {
  readonly detected: 'envelope' | 'flag' | 'sniff';
  readonly sniffed: readonly Sniffed[];
  readonly format: FormatName;
  /** An Avro Object Container File rather than a single datum. */
  readonly avroContainer: boolean;
  readonly compression: CompressionName;
  readonly envelopeVersion: number | undefined;
  readonly fingerprint: Uint8Array | undefined;
  readonly headerBytes: number;
  /** The bytes after the header, as stored. */
  readonly payload: Uint8Array;
  /** The payload decompressed: the format's own bytes. */
  readonly plain: Uint8Array;
}

const sniffedFormats: Partial<Record<Sniffed, FormatName>> = {
  'avro-container': 'avro',
  'arrow-file': 'arrow',
  'arrow-stream': 'arrow',
  cbor: 'cbor',
  json: 'json',
};

/** The flags that make any payload inspectable, for the messages of input that is not recognised. */
function flagAdvice(compress: string): string {
  return `pass --format F (json, msgpack, cbor, protobuf, avro, flatbuffers, arrow) and ${compress}, plus --schema S.json for protobuf, avro and flatbuffers`;
}

export async function locate(
  bytes: Uint8Array,
  flags: { readonly format: FormatName | undefined; readonly compression: CompressionName | undefined },
): Promise<Located> {
  if (flags.format !== undefined) {
    const compression = flags.compression ?? 'none';
    const plain = await getCompressor(compression).decompressAsync(bytes);
    return raw('flag', [], flags.format, compression, bytes, plain);
  }
  const kind = sniff(bytes);
  if (kind === 'envelope') {
    const { header, payload } = readEnvelope(bytes);
    const compressor = getCompressor(header.compressionId);
    return {
      detected: 'envelope',
      sniffed: [],
      format: header.format,
      avroContainer: false,
      compression: compressor.name,
      envelopeVersion: header.version,
      fingerprint: header.fingerprint,
      headerBytes: bytes.length - payload.length,
      payload,
      plain: await compressor.decompressAsync(payload),
    };
  }
  if (kind !== undefined && isCompression(kind)) {
    const plain = await getCompressor(kind).decompressAsync(bytes);
    // One layer only: formats inside compression are sniffed, but not an envelope or more compression.
    const inner = sniff(plain);
    const format = inner === undefined ? undefined : sniffedFormats[inner];
    if (inner === undefined || format === undefined) {
      throw new WirekitError(
        'WK_ENVELOPE_INVALID',
        `the input is ${sniffedLabels[kind]}-compressed, but what it holds (${leadingHex(plain)}) is not a format wirekit can recognise from its first bytes; ${flagAdvice(`--compress ${kind}`)}.`,
      );
    }
    return raw('sniff', [kind, inner], format, kind, bytes, plain, inner === 'avro-container');
  }
  const format = kind === undefined ? undefined : sniffedFormats[kind];
  if (kind === undefined || format === undefined) {
    throw new WirekitError(
      'WK_ENVELOPE_INVALID',
      `the input has no wirekit envelope and its first bytes (${leadingHex(bytes)}) match no format that can be recognised (Avro container, Arrow IPC, self-described CBOR, JSON text, gzip, zstd, lz4); ${flagAdvice('--compress C if it is compressed')}.`,
    );
  }
  return raw('sniff', [kind], format, 'none', bytes, bytes, kind === 'avro-container');
}

function raw(
  detected: 'flag' | 'sniff',
  sniffed: readonly Sniffed[],
  format: FormatName,
  compression: CompressionName,
  payload: Uint8Array,
  plain: Uint8Array,
  avroContainer = false,
): Located {
  return {
    detected,
    sniffed,
    format,
    avroContainer,
    compression,
    envelopeVersion: undefined,
    fingerprint: undefined,
    headerBytes: 0,
    payload,
    plain,
  };
}
