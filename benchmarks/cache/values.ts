/**
 * The values the cache benchmark stores: each `products` item on its own (~6.3 KB of JSON, the
 * shape behind the published per-item cache figures), or the user's own values with `--data FILE`,
 * read as the lab reads them (JSON, a JSON array or NDJSON; `--path` to the array of values inside
 * a wrapper object; the schema given with `--schema`, else inferred), each value one cache entry.
 *
 * The threshold part stores batches instead: arrays of `records` (~170 B of JSON each) or of
 * `products` items, grown until their encoding reaches each size measured.
 */

import {
  datasetFromFile,
  type FileDatasetSpec,
  flatten,
  Product,
  products,
  Record8,
  records,
} from 'wirekit-ts/lab';
import type { ObjectSchema } from 'wirekit-ts/schema';

export type ValuesSpec =
  | { readonly kind: 'products'; readonly count: number; readonly seed: number }
  | { readonly kind: 'file'; readonly file: FileDatasetSpec };

export interface CacheValues {
  /** 'products', or the file's name. */
  readonly name: string;
  /** The schema of one value. */
  readonly schema: ObjectSchema;
  readonly values: readonly unknown[];
  /** What was measured, in one sentence (for a file: how many values, from where, which schema). */
  readonly measured: string;
  /** For a file whose values are probably not what the user meant to measure: what to do instead. */
  readonly notice?: string;
}

export function loadValues(spec: ValuesSpec): CacheValues {
  if (spec.kind === 'products') {
    // Flat strings: some encoders run several times slower on V8's ropes (see datasets/text.ts).
    const values = flatten(products(spec.count, spec.seed));
    return {
      name: 'products',
      schema: Product as ObjectSchema,
      values,
      measured: `${values.length} products items (~6.3 KB of JSON each), one cache entry each`,
    };
  }
  const dataset = datasetFromFile({ ...spec.file, unit: 'item' });
  const values = dataset.generate();
  return {
    name: dataset.name,
    schema: dataset.schema,
    values,
    measured: `${dataset.measured}, one cache entry each`,
    ...(dataset.notice === undefined ? {} : { notice: dataset.notice }),
  };
}

/** The datasets the threshold part grows its batches from. */
export const batchSources = {
  records: { schema: Record8 as ObjectSchema, generate: (count: number) => flatten(records(count, 1)) },
  products: { schema: Product as ObjectSchema, generate: (count: number) => flatten(products(count, 1)) },
} as const;
export type BatchSource = keyof typeof batchSources;

/**
 * For each target size, the smallest batch (the first `n` items of `pool`) whose encoding by
 * `encode` is at least that large; sizes one item already exceeds share that one item, and are
 * measured once. Batches are prefixes of one pool, so a larger batch holds every smaller one.
 */
export function batchesFor(
  pool: readonly unknown[],
  targets: readonly number[],
  encode: (batch: unknown[]) => Uint8Array,
): { readonly target: number; readonly items: number; readonly batch: unknown[] }[] {
  const out: { target: number; items: number; batch: unknown[] }[] = [];
  let n = 1;
  for (const target of targets) {
    // Grow by the estimate from the current size, then step to the exact smallest n.
    for (;;) {
      const size = encode(pool.slice(0, n) as unknown[]).length;
      if (size >= target || n >= pool.length) break;
      n = Math.min(pool.length, Math.max(n + 1, Math.floor((n * target) / size)));
    }
    while (n > 1 && encode(pool.slice(0, n - 1) as unknown[]).length >= target) n--;
    if (out.at(-1)?.items === n) continue;
    out.push({ target, items: n, batch: pool.slice(0, n) as unknown[] });
  }
  return out;
}
