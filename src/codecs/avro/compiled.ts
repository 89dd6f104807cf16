/**
 * Avro, compiled: for a schema's write and read plans (src/codecs/avro/plan.ts), an encoder and a
 * decoder of its binary datum specialised to each record, producing exactly the interpreter's bytes
 * and values (encode/datum.ts, decode/datum.ts).
 *
 * What the specialisation buys: no dispatch on the plan per value, fields read by constant name
 * (`v["id"]`: one inline cache per field), and decoded records built by one object literal in the
 * interpreter's key order (one hidden class, no keyed stores; keys after a field that may be absent
 * are added in order after it). Records, arrays, options and unions of plain branches, strings,
 * booleans, the integer kinds, floats, doubles, enums and timestamps are inline; every other kind
 * calls the interpreter's own function for it (`Encoder.write`, `readValue`), which then handles
 * everything beneath it, so rare kinds cannot drift. Errors are the interpreter's, raised by the
 * same helpers with the same messages and paths; depth counts on the same `Encoder` and
 * `AvroReader` fields.
 *
 * Primitives are the reader's and writer's own (decode/reader.ts, encode/writer.ts), the same ones the
 * interpreter calls: their fast paths (varints in 32-bit arithmetic, one-byte length prefixes read
 * inline) serve both.
 *
 * Only the plain datum path is compiled (bytes of the schema's own export). Reading another writer
 * schema (resolution) keeps the interpreter.
 */

import { prependPath } from '../../errors/index.js';
import { branchIndex } from '../../schema/either.js';
import { fitsFloat32, isRecord, type Rule, unreadableKey } from '../../schema/value-rules.js';
import { cost } from '../core/budget.js';
import {
  buildObject,
  CompiledCache,
  codegenAvailable,
  keysAreSafe,
  type ObjectEntry,
  SourceBuilder,
} from '../core/codegen.js';
import { isUnsafeKey, unsafeKey } from '../core/errors.js';
import { kept, readDecimal, readEnum, readLong, readValue, recordReadCost } from './decode/datum.js';
import type { AvroReader } from './decode/reader.js';
import { type Encoder, keep, wrongType } from './encode/datum.js';
import type { AvroWriter } from './encode/writer.js';
import {
  LongAs,
  type OptionWrite,
  R,
  type ReadPlan,
  type RecordRead,
  type RecordWrite,
  W,
  type WritePlan,
} from './plan.js';
import type { SchemaPlans } from './schema-plans.js';
import { readTimestamp, timestampCount, writeDecimal } from './values.js';

export interface CompiledAvro {
  /** Writes `value` as `encoder.write(plans.write, value)` does. */
  encode(w: AvroWriter, value: unknown, encoder: Encoder): void;
  /** Reads one value as `readValue(r, plans.read.plan)` does (the caller runs `readRoot`'s framing). */
  decode(r: AvroReader): unknown;
}

/** Null for schemas that stay on the interpreter, so that they are checked once too. */
const cache = new CompiledCache<SchemaPlans, CompiledAvro | null>(256);

/**
 * The compiled encoder and decoder of a schema's own datum, or undefined where code cannot be
 * generated (no `new Function` here, or a field named like `__proto__`).
 */
export function compileAvro(plans: SchemaPlans): CompiledAvro | undefined {
  if (!codegenAvailable) return undefined;
  const compiled = cache.get(plans, () => {
    if (!keysAreSafe(keysOf(plans.write, plans.read.plan))) return null;
    try {
      return new AvroCompiler().build(plans.write, plans.read.plan);
    } catch (error) {
      // V8 parses chained branches recursively: the source of a union of thousands of records
      // can outgrow its parser's stack. Such a schema stays on the interpreter, as it would
      // where code cannot be generated at all.
      if (error instanceof RangeError) return null;
      throw error;
    }
  });
  return compiled ?? undefined;
}

/** Every field name either plan graph holds. */
function keysOf(write: WritePlan, read: ReadPlan): string[] {
  const keys: string[] = [];
  const seen = new Set<object>();
  const walkWrite = (plan: WritePlan): void => {
    if (seen.has(plan)) return;
    seen.add(plan);
    switch (plan.op) {
      case W.Record:
        keys.push(...plan.names, ...plan.literals.map((literal) => literal.name));
        plan.plans.forEach(walkWrite);
        return;
      case W.Array:
        walkWrite(plan.items);
        return;
      case W.Map:
        walkWrite(plan.values);
        return;
      case W.IntMap:
        walkWrite(plan.key);
        walkWrite(plan.value);
        return;
      case W.Option:
      case W.Literal:
        walkWrite(plan.inner);
        return;
      case W.Tagged:
        keys.push(plan.tag);
        for (const branch of plan.branches.values()) walkWrite(branch.plan);
        return;
      case W.Either:
        for (const branch of plan.branches) walkWrite(branch.plan);
        return;
    }
  };
  const walkRead = (plan: ReadPlan): void => {
    if (seen.has(plan)) return;
    seen.add(plan);
    switch (plan.op) {
      case R.Record:
        for (const name of plan.names) if (name !== null) keys.push(name);
        keys.push(...plan.fills.map((fill) => fill.name));
        plan.plans.forEach(walkRead);
        return;
      case R.Array:
        walkRead(plan.items);
        return;
      case R.Map:
        walkRead(plan.values);
        return;
      case R.IntMap:
        plan.plans.forEach(walkRead);
        return;
      case R.Union:
        plan.branches.forEach(walkRead);
        return;
      case R.Literal:
        walkRead(plan.inner);
        return;
    }
  };
  walkWrite(write);
  walkRead(read);
  return keys;
}

/** Whether reading `plan` can give undefined: a field that then gets no key. */
function mayBeUndefined(plan: ReadPlan): boolean {
  switch (plan.op) {
    case R.Const:
      return plan.value === undefined;
    case R.Union:
      return plan.branches.some(mayBeUndefined);
    case R.Skip:
    case R.Unknown:
      return true;
    default:
      return false;
  }
}

/** Arrays up to this many items (in their first block) are allocated at their size. */
const SIZED_ARRAY = 16;

/** A number the compiler computed (a range bound, an index, a size), as source text. */
function int(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`compiled avro: ${n} is not a safe integer`);
  return String(n);
}

const helpers = {
  branchIndex,
  writeDecimal,
  readDecimal,
  unreadableKey,
  isUnsafeKey,
  unsafeKey,
  wrongType,
  keep,
  kept,
  isRecord,
  fitsFloat32,
  prependPath,
  timestampCount,
  readLong,
  readValue,
  readTimestamp,
  readEnum,
};

/** One compilation: a function pair per record reached, all in one unit so they can call each other. */
class AvroCompiler {
  private readonly s = new SourceBuilder();
  private readonly writers = new Map<RecordWrite, string>();
  private readonly readers = new Map<RecordRead, string>();
  private readonly pendingWriters: RecordWrite[] = [];
  private readonly pendingReaders: RecordRead[] = [];

  /** A line of source, indented by the blocks open around it (for reading what was generated). */
  private line(text: string): void {
    this.s.indented(text);
  }

  build(write: WritePlan, read: ReadPlan): CompiledAvro {
    const s = this.s;
    this.line(`const h = ${s.dep(helpers)};`);
    const encode = write.op === W.Record ? this.writerOf(write) : this.rootWriter(write);
    const decode = read.op === R.Record ? this.readerOf(read) : this.rootReader(read);
    while (this.pendingWriters.length > 0 || this.pendingReaders.length > 0) {
      const writer = this.pendingWriters.pop();
      if (writer !== undefined) this.emitRecordWriter(writer);
      const reader = this.pendingReaders.pop();
      if (reader !== undefined) this.emitRecordReader(reader);
    }
    return s.compile<CompiledAvro>(`{ encode: ${encode}, decode: ${decode} }`);
  }

  private writerOf(plan: RecordWrite): string {
    let name = this.writers.get(plan);
    if (name === undefined) {
      name = this.s.fn('encode', plan.name);
      this.writers.set(plan, name);
      this.pendingWriters.push(plan);
    }
    return name;
  }

  private readerOf(plan: RecordRead): string {
    let name = this.readers.get(plan);
    if (name === undefined) {
      // Read plans carry no record name; the order of creation tells them apart.
      name = this.s.fn('decode', 'record');
      this.readers.set(plan, name);
      this.pendingReaders.push(plan);
    }
    return name;
  }

  // --- encoding ---

  private rootWriter(plan: WritePlan): string {
    const name = this.s.fn('encode', 'root');
    this.line(`function ${name}(w, v, e) {`);
    this.emitWrite(plan, 'v');
    this.line('}');
    return name;
  }

  private emitRecordWriter(plan: RecordWrite): void {
    const s = this.s;
    this.line(`function ${this.writerOf(plan)}(w, v, e) {`);
    this.line(`if (!h.isRecord(v)) throw h.wrongType(${s.dep(`an object (${plan.name})`)}, v);`);
    if (plan.oneofs !== undefined) this.line(`h.keep(${s.dep(plan.oneofs)}, v);`);
    this.line('e.enter();');
    for (const literal of plan.literals) {
      const key = s.key(literal.name);
      this.line(
        `if (v[${key}] !== ${s.dep(literal.value)}) throw h.prependPath(h.wrongType(${s.dep(`the literal ${JSON.stringify(literal.value)}`)}, v[${key}]), ${key});`,
      );
    }
    if (plan.plans.length > 0) {
      this.line('let at = 0;');
      this.line('try {');
      plan.plans.forEach((field, i) => {
        const x = s.fn('x');
        this.line(`at = ${int(i)}; const ${x} = ${s.field('v', plan.names[i] as string)};`);
        this.emitWrite(field, x);
      });
      this.line('} catch (error) {');
      this.line(`throw h.prependPath(error, ${s.dep(plan.names)}[at]);`);
      this.line('}');
    }
    this.line('e.depth--;');
    this.line('}');
  }

  /** Statements writing the value in the local `x` as `encoder.write(plan, x)` would. */
  private emitWrite(plan: WritePlan, x: string): void {
    const s = this.s;
    switch (plan.op) {
      case W.Record:
        this.line(`${this.writerOf(plan)}(w, ${x}, e);`);
        return;
      case W.String:
        this.line(`if (typeof ${x} !== 'string') throw h.wrongType('a string', ${x});`);
        this.keep(plan.rule, x);
        this.line(`w.writeString(${x});`);
        return;
      case W.Int:
        this.line(
          `if (typeof ${x} !== 'number' || !Number.isInteger(${x}) || ${x} < ${int(plan.min)} || ${x} > ${int(plan.max)}) throw h.wrongType(${s.dep(`${plan.kind} (an integer from ${plan.min} to ${plan.max})`)}, ${x});`,
        );
        this.line(`w.writeInt(${x});`);
        return;
      case W.Long:
        if (plan.as === LongAs.Number || plan.as === LongAs.UnsignedNumber) {
          const sign = plan.as === LongAs.UnsignedNumber ? ` || ${x} < 0` : '';
          this.line(
            `if (!Number.isSafeInteger(${x})${sign}) throw h.wrongType(${s.dep(`a safe ${plan.kind} integer`)}, ${x});`,
          );
          this.line(`w.writeLong(${x});`);
        } else if (plan.as === LongAs.Uint32) {
          const [min, max] = plan.range ?? [0, 0xffffffff];
          this.line(
            `if (!Number.isInteger(${x}) || ${x} < ${int(min)} || ${x} > ${int(max)}) throw h.wrongType(${s.dep(`a uint32 (an integer from ${min} to ${max})`)}, ${x});`,
          );
          this.line(`w.writeLong(${x});`);
        } else {
          this.line(`e.write(${s.dep(plan)}, ${x});`);
        }
        return;
      case W.Double:
        this.line(`if (typeof ${x} !== 'number') throw h.wrongType('a number', ${x});`);
        this.keep(plan.rule, x);
        this.line(`w.writeDouble(${x});`);
        return;
      case W.Float:
        this.line(`if (typeof ${x} !== 'number') throw h.wrongType('a number', ${x});`);
        this.line(`if (!h.fitsFloat32(${x})) throw h.wrongType('a number within float32', ${x});`);
        this.keep(plan.rule, x);
        this.line(`w.writeFloat(${x});`);
        return;
      case W.Bool:
        this.line(`if (typeof ${x} !== 'boolean') throw h.wrongType('a boolean', ${x});`);
        this.line(`w.writeBool(${x});`);
        return;
      case W.Enum: {
        const index = s.fn('i');
        this.line(
          `const ${index} = typeof ${x} === 'string' ? ${s.dep(plan.indexes)}.get(${x}) : undefined;`,
        );
        this.line(
          `if (${index} === undefined) throw h.wrongType(${s.dep(`a member of ${plan.name}`)}, ${x});`,
        );
        this.line(`w.writeInt(${index});`);
        return;
      }
      case W.Timestamp: {
        const count = s.fn('count');
        this.line(`const ${count} = h.timestampCount(${x}, ${int(plan.perMilli)});`);
        this.line(
          `if (${count} === undefined) throw h.wrongType('a valid Date that fits a 64-bit count', ${x});`,
        );
        this.keep(plan.rule, x);
        this.line(`if (typeof ${count} === 'number') w.writeLong(${count}); else w.writeLongBig(${count});`);
        return;
      }
      case W.Option:
        this.emitOptionWrite(plan, x);
        return;
      case W.Either: {
        // The branch by the value (schema/either.ts), then a case per branch, inline as any plan.
        const index = s.fn('b');
        this.line(`const ${index} = h.branchIndex(${s.dep(plan.schema)}, ${x});`);
        this.line(`switch (${index}) {`);
        plan.branches.forEach((branch, i) => {
          this.line(`case ${int(i)}: {`);
          if (branch.index >= 0) this.line(`w.writeInt(${int(branch.index)});`);
          this.emitWrite(branch.plan, x);
          this.line('break;');
          this.line('}');
        });
        this.line('}');
        return;
      }
      case W.Array: {
        const [i, n, y] = [s.fn('i'), s.fn('n'), s.fn('y')];
        this.line(`if (!Array.isArray(${x})) throw h.wrongType('an array', ${x});`);
        this.keep(plan.rule, `${x}.length`);
        this.line('e.enter();');
        this.line(`const ${n} = ${x}.length;`);
        this.line(`if (${n} > 0) {`);
        this.line(`w.writeLong(${n});`);
        this.line(`let ${i} = 0;`);
        this.line('try {');
        this.line(`for (; ${i} < ${n}; ${i}++) {`);
        this.line(`const ${y} = ${x}[${i}];`);
        this.emitWrite(plan.items, y);
        this.line('}');
        this.line(`} catch (error) { throw h.prependPath(error, ${i}); }`);
        this.line('}');
        this.line('w.writeInt(0);');
        this.line('e.depth--;');
        return;
      }
      case W.Bytes:
        this.line(`if (!(${x} instanceof Uint8Array)) throw h.wrongType('a Uint8Array', ${x});`);
        this.keep(plan.rule, x);
        this.line(`w.writeBytes(${x});`);
        return;
      case W.DecimalBytes:
        // Hot: a decimal whose unscaled integer is a safe integer, within the scale and precision,
        // is written by `writeDecimal` in one scan, in `bytes` or a `fixed`. Anything else (not a
        // string, refused, wider) goes to the interpreter, which writes it or throws the refusal.
        this.line(
          `if (typeof ${x} !== 'string' || !h.writeDecimal(w, ${x}, ${int(plan.scale)}, ${int(plan.precision)}, ${int(plan.fixedSize)})) e.write(${s.dep(plan)}, ${x});`,
        );
        return;
      case W.Map: {
        const [keys, n, i, k, y] = [s.fn('keys'), s.fn('n'), s.fn('i'), s.fn('k'), s.fn('y')];
        this.line(`if (!h.isRecord(${x})) throw h.wrongType('an object (a map with string keys)', ${x});`);
        this.line('e.enter();');
        this.line(`const ${keys} = Object.keys(${x});`);
        this.line(`const ${n} = ${keys}.length;`);
        this.line(`if (${n} > 0) {`);
        this.line(`w.writeLong(${n});`);
        this.line(`let ${k} = '';`);
        this.line('try {');
        this.line(`for (let ${i} = 0; ${i} < ${n}; ${i}++) {`);
        this.line(`${k} = ${keys}[${i}];`);
        this.line(
          `{ const unreadable = h.unreadableKey(${k}); if (unreadable !== undefined) throw unreadable; }`,
        );
        this.keep(plan.keyRule, k);
        this.line(`w.writeString(${k});`);
        this.line(`const ${y} = ${x}[${k}];`);
        this.emitWrite(plan.values, y);
        this.line('}');
        this.line(`} catch (error) { throw h.prependPath(error, ${k}); }`);
        this.line('}');
        this.line('w.writeInt(0);');
        this.line('e.depth--;');
        return;
      }
      default:
        this.line(`e.write(${s.dep(plan)}, ${x});`);
    }
  }

  /** A statement refusing `x` where `rule` does (the interpreter's `keep`); nothing without a rule. */
  private keep(rule: Rule<never> | undefined, x: string): void {
    if (rule !== undefined) this.line(`h.keep(${this.s.dep(rule)}, ${x});`);
  }

  /** The expression reading `read` (starting at `r.pos`) held to `rule`, as the interpreter's `kept`. */
  private kept(rule: Rule<never> | undefined, read: string): string {
    return rule === undefined ? read : `h.kept(${this.s.dep(rule)}, r.pos, ${read})`;
  }

  private emitOptionWrite(plan: OptionWrite, x: string): void {
    const tests: string[] = [];
    if (plan.undefinedIsNull) tests.push(`${x} === undefined`);
    if (plan.nullIsNull) tests.push(`${x} === null`);
    this.line(`if (${tests.length === 0 ? 'false' : tests.join(' || ')}) {`);
    this.line(`w.writeInt(${int(plan.nullIndex)});`);
    this.line('} else {');
    if (plan.valueIndex >= 0) this.line(`w.writeInt(${int(plan.valueIndex)});`);
    this.emitWrite(plan.inner, x);
    this.line('}');
  }

  // --- decoding ---

  private rootReader(plan: ReadPlan): string {
    const name = this.s.fn('decode', 'root');
    this.line(`function ${name}(r) {`);
    this.line('let v;');
    this.emitRead(plan, 'v');
    this.line('return v;');
    this.line('}');
    return name;
  }

  private emitRecordReader(plan: RecordRead): void {
    const s = this.s;
    this.line(`function ${this.readerOf(plan)}(r) {`);
    const start = plan.oneofs === undefined ? undefined : s.fn('at');
    if (start !== undefined) this.line(`const ${start} = r.pos;`);
    this.line('r.enter();');
    this.line(`r.budget.charge(${int(recordReadCost(plan))}, r.pos);`);
    // Keys as the interpreter adds them: the writer's fields in order (those with a value), then
    // the fills. One object literal holds every key up to the first field that may be absent;
    // the rest are added in order after it.
    const entries: ObjectEntry[] = [];
    plan.plans.forEach((field, i) => {
      const local = s.fn('v');
      this.line(`let ${local};`);
      this.emitRead(field, local);
      const name = plan.names[i];
      if (name !== null && name !== undefined) {
        entries.push({ key: name, value: local, optional: mayBeUndefined(field) });
      }
    });
    for (const fill of plan.fills) {
      const value = fill.copy ? `structuredClone(${s.dep(fill.value)})` : this.constant(fill.value);
      entries.push({ key: fill.name, value, optional: false });
    }
    const distinct = new Set(entries.map((entry) => entry.key)).size === entries.length;
    let literal = distinct ? entries.findIndex((entry) => entry.optional) : 0;
    if (literal === -1) literal = entries.length;
    for (const text of buildObject(s, entries, literal)) this.line(text);
    this.line('r.leave();');
    if (start !== undefined) this.line(`h.kept(${s.dep(plan.oneofs)}, ${start}, out);`);
    this.line('return out;');
    this.line('}');
  }

  private constant(value: unknown): string {
    if (value === undefined) return 'undefined';
    if (value === null) return 'null';
    if (value === true) return 'true';
    if (value === false) return 'false';
    return this.s.dep(value);
  }

  /** Statements reading one value into the declared local `t`, as `readValue(r, plan)` would. */
  private emitRead(plan: ReadPlan, t: string): void {
    const s = this.s;
    switch (plan.op) {
      case R.Record:
        this.line(`${t} = ${this.readerOf(plan)}(r);`);
        return;
      case R.String:
        this.line(`${t} = ${this.kept(plan.rule, 'r.readString()')};`);
        return;
      case R.Int:
        this.line(`${t} = r.readIntIn(${int(plan.min)}, ${int(plan.max)});`);
        return;
      case R.Long:
        if (plan.as === LongAs.Uint32) {
          const [min, max] = plan.range ?? [0, 0xffffffff];
          this.line(`${t} = r.readUint32(${int(min)}, ${int(max)});`);
        } else if (plan.as === LongAs.Number) this.line(`${t} = r.readSafeLong();`);
        else this.line(`${t} = ${this.kept(plan.rule, `h.readLong(r, ${int(plan.as)})`)};`);
        return;
      case R.Double:
        this.line(`${t} = ${this.kept(plan.rule, 'r.readDouble()')};`);
        return;
      case R.Float:
        this.line(`${t} = ${this.kept(plan.rule, 'r.readFloat()')};`);
        return;
      case R.Bool:
        this.line(`${t} = r.readBool();`);
        return;
      case R.Enum:
        this.line(`${t} = h.readEnum(r, ${s.dep(plan.symbols)}, ${s.dep(plan.name)});`);
        return;
      case R.Timestamp:
        if (plan.perMilli === 1) this.line(`${t} = ${this.kept(plan.rule, 'h.readTimestamp(r, 1)')};`);
        else this.line(`${t} = ${this.kept(plan.rule, `h.readTimestamp(r, ${int(plan.perMilli)})`)};`);
        return;
      case R.Const:
        this.line(`${t} = ${this.constant(plan.value)};`);
        return;
      case R.Union: {
        const branch = s.fn('branch');
        this.line(`const ${branch} = r.readBranch(${int(plan.branches.length)});`);
        plan.branches.forEach((inner, i) => {
          this.line(`${i === 0 ? '' : '} else '}if (${branch} === ${int(i)}) {`);
          this.emitRead(inner, t);
        });
        this.line('}');
        return;
      }
      case R.Array: {
        // An array whose first block is all of a few items gets its exact size up front (`[]` and
        // push would allocate room for 17); items then go in at the next index either way.
        const [out, count, n, i, y, at] = [s.fn('a'), s.fn('c'), s.fn('n'), s.fn('i'), s.fn('y'), s.fn('at')];
        this.line(`const ${at} = r.pos;`);
        this.line('r.enter();');
        this.line(`r.budget.charge(${int(cost.array)}, r.pos);`);
        this.line(`let ${count} = r.readBlockCount();`);
        this.line(`const ${out} = ${count} > 0 && ${count} <= ${SIZED_ARRAY} ? new Array(${count}) : [];`);
        this.line(`let ${n} = 0;`);
        this.line(`for (; ${count} !== 0; ${count} = r.readBlockCount()) {`);
        this.line(`r.addElements(${count});`);
        this.line(`r.checkFits(${count}, ${int(plan.itemSize)});`);
        this.line(`r.budget.charge(${count} * ${int(cost.slot)}, r.pos);`);
        this.line(`for (let ${i} = 0; ${i} < ${count}; ${i}++) {`);
        this.line(`let ${y};`);
        this.emitRead(plan.items, y);
        this.line(`${out}[${n}++] = ${y};`);
        this.line('}');
        this.line('}');
        this.line('r.leave();');
        // Blocks may split the items: the count is known at the end, as in the interpreter.
        if (plan.rule !== undefined) this.line(`h.kept(${s.dep(plan.rule)}, ${at}, ${n});`);
        this.line(`${t} = ${out};`);
        return;
      }
      case R.DecimalBytes:
        // Past readValue's dispatch: decimals are most of some documents' values.
        this.line(`${t} = h.readDecimal(r, ${s.dep(plan)});`);
        return;
      case R.Bytes:
        this.line(`${t} = ${this.kept(plan.rule, 'r.readBytes()')};`);
        return;
      case R.Map: {
        const [out, count, i, at, key, y] = [
          s.fn('m'),
          s.fn('c'),
          s.fn('i'),
          s.fn('at'),
          s.fn('k'),
          s.fn('y'),
        ];
        this.line('r.enter();');
        this.line(`r.budget.charge(${int(cost.object)}, r.pos);`);
        this.line(`const ${out} = {};`);
        this.line(`for (let ${count} = r.readBlockCount(); ${count} !== 0; ${count} = r.readBlockCount()) {`);
        this.line(`r.addElements(${count});`);
        this.line(`r.checkFits(${count}, ${int(plan.entrySize)});`);
        this.line(`r.budget.charge(${count} * ${int(2 * cost.slot)}, r.pos);`);
        this.line(`for (let ${i} = 0; ${i} < ${count}; ${i}++) {`);
        this.line(`const ${at} = r.pos;`);
        this.line(
          `const ${key} = ${plan.keyRule === undefined ? 'r.readString()' : `h.kept(${s.dep(plan.keyRule)}, ${at}, r.readString())`};`,
        );
        // Refused, not dropped: a copy made later by assignment would turn this key into a prototype.
        this.line(`if (h.isUnsafeKey(${key})) throw h.unsafeKey(${at}, ${key});`);
        this.line(`let ${y};`);
        this.emitRead(plan.values, y);
        this.line(`${out}[${key}] = ${y};`);
        this.line('}');
        this.line('}');
        this.line('r.leave();');
        this.line(`${t} = ${out};`);
        return;
      }
      default:
        this.line(`${t} = h.readValue(r, ${s.dep(plan)});`);
    }
  }
}
