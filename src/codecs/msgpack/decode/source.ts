import { parseIsoTime, parseIsoTimeExpanded } from '../../../util/iso-time.js';
import type { AllocationBudget } from '../../core/budget.js';
import { cost, stringCost } from '../../core/budget.js';
import {
  isUnsafeKey,
  malformed,
  tooDeep,
  tooLong,
  tooManyElements,
  truncated,
  unsafeKey,
} from '../../core/errors.js';
import type { DecodeLimits } from '../../core/limits.js';
import { readCanonicalTime } from '../../core/read-time.js';
import {
  readBigInt64,
  readBigUint64,
  readFloat32,
  readFloat64,
  readInt8,
  readInt16,
  readInt32,
  readUint16,
  readUint32,
} from '../../keyed/decode/big-endian.js';
import { RecordKeys } from '../../keyed/decode/record-keys.js';
import { measuringScan } from '../../keyed/decode/scan-items.js';
import { KeyedSource } from '../../keyed/decode/source.js';
import { schemaMismatch } from '../../keyed/failures.js';
import { ItemKind, type WireSource } from '../../keyed/wire.js';
import { isInteger, readLength, typeName } from './items.js';
import { MsgpackScanner } from './scan.js';

const two32 = 0x1_0000_0000;
const maxDateMillis = 8.64e15;

export interface MsgpackSourceOptions {
  /**
   * Also read two spellings that writers before wirekit leave where the schema's mapping has
   * another (the cache's legacy readers): a timestamp as RFC 3339 text, which is what a JSON round
   * trip (`JSON.parse(JSON.stringify(v))` before encoding) makes of a Date, and an integer as an
   * integral float, which is how msgpackr writes integers beyond 32 bits. Tried only where the
   * schema's own reading fails, so values the mapping reads cost nothing more.
   */
  readonly otherSpellings?: boolean;
  /**
   * msgpackr's record extension (`msgpackRecords`): objects and string-keyed maps may be records,
   * defined inline in the value (fixext 1 of type 0x72, an id in 0x40–0x7f, the array of keys) and
   * referred to by their id byte after; maps are read too.
   */
  readonly records?: boolean;
}

/** A record definition is fixext 1 (0xd4) of type 0x72 ('r'); its id is the byte after. */
const fixext1 = 0xd4;
const recordType = 0x72;

interface KnownDefinition {
  readonly bytes: Uint8Array;
  readonly keys: RecordKeys;
  readonly cost: number;
}

/** Definitions kept for knownDefinition: more than a schema's shapes, bounded against hostile input. */
const keptDefinitions = 256;

/**
 * Where the definition's array of keys at `at` ends, from its headers alone (no key decoded), or
 * -1 where it is anything but an array of strings within the input (definition() then says why).
 */
function definitionEnd(bytes: Uint8Array, at: number, end: number): number {
  const head = bytes[at] as number;
  let count: number;
  let pos = at + 1;
  if (head >= 0x90 && head < 0xa0) count = head & 0x0f;
  else if (head === 0xdc && at + 3 <= end) {
    count = readLength(bytes, at + 1, 2);
    pos += 2;
  } else return -1;
  if (count > end - pos) return -1;
  for (let i = 0; i < count; i++) {
    if (pos >= end) return -1;
    const key = bytes[pos] as number;
    if (key >= 0xa0 && key < 0xc0) pos += 1 + (key & 0x1f);
    else if (key === 0xd9 && pos + 1 < end) pos += 2 + (bytes[pos + 1] as number);
    else return -1;
  }
  return pos <= end ? pos : -1;
}

/** FNV-1a over bytes[start, end). */
function hashOf(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ (bytes[i] as number), 0x01000193);
  return hash;
}

function sameBytes(known: Uint8Array, bytes: Uint8Array, start: number, end: number): boolean {
  if (known.length !== end - start) return false;
  for (let i = 0; i < known.length; i++) if (known[i] !== bytes[start + i]) return false;
  return true;
}

export class MsgpackSource extends KeyedSource implements WireSource {
  private readonly otherSpellings: boolean;
  private readonly records: boolean;
  /** The records defined so far in this value, by id - 0x40 (records mode). */
  private readonly structures: (RecordKeys | undefined)[] = new Array(64).fill(undefined);
  /** What skips items in records mode, knowing the records defined before them. */
  private readonly recordSkipper: MsgpackScanner | undefined;
  private readonly knownSizes = new Int32Array(64);
  /** Definitions read before, by a hash of their bytes: their keys and what reading them cost the budget. */
  private readonly definitions = new Map<number, KnownDefinition>();

  constructor(limits: DecodeLimits, options: MsgpackSourceOptions = {}) {
    super(limits, new MsgpackScanner(limits, { ...measuringScan, records: false }), typeName);
    this.otherSpellings = options.otherSpellings === true;
    this.records = options.records === true;
    this.recordSkipper = this.records
      ? new MsgpackScanner(limits, { ...measuringScan, records: true })
      : undefined;
  }

  override reset(input: Uint8Array, budget: AllocationBudget): void {
    super.reset(input, budget);
    if (this.records) this.structures.fill(undefined);
  }

  override recordAhead(level: number, entries: boolean): RecordKeys | undefined {
    if (!this.records || this.pos >= this.end) return undefined;
    const at = this.pos;
    const input = this.input;
    const head = input[at] as number;
    let keys: RecordKeys | undefined;
    if (head >= 0x40 && head < 0x80) {
      if (level > this.limits.maxDepth) throw tooDeep(at, this.limits);
      keys = this.structures[head & 0x3f];
      if (keys === undefined) throw malformed(at, 'a record id that no definition before it gives');
      this.pos = at + 1;
    } else if (head === fixext1 && input[at + 1] === recordType) {
      if (level > this.limits.maxDepth) throw tooDeep(at, this.limits);
      this.need(3);
      // msgpackr reads the id's low six bits, whatever the two above them.
      const id = (input[at + 2] as number) & 0x3f;
      this.pos = at + 3;
      keys = this.knownDefinition() ?? this.definition();
      this.structures[id] = keys;
    } else if (head === 0xd5 && input[at + 1] === recordType) {
      // msgpackr writes these only with shared structures (more than 32, or 64 in all).
      throw malformed(at, 'a record with a two-byte id (msgpackr with shared structures) is not read here');
    } else return undefined;
    const count = keys.names.length;
    if (entries) {
      this.elements += count;
      if (this.elements > this.limits.maxElements) throw tooManyElements(at, this.limits);
    }
    if (count > this.end - this.pos) throw truncated(this.end);
    this.budget.charge(cost.object + 2 * count * cost.slot, at);
    return keys;
  }

  /**
   * The keys of the definition at `pos` when the same bytes were read as a definition before (in
   * this value or an earlier one), with the definition passed and charged as reading it again would
   * have been; else undefined, nothing read. Every value defines its records again, so values of a
   * few shapes would otherwise decode and check the same keys once per value, which cost small
   * values (a status, a message) more than reading their fields.
   */
  private knownDefinition(): RecordKeys | undefined {
    const at = this.pos;
    const stop = definitionEnd(this.input, at, this.end);
    if (stop < 0) return undefined;
    const known = this.definitions.get(hashOf(this.input, at, stop));
    if (known === undefined || !sameBytes(known.bytes, this.input, at, stop)) return undefined;
    this.elements += known.keys.names.length;
    if (this.elements > this.limits.maxElements) throw tooManyElements(at, this.limits);
    this.budget.charge(known.cost, at);
    this.pos = stop;
    return known.keys;
  }

  /** Keeps the definition read from `at` to `pos` for knownDefinition, within a bounded number. */
  private keepDefinition(at: number, keys: RecordKeys, cost: number): void {
    if (this.definitions.size >= keptDefinitions) this.definitions.clear();
    const bytes = this.input.slice(at, this.pos);
    this.definitions.set(hashOf(bytes, 0, bytes.length), { bytes, keys, cost });
  }

  /**
   * A record definition's array of keys, from `pos`: distinct strings, each within maxStringBytes,
   * valid UTF-8 and no key refused in maps (`__proto__`); the keys count against maxElements. Kept
   * for knownDefinition.
   */
  private definition(): RecordKeys {
    const at = this.pos;
    const used = this.budget.used;
    const head = this.head();
    let count: number;
    let width = 0;
    if (head >= 0x90 && head < 0xa0) count = head & 0x0f;
    else if (head === 0xdc || head === 0xdd) {
      width = head === 0xdc ? 2 : 4;
      this.need(1 + width);
      count = readLength(this.input, at + 1, width);
    } else throw malformed(at, 'a record definition without its array of keys');
    this.elements += count;
    if (this.elements > this.limits.maxElements) throw tooManyElements(at, this.limits);
    this.pos = at + 1 + width;
    if (count > this.end - this.pos) throw truncated(this.end);
    this.budget.charge(cost.array + count * cost.slot, at);
    const names: string[] = new Array(count);
    const distinct = new Set<string>();
    for (let i = 0; i < count; i++) {
      const keyAt = this.pos;
      const head = this.input[keyAt] as number;
      if (!((head >= 0xa0 && head < 0xc0) || (head >= 0xd9 && head <= 0xdb)))
        throw malformed(keyAt, 'a record key that is not a string');
      const name = this.string();
      if (isUnsafeKey(name)) throw unsafeKey(keyAt, name);
      if (distinct.has(name))
        throw malformed(keyAt, `the key ${JSON.stringify(name)} appears twice in a record definition`);
      distinct.add(name);
      names[i] = name;
    }
    const keys = new RecordKeys(names);
    this.keepDefinition(at, keys, this.budget.used - used);
    return keys;
  }

  /**
   * In records mode, the records scanner skips the item, knowing the sizes of the records defined
   * before it; the records the item defines are the value's too (later items may refer to them),
   * so their definitions are read after it.
   */
  override skip(depth: number): void {
    const skipper = this.recordSkipper;
    if (skipper === undefined) {
      super.skip(depth);
      return;
    }
    const sizes = this.knownSizes;
    for (let id = 0; id < 64; id++) sizes[id] = this.structures[id]?.names.length ?? -1;
    skipper.elements = this.elements;
    const end = skipper.scanAmidRecords(this.input, this.pos, this.end, depth, sizes);
    if (end < 0) throw truncated(skipper.endedAt);
    this.elements = skipper.elements;
    const definedAt = skipper.recordDefinedAt;
    for (let id = 0; id < 64; id++) {
      const at = definedAt[id] as number;
      if (at < 0) continue;
      this.pos = at;
      this.structures[id] = this.knownDefinition() ?? this.definition();
    }
    this.pos = end;
  }

  /** The head byte of the next item; the input must not end here. */
  private head(): number {
    if (this.pos >= this.end) throw truncated(this.pos);
    return this.input[this.pos] as number;
  }

  nullish(): number {
    if (this.pos < this.end && this.input[this.pos] === 0xc0) {
      this.pos++;
      return 1;
    }
    return 0;
  }

  bool(): boolean {
    const head = this.head();
    if (head !== 0xc2 && head !== 0xc3) throw this.wrongType('a boolean');
    this.pos++;
    return head === 0xc3;
  }

  integer(): number | bigint {
    const head = this.head();
    const at = this.pos + 1;
    if (head < 0x80) {
      // In records mode a defined record's id is the record (msgpackr reads it so).
      if (head >= 0x40 && this.records && this.structures[head & 0x3f] !== undefined)
        throw this.wrongType('an integer');
      this.pos++;
      return head;
    }
    if (head >= 0xe0) {
      this.pos++;
      return head - 0x100;
    }
    const input = this.input;
    switch (head) {
      case 0xcc:
        this.need(2);
        this.pos += 2;
        return this.input[at] as number;
      case 0xcd:
        this.need(3);
        this.pos += 3;
        return readUint16(input, at);
      case 0xce:
        this.need(5);
        this.pos += 5;
        return readUint32(input, at);
      case 0xcf: {
        this.need(9);
        this.pos += 9;
        const high = readUint32(input, at);
        return high < 0x20_0000 ? high * two32 + readUint32(input, at + 4) : readBigUint64(input, at);
      }
      case 0xd0:
        this.need(2);
        this.pos += 2;
        return readInt8(input, at);
      case 0xd1:
        this.need(3);
        this.pos += 3;
        return readInt16(input, at);
      case 0xd2:
        this.need(5);
        this.pos += 5;
        return readInt32(input, at);
      case 0xd3: {
        this.need(9);
        this.pos += 9;
        const high = readInt32(input, at);
        if (high >= -0x20_0000 && high < 0x20_0000) {
          const value = high * two32 + readUint32(input, at + 4);
          // -2^53 is exact as a number but not a safe integer: a bigint, as from CBOR.
          if (value >= Number.MIN_SAFE_INTEGER) return value;
        }
        return readBigInt64(input, at);
      }
      default:
        return this.integralFloat();
    }
  }

  /** An integer spelt as a float, read only with `otherSpellings` (a safe integer as a number, as `integer` gives it). */
  private integralFloat(): number | bigint {
    const head = this.input[this.pos] as number;
    if (!this.otherSpellings || (head !== 0xca && head !== 0xcb)) throw this.wrongType('an integer');
    const at = this.pos;
    const value = this.float();
    if (!Number.isInteger(value)) {
      this.pos = at;
      throw this.wrongType('an integer');
    }
    // -0 is no integer's value; past 2^53 - 1 the float is still the integer it holds, exactly.
    return Number.isSafeInteger(value) ? value + 0 : BigInt(value);
  }

  float(): number {
    const head = this.head();
    if (head === 0xcb) {
      this.need(9);
      this.pos += 9;
      return readFloat64(this.input, this.pos - 8);
    }
    if (head === 0xca) {
      this.need(5);
      this.pos += 5;
      return readFloat32(this.input, this.pos - 4);
    }
    if (!isInteger(head)) throw this.wrongType('a number');
    return Number(this.integer());
  }

  /** Reads a string header and checks the length; leaves pos after the header, returns the length. */
  private textHeader(limited = true): number {
    const head = this.head();
    let length: number;
    let width = 0;
    if (head >= 0xa0 && head < 0xc0) length = head & 0x1f;
    else if (head >= 0xd9 && head <= 0xdb) {
      width = 1 << (head - 0xd9);
      this.need(1 + width);
      length = readLength(this.input, this.pos + 1, width);
    } else throw this.wrongType('a string');
    if (limited && length > this.limits.maxStringBytes)
      throw tooLong(this.pos, length, this.limits.maxStringBytes, 'string');
    this.need(1 + width + length);
    this.pos += 1 + width;
    return length;
  }

  string(): string {
    const at = this.pos;
    const length = this.textHeader();
    this.budget.charge(stringCost(length), at);
    const start = this.pos;
    this.pos += length;
    return this.text.read(start, start + length);
  }

  span(): void {
    this.spanOf(this.textHeader());
  }

  nameSpan(): void {
    this.spanOf(this.textHeader(false));
  }

  private spanOf(length: number): void {
    this.spanStart = this.pos;
    this.pos += length;
    this.spanEnd = this.pos;
  }

  bytes(): Uint8Array {
    const head = this.head();
    if (head < 0xc4 || head > 0xc6) throw this.wrongType('a byte string');
    const width = 1 << (head - 0xc4);
    this.need(1 + width);
    const length = readLength(this.input, this.pos + 1, width);
    if (length > this.limits.maxBytesLength)
      throw tooLong(this.pos, length, this.limits.maxBytesLength, 'byte string');
    this.need(1 + width + length);
    this.budget.charge(cost.bytes + length, this.pos);
    const start = this.pos + 1 + width;
    this.pos = start + length;
    return this.input.slice(start, start + length);
  }

  timestamp(): number {
    const head = this.head();
    const at = this.pos;
    let length: number;
    let dataAt: number;
    if (head === 0xd6 || head === 0xd7) {
      length = head === 0xd6 ? 4 : 8;
      dataAt = at + 2;
      this.need(2);
      if (this.input[at + 1] !== 0xff) throw this.wrongType('a timestamp');
    } else if (head === 0xc7) {
      this.need(3);
      length = this.input[at + 1] as number;
      dataAt = at + 3;
      if (length !== 12 || this.input[at + 2] !== 0xff) throw this.wrongType('a timestamp');
    } else return this.textTimestamp();
    if (dataAt + length > this.end) throw truncated(this.end);
    const input = this.input;
    let seconds: number;
    let nanos: number;
    if (length === 4) {
      seconds = readUint32(input, dataAt);
      nanos = 0;
    } else if (length === 8) {
      const high = readUint32(input, dataAt);
      nanos = Math.floor(high / 4);
      seconds = (high & 3) * two32 + readUint32(input, dataAt + 4);
    } else {
      nanos = readUint32(input, dataAt);
      seconds = readInt32(input, dataAt + 4) * two32 + readUint32(input, dataAt + 8);
    }
    if (nanos >= 1_000_000_000) throw malformed(at, 'a timestamp has 10^9 nanoseconds or more');
    // A Date holds milliseconds: the nanoseconds below are dropped (rounding toward the past).
    const millis = seconds * 1000 + Math.floor(nanos / 1_000_000);
    if (!(Math.abs(millis) <= maxDateMillis))
      throw schemaMismatch(at, 'a timestamp beyond the range of a Date');
    this.budget.charge(cost.date, at);
    this.pos = dataAt + length;
    return millis;
  }

  /** A timestamp spelt as RFC 3339 text, read only with `otherSpellings`; in milliseconds, as `timestamp` gives it. */
  private textTimestamp(): number {
    const head = this.input[this.pos] as number;
    const text = (head >= 0xa0 && head < 0xc0) || (head >= 0xd9 && head <= 0xdb);
    if (!this.otherSpellings || !text) throw this.wrongType('a timestamp');
    const at = this.pos;
    const value = this.string();
    const date = readCanonicalTime(value) ?? parseIsoTime(value) ?? parseIsoTimeExpanded(value);
    if (date === undefined) {
      throw schemaMismatch(
        at,
        `expected a timestamp or RFC 3339 text, got ${JSON.stringify(value.slice(0, 40))}`,
      );
    }
    this.budget.charge(cost.date, at);
    return date.getTime();
  }

  decimal(): string {
    return this.decimalText();
  }

  /**
   * A container's header: `items` is its items (a map's keys and values both count), `base` what
   * the container itself costs, `elements` what it counts against maxElements. Charged once the
   * items are known to fit the input: every item takes at least one byte.
   */
  private container(
    level: number,
    count: number,
    items: number,
    width: number,
    base: number,
    elements = count,
  ): number {
    const at = this.pos;
    if (level > this.limits.maxDepth) throw tooDeep(at, this.limits);
    this.elements += elements;
    if (this.elements > this.limits.maxElements) throw tooManyElements(at, this.limits);
    this.pos += 1 + width;
    if (items > this.end - this.pos) throw truncated(this.end);
    this.budget.charge(base + items * cost.slot, at);
    return count;
  }

  arrayStart(level: number): number {
    const head = this.head();
    if (head >= 0x90 && head < 0xa0) return this.container(level, head & 0x0f, head & 0x0f, 0, cost.array);
    if (head !== 0xdc && head !== 0xdd) throw this.wrongType('an array');
    const width = head === 0xdc ? 2 : 4;
    this.need(1 + width);
    const count = readLength(this.input, this.pos + 1, width);
    return this.container(level, count, count, width, cost.array);
  }

  protected mapHeader(level: number, entriesCount: boolean): number {
    const head = this.head();
    if (head >= 0x80 && head < 0x90) {
      const count = head & 0x0f;
      return this.container(level, count, count * 2, 0, cost.object, entriesCount ? count : 0);
    }
    if (head !== 0xde && head !== 0xdf) throw this.wrongType('a map');
    const width = head === 0xde ? 2 : 4;
    this.need(1 + width);
    const count = readLength(this.input, this.pos + 1, width);
    return this.container(level, count, count * 2, width, cost.object, entriesCount ? count : 0);
  }

  private isRecord(head: number): boolean {
    if (head >= 0x40 && head < 0x80) return this.structures[head & 0x3f] !== undefined;
    return head === fixext1 && this.input[this.pos + 1] === recordType;
  }

  override describeNext(): string {
    if (this.records && this.pos < this.end && this.isRecord(this.input[this.pos] as number))
      return 'a record';
    return super.describeNext();
  }

  more(): boolean {
    return false;
  }

  moreFields(): boolean {
    return false;
  }

  peek(): number {
    const head = this.head();
    if (this.records && this.isRecord(head)) return ItemKind.map;
    if (head === 0xc0) return ItemKind.null;
    if (head === 0xc2 || head === 0xc3) return ItemKind.bool;
    if ((head >= 0xa0 && head < 0xc0) || (head >= 0xd9 && head <= 0xdb)) return ItemKind.string;
    if (head === 0xca || head === 0xcb) return ItemKind.float;
    if (isInteger(head)) return ItemKind.integer;
    if ((head >= 0x90 && head < 0xa0) || head === 0xdc || head === 0xdd) return ItemKind.array;
    if ((head >= 0x80 && head < 0x90) || head === 0xde || head === 0xdf) return ItemKind.map;
    return ItemKind.other;
  }
}
