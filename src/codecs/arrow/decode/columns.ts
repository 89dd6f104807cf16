/**
 * Checked Data (see load.ts) to JavaScript values, a column at a time: each reader returns the
 * values of rows [start, start + count) of its column. One reader serves both codecs: with a
 * wirekit schema it follows the codec's plan (plan.ts), without one the plan stored.ts derives from
 * the stream's own Arrow schema. The containers are the same nodes either way; only the leaves
 * differ (the schema's kinds, read by scalars.ts, or `stored`, read by the type the column was
 * stored as). Objects start as a copy of their type's template (V8 clones such a literal with its
 * final shape in one step) and are filled a field at a time, so that every object of a type shares
 * one hidden class.
 */
import type { Data } from 'apache-arrow';
import type { Rule } from '../../../schema/value-rules.js';
import type { Plan } from '../plan.js';
import { mapValue, readChildren } from './entries.js';
import { nullMessage, rethrowAt, ValueFault } from './fault.js';
import { isInterval, readIntervals } from './interval.js';
import { offsetsOf } from './physical.js';
import {
  isNull,
  keptAt,
  misplacedNull,
  type Nullability,
  nullsOf,
  nullValue,
  type ReadContext,
  readScalars,
} from './scalars.js';
import { readStored } from './stored.js';

export { misplacedNull, type ReadContext, readStrings } from './scalars.js';

/** A struct column: an object per entry, a field per stored column. */
export interface StructRead extends Nullability {
  readonly k: 'struct';
  /** What each object starts as (see StructPlan.template). */
  readonly template: Readonly<Record<string, unknown>>;
  /** The stored fields, in Arrow child order. */
  readonly columns: readonly { readonly name: string; readonly plan: ColumnPlan }[];
  /** The object's oneof groups (schema/oneofs.ts): a row with two members present is refused. */
  readonly oneofs?: Rule<never> | undefined;
}

export interface ListRead extends Nullability {
  readonly k: 'list';
  readonly item: ColumnPlan;
  /** The schema's constraints on an entry's item count. */
  readonly rule?: Rule<never> | undefined;
}

export interface MapRead extends Nullability {
  readonly k: 'map';
  readonly key: ColumnPlan;
  readonly value: ColumnPlan;
  /** Entries become an object (string keys) rather than a Map. */
  readonly stringKeys: boolean;
}

export interface UnionRead extends Nullability {
  readonly k: 'union';
  /** One per child of the union, in child order. */
  readonly variants: readonly { readonly plan: ColumnPlan }[];
}

/** An untagged union: the same column as a union's, each child read by its branch's plan. */
export interface EitherRead extends Nullability {
  readonly k: 'either';
  /** One per child of the union, in child order. */
  readonly branches: readonly ColumnPlan[];
}

/** A leaf read by the Arrow type it was stored as, without a wirekit kind (stored.ts). */
export interface StoredLeaf extends Nullability {
  readonly k: 'stored';
  /** wirekit's metadata marks the text column as JSON, parsed as it is read. */
  readonly json: boolean;
  /** Containers between this column and the row, the row included (for a JSON value's nesting). */
  readonly depth: number;
}

/** What the column reader follows: a node of a codec's plan, or of a plan derived from the stream. */
export type ColumnPlan =
  | StructRead
  | ListRead
  | MapRead
  | UnionRead
  | EitherRead
  | StoredLeaf
  | Exclude<Plan, { readonly k: 'struct' | 'list' | 'map' | 'union' | 'either' }>;

export function readColumn(
  plan: ColumnPlan,
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
      return readUnion(
        plan,
        plan.variants.map((variant) => variant.plan),
        data,
        start,
        count,
        ctx,
      );
    case 'either':
      return readUnion(plan, plan.branches, data, start, count, ctx);
    case 'stored':
      return readStored(plan, data, start, count, ctx);
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

function readStruct(plan: StructRead, data: Data, start: number, count: number, ctx: ReadContext): unknown[] {
  // The objects being filled, null where the entry is null: what a null decodes to replaces it at
  // the end, when that is not null.
  const objects = new Array<Record<string, unknown> | null>(count);
  const bits = nullsOf(data);
  const template = plan.template;
  for (let k = 0; k < count; k++) objects[k] = isNull(bits, start + k) ? null : { ...template };
  // Under a null entry Arrow lets the children hold anything (a writer's placeholder, another
  // writer's leftovers), which is no value of the row: it is neither held to the schema (where
  // there is one) nor refused. Each child is read over the whole range first (one call, as without
  // nulls); only a fault sends it to a reading of the present entries alone, which tells a
  // leftover from a real fault and costs a call per run of present entries.
  let child = 0;
  for (const column of plan.columns) {
    const name = column.name;
    const columnData = data.children[child++] as Data;
    const counted = ctx.budget.used;
    let values: unknown[] | undefined;
    try {
      values = readColumn(column.plan, columnData, start, count, ctx);
    } catch (error) {
      if (bits === undefined || !(error instanceof ValueFault)) {
        return rethrowAt(error, error instanceof ValueFault ? error.index : 0, name);
      }
      ctx.budget.used = counted;
    }
    if (values !== undefined) {
      fill(objects, values, start, 0, count, name);
      continue;
    }
    const runs = presentRuns(bits, start, count);
    for (let r = 0; r < runs.length; r += 2) {
      const from = runs[r] as number;
      const length = runs[r + 1] as number;
      try {
        values = readColumn(column.plan, columnData, from, length, ctx);
      } catch (error) {
        return rethrowAt(error, error instanceof ValueFault ? error.index : 0, name);
      }
      fill(objects, values, start, from - start, length, name);
    }
  }
  if (plan.oneofs !== undefined) {
    for (let k = 0; k < count; k++) if (objects[k] !== null) keptAt(plan.oneofs, objects[k], start + k);
  }
  const none = nullValue(plan);
  if (bits === undefined || none === null) return objects;
  const out: unknown[] = objects;
  for (let k = 0; k < count; k++) if (out[k] === null) out[k] = none;
  return out;
}

/**
 * Sets field `name` of objects[at .. at + length) from values[0 ..), skipping null entries' (null
 * objects); `start` is the first entry's index in the column, for faults.
 */
function fill(
  objects: readonly (Record<string, unknown> | null)[],
  values: readonly unknown[],
  start: number,
  at: number,
  length: number,
  name: string,
): void {
  for (let j = 0; j < length; j++) {
    const object = objects[at + j] as Record<string, unknown> | null;
    const value = values[j];
    // An absent optional field stays absent rather than becoming a key holding undefined.
    if (object !== null && value !== undefined) {
      if (value === misplacedNull) throw new ValueFault(start + at + j, nullMessage, [name]);
      object[name] = value;
    }
  }
}

/**
 * The runs of entries in [start, start + count) that are not null, as (first entry, length) pairs:
 * the whole range when the column has no nulls.
 */
function presentRuns(bits: Uint8Array | undefined, start: number, count: number): number[] {
  if (bits === undefined) return count === 0 ? [] : [start, count];
  const runs: number[] = [];
  const end = start + count;
  let i = start;
  while (i < end) {
    while (i < end && isNull(bits, i)) i++;
    const from = i;
    while (i < end && !isNull(bits, i)) i++;
    if (i > from) runs.push(from, i - from);
  }
  return runs;
}

/**
 * The children of the entries [start, start + count) of a list or map column, at their positions
 * from the first entry's offset. Arrow lets a null entry span child entries; they hold no value of
 * the row, so they are not read (they stay holes), as a null struct entry's children are not.
 */
function presentChildren(
  plan: ColumnPlan,
  child: Data,
  offsets: Int32Array,
  bits: Uint8Array | undefined,
  start: number,
  count: number,
  ctx: ReadContext,
  step?: (entry: number, j: number) => string | number,
): unknown[] {
  let spanned = false;
  if (bits !== undefined)
    for (let i = start; i < start + count && !spanned; i++)
      spanned = isNull(bits, i) && offsets[i] !== offsets[i + 1];
  if (!spanned) return readChildren(readColumn, plan, child, offsets, start, count, ctx, step);
  const first = offsets[start] as number;
  const out = new Array<unknown>((offsets[start + count] as number) - first);
  const runs = presentRuns(bits, start, count);
  for (let r = 0; r < runs.length; r += 2) {
    const from = runs[r] as number;
    const values = readChildren(readColumn, plan, child, offsets, from, runs[r + 1] as number, ctx, step);
    const at = (offsets[from] as number) - first;
    for (let j = 0; j < values.length; j++) out[at + j] = values[j];
  }
  return out;
}

function readList(plan: ListRead, data: Data, start: number, count: number, ctx: ReadContext): unknown[] {
  const out = new Array<unknown>(count);
  const bits = nullsOf(data);
  const offsets = offsetsOf(data);
  const first = offsets[start] as number;
  const items = presentChildren(plan.item, data.children[0] as Data, offsets, bits, start, count, ctx);
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

function readMap(plan: MapRead, data: Data, start: number, count: number, ctx: ReadContext): unknown[] {
  const out = new Array<unknown>(count);
  const bits = nullsOf(data);
  const offsets = data.valueOffsets as Int32Array;
  const entries = data.children[0] as Data;
  const first = offsets[start] as number;
  const keys = presentChildren(plan.key, entries.children[0] as Data, offsets, bits, start, count, ctx);
  const keyOf = (j: number) => {
    const key = keys[j - first];
    return typeof key === 'string' ? key : String(key);
  };
  const values = presentChildren(
    plan.value,
    entries.children[1] as Data,
    offsets,
    bits,
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

/**
 * A union column, tagged or not: `children` are the plans of its children in child order (a tagged
 * union's variants, an either's branches).
 */
function readUnion(
  plan: Nullability,
  children: readonly ColumnPlan[],
  data: Data,
  start: number,
  count: number,
  ctx: ReadContext,
): unknown[] {
  const typeIds = data.typeIds as Int8Array;
  // A dense union's entry points into its child by offset; a sparse union's child entry is its own.
  const offsets = data.valueOffsets as Int32Array | undefined;
  const at = offsets === undefined ? (i: number) => i : (i: number) => offsets[i] as number;
  const childOf = new Int8Array(128);
  Array.from((data.type as unknown as { typeIds: ArrayLike<number> }).typeIds).forEach((code, i) => {
    childOf[code] = i;
  });
  // Each variant's entries are read in one run when they are contiguous (as every writer makes
  // them), else one at a time, so a stray offset far into a child costs nothing. Offsets into one
  // child increase (load.ts), so no child entry is read twice.
  const variantValues = children.map((childPlan, x) => {
    let low = Number.POSITIVE_INFINITY;
    let high = -1;
    let used = 0;
    for (let k = 0; k < count; k++) {
      const i = start + k;
      if (childOf[typeIds[i] as number] !== x) continue;
      const offset = at(i);
      if (offset < low) low = offset;
      if (offset > high) high = offset;
      used++;
    }
    if (used === 0) return { low: 0, values: [] as unknown[], single: false };
    const child = data.children[x] as Data;
    if (high - low + 1 === used) {
      try {
        return { low, values: readColumn(childPlan, child, low, used, ctx), single: false };
      } catch (error) {
        if (!(error instanceof ValueFault)) throw error;
        // The union entry that points at the child entry at fault.
        let entry = start;
        for (let k = 0; k < count; k++)
          if (childOf[typeIds[start + k] as number] === x && at(start + k) === error.index) entry = start + k;
        return rethrowAt(error, entry);
      }
    }
    return { low: 0, values: [] as unknown[], single: true, child, plan: childPlan };
  });
  const out = new Array<unknown>(count);
  for (let k = 0; k < count; k++) {
    const i = start + k;
    const x = childOf[typeIds[i] as number] as number;
    const run = variantValues[x] as (typeof variantValues)[number] & { child?: Data; plan?: ColumnPlan };
    let value: unknown;
    try {
      value = run.single
        ? readColumn(run.plan as ColumnPlan, run.child as Data, at(i), 1, ctx)[0]
        : run.values[at(i) - run.low];
    } catch (error) {
      rethrowAt(error, i);
    }
    // A null variant entry is the union's null (unions have no validity bitmap of their own).
    out[k] = value === null ? nullValue(plan) : value;
  }
  return out;
}
