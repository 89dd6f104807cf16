/**
 * MessagePack items that the scanner checks beyond their head byte: strings (length, UTF-8, unsafe
 * keys), msgpackr's record definitions, and the timestamp extension; and the tables and errors the
 * scanner and the source share.
 */
import { WirekitError } from '../../../errors/index.js';
import { stringCost } from '../../core/budget.js';
import { malformed, tooLong } from '../../core/errors.js';
import { KeyedScanItems, type KeyedScanOptions } from '../../keyed/decode/scan-items.js';

export interface MsgpackScanOptions extends KeyedScanOptions {
  /** msgpackr's record extension: 0x40–0x7f are record references and ext 0x72 defines records. */
  readonly records: boolean;
}

/** A record definition is msgpackr's one-byte-id form: fixext 1, type 0x72 ('r'), then the id. */
export const recordType = 0x72;

export abstract class MsgpackItems extends KeyedScanItems<MsgpackScanOptions> {
  /** Field counts of the records defined so far in this value, by id; -1 where undefined. */
  protected readonly recordSizes = new Int32Array(64);
  /** Where each record defined in the last scan has its array of keys, by id; -1 where none was. */
  readonly recordDefinedAt = new Int32Array(64).fill(-1);

  /** Checks a string of `length` bytes at `start`; returns where it ends, or -1 when cut. */
  protected text(bytes: Uint8Array, start: number, end: number, length: number, key: boolean): number {
    const limit = this.limits.maxStringBytes;
    if (length > limit) throw tooLong(start, length, limit, 'string');
    const stop = start + length;
    if (stop > end) return this.ended(end);
    this.checkText(bytes, start, stop, key);
    this.charged += stringCost(length);
    return stop;
  }

  /** A record definition's array of keys (strings); returns where it ends, or -1 when cut. */
  protected record(bytes: Uint8Array, pos: number, end: number, id: number): number {
    if (pos >= end) return this.ended(end);
    const head = bytes[pos] as number;
    let count: number;
    let at = pos + 1;
    if (head >= 0x90 && head < 0xa0) count = head & 0x0f;
    else if (head === 0xdc || head === 0xdd) {
      const width = head === 0xdc ? 2 : 4;
      if (at + width > end) return this.ended(end);
      count = readLength(bytes, at, width);
      at += width;
    } else throw malformed(pos, 'a record definition without its array of keys');
    if (count > end - at) return this.ended(end);
    for (let i = 0; i < count; i++) {
      if (at >= end) return this.ended(end);
      const keyHead = bytes[at] as number;
      let length: number;
      if (keyHead >= 0xa0 && keyHead < 0xc0) {
        length = keyHead & 0x1f;
        at += 1;
      } else if (keyHead === 0xd9) {
        if (at + 1 >= end) return this.ended(end);
        length = bytes[at + 1] as number;
        at += 2;
      } else throw malformed(at, 'a record key that is not a short string');
      const stop = this.text(bytes, at, end, length, true);
      if (stop < 0) return stop;
      at = stop;
    }
    this.recordSizes[id] = count;
    this.recordDefinedAt[id] = pos;
    return at;
  }
}

/** Bytes taken by the types 0xc0–0xdf that have a fixed size (0 for the rest). */
export const fixedSizes = [
  1,
  0,
  1,
  1,
  0,
  0,
  0,
  0,
  0,
  0,
  5,
  9,
  2,
  3,
  5,
  9, // c0–cf: nil, (c1), false, true, bin/ext, floats, uints
  2,
  3,
  5,
  9,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0, // d0–df: ints, fixext, str 8–32, arrays, maps
];

/** Width of the length field of the variable-size types 0xc0–0xdf (-1 for fixext: no length). */
export const lengthWidths = [
  0, 0, 0, 0, 1, 2, 4, 1, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, 1, 2, 4, 2, 4, 2, 4,
];

/** A big-endian unsigned length of 1, 2 or 4 bytes. */
export function readLength(bytes: Uint8Array, at: number, width: number): number {
  if (width === 1) return bytes[at] as number;
  if (width === 2) return ((bytes[at] as number) << 8) | (bytes[at + 1] as number);
  return (
    (bytes[at] as number) * 0x100_0000 +
    (((bytes[at + 1] as number) << 16) | ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number))
  );
}

export function unknownExtension(offset: number, type: number): WirekitError {
  const signed = type > 127 ? type - 256 : type;
  return new WirekitError(
    'WK_DECODE_UNKNOWN_EXTENSION',
    `extension type ${signed} is not one wirekit reads (only the timestamp, -1) (at byte ${offset}).`,
    { offset },
  );
}

const maxDateMillis = 8.64e15;

/** The timestamp extension: 4, 8 or 12 bytes, nanoseconds below 10^9, within a Date's range. */
export function checkTimestamp(bytes: Uint8Array, at: number, length: number, offset: number): void {
  if (length === 4) return;
  if (length !== 8 && length !== 12) {
    throw malformed(offset, `a timestamp of ${length} bytes (4, 8 or 12 expected)`);
  }
  const first = readLength(bytes, at, 4);
  if ((length === 8 ? Math.floor(first / 4) : first) >= 1_000_000_000) {
    throw malformed(offset, 'a timestamp has 10^9 nanoseconds or more');
  }
  if (length === 12) {
    const high = readLength(bytes, at + 4, 4);
    const seconds =
      (high >= 0x8000_0000 ? high - 0x1_0000_0000 : high) * 0x1_0000_0000 + readLength(bytes, at + 8, 4);
    // msgpackr builds the Date from this sum, and a Date holds ±8.64e15 ms.
    if (!(Math.abs(Math.trunc(first / 1e6 + seconds * 1000)) <= maxDateMillis)) {
      throw malformed(offset, 'a timestamp beyond the range of a Date');
    }
  }
}

/**
 * Whether msgpackr reads the 8-byte timestamp at `at` (its data, after the type byte) as the same
 * Date as wirekit's reader. msgpackr adds nanoseconds / 1e6 to seconds * 1000 in floating point,
 * which can round up into the next millisecond (.999999999 s becomes the next second); wirekit
 * floors to the millisecond. Whole-millisecond stamps, which is what a JavaScript Date writes, add
 * exactly both ways, so only the others need wirekit's reader. The test computes both results
 * (msgpackr's expression as msgpackr writes it) instead of predicting when they differ.
 */
export function libraryReadsTimestamp64(bytes: Uint8Array, at: number): boolean {
  // The top 30 bits are the nanoseconds, the low 34 the seconds. Integer operations only on the
  // common path: this runs for every Date of a value.
  const nanos =
    ((bytes[at] as number) << 22) |
    ((bytes[at + 1] as number) << 14) |
    ((bytes[at + 2] as number) << 6) |
    ((bytes[at + 3] as number) >> 2);
  if (nanos % 1_000_000 === 0) return true;
  const millis = (((bytes[at + 3] as number) & 3) * 0x1_0000_0000 + readLength(bytes, at + 4, 4)) * 1000;
  // new Date(x) keeps Math.trunc(x); x is positive and far inside a Date's range here.
  return Math.trunc(nanos / 1_000_000 + millis) === millis + Math.floor(nanos / 1_000_000);
}

/**
 * Whether msgpackr, with `int64AsType: 'number'`, reads the int 64 or uint 64 whose head is at `at`
 * exactly: it sums the halves as a float, which is exact for safe integers (what every wirekit
 * reader gives as a number) and rounds the rest, which wirekit's reader gives as bigints.
 */
export function libraryReadsInt64(bytes: Uint8Array, at: number): boolean {
  const high = readLength(bytes, at + 1, 4);
  // uint 64, and int 64 from 0: below 2^53.
  if (high < 0x20_0000) return true;
  if (bytes[at] !== 0xd3 || high < 0x8000_0000) return false;
  // A negative int 64 from -(2^53 - 1): the high half from -2^21 (0xffe00000), but not -2^53 itself.
  return high > 0xffe0_0000 || (high === 0xffe0_0000 && readLength(bytes, at + 5, 4) !== 0);
}

export function isInteger(head: number): boolean {
  return head < 0x80 || head >= 0xe0 || (head >= 0xcc && head <= 0xd3);
}

/** What a head byte starts, for mismatch messages. */
export function typeName(head: number): string {
  if (head < 0x80 || head >= 0xe0 || (head >= 0xcc && head <= 0xd3)) return 'an integer';
  if (head < 0x90 || head === 0xde || head === 0xdf) return 'a map';
  if (head < 0xa0 || head === 0xdc || head === 0xdd) return 'an array';
  if (head < 0xc0 || (head >= 0xd9 && head <= 0xdb)) return 'a string';
  if (head === 0xc0) return 'nil';
  if (head === 0xc2 || head === 0xc3) return 'a boolean';
  if (head === 0xca || head === 0xcb) return 'a float';
  if (head >= 0xc4 && head <= 0xc6) return 'a byte string';
  if (head === 0xc1) return 'the never-used byte 0xc1';
  return 'an extension';
}
