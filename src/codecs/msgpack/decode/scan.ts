/**
 * The MessagePack scanner: one pass over the bytes, allocating nothing, that either proves a value
 * safe to hand to msgpackr or throws a WirekitError. msgpackr itself bounds no depth (a deep nest
 * overflows the stack), renames `__proto__` keys silently, decodes invalid UTF-8 to U+FFFD and runs
 * extension hooks for any type registered in the process; the scanner refuses all of that first.
 * It checks every length against the remaining input and the limits, counts array items and map
 * entries, keeps depth on an explicit stack (so hostile nesting cannot overflow the call stack),
 * allows the timestamp extension (-1) only, and measures the value: the same walk cuts a stream
 * into values, since a MessagePack stream is values back to back. Before msgpackr, it also charges
 * what msgpackr will build against maxAllocatedBytes (core/budget.ts: each map as an object of two slots
 * an entry, each array, string, byte string, Date and bigint), so an input whose value would not
 * fit the budget is refused before anything is built.
 */
import { cost, overBudget } from '../../core/budget.js';
import { malformed, tooDeep, tooLong, tooManyElements } from '../../core/errors.js';
import { grown } from '../../core/grow.js';
import type { DecodeLimits } from '../../core/limits.js';
import { checkKey } from '../../keyed/decode/keys.js';
import { arrayCharge, mapKeyExtra, slotCharge, stringCharge } from '../../keyed/decode/scan-items.js';
import { asciiEnd, isUtf8 } from '../../keyed/decode/utf8-check.js';
import {
  checkTimestamp,
  fixedSizes,
  lengthWidths,
  libraryReadsInt64,
  libraryReadsTimestamp64,
  MsgpackItems,
  type MsgpackScanOptions,
  readLength,
  recordType,
  unknownExtension,
} from './items.js';

export type { MsgpackScanOptions };

/** A record (msgpackr's records mode) opens as a container of its fields, but builds an object. */
const recordExtra = cost.object - cost.array;

/**
 * Bytes taken by the items whose head byte says everything (integers, nil, booleans, floats);
 * 0 for the rest. In record mode 0x40–0x7f are record references, which open a record.
 */
const plainSizes = sizeTable(false);
const recordModeSizes = sizeTable(true);

function sizeTable(records: boolean): Uint8Array {
  const sizes = new Uint8Array(256);
  for (let head = 0; head < 0x80; head++) sizes[head] = records && head >= 0x40 ? 0 : 1;
  for (let head = 0xc0; head < 0xe0; head++) sizes[head] = fixedSizes[head - 0xc0] as number;
  for (let head = 0xe0; head < 0x100; head++) sizes[head] = 1;
  return sizes;
}

export class MsgpackScanner extends MsgpackItems {
  /**
   * The containers around the innermost open one: the items each has left (keys and values of a
   * map both count) and whether it is a map. The innermost one lives in locals of `walk`.
   */
  private left: Int32Array;
  private isMap: Uint8Array;
  private readonly sizes: Uint8Array;
  /**
   * What a map costs, and each of its items (a key or a value): a plain object of two slots an
   * entry, or in record mode, where msgpackr reads maps as Map, a Map and half a Map's entry.
   */
  private readonly mapCharge: number;
  private readonly mapItemCharge: number;
  private readonly mapKeyCharge: number;

  /** Set by `other`: the items of the container the item opens (-1 for none), and whether it is a map. */
  private opened = -1;
  private openedMap = false;

  /**
   * Timestamps msgpackr reads differently go to wirekit's reader too: 8-byte ones whose
   * nanoseconds msgpackr's floating-point sum rounds up (see libraryReadsTimestamp64), and every
   * 12-byte one (rare: instants before 1970 or after 2514), whose negative instants msgpackr also
   * truncates toward zero where wirekit floors.
   */
  private wideTimestamp = false;

  /**
   * In record mode msgpackr reads maps as Map, so any key type is its own business, and only a
   * wide integer needs another reading (with bigints; see records.ts).
   */
  get needsOwnReader(): boolean {
    return this.options.records
      ? this.wideInteger
      : this.nonStringKey || this.wideTimestamp || this.wideInteger;
  }

  reset(): void {
    this.elements = 0;
    this.allocated = 0;
    this.charged = 0;
    this.nonStringKey = false;
    this.wideTimestamp = false;
    this.wideInteger = false;
  }

  constructor(limits: DecodeLimits, options: MsgpackScanOptions) {
    super(limits, options);
    const size = Math.min(limits.maxDepth, 32) + 1;
    this.left = new Int32Array(size);
    this.isMap = new Uint8Array(size);
    this.sizes = options.records ? recordModeSizes : plainSizes;
    this.mapCharge = options.records ? cost.map : cost.object;
    this.mapItemCharge = options.records ? cost.mapEntry / 2 : cost.slot;
    this.mapKeyCharge = options.records ? 0 : mapKeyExtra;
  }

  /**
   * Scans the value at `start`, which sits inside `depth` containers. Returns where it ends, or -1
   * when the input ends inside it (`endedAt` says where).
   */
  scan(bytes: Uint8Array, start: number, end: number, depth: number): number {
    if (this.options.records) this.recordSizes.fill(-1);
    this.cut.depth = depth;
    return this.walk(bytes, start, end, depth, 0, 0, false, this.elements, this.allocated);
  }

  /**
   * Scans the value at `start` as `scan` does, inside a value whose records defined before it have
   * the field counts `sizes` (by id, -1 where none); where the records it defines have their keys
   * is left in `recordDefinedAt`. Records mode only.
   */
  scanAmidRecords(bytes: Uint8Array, start: number, end: number, depth: number, sizes: Int32Array): number {
    this.recordSizes.set(sizes);
    this.recordDefinedAt.fill(-1);
    this.cut.depth = depth;
    return this.walk(bytes, start, end, depth, 0, 0, false, this.elements, this.allocated);
  }

  /**
   * Goes on with the value that the last `scan` or `resume` found cut, in `bytes`: the same bytes
   * with more appended (as a stream's pending buffer grows). Each call scans only the new part.
   */
  resume(bytes: Uint8Array): number {
    const cut = this.cut;
    return this.walk(
      bytes,
      cut.pos,
      bytes.length,
      cut.depth,
      cut.top,
      cut.left,
      cut.inMap,
      cut.elements,
      cut.allocated,
    );
  }

  /** Where the last cut value stopped: the start of its unfinished item, and the state there. */
  private readonly cut = { pos: 0, depth: 0, top: 0, left: 0, inMap: false, elements: 0, allocated: 0 };

  /**
   * The hot loop. It reads inline only what records are made of (short strings, scalars, small
   * maps and arrays) and leaves every other type to `other`, which keeps the loop small enough for
   * V8 to hold its state in registers. Every count kept here fits an int32 (see maxCount in keyed/decode/scan-items.ts).
   */
  private walk(
    bytes: Uint8Array,
    start: number,
    end: number,
    depth: number,
    openAtStart: number,
    leftAtStart: number,
    inMapAtStart: boolean,
    elementsAtStart: number,
    allocatedAtStart: number,
  ): number {
    const { limits, options, sizes, maxAllocated, mapCharge, mapItemCharge, mapKeyCharge } = this;
    const maxStringBytes = limits.maxStringBytes;
    const maxElements = limits.maxElements;
    const { utf8, unsafeKeys } = options;
    // The innermost open container lives in locals; the stack holds the ones around it.
    const levels = limits.maxDepth - depth;
    let stack = this.left;
    let maps = this.isMap;
    let top = openAtStart;
    let left = leftAtStart;
    let inMap = inMapAtStart;
    let elements = elementsAtStart;
    let allocated = allocatedAtStart;
    let pos = start;
    for (;;) {
      const at = pos;
      if (pos >= end) return this.stop(end, at, top, left, inMap, elements, allocated);
      const head = bytes[pos] as number;
      const key = inMap && (left & 1) === 0;
      let open = -1; // the items of the container this item opens; -1 for anything else
      let opensMap = false;
      if (head >= 0xa0 && head < 0xc0) {
        // fixstr, the most common item: checked inline.
        const length = head & 0x1f;
        const from = pos + 1;
        pos = from + length;
        if (pos > end) return this.stop(end, at, top, left, inMap, elements, allocated);
        if (length > maxStringBytes) throw tooLong(at, length, maxStringBytes, 'string');
        allocated += stringCharge + ((length + 7) & ~7);
        // Inline, not keyed/decode/scan-items.ts checkShortText: the call costs this loop measurably.
        if (utf8) {
          const i = asciiEnd(bytes, from, pos);
          if (i < pos && !isUtf8(bytes, i, pos)) throw malformed(from, 'a string is not valid UTF-8');
        }
        if (key && (length === 9 || length === 11) && unsafeKeys) checkKey(bytes, from, length);
      } else {
        if (key && (head < 0xd9 || head > 0xdb)) {
          this.nonStringKey = true;
          allocated += mapKeyCharge;
        }
        const size = sizes[head] as number;
        if (size !== 0) {
          pos += size;
          if (pos > end) return this.stop(end, at, top, left, inMap, elements, allocated);
          // Nine bytes: float 64, or a uint 64 or int 64 that may be beyond 2^53 - 1 (libraryReadsInt64).
          if (size === 9 && head !== 0xcb && (bytes[at + 1] !== 0 || (bytes[at + 2] as number) >= 0x20)) {
            if (!libraryReadsInt64(bytes, at)) {
              this.wideInteger = true;
              allocated += cost.bigint;
            }
          }
        } else if (head >= 0x80 && head < 0xa0) {
          // fixmap (its keys and values both count as items) and fixarray
          opensMap = head < 0x90;
          open = opensMap ? (head & 0x0f) * 2 : head & 0x0f;
          pos++;
        } else {
          pos = this.other(bytes, pos, end, key);
          if (pos < 0) {
            this.charged = 0;
            return this.stop(end, at, top, left, inMap, elements, allocated);
          }
          allocated += this.charged;
          this.charged = 0;
          open = this.opened;
          opensMap = this.openedMap;
        }
      }
      if (open >= 0) {
        if (top >= levels) throw tooDeep(at, limits);
        if (open > 0) {
          const before = elements;
          elements += opensMap ? open >> 1 : open;
          if (elements > maxElements) throw tooManyElements(at, limits);
          // Every item takes at least one byte, so a count beyond the input is a lie or a cut.
          if (open > end - pos) return this.stop(end, at, top, left, inMap, before, allocated);
        }
        // Charged once the count is known to fit the input: a map's entries as two slots each.
        allocated += opensMap ? mapCharge + open * mapItemCharge : arrayCharge + open * slotCharge;
        if (allocated > maxAllocated) throw overBudget(maxAllocated, at);
        if (open > 0) {
          if (top === stack.length) {
            this.growStack();
            stack = this.left;
            maps = this.isMap;
          }
          stack[top] = left;
          maps[top] = inMap ? 1 : 0;
          top++;
          left = open;
          inMap = opensMap;
          continue;
        }
      }
      // The item is complete, and so is every container it was the last item of.
      for (;;) {
        if (top === 0) {
          this.elements = elements;
          this.allocated = allocated;
          if (allocated > maxAllocated) throw overBudget(maxAllocated, at);
          return pos;
        }
        if (--left > 0) break;
        top--;
        left = stack[top] as number;
        inMap = maps[top] === 1;
      }
    }
  }

  /**
   * The item at `pos` of a type the hot loop leaves out: longer strings, byte strings, extensions,
   * longer arrays and maps, and record references (`key`: the item is a map key). Returns where it
   * ends (or -1 when cut) and sets `opened` and `openedMap` for the containers among them.
   */
  private other(bytes: Uint8Array, pos: number, end: number, key: boolean): number {
    const head = bytes[pos] as number;
    this.opened = -1;
    this.openedMap = false;
    if (head < 0x80) {
      // Only record references (0x40–0x7f in record mode) get here.
      const fields = this.recordSizes[head & 0x3f] as number;
      if (fields < 0) throw malformed(pos, 'a record reference without a definition');
      this.opened = fields;
      this.charged += recordExtra;
      return pos + 1;
    }
    const width = lengthWidths[head - 0xc0] as number;
    if (width === 0) throw malformed(pos, `0x${head.toString(16)} is not a MessagePack type`);
    let length = 0;
    let after = pos + 1;
    if (width > 0) {
      after += width;
      if (after > end) return -1;
      length = readLength(bytes, pos + 1, width);
    }
    if (head >= 0xd9 && head <= 0xdb) return this.text(bytes, after, end, length, key);
    if (head >= 0xc4 && head <= 0xc6) {
      const limit = this.limits.maxBytesLength;
      if (length > limit) throw tooLong(pos, length, limit, 'byte string');
      this.charged += cost.bytes + length;
      return after + length > end ? -1 : after + length;
    }
    if (head >= 0xdc) {
      // array 16/32 (dc, dd) and map 16/32 (de, df)
      if (length > this.maxContainer) throw tooManyElements(pos, this.limits);
      this.openedMap = head >= 0xde;
      this.opened = this.openedMap ? length * 2 : length;
      return after;
    }
    // Extensions: fixext 1/2/4/8/16 (d4–d8, no length field) and ext 8/16/32 (c7–c9).
    const dataLength = width < 0 ? 1 << (head - 0xd4) : length;
    const dataAt = after + 1;
    if (dataAt + dataLength > end) return -1;
    const type = bytes[after] as number;
    if (this.options.records && head === 0xd4 && type === recordType) {
      const id = (bytes[dataAt] as number) & 0x3f;
      const stop = this.record(bytes, dataAt + 1, end, id);
      if (stop >= 0) {
        this.opened = this.recordSizes[id] as number;
        this.charged += recordExtra;
      }
      return stop;
    }
    if (type !== 0xff) throw unknownExtension(pos, type);
    checkTimestamp(bytes, dataAt, dataLength, pos);
    if (dataLength === 12 || (dataLength === 8 && !libraryReadsTimestamp64(bytes, dataAt)))
      this.wideTimestamp = true;
    this.charged += cost.date;
    return dataAt + dataLength;
  }

  /** Ends a walk that ran out of input inside the item that starts at `item`. */
  private stop(
    end: number,
    item: number,
    top: number,
    left: number,
    inMap: boolean,
    elements: number,
    allocated: number,
  ): number {
    const cut = this.cut;
    cut.pos = item;
    cut.top = top;
    cut.left = left;
    cut.inMap = inMap;
    cut.elements = elements;
    cut.allocated = allocated;
    return this.ended(end, elements);
  }

  private growStack(): void {
    const size = Math.min(this.left.length * 2, this.limits.maxDepth + 1);
    this.left = grown(this.left, size);
    this.isMap = grown(this.isMap, size);
  }
}
