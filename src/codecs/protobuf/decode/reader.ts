/**
 * Protobuf's primitives read from untrusted bytes. Every read is bounded by `end` (the end of the
 * message being read), so a field can never run into its parent's bytes; every problem is a
 * WirekitError with the offset where it was found.
 */

import { AllocationBudget, cost } from '../../core/budget.js';
import { bufferView } from '../../core/buffer-view.js';
import { malformed, tooDeep, tooManyElements, truncated } from '../../core/errors.js';
import type { DecodeLimits } from '../../core/limits.js';
import { TextReader } from '../../core/utf8.js';
import { END_GROUP, FIXED32, FIXED64, LEN, START_GROUP, VARINT } from '../layout.js';

export class ProtobufReader {
  readonly buf: Uint8Array;
  pos = 0;
  /** The end of the message being read. */
  end: number;
  /** Levels of the value around the current position (see Slot.levels). */
  depth = 0;
  /** Array items and map entries decoded so far. */
  elements = 0;
  /** What the value decoded so far costs the heap (core/budget.ts), charged before each thing is made. */
  readonly budget: AllocationBudget;
  /** The high 32 bits of the last `varint64`. */
  hi = 0;
  readonly limits: DecodeLimits;
  /** Refuse a field number the schema does not name (`unknownKeys: 'reject'`) rather than skip it. */
  rejectUnknown = false;
  private view: DataView | undefined;

  /** The input's strings (short ASCII strings cut from windows of it). */
  readonly text: TextReader;

  constructor(
    buf: Uint8Array,
    limits: DecodeLimits,
    budget = new AllocationBudget(limits.maxAllocatedBytes),
  ) {
    // A Buffer's slice() is a view, not a copy: read through a plain Uint8Array so that the bytes
    // fields decoded (slices of the input) are copies, never views into a buffer the caller reuses.
    this.buf =
      buf.constructor === Uint8Array ? buf : new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    this.text = new TextReader(this.buf);
    this.end = buf.length;
    this.limits = limits;
    this.budget = budget;
  }

  /** Enters a nested body `levels` deeper that reaches `need` levels (a slot's); `leave` undoes it. */
  enter(levels: number, need: number): void {
    if (this.depth + need > this.limits.maxDepth) throw tooDeep(this.pos, this.limits);
    this.depth += levels;
  }

  leave(levels: number): void {
    this.depth -= levels;
  }

  /** Counts a list item or map entry, and charges its slot in the list (a map entry adds one). */
  countElement(): void {
    if (++this.elements > this.limits.maxElements) throw tooManyElements(this.pos, this.limits);
    this.budget.charge(cost.slot, this.pos);
  }

  /** Counts the items or members of a container of a json value, and charges their slots. */
  countElements(items: number): void {
    this.elements += items;
    if (this.elements > this.limits.maxElements) throw tooManyElements(this.pos, this.limits);
    this.budget.charge(items * cost.slot, this.pos);
  }

  /** A field key: a varint of at most 32 bits, a field number of at least 1 and a wire type of 0-5. */
  tag(): number {
    const pos = this.pos;
    if (pos < this.end) {
      const byte = this.buf[pos] as number;
      if (byte < 0x80 && byte >= 8 && (byte & 7) < 6) {
        this.pos = pos + 1;
        return byte;
      }
    }
    const tag = this.varint64();
    if (this.hi !== 0 || this.pos - pos > 5) throw malformed(pos, 'a field key is longer than 32 bits');
    if (tag < 8) throw malformed(pos, 'a field number is 0');
    if ((tag & 7) > 5) throw malformed(pos, `wire type ${tag & 7} does not exist`);
    return tag;
  }

  /** The low 32 bits of a varint of up to 10 bytes, unsigned. */
  uint32(): number {
    const buf = this.buf;
    const end = this.end;
    let pos = this.pos;
    if (pos < end) {
      const byte = buf[pos] as number;
      if (byte < 0x80) {
        this.pos = pos + 1;
        return byte;
      }
    }
    let value = 0;
    for (let shift = 0; shift < 32; shift += 7) {
      if (pos >= end) throw truncated(pos, 'a varint');
      const byte = buf[pos++] as number;
      value |= (byte & 0x7f) << shift;
      if (byte < 0x80) {
        this.pos = pos;
        return value >>> 0;
      }
    }
    // Bits above 32 are dropped, as protobuf's own parsers do for 32-bit fields.
    for (let i = 5; i < 10; i++) {
      if (pos >= end) throw truncated(pos, 'a varint');
      if ((buf[pos++] as number) < 0x80) {
        this.pos = pos;
        return value >>> 0;
      }
    }
    throw malformed(this.pos, 'a varint is longer than 10 bytes');
  }

  /** A 64-bit varint: returns the low 32 bits (unsigned) and leaves the high ones in `hi`. */
  varint64(): number {
    const buf = this.buf;
    const end = this.end;
    let pos = this.pos;
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 10; i++) {
      if (pos >= end) throw truncated(pos, 'a varint');
      const byte = buf[pos++] as number;
      const bits = byte & 0x7f;
      if (i < 4) lo |= bits << (7 * i);
      else if (i === 4) {
        lo |= bits << 28;
        hi = bits >>> 4;
      } else hi |= bits << (7 * i - 32);
      if (byte < 0x80) {
        this.pos = pos;
        this.hi = hi >>> 0;
        return lo >>> 0;
      }
    }
    throw malformed(this.pos, 'a varint is longer than 10 bytes');
  }

  /** A length prefix, checked against the bytes left in the current message. */
  length(what: string): number {
    const start = this.pos;
    if (start < this.end) {
      const byte = this.buf[start] as number;
      if (byte < 0x80) {
        if (byte > this.end - start - 1) throw truncated(start, what);
        this.pos = start + 1;
        return byte;
      }
    }
    const length = this.varint64();
    if (this.hi !== 0 || length > this.end - this.pos) throw truncated(start, what);
    return length;
  }

  float(): number {
    const pos = this.pos;
    if (pos + 4 > this.end) throw truncated(pos, 'a float');
    this.pos = pos + 4;
    return this.dataView().getFloat32(this.buf.byteOffset + pos, true);
  }

  /** Four little-endian bytes as an unsigned integer (fixed32; `| 0` makes it sfixed32). */
  fixed32(): number {
    const pos = this.pos;
    if (pos + 4 > this.end) throw truncated(pos, 'a fixed32');
    this.pos = pos + 4;
    return this.dataView().getUint32(this.buf.byteOffset + pos, true);
  }

  double(): number {
    const pos = this.pos;
    if (pos + 8 > this.end) throw truncated(pos, 'a double');
    this.pos = pos + 8;
    return this.dataView().getFloat64(this.buf.byteOffset + pos, true);
  }

  /** A DataView of the input's whole buffer (core/buffer-view.ts): positions add `buf.byteOffset`. */
  private dataView(): DataView {
    if (this.view === undefined) this.view = bufferView(this.buf.buffer);
    return this.view;
  }

  /** Skips a field this schema does not know: protobuf's forward compatibility. */
  skip(wire: number, number: number): void {
    const start = this.pos;
    switch (wire) {
      case VARINT:
        this.varint64();
        return;
      case FIXED64:
        if (start + 8 > this.end) throw truncated(start, 'a fixed64 field');
        this.pos = start + 8;
        return;
      case LEN: {
        const length = this.length('a length-delimited field');
        this.pos += length;
        return;
      }
      case FIXED32:
        if (start + 4 > this.end) throw truncated(start, 'a fixed32 field');
        this.pos = start + 4;
        return;
      case START_GROUP:
        this.skipGroup(number);
        return;
      case END_GROUP:
        throw malformed(start, `an end-group key for field ${number} has no start`);
      default:
        throw malformed(start, `wire type ${wire} does not exist`);
    }
  }

  /**
   * Skips a (proto2) group up to its matching end key. Groups nest, so this keeps its own stack of
   * open field numbers rather than recursing, and counts them against maxDepth.
   */
  private skipGroup(number: number): void {
    const open = [number];
    while (open.length > 0) {
      if (this.pos >= this.end) throw truncated(this.pos, 'a group');
      const start = this.pos;
      const tag = this.tag();
      const wire = tag & 7;
      const inner = Math.floor(tag / 8);
      if (wire === END_GROUP) {
        if (inner !== open.pop())
          throw malformed(start, `an end-group key for field ${inner} does not match`);
      } else if (wire === START_GROUP) {
        if (this.depth + open.length >= this.limits.maxDepth) throw tooDeep(start, this.limits);
        open.push(inner);
      } else {
        this.skip(wire, inner);
      }
    }
  }
}
