/**
 * Messages that have arrived and wait for their reader: one queue that a socket pushes into and
 * one async iterator reads from, in order, until the queue is ended (and then emptied). Shared by
 * the server's connections and the client.
 *
 * The queue is bounded by its owner, not here: the server pauses its socket at `highWater` (TCP
 * then holds the peer back), and the client, whose WHATWG socket cannot be paused, drops what
 * finds it full, by count or by the payload bytes each item was pushed with (`bytes`). `onLow`
 * says when the reader has caught up, so the server can resume.
 */
export class Inbox<T> implements AsyncIterable<T> {
  #items: T[] = [];
  /** The payload bytes of each item, beside it. */
  #sizes: number[] = [];
  #bytes = 0;
  /** The next item to read: reading moves this instead of shifting the array on every message. */
  #head = 0;
  #ended = false;
  #failure: unknown;
  #wake: (() => void) | undefined;
  #reading = false;

  constructor(
    /** Called when the reader takes the queue down to `lowWater` items. */
    private readonly onLow?: () => void,
    private readonly lowWater = 0,
  ) {}

  /** Items waiting. */
  get length(): number {
    return this.#items.length - this.#head;
  }

  /** The payload bytes of the items waiting, as given to `push`. */
  get bytes(): number {
    return this.#bytes;
  }

  get ended(): boolean {
    return this.#ended;
  }

  push(item: T, bytes = 0): void {
    if (this.#ended) return;
    this.#items.push(item);
    this.#sizes.push(bytes);
    this.#bytes += bytes;
    this.#wakeReader();
  }

  /** No more items will come; the reader gets what is waiting, then `failure` if there is one. */
  end(failure?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#failure = failure;
    this.#wakeReader();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    // One reader: two would split the messages between them, which nobody means.
    if (this.#reading) throw new TypeError('the messages of a socket can be read by one reader at a time.');
    this.#reading = true;
    try {
      for (;;) {
        if (this.length > 0) {
          yield this.#take();
        } else if (this.#ended) {
          if (this.#failure !== undefined) throw this.#failure;
          return;
        } else {
          await new Promise<void>((resolve) => {
            this.#wake = resolve;
          });
        }
      }
    } finally {
      this.#reading = false;
    }
  }

  #take(): T {
    const item = this.#items[this.#head] as T;
    this.#items[this.#head] = undefined as T;
    this.#bytes -= this.#sizes[this.#head] as number;
    this.#head++;
    // Compact once the read part is most of the array: amortized O(1) per item.
    if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#sizes = this.#sizes.slice(this.#head);
      this.#head = 0;
    }
    if (this.onLow !== undefined && this.length === this.lowWater) this.onLow();
    return item;
  }

  #wakeReader(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
