/**
 * The encoder: runs a write plan over a value, checking each value's type as it writes it. The path
 * of a bad value is assembled only when an error unwinds, so valid values pay nothing for it.
 */

import { describeValue, prependPath, WirekitError } from '../../../errors/index.js';
import { branchIndex } from '../../../schema/either.js';
import { jsonValueText } from '../../../schema/json-kind.js';
import { fieldOf } from '../../../schema/names.js';
import { fitsFloat32, isRecord, type Rule, refused, unreadableKey } from '../../../schema/value-rules.js';
import {
  type EitherWrite,
  LongAs,
  type OptionWrite,
  type RecordWrite,
  type TaggedWrite,
  W,
  type WritePlan,
} from '../plan.js';
import { timestampCount, unscaledOf, writeUnscaled, writeUnscaledFixed } from '../values.js';
import type { AvroWriter } from './writer.js';

const longMin = -(2n ** 63n);
const longMax = 2n ** 63n - 1n;
const uint64Max = 2n ** 64n - 1n;

export class Encoder {
  depth = 0;

  constructor(
    readonly w: AvroWriter,
    readonly maxDepth: number,
  ) {}

  write(plan: WritePlan, value: unknown): void {
    const w = this.w;
    switch (plan.op) {
      case W.Record:
        this.record(plan, value);
        return;
      case W.String:
        if (typeof value !== 'string') throw wrongType('a string', value);
        if (plan.rule !== undefined) keep(plan.rule, value);
        w.writeString(value);
        return;
      case W.Int:
        if (typeof value !== 'number' || !Number.isInteger(value) || value < plan.min || value > plan.max) {
          throw wrongType(`${plan.kind} (an integer from ${plan.min} to ${plan.max})`, value);
        }
        w.writeInt(value);
        return;
      case W.Long:
        this.long(plan.as, plan.kind, value, plan.range);
        return;
      case W.Double:
        if (typeof value !== 'number') throw wrongType('a number', value);
        if (plan.rule !== undefined) keep(plan.rule, value);
        w.writeDouble(value);
        return;
      case W.Option:
        this.option(plan, value);
        return;
      case W.Bool:
        if (typeof value !== 'boolean') throw wrongType('a boolean', value);
        w.writeBool(value);
        return;
      case W.Float:
        if (typeof value !== 'number') throw wrongType('a number', value);
        if (!fitsFloat32(value)) throw wrongType('a number within float32', value);
        if (plan.rule !== undefined) keep(plan.rule, value);
        w.writeFloat(value);
        return;
      case W.Bytes:
        if (!(value instanceof Uint8Array)) throw wrongType('a Uint8Array', value);
        if (plan.rule !== undefined) keep(plan.rule, value);
        w.writeBytes(value);
        return;
      case W.Fixed:
        if (!(value instanceof Uint8Array)) throw wrongType('a Uint8Array', value);
        if (plan.rule !== undefined) keep(plan.rule, value);
        if (value.length !== plan.size) throw wrongType(`${plan.size} bytes`, value);
        w.writeRaw(value);
        return;
      case W.Array:
        this.array(plan.items, value, plan.rule);
        return;
      case W.Map:
        this.map(plan.values, value, plan.keyRule);
        return;
      case W.IntMap:
        this.intMap(plan.key, plan.value, value);
        return;
      case W.Tagged:
        this.tagged(plan, value);
        return;
      case W.Either: {
        const branch = plan.branches[branchIndex(plan.schema, value)] as EitherWrite['branches'][number];
        if (branch.index >= 0) w.writeInt(branch.index);
        this.write(branch.plan, value);
        return;
      }
      case W.Enum: {
        const index = typeof value === 'string' ? plan.indexes.get(value) : undefined;
        if (index === undefined) throw wrongType(`a member of ${plan.name}`, value);
        w.writeInt(index);
        return;
      }
      case W.Timestamp: {
        const count = timestampCount(value, plan.perMilli);
        if (count === undefined) throw wrongType('a valid Date that fits a 64-bit count', value);
        if (plan.rule !== undefined) keep(plan.rule, value as Date);
        if (typeof count === 'number') w.writeLong(count);
        else w.writeLongBig(count);
        return;
      }
      case W.DecimalBytes: {
        if (typeof value !== 'string') throw wrongType('a decimal string', value);
        keep(plan.rule, value);
        // Within the scale and precision (the rule says so), so the unscaled integer exists.
        const unscaled = unscaledOf(value, plan.scale, plan.precision) as number | bigint;
        if (plan.fixedSize >= 0) writeUnscaledFixed(w, unscaled, plan.fixedSize);
        else writeUnscaled(w, unscaled);
        return;
      }
      case W.DecimalString:
        if (typeof value !== 'string') throw wrongType('a decimal string', value);
        keep(plan.rule, value);
        w.writeString(value);
        return;
      case W.Json:
        // A declared Struct or ListValue holds an object or an array (JsonSchema.proto).
        if (plan.rule !== undefined) keep(plan.rule, value);
        w.writeString(jsonValueText(value, this.depth, this.maxDepth));
        return;
      case W.Literal:
        if (value !== plan.value) throw wrongType(`the literal ${JSON.stringify(plan.value)}`, value);
        this.write(plan.inner, value);
        return;
      case W.Nothing:
        if (value !== plan.value) throw wrongType(`the literal ${JSON.stringify(plan.value)}`, value);
        return;
    }
  }

  private long(as: LongAs, kind: string, value: unknown, range?: readonly [number, number]): void {
    const w = this.w;
    switch (as) {
      case LongAs.BigInt:
        if (typeof value !== 'bigint' || value < longMin || value > longMax)
          throw wrongType('an int64 bigint', value);
        w.writeLongBig(value);
        return;
      case LongAs.UnsignedBigInt:
        if (typeof value !== 'bigint' || value < 0n || value > uint64Max)
          throw wrongType('a uint64 bigint', value);
        // A valid uint64 that the format cannot carry, not an invalid value (docs/values.md).
        if (value > longMax) {
          throw new WirekitError(
            'WK_ENCODE_UNSUPPORTED',
            `Avro's long is signed: ${value} is past 2^63-1, which no long holds.`,
            { path: [] },
          );
        }
        w.writeLongBig(value);
        return;
      case LongAs.Number:
      case LongAs.UnsignedNumber:
        if (!Number.isSafeInteger(value) || (as === LongAs.UnsignedNumber && (value as number) < 0)) {
          throw wrongType(`a safe ${kind} integer`, value);
        }
        w.writeLong(value as number);
        return;
      default: {
        const [min, max] = range ?? [0, 0xffffffff];
        if (!Number.isInteger(value) || (value as number) < min || (value as number) > max) {
          throw wrongType(`a uint32 (an integer from ${min} to ${max})`, value);
        }
        w.writeLong(value as number);
      }
    }
  }

  /** Counts one more level of records, arrays and maps against maxDepth (compiled encoders call it too). */
  enter(): void {
    if (++this.depth > this.maxDepth) {
      throw new WirekitError(
        'WK_LIMIT_DEPTH',
        `the value nests deeper than maxDepth (${this.maxDepth}); is it cyclic?`,
        { path: [] },
      );
    }
  }

  private record(plan: RecordWrite, value: unknown): void {
    if (!isRecord(value)) throw wrongType(`an object (${plan.name})`, value);
    const object = value as Record<string, unknown>;
    if (plan.oneofs !== undefined) keep(plan.oneofs, object);
    this.enter();
    const { names, plans, literals } = plan;
    for (const literal of literals) {
      if (object[literal.name] !== literal.value) {
        const error = wrongType(`the literal ${JSON.stringify(literal.value)}`, object[literal.name]);
        throw prependPath(error, literal.name);
      }
    }
    let i = 0;
    try {
      for (; i < plans.length; i++) this.write(plans[i] as WritePlan, fieldOf(object, names[i] as string));
    } catch (error) {
      throw prependPath(error, names[i] as string);
    }
    this.depth--;
  }

  private array(items: WritePlan, value: unknown, rule: Rule<number> | undefined): void {
    if (!Array.isArray(value)) throw wrongType('an array', value);
    if (rule !== undefined) keep(rule, value.length);
    this.enter();
    const length = value.length;
    if (length > 0) {
      this.w.writeLong(length);
      let i = 0;
      try {
        for (; i < length; i++) this.write(items, value[i]);
      } catch (error) {
        throw prependPath(error, i);
      }
    }
    this.w.writeInt(0);
    this.depth--;
  }

  private map(values: WritePlan, value: unknown, keyRule: Rule<string> | undefined): void {
    if (!isRecord(value)) throw wrongType('an object (a map with string keys)', value);
    this.enter();
    const keys = Object.keys(value);
    if (keys.length > 0) {
      this.w.writeLong(keys.length);
      let key = '';
      try {
        for (key of keys) {
          const unreadable = unreadableKey(key);
          if (unreadable !== undefined) throw unreadable;
          if (keyRule !== undefined) keep(keyRule, key);
          this.w.writeString(key);
          this.write(values, (value as Record<string, unknown>)[key]);
        }
      } catch (error) {
        throw prependPath(error, key);
      }
    }
    this.w.writeInt(0);
    this.depth--;
  }

  private intMap(keyPlan: WritePlan, valuePlan: WritePlan, value: unknown): void {
    if (!(value instanceof Map)) throw wrongType('a Map (integer keys)', value);
    this.enter();
    if (value.size > 0) {
      this.w.writeLong(value.size);
      let at: unknown;
      try {
        for (const [key, item] of value) {
          at = key;
          this.write(keyPlan, key);
          this.write(valuePlan, item);
        }
      } catch (error) {
        throw prependPath(error, String(at));
      }
    }
    this.w.writeInt(0);
    this.depth--;
  }

  private option(plan: OptionWrite, value: unknown): void {
    if (value === undefined ? plan.undefinedIsNull : value === null && plan.nullIsNull) {
      this.w.writeInt(plan.nullIndex);
      return;
    }
    if (plan.valueIndex >= 0) this.w.writeInt(plan.valueIndex);
    this.write(plan.inner, value);
  }

  private tagged(plan: TaggedWrite, value: unknown): void {
    if (!isRecord(value)) throw wrongType(`a variant of ${plan.name}`, value);
    const tag = (value as Record<string, unknown>)[plan.tag];
    const branch = plan.branches.get(tag);
    if (branch === undefined) throw prependPath(wrongType(`a variant tag of ${plan.name}`, tag), plan.tag);
    this.w.writeInt(branch.index);
    this.write(branch.plan, value);
  }
}

/** Refuses `value` where `rule` does (value-rules.ts); the compiled encoder calls it too. */
export function keep<T>(rule: Rule<T>, value: T): void {
  const refusal = rule(value);
  if (refusal !== undefined) throw refused(refusal);
}

export function wrongType(expected: string, value: unknown): WirekitError {
  return new WirekitError('WK_VALIDATION_FAILED', `expected ${expected}, got ${describeValue(value)}.`, {
    path: [],
  });
}
