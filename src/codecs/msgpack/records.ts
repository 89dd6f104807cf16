/**
 * msgpackr's record mode as the schemaless codec uses it (`msgpackRecords: true`): msgpackr writes
 * and reads the values, and wirekit makes its integers follow the schemaless mapping of every other
 * path (keyed/encode/any-value.ts): a safe integer travels as an integer, and reads back as a
 * number; a 64-bit integer beyond the safe range reads back as a bigint.
 *
 * msgpackr by itself writes any number outside int32..uint32 as float 64, integral or not. Every
 * such integer takes nine bytes as int 64 or uint 64 too, so its output is rewritten in place: the
 * head and the eight bytes after it. (msgpackr writes -0 as the integer 0, which only a walk over
 * the value before packing could tell; that is left as msgpackr has it.) Reading, msgpackr gives
 * 64-bit forms as numbers (`int64AsType: 'number'`), exact for safe integers; where the scanner
 * found a wider one (see libraryReadsInt64), the value is read with bigints instead and the safe
 * ones turned into numbers.
 */
import { Packr } from 'msgpackr';
import { numberIfSafe } from '../keyed/decode/safe-integer.js';
import { unsupported } from '../keyed/failures.js';
import { fixedSizes, lengthWidths, readLength } from './decode/items.js';

const two32 = 0x1_0000_0000;

const options = {
  useRecords: true,
  // One-byte record ids, defined inline in each value, so every value stands alone.
  maxSharedStructures: 0,
  maxOwnStructures: 64,
  mapsAsObjects: false,
  variableMapSize: true,
  encodeUndefinedAsNil: true,
  copyBuffers: true,
} as const;

export class RecordsMode {
  private readonly packr = new Packr({ ...options, int64AsType: 'number' });
  private readonly exact = new Packr({ ...options, int64AsType: 'bigint' });

  encode(value: unknown): Uint8Array {
    let packed: Uint8Array;
    try {
      packed = this.packr.pack(value);
    } catch (error) {
      if (error instanceof RangeError && /64-bit integer/.test(error.message))
        throw unsupported(
          "a bigint is beyond MessagePack's integers (int 64 and uint 64), and MessagePack has no bignum; send it as a string.",
          error,
        );
      throw unsupported(`msgpackr cannot write the value: ${(error as Error).message}`, error);
    }
    // msgpackr hands out a Buffer over its shared working memory; callers get their own bytes.
    const out = new Uint8Array(packed);
    integersFromFloats(out);
    return out;
  }

  /** The value, for bytes the scanner checked. */
  decode(bytes: Uint8Array): unknown {
    return this.packr.unpack(bytes);
  }

  /** The value, for bytes where the scanner found an int 64 beyond the safe range. */
  decodeExactly(bytes: Uint8Array): unknown {
    return safeBigintsAsNumbers(this.exact.unpack(bytes));
  }
}

/** Rewrites every integral float 64 in msgpackr's output (which is well formed) as an integer. */
export function integersFromFloats(bytes: Uint8Array): void {
  // Rows of strings and small integers hold no float 64 at all: no walk.
  if (bytes.indexOf(0xcb) < 0) return;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const end = bytes.length;
  let pos = 0;
  while (pos < end) {
    const head = bytes[pos] as number;
    // fixint, record references, fixmap and fixarray headers, negative fixint: one byte.
    if (head < 0xa0 || head >= 0xe0) pos++;
    else if (head < 0xc0) pos += 1 + (head & 0x1f);
    else if (head === 0xcb) {
      const value = view.getFloat64(pos + 1);
      if (Number.isSafeInteger(value) && !Object.is(value, -0)) {
        // msgpackr wrote every integer in int32..uint32 as one, so this one needs 64 bits.
        const high = Math.floor(value / two32);
        bytes[pos] = value > 0 ? 0xcf : 0xd3;
        view.setInt32(pos + 1, high);
        view.setUint32(pos + 5, value - high * two32);
      }
      pos += 9;
    } else {
      const size = fixedSizes[head - 0xc0] as number;
      if (size > 0) {
        pos += size;
        continue;
      }
      const width = lengthWidths[head - 0xc0] as number;
      if (width === 0)
        pos++; // 0xc1, which no writer uses
      else if (width < 0)
        pos += 2 + (1 << (head - 0xd4)); // fixext: type byte and data (record definitions too)
      else if (head >= 0xdc)
        pos += 1 + width; // array and map headers
      else {
        const length = readLength(bytes, pos + 1, width);
        // bin and str: the data after the length; ext also has its type byte.
        pos += 1 + width + length + (head >= 0xc7 && head <= 0xc9 ? 1 : 0);
      }
    }
  }
}

/** msgpackr's value with bigints, safe integers as numbers (in place; Maps are rebuilt for their keys). */
function safeBigintsAsNumbers(value: unknown): unknown {
  if (typeof value === 'bigint') return numberIfSafe(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = safeBigintsAsNumbers(value[i]);
    return value;
  }
  if (value instanceof Map) {
    const out = new Map<unknown, unknown>();
    for (const [key, item] of value) out.set(safeBigintsAsNumbers(key), safeBigintsAsNumbers(item));
    return out;
  }
  if (value instanceof Date || ArrayBuffer.isView(value)) return value;
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) object[key] = safeBigintsAsNumbers(object[key]);
  return object;
}
