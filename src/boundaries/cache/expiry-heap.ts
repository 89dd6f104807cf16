/**
 * The entries of the memory store that have a TTL, soonest expiry first: a binary min-heap whose
 * items remember their own position, so an entry that is overwritten, deleted or evicted leaves the
 * heap at once (O(log n)) instead of lingering as a stale item to be skipped later. That keeps the
 * heap exactly as large as the set of expiring entries, and lets the store find an expired entry
 * to drop before it drops a live one, without a timer per entry and without scanning.
 */

export interface Expiring {
  /** When the item expires, on the store's clock (milliseconds). */
  readonly expiresAt: number;
  /** The item's index in the heap, -1 when it is not in one; the heap maintains it. */
  heapIndex: number;
}

export class ExpiryHeap<T extends Expiring> {
  private readonly items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  /** The item that expires first, if any. */
  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    item.heapIndex = this.items.length;
    this.items.push(item);
    this.siftUp(item.heapIndex);
  }

  /** Takes `item` out of the heap; an item that is not in it is left alone. */
  remove(item: T): void {
    const index = item.heapIndex;
    if (index < 0 || this.items[index] !== item) return;
    item.heapIndex = -1;
    const last = this.items.pop() as T;
    if (index === this.items.length) return;
    this.items[index] = last;
    last.heapIndex = index;
    // The item moved into the hole may belong above or below it.
    this.siftUp(index);
    this.siftDown(last.heapIndex);
  }

  clear(): void {
    for (const item of this.items) item.heapIndex = -1;
    this.items.length = 0;
  }

  private siftUp(start: number): void {
    const items = this.items;
    const item = items[start] as T;
    let index = start;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = items[parentIndex] as T;
      if (parent.expiresAt <= item.expiresAt) break;
      items[index] = parent;
      parent.heapIndex = index;
      index = parentIndex;
    }
    items[index] = item;
    item.heapIndex = index;
  }

  private siftDown(start: number): void {
    const items = this.items;
    const count = items.length;
    const item = items[start] as T;
    let index = start;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= count) break;
      const right = left + 1;
      const child =
        right < count && (items[right] as T).expiresAt < (items[left] as T).expiresAt ? right : left;
      const childItem = items[child] as T;
      if (childItem.expiresAt >= item.expiresAt) break;
      items[index] = childItem;
      childItem.heapIndex = index;
      index = child;
    }
    items[index] = item;
    item.heapIndex = index;
  }
}
