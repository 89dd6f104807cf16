/**
 * Builds FlatBuffers with the official runtime's Builder, driven by the schema's plan. A builder
 * writes back to front and cannot nest: a table's strings, vectors and sub-tables are written first
 * and their offsets kept on a stack, then the table's inline part. The builder and the stack live on
 * the encoder and are reused, so a steady stream of values allocates only the output copies.
 */

import { Builder } from 'flatbuffers';
import { prependPath, WirekitBug, WirekitError } from '../../../errors/index.js';
import { describeBranches, selectBranch } from '../../../schema/either.js';
import type { EitherSchema } from '../../../schema/index.js';
import { jsonValueText } from '../../../schema/json-kind.js';
import { fieldOf } from '../../../schema/names.js';
import { isRecord, unreadableKey } from '../../../schema/value-rules.js';
import { compareUtf8 } from '../../core/utf8.js';
import type { FieldPlan, RootPlan, TablePlan, UnionPlan, ValuePlan } from '../plan.js';
import { keep, stored, wrong } from '../values.js';
import { createString, wellFormed, writeBare } from './writer.js';

/** A builder that grew past this is dropped after use, so one huge value does not pin its memory. */
const keptCapacity = 4 * 1024 * 1024;

/**
 * Writes the root table of `value` and returns its offset: the generated writer of a schema
 * (src/codecs/flatbuffers/compiled.ts), which writes into the encoder's builder and hands the kinds
 * it does not inline back to the encoder's own methods.
 */
export type RootWriter = (encoder: Encoder, builder: Builder, value: unknown, depth: number) => number;

/**
 * The members that are not private are also used by the compiled writer, which shares this
 * encoder's builder and offset stack so that it can hand any value back to these methods.
 */
export class Encoder {
  builder = new Builder(1024);
  /** Offsets of children written before their table; a union child leaves its type after its offset. */
  private readonly stack: number[] = [];
  /** The stack's height: truncating an array's length is slow, moving an index is not. */
  top = 0;
  private busy = false;
  /** Set by `child` when it writes a union: the type that goes into the slot before the value's. */
  unionType = 0;

  constructor(
    private readonly plan: RootPlan,
    private readonly maxDepth: number,
    /** The schema's generated writer, used instead of the plan when given. */
    private readonly compiled?: RootWriter,
  ) {}

  /** One buffer; `sizePrefixed` adds the 4-byte length of finishSizePrefixed, for streams. */
  encode(value: unknown, sizePrefixed: boolean): Uint8Array {
    // A getter in the value that encodes with this codec again gets a builder of its own.
    if (this.busy) return new Encoder(this.plan, this.maxDepth, this.compiled).encode(value, sizePrefixed);
    this.busy = true;
    const builder = this.builder;
    builder.clear();
    try {
      const { table, wrapped } = this.plan;
      const root =
        this.compiled !== undefined
          ? this.compiled(this, builder, value, 0)
          : wrapped
            ? this.table(table, value, undefined, 0)
            : this.object(table, value, 0);
      builder.finish(root, undefined, sizePrefixed);
      return builder.asUint8Array().slice();
    } catch (error) {
      // The runtime refuses buffers beyond 2 GiB (offsets are 32-bit); a huge array may overflow
      // the stack first. Anything else (a throwing getter of the value, say) goes out as it is.
      const full =
        error instanceof RangeError || (error instanceof Error && error.message.startsWith('FlatBuffers:'));
      if (!full) throw error;
      throw new WirekitError('WK_ENCODE_UNSUPPORTED', `FlatBuffers cannot hold the value: ${error.message}`, {
        cause: error,
      });
    } finally {
      this.top = 0;
      if (builder.dataBuffer().capacity() > keptCapacity) this.builder = new Builder(1024);
      this.busy = false;
    }
  }

  private object(table: TablePlan, value: unknown, depth: number): number {
    if (!isRecord(value)) throw wrong('an object', value);
    if (table.oneofs !== undefined) keep(table.oneofs, value);
    for (const member of table.literals) {
      const given = (value as Record<string, unknown>)[member.name];
      if (given !== member.literal)
        throw prependPath(wrong(JSON.stringify(member.literal), given), member.name);
    }
    return this.table(table, value, undefined, this.nest(depth));
  }

  /**
   * Writes a table: an object's fields come from `source`; a wrapper's one field is `source` itself;
   * a map entry's key is `key` and its value `source`.
   */
  private table(table: TablePlan, source: unknown, key: unknown, depth: number): number {
    const { stack, builder } = this;
    const base = this.top;
    const { children, writes } = table;
    // A wrapper's literal (a literal root) is not stored, but the value must be it.
    if (table.kind === 'wrapper') {
      for (const member of table.literals) {
        if (source !== member.literal) throw wrong(JSON.stringify(member.literal), source);
      }
    }
    for (let i = 0; i < children.length; i++) {
      const field = children[i] as FieldPlan;
      try {
        const value = fieldValue(table, field, source, key);
        if (absent(field, value)) this.push(0, 0);
        else {
          const offset = this.child(field.value, value, depth);
          this.push(offset, field.value.k === 'union' ? this.unionType : 0);
        }
      } catch (error) {
        throw table.kind === 'object' ? prependPath(error, field.name) : error;
      }
    }
    builder.startObject(table.slots);
    for (let i = 0; i < writes.length; i++) {
      const { field, what, child } = writes[i] as (typeof writes)[number];
      if (what === 'scalar') {
        try {
          const value = fieldValue(table, field, source, key);
          if (!absent(field, value)) this.scalar(field, value);
        } catch (error) {
          throw table.kind === 'object' ? prependPath(error, field.name) : error;
        }
      } else if (what === 'offset') {
        const offset = stack[base + 2 * child] as number;
        if (offset !== 0)
          builder.addFieldOffset(field.value.k === 'union' ? field.slot + 1 : field.slot, offset, 0);
      } else {
        builder.addFieldInt8(field.slot, stack[base + 2 * child + 1] as number, 0);
      }
    }
    this.top = base;
    return builder.endObject();
  }

  /** Writes what a slot or vector element points to; returns its offset. */
  child(plan: ValuePlan, value: unknown, depth: number): number {
    const { builder } = this;
    switch (plan.k) {
      case 'string':
        if (typeof value !== 'string') throw wrong('a string', value);
        if (plan.rule !== undefined) keep(plan.rule, value);
        return createString(builder, wellFormed(value));
      case 'decimal':
        if (typeof value !== 'string') throw wrong('a decimal string', value);
        keep(plan.rule, value);
        return createString(builder, value);
      case 'json':
        // A declared Struct or ListValue holds an object or an array (JsonSchema.proto).
        keep(plan.rule, value);
        return createString(builder, jsonValueText(value, depth, this.maxDepth));
      case 'literal':
        if (value !== plan.value) throw wrong(JSON.stringify(plan.value), value);
        return createString(builder, wellFormed(value as string));
      case 'bytes':
        if (!(value instanceof Uint8Array)) throw wrong('a Uint8Array', value);
        if (plan.rule !== undefined) keep(plan.rule, value);
        return builder.createByteVector(value);
      case 'table':
        return plan.table.kind === 'object'
          ? this.object(plan.table, value, depth)
          : this.table(plan.table, value, undefined, depth);
      case 'union':
        return this.union(plan.union, value, depth);
      case 'vector':
        if (Array.isArray(value) && plan.rule !== undefined) keep(plan.rule, value.length);
        return this.vector(plan.element, value, depth);
      case 'map':
        return plan.stringKeys
          ? this.stringMap(plan.entry, value, depth)
          : this.intMap(plan.entry, value, depth);
      default:
        throw new WirekitBug(`FlatBuffers: an offset was asked for ${plan.k}, which is stored inline`);
    }
  }

  private union(union: UnionPlan, value: unknown, depth: number): number {
    if (union.either !== undefined) return this.either(union, union.either, value, depth);
    if (!isRecord(value)) throw wrong('an object', value);
    const tag = (value as Record<string, unknown>)[union.tag];
    const index = union.byTag.get(tag);
    if (index === undefined) throw prependPath(wrong(`a variant tag of ${union.name}`, tag), union.tag);
    const offset = this.object(union.variants[index] as TablePlan, value, depth);
    this.unionType = index + 1;
    return offset;
  }

  /**
   * An either's member is the table of the branch the value picks (schema/either.ts): an object's
   * own, or a wrapper whose one field is the value. An either adds no level of its own.
   */
  private either(union: UnionPlan, schema: EitherSchema, value: unknown, depth: number): number {
    const index = selectBranch(schema, value);
    if (index === undefined) throw wrong(describeBranches(schema), value);
    const variant = union.variants[index] as TablePlan;
    const offset =
      variant.kind === 'object'
        ? this.object(variant, value, depth)
        : this.table(variant, value, undefined, depth);
    this.unionType = index + 1;
    return offset;
  }

  private vector(element: ValuePlan, value: unknown, depth: number): number {
    if (!Array.isArray(value)) throw wrong('an array', value);
    const { builder } = this;
    const inner = this.nest(depth);
    const n = value.length;
    if (
      element.k === 'scalar' ||
      element.k === 'timestamp' ||
      element.k === 'enum' ||
      (element.k === 'literal' && element.size !== 4)
    ) {
      // startVector reserves and aligns room for all n, so the elements go in with the bare writers.
      builder.startVector(element.size, n, element.size);
      for (let i = n - 1; i >= 0; i--) {
        let bits: number | bigint;
        try {
          bits = stored(element, value[i]);
        } catch (error) {
          throw firstFailure(element, value, i, error);
        }
        writeBare(builder, element.store, bits);
      }
      return builder.endVector();
    }
    const base = this.top;
    for (let i = 0; i < n; i++) {
      try {
        this.push(this.child(element, value[i], inner), 0);
      } catch (error) {
        throw prependPath(error, i);
      }
    }
    return this.offsets(base, n);
  }

  /** A vector of the `n` offsets pushed from `base`, in order. */
  offsets(base: number, n: number): number {
    const { builder, stack } = this;
    builder.startVector(4, n, 4);
    for (let i = n - 1; i >= 0; i--) builder.addOffset(stack[base + 2 * i] as number);
    this.top = base;
    return builder.endVector();
  }

  /** Entries go in key order (UTF-8 bytes), which flatc's lookup by key needs. */
  private stringMap(entry: TablePlan, value: unknown, depth: number): number {
    if (!isRecord(value)) throw wrong('an object (a map with string keys)', value);
    const inner = this.nest(depth);
    const keys = Object.keys(value);
    // Most maps are small and often written in order already: checking is cheaper than sorting.
    for (let i = 1; i < keys.length; i++) {
      if (compareUtf8(keys[i - 1] as string, keys[i] as string) > 0) {
        keys.sort(compareUtf8);
        break;
      }
    }
    const base = this.top;
    for (const key of keys) {
      try {
        const unreadable = unreadableKey(key);
        if (unreadable !== undefined) throw unreadable;
        this.push(this.table(entry, (value as Record<string, unknown>)[key], key, inner), 0);
      } catch (error) {
        throw prependPath(error, key);
      }
    }
    return this.offsets(base, keys.length);
  }

  private intMap(entry: TablePlan, value: unknown, depth: number): number {
    if (!(value instanceof Map)) throw wrong('a Map (integer keys)', value);
    const inner = this.nest(depth);
    const keys: (number | bigint)[] = [];
    for (const key of value.keys()) {
      // Checked before sorting: comparing a symbol would throw a TypeError.
      if (typeof key !== 'number' && typeof key !== 'bigint')
        throw prependPath(wrong('an integer key', key), String(key));
      keys.push(key);
    }
    keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const base = this.top;
    for (const key of keys) {
      try {
        this.push(this.table(entry, value.get(key), key, inner), 0);
      } catch (error) {
        throw prependPath(error, String(key));
      }
    }
    return this.offsets(base, keys.length);
  }

  /** Writes an inline field that is present (checked and converted by `stored`). */
  scalar(field: FieldPlan, value: unknown): void {
    const plan = field.value as Extract<ValuePlan, { store: unknown }>;
    const bits = stored(plan, value);
    const builder = this.builder;
    // A required scalar equal to its default is left out, as every FlatBuffers writer does; -0 is
    // not the default 0 (`-0 != 0` is false), so it is always written.
    const required = field.presence === 'required' && !Object.is(bits, -0);
    const slot = field.slot;
    switch (plan.store) {
      case 'i8':
        builder.addFieldInt8(slot, bits as number, required ? 0 : null);
        break;
      case 'i16':
        builder.addFieldInt16(slot, bits as number, required ? 0 : null);
        break;
      case 'i32':
        builder.addFieldInt32(slot, bits as number, required ? 0 : null);
        break;
      case 'i64':
        builder.addFieldInt64(slot, bits as bigint, required ? 0n : null);
        break;
      case 'f32':
        builder.addFieldFloat32(slot, bits as number, required ? 0 : null);
        break;
      case 'f64':
        builder.addFieldFloat64(slot, bits as number, required ? 0 : null);
        break;
    }
  }

  /** Pushes an offset and the union type that goes with it (0 for anything else). */
  push(offset: number, type: number): void {
    const { stack } = this;
    stack[this.top++] = offset;
    stack[this.top++] = type;
  }

  /** The depth below `depth`, or the encoder's error past maxDepth. */
  nest(depth: number): number {
    if (depth >= this.maxDepth) {
      throw new WirekitError(
        'WK_LIMIT_DEPTH',
        `the value nests deeper than maxDepth (${this.maxDepth}); is it cyclic?`,
        { path: [] },
      );
    }
    return depth + 1;
  }
}

/**
 * The error of the first bad element of an inline vector, which is written from its last element
 * to its first: every format names the first bad item, so the ones before `index` are looked at
 * again (only once something failed). The compiled writer calls it too.
 */
export function firstFailure(
  element: ValuePlan,
  items: readonly unknown[],
  index: number,
  error: unknown,
): unknown {
  for (let i = 0; i < index; i++) {
    try {
      stored(element, items[i]);
    } catch (earlier) {
      return prependPath(earlier, i);
    }
  }
  return prependPath(error, index);
}

function fieldValue(table: TablePlan, field: FieldPlan, source: unknown, key: unknown): unknown {
  switch (table.kind) {
    case 'object': {
      // Read as a property, not an own key, so that views (getters on a prototype) encode too.
      const record = source as Record<string, unknown>;
      return field.inherited ? fieldOf(record, field.name) : record[field.name];
    }
    case 'wrapper':
      return source;
    case 'entry':
      return field.slot === 0 ? key : source;
  }
}

/** Whether a field's value means "not present"; a required field without a value is an error. */
function absent(field: FieldPlan, value: unknown): boolean {
  if (value === undefined) {
    if (field.presence === 'optional') return true;
    throw wrong(field.presence === 'nullable' ? 'a value or null' : 'a value', value);
  }
  return value === null && field.nullAbsent;
}
