/**
 * MessagePack as the libraries wrote it before wirekit: @msgpack/msgpack's `encode` and msgpackr's
 * `pack`, of a value as the app held it or after a JSON round trip (`JSON.parse(JSON.stringify(v))`,
 * which turns Dates into ISO text first). wirekit's own codecs read nearly all of it; this module
 * bridges the rest, and only the rest:
 *
 * - msgpackr writes `undefined` (and functions) as its own extension, fixext 1 of type 0 (`d4 00
 *   00`), which every other reader, wirekit's included, refuses as an unknown extension. Where a
 *   read fails and the bytes hold such items, they are read as `nil`, which is how @msgpack/msgpack
 *   writes `undefined` (so without a schema they come back as null; with one, an optional field
 *   holding one is absent).
 * - With a schema, the schema's MessagePack codec reads, compiled and under every limit, with two
 *   more spellings where the mapping has another (createLegacyMsgpackCodec): a timestamp as RFC 3339
 *   text (what the JSON round trip left of a Date) and an integer as an integral float (msgpackr
 *   writes integers beyond 32 bits as float 64). Nothing else is reinterpreted: the value read is
 *   of the schema's type, or the read fails.
 */
import type { Codec } from '../../codecs/core/codec.js';
import type { DecodeLimits } from '../../codecs/core/limits.js';
import { fixedSizes, lengthWidths, readLength } from '../../codecs/msgpack/decode/items.js';
import { createLegacyMsgpackCodec, createMsgpackCodec } from '../../codecs/msgpack/index.js';
import { isWirekitError } from '../../errors/index.js';
import type { Schema } from '../../schema/types.js';

/** Reads one MessagePack value (no bytes after it) as the pre-wirekit libraries wrote it. */
export class PreWirekitMsgpack {
  private readonly codec: Codec<unknown>;

  constructor(schema: Schema | undefined, limits: DecodeLimits) {
    this.codec =
      schema === undefined ? createMsgpackCodec({ limits }) : createLegacyMsgpackCodec({ schema, limits });
  }

  read(bytes: Uint8Array): unknown {
    try {
      return this.codec.decode(bytes);
    } catch (error) {
      // Without a schema msgpackr's undefined is an unknown extension; with one, it is usually met
      // where a field's value should be, a mismatch. Either way it is read again only if it is there.
      const retry =
        (isWirekitError(error, 'WK_DECODE_UNKNOWN_EXTENSION') ||
          isWirekitError(error, 'WK_DECODE_SCHEMA_MISMATCH')) &&
        holdsUndefined(bytes);
      if (!retry) throw error;
    }
    return this.codec.decode(withUndefinedAsNil(bytes));
  }
}

/** Whether msgpackr's undefined (`d4 00 00`) starts at `pos`. */
function isUndefinedAt(bytes: Uint8Array, pos: number): boolean {
  return bytes[pos] === 0xd4 && bytes[pos + 1] === 0 && bytes[pos + 2] === 0;
}

/** Whether an item of `bytes` is msgpackr's undefined (found as withUndefinedAsNil finds them). */
function holdsUndefined(bytes: Uint8Array): boolean {
  let pos = 0;
  while (pos < bytes.length) {
    const size = ownSize(bytes, pos);
    if (size === 0) return false;
    if (size === 3 && isUndefinedAt(bytes, pos)) return true;
    pos += size;
  }
  return false;
}

/**
 * A copy of `bytes` with every msgpackr undefined item (`d4 00 00`) replaced by `nil` (`c0`). A
 * MessagePack container counts items, not bytes, so one item may shrink without touching the rest.
 * Items are found by their head bytes in one pass, with no stack: a container's header is followed
 * by its items, so every item starts where the previous one's own bytes end. The walk stops at a
 * byte that starts no item or at the end of the input; what it did not reach is copied unchanged,
 * for the decoder to refuse.
 */
function withUndefinedAsNil(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  let written = 0;
  let copiedTo = 0;
  let pos = 0;
  while (pos < bytes.length) {
    const size = ownSize(bytes, pos);
    if (size === 0) break;
    if (size === 3 && isUndefinedAt(bytes, pos)) {
      out.set(bytes.subarray(copiedTo, pos), written);
      written += pos - copiedTo;
      out[written++] = 0xc0;
      copiedTo = pos + 3;
    }
    pos += size;
  }
  out.set(bytes.subarray(copiedTo), written);
  written += bytes.length - copiedTo;
  return out.subarray(0, written);
}

/**
 * The bytes the item at `pos` takes by itself: all of a scalar, string, byte string or extension,
 * only the header of an array or map. 0 where no item can start (0xc1) or its length is cut off.
 */
function ownSize(bytes: Uint8Array, pos: number): number {
  const head = bytes[pos] as number;
  if (head < 0xa0 || head >= 0xe0) return 1; // fixint, fixmap, fixarray, negative fixint
  if (head < 0xc0) return 1 + (head & 0x1f); // fixstr
  const fixed = fixedSizes[head - 0xc0] as number;
  if (fixed !== 0) return fixed;
  const width = lengthWidths[head - 0xc0] as number;
  if (width < 0) return 2 + (1 << (head - 0xd4)); // fixext: head, type, data
  if (width === 0 || pos + 1 + width > bytes.length) return 0;
  if (head >= 0xdc) return 1 + width; // array 16/32, map 16/32: the header
  const length = readLength(bytes, pos + 1, width);
  return head >= 0xc7 && head <= 0xc9 ? 2 + width + length : 1 + width + length; // ext has a type byte
}
