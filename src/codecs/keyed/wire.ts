/**
 * What the shared schema interpreters need from a format: MessagePack and CBOR differ only in
 * their bytes for each primitive, so each implements these two interfaces and the schema-driven
 * walk (encode/schema-writer.ts, decode/schema-reader.ts) is written once.
 */
import type { AllocationBudget } from '../core/budget.js';
import type { RecordKeys } from './decode/record-keys.js';
import type { Plan } from './plan.js';

/** The kinds of item `WireSource.peek` tells apart (what the json kind can hold, and the rest). */
export const ItemKind = {
  other: 0,
  null: 1,
  bool: 2,
  string: 3,
  integer: 4,
  float: 5,
  array: 6,
  map: 7,
} as const;

export interface WireEmitter {
  nil(): void;
  /** An absent value where the format must still write something (an optional array item). */
  undef(): void;
  bool(value: boolean): void;
  /** A safe integer, in its smallest integer form. */
  int(value: number): void;
  /** An integer in [-2^63, 2^64 - 1], in its smallest integer form. */
  bigint(value: bigint): void;
  /**
   * A bigint of any width (the schemaless mapping): the smallest integer form while one holds it;
   * beyond that CBOR writes a bignum and MessagePack, which has none, refuses.
   */
  anyBigint(value: bigint): void;
  float32(value: number): void;
  float64(value: number): void;
  string(value: string): void;
  /** A text string given as UTF-8 (a pre-encoded field name). */
  key(utf8: Uint8Array): void;
  bytes(value: Uint8Array): void;
  /** A valid instant, in milliseconds since the epoch. */
  timestamp(millis: number): void;
  /** A decimal in wirekit's canonical text (see schema/decimal.ts). */
  decimal(text: string): void;
  /**
   * `decimal(text)` where `text` is a decimal with at most `integerDigits` digits before the point
   * and `fractionDigits` after it (`decimalFits`), and true; otherwise nothing written, and false
   * (a refusal, or a decimal the format's short path does not take, for `decimal` to write).
   */
  decimalWithin(text: string, integerDigits: number, fractionDigits: number): boolean;
  arrayHeader(count: number): void;
  mapHeader(count: number): void;
  /** Given where plain objects are written as records (MessagePack's records mode). */
  readonly records?: ObjectRecords;
}

/**
 * An emitter that writes objects as records (MessagePack's `msgpackRecords` mode, whose
 * msgpack/encode/records-emitter.ts implements it): a record head in place of the map header, then
 * the values without their keys.
 */
export interface ObjectRecords {
  /**
   * The head of an object of `plan` whose optional fields present are `present`: for objects of up
   * to 30 fields a bit per field index, for wider ones a string of '0' and '1', one per field.
   */
  objectRecord(plan: Plan, present: number | string): void;
  /** The head of a plain object with these keys, whose values follow (a string-keyed map, json). */
  keysRecord(keys: readonly string[]): void;
}

export interface WireSource {
  /** The read position; a failing read leaves it at the start of the item. */
  pos: number;
  /** Array items and map entries counted so far, against maxElements. */
  elements: number;
  /**
   * What the value costs the heap (core/budget.ts): each read that makes something (a container, a
   * string, a byte string, a Date) charges it here, before making it.
   */
  readonly budget: AllocationBudget;
  /** Where `span` left the last text string: a slice of the input, or a copy of a chunked one. */
  spanBytes: Uint8Array;
  spanStart: number;
  spanEnd: number;
  /** 0 when the next item is not null; else consumes it and gives 1 (null) or 2 (undefined). */
  nullish(): number;
  bool(): boolean;
  /** Any integer on the wire: a number when it is a safe integer, else a bigint. */
  integer(): number | bigint;
  /** A float of any width, or an integer. */
  float(): number;
  string(): string;
  /** A text string, left in spanBytes[spanStart, spanEnd) for byte-wise matching. */
  span(): void;
  /**
   * A name the schema fixes (a field name, an enum member, a literal, a union's tag), left in
   * spanBytes as span leaves a string, to be matched, never kept. Not held to maxStringBytes:
   * formats that write such names as numbers or not at all (Protocol Buffers, Avro, FlatBuffers)
   * cannot count them, so none does; the input bounds what is compared.
   */
  nameSpan(): void;
  bytes(): Uint8Array;
  /** A timestamp, in milliseconds since the epoch. */
  timestamp(): number;
  decimal(): string;
  /** An array header at nesting `depth` (checked against maxDepth): its count, or -1 if indefinite. */
  arrayStart(depth: number): number;
  /** A map's header at nesting `depth`: its count (its entries count against maxElements), or -1. */
  mapStart(depth: number): number;
  /**
   * An object's map: as mapStart, but its fields are the schema's, not elements of the value, so
   * they do not count against maxElements (no format counts an object's fields).
   */
  recordStart(depth: number): number;
  /**
   * In MessagePack's records mode, when the next item is a record (a definition or an id): its
   * keys, with the record's head (and definition) read and charged as a map header's would be,
   * the keys counting as entries when `entries`; else undefined, nothing read.
   */
  recordAhead(depth: number, entries: boolean): RecordKeys | undefined;
  /** For an indefinite container: whether another item follows (a break is consumed). */
  more(): boolean;
  /** For an indefinite object: whether another field follows (not counted as an element). */
  moreFields(): boolean;
  /** Skips one item that sits at nesting `depth`. */
  skip(depth: number): void;
  /** What the next item is (an `ItemKind`), without reading it; the input must not end here. */
  peek(): number;
  /** The next item's type in words, for messages. */
  describeNext(): string;
}
