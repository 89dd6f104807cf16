/**
 * Protobuf's wire read without a schema: each field's number, wire type and raw value (a varint,
 * 4 or 8 fixed bytes, a length-delimited range, a group's fields). It is the codec's own ProtobufReader
 * (reader.ts) that reads every tag, varint, length and fixed field here, so a field shown by
 * `wirekit inspect` is read by the rules, and refused with the errors, of the decoder skipping an
 * unknown field: there is one Protobuf wire reader, not one per use.
 *
 * Every read is bounded by the end of the message it is in; groups are followed at most `maxDepth`
 * levels. A problem is a WirekitError of the protobuf format at its offset.
 */
import { WirekitError } from '../../../errors/index.js';
import { malformed, truncated } from '../../core/errors.js';
import { defaultDecodeLimits } from '../../core/limits.js';
import { FIXED32, FIXED64, LEN, START_GROUP, VARINT } from '../layout.js';
import { ProtobufReader } from './reader.js';

export type WireField =
  | { readonly number: number; readonly wireType: typeof VARINT; readonly value: bigint }
  | {
      readonly number: number;
      readonly wireType: typeof FIXED64 | typeof FIXED32;
      readonly bytes: Uint8Array;
    }
  | { readonly number: number; readonly wireType: typeof LEN; readonly from: number; readonly to: number }
  | { readonly number: number; readonly wireType: typeof START_GROUP; readonly fields: readonly WireField[] };

/**
 * The fields of the message in bytes `from` to `to`, which sits `depth` levels down; groups nest
 * at most `maxDepth` levels below the top. Positions in the fields (`from`, `to`) index `bytes`.
 */
export function readWireFields(
  bytes: Uint8Array,
  from: number,
  to: number,
  depth: number,
  maxDepth: number,
): WireField[] {
  const reader = readerOf(bytes, from, to);
  return ofProtobuf(() => fieldsUntil(reader, depth, maxDepth, undefined));
}

/** The varints of a packed repeated field whose bytes are `from` to `to`. */
export function readPackedVarints(bytes: Uint8Array, from: number, to: number): bigint[] {
  const reader = readerOf(bytes, from, to);
  return ofProtobuf(() => {
    const values: bigint[] = [];
    while (reader.pos < to) values.push(varint(reader));
    return values;
  });
}

function readerOf(bytes: Uint8Array, from: number, to: number): ProtobufReader {
  // The limits are not consulted: the walk counts its own depth and allocates only the fields.
  const reader = new ProtobufReader(bytes, defaultDecodeLimits);
  reader.pos = from;
  reader.end = to;
  return reader;
}

/** The fields up to the reader's end, or up to the end key of `group` when one is open. */
function fieldsUntil(
  reader: ProtobufReader,
  depth: number,
  maxDepth: number,
  group: number | undefined,
): WireField[] {
  const fields: WireField[] = [];
  while (reader.pos < reader.end) {
    const tagAt = reader.pos;
    const tag = reader.tag();
    const wireType = tag & 7;
    const number = tag >>> 3;
    switch (wireType) {
      case VARINT:
        fields.push({ number, wireType, value: varint(reader) });
        break;
      case FIXED64:
      case FIXED32: {
        const start = reader.pos;
        reader.skip(wireType, number);
        fields.push({ number, wireType, bytes: reader.buf.subarray(start, reader.pos) });
        break;
      }
      case LEN: {
        const length = reader.length('a length-delimited field');
        const start = reader.pos;
        reader.pos += length;
        fields.push({ number, wireType, from: start, to: reader.pos });
        break;
      }
      case START_GROUP:
        // Counted here rather than against the decode limits: a group is a level of what is shown.
        if (depth >= maxDepth) throw malformed(tagAt, `groups nest deeper than ${maxDepth}`);
        fields.push({ number, wireType, fields: fieldsUntil(reader, depth + 1, maxDepth, number) });
        break;
      default: // END_GROUP: tag() refuses the wire types that do not exist
        if (group === undefined) throw malformed(tagAt, `an end-group key for field ${number} has no start`);
        if (group !== number) throw malformed(tagAt, `an end-group key for field ${number} does not match`);
        return fields;
    }
  }
  if (group !== undefined) throw truncated(reader.pos, 'a group');
  return fields;
}

/** A varint of up to 64 bits (the ProtobufReader keeps the high 32 in `hi`). */
function varint(reader: ProtobufReader): bigint {
  const low = reader.varint64();
  return (BigInt(reader.hi) << 32n) | BigInt(low);
}

/** Runs a read, giving its failure the format that raised it. */
function ofProtobuf<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof WirekitError) || error.format !== undefined) throw error;
    throw new WirekitError(error.code, error.message, {
      offset: error.offset,
      format: 'protobuf',
      cause: error,
    });
  }
}

export { FIXED32, FIXED64, LEN, START_GROUP, VARINT };
