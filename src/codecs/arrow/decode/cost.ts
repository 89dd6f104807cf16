/**
 * What turning a checked record batch into rows costs the heap (core/budget.ts), computed from the
 * loaded Data before a single row is made, so the compiled and the interpreted row readers, with a
 * schema or without, are charged the same and refused at the same batch.
 *
 * A batch's row count is no claim waiting on more bytes: every column is as long as the batch,
 * and a column of nulls (or a struct of such columns) holds no bytes at all, so a few hundred
 * bytes can declare millions of rows. Charging them all up front is safe because they are all
 * certain to be built. What is charged, by the column's Arrow type: each column's array of values
 * (the readers build one per column, a row's fields are then copied from it) and, per value, an
 * object for a struct entry (with a slot per field), an array for a list entry (with a slot per
 * item), an object of two slots an entry for a map, a string (its header and bytes) for text,
 * decimals and times of day, a byte string for binary, a Date for dates and timestamps, a bigint
 * for 64-bit integers; dictionary-encoded entries share their dictionary's values, charged once
 * when the dictionary arrives. Nulls are charged as values: a little too much, never too little.
 */
import { type Data, Type } from 'apache-arrow';
import { cost, stringCost } from '../../core/budget.js';
import { offsetsOf } from './physical.js';

/**
 * The rows of a batch: the array they go to, and per row its object (`objects`, a row per struct
 * entry) or the one value a row is (a codec whose rows are the values of a single column).
 */
export function rowsCost(batch: Data, objects: boolean): number {
  const rows = batch.length;
  const slots = rows * cost.slot;
  if (objects) return slots + valuesCost(batch, 0, rows);
  const column = batch.children[0];
  return slots + (column === undefined ? 0 : valuesCost(column, 0, rows));
}

/** The values of entries [start, start + count) of a column, with the array they are read into. */
export function valuesCost(data: Data, start: number, count: number): number {
  const column = cost.array + count * cost.slot;
  switch (data.typeId) {
    case Type.Struct: {
      const fields = data.children.length;
      // readStruct keeps the objects being filled in a second array.
      let total = 2 * column + count * (cost.object + fields * cost.slot);
      for (const child of data.children) total += valuesCost(child, start, count);
      return total;
    }
    case Type.Interval:
      // Read as a struct (interval.ts): two columns of numbers and one of 64-bit integers.
      return 5 * column + count * (cost.object + 3 * cost.slot + cost.bigint);
    case Type.List:
    case Type.LargeList:
    case Type.FixedSizeList: {
      const offsets = offsetsOf(data);
      const first = offsets[start] as number;
      const items = (offsets[start + count] as number) - first;
      const child = data.children[0] as Data;
      return column + count * cost.array + items * cost.slot + valuesCost(child, first, items);
    }
    case Type.Map: {
      const offsets = data.valueOffsets as Int32Array;
      const first = offsets[start] as number;
      const entries = (offsets[start + count] as number) - first;
      const [keys, values] = (data.children[0] as Data).children as [Data, Data];
      return (
        column +
        count * cost.object +
        entries * 2 * cost.slot +
        valuesCost(keys, first, entries) +
        valuesCost(values, first, entries)
      );
    }
    case Type.Union: {
      // Each child's entries are read where entries use them; all of them is an upper bound.
      let total = column;
      for (const child of data.children) total += valuesCost(child, 0, child.length);
      return total;
    }
    case Type.Utf8:
    case Type.LargeUtf8:
      return column + count * (cost.string + 7) + byteRange(data, start, count);
    case Type.Binary:
    case Type.LargeBinary:
      return column + count * cost.bytes + byteRange(data, start, count);
    case Type.Utf8View:
      return column + count * (cost.string + 7) + viewBytes(data, start, count);
    case Type.BinaryView:
      return column + count * cost.bytes + viewBytes(data, start, count);
    case Type.FixedSizeBinary:
      return column + count * (cost.bytes + (data.type as unknown as { byteWidth: number }).byteWidth);
    case Type.Date:
    case Type.Timestamp:
      return column + count * cost.date;
    case Type.Int:
      return (data.type as unknown as { bitWidth: number }).bitWidth === 64
        ? column + count * cost.bigint
        : column;
    case Type.Decimal:
      // Its text: the digits, a sign and a point.
      return column + count * stringCost((data.type as unknown as { precision: number }).precision + 2);
    case Type.Time:
      // "HH:MM:SS" with up to nine decimals.
      return column + count * stringCost(18);
    default:
      // Booleans, numbers, nulls, dictionary indices: each value is its slot.
      return column;
  }
}

/** The bytes of entries [start, start + count) of an offset-based text or binary column. */
function byteRange(data: Data, start: number, count: number): number {
  const offsets = offsetsOf(data);
  return (offsets[start + count] as number) - (offsets[start] as number);
}

/**
 * The bytes the views of entries [start, start + count) point at (a view's length leads its 16
 * bytes). A null's view is whatever the writer left there, so nulls are passed over.
 */
function viewBytes(data: Data, start: number, count: number): number {
  const views = data.values as Uint8Array;
  const nulls = data.nullCount > 0 ? data.nullBitmap : undefined;
  let total = 0;
  for (let i = start; i < start + count; i++) {
    if (nulls !== undefined && (((nulls[i >> 3] as number) >> (i & 7)) & 1) === 0) continue;
    const at = 16 * i;
    total +=
      ((views[at] as number) |
        ((views[at + 1] as number) << 8) |
        ((views[at + 2] as number) << 16) |
        ((views[at + 3] as number) << 24)) >>>
      0;
  }
  return total;
}
