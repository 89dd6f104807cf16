/**
 * The allocation budget of a decode: what the value being built costs the heap, estimated as the
 * decoder builds it and charged against `limits.maxAllocatedBytes`. The other limits bound each
 * dimension alone, but within them a small input can still buy a large heap: 16 MB of MessagePack
 * `[{},{},…]` is 16 million objects, about 1 GB. Charging every object, array, slot, string and
 * byte string as it is made (never a count an input declares before it is read) refuses such input
 * once it has cost the budget, whatever the format.
 *
 * The estimates are V8's own sizes on 64-bit Node 20 (no pointer compression), measured with
 * `process.memoryUsage().heapUsed` over 200,000 values each: an empty object 56 bytes, an empty array
 * 32, each array element or object property 8 more (more in dictionary mode, which the slot charge
 * under-counts for objects of many keys), a one-byte string 16 plus its length rounded up to 8, a
 * boxed double 16, a bigint 24, a Date 96, a Uint8Array with its ArrayBuffer about 200 plus its
 * bytes (held outside the heap, but memory all the same).
 */
import { WirekitError } from '../errors/index.js';
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
});

/** The heap a string of `length` one-byte characters takes (two-byte strings: pass 2 × length). */
export function stringCost(length: number): number {
  return cost.string + ((length + 7) & ~7);
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
