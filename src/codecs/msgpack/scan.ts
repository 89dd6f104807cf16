/**
 * The MessagePack scanner: one pass over the bytes, allocating nothing, that either proves a value
 * safe to hand to msgpackr or throws a WirekitError. msgpackr itself bounds no depth (a deep nest
 * overflows the stack), renames `__proto__` keys silently, decodes invalid UTF-8 to U+FFFD and runs
 * extension hooks for any type registered in the process; the scanner refuses all of that first.
 * It checks every length against the remaining input and the limits, counts array items and map
 * entries, keeps depth on an explicit stack (so hostile nesting cannot overflow the call stack),
 * allows the timestamp extension (-1) only, and measures the value: the same walk cuts a stream
 * into values, since a MessagePack stream is values back to back.
 */
import { malformed, tooDeep, tooLong, tooManyElements } from '../errors.js';
import type { DecodeLimits } from '../limits.js';
import { checkKey } from '../self-describing/keys.js';
import { isUtf8 } from '../self-describing/utf8-check.js';
import {
  checkTimestamp,
  fixedSizes,
  lengthWidths,
  MsgpackItems,
  type MsgpackScanOptions,
  readLength,
  recordType,
  unknownExtension,
} from './items.js';

export type { MsgpackScanOptions };

export class MsgpackScanner extends MsgpackItems {
  /**
   * The containers around the innermost open one: the items each has left (keys and values of a
   * map both count) and whether it is a map. The innermost one lives in locals of `walk`.
   */
  private left: Float64Array;
  private isMap: Uint8Array;

  /**
   * Sub-second timestamps (8- and 12-byte forms) go to wirekit's reader too: msgpackr adds the
   * nanoseconds in floating point, which rounds .999999999 s up into the next second.
   */
  private wideTimestamp = false;

  /** In record mode msgpackr reads maps as Map, so any key type is its own business. */
  get needsOwnReader(): boolean {
    return (this.nonStringKey || this.wideTimestamp) && !this.options.records;
  }

  reset(): void {
    this.elements = 0;
    this.nonStringKey = false;
    this.wideTimestamp = false;
  }

  constructor(limits: DecodeLimits, options: MsgpackScanOptions) {
    super(limits, options);
    const size = Math.min(limits.maxDepth, 32) + 1;
    this.left = new Float64Array(size);
    this.isMap = new Uint8Array(size);
  }

  /**
   * Scans the value at `start`, which sits inside `depth` containers. Returns where it ends, or -1
   * when the input ends inside it (`endedAt` says where).
   */
  scan(bytes: Uint8Array, start: number, end: number, depth: number): number {
    if (this.options.records) this.recordSizes.fill(-1);
    this.cut.depth = depth;
    return this.walk(bytes, start, end, depth, 0, 0, false, this.elements);
  }

  /**
   * Goes on with the value that the last `scan` or `resume` found cut, in `bytes`: the same bytes
   * with more appended (as a stream's pending buffer grows). Each call scans only the new part.
   */
  resume(bytes: Uint8Array): number {
    const cut = this.cut;
    return this.walk(bytes, cut.pos, bytes.length, cut.depth, cut.top, cut.left, cut.inMap, cut.elements);
  }

  /** Where the last cut value stopped: the start of its unfinished item, and the state there. */
  private readonly cut = { pos: 0, depth: 0, top: 0, left: 0, inMap: false, elements: 0 };

  private walk(
    bytes: Uint8Array,
    start: number,
    end: number,
    depth: number,
    openAtStart: number,
    leftAtStart: number,
    inMapAtStart: boolean,
    elementsAtStart: number,
  ): number {
    const { limits, options } = this;
    const { maxStringBytes, maxBytesLength, maxElements } = limits;
    const utf8 = options.utf8;
    const records = options.records;
    // The innermost open container lives in locals; the stack holds the ones around it.
    const levels = limits.maxDepth - depth;
    let top = openAtStart;
    let left = leftAtStart;
    let inMap = inMapAtStart;
    let elements = elementsAtStart;
    let pos = start;
    let at: number;
    for (;;) {
      at = pos;
      if (pos >= end) return this.stop(end, at, top, left, inMap, elements);
      const head = bytes[pos] as number;
      const key = inMap && (left & 1) === 0;
      let open = -1; // the items of the container this item opens; -1 for anything else
      let opensMap = false;
      if (head < 0x80) {
        if (head >= 0x40 && records) {
          open = this.recordSizes[head & 0x3f] as number;
          if (open < 0) throw malformed(at, 'a record reference without a definition');
        }
        pos++;
      } else if (head < 0x90) {
        open = (head & 0x0f) * 2;
        opensMap = true;
        pos++;
      } else if (head < 0xa0) {
        open = head & 0x0f;
        pos++;
      } else if (head < 0xc0) {
        // fixstr, the most common item: checked inline.
        const length = head & 0x1f;
        const from = pos + 1;
        pos = from + length;
        if (pos > end) return this.stop(end, at, top, left, inMap, elements);
        if (length > maxStringBytes) throw tooLong(at, length, maxStringBytes, 'string');
        if (utf8) {
          let i = from;
          while (i < pos && (bytes[i] as number) < 0x80) i++;
          if (i < pos && !isUtf8(bytes, i, pos)) throw malformed(from, 'a string is not valid UTF-8');
        }
        if (key && (length === 9 || length === 11) && options.unsafeKeys) checkKey(bytes, from, length);
      } else if (head >= 0xe0) {
        pos++;
      } else if ((fixedSizes[head - 0xc0] as number) > 0) {
        pos += fixedSizes[head - 0xc0] as number;
        if (pos > end) return this.stop(end, at, top, left, inMap, elements);
      } else {
        const width = lengthWidths[head - 0xc0] as number;
        if (width === 0) throw malformed(at, `0x${head.toString(16)} is not a MessagePack type`);
        let length = 0;
        let after = pos + 1;
        if (width > 0) {
          after += width;
          if (after > end) return this.stop(end, at, top, left, inMap, elements);
          length = readLength(bytes, pos + 1, width);
        }
        if (head >= 0xd9 && head <= 0xdb) {
          pos = this.text(bytes, after, end, length, key);
          if (pos < 0) return this.stop(end, at, top, left, inMap, elements);
        } else if (head >= 0xc4 && head <= 0xc6) {
          if (length > maxBytesLength) throw tooLong(at, length, maxBytesLength, 'byte string');
          pos = after + length;
          if (pos > end) return this.stop(end, at, top, left, inMap, elements);
        } else if (head === 0xdc || head === 0xdd) {
          open = length;
          pos = after;
        } else if (head >= 0xde) {
          open = length * 2;
          opensMap = true;
          pos = after;
        } else {
          // Extensions: fixext 1/2/4/8/16 (d4–d8, no length field) and ext 8/16/32 (c7–c9).
          const dataLength = width < 0 ? 1 << (head - 0xd4) : length;
          const dataAt = after + 1;
          if (dataAt + dataLength > end) return this.stop(end, at, top, left, inMap, elements);
          const type = bytes[after] as number;
          if (records && head === 0xd4 && type === recordType) {
            const id = (bytes[dataAt] as number) & 0x3f;
            pos = this.record(bytes, dataAt + 1, end, id);
            if (pos < 0) return this.stop(end, at, top, left, inMap, elements);
            open = this.recordSizes[id] as number;
          } else {
            if (type !== 0xff) throw unknownExtension(at, type);
            checkTimestamp(bytes, dataAt, dataLength, at);
            if (dataLength > 4) this.wideTimestamp = true;
            pos = dataAt + dataLength;
          }
        }
      }
      if (key && (head < 0xa0 || head > 0xbf) && (head < 0xd9 || head > 0xdb)) this.nonStringKey = true;
      if (open >= 0) {
        if (top >= levels) throw tooDeep(at, limits);
        if (open > 0) {
          const before = elements;
          elements += opensMap ? open / 2 : open;
          if (elements > maxElements) throw tooManyElements(at, limits);
          // Every item takes at least one byte, so a count beyond the input is a lie or a cut.
          if (open > end - pos) return this.stop(end, at, top, left, inMap, before);
          if (top === this.left.length) this.growStack();
          this.left[top] = left;
          this.isMap[top] = inMap ? 1 : 0;
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
          return pos;
        }
        if (--left > 0) break;
        top--;
        left = this.left[top] as number;
        inMap = this.isMap[top] === 1;
      }
    }
  }

  /** Ends a walk that ran out of input inside the item that starts at `item`. */
  private stop(
    end: number,
    item: number,
    top: number,
    left: number,
    inMap: boolean,
    elements: number,
  ): number {
    const cut = this.cut;
    cut.pos = item;
    cut.top = top;
    cut.left = left;
    cut.inMap = inMap;
    cut.elements = elements;
    return this.ended(end, elements);
  }

  private growStack(): void {
    const size = Math.min(this.left.length * 2, this.limits.maxDepth + 1);
    const left = new Float64Array(size);
    left.set(this.left);
    const isMap = new Uint8Array(size);
    isMap.set(this.isMap);
    this.left = left;
    this.isMap = isMap;
  }
}
