/**
 * The registry client's memory of answers that never change: a schema by its id (ids are
 * immutable), the id a subject gave a schema text. Bounded by count, the oldest entry leaving
 * first, so a consumer that meets many ids (or a hostile stream of made-up ones) holds a fixed
 * number. Calls for a key already being fetched share that fetch, so a burst of events with one
 * new id asks the registry once. A failure is not remembered: the next call asks again.
 */
export class OnceCache<V> {
  private readonly values = new Map<string, V>();
  private readonly pending = new Map<string, Promise<V>>();

  constructor(private readonly maxEntries: number) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    if (this.values.has(key)) return Promise.resolve(this.values.get(key) as V);
    const running = this.pending.get(key);
    if (running !== undefined) return running;
    const started = load().then(
      (value) => {
        this.pending.delete(key);
        this.remember(key, value);
        return value;
      },
      (error: unknown) => {
        this.pending.delete(key);
        throw error;
      },
    );
    this.pending.set(key, started);
    return started;
  }

  /** How many answers are held (not counting fetches under way). */
  get size(): number {
    return this.values.size;
  }

  private remember(key: string, value: V): void {
    if (this.maxEntries <= 0) return;
    this.values.set(key, value);
    // A Map iterates in insertion order: its first key is the oldest entry.
    while (this.values.size > this.maxEntries) {
      this.values.delete(this.values.keys().next().value as string);
    }
  }
}
