/**
 * The CBOR scanner: one pass over the bytes, allocating nothing, that either proves a value safe to
 * hand to cbor-x or throws a WirekitError. cbor-x bounds no depth, decodes invalid UTF-8 to U+FFFD,
 * turns any tag into a Tag object or runs a hook registered for it, and builds bignums in time
 * quadratic in their length; the scanner refuses all of that first. It checks every length against
 * the remaining input and the limits, counts array items and map entries, keeps depth on an explicit
 * stack, checks each tag's content (RFC 8949 §3.4), and measures the value, which also cuts a CBOR
 * sequence (RFC 8742) into values. Before cbor-x, it also charges what cbor-x will build against
 * maxAllocatedBytes (core/budget.ts: each map as an object of two slots an entry, each array, string,
 * byte string, Date and bigint), so an input whose value would not fit the budget is refused
 * before anything is built.
 *
 * Tags read: 0 and 1 (date/time), 2 and 3 (bignums, at most 1 KiB), 4 (decimal fraction) and 55799
 * (self-described CBOR, skipped wherever it appears). Simple values other than false, true, null
 * and undefined are refused as unknown extensions, since JavaScript has no value for them.
 */
import { cost, overBudget } from '../../core/budget.js';
import { malformed, tooDeep, tooLong, tooManyElements } from '../../core/errors.js';
import { grown } from '../../core/grow.js';
import type { DecodeLimits } from '../../core/limits.js';
import { checkKey } from '../../keyed/decode/keys.js';
import { arrayCharge, mapKeyExtra, slotCharge, stringCharge } from '../../keyed/decode/scan-items.js';
import { asciiEnd, isUtf8 } from '../../keyed/decode/utf8-check.js';
import { CborItems, type CborScanOptions, libraryReadsInt64 } from './items.js';

export type { CborScanOptions };

/** Marks an open container as indefinite in `left`; its items so far are counted below it. */
const indefinite = -1;

/** An indefinite map's charge, as a plain constant beside keyed/decode/scan-items.ts's. */
const objectCharge = cost.object;

/**
 * Bytes taken by the items whose head says everything: integers (majors 0 and 1 with their
 * argument), false, true, null, undefined and floats; 0 for the rest, which the walk reads item
 * by item (reserved forms included, so that they are refused there).
 */
const scalarSizes = new Uint8Array(256);
for (let head = 0; head < 0x40; head++) {
  const info = head & 0x1f;
  scalarSizes[head] = info < 24 ? 1 : info < 28 ? 1 + (1 << (info - 24)) : 0;
}
for (let head = 0xf4; head <= 0xf7; head++) scalarSizes[head] = 1;
scalarSizes[0xf9] = 3;
scalarSizes[0xfa] = 5;
scalarSizes[0xfb] = 9;

export class CborScanner extends CborItems {
  /**
   * The containers around the innermost open one: the items each has left (or `indefinite`), the
   * parity of the items an indefinite one has read (key or value next), and whether it is a map.
   * The innermost one lives in locals of `walk`.
   */
  private left: Int32Array;
  private seen: Uint8Array;
  private isMap: Uint8Array;

  constructor(limits: DecodeLimits, options: CborScanOptions) {
    super(limits, options);
    const size = Math.min(limits.maxDepth, 32) + 1;
    this.left = new Int32Array(size);
    this.isMap = new Uint8Array(size);
    this.seen = new Uint8Array(size);
  }

  get needsOwnReader(): boolean {
    return this.nonStringKey || this.chunkedString || this.wideEpoch || this.wideInteger;
  }

  reset(): void {
    this.elements = 0;
    this.allocated = 0;
    this.charged = 0;
    this.nonStringKey = false;
    this.chunkedString = false;
    this.wideEpoch = false;
    this.wideInteger = false;
  }

  /** Scans the value at `start` inside `depth` containers: its end, or -1 when cut (see `endedAt`). */
  scan(bytes: Uint8Array, start: number, end: number, depth: number): number {
    this.cut.depth = depth;
    return this.walk(bytes, start, end, depth, 0, 0, 0, false, this.elements, this.allocated);
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
      cut.seen,
      cut.inMap,
      cut.elements,
      cut.allocated,
    );
  }

  /** Where the last cut value stopped: the start of its unfinished item, and the state there. */
  private readonly cut = {
    pos: 0,
    depth: 0,
    top: 0,
    left: 0,
    seen: 0,
    inMap: false,
    elements: 0,
    allocated: 0,
  };

  private walk(
    bytes: Uint8Array,
    start: number,
    end: number,
    depth: number,
    openAtStart: number,
    leftAtStart: number,
    seenAtStart: number,
    inMapAtStart: boolean,
    elementsAtStart: number,
    allocatedAtStart: number,
  ): number {
    const { limits, maxAllocated } = this;
    const { maxStringBytes, maxElements } = limits;
    const { utf8, unsafeKeys } = this.options;
    // The innermost open container lives in locals; the stack holds the ones around it.
    const levels = limits.maxDepth - depth;
    let top = openAtStart;
    let left = leftAtStart; // items left in a definite container, or `indefinite`
    let seen = seenAtStart; // parity of the items read by an indefinite container: 1 after a key
    let inMap = inMapAtStart;
    let elements = elementsAtStart;
    let allocated = allocatedAtStart;
    let pos = start;
    let at: number;
    let itemElements: number;
    let itemAllocated: number;
    for (;;) {
      at = pos;
      itemElements = elements;
      itemAllocated = allocated;
      if (pos >= end) return this.stop(end, at, top, left, seen, inMap, itemElements, itemAllocated);
      const head = bytes[pos] as number;
      if (head === 0xff) {
        // A break closes the innermost container, which must be an indefinite one.
        if (top === 0 || left !== indefinite)
          throw malformed(at, 'a break outside an indefinite-length item');
        if (inMap && seen === 1) throw malformed(at, 'an indefinite-length map ends after a key');
        pos++;
        top--;
        left = this.left[top] as number;
        seen = this.seen[top] as number;
        inMap = this.isMap[top] === 1;
      } else {
        const key = inMap && (left === indefinite ? seen : left & 1) === 0;
        const major = head >> 5;
        const info = head & 0x1f;
        if (major === 3 && info <= 24) {
          // A text string shorter than 256 bytes, the most common item: checked inline.
          let from = pos + 1;
          let length = info;
          if (info === 24) {
            if (from >= end) return this.stop(end, at, top, left, seen, inMap, itemElements, itemAllocated);
            length = bytes[from] as number;
            from++;
            // In this order as in `string`: a declared length is refused before the input is awaited.
            if (length > maxStringBytes) throw tooLong(at, length, maxStringBytes, 'string');
          }
          pos = from + length;
          if (pos > end) return this.stop(end, at, top, left, seen, inMap, itemElements, itemAllocated);
          if (length > maxStringBytes) throw tooLong(at, length, maxStringBytes, 'string');
          allocated += stringCharge + ((length + 7) & ~7);
          // Inline, not keyed/decode/scan-items.ts checkShortText: the call costs this loop measurably.
          if (utf8) {
            const i = asciiEnd(bytes, from, pos);
            if (i < pos && !isUtf8(bytes, i, pos)) throw malformed(from, 'a string is not valid UTF-8');
          }
          if (key && (length === 9 || length === 11) && unsafeKeys) checkKey(bytes, from, length);
        } else if ((scalarSizes[head] as number) !== 0) {
          // Integers, simple values and floats: the head says how long they are.
          if (key) {
            this.nonStringKey = true;
            allocated += mapKeyExtra;
          }
          pos += scalarSizes[head] as number;
          if (pos > end) return this.stop(end, at, top, left, seen, inMap, itemElements, itemAllocated);
          // A 64-bit integer argument (0x1b, 0x3b) from 2^53 - 2^48 on: see libraryReadsInt64.
          if ((head & 0xdf) === 0x1b && (bytes[at + 1] !== 0 || (bytes[at + 2] as number) >= 0x1f)) {
            if (!libraryReadsInt64(bytes, at)) {
              this.wideInteger = true;
              allocated += cost.bigint;
            }
          }
        } else if (major === 2 || major === 3) {
          if (key && major === 2) {
            this.nonStringKey = true;
            allocated += mapKeyExtra;
          }
          this.charged = 0;
          pos = this.string(bytes, pos, end, key && major === 3);
          allocated += this.charged;
          if (pos < 0) return this.stop(end, at, top, left, seen, inMap, itemElements, itemAllocated);
        } else if (major === 4 || major === 5) {
          if (key) {
            this.nonStringKey = true;
            allocated += mapKeyExtra;
          }
          if (top >= levels) throw tooDeep(at, limits);
          let items = indefinite;
          if (info === 31) pos++;
          else {
            let count = info;
            if (info < 24) pos++;
            else {
              if (this.argument(bytes, pos, end) < 0)
                return this.stop(end, at, top, left, seen, inMap, itemElements, itemAllocated);
              if (this.value > this.maxContainer) throw tooManyElements(at, limits);
              count = this.value | 0; // an int32 by the check above
              pos = this.next;
            }
            elements += count;
            if (elements > maxElements) throw tooManyElements(at, limits);
            items = major === 5 ? count * 2 : count;
            // Every item takes at least one byte, so a count beyond the input is a lie or a cut.
            if (items > end - pos)
              return this.stop(end, at, top, left, seen, inMap, itemElements, itemAllocated);
            // Charged once the count is known to fit the input: a map's entries as two slots each.
            allocated += items * slotCharge;
          }
          // An indefinite container's items are charged as each one ends (below).
          allocated += major === 5 ? objectCharge : arrayCharge;
          if (allocated > maxAllocated) throw overBudget(maxAllocated, at);
          if (items !== 0) {
            if (top === this.left.length) this.growStack();
            this.left[top] = left;
            this.seen[top] = seen;
            this.isMap[top] = inMap ? 1 : 0;
            top++;
            left = items;
            seen = 0;
            inMap = major === 5;
            continue;
          }
        } else if (major === 6) {
          if (key) {
            this.nonStringKey = true;
            allocated += mapKeyExtra;
          }
          if (this.argument(bytes, pos, end) < 0)
            return this.stop(end, at, top, left, seen, inMap, itemElements, itemAllocated);
          // Self-described CBOR (55799) marks the item that follows, which takes its place.
          if (this.value === 55799) {
            pos = this.next;
            continue;
          }
          this.charged = 0;
          pos = this.tag(bytes, this.value, pos, this.next, end);
          if (pos < 0) return this.stop(end, at, top, left, seen, inMap, itemElements, itemAllocated);
          allocated += this.charged;
        } else {
          if (key) {
            this.nonStringKey = true;
            allocated += mapKeyExtra;
          }
          pos = this.scalar(bytes, pos, end);
          if (pos < 0) return this.stop(end, at, top, left, seen, inMap, itemElements, itemAllocated);
        }
      }
      // The item is complete, and so is every definite container it was the last item of.
      for (;;) {
        if (top === 0) {
          this.elements = elements;
          this.allocated = allocated;
          if (allocated > maxAllocated) throw overBudget(maxAllocated, at);
          return pos;
        }
        if (left === indefinite) {
          seen ^= 1;
          if (!inMap || seen === 0) {
            elements++;
            if (elements > maxElements) throw tooManyElements(at, limits);
            allocated += inMap ? 2 * slotCharge : slotCharge;
            if (allocated > maxAllocated) throw overBudget(maxAllocated, at);
          }
          break;
        }
        if (--left > 0) break;
        top--;
        left = this.left[top] as number;
        seen = this.seen[top] as number;
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
    seen: number,
    inMap: boolean,
    elements: number,
    allocated: number,
  ): number {
    const cut = this.cut;
    cut.pos = item;
    cut.top = top;
    cut.left = left;
    cut.seen = seen;
    cut.inMap = inMap;
    cut.elements = elements;
    cut.allocated = allocated;
    return this.ended(end, elements);
  }

  private growStack(): void {
    const size = Math.min(this.left.length * 2, this.limits.maxDepth + 1);
    this.left = grown(this.left, size);
    this.seen = grown(this.seen, size);
    this.isMap = grown(this.isMap, size);
  }
}
