/**
 * The schema-driven encoder shared by MessagePack and CBOR: it walks a value along its plan, checks
 * each type where it writes it, and hands the primitives to the format's emitter. Objects become
 * maps keyed by field name in declaration order (absent optional fields left out); values of keys
 * the schema does not know are not written.
 */

import { prependPath } from '../../../errors/index.js';
import { decimalFits } from '../../../schema/decimal.js';
import { describeBranches, selectBranch } from '../../../schema/either.js';
import { fieldOf } from '../../../schema/names.js';
import type { EitherSchema } from '../../../schema/types.js';
import { fitsFloat32, isRecord, type Rule, refusalBy, refused } from '../../../schema/value-rules.js';
import { isUnsafeKey } from '../../core/errors.js';
import { refusedKey, tooDeepValue, wrongValue } from '../failures.js';
import { type FieldPlan, Op, type Plan } from '../plan.js';
import type { ObjectRecords, WireEmitter } from '../wire.js';
import { writeAny } from './any-value.js';

const maxDateMillis = 8.64e15;

export class SchemaWriter {
  /** Given in MessagePack's records mode: objects are written as records, not maps. */
  private readonly records: ObjectRecords | undefined;

  constructor(
    private readonly out: WireEmitter,
    readonly maxDepth: number,
  ) {
    this.records = out.records;
  }

  write(plan: Plan, value: unknown, depth: number): void {
    const out = this.out;
    switch (plan.op) {
      case Op.bool:
        if (typeof value !== 'boolean') throw wrongValue('a boolean', value);
        out.bool(value);
        return;
      case Op.int:
        if (typeof value !== 'number' || !Number.isInteger(value) || value < plan.min || value > plan.max) {
          throw wrongValue(`an integer in ${plan.label} (${plan.min}..${plan.max})`, value);
        }
        out.int(value);
        return;
      case Op.int64:
        this.int64(plan, value);
        return;
      case Op.float32:
        if (typeof value !== 'number') throw wrongValue('a number', value);
        if (!fitsFloat32(value)) throw wrongValue('a number within float32', value);
        if (plan.rule !== undefined) keep(plan.rule, value);
        out.float32(value);
        return;
      case Op.float64:
        if (typeof value !== 'number') throw wrongValue('a number', value);
        if (plan.rule !== undefined) keep(plan.rule, value);
        out.float64(value);
        return;
      case Op.decimal:
        if (typeof value !== 'string') throw wrongValue('a decimal string such as "-12.50"', value);
        if (plan.rule !== undefined && !decimalFits(value, plan.decimalInteger, plan.decimalScale))
          keep(plan.rule, value);
        out.decimal(value);
        return;
      case Op.string:
        if (typeof value !== 'string') throw wrongValue('a string', value);
        if (plan.rule !== undefined) keep(plan.rule, value);
        out.string(value);
        return;
      case Op.bytes:
        if (!(value instanceof Uint8Array)) throw wrongValue('a Uint8Array', value);
        if (plan.rule !== undefined) keep(plan.rule, value);
        out.bytes(value);
        return;
      case Op.timestamp: {
        const millis = value instanceof Date ? value.getTime() : Number.NaN;
        if (!(Math.abs(millis) <= maxDateMillis)) throw wrongValue('a valid Date', value);
        if (plan.rule !== undefined) keep(plan.rule, value);
        out.timestamp(millis);
        return;
      }
      case Op.enum:
        if (typeof value !== 'string' || !plan.memberSet.has(value)) {
          throw wrongValue(`one of ${plan.members.join(', ')}`, value);
        }
        out.string(value);
        return;
      case Op.literal:
        if (value !== plan.literal) throw wrongValue(JSON.stringify(plan.literal), value);
        this.literal(plan);
        return;
      case Op.object:
        if (!isRecord(value)) throw wrongValue(`an object (${plan.label})`, value);
        this.object(plan, value, this.enter(depth));
        return;
      case Op.union:
        this.union(plan, value, depth);
        return;
      case Op.array:
        this.array(plan, value, this.enter(depth));
        return;
      case Op.map:
        this.map(plan, value, this.enter(depth));
        return;
      case Op.optional:
        if (value === undefined) out.undef();
        else this.write(plan.inner as Plan, value, depth);
        return;
      case Op.nullable:
        if (value === null) out.nil();
        else this.write(plan.inner as Plan, value, depth);
        return;
      case Op.json:
        // A declared Struct or ListValue holds an object or an array (JsonSchema.proto).
        if (plan.rule !== undefined) keep(plan.rule, value);
        writeAny(out, value, depth, this.maxDepth, true);
        return;
      case Op.either:
        // The value travels as itself, written as the branch its class (and keys) choose.
        this.write(plan.branches[eitherBranch(plan, value)] as Plan, value, depth);
        return;
    }
  }

  /** The depth inside one more container, refused past maxDepth. */
  enter(depth: number): number {
    if (depth + 1 > this.maxDepth) throw tooDeepValue(this.maxDepth);
    return depth + 1;
  }

  private int64(plan: Plan, value: unknown): void {
    if (plan.asBigint) {
      if (typeof value !== 'bigint' || value < plan.bigMin || value > plan.bigMax) {
        throw wrongValue(`a bigint in ${plan.label}`, value);
      }
      // Most 64-bit values are small; numbers take the cheaper path.
      if (value >= -0x1f_ffff_ffff_ffffn && value <= 0x1f_ffff_ffff_ffffn) this.out.int(Number(value));
      else this.out.bigint(value);
      return;
    }
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < plan.min) {
      throw wrongValue(`a safe integer in ${plan.label}`, value);
    }
    this.out.int(value);
  }

  private literal(plan: Plan): void {
    const value = plan.literal;
    if (typeof value === 'string') this.out.key(plan.literalBytes);
    else if (typeof value === 'boolean') this.out.bool(value);
    else if (Number.isSafeInteger(value)) this.out.int(value);
    else this.out.float64(value);
  }

  private object(plan: Plan, value: Record<string, unknown>, depth: number): void {
    if (plan.rule !== undefined) keep(plan.rule, value);
    const fields = plan.fields;
    let count = fields.length;
    if (plan.lenientFields > 0) {
      for (let i = 0; i < fields.length; i++) {
        const field = fields[i] as FieldPlan;
        if (field.optional && fieldOf(value, field.name) === undefined) count--;
      }
    }
    const records = this.records;
    if (records !== undefined) records.objectRecord(plan, presentFields(plan, value));
    else this.out.mapHeader(count);
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i] as FieldPlan;
      const item = fieldOf(value, field.name);
      if (item === undefined && field.optional) continue;
      if (records === undefined) this.out.key(field.key);
      try {
        this.write(field.plan, item, depth);
      } catch (error) {
        throw prependPath(error, field.name);
      }
    }
  }

  private union(plan: Plan, value: unknown, depth: number): void {
    if (!isRecord(value)) throw wrongValue(`an object (${plan.label})`, value);
    const variant = plan.byTag.get(value[plan.tag]);
    if (variant === undefined) {
      throw prependPath(wrongValue(`a variant tag of ${plan.label}`, value[plan.tag]), plan.tag);
    }
    this.object(variant, value, this.enter(depth));
  }

  private array(plan: Plan, value: unknown, depth: number): void {
    if (!Array.isArray(value)) throw wrongValue('an array', value);
    if (plan.rule !== undefined) keep(plan.rule, value.length);
    const items = plan.inner as Plan;
    this.out.arrayHeader(value.length);
    for (let i = 0; i < value.length; i++) {
      try {
        this.write(items, value[i], depth);
      } catch (error) {
        throw prependPath(error, i);
      }
    }
  }

  private map(plan: Plan, value: unknown, depth: number): void {
    const keys = plan.keys as Plan;
    const values = plan.inner as Plan;
    if (keys.op === Op.string) {
      if (!isRecord(value)) throw wrongValue('an object (a map with string keys)', value);
      const names = Object.keys(value);
      const records = this.records;
      if (records === undefined) this.out.mapHeader(names.length);
      else {
        // The keys go first, in the record's definition: each is checked before any is written.
        for (const name of names) {
          try {
            if (isUnsafeKey(name)) throw refusedKey(name);
            if (keys.rule !== undefined) keep(keys.rule, name);
          } catch (error) {
            throw prependPath(error, name);
          }
        }
        records.keysRecord(names);
      }
      for (const name of names) {
        try {
          if (isUnsafeKey(name)) throw refusedKey(name);
          if (records === undefined) this.write(keys, name, depth);
          this.write(values, value[name], depth);
        } catch (error) {
          throw prependPath(error, name);
        }
      }
      return;
    }
    if (!(value instanceof Map)) throw wrongValue('a Map (a map with integer keys)', value);
    this.out.mapHeader(value.size);
    for (const [key, item] of value) {
      try {
        this.write(keys, key, depth);
        this.write(values, item, depth);
      } catch (error) {
        throw prependPath(error, String(key));
      }
    }
  }
}

/**
 * Objects of up to this many fields have their present optional fields as a number (the sum of
 * 2^i over their indexes i, exact in a double); wider ones as a string (presentFields).
 */
export const presenceMaskUpTo = 53;

/**
 * Which optional fields of `value` are present, as ObjectRecords.objectRecord takes them: the sum
 * of 2^i over their field indexes i, or for objects wider than `presenceMaskUpTo` a string of one
 * character per field, '1' for a present optional one. The compiled writer makes the same key
 * inline (keyed/compiled.ts, emitRecordHead), and calls this for the widest objects.
 */
export function presentFields(plan: Plan, value: Record<string, unknown>): number | string {
  const fields = plan.fields;
  if (plan.lenientFields === 0) return 0;
  if (fields.length <= presenceMaskUpTo) {
    let present = 0;
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i] as FieldPlan;
      if (field.optional && fieldOf(value, field.name) !== undefined) present += 2 ** i;
    }
    return present;
  }
  return fields
    .map((field) => (field.optional && fieldOf(value, field.name) !== undefined ? '1' : '0'))
    .join('');
}

/** The branch of an either that `value` goes to (either.ts), or its refusal; the compiled writer calls it too. */
export function eitherBranch(plan: Plan, value: unknown): number {
  const schema = plan.either as EitherSchema;
  const index = selectBranch(schema, value);
  if (index === undefined) throw wrongValue(describeBranches(schema), value);
  return index;
}

/** Refuses `value` where the plan's rule does (value-rules.ts); the compiled writer calls it too. */
function keep(rule: Rule<never> | undefined, value: unknown): void {
  const refusal = refusalBy(rule, value);
  if (refusal !== undefined) throw refused(refusal);
}
