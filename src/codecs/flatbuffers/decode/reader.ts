/**
 * The checked reader: `decode` builds plain values with it in one pass, and `view` runs it once with
 * `build` off as a verifier (the role of FlatBuffers' C++ Verifier) before reading lazily without
 * checks. Every offset, vtable, length and union type is checked before use, so hostile bytes give a
 * WirekitError, never a RangeError or a read of garbage.
 *
 * Offsets are unsigned and point forward, so they cannot loop, but many may point at one table or
 * string (a DAG): a few hundred bytes can describe an exponential tree. So array items, map
 * entries and the tables fields hold together may not outnumber the input's bytes (the role of the
 * Verifier's max_tables), besides items and entries being held to maxElements as in every format, and the bytes of strings and byte strings read, repeats
 * included, may not add up past maxInputBytes. Depth is limited as in every decoder.
 *
 * What the built value costs the heap is charged to the reader's budget (core/budget.ts) before each
 * thing is made: a table as an object of its members, each vector, map, string, byte string, Date
 * and bigint. The verifier behind views charges the same, whether it builds or not, so a view is
 * refused exactly where decode would be: what a view later makes is what its reader reads of it,
 * never more than decode would have made at once.
 */
import { WirekitBug, WirekitError } from '../../../errors/index.js';
import { noSuchField } from '../../../schema/names.js';
import { type Rule, refusalBy } from '../../../schema/value-rules.js';
import { AllocationBudget, cost, recordCost, stringCost } from '../../core/budget.js';
import {
  isUnsafeKey,
  malformed,
  mismatch,
  tooDeep,
  tooLong,
  tooManyElements,
  truncated,
  unsafeKey,
} from '../../core/errors.js';
import type { DecodeLimits } from '../../core/limits.js';
import { decodeUtf8 } from '../../core/utf8.js';
import type { FieldPlan, RootPlan, TablePlan, ValuePlan } from '../plan.js';
import { dateOf, safeInteger } from '../values.js';
import { parseJsonText, type Tally } from './json-text.js';

/** The vtable slots each table's fields fill (1), a union's type and value both; placeholders hold 0. */
const slotsInUse = new WeakMap<TablePlan, Uint8Array>();

function usedSlots(table: TablePlan): Uint8Array {
  let used = slotsInUse.get(table);
  if (used === undefined) {
    used = new Uint8Array(table.slots);
    for (const field of table.fields) {
      used[field.slot] = 1;
      if (field.value.k === 'union') used[field.slot + 1] = 1;
    }
    slotsInUse.set(table, used);
  }
  return used;
}

/** Offsets are unsigned 32-bit but must stay below 2^31, as the C++ Verifier requires. */
const maxOffset = 2 ** 31;

/**
 * The members that are not private are also used by the compiled decoder
 * (src/codecs/flatbuffers/compiled.ts), which inlines the common kinds and calls these methods for
 * the rest, so that both count elements and bytes on the same reader and fail with the same errors.
 */
export class Reader implements Tally {
  readonly data: DataView;
  readonly end: number;
  /** Array items and map entries, against maxElements. */
  private elements = 0;
  /**
   * Elements and tables held by fields together. Without shared offsets no buffer holds more of
   * them than it has bytes (each takes at least one), so more than that means a DAG repeating its
   * tables: refused long before maxElements, which a few hundred hostile bytes could otherwise fill
   * with millions of objects.
   */
  private nodes = 0;
  private copied = 0;
  /** The length of the vector or string that `vector` found last. */
  count = 0;
  /** Refuse a table slot the schema gives no field (`unknownKeys: 'reject'`) rather than pass it by. */
  rejectUnknown = false;

  constructor(
    readonly bytes: Uint8Array,
    readonly limits: DecodeLimits,
    /** Off: check only, and return nothing (the verifier behind views). */
    private readonly build: boolean,
    /** What the value costs the heap: the decode's own, or a sequence's that holds it. */
    readonly budget = new AllocationBudget(limits.maxAllocatedBytes),
  ) {
    this.data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.end = bytes.byteLength;
  }

  /** The root value; `start` is where the buffer begins (4 in a size-prefixed frame). */
  root(plan: RootPlan, start = 0): unknown {
    if (this.end - start < 4) throw truncated(start, 'the offset of the root table');
    const root = this.table(start);
    return plan.wrapped ? this.wrapper(plan.table, root, 0) : this.object(plan.table, root, 0);
  }

  /** The position of the table that the offset at `at` points to, its vtable checked. */
  table(at: number): number {
    const { data, end } = this;
    const pos = this.follow(at);
    if (pos + 4 > end) throw truncated(pos, 'a table');
    const vtable = pos - data.getInt32(pos, true);
    if (vtable < 0 || vtable + 4 > end) throw malformed(pos, 'a table points to a vtable outside the buffer');
    const size = data.getUint16(vtable, true);
    if (size < 4 || (size & 1) !== 0) throw malformed(vtable, `a vtable has the impossible size ${size}`);
    if (vtable + size > end) throw truncated(vtable, 'a vtable');
    const inline = data.getUint16(vtable + 2, true);
    if (inline < 4) throw malformed(vtable, `a table has the impossible size ${inline}`);
    if (pos + inline > end) throw truncated(pos, 'a table');
    return pos;
  }

  /** Where a slot's `width` bytes are, or -1 when the table leaves the slot empty. */
  private slot(table: number, slot: number, width: number): number {
    const { data } = this;
    const vtable = table - data.getInt32(table, true);
    const entry = 4 + 2 * slot;
    if (entry >= data.getUint16(vtable, true)) return -1;
    const offset = data.getUint16(vtable + entry, true);
    if (offset === 0) return -1;
    const pos = table + offset;
    if (pos + width > this.end) throw truncated(pos, 'a field');
    return pos;
  }

  /** The target of the offset at `at` (whose 4 bytes the caller has checked). */
  private follow(at: number): number {
    const offset = this.data.getUint32(at, true);
    if (offset === 0 || offset >= maxOffset) throw malformed(at, `an offset of ${offset} points nowhere`);
    const target = at + offset;
    if (target >= this.end) throw truncated(at, 'a value an offset points to');
    return target;
  }

  /** The start of the vector (or string) the offset at `at` points to; its length goes to `count`. */
  vector(at: number, size: number): number {
    const start = this.follow(at);
    if (start + 4 > this.end) throw truncated(start, 'a vector length');
    const count = this.data.getUint32(start, true);
    // Checked against what is left before anything is sized by it.
    if (count > (this.end - start - 4) / size) throw truncated(start, `a vector of ${count} items`);
    this.count = count;
    return start + 4;
  }

  /** Array items and map entries: counted against maxElements, as in every format. */
  countElements(n: number, at: number): void {
    this.elements += n;
    if (this.elements > this.limits.maxElements) throw tooManyElements(at, this.limits);
    this.countNodes(n, at);
  }

  /**
   * A table a field holds (an object, a union's variant): no element of the value (no format counts
   * an object as one), but a DAG repeats tables as it repeats vector items.
   */
  countTable(at: number): void {
    this.countNodes(1, at);
  }

  private countNodes(n: number, at: number): void {
    this.nodes += n;
    if (this.nodes > this.end) {
      throw new WirekitError(
        'WK_LIMIT_ELEMENTS',
        `more array items, map entries and objects than the ${this.end} bytes of input can hold ` +
          `without shared offsets, at byte ${at}.`,
        { offset: at },
      );
    }
  }

  private countBytes(n: number, at: number): void {
    this.copied += n;
    if (this.copied > this.limits.maxInputBytes) {
      throw new WirekitError(
        'WK_LIMIT_INPUT',
        `strings and byte strings read through shared offsets add up to more than maxInputBytes ` +
          `(${this.limits.maxInputBytes}), at byte ${at}.`,
        { offset: at },
      );
    }
  }

  private object(table: TablePlan, pos: number, depth: number): unknown {
    if (depth >= this.limits.maxDepth) throw tooDeep(pos, this.limits);
    this.budget.charge(tableCost(table), pos);
    // A table's own unknown slots are looked at after its fields, as JSON looks at an object's keys.
    if (!this.build) {
      for (const field of table.fields) this.field(pos, field, depth + 1);
      if (this.rejectUnknown) this.knownSlots(table, pos);
      return undefined;
    }
    const out: Record<string, unknown> = {};
    for (const member of table.members) {
      const field = member.field;
      if (field === undefined) out[member.name] = member.literal;
      else {
        const value = this.field(pos, field, depth + 1);
        if (value !== undefined) out[member.name] = value;
      }
    }
    if (this.rejectUnknown) this.knownSlots(table, pos);
    if (table.oneofs !== undefined) kept(table.oneofs, pos, out);
    return out;
  }

  /**
   * Refuses an object table that fills a vtable slot its schema gives no field: a field id past the
   * schema's (a newer writer's field), or a placeholder's (a field the schema dropped). Under
   * `unknownKeys: 'ignore'` such slots are never looked at. Generated tables (wrappers, map
   * entries) are the format's own layout, not objects of the value.
   */
  knownSlots(table: TablePlan, pos: number): void {
    const { data } = this;
    const vtable = pos - data.getInt32(pos, true);
    const slots = (data.getUint16(vtable, true) - 4) >> 1;
    const used = usedSlots(table);
    for (let slot = 0; slot < slots; slot++) {
      if (used[slot] === 1 || data.getUint16(vtable + 4 + 2 * slot, true) === 0) continue;
      throw mismatch(pos, noSuchField(table.name, slot, 'field id'));
    }
  }

  /** A generated table holds its value in its one field, at the depth of the element it stands for. */
  private wrapper(table: TablePlan, pos: number, depth: number): unknown {
    const field = table.fields[0];
    // A literal root is not stored: its wrapper table is empty.
    return field === undefined ? table.literals[0]?.literal : this.field(pos, field, depth);
  }

  /** A field's value; undefined for an absent optional field. */
  field(table: number, field: FieldPlan, depth: number): unknown {
    const plan = field.value;
    if (plan.k === 'union') {
      const typeAt = this.slot(table, field.slot, 1);
      const type = typeAt < 0 ? 0 : this.data.getUint8(typeAt);
      if (type === 0) return this.absent(field, table);
      const { variants, name } = plan.union;
      const variant = variants[type - 1];
      if (variant === undefined) throw mismatch(typeAt, `union ${name} has no member ${type}`);
      const at = this.slot(table, field.slot + 1, 4);
      if (at < 0) throw mismatch(typeAt, `union ${name} has a type but no value`);
      this.countTable(at);
      // An either's wrapper member holds the value itself, at the either's own level.
      return variant.kind === 'object'
        ? this.object(variant, this.table(at), depth)
        : this.wrapper(variant, this.table(at), depth);
    }
    const at = this.slot(table, field.slot, plan.size);
    if (at < 0) return this.absent(field, table);
    if (plan.k === 'table' && plan.table.kind === 'object') this.countTable(at);
    return this.value(plan, at, depth);
  }

  /** What an empty slot reads as: absent, null, or the FlatBuffers default of a required field. */
  absent(field: FieldPlan, table: number): unknown {
    if (field.presence === 'optional') return undefined;
    if (field.presence === 'nullable') return null;
    const plan = field.value;
    switch (plan.k) {
      case 'scalar':
        if (plan.kind === 'bool') return false;
        if (plan.range !== undefined) return withinRange(plan.range, table, 0);
        if (plan.rule !== undefined) return kept(plan.rule, table, 0);
        return (plan.kind === 'int64' || plan.kind === 'uint64') && !plan.asNumber ? 0n : 0;
      case 'timestamp':
        this.budget.charge(cost.date, table);
        return new Date(0);
      case 'enum':
        return plan.members[0];
      case 'literal':
        return plan.value;
      // Writers may leave out empty strings and vectors, as generated code reads them as empty; an
      // empty value the schema's rule refuses (a minLength, a fixed size) is refused, as every
      // format that names its fields refuses the field's absence.
      case 'string':
        return this.build && plan.rule !== undefined ? kept(plan.rule, table, '') : '';
      case 'bytes':
        this.budget.charge(cost.bytes, table);
        if (!this.build) return undefined;
        return plan.rule === undefined ? new Uint8Array(0) : kept(plan.rule, table, new Uint8Array(0));
      case 'vector':
        this.budget.charge(cost.array, table);
        return [];
      case 'map':
        this.budget.charge(plan.stringKeys ? cost.object : cost.map, table);
        return plan.stringKeys ? {} : new Map();
      default:
        throw mismatch(table, `the required field ${field.name} is absent`);
    }
  }

  /** The inline scalar at `at`, of the plan's kind. */
  private scalar(plan: Extract<ValuePlan, { k: 'scalar' }>, at: number): unknown {
    const { data } = this;
    switch (plan.kind) {
      case 'bool':
        return data.getUint8(at) !== 0;
      case 'int8':
        return data.getInt8(at);
      case 'uint8':
        return data.getUint8(at);
      case 'int16':
        return data.getInt16(at, true);
      case 'uint16':
        return data.getUint16(at, true);
      case 'int32':
        return data.getInt32(at, true);
      case 'uint32':
        return data.getUint32(at, true);
      case 'float32':
        return data.getFloat32(at, true);
      case 'float64':
        return data.getFloat64(at, true);
      case 'int64':
      case 'uint64': {
        if (!plan.asNumber) {
          this.budget.charge(cost.bigint, at);
          return plan.kind === 'int64' ? data.getBigInt64(at, true) : data.getBigUint64(at, true);
        }
        const high = plan.kind === 'int64' ? data.getInt32(at + 4, true) : data.getUint32(at + 4, true);
        const value = safeInteger(data.getUint32(at, true), high);
        if (value === undefined) throw mismatch(at, `an ${plan.kind} is beyond a safe number`);
        return value;
      }
    }
  }

  /** The value at `at`: inline there, or where the offset at `at` points. */
  value(plan: ValuePlan, at: number, depth: number): unknown {
    const { data } = this;
    switch (plan.k) {
      case 'scalar':
        if (plan.range !== undefined) return withinRange(plan.range, at, this.scalar(plan, at));
        if (plan.rule !== undefined) return kept(plan.rule, at, this.scalar(plan, at));
        return this.scalar(plan, at);
      case 'timestamp': {
        const date = dateOf(data.getUint32(at, true), data.getInt32(at + 4, true), plan.precision);
        if (date === undefined) throw mismatch(at, 'a timestamp is beyond the range of a Date');
        this.budget.charge(cost.date, at);
        return plan.rule === undefined ? date : kept(plan.rule, at, date);
      }
      case 'enum': {
        const index =
          plan.size === 1
            ? data.getUint8(at)
            : plan.size === 2
              ? data.getUint16(at, true)
              : data.getUint32(at, true);
        const member = plan.members[index];
        if (member === undefined) throw mismatch(at, `enum index ${index} is past the last member`);
        return member;
      }
      case 'literal': {
        const value =
          typeof plan.value === 'string'
            ? this.string(at, true)
            : typeof plan.value === 'boolean'
              ? data.getUint8(at) !== 0
              : data.getFloat64(at, true);
        if (value !== plan.value)
          throw mismatch(at, `a literal field does not hold ${JSON.stringify(plan.value)}`);
        return value;
      }
      case 'string': {
        const text = this.string(at, this.build);
        return this.build && plan.rule !== undefined ? kept(plan.rule, at, text) : text;
      }
      case 'decimal': {
        const text = this.string(at, this.build);
        return this.build ? kept(plan.rule, at, text) : text;
      }
      case 'json': {
        const text = this.string(at, this.build);
        if (!this.build) return undefined;
        // A declared Struct or ListValue holds an object or an array (JsonSchema.proto).
        const value = parseJsonText(text, at, depth, this.limits, this);
        return plan.rule === undefined ? value : kept(plan.rule, at, value);
      }
      case 'bytes': {
        const start = this.vector(at, 1);
        const n = this.count;
        if (n > this.limits.maxBytesLength) throw tooLong(at, n, this.limits.maxBytesLength, 'byte string');
        this.countBytes(n, at);
        this.budget.charge(cost.bytes + n, at);
        if (!this.build) return undefined;
        // A copy into a plain Uint8Array: a Buffer input's slice() would be a view into it.
        const bytes = new Uint8Array(this.bytes.subarray(start, start + n));
        return plan.rule === undefined ? bytes : kept(plan.rule, at, bytes);
      }
      case 'table': {
        const table = this.table(at);
        return plan.table.kind === 'object'
          ? this.object(plan.table, table, depth)
          : this.wrapper(plan.table, table, depth);
      }
      case 'vector': {
        const list = this.list(plan.element, at, depth);
        if (this.build && plan.rule !== undefined) kept(plan.rule, at, (list as unknown[]).length);
        return list;
      }
      case 'map':
        return this.map(plan, at, depth);
      case 'union':
        throw new WirekitBug('FlatBuffers: a union plan reached a place other than a field');
    }
  }

  string(at: number, decode: boolean): string {
    const start = this.vector(at, 1);
    const n = this.count;
    if (n > this.limits.maxStringBytes) throw tooLong(at, n, this.limits.maxStringBytes, 'string');
    this.countBytes(n, at);
    this.budget.charge(stringCost(n), at);
    return decode ? decodeUtf8(this.bytes, start, start + n) : '';
  }

  private list(element: ValuePlan, at: number, depth: number): unknown {
    if (depth >= this.limits.maxDepth) throw tooDeep(at, this.limits);
    const size = element.size;
    const start = this.vector(at, size);
    const n = this.count;
    this.countElements(n, at);
    this.budget.charge(cost.array + n * cost.slot, at);
    if (!this.build) {
      for (let i = 0; i < n; i++) this.value(element, start + i * size, depth + 1);
      return undefined;
    }
    const out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = this.value(element, start + i * size, depth + 1);
    return out;
  }

  private map(plan: Extract<ValuePlan, { k: 'map' }>, at: number, depth: number): unknown {
    if (depth >= this.limits.maxDepth) throw tooDeep(at, this.limits);
    const start = this.vector(at, 4);
    const n = this.count;
    this.countElements(n, at);
    this.budget.charge(plan.stringKeys ? cost.object + n * 2 * cost.slot : cost.map + n * cost.mapEntry, at);
    const [keyField, valueField] = plan.entry.fields as [FieldPlan, FieldPlan];
    const byString: Record<string, unknown> | undefined = plan.stringKeys && this.build ? {} : undefined;
    const byNumber = !plan.stringKeys && this.build ? new Map<unknown, unknown>() : undefined;
    for (let i = 0; i < n; i++) {
      const entry = this.table(start + 4 * i);
      // String keys are decoded even when only checking: a view must never hand out __proto__.
      const key = plan.stringKeys ? this.key(entry, keyField) : this.field(entry, keyField, depth + 1);
      const value = this.field(entry, valueField, depth + 1);
      if (byString !== undefined) byString[key as string] = value;
      else byNumber?.set(key, value);
    }
    return byString ?? byNumber;
  }

  private key(entry: number, field: FieldPlan): string {
    const at = this.slot(entry, field.slot, 4);
    const key = at < 0 ? '' : this.string(at, true);
    if (isUnsafeKey(key)) throw unsafeKey(at < 0 ? entry : at, key);
    const plan = field.value;
    return plan.k === 'string' && plan.rule !== undefined ? kept(plan.rule, at < 0 ? entry : at, key) : key;
  }
}

/** What a decoded table costs: an object holding each of its members. The compiled reader charges it too. */
export function tableCost(table: TablePlan): number {
  return recordCost(table.members.length);
}

/**
 * `value`, found at byte `at`, unless the schema's `rule` refuses it (value-rules.ts): then the
 * refusal as a schema mismatch. Checked when building values; views check the same rules when a
 * field is read (view.ts). The compiled reader calls it too.
 */
/** `value`, a bounded integer read at `at`, unless it is outside its schema's `range`. */
function withinRange(range: readonly [number, number], at: number, value: unknown): unknown {
  const [min, max] = range;
  if ((value as number) < min || (value as number) > max)
    throw mismatch(at, `${value} is outside ${min}..${max}`);
  return value;
}

export function kept<T>(rule: Rule<never> | undefined, at: number, value: T): T {
  const refusal = refusalBy(rule, value);
  if (refusal !== undefined) throw mismatch(at, refusal.message);
  return value;
}
