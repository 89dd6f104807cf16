/**
 * The self-describing envelope: a few bytes in front of a payload that say how to read it, so a
 * cache or a stream can change its format or compression later without a flush — every reader
 * learns from each payload how it was written.
 *
 *   offset  size  field
 *   0       3     magic 0x89 'W' 'K'  (0x89 is not ASCII, so no JSON or text starts this way)
 *   3       1     version (1)
 *   4       1     format id (formatIds below)
 *   5       1     compression id (see src/compression: none 0, snappy 1, lz4 2, zstd 3, gzip 4, brotli 5)
 *   6       1     flags: bit 0 = a schema fingerprint follows; other bits must be 0 in version 1
 *   7       8     schema fingerprint (only with flag bit 0)
 *   7 or 15 …     payload
 *
 * A reader refuses a version it does not know (WK_ENVELOPE_VERSION) rather than guess, and unknown
 * ids or flag bits (WK_ENVELOPE_INVALID).
 */
import type { FormatName } from '../codecs/core/codec.js';
import { compressors } from '../compression/index.js';
import { WirekitError } from '../errors/index.js';

const envelopeMagic = Object.freeze([0x89, 0x57, 0x4b]);
export const envelopeVersion = 1;
const fingerprintFlag = 0b1;
export const fingerprintBytes = 8;

/** Stable on the wire: never renumber, only append. */
export const formatIds: Readonly<Record<FormatName, number>> = Object.freeze({
  json: 1,
  msgpack: 2,
  cbor: 3,
  protobuf: 4,
  avro: 5,
  flatbuffers: 6,
  arrow: 7,
});

const formatsById = new Map<number, FormatName>(
  Object.entries(formatIds).map(([name, id]) => [id, name as FormatName]),
);

export interface EnvelopeHeader {
  readonly version: number;
  readonly format: FormatName;
  readonly compressionId: number;
  /** The first 8 bytes of the writer's schema fingerprint, when it wrote one. */
  readonly fingerprint: Uint8Array | undefined;
}

export function hasEnvelope(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0x89 && bytes[1] === 0x57 && bytes[2] === 0x4b;
}

export function writeEnvelope(header: Omit<EnvelopeHeader, 'version'>, payload: Uint8Array): Uint8Array {
  const { fingerprint } = header;
  if (fingerprint !== undefined && fingerprint.length !== fingerprintBytes) {
    throw new WirekitError(
      'WK_ENVELOPE_INVALID',
      `a fingerprint has ${fingerprintBytes} bytes, not ${fingerprint.length}.`,
    );
  }
  const headerLength = 7 + (fingerprint === undefined ? 0 : fingerprintBytes);
  const out = new Uint8Array(headerLength + payload.length);
  out.set(envelopeMagic, 0);
  out[3] = envelopeVersion;
  out[4] = formatIds[header.format];
  out[5] = header.compressionId;
  out[6] = fingerprint === undefined ? 0 : fingerprintFlag;
  if (fingerprint !== undefined) out.set(fingerprint, 7);
  out.set(payload, headerLength);
  return out;
}

export function readEnvelope(bytes: Uint8Array): { header: EnvelopeHeader; payload: Uint8Array } {
  if (!hasEnvelope(bytes))
    throw invalid('the bytes do not start with the wirekit envelope magic (89 57 4B)', 0);
  if (bytes.length < 7) throw invalid('the envelope header is truncated', bytes.length);
  const version = bytes[3] as number;
  // Version 0 was never written: a header that says so is damaged, not from a newer wirekit.
  if (version === 0) throw invalid('envelope version 0 does not exist', 3);
  if (version !== envelopeVersion) {
    throw new WirekitError(
      'WK_ENVELOPE_VERSION',
      `envelope version ${version} was written by a newer wirekit; this one reads version ${envelopeVersion}.`,
      { offset: 3 },
    );
  }
  const format = formatsById.get(bytes[4] as number);
  if (format === undefined) throw invalid(`unknown format id ${bytes[4]}`, 4);
  const compressionId = bytes[5] as number;
  if (!compressors.some((compressor) => compressor.id === compressionId)) {
    throw invalid(
      `unknown compression id ${compressionId} (this wirekit has ids 0-${compressors.length - 1})`,
      5,
    );
  }
  const flags = bytes[6] as number;
  if ((flags & ~fingerprintFlag) !== 0) throw invalid(`unknown flag bits ${flags.toString(2)}`, 6);
  const hasFingerprint = (flags & fingerprintFlag) !== 0;
  const headerLength = 7 + (hasFingerprint ? fingerprintBytes : 0);
  if (bytes.length < headerLength) throw invalid('the envelope header is truncated', bytes.length);
  return {
    header: {
      version,
      format,
      compressionId,
      fingerprint: hasFingerprint ? bytes.slice(7, 7 + fingerprintBytes) : undefined,
    },
    payload: bytes.subarray(headerLength),
  };
}

function invalid(message: string, offset: number): WirekitError {
  return new WirekitError('WK_ENVELOPE_INVALID', `${message}.`, { offset });
}
