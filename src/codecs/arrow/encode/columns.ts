/**
 * Rows to Arrow columns. Columns are written one at a time (all values of a field, then the next
 * field), so that each loop handles a single type; nested columns first gather their children's
 * values into one array per child. A wrong value's position is carried up as a path.
 */

import { type Data, RecordBatch, type Struct } from 'apache-arrow';
import { describeValue, type Path, WirekitError } from '../../../errors/index.js';
import { describeBranches, selectBranch } from '../../../schema/either.js';
import { fieldOf, isInheritedName } from '../../../schema/names.js';
import { isRecord, type Rule, refusalBy, unreadableKey } from '../../../schema/value-rules.js';
import { newData } from '../data.js';
import type { EitherPlan, MapPlan, Plan, RootPlan, StructPlan, UnionPlan } from '../plan.js';
import {
  checkLiterals,
  encodeBool,
  encodeBytes,
  encodeDecimal,
  encodeEnum,
  encodeFloat,
  encodeInt,
  encodeInt64,
  encodeText,
  encodeTimestamp,
  keepAt,
  type Placeholders,
  Validity,
  wrongValue,
} from './scalars.js';
import { checkOffset } from './sink.js';

/**
 * One record batch from rows [start, end). Errors carry paths relative to `start`. `compiled` is the
 * root struct's generated column writer (src/codecs/arrow/compiled.ts), when there is one.
 */
export function encodeBatch(
  root: RootPlan,
  rows: readonly unknown[],
  start: number,
  end: number,
  compiled?: EncodeColumns,
): RecordBatch {
  const n = end - start;
  const columns = compiled === undefined ? undefined : tryCompiled(compiled, rows, start, n);
  if (columns !== undefined) {
    return new RecordBatch(
      root.arrowSchema,
      newData(root.struct.type, n, { nullCount: 0 }, {}, columns) as Data<Struct>,
    );
  }
  const values = start === 0 && end === rows.length ? rows : rows.slice(start, end);
  let data: Data<Struct>;
  if (root.rows === 'object') {
    data = encodeStruct(root.struct, values, n) as Data<Struct>;
  } else {
    const [column] = root.struct.columns as [StructPlan['columns'][number]];
    const child = encodeColumn(column.plan, values, n);
    data = newData(root.struct.type, n, { nullCount: 0 }, {}, [child]) as Data<Struct>;
  }
  return new RecordBatch(root.arrowSchema, data);
}

/**
 * The column of `values` (n of them) by `plan`; `placeholders` marks the slots under a null
 * ancestor, which hold placeholders rather than values (see Placeholders).
 */
export function encodeColumn(
  plan: Plan,
  values: readonly unknown[],
  n: number,
  placeholders?: Placeholders,
): Data {
  switch (plan.k) {
    case 'bool':
      return encodeBool(plan, values, n);
    case 'int':
      return encodeInt(plan, values, n);
    case 'int64':
      return encodeInt64(plan, values, n);
    case 'float':
      return encodeFloat(plan, values, n, placeholders);
    case 'decimal':
      return encodeDecimal(plan, values, n, placeholders);
    case 'text':
      return encodeText(plan, values, n, placeholders);
    case 'bytes':
      return encodeBytes(plan, values, n, placeholders);
    case 'timestamp':
      return encodeTimestamp(plan, values, n, placeholders);
    case 'enum':
      return encodeEnum(plan, values, n);
    case 'literal':
      checkLiterals(plan, values, n);
      return encodeColumn(plan.storage, values, n);
    case 'struct':
      return encodeStruct(plan, values, n, placeholders);
    case 'list':
      return encodeList(plan, values, n, placeholders);
    case 'map':
      // A placeholder map is empty: no entry of it is checked.
      return encodeMap(plan, values, n);
    case 'union':
      return encodeUnion(plan, values, n, placeholders);
    case 'either':
      return encodeEither(plan, values, n, placeholders);
  }
}

/** Runs a child column's writer; an error at child index j gets the parent's path for j. */
function inChild<T>(body: () => T, pathOf: (index: number) => Path): T {
  try {
    return body();
  } catch (error) {
    const path = error instanceof WirekitError ? error.path : undefined;
    if (path !== undefined && typeof path[0] === 'number') {
      throw new WirekitError((error as WirekitError).code, (error as WirekitError).message, {
        path: [...pathOf(path[0]), ...path.slice(1)],
        format: (error as WirekitError).format,
        cause: (error as WirekitError).cause,
      });
    }
    throw error;
  }
}

/**
 * The stored columns of the row objects [start, start + n), in column order: a generated writer,
 * which throws to leave a batch to the interpreter.
 */
export type EncodeColumns = (rows: readonly unknown[], start: number, n: number) => Data[];

function tryCompiled(
  compiled: EncodeColumns,
  rows: readonly unknown[],
  start: number,
  n: number,
): Data[] | undefined {
  try {
    return compiled(rows, start, n);
  } catch {
    // The interpreter writes the batch instead, or meets the problem and reports it as it always does.
    return undefined;
  }
}

function encodeStruct(
  plan: StructPlan,
  values: readonly unknown[],
  n: number,
  placeholders?: Placeholders,
): Data {
  const validity = new Validity(plan, n);
  let objects = values;
  // The children's placeholder slots: this struct's own, and those under its null entries.
  let below = placeholders;
  for (let i = 0; i < n; i++) {
    const value = values[i];
    if (!isRecord(value)) {
      validity.null(i, value, `an object (${plan.typeName})`);
      if (objects === values) objects = values.slice(0, n);
      // Arrow keeps child slots under a null; a valid filler lets the children skip null checks,
      // and marking the slot keeps the filler's values from the children's constraints.
      (objects as unknown[])[i] = plan.fill;
      if (below === placeholders) below = placeholders?.slice() ?? new Uint8Array(n);
      (below as Uint8Array)[i] = 1;
    }
  }
  if (plan.oneofs !== undefined) checkOneofs(plan.oneofs, values, n);
  for (const entry of plan.entries) {
    if (entry.plan !== undefined) continue;
    for (let i = 0; i < n; i++) {
      const value = (objects[i] as Record<string, unknown>)[entry.name];
      if (value !== entry.literal) {
        throw new WirekitError(
          'WK_VALIDATION_FAILED',
          `expected ${JSON.stringify(entry.literal)}, got ${describeValue(value)}.`,
          {
            path: [i, entry.name],
          },
        );
      }
    }
  }
  const children = plan.columns.map((column) => {
    const name = column.name;
    const fieldValues = fieldValuesOf(objects, name, n);
    return inChild(
      () => encodeColumn(column.plan, fieldValues, n, below),
      (i) => [i, name],
    );
  });
  return newData(plan.type, n, validity.props, {}, children);
}

/** Refuses the first object among `values` that holds two members of one oneof group (its index as the path). */
function checkOneofs(rule: Rule<never>, values: readonly unknown[], n: number): void {
  for (let i = 0; i < n; i++) {
    const refusal = isRecord(values[i]) ? refusalBy(rule, values[i]) : undefined;
    if (refusal !== undefined) throw new WirekitError('WK_VALIDATION_FAILED', refusal.message, { path: [i] });
  }
}

function fieldValuesOf(objects: readonly unknown[], name: string, n: number): unknown[] {
  const values = new Array<unknown>(n);
  if (isInheritedName(name)) {
    for (let i = 0; i < n; i++) values[i] = fieldOf(objects[i] as Record<string, unknown>, name);
  } else {
    for (let i = 0; i < n; i++) values[i] = (objects[i] as Record<string, unknown>)[name];
  }
  return values;
}

/** The entry i of `offsets` (n + 1 ascending values) whose range holds child index `j`. */
function parentOf(offsets: Int32Array, j: number): number {
  let low = 0;
  let high = offsets.length - 2;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((offsets[mid] as number) <= j) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** A placeholder list is empty: its items need no marks, only its own item count is not checked. */
function encodeList(
  plan: Extract<Plan, { k: 'list' }>,
  values: readonly unknown[],
  n: number,
  placeholders?: Placeholders,
): Data {
  const validity = new Validity(plan, n);
  const offsets = new Int32Array(n + 1);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const value = values[i];
    if (Array.isArray(value)) {
      if (plan.rule !== undefined) keepAt(plan.rule, i, value.length, placeholders);
      total += value.length;
    } else validity.null(i, value, 'an array');
    offsets[i + 1] = checkOffset(total);
  }
  const items = new Array<unknown>(total);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const value = values[i];
    if (!Array.isArray(value)) continue;
    for (let j = 0; j < value.length; j++) items[at++] = value[j];
  }
  const child = inChild(
    () => encodeColumn(plan.item, items, total),
    (j) => {
      const i = parentOf(offsets, j);
      return [i, j - (offsets[i] as number)];
    },
  );
  return newData(plan.type, n, validity.props, { offsets }, [child]);
}

function encodeMap(plan: MapPlan, values: readonly unknown[], n: number): Data {
  const validity = new Validity(plan, n);
  const offsets = new Int32Array(n + 1);
  const keys: unknown[] = [];
  const items: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const value = values[i];
    if (plan.stringKeys && isRecord(value)) {
      for (const key of Object.keys(value)) {
        const unreadable = unreadableKey(key);
        if (unreadable !== undefined) {
          throw new WirekitError(unreadable.code, unreadable.message, { path: [i, key] });
        }
        keys.push(key);
        items.push((value as Record<string, unknown>)[key]);
      }
    } else if (!plan.stringKeys && value instanceof Map) {
      for (const [key, item] of value) {
        keys.push(key);
        items.push(item);
      }
    } else {
      validity.null(
        i,
        value,
        plan.stringKeys ? 'an object (a map with string keys)' : 'a Map (integer keys)',
      );
    }
    offsets[i + 1] = checkOffset(keys.length);
  }
  const total = keys.length;
  const pathOf = (j: number): Path => [parentOf(offsets, j), String(keys[j])];
  const keyData = inChild(() => encodeColumn(plan.key, keys, total), pathOf);
  const valueData = inChild(() => encodeColumn(plan.value, items, total), pathOf);
  const entries = newData(plan.entriesType, total, { nullCount: 0 }, {}, [keyData, valueData]);
  return newData(plan.type, n, validity.props, { offsets }, [entries]);
}

function encodeUnion(
  plan: UnionPlan,
  values: readonly unknown[],
  n: number,
  placeholders?: Placeholders,
): Data {
  const typeIds = new Int8Array(n);
  const offsets = new Int32Array(n);
  const members = plan.variants.map(() => [] as unknown[]);
  const parents = plan.variants.map(() => [] as number[]);
  const expected = `a variant tag (${[...plan.byTag.keys()].map((tag) => JSON.stringify(tag)).join(', ')})`;
  for (let i = 0; i < n; i++) {
    const value = values[i];
    let index: number | undefined;
    if (isRecord(value)) {
      const tag = (value as Record<string, unknown>)[plan.tag];
      index = plan.byTag.get(tag);
      if (index === undefined) {
        throw new WirekitError('WK_VALIDATION_FAILED', `expected ${expected}, got ${describeValue(tag)}.`, {
          path: [i, plan.tag],
        });
      }
    } else if (value === null ? plan.allowNull : value === undefined && plan.allowAbsent) {
      // Arrow unions have no validity bitmap: a null is a null entry of the first variant.
      index = 0;
    } else {
      throw wrongValue(i, 'an object (a union variant)', value);
    }
    const member = members[index] as unknown[];
    typeIds[i] = index;
    offsets[i] = member.length;
    member.push(value ?? null);
    (parents[index] as number[]).push(i);
  }
  const children = plan.variants.map((variant, x) => {
    const member = members[x] as unknown[];
    // A placeholder union entry (the first variant's placeholder) keeps its mark in its variant.
    const marks =
      placeholders === undefined
        ? undefined
        : Uint8Array.from(parents[x] as number[], (i) => placeholders[i] as number);
    return inChild(
      () => encodeStruct(variant.plan, member, member.length, marks),
      (j) => [(parents[x] as number[])[j] as number],
    );
  });
  return newData(plan.type, n, { nullCount: 0 }, { typeIds, offsets }, children);
}

/**
 * An untagged union's column: each value goes to the child of the branch it selects (the rule of
 * schema/either.ts, shared with every format), a null to a null entry of branch 0, and a
 * placeholder (the slot under a null parent, which is branch 0's placeholder) to branch 0.
 */
function encodeEither(
  plan: EitherPlan,
  values: readonly unknown[],
  n: number,
  placeholders?: Placeholders,
): Data {
  const typeIds = new Int8Array(n);
  const offsets = new Int32Array(n);
  const members = plan.branches.map(() => [] as unknown[]);
  const parents = plan.branches.map(() => [] as number[]);
  for (let i = 0; i < n; i++) {
    const value = values[i];
    let index: number | undefined;
    if (
      placeholders?.[i] === 1 ||
      (value === null ? plan.allowNull : value === undefined && plan.allowAbsent)
    ) {
      index = 0;
    } else {
      index = selectBranch(plan.schema, value);
      if (index === undefined) {
        throw new WirekitError(
          'WK_VALIDATION_FAILED',
          `expected ${describeBranches(plan.schema)}, got ${describeValue(value)}.`,
          { path: [i] },
        );
      }
    }
    const member = members[index] as unknown[];
    typeIds[i] = index;
    offsets[i] = member.length;
    member.push(value);
    (parents[index] as number[]).push(i);
  }
  const children = plan.branches.map((branch, x) => {
    const member = members[x] as unknown[];
    const marks =
      placeholders === undefined
        ? undefined
        : Uint8Array.from(parents[x] as number[], (i) => placeholders[i] as number);
    return inChild(
      () => encodeColumn(branch, member, member.length, marks),
      (j) => [(parents[x] as number[])[j] as number],
    );
  });
  return newData(plan.type, n, { nullCount: 0 }, { typeIds, offsets }, children);
}
