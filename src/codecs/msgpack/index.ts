/**
 * MessagePack. With a schema, wirekit's interpreter writes and reads the mapping of
 * docs/mapping/msgpack.md; without one, values follow the natural mapping of msgpackr (the library
 * beneath), read by msgpackr after wirekit's scanner has checked the bytes. Plain MessagePack by
 * default, so any implementation reads what this writes.
 */
import { Packr, Unpackr } from 'msgpackr';
import { WirekitError } from '../../errors/index.js';
import type { Codec, CodecOptions } from '../codec.js';
import { msgpackFormat } from '../compiled/msgpack.js';
import { resolveLimits } from '../limits.js';
import { type FormatKit, SelfDescribingCodec } from '../self-describing/codec.js';
import { unsupported } from '../self-describing/failures.js';
import { MsgpackEmitter } from './emitter.js';
import { NaturalReader } from './natural.js';
import { MsgpackScanner } from './scan.js';
import { MsgpackSource } from './source.js';

/** The registered type first; `application/x-msgpack` is what older services send. */
export const msgpackMediaTypes = Object.freeze(['application/msgpack', 'application/x-msgpack'] as const);

export interface MsgpackCodecOptions extends CodecOptions {
  /**
   * Schemaless only: write objects with msgpackr's record extension (each object shape's keys
   * once per value, then only values), which is smaller and faster to read, but which no other
   * MessagePack implementation understands. Use it between wirekit peers only; such a codec reads
   * only record-mode data, since positive integers 64–127 mean record references there.
   */
  readonly msgpackRecords?: boolean;
}

export function createMsgpackCodec<T = unknown>(options: MsgpackCodecOptions = {}): Codec<T> {
  const limits = resolveLimits(options.limits);
  const records = options.msgpackRecords === true;
  if (records && options.schema !== undefined) {
    // The same code resolveLimits gives for codec options that cannot work.
    throw new WirekitError(
      'WK_SCHEMA_INVALID',
      'msgpackRecords applies to schemaless codecs; a schema decides the layout itself.',
    );
  }
  const library = records
    ? new Packr({
        useRecords: true,
        // One-byte record ids, defined inline in each value, so every value stands alone.
        maxSharedStructures: 0,
        maxOwnStructures: 64,
        mapsAsObjects: false,
        variableMapSize: true,
        encodeUndefinedAsNil: true,
        copyBuffers: true,
      })
    : new Unpackr({ useRecords: false, mapsAsObjects: true, copyBuffers: true, int64AsType: 'bigint' });
  const kit: FormatKit = {
    format: 'msgpack',
    mediaType: msgpackMediaTypes[0] as string,
    streamMediaType: msgpackMediaTypes[0] as string,
    emitter: () => new MsgpackEmitter(),
    source: (decodeLimits) => new MsgpackSource(decodeLimits),
    checker: (decodeLimits) => new MsgpackScanner(decodeLimits, { utf8: true, unsafeKeys: true, records }),
    measurer: (decodeLimits) => new MsgpackScanner(decodeLimits, { utf8: false, unsafeKeys: false, records }),
    libraryDecode: (bytes) => library.unpack(bytes),
    ownDecode: (bytes) => new NaturalReader(bytes).read(),
    schemalessEncode: records ? (value) => packRecords(library as Packr, value) : undefined,
    compiled: msgpackFormat,
  };
  return new SelfDescribingCodec<T>(
    kit,
    options.schema,
    limits,
    options.validate === true,
    options.compile !== false,
  );
}

function packRecords(packr: Packr, value: unknown): Uint8Array {
  let packed: Uint8Array;
  try {
    packed = packr.pack(value);
  } catch (error) {
    throw unsupported(`msgpackr cannot write the value: ${(error as Error).message}`, error);
  }
  // msgpackr hands out a Buffer over its shared working memory; callers get their own bytes.
  return new Uint8Array(packed);
}
