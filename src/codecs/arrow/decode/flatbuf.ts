/**
 * A FlatBuffers reader that checks every offset before it follows it. apache-arrow's generated
 * readers trust the buffer (a hostile vector length sends them looping over gigabytes of nothing),
 * and the flatbuffers package has no verifier, so IPC metadata is read through this instead.
 */
import { malformed } from '../../core/errors.js';
import { decodeUtf8 } from '../../core/utf8.js';

const two32 = 4_294_967_296;

export class FlatReader {
  private readonly view: DataView;
  private readonly length: number;
  /**
   * Work left, in bytes visited. Offsets may point many times at one table or string, which would
   * let a small buffer describe an exponentially large tree; honest writers never share, so every
   * byte is visited about once, and twice the length is ample.
   */
  private budget: number;

  /** `base` is where `bytes` starts in the whole input, for error offsets. */
  constructor(
    private readonly bytes: Uint8Array,
    private readonly base: number,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.length = bytes.byteLength;
    this.budget = 2 * bytes.byteLength + 64;
  }

  private spend(pos: number, bytes: number): void {
    this.budget -= bytes;
    if (this.budget < 0) this.fail(pos, 'tables or strings are shared too often');
  }

  /** The root table of the buffer. */
  root(): number {
    this.need(0, 4);
    return this.table(this.view.getUint32(0, true));
  }

  /** Checks the table at `pos` and its vtable; returns `pos`. */
  table(pos: number): number {
    this.spend(pos, 4);
    this.need(pos, 4);
    const vtable = pos - this.view.getInt32(pos, true);
    this.need(vtable, 4);
    const vtableSize = this.view.getUint16(vtable, true);
    const tableSize = this.view.getUint16(vtable + 2, true);
    if (vtableSize < 4 || vtableSize % 2 !== 0 || tableSize < 4)
      this.fail(vtable, 'a table layout is invalid');
    this.need(vtable, vtableSize);
    this.need(pos, tableSize);
    return pos;
  }

  /** Where field `slot` of the table is stored, or 0 when absent; checks `size` bytes fit the table. */
  private field(table: number, slot: number, size: number): number {
    const vtable = table - this.view.getInt32(table, true);
    const entry = 4 + 2 * slot;
    if (entry >= this.view.getUint16(vtable, true)) return 0;
    const offset = this.view.getUint16(vtable + entry, true);
    if (offset === 0) return 0;
    if (offset + size > this.view.getUint16(vtable + 2, true))
      this.fail(table, 'a field lies outside its table');
    return table + offset;
  }

  uint8(table: number, slot: number, fallback: number): number {
    const at = this.field(table, slot, 1);
    return at === 0 ? fallback : this.view.getUint8(at);
  }

  bool(table: number, slot: number): boolean {
    return this.uint8(table, slot, 0) !== 0;
  }

  int16(table: number, slot: number, fallback: number): number {
    const at = this.field(table, slot, 2);
    return at === 0 ? fallback : this.view.getInt16(at, true);
  }

  int32(table: number, slot: number, fallback: number): number {
    const at = this.field(table, slot, 4);
    return at === 0 ? fallback : this.view.getInt32(at, true);
  }

  /** A 64-bit field that must be a count or offset: 0 to 2^53 - 1. */
  count(table: number, slot: number): number {
    const at = this.field(table, slot, 8);
    return at === 0 ? 0 : this.countAt(at);
  }

  /** The 64-bit count stored at `pos` (a struct member); anything negative or past 2^53 is refused. */
  countAt(pos: number): number {
    this.need(pos, 8);
    const low = this.view.getUint32(pos, true);
    const high = this.view.getInt32(pos + 4, true);
    if (high < 0 || high >= 0x200000) this.fail(pos, 'a length or offset is negative or beyond 2^53');
    return high * two32 + low;
  }

  int32At(pos: number): number {
    this.need(pos, 4);
    return this.view.getInt32(pos, true);
  }

  /** Follows an offset field to its target, or 0 when the field is absent. */
  private target(table: number, slot: number): number {
    const at = this.field(table, slot, 4);
    if (at === 0) return 0;
    const target = at + this.view.getUint32(at, true);
    this.need(target, 4);
    return target;
  }

  /** A sub-table, or 0 when absent. */
  subTable(table: number, slot: number): number {
    const target = this.target(table, slot);
    return target === 0 ? 0 : this.table(target);
  }

  /**
   * A vector of `elementSize`-byte elements: the position of its first element and its length, or
   * [0, 0] when absent. The whole vector is checked to lie inside the buffer.
   */
  vector(table: number, slot: number, elementSize: number): readonly [number, number] {
    const target = this.target(table, slot);
    if (target === 0) return [0, 0];
    const length = this.view.getUint32(target, true);
    if (length * elementSize > this.length - target - 4) this.fail(target, 'a vector runs past its buffer');
    return [target + 4, length];
  }

  /** The table that element `index` of a vector of tables points to. */
  tableAt(start: number, index: number): number {
    const at = start + 4 * index;
    return this.table(at + this.view.getUint32(at, true));
  }

  string(table: number, slot: number): string | undefined {
    const [start, length] = this.vector(table, slot, 1);
    if (start === 0) return undefined;
    this.spend(start, length + 4);
    try {
      return decodeUtf8(this.bytes, start, start + length);
    } catch {
      return this.fail(start, 'a name or metadata string is not valid UTF-8');
    }
  }

  /** The key-value pairs of a custom_metadata vector. */
  metadata(table: number, slot: number): Map<string, string> {
    const out = new Map<string, string>();
    const [start, length] = this.vector(table, slot, 4);
    for (let i = 0; i < length; i++) {
      const pair = this.tableAt(start, i);
      out.set(this.string(pair, 0) ?? '', this.string(pair, 1) ?? '');
    }
    return out;
  }

  private need(pos: number, size: number): void {
    if (pos < 0 || pos + size > this.length) this.fail(pos, 'an offset points outside the metadata');
  }

  /** Where `pos` lies in the whole input. */
  offsetOf(pos: number): number {
    return this.base + pos;
  }

  fail(pos: number, message: string): never {
    throw malformed(this.base + pos, `Arrow metadata: ${message}`);
  }
}
