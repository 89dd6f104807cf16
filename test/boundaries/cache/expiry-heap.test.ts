/**
 * The memory store's expiry heap against a sorted list: random pushes and removals (from anywhere
 * in the heap, as overwrites and evictions do), then the heap's order must be the list's.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ExpiryHeap } from '../../../src/boundaries/cache/expiry-heap.js';

interface Item {
  readonly id: number;
  readonly expiresAt: number;
  heapIndex: number;
}

describe('ExpiryHeap', () => {
  test('keeps the soonest expiry on top through pushes and removals anywhere', () => {
    const operation = fc.oneof(
      fc.record({ push: fc.integer({ min: 0, max: 50 }) }),
      fc.record({ remove: fc.nat() }),
      fc.record({ pop: fc.constant(true) }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 300 }), (operations) => {
        const heap = new ExpiryHeap<Item>();
        let live: Item[] = [];
        let next = 0;
        for (const op of operations) {
          if ('push' in op) {
            const item = { id: next++, expiresAt: op.push, heapIndex: -1 };
            heap.push(item);
            live.push(item);
          } else if ('remove' in op && live.length > 0) {
            const item = live[op.remove % live.length] as Item;
            heap.remove(item);
            expect(item.heapIndex).toBe(-1);
            live = live.filter((other) => other !== item);
          } else if ('pop' in op) {
            const top = heap.peek();
            const soonest = Math.min(...live.map((item) => item.expiresAt));
            if (live.length === 0) expect(top).toBeUndefined();
            else {
              expect(top?.expiresAt).toBe(soonest);
              heap.remove(top as Item);
              live = live.filter((other) => other !== top);
            }
          }
          expect(heap.size).toBe(live.length);
        }
        // Draining gives every remaining item once, in order of expiry.
        const drained: number[] = [];
        for (let top = heap.peek(); top !== undefined; top = heap.peek()) {
          drained.push(top.expiresAt);
          heap.remove(top);
        }
        expect(drained).toEqual(live.map((item) => item.expiresAt).sort((a, b) => a - b));
      }),
    );
  });

  test('removing an item twice, or one it never held, changes nothing', () => {
    const heap = new ExpiryHeap<Item>();
    const a = { id: 1, expiresAt: 5, heapIndex: -1 };
    const b = { id: 2, expiresAt: 3, heapIndex: -1 };
    heap.push(a);
    heap.push(b);
    heap.remove(b);
    heap.remove(b);
    heap.remove({ id: 3, expiresAt: 1, heapIndex: 0 });
    expect(heap.size).toBe(1);
    expect(heap.peek()).toBe(a);
  });
});
