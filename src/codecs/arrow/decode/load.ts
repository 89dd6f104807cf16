/**
 * Record batch bodies to apache-arrow Data, checked the way Arrow's ValidateFull would: every
 * buffer inside the body and long enough for its length, offsets ascending and in range, union type
 * codes and offsets pointing at real child entries, dictionary indices inside their dictionary,
 * strings valid UTF-8. Data that passes can be read (by wirekit or by apache-arrow) without a bound
 * check going wrong. Buffers come from body.ts: views into the input, copied only when misaligned
 * (or inflated, or byte-swapped from a big-endian writer).
 */
import {
  type Data,
  type DataType,
  type Dictionary,
  type FixedSizeBinary,
  type FixedSizeList,
  type Interval,
  IntervalUnit,
  Type,
  type Vector,
} from 'apache-arrow';
import { WirekitError } from '../../../errors/index.js';
import { isUtf8 } from '../../../util/node-runtime.js';
import { malformed, tooLong, tooManyElements } from '../../core/errors.js';
import type { DecodeLimits } from '../../core/limits.js';
import { type NullInfo, newData } from '../data.js';
import type { BodyBuffers, TypedArrayCtor } from './body.js';
import type { BatchHeader } from './messages.js';

/** A swap pattern for bytes already in native order. */
const nativeOrder = [1];

/** Stands for the body as a whole in an error (whose offset is then the body's start). */
const wholeBody = new Uint8Array(0);

/**
 * Per interval unit: 32-bit words per value, and how a big-endian writer's words are swapped
 * (YEAR_MONTH: months; DAY_TIME: days, milliseconds; MONTH_DAY_NANO: months, days, nanoseconds).
 */
const intervalLayouts = {
  [IntervalUnit.YEAR_MONTH]: { words: 1, swap: [4] },
  [IntervalUnit.DAY_TIME]: { words: 2, swap: [4] },
  [IntervalUnit.MONTH_DAY_NANO]: { words: 4, swap: [4, 4, 8] },
} as const;

/** Counts list items and map entries across the batches of one decoded value. */
export interface ElementBudget {
  used: number;
}

export class BatchLoader {
  private node = 0;
  /** Utf8View and BinaryView columns loaded so far, to find each one's variadic buffer count. */
  private viewColumn = 0;
  private readonly header: BatchHeader;
  /** Where the body starts in the whole input, for error offsets. */
  private readonly base: number;

  constructor(
    private readonly buffers: BodyBuffers,
    private readonly version: number,
    private readonly dictionaries: ReadonlyMap<number, Vector>,
    private readonly limits: DecodeLimits,
    private readonly budget: ElementBudget,
  ) {
    this.header = buffers.header;
    this.base = buffers.base;
  }

  /** Loads one column per type; every field node and buffer of the message must be used. */
  loadColumns(types: readonly DataType[]): Data[] {
    if (this.header.length > 0x7fffffff) throw malformed(this.base, 'a record batch is longer than 2^31 - 1');
    const columns = types.map((type) => this.load(type));
    if (
      this.node * 2 !== this.header.nodes.length ||
      this.buffers.used * 2 !== this.header.buffers.length ||
      this.viewColumn !== this.header.variadicCounts.length
    )
      throw malformed(this.base, 'a record batch has more field nodes or buffers than its schema uses');
    for (const column of columns) {
      if (column.length < this.header.length)
        throw malformed(this.base, 'a column is shorter than its record batch');
    }
    return columns;
  }

  private nextNode(): [number, number] {
    const { nodes } = this.header;
    if (this.node * 2 >= nodes.length) throw malformed(this.base, 'a record batch has too few field nodes');
    const length = nodes[this.node * 2] as number;
    const nullCount = nodes[this.node * 2 + 1] as number;
    this.node++;
    // Arrow's offsets are 32-bit, so no column is longer; the cap also keeps bit arithmetic exact.
    if (length > 0x7fffffff) throw malformed(this.base, 'a field node is longer than 2^31 - 1');
    if (nullCount > length) throw malformed(this.base, 'a field node has more nulls than values');
    return [length, nullCount];
  }

  private nextBuffer(): Uint8Array {
    return this.buffers.take();
  }

  private fail(buffer: Uint8Array, message: string): never {
    return this.buffers.fail(buffer, message);
  }

  /** A buffer as `count` elements of `Ctor` (body.ts: a view, or an aligned or native-order copy). */
  private typed<A>(
    Ctor: TypedArrayCtor,
    buffer: Uint8Array,
    count: number,
    what: string,
    swap?: readonly number[],
  ): A {
    return this.buffers.typed<A>(Ctor, buffer, count, what, swap);
  }

  private load(type: DataType): Data {
    const [length, nullCount] = this.nextNode();
    // Null columns and unions have no validity bitmap (unions had one before V5).
    if (type.typeId === Type.Null) return newData(type, length, { nullCount: 0 });
    if (type.typeId === Type.Union) return this.loadUnion(type, length);
    const bitmap = this.nextBuffer();
    let nullBitmap: Uint8Array | undefined;
    if (nullCount > 0) {
      if (bitmap.length < (length + 7) >> 3)
        this.fail(bitmap, 'a validity bitmap is shorter than its values');
      nullBitmap = bitmap;
    }
    const validity: NullInfo = { nullCount, nullBitmap };
    switch (type.typeId) {
      case Type.Bool: {
        const values = this.nextBuffer();
        if (values.length < (length + 7) >> 3)
          this.fail(values, 'a boolean buffer is shorter than its values');
        return newData(type, length, validity, { values });
      }
      case Type.Int:
      case Type.Float:
      case Type.Decimal:
      case Type.Date:
      case Type.Time:
      case Type.Timestamp:
      case Type.Duration: {
        const Ctor = type.ArrayType as TypedArrayCtor;
        // Decimals are stored as 32-bit words, one to eight per value; each value is one integer.
        const bits = type.typeId === Type.Decimal ? (type as unknown as { bitWidth: number }).bitWidth : 32;
        const swap = type.typeId === Type.Decimal ? [bits / 8] : undefined;
        return newData(type, length, validity, {
          values: this.typed(Ctor, this.nextBuffer(), (length * bits) / 32, 'value', swap),
        });
      }
      case Type.Interval: {
        const layout = intervalLayouts[(type as Interval).unit];
        return newData(type, length, validity, {
          values: this.typed(Int32Array, this.nextBuffer(), length * layout.words, 'interval', layout.swap),
        });
      }
      case Type.FixedSizeBinary: {
        const width = (type as FixedSizeBinary).byteWidth;
        if (width > this.limits.maxBytesLength)
          throw tooLong(this.base, width, this.limits.maxBytesLength, 'byte string');
        const values = this.nextBuffer();
        if (values.length < length * width) this.fail(values, 'the value buffer is shorter than its values');
        return newData(type, length, validity, { values });
      }
      case Type.Dictionary:
        return this.loadDictionaryIndices(type as Dictionary, validity, length);
      case Type.Utf8:
      case Type.Binary:
      case Type.LargeUtf8:
      case Type.LargeBinary: {
        const large = type.typeId === Type.LargeUtf8 || type.typeId === Type.LargeBinary;
        const offsets = this.offsets(length, large);
        const data = this.nextBuffer();
        const narrow = large ? narrowOffsets(offsets) : (offsets as Int32Array);
        this.checkRanges(narrow, data.length, data);
        const utf8 = type.typeId === Type.Utf8 || type.typeId === Type.LargeUtf8;
        this.checkValues(utf8, narrow, data);
        return newData(type, length, validity, { offsets, values: data });
      }
      case Type.Utf8View:
      case Type.BinaryView:
        return this.loadViews(type, validity, length);
      case Type.List:
      case Type.LargeList:
      case Type.Map: {
        const large = type.typeId === Type.LargeList;
        const offsets = this.offsets(length, large);
        const child = this.load((type.children[0] as { type: DataType }).type);
        const narrow = large ? narrowOffsets(offsets) : (offsets as Int32Array);
        this.checkRanges(narrow, child.length, wholeBody);
        this.spend((narrow[length] as number) - (narrow[0] as number));
        if (type.typeId === Type.Map && (child.children[0] as Data).nullCount > 0)
          throw malformed(this.base, 'a map has a null key');
        return newData(type, length, validity, { offsets }, [child]);
      }
      case Type.FixedSizeList: {
        const size = (type as FixedSizeList).listSize;
        const child = this.load((type.children[0] as { type: DataType }).type);
        if (child.length < length * size)
          throw malformed(this.base, 'a fixed-size list child is shorter than its lists');
        this.spend(length * size);
        return newData(type, length, validity, {}, [child]);
      }
      case Type.Struct: {
        const children = type.children.map((field) => this.load(field.type));
        if (children.some((child) => child.length < length))
          throw malformed(this.base, 'a struct child is shorter than its struct');
        return newData(type, length, validity, {}, children);
      }
      default:
        throw malformed(this.base, `Arrow type ${type} cannot be loaded`);
    }
  }

  /**
   * A view column: 16 bytes per value (its length, then the bytes inline up to 12, else a 4-byte
   * prefix, a data buffer index and an offset), then its data buffers. Every view must point
   * inside its buffer and repeat the value's first bytes as its prefix, and strings must be
   * UTF-8. Views may share bytes, so what a column's views add up to is capped at maxInputBytes:
   * no input decodes to more text than it could have held.
   */
  private loadViews(type: DataType, validity: NullInfo, length: number): Data {
    const utf8 = type.typeId === Type.Utf8View;
    const viewBuffer = this.buffers.views(this.nextBuffer(), length);
    const views = this.typed<Int32Array>(Int32Array, viewBuffer, 4 * length, 'view', nativeOrder);
    const { variadicCounts } = this.header;
    if (this.viewColumn >= variadicCounts.length)
      throw malformed(this.base, 'a record batch lists fewer view columns than its schema has');
    const count = variadicCounts[this.viewColumn++] as number;
    if (count > this.header.buffers.length / 2)
      throw malformed(this.base, 'a view column claims more data buffers than the batch has');
    const buffers = Array.from({ length: count }, () => this.nextBuffer());
    const bytes = new Uint8Array(viewBuffer.buffer, viewBuffer.byteOffset, viewBuffer.length);
    const limit = utf8 ? this.limits.maxStringBytes : this.limits.maxBytesLength;
    const nullBitmap = validity.nullBitmap;
    let total = 0;
    for (let i = 0; i < length; i++) {
      if (nullBitmap !== undefined && (((nullBitmap[i >> 3] as number) >> (i & 7)) & 1) === 0) continue;
      const size = views[4 * i] as number;
      if (size < 0) this.fail(viewBuffer, 'a view has a negative length');
      if (size > limit) throw tooLong(this.base, size, limit, utf8 ? 'string' : 'byte string');
      total += size;
      if (total > this.limits.maxInputBytes)
        throw new WirekitError(
          'WK_LIMIT_INPUT',
          `the views of one Arrow column add up to more than maxInputBytes (${this.limits.maxInputBytes}).`,
        );
      let value: Uint8Array;
      if (size <= 12) value = bytes.subarray(16 * i + 4, 16 * i + 4 + size);
      else {
        const data = buffers[views[4 * i + 2] as number];
        const offset = views[4 * i + 3] as number;
        if (data === undefined || offset < 0 || offset + size > data.length)
          this.fail(viewBuffer, 'a view points outside its data buffers');
        value = data.subarray(offset, offset + size);
        for (let b = 0; b < 4; b++)
          if (value[b] !== bytes[16 * i + 4 + b])
            this.fail(viewBuffer, "a view's prefix differs from its value");
      }
      if (utf8 && !isUtf8(value)) this.fail(viewBuffer, 'a string is not valid UTF-8');
    }
    return newData(type, length, validity, { values: bytes }, [], undefined, buffers);
  }

  /** Counts list items and map entries against maxElements. */
  private spend(items: number): void {
    this.budget.used += items;
    if (this.budget.used > this.limits.maxElements) throw tooManyElements(this.base, this.limits);
  }

  /** n + 1 offsets (64-bit for the large types); a column of no values may leave them out. */
  private offsets(length: number, large: boolean): Int32Array | BigInt64Array {
    const buffer = this.nextBuffer();
    const Ctor = large ? BigInt64Array : Int32Array;
    if (length === 0 && buffer.length < Ctor.BYTES_PER_ELEMENT) return new Ctor(1);
    return this.typed(Ctor as unknown as TypedArrayCtor, buffer, length + 1, 'offsets');
  }

  /** Offsets must ascend from a non-negative start and stay within `limit` child values or bytes. */
  private checkRanges(offsets: Int32Array, limit: number, near: Uint8Array): void {
    let previous = offsets[0] as number;
    if (previous < 0) this.fail(near, 'an offset is negative');
    for (let i = 1; i < offsets.length; i++) {
      const offset = offsets[i] as number;
      if (offset < previous) this.fail(near, 'offsets are not ascending');
      previous = offset;
    }
    if (previous > limit) this.fail(near, 'an offset points past the end of its values');
  }

  private checkValues(utf8: boolean, offsets: Int32Array, data: Uint8Array): void {
    const limit = utf8 ? this.limits.maxStringBytes : this.limits.maxBytesLength;
    const start = offsets[0] as number;
    const end = offsets[offsets.length - 1] as number;
    if (end - start > limit) {
      for (let i = 1; i < offsets.length; i++) {
        const size = (offsets[i] as number) - (offsets[i - 1] as number);
        if (size > limit) throw tooLong(this.base, size, limit, utf8 ? 'string' : 'byte string');
      }
    }
    if (!utf8) return;
    // The whole run is valid UTF-8 and no value starts on a continuation byte, so each value is valid.
    if (!isUtf8(data.subarray(start, end))) this.fail(data, 'a string is not valid UTF-8');
    for (let i = 0; i < offsets.length - 1; i++) {
      const at = offsets[i] as number;
      if (at < end && ((data[at] as number) & 0xc0) === 0x80) this.fail(data, 'a string is not valid UTF-8');
    }
  }

  private loadDictionaryIndices(type: Dictionary, validity: NullInfo, length: number): Data {
    const nullBitmap = validity.nullBitmap;
    const dictionary = this.dictionaries.get(type.id);
    if (dictionary === undefined)
      throw malformed(this.base, `a record batch uses dictionary ${type.id} before its dictionary batch`);
    const buffer = this.nextBuffer();
    const indices = this.typed<ArrayLike<number>>(
      type.indices.ArrayType as TypedArrayCtor,
      buffer,
      length,
      'index',
    );
    const size = dictionary.length;
    for (let i = 0; i < length; i++) {
      const index = Number(indices[i]);
      if (
        (index < 0 || index >= size) &&
        (nullBitmap === undefined || ((nullBitmap[i >> 3] as number) >> (i & 7)) & 1)
      )
        this.fail(buffer, `dictionary index ${index} is outside dictionary ${type.id}`);
    }
    return newData(type, length, validity, { values: indices as unknown as ArrayBufferView }, [], dictionary);
  }

  private loadUnion(type: DataType, length: number): Data {
    // Before V5, unions had a validity buffer; it carries nothing a dense union needs.
    if (this.version < 4) this.nextBuffer();
    const typeBuffer = this.nextBuffer();
    const typeIds = this.typed<Int8Array>(Int8Array, typeBuffer, length, 'union type');
    const dense = (type as unknown as { mode: number }).mode === 1;
    const offsetBuffer = dense ? this.nextBuffer() : undefined;
    const offsets =
      offsetBuffer === undefined
        ? undefined
        : this.typed<Int32Array>(Int32Array, offsetBuffer, length, 'union offset');
    const children = type.children.map((field) => this.load(field.type));
    const childOf = new Int8Array(128).fill(-1);
    Array.from((type as unknown as { typeIds: ArrayLike<number> }).typeIds).forEach((code, i) => {
      childOf[code] = i;
    });
    // Per child, the last offset used: the format has each child's offsets increase, so that no
    // child entry is read twice (a nest of repeated offsets would multiply what is decoded).
    const last = new Int32Array(children.length).fill(-1);
    for (let i = 0; i < length; i++) {
      const code = typeIds[i] as number;
      const x = code < 0 ? -1 : (childOf[code] as number);
      const child = children[x];
      if (child === undefined) this.fail(typeBuffer, `union type code ${code} names no child`);
      if (offsets === undefined) {
        if (child.length < length)
          throw malformed(this.base, 'a sparse union child is shorter than its union');
        continue;
      }
      const offset = offsets[i] as number;
      if (offset < 0 || offset >= child.length)
        this.fail(offsetBuffer as Uint8Array, 'a union offset points past its child');
      if (offset <= (last[x] as number))
        this.fail(offsetBuffer as Uint8Array, "a union's offsets into one child do not increase");
      last[x] = offset;
    }
    return newData(type, length, { nullCount: 0 }, offsets ? { typeIds, offsets } : { typeIds }, children);
  }
}

/**
 * 64-bit offsets as 32-bit ones. Arrow's large types allow more, but no input wirekit reads holds
 * 2 GiB: a value that does not fit is refused as pointing past its values.
 */
export function narrowOffsets(offsets: Int32Array | BigInt64Array): Int32Array {
  if (offsets instanceof Int32Array) return offsets;
  const out = new Int32Array(offsets.length);
  for (let i = 0; i < offsets.length; i++) {
    const offset = offsets[i] as bigint;
    out[i] = offset < 0n ? -1 : offset > 0x7fffffffn ? 0x7fffffff : Number(offset);
  }
  return out;
}
