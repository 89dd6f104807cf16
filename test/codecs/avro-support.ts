/** Helpers shared by the Avro codec's test files. */
import type { Category } from '../fixtures/every-kind.js';
import { everyKindValue } from '../fixtures/every-kind.js';

/** The fixture's value with a uint64 Avro can hold: its long is signed (docs/mapping/avro.md). */
export const avroValue = () => ({ ...everyKindValue(), u64: 2n ** 63n - 1n });

/** A Category chain `levels` deep. */
export function categoryChain(levels: number): Category {
  let node: Category = { name: 'leaf', children: [] };
  for (let i = 1; i < levels; i++) node = { name: `n${i}`, children: [node] };
  return node;
}

/** A small deterministic PRNG (mulberry32), so random chunk cuts are reproducible. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
