/**
 * Checked Data (see load.ts) to JavaScript values, a column at a time: each reader returns the
 * values of rows [start, start + count) of its column. Objects start as a copy of their type's
 * template (V8 clones such a literal with its final shape in one step) and are filled a field at a
 * time, so that every object of a type shares one hidden class.
 */
import type { Data } from 'apache-arrow';
import {
  isNull,
  keptAt,
  misplacedNull,
  nullsOf,
  nullValue,
  type ReadContext,
  readScalars,
} from './decode-scalars.js';
import { mapValue, readChildren } from './entries.js';
import { nullMessage, rethrowAt, ValueFault } from './fault.js';
import { isInterval, readIntervals } from './interval.js';
import { offsetsOf } from './physical.js';
import type { MapPlan, Plan, StructPlan, UnionPlan } from './plan.js';

export { misplacedNull, type ReadContext, readStrings } from './decode-scalars.js';

export function readColumn(
  plan: Plan,
  data: Data,
  start: number,
  count: number,
  ctx: ReadContext,
): unknown[] {
  switch (plan.k) {
    case 'struct':
      // An Interval column reads into an object of its parts (interval.ts).
      if (isInterval(data)) return readIntervals(readStruct, plan, data, start, count, ctx);
      return readStruct(plan, data, start, count, ctx);
    case 'list':
      return readList(plan, data, start, count, ctx);
    case 'map':
      return readMap(plan, data, start, count, ctx);
    case 'union':
      return readUnion(plan, data, start, count, ctx);
    default:
      return readScalars(plan, data, start, count, ctx);
  }
}

/**
 * Throws when a value in [from, to) of `values` is a misplaced null: a fault of entry `index`, at
 * the value's position in the entry (or its key).
 */
function checkRange(
  values: readonly unknown[],
  from: number,
  to: number,
  index: number,
  step: (j: number) => string | number = (j) => j - from,
): void {
  for (let j = from; j < to; j++)
    if (values[j] === misplacedNull) throw new ValueFault(index, nullMessage, [step(j)]);
}

function readStruct(plan: StructPlan, data: Data, start: number, count: number, ctx: ReadContext): unknown[] {
  const out = new Array<unknown>(count);
  // The objects being filled; null where the entry is null (out holds what that decodes to).
  const objects = new Array<Record<string, unknown> | null>(count);
  const bits = nullsOf(data);
  const template = plan.template;
  for (let k = 0; k < count; k++) {
    if (isNull(bits, start + k)) {
      out[k] = nullValue(plan);
      objects[k] = null;
    } else {
      const object = { ...template };
      out[k] = object;
      objects[k] = object;
    }
  }
  let child = 0;
  for (const column of plan.columns) {
    const name = column.name;
    let values: unknown[];
    try {
      values = readColumn(column.plan, data.children[child++] as Data, start, count, ctx);
    } catch (error) {
      return rethrowAt(error, error instanceof ValueFault ? error.index : 0, name);
    }
    for (let k = 0; k < count; k++) {
      const object = objects[k] as Record<string, unknown> | null;
      const value = values[k];
      // An absent optional field stays absent rather than becoming a key holding undefined.
      if (object !== null && value !== undefined) {
        if (value === misplacedNull) throw new ValueFault(start + k, nullMessage, [name]);
        object[name] = value;
      }
    }
  }
  return out;
}

function readList(
  plan: Extract<Plan, { k: 'list' }>,
  data: Data,
  start: number,
  count: number,
  ctx: ReadContext,
): unknown[] {
  const out = new Array<unknown>(count);
  const bits = nullsOf(data);
  const offsets = offsetsOf(data);
  const first = offsets[start] as number;
  const items = readChildren(readColumn, plan.item, data.children[0] as Data, offsets, start, count, ctx);
  const check = items.includes(misplacedNull);
  for (let k = 0; k < count; k++) {
    const i = start + k;
    if (isNull(bits, i)) {
      out[k] = nullValue(plan);
      continue;
    }
    const from = (offsets[i] as number) - first;
    const to = (offsets[i + 1] as number) - first;
    if (check) checkRange(items, from, to, i);
    if (plan.rule !== undefined) keptAt(plan.rule, to - from, i);
    out[k] = items.slice(from, to);
  }
  return out;
}

function readMap(plan: MapPlan, data: Data, start: number, count: number, ctx: ReadContext): unknown[] {
  const out = new Array<unknown>(count);
  const bits = nullsOf(data);
  const offsets = data.valueOffsets as Int32Array;
  const entries = data.children[0] as Data;
  const first = offsets[start] as number;
  const keys = readChildren(readColumn, plan.key, entries.children[0] as Data, offsets, start, count, ctx);
  const keyOf = (j: number) => {
    const key = keys[j - first];
    return typeof key === 'string' ? key : String(key);
  };
  const values = readChildren(
    readColumn,
    plan.value,
    entries.children[1] as Data,
    offsets,
    start,
    count,
    ctx,
    (_, j) => keyOf(j),
  );
  const check = values.includes(misplacedNull);
  for (let k = 0; k < count; k++) {
    const i = start + k;
    if (isNull(bits, i)) {
      out[k] = nullValue(plan);
      continue;
    }
    const from = (offsets[i] as number) - first;
    const to = (offsets[i + 1] as number) - first;
    if (check) checkRange(values, from, to, i, (j) => keyOf(j + first));
    out[k] = mapValue(keys, values, from, to, plan.stringKeys, ctx.offset);
  }
  return out;
}

function readUnion(plan: UnionPlan, data: Data, start: number, count: number, ctx: ReadContext): unknown[] {
  const typeIds = data.typeIds as Int8Array;
  const offsets = data.valueOffsets as Int32Array;
  const childOf = new Int8Array(128);
  Array.from((data.type as unknown as { typeIds: ArrayLike<number> }).typeIds).forEach((code, i) => {
    childOf[code] = i;
  });
  // Each variant's entries are read in one run when they are contiguous (as every writer makes
  // them), else one at a time, so a stray offset far into a child costs nothing.
  const variantValues = plan.variants.map((variant, x) => {
    let low = Number.POSITIVE_INFINITY;
    let high = -1;
    let used = 0;
    for (let k = 0; k < count; k++) {
      const i = start + k;
      if (childOf[typeIds[i] as number] !== x) continue;
      const offset = offsets[i] as number;
      if (offset < low) low = offset;
      if (offset > high) high = offset;
      used++;
    }
    if (used === 0) return { low: 0, values: [] as unknown[], single: false };
    const child = data.children[x] as Data;
    if (high - low + 1 === used) {
      try {
        return { low, values: readStruct(variant.plan, child, low, used, ctx), single: false };
      } catch (error) {
        if (!(error instanceof ValueFault)) throw error;
        // The union entry that points at the child entry at fault.
        let entry = start;
        for (let k = 0; k < count; k++)
          if (childOf[typeIds[start + k] as number] === x && offsets[start + k] === error.index)
            entry = start + k;
        return rethrowAt(error, entry);
      }
    }
    return { low: 0, values: [] as unknown[], single: true, child, plan: variant.plan };
  });
  const out = new Array<unknown>(count);
  for (let k = 0; k < count; k++) {
    const i = start + k;
    const x = childOf[typeIds[i] as number] as number;
    const run = variantValues[x] as (typeof variantValues)[number] & { child?: Data; plan?: StructPlan };
    let value: unknown;
    try {
      value = run.single
        ? readStruct(run.plan as StructPlan, run.child as Data, offsets[i] as number, 1, ctx)[0]
        : run.values[(offsets[i] as number) - run.low];
    } catch (error) {
      rethrowAt(error, i);
    }
    // A null variant entry is the union's null (unions have no validity bitmap of their own).
    out[k] = value === null ? nullValue(plan) : value;
  }
  return out;
}
