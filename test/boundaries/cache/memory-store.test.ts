/**
 * The memory store: the CacheStore contract, the byte bound under churn (random sizes, checked
 * against an independent least-recently-used model and against the store's own accounting), LRU
 * order, TTLs on an injected clock (expired entries go before live ones), and oversized values.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  defaultMemoryStoreBytes,
  entryOverheadBytes,
  memoryStore,
} from '../../../src/boundaries/cache/memory-store.js';

const bytesOf = (text: string) => new TextEncoder().encode(text);
const textOf = (bytes: Uint8Array | undefined) =>
  bytes === undefined ? undefined : new TextDecoder().decode(bytes);
/** What the store charges an entry. */
const charge = (key: string, size: number) => Buffer.byteLength(key) + size + entryOverheadBytes;

function clock(start = 1_000) {
  let time = start;
  return {
    now: () => time,
    advance(ms: number) {
      time += ms;
    },
  };
}

describe('memoryStore', () => {
  test('reads answer in key order, undefined for misses; delete and overwrite', async () => {
    const store = memoryStore();
    expect(store.kind).toBe('memory');
    await store.write([
      { key: 'a', bytes: bytesOf('A') },
      { key: 'c', bytes: bytesOf('C') },
    ]);
    const read = await store.read(['c', 'b', 'a', 'a']);
    expect(read.map((value) => textOf(value?.bytes))).toEqual(['C', undefined, 'A', 'A']);
    await store.write([{ key: 'a', bytes: bytesOf('A2') }]);
    await store.delete(['c', 'never-there']);
    expect((await store.read(['a', 'c'])).map((value) => textOf(value?.bytes))).toEqual(['A2', undefined]);
    expect(await store.read([])).toEqual([]);
    expect(store.stats()).toMatchObject({
      entries: 1,
      bytes: charge('a', 2),
      maxBytes: defaultMemoryStoreBytes,
    });
  });

  test('keeps every byte value and the empty value', async () => {
    const store = memoryStore();
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    await store.write([
      { key: 'all', bytes: all },
      { key: 'empty', bytes: new Uint8Array(0) },
    ]);
    const [got, empty] = await store.read(['all', 'empty']);
    expect(got?.bytes).toEqual(all);
    expect(empty?.bytes).toEqual(new Uint8Array(0));
  });

  test('a view into a larger buffer is copied, so its charge is what it holds', async () => {
    const store = memoryStore();
    const big = new Uint8Array(1 << 16).fill(7);
    const view = big.subarray(100, 110);
    await store.write([{ key: 'v', bytes: view }]);
    const [got] = await store.read(['v']);
    expect(got?.bytes).toEqual(new Uint8Array(10).fill(7));
    expect(got?.bytes.buffer.byteLength).toBe(10);
    // Whole buffers are kept as they are.
    const whole = new Uint8Array([1, 2, 3]);
    await store.write([{ key: 'w', bytes: whole }]);
    expect((await store.read(['w']))[0]?.bytes).toBe(whole);
  });

  test('least recently used goes first; a read counts as a use', async () => {
    // Room for exactly three entries of 100 bytes under one-letter keys.
    const store = memoryStore({ maxBytes: 3 * charge('k', 100) });
    const value = new Uint8Array(100);
    await store.write(['a', 'b', 'c'].map((key) => ({ key, bytes: value })));
    await store.read(['a']);
    await store.write([{ key: 'd', bytes: value }]);
    const present = async () =>
      (await store.read(['a', 'b', 'c', 'd', 'e'])).map((hit, i) => (hit ? 'abcde'[i] : '-')).join('');
    expect(await present()).toBe('a-cd-');
    // That read touched a, c, d in that order: a is now the oldest.
    await store.write([{ key: 'e', bytes: value }]);
    expect(await present()).toBe('--cde');
    expect(store.stats()).toMatchObject({ entries: 3, evictions: 2, expirations: 0 });
  });

  test('maxEntries bounds the count whatever the sizes', async () => {
    const store = memoryStore({ maxEntries: 2 });
    await store.write(['a', 'b', 'c'].map((key) => ({ key, bytes: bytesOf(key) })));
    expect((await store.read(['a', 'b', 'c'])).map((hit) => hit !== undefined)).toEqual([false, true, true]);
    expect(store.stats()).toMatchObject({ entries: 2, evictions: 1 });
  });

  test('under churn of random sizes it never holds more than maxBytes, and evicts as an LRU does', async () => {
    const maxBytes = 20_000;
    const keyCount = 60;
    const operation = fc.oneof(
      { weight: 5, arbitrary: fc.record({ write: fc.nat(keyCount - 1), size: fc.nat(6_000) }) },
      { weight: 3, arbitrary: fc.record({ read: fc.array(fc.nat(keyCount - 1), { maxLength: 4 }) }) },
      { weight: 1, arbitrary: fc.record({ remove: fc.nat(keyCount - 1) }) },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 50, maxLength: 400 }), async (operations) => {
        const store = memoryStore({ maxBytes });
        // The model: keys oldest first, with their charges; evict from the front until the new one fits.
        let model: { key: string; charge: number }[] = [];
        const modelBytes = () => model.reduce((sum, entry) => sum + entry.charge, 0);
        let modelEvictions = 0;
        let modelOversized = 0;
        for (const op of operations) {
          if ('write' in op) {
            const key = `key-${op.write}`;
            await store.write([{ key, bytes: new Uint8Array(op.size).fill(op.write) }]);
            model = model.filter((entry) => entry.key !== key);
            const cost = charge(key, op.size);
            if (cost > maxBytes) {
              modelOversized++;
            } else {
              while (modelBytes() + cost > maxBytes) {
                model.shift();
                modelEvictions++;
              }
              model.push({ key, charge: cost });
            }
          } else if ('read' in op) {
            const keys = op.read.map((n) => `key-${n}`);
            const hits = await store.read(keys);
            for (let i = 0; i < keys.length; i++) {
              const index = model.findIndex((entry) => entry.key === keys[i]);
              expect(hits[i] !== undefined, `${keys[i]} present`).toBe(index !== -1);
              if (index !== -1) model.push(...model.splice(index, 1));
            }
          } else {
            const key = `key-${op.remove}`;
            await store.delete([key]);
            model = model.filter((entry) => entry.key !== key);
          }
          const stats = store.stats();
          expect(stats.bytes).toBeLessThanOrEqual(maxBytes);
          expect(stats.bytes).toBe(modelBytes());
          expect(stats.entries).toBe(model.length);
        }
        expect(store.stats()).toMatchObject({ evictions: modelEvictions, oversized: modelOversized });
        // What it says it holds is what it holds: every key the model has, with the bytes written.
        const all = Array.from({ length: keyCount }, (_, n) => `key-${n}`);
        const held = await store.read(all);
        let heldBytes = 0;
        held.forEach((hit, n) => {
          if (hit === undefined) return;
          expect(hit.bytes.every((byte) => byte === (n & 0xff))).toBe(true);
          heldBytes += charge(`key-${n}`, hit.bytes.byteLength);
        });
        expect(heldBytes).toBe(store.stats().bytes);
      }),
      { numRuns: 40 },
    );
  });

  test('TTL: reported on read when asked, expired on read, and never reported for an entry without one', async () => {
    const time = clock();
    const store = memoryStore({ now: time.now });
    await store.write([
      { key: 'short', bytes: bytesOf('s'), ttlMs: 100 },
      { key: 'forever', bytes: bytesOf('f') },
    ]);
    time.advance(30);
    const [short, forever] = await store.read(['short', 'forever'], { withTtl: true });
    expect(short?.ttlMs).toBe(70);
    expect(forever).toEqual({ bytes: bytesOf('f') });
    expect((await store.read(['short']))[0]).toEqual({ bytes: bytesOf('s') });
    time.advance(70);
    expect(await store.read(['short', 'forever'])).toEqual([undefined, { bytes: bytesOf('f') }]);
    expect(store.stats()).toMatchObject({ entries: 1, expirations: 1, evictions: 0 });
  });

  test('expired entries are evicted before live ones, even recently used ones', async () => {
    const time = clock();
    const size = 100;
    const store = memoryStore({ maxBytes: 4 * charge('k', size), now: time.now });
    const value = new Uint8Array(size);
    await store.write([
      { key: 'a', bytes: value, ttlMs: 50 },
      { key: 'b', bytes: value },
      { key: 'c', bytes: value },
      { key: 'd', bytes: value, ttlMs: 500 },
    ]);
    // a and d become the most recently used; b is the least.
    await store.read(['a', 'd']);
    time.advance(100);
    await store.write([{ key: 'e', bytes: value }]);
    // a had expired: it goes, not b. The write's sweep may only take expired entries.
    expect(store.stats()).toMatchObject({ entries: 4, expirations: 1, evictions: 0 });
    time.advance(1_000);
    // Now d is expired too, and two writes need two places: d, then the least recently used, b.
    await store.write([
      { key: 'f', bytes: value },
      { key: 'g', bytes: value },
    ]);
    const present = (await store.read(['a', 'b', 'c', 'd', 'e', 'f', 'g'])).map((hit, i) =>
      hit ? 'abcdefg'[i] : '-',
    );
    expect(present.join('')).toBe('--c-efg');
    expect(store.stats()).toMatchObject({ entries: 4, expirations: 2, evictions: 1 });
  });

  test('making room takes expired entries first, beyond what the sweep of a write takes', async () => {
    const time = clock();
    const size = 100;
    const store = memoryStore({ maxBytes: 20 * charge('live-0', size), now: time.now });
    const value = new Uint8Array(size);
    const named = (prefix: string) => Array.from({ length: 10 }, (_, i) => `${prefix}-${i}`);
    await store.write(named('live').map((key) => ({ key, bytes: value })));
    await store.write(named('soon').map((key) => ({ key, bytes: value, ttlMs: 50 })));
    // The expiring entries are the most recently used; the live ones are the least.
    await store.read(named('soon'));
    time.advance(100);
    // Ten more need ten places: the sweep frees some, making room must free the other expired ones.
    await store.write(named('next').map((key) => ({ key, bytes: value })));
    expect(store.stats()).toMatchObject({ entries: 20, expirations: 10, evictions: 0 });
    expect((await store.read(named('live'))).every((hit) => hit !== undefined)).toBe(true);
  });

  test('writes sweep expired entries without needing the room', async () => {
    const time = clock();
    const store = memoryStore({ now: time.now });
    await store.write(
      Array.from({ length: 20 }, (_, i) => ({ key: `t${i}`, bytes: bytesOf('x'), ttlMs: 10 })),
    );
    time.advance(10);
    await store.write([{ key: 'new', bytes: bytesOf('y') }]);
    // A few per write (bounded: no write pays for a million expiries at once).
    expect(store.stats().expirations).toBeGreaterThan(0);
    expect(store.stats().expirations).toBeLessThan(20);
    expect(store.stats().entries).toBe(21 - store.stats().expirations);
  });

  test('a value bigger than maxBytes is not stored, and the value it replaces goes too', async () => {
    const store = memoryStore({ maxBytes: 2_000 });
    await store.write([{ key: 'k', bytes: new Uint8Array(10) }]);
    await store.write([{ key: 'k', bytes: new Uint8Array(2_000) }]);
    expect(await store.read(['k'])).toEqual([undefined]);
    expect(store.stats()).toMatchObject({ entries: 0, bytes: 0, oversized: 1, evictions: 0 });
    // The largest value that fits does fit.
    await store.write([{ key: 'k', bytes: new Uint8Array(2_000 - charge('k', 0)) }]);
    expect(store.stats()).toMatchObject({ entries: 1, bytes: 2_000 });
  });

  test('a batch with a bad TTL is refused whole', async () => {
    const store = memoryStore();
    await expect(
      store.write([
        { key: 'good', bytes: bytesOf('g') },
        { key: 'bad', bytes: bytesOf('b'), ttlMs: 0.5 },
      ]),
    ).rejects.toThrow(RangeError);
    expect(store.stats().entries).toBe(0);
  });

  test('clear drops everything; after close every operation rejects', async () => {
    const store = memoryStore();
    await store.write([{ key: 'a', bytes: bytesOf('a'), ttlMs: 1_000 }]);
    store.clear();
    expect(store.stats()).toMatchObject({ entries: 0, bytes: 0 });
    await store.write([{ key: 'a', bytes: bytesOf('a') }]);
    await store.close();
    await expect(store.read(['a'])).rejects.toThrow(/closed/);
    await expect(store.write([{ key: 'a', bytes: bytesOf('a') }])).rejects.toThrow(/closed/);
    await expect(store.delete(['a'])).rejects.toThrow(/closed/);
    await store.close();
  });

  test('limits must be whole numbers ≥ 1', () => {
    expect(() => memoryStore({ maxBytes: 0 })).toThrow(RangeError);
    expect(() => memoryStore({ maxBytes: Number.POSITIVE_INFINITY })).toThrow(RangeError);
    expect(() => memoryStore({ maxEntries: 1.5 })).toThrow(RangeError);
    expect(() => memoryStore({ maxEntries: Number.POSITIVE_INFINITY })).not.toThrow();
  });
});
