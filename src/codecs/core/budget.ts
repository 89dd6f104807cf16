/**
 * The allocation budget of a decode: what the value being built costs the heap, estimated as the
 * decoder builds it and charged against `limits.maxAllocatedBytes`. The other limits bound each
 * dimension alone, but within them a small input can still buy a large heap: 16 MB of MessagePack
 * `[{},{},…]` is 16 million objects, about 1 GB. Charging every object, array, slot, string and
 * byte string as it is made (never a count an input declares before it is read) refuses such input
 * once it has cost the budget, whatever the format.
 *
 * The estimates are V8's own sizes on 64-bit Node 20 (no pointer compression), measured with
 * `process.memoryUsage().heapUsed` (and `arrayBuffers` for byte strings) over 100,000-200,000
 * values each, after two forced GCs, each value held by one array slot (so the figures include the
 * reference to the value): an empty object 56 bytes, an empty array 32, each array element or
 * object property 8 more, a one-byte string 16 plus its length rounded up to 8, a Date 96, a bigint
 * 24, a Uint8Array with its ArrayBuffer about 184 plus its bytes (200 here, for the buffer's own
 * bookkeeping outside the heap), a `Map` 184 with room for four entries and about 36 per entry
 * beyond (its hash table doubles as it grows; 40 here).
 *
 * Where the model under-counts, by up to about 2×: an object of many keys added one by one
 * (past about 20, V8 turns it into a hash table of some 60 bytes a key), objects whose keys all
 * differ (each shape costs V8 a hidden class), arrays grown by `push` (up to half their length
 * again in spare room), and transient copies a decoder makes on the way. Where it over-counts:
 * strings V8 shares (the empty string, one-character strings, object keys that repeat across
 * records, which V8 interns), and boxed numbers, which are not charged at all (a number costs its
 * slot; one in an object field may take 16 more, bounded by `maxElements`). So the default budget
 * keeps a decode under a few hundred MB, not under exactly 256 MiB.
 */
import { WirekitError } from '../../errors/index.js';
import type { DecodeLimits } from './limits.js';

export const cost = Object.freeze({
  object: 56,
  array: 32,
  /** One array element or object property (a map entry is two: key and value). */
  slot: 8,
  /** A string's header; its characters come on top (`stringCost`). */
  string: 16,
  /** A byte string's objects (typed array and buffer); its bytes come on top. */
  bytes: 200,
  boxedNumber: 16,
  bigint: 24,
  date: 96,
  /** A `Map` (integer-keyed maps), with the hash table of its first four entries. */
  map: 184,
  /** One entry of a `Map` (key, value and its share of the hash table). */
  mapEntry: 40,
});

/**
 * The heap a string of `length` one-byte characters takes (two-byte strings: pass 2 × length).
 * Readers pass a string's length in UTF-8 bytes, which is never less than V8's form of it needs (a
 * character V8 keeps in two bytes takes two to four in UTF-8).
 */
export function stringCost(length: number): number {
  return cost.string + ((length + 7) & ~7);
}

/** An object whose `fields` the schema knows (a record, a message, a table): one slot each. */
export function recordCost(fields: number): number {
  return cost.object + fields * cost.slot;
}

/** What one decode has spent; decoders keep one per decode call (never shared between calls). */
export class AllocationBudget {
  used = 0;

  constructor(readonly max: number) {}

  /** Adds `bytes` to what the value has cost; WK_LIMIT_ALLOCATION past the budget. */
  charge(bytes: number, offset: number): void {
    this.used += bytes;
    if (this.used > this.max) throw overBudget(this.max, offset);
  }
}

export function overBudget(max: number, offset: number): WirekitError {
  return new WirekitError(
    'WK_LIMIT_ALLOCATION',
    `the decoded value would take more than maxAllocatedBytes (${max}) of memory, at byte ${offset}.`,
    { offset },
  );
}

export function budgetOf(limits: DecodeLimits): AllocationBudget {
  return new AllocationBudget(limits.maxAllocatedBytes);
}
