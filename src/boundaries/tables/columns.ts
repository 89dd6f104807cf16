/**
 * The columns of the record batch being assembled: Arrow buffers that a table source fills in
 * bulk (DuckDB hands over a whole vector of a chunk at a time) or value by value (PostgreSQL's
 * binary rows), and that become apache-arrow Data when the batch is full. Every engine fills the
 * same builders, so two engines that return the same table return the same batches: the same
 * types, the same null bitmaps, the same choice of dictionary encoding.
 *
 * Buffers are sized for a whole batch up front (the batch's row count is known), so appending
 * never reallocates, except the bytes of strings, which grow by doubling.
 */

import type { Data } from 'apache-arrow';
import {
  Binary,
  Bool,
  type DataType,
  DateDay,
  Dictionary,
  Field,
  Float32,
  Float64,
  Int32,
  makeVector,
  Timestamp,
  Utf8,
} from 'apache-arrow';
import { newData } from '../../codecs/arrow/data.js';
import { arrowIntType, arrowTimeUnits } from '../../schema/export/arrow-types.js';

/** The column types every table source produces, named by what they hold. */
export type ColumnType =
  | { readonly kind: 'bool' }
  | { readonly kind: 'int'; readonly bits: 8 | 16 | 32 | 64; readonly signed: boolean }
  | { readonly kind: 'float'; readonly bits: 32 | 64 }
  /** Days since the Unix epoch. */
  | { readonly kind: 'date' }
  /** An integer count of `unit` since the Unix epoch; `timezone` set when the instant is absolute. */
  | { readonly kind: 'timestamp'; readonly unit: 's' | 'ms' | 'us' | 'ns'; readonly timezone?: string }
  | { readonly kind: 'utf8' }
  | { readonly kind: 'binary' };

/** The Arrow type of a fixed-width column type, and its width in bytes. */
function fixedType(type: ColumnType): { readonly arrow: DataType; readonly width: number } | undefined {
  switch (type.kind) {
    case 'int': {
      return { arrow: arrowIntType(type.bits, type.signed), width: type.bits / 8 };
    }
    case 'float':
      return type.bits === 32 ? { arrow: new Float32(), width: 4 } : { arrow: new Float64(), width: 8 };
    case 'date':
      return { arrow: new DateDay(), width: 4 };
    case 'timestamp':
      return { arrow: new Timestamp(arrowTimeUnits[type.unit], type.timezone ?? null), width: 8 };
    default:
      return undefined;
  }
}

/**
 * A string column is dictionary-encoded when its first batch holds at most this share of distinct
 * values: the indices (4 bytes a row) and one copy of each value then cost less than a copy of
 * every value, and a reader compares or groups by index. The choice is made once, on the first
 * batch, because a stream's schema cannot change type halfway; later batches each carry a
 * dictionary of their own (a replacement dictionary), so memory stays bounded by the batch.
 */
export const dictionaryShare = 0.5;

/** Dictionary ids, unique within one stream's schema. */
let nextDictionaryId = 0;

/** What every builder keeps: the validity bitmap of the batch being assembled. */
abstract class Column {
  length = 0;
  protected nullCount = 0;
  protected validity: Uint8Array;

  constructor(
    readonly name: string,
    protected readonly capacity: number,
  ) {
    this.validity = new Uint8Array(Math.ceil(capacity / 8));
  }

  /** The Arrow field of this column (after the first batch: a string column may have become a dictionary). */
  abstract field(): Field;
  /** The batch's Data, and fresh buffers for the next batch. */
  abstract finish(): Data;

  /**
   * Marks `rows` rows from `this.length` on as valid or null from a bitmap in Arrow's bit order
   * (DuckDB's validity masks are the same: bit i of little-endian 64-bit words, 1 = valid), or all
   * valid when `bits` is null. Does not advance `length`.
   */
  protected copyValidity(bits: Uint8Array | null, from: number, rows: number): void {
    const at = this.length;
    if (bits === null) {
      setBits(this.validity, at, rows);
      return;
    }
    let i = 0;
    if ((at & 7) === 0 && (from & 7) === 0) {
      // Both on a byte boundary (the common case: whole chunks of 2,048 rows): whole bytes at once.
      const whole = rows >>> 3;
      this.validity.set(bits.subarray(from >>> 3, (from >>> 3) + whole), at >>> 3);
      i = whole << 3;
    }
    for (; i < rows; i++) {
      const source = from + i;
      this.setValid(at + i, (bits[source >>> 3] as number) & (1 << (source & 7)));
    }
    this.nullCount += rows - countBits(this.validity, at, rows);
  }

  private setValid(row: number, valid: number): void {
    if (valid !== 0) this.validity[row >>> 3] = (this.validity[row >>> 3] as number) | (1 << (row & 7));
  }

  /** One null value. */
  appendNull(): void {
    this.markNull();
    this.length++;
  }

  /** One null at `this.length` (the caller advances `length`). */
  protected markNull(): void {
    this.nullCount++;
  }

  protected markValid(): void {
    const row = this.length;
    this.validity[row >>> 3] = (this.validity[row >>> 3] as number) | (1 << (row & 7));
  }

  protected takeValidity(): { nullCount: number; nullBitmap: Uint8Array } {
    const taken = {
      nullCount: this.nullCount,
      nullBitmap: this.validity.subarray(0, Math.ceil(this.length / 8)),
    };
    this.validity = new Uint8Array(Math.ceil(this.capacity / 8));
    this.nullCount = 0;
    this.length = 0;
    return taken;
  }
}

/** Integers, floats, dates and timestamps: `width` bytes a value, little-endian, as Arrow stores them. */
export class FixedWidthColumn extends Column {
  private values: Uint8Array;
  private view: DataView;

  constructor(
    name: string,
    capacity: number,
    private readonly arrow: DataType,
    readonly width: number,
  ) {
    super(name, capacity);
    this.values = new Uint8Array(capacity * width);
    this.view = new DataView(this.values.buffer);
  }

  field(): Field {
    return new Field(this.name, this.arrow, true);
  }

  /**
   * Rows [from, from + rows) of values already in Arrow's layout (a DuckDB vector), with their
   * validity bitmap (null: all valid).
   */
  appendBulk(values: Uint8Array, validity: Uint8Array | null, from: number, rows: number): void {
    this.copyValidity(validity, from, rows);
    const width = this.width;
    this.values.set(values.subarray(from * width, (from + rows) * width), this.length * width);
    this.length += rows;
  }

  /** One value of `width` bytes stored big-endian (network order, as PostgreSQL sends it). */
  appendBigEndian(source: Uint8Array, at: number): void {
    this.markValid();
    const to = this.length * this.width;
    for (let i = 0; i < this.width; i++) this.values[to + i] = source[at + this.width - 1 - i] as number;
    this.length++;
  }

  /**
   * One 64-bit integer value given as its high (signed) and low (unsigned) 32-bit halves: what a
   * source that shifts an epoch computes without a bigint per value.
   */
  appendInt64Words(high: number, low: number): void {
    this.markValid();
    const at = this.length * 8;
    this.view.setUint32(at, low, true);
    this.view.setInt32(at + 4, high, true);
    this.length++;
  }

  /** One 64-bit integer value given as a bigint. */
  appendBigInt(value: bigint): void {
    this.markValid();
    this.view.setBigInt64(this.length * 8, value, true);
    this.length++;
  }

  /** One 32-bit integer value. */
  appendInt32(value: number): void {
    this.markValid();
    this.view.setInt32(this.length * 4, value, true);
    this.length++;
  }

  finish(): Data {
    const length = this.length;
    const validity = this.takeValidity();
    const values = this.values.subarray(0, length * this.width);
    this.values = new Uint8Array(this.capacity * this.width);
    this.view = new DataView(this.values.buffer);
    return newData(this.arrow, length, validity, { values: typedView(this.arrow, values) });
  }
}

/** Booleans: one byte per value in (DuckDB), one bit per value out. */
export class BoolColumn extends Column {
  private bits: Uint8Array;

  constructor(name: string, capacity: number) {
    super(name, capacity);
    this.bits = new Uint8Array(Math.ceil(capacity / 8));
  }

  field(): Field {
    return new Field(this.name, new Bool(), true);
  }

  /** Rows [from, from + rows) of values of one byte each (0 false, else true), with their validity. */
  appendBulk(bytes: Uint8Array, validity: Uint8Array | null, from: number, rows: number): void {
    this.copyValidity(validity, from, rows);
    const at = this.length;
    for (let i = 0; i < rows; i++) {
      const row = at + i;
      if (bytes[from + i] !== 0) this.bits[row >>> 3] = (this.bits[row >>> 3] as number) | (1 << (row & 7));
    }
    this.length += rows;
  }

  append(value: boolean | null): void {
    if (value === null) this.markNull();
    else {
      this.markValid();
      if (value)
        this.bits[this.length >>> 3] = (this.bits[this.length >>> 3] as number) | (1 << (this.length & 7));
    }
    this.length++;
  }

  finish(): Data {
    const length = this.length;
    const validity = this.takeValidity();
    const values = this.bits.subarray(0, Math.ceil(length / 8));
    this.bits = new Uint8Array(Math.ceil(this.capacity / 8));
    return newData(new Bool(), length, validity, { values });
  }
}

/**
 * Strings (UTF-8) and byte strings: offsets and bytes, as Arrow's Utf8 and Binary store them. A
 * string column may turn into a dictionary-encoded one on its first batch (see dictionaryShare).
 */
export class BytesColumn extends Column {
  private offsets: Int32Array;
  private bytes: Uint8Array;
  private used = 0;
  /** undefined until the first batch decides; then whether this column is a dictionary. */
  private dictionary: { readonly id: number } | false | undefined;
  private readonly type: Utf8 | Binary;

  constructor(
    name: string,
    capacity: number,
    /** Strings (which may become dictionary-encoded), else byte strings. */
    readonly utf8: boolean,
  ) {
    super(name, capacity);
    this.offsets = new Int32Array(capacity + 1);
    this.bytes = new Uint8Array(Math.max(1024, capacity * 8));
    this.type = utf8 ? new Utf8() : new Binary();
    if (!utf8) this.dictionary = false;
  }

  field(): Field {
    if (this.dictionary === undefined || this.dictionary === false)
      return new Field(this.name, this.type, true);
    return new Field(this.name, new Dictionary(this.type, new Int32(), this.dictionary.id), true);
  }

  append(value: Uint8Array | null): void {
    if (value === null) this.markNull();
    else {
      this.markValid();
      this.reserve(value.length);
      this.bytes.set(value, this.used);
      this.used += value.length;
    }
    this.length++;
    this.offsets[this.length] = this.used;
  }

  override appendNull(): void {
    this.append(null);
  }

  /** One value that is bytes [start, end) of `source` (a slice of a network buffer, not copied first). */
  appendSlice(source: Uint8Array, start: number, end: number): void {
    this.markValid();
    const length = end - start;
    this.reserve(length);
    this.bytes.set(source.subarray(start, end), this.used);
    this.used += length;
    this.length++;
    this.offsets[this.length] = this.used;
  }

  private reserve(more: number): void {
    const need = this.used + more;
    if (need > 0x7fffffff) throw new RangeError('a batch of strings passed 2 GiB: use a smaller batchRows.');
    if (need <= this.bytes.length) return;
    const grown = new Uint8Array(Math.min(0x7fffffff, Math.max(need, this.bytes.length * 2)));
    grown.set(this.bytes.subarray(0, this.used));
    this.bytes = grown;
  }

  finish(): Data {
    const length = this.length;
    const offsets = this.offsets.subarray(0, length + 1);
    const bytes = this.bytes.subarray(0, this.used);
    const validity = this.takeValidity();
    this.offsets = new Int32Array(this.capacity + 1);
    this.bytes = new Uint8Array(this.bytes.length);
    this.used = 0;
    if (this.dictionary === undefined) {
      this.dictionary =
        distinctShare(offsets, bytes, validity.nullBitmap, length) <= dictionaryShare && length > 0
          ? { id: nextDictionaryId++ }
          : false;
    }
    if (this.dictionary === false) return newData(this.type, length, validity, { offsets, values: bytes });
    return encodeDictionary(this.field().type as Dictionary, offsets, bytes, validity, length);
  }
}

/** The share of distinct values among the non-null values of a batch (1 when all differ). */
function distinctShare(offsets: Int32Array, bytes: Uint8Array, bitmap: Uint8Array, length: number): number {
  const seen = new Set<string>();
  let valid = 0;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let i = 0; i < length; i++) {
    if (((bitmap[i >>> 3] as number) & (1 << (i & 7))) === 0) continue;
    valid++;
    // latin1 maps each byte to one character, so equal keys are equal bytes.
    seen.add(text.toString('latin1', offsets[i] as number, offsets[i + 1] as number));
  }
  return valid === 0 ? 1 : seen.size / valid;
}

/** A batch of strings as dictionary indices into the batch's distinct values, in order of appearance. */
function encodeDictionary(
  type: Dictionary,
  offsets: Int32Array,
  bytes: Uint8Array,
  validity: { nullCount: number; nullBitmap: Uint8Array },
  length: number,
): Data {
  const indexOf = new Map<string, number>();
  const indices = new Int32Array(length);
  const entryOffsets: number[] = [0];
  const entries: Uint8Array[] = [];
  let entryBytes = 0;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let i = 0; i < length; i++) {
    if (((validity.nullBitmap[i >>> 3] as number) & (1 << (i & 7))) === 0) continue;
    const start = offsets[i] as number;
    const end = offsets[i + 1] as number;
    const key = text.toString('latin1', start, end);
    let index = indexOf.get(key);
    if (index === undefined) {
      index = entries.length;
      indexOf.set(key, index);
      entries.push(bytes.subarray(start, end));
      entryBytes += end - start;
      entryOffsets.push(entryBytes);
    }
    indices[i] = index;
  }
  const values = new Uint8Array(entryBytes);
  let at = 0;
  for (const entry of entries) {
    values.set(entry, at);
    at += entry.length;
  }
  const dictionary = newData(
    type.dictionary,
    entries.length,
    { nullCount: 0 },
    {
      offsets: Int32Array.from(entryOffsets),
      values,
    },
  );
  return newData(type, length, validity, { values: indices }, [], makeVector(dictionary));
}

/**
 * The typed array apache-arrow's Data holds for a fixed-width type (BigInt64Array for timestamps,
 * Int32Array for dates), over `bytes`: each batch's values start a buffer of their own, so they
 * are aligned for any element size.
 */
function typedView(type: DataType, bytes: Uint8Array): ArrayBufferView {
  const Typed = type.ArrayType as unknown as {
    new (buffer: ArrayBufferLike, offset: number, length: number): ArrayBufferView;
    BYTES_PER_ELEMENT: number;
  };
  return new Typed(bytes.buffer, bytes.byteOffset, bytes.byteLength / Typed.BYTES_PER_ELEMENT);
}

function setBits(bitmap: Uint8Array, from: number, count: number): void {
  let i = from;
  const end = from + count;
  for (; i < end && (i & 7) !== 0; i++) bitmap[i >>> 3] = (bitmap[i >>> 3] as number) | (1 << (i & 7));
  for (; i + 8 <= end; i += 8) bitmap[i >>> 3] = 0xff;
  for (; i < end; i++) bitmap[i >>> 3] = (bitmap[i >>> 3] as number) | (1 << (i & 7));
}

function countBits(bitmap: Uint8Array, from: number, count: number): number {
  let ones = 0;
  for (let i = from; i < from + count; i++) if (((bitmap[i >>> 3] as number) & (1 << (i & 7))) !== 0) ones++;
  return ones;
}

export type AnyColumn = FixedWidthColumn | BoolColumn | BytesColumn;

/** A builder for a column of `type`, sized for batches of `capacity` rows. */
export function columnFor(name: string, type: ColumnType, capacity: number): AnyColumn {
  if (type.kind === 'bool') return new BoolColumn(name, capacity);
  if (type.kind === 'utf8') return new BytesColumn(name, capacity, true);
  if (type.kind === 'binary') return new BytesColumn(name, capacity, false);
  const fixed = fixedType(type) as { arrow: DataType; width: number };
  return new FixedWidthColumn(name, capacity, fixed.arrow, fixed.width);
}
