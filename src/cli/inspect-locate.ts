/**
 * Finds the payload of `wirekit inspect`'s input and what it is: from the envelope when there is
 * one, from --format/--compress when given, else from the bytes: signatures and JSON text that
 * parses (sniff.ts), then brotli around one of those (brotli has no signature, so it is reported
 * only when what it holds is recognisable), then the binary formats without a signature, by
 * whether the bytes parse as one (sniff-binary.ts, a guess that names the other formats that fit).
 * Decompresses it (never past the input limit), so that what follows works on the format's own bytes.
 */
import type { FormatName } from '../codecs/index.js';
import { type CompressionName, type DecompressOptions, getCompressor } from '../compression/index.js';
import { readEnvelope } from '../envelope/index.js';
import { WirekitError } from '../errors/index.js';
import { isAvroContainer } from './sequences.js';
import { isCompression, leadingHex, looksLikeJson, type Sniffed, sniff, sniffedLabels } from './sniff.js';
import { type BinaryGuess, guessBinary } from './sniff-binary.js';

export interface Located {
  /** 'legacy': read by a --legacy reader (inspect.ts), never by `locate`. */
  readonly detected: 'envelope' | 'flag' | 'sniff' | 'legacy';
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
  /** How a format without a signature was guessed, which others fit too, and how to choose. */
  readonly guess?: string;
}

const sniffedFormats: Partial<Record<Sniffed, FormatName>> = {
  'avro-container': 'avro',
  'arrow-file': 'arrow',
  'arrow-stream': 'arrow',
  cbor: 'cbor',
  json: 'json',
  protobuf: 'protobuf',
  msgpack: 'msgpack',
  'cbor-value': 'cbor',
  flatbuffers: 'flatbuffers',
};

/** The flags that make any payload inspectable, for the messages of input that is not recognised. */
function flagAdvice(compress: string): string {
  return `pass --format F (json, msgpack, cbor, protobuf, avro, flatbuffers, arrow) and ${compress}, plus --schema S.json for protobuf, avro and flatbuffers`;
}

export interface LocateFlags {
  readonly format: FormatName | undefined;
  readonly compression: CompressionName | undefined;
  /** The most bytes decompression may give (the input limit). */
  readonly maxBytes: number;
  /** How many times its size compressed input may inflate to (undefined: the default). */
  readonly maxDecompressionRatio: number | undefined;
  /** The heap a value decoded while guessing may take (undefined: the decoders' default). */
  readonly maxAllocatedBytes?: number;
}

export async function locate(bytes: Uint8Array, flags: LocateFlags): Promise<Located> {
  const cap = { maxDecompressedBytes: flags.maxBytes, maxDecompressionRatio: flags.maxDecompressionRatio };
  if (flags.format !== undefined) {
    const compression = flags.compression ?? 'none';
    const plain = await getCompressor(compression).decompressAsync(bytes, cap);
    return raw(
      'flag',
      [],
      flags.format,
      compression,
      bytes,
      plain,
      flags.format === 'avro' && isAvroContainer(plain),
    );
  }
  if (flags.compression !== undefined) {
    // --compress alone: undo it, then recognise what it holds as if it had been sniffed.
    const plain = await getCompressor(flags.compression).decompressAsync(bytes, cap);
    const inner = recognise(plain, flags);
    if (inner === undefined) {
      throw new WirekitError(
        'WK_ENVELOPE_INVALID',
        `what --compress ${flags.compression} gives (${leadingHex(plain)}) is not a format wirekit can recognise from its bytes; ${flagAdvice(`--compress ${flags.compression}`)}.`,
      );
    }
    return raw(
      'sniff',
      [inner.kind],
      inner.format,
      flags.compression,
      bytes,
      plain,
      inner.kind === 'avro-container',
      inner.guess,
    );
  }
  const kind = sniff(bytes);
  if (kind === 'envelope') {
    const { header, payload } = readEnvelope(bytes);
    const compressor = getCompressor(header.compressionId);
    const plain = await compressor.decompressAsync(payload, cap);
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
      plain,
    };
  }
  if (kind !== undefined && isCompression(kind)) {
    const plain = await getCompressor(kind).decompressAsync(bytes, cap);
    // One layer only: formats inside compression are sniffed, but not an envelope or more compression.
    const inner = recognise(plain, flags);
    if (inner === undefined) {
      throw new WirekitError(
        'WK_ENVELOPE_INVALID',
        `the input is ${sniffedLabels[kind]}-compressed, but what it holds (${leadingHex(plain)}) is not a format wirekit can recognise from its bytes; ${flagAdvice(`--compress ${kind}`)}.`,
      );
    }
    return raw(
      'sniff',
      [kind, inner.kind],
      inner.format,
      kind,
      bytes,
      plain,
      inner.kind === 'avro-container',
      inner.guess,
    );
  }
  const format = kind === undefined ? undefined : sniffedFormats[kind];
  if (kind !== undefined && format !== undefined)
    return raw('sniff', [kind], format, 'none', bytes, bytes, kind === 'avro-container');
  const guessed = await guessBrotli(bytes, cap);
  if (guessed.located !== undefined) return guessed.located;
  const binary = guessBinary(bytes, guessLimits(flags));
  if (binary.length > 0) {
    const [first] = binary as [BinaryGuess, ...BinaryGuess[]];
    return raw('sniff', [first.kind], formatOf(first), 'none', bytes, bytes, false, guessText(binary));
  }
  // Text that is almost JSON is read as JSON, so that the decoder says where it stops being JSON.
  if (looksLikeJson(bytes)) return raw('sniff', ['json'], 'json', 'none', bytes, bytes);
  if (guessed.inflated !== undefined) {
    throw new WirekitError(
      'WK_ENVELOPE_INVALID',
      `the input has no wirekit envelope and its first bytes (${leadingHex(bytes)}) match no format that can be recognised, but it inflates as brotli (which has no signature, so this is a guess) to ${guessed.inflated.length} bytes (${leadingHex(guessed.inflated)}) that are not recognisable either; if it is brotli, ${flagAdvice('--compress brotli')}.`,
    );
  }
  throw new WirekitError(
    'WK_ENVELOPE_INVALID',
    `the input has no wirekit envelope and its first bytes (${leadingHex(bytes)}) match no format that can be recognised (Avro container, Arrow IPC, self-described CBOR, JSON text, gzip, zstd, lz4, nor brotli around one of them), nor do they parse whole as Protocol Buffers, MessagePack, CBOR or FlatBuffers (a single Avro datum cannot be recognised at all)${confluentHint(bytes)}; ${flagAdvice('--compress C if it is compressed')}.`,
  );
}

/** What decompressed bytes are: a signature or JSON text, else a guess among the binary formats, else almost-JSON text. */
function recognise(
  plain: Uint8Array,
  flags: LocateFlags,
): { readonly kind: Sniffed; readonly format: FormatName; readonly guess?: string } | undefined {
  const kind = sniff(plain);
  const format = kind === undefined ? undefined : sniffedFormats[kind];
  if (kind !== undefined && format !== undefined) return { kind, format };
  const binary = guessBinary(plain, guessLimits(flags));
  if (binary.length > 0) {
    const [first] = binary as [BinaryGuess, ...BinaryGuess[]];
    return { kind: first.kind, format: formatOf(first), guess: guessText(binary) };
  }
  return looksLikeJson(plain) ? { kind: 'json', format: 'json' } : undefined;
}

function guessLimits(flags: LocateFlags) {
  return {
    maxInputBytes: flags.maxBytes,
    ...(flags.maxAllocatedBytes === undefined ? {} : { maxAllocatedBytes: flags.maxAllocatedBytes }),
  };
}

function formatOf(guess: BinaryGuess): FormatName {
  return sniffedFormats[guess.kind] as FormatName;
}

/**
 * The guess as inspect says it: "guessed protobuf (raw field tree: …); could also be cbor (…);
 * pass --format F to choose", so that an ambiguous input is never read one way silently.
 */
function guessText(guesses: readonly BinaryGuess[]): string {
  const [first, ...others] = guesses as [BinaryGuess, ...BinaryGuess[]];
  const what = first.kind === 'protobuf' ? 'protobuf (raw field tree, no schema)' : formatOf(first);
  const also =
    others.length === 0
      ? 'no other format fits'
      : `could also be ${others.map((g) => `${formatOf(g)} (${g.detail})`).join(', or ')}`;
  return `guessed ${what}: the bytes have no signature, and ${first.detail}; ${also}; pass --format F to say which format it is`;
}

/** Confluent's wire format starts with the magic byte 0 and a 4-byte schema id; no format here starts so. */
function confluentHint(bytes: Uint8Array): string {
  if (bytes.length < 5 || bytes[0] !== 0) return '';
  const id = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(1);
  return `; the magic byte 0 and schema id ${id} of Confluent's wire format would fit: if it is an event from a schema registry, pass --registry URL`;
}

/**
 * The input read as brotli, when it inflates (within `cap`) to something recognisable from its
 * first bytes: brotli has no signature, so this is a guess, and says so. When it inflates to bytes
 * that are not recognisable, `inflated` holds them (for the message); when it does not, nothing.
 */
export async function guessBrotli(
  bytes: Uint8Array,
  cap: DecompressOptions,
): Promise<{ readonly located?: Located; readonly inflated?: Uint8Array }> {
  let plain: Uint8Array;
  try {
    plain = await getCompressor('brotli').decompressAsync(bytes, cap);
  } catch {
    return {};
  }
  const inner = plain.length === 0 ? undefined : sniff(plain);
  const format = inner === undefined ? undefined : sniffedFormats[inner];
  if (inner === undefined || format === undefined) return { inflated: plain };
  return {
    located: raw('sniff', ['brotli', inner], format, 'brotli', bytes, plain, inner === 'avro-container'),
  };
}

function raw(
  detected: 'flag' | 'sniff',
  sniffed: readonly Sniffed[],
  format: FormatName,
  compression: CompressionName,
  payload: Uint8Array,
  plain: Uint8Array,
  avroContainer = false,
  guess?: string,
): Located {
  return {
    ...(guess === undefined ? {} : { guess }),
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
