/**
 * The codecs the server writes error records with, one per format, made at once from the registry
 * (the client loads its own on first use, so that a browser page fetches no other format's code).
 */
import type { Codec, FormatName } from '../../codecs/core/codec.js';
import { createCodec } from '../../codecs/registry.js';
import { errorFormatOf, HttpError } from './wire-error.js';

const errorCodecs = new Map<FormatName, Codec<HttpError>>();

/** The codec that writes and reads error records for a client of `format` (JSON for Arrow). */
export function errorCodecFor(format: FormatName): Codec<HttpError> {
  const written = errorFormatOf(format);
  let codec = errorCodecs.get(written);
  if (codec === undefined) {
    codec = createCodec(written, { schema: HttpError });
    errorCodecs.set(written, codec);
  }
  return codec;
}
