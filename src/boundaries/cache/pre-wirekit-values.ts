/**
 * Readers of cache values written before the cache used wirekit (by JSON.stringify, @msgpack/msgpack,
 * msgpackr, snappy or Python), so a cache moves to the envelope without a flush: bytes without an
 * envelope go to these readers, in the order given, until the old values expire or are overwritten.
 * The public names call them legacy (the `legacy` option, LegacyReader, the `legacy-hit` outcome):
 * legacy to the application, not wirekit code of an older day. What each name reads, and what a
 * schema asks of it: docs/cache.md, "Legacy values". pre-wirekit-msgpack.ts bridges MessagePack.
 */

import type { Codec } from '../../codecs/core/codec.js';
import { checkInputSize, type DecodeLimits, resolveLimits } from '../../codecs/core/limits.js';
import { createJsonCodec } from '../../codecs/json/index.js';
import { getCompressor } from '../../compression/index.js';
import { isWirekitError, WirekitError } from '../../errors/index.js';
import { assert, type Schema } from '../../schema/index.js';
import { resolveRatio } from '../../util/decompression-ratio.js';
import { plainBytes } from '../../util/plain-bytes.js';
import { PreWirekitMsgpack } from './pre-wirekit-msgpack.js';

export type LegacyFormat = 'json' | 'json+snappy' | 'msgpack' | 'msgpack+snappy';

/** A user's own reader: return the value, or throw when the bytes are not its format. */
export type LegacyDecode = (bytes: Uint8Array) => unknown;

export type LegacySpec =
  | LegacyFormat
  | LegacyDecode
  | { readonly name: string; readonly decode: LegacyDecode };

export interface LegacyReader {
  /** The format's name ('json+snappy'), or the user reader's: what metrics and `inspect` report. */
  readonly name: string;
  /** The value, or a WirekitError saying why these bytes are not this reader's. */
  read(bytes: Uint8Array): unknown;
}

export interface LegacyReaderOptions {
  /** The type of the values: each reader returns a value of it or fails. */
  readonly schema?: Schema;
  /** Decode limits (the codecs' defaults otherwise), applied to the decompressed bytes. */
  readonly limits?: Partial<DecodeLimits>;
  /** The snappy readers' cap on decompressed bytes (default: the limits' maxInputBytes). */
  readonly maxDecompressedBytes?: number;
  /** How many times its size a snappy block may inflate to (default 1,000; see compression). */
  readonly maxDecompressionRatio?: number;
}

export const legacyFormats: readonly LegacyFormat[] = Object.freeze([
  'json',
  'json+snappy',
  'msgpack',
  'msgpack+snappy',
]);

/**
 * The readers for `specs`, in their order. Refuses, here rather than on the first read, a name that
 * is no legacy format, a spec that is not a function, and limits or caps that cannot work
 * (WK_OPTIONS_INVALID).
 */
export function legacyReaders(
  specs: readonly LegacySpec[],
  options: LegacyReaderOptions = {},
): readonly LegacyReader[] {
  if (!Array.isArray(specs)) throw invalid(`legacy takes an array of readers, got ${describe(specs)}.`);
  const limits = resolveLimits(options.limits);
  const caps = {
    maxDecompressedBytes: options.maxDecompressedBytes ?? limits.maxInputBytes,
    maxDecompressionRatio: resolveRatio(options.maxDecompressionRatio),
  };
  if (!Number.isSafeInteger(caps.maxDecompressedBytes) || caps.maxDecompressedBytes < 0)
    throw invalid(
      `maxDecompressedBytes must be a non-negative integer, got ${String(caps.maxDecompressedBytes)}.`,
    );
  const { schema } = options;
  const formats = new Formats(schema, limits);
  return Object.freeze(
    specs.map((spec): LegacyReader => {
      if (typeof spec === 'string') {
        if (!isLegacyFormat(spec))
          throw invalid(
            `${JSON.stringify(spec)} is no legacy format; use ${legacyFormats.join(', ')} or a function.`,
          );
        const decode = spec.startsWith('json') ? formats.json() : formats.msgpack();
        return Object.freeze({
          name: spec,
          read: spec.endsWith('+snappy')
            ? (bytes: Uint8Array) => decode(unsnappy(bytes, caps))
            : (bytes: Uint8Array) => decode(checkedBytes(bytes)),
        });
      }
      if (typeof spec === 'function')
        return userReader(spec.name === '' ? 'custom' : spec.name, spec, schema, limits);
      if (typeof spec === 'object' && spec !== null && typeof spec.decode === 'function') {
        if (typeof spec.name !== 'string' || spec.name === '')
          throw invalid('a legacy reader given as { name, decode } needs a name (for metrics and errors).');
        return userReader(spec.name, spec.decode, schema, limits);
      }
      throw invalid(
        `a legacy reader is a format name, a function or { name, decode }, got ${describe(spec)}.`,
      );
    }),
  );
}

/** The JSON and MessagePack readers, made once for all the specs that use them. */
class Formats {
  private jsonCodec: Codec<unknown> | undefined;
  private msgpackReader: PreWirekitMsgpack | undefined;

  constructor(
    private readonly schema: Schema | undefined,
    private readonly limits: DecodeLimits,
  ) {}

  json(): (bytes: Uint8Array) => unknown {
    if (this.jsonCodec === undefined) {
      // Fields the schema no longer has are dropped, as the MessagePack mapping skips them: a value
      // written by an older app is still a value of the type it is read as.
      this.jsonCodec = createJsonCodec({ schema: this.schema, limits: this.limits, unknownKeys: 'ignore' });
    }
    const codec = this.jsonCodec;
    return (bytes) => codec.decode(bytes);
  }

  msgpack(): (bytes: Uint8Array) => unknown {
    if (this.msgpackReader === undefined)
      this.msgpackReader = new PreWirekitMsgpack(this.schema, this.limits);
    const reader = this.msgpackReader;
    return (bytes) => reader.read(bytes);
  }
}

/** Refuses anything but bytes, and reads a Buffer as the plain Uint8Array over its memory. */
function checkedBytes(bytes: Uint8Array): Uint8Array {
  checkBytes(bytes);
  return plainBytes(bytes);
}

/** One raw snappy block, decompressed within the caps (checked against its declared length first). */
function unsnappy(
  bytes: Uint8Array,
  caps: { readonly maxDecompressedBytes: number; readonly maxDecompressionRatio: number },
): Uint8Array {
  return getCompressor('snappy').decompress(bytes, caps);
}

function userReader(
  name: string,
  decode: LegacyDecode,
  schema: Schema | undefined,
  limits: DecodeLimits,
): LegacyReader {
  return Object.freeze({
    name,
    read(bytes: Uint8Array): unknown {
      checkBytes(bytes);
      checkInputSize(bytes, limits);
      let value: unknown;
      try {
        value = decode(bytes);
      } catch (error) {
        if (isWirekitError(error)) throw error;
        // The contract: a reader throws when the bytes are not its format.
        throw new WirekitError(
          'WK_DECODE_MALFORMED',
          `the legacy reader ${name} did not read the value: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
      if (isThenable(value)) {
        // A Promise would be cached and returned as if it were the value.
        throw invalid(`the legacy reader ${name} returned a Promise; legacy readers are synchronous.`);
      }
      if (value === undefined) {
        throw new WirekitError(
          'WK_DECODE_MALFORMED',
          `the legacy reader ${name} returned undefined, which a cache cannot tell from a miss; throw when the bytes are not its format.`,
        );
      }
      // A user's value is held to the schema as every decoder's is (WK_VALIDATION_FAILED, with every issue).
      if (schema !== undefined) assert(schema, value, { maxDepth: limits.maxDepth });
      return value;
    },
  });
}

/** Refuses anything but bytes, which a store always hands over (a string would be read as UTF-16 code units). */
function checkBytes(bytes: unknown): void {
  if (!(bytes instanceof Uint8Array))
    throw invalid(`a legacy reader reads a Uint8Array, got ${describe(bytes)}.`);
}

function isLegacyFormat(name: string): name is LegacyFormat {
  return (legacyFormats as readonly string[]).includes(name);
}

function isThenable(value: unknown): boolean {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function invalid(message: string): WirekitError {
  return new WirekitError('WK_OPTIONS_INVALID', message);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? JSON.stringify(value) : `a ${typeof value}`;
}
