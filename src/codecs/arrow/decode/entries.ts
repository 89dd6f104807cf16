/**
 * The steps of reading list and map entries (columns.ts): the children of a run of entries are
 * read in one call, a fault in a child becomes a fault of the entry holding it, and a map entry
 * becomes an object (string keys) or a Map. The column reader is passed in rather than imported,
 * since it imports these.
 */
import type { Data } from 'apache-arrow';
import { isUnsafeKey, unsafeKey } from '../../core/errors.js';
import type { ColumnPlan } from './columns.js';
import { rethrowAt, ValueFault } from './fault.js';
import type { ReadContext } from './scalars.js';

/** Reads rows [start, start + count) of a column by `plan` (columns.ts readColumn). */
export type ColumnReader = (
  plan: ColumnPlan,
  data: Data,
  start: number,
  count: number,
  ctx: ReadContext,
) => unknown[];

/**
 * The entry of a list or map column that holds child entry `j`: the last whose offset is at most
 * `j` (offsets ascend; empty entries hold nothing).
 */
function entryOf(offsets: Int32Array, start: number, count: number, j: number): number {
  let low = start;
  let high = start + count - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((offsets[mid] as number) <= j) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * Reads the children of entries [start, start + count) of a list or map, turning a child's fault
 * into its entry's, one `step` further (by default the child's position in its entry).
 */
export function readChildren(
  read: ColumnReader,
  plan: ColumnPlan,
  child: Data,
  offsets: Int32Array,
  start: number,
  count: number,
  ctx: ReadContext,
  step: (entry: number, j: number) => string | number = (entry, j) => j - (offsets[entry] as number),
): unknown[] {
  const first = offsets[start] as number;
  try {
    return read(plan, child, first, (offsets[start + count] as number) - first, ctx);
  } catch (error) {
    if (!(error instanceof ValueFault)) throw error;
    const entry = entryOf(offsets, start, count, error.index);
    return rethrowAt(error, entry, step(entry, error.index));
  }
}

/**
 * The map entry made of keys[from, to) and values[from, to): an object when the keys are strings
 * (an unsafe key is refused, at the batch's `offset`), else a Map.
 */
export function mapValue(
  keys: readonly unknown[],
  values: readonly unknown[],
  from: number,
  to: number,
  stringKeys: boolean,
  offset: number,
): Record<string, unknown> | Map<unknown, unknown> {
  if (stringKeys) {
    const object: Record<string, unknown> = {};
    for (let j = from; j < to; j++) {
      const key = keys[j] as string;
      if (isUnsafeKey(key)) throw unsafeKey(offset, key);
      object[key] = values[j];
    }
    return object;
  }
  const map = new Map<unknown, unknown>();
  for (let j = from; j < to; j++) map.set(keys[j], values[j]);
  return map;
}
