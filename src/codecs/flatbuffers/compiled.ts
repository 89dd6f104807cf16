/**
 * FlatBuffers, compiled: for each table of a schema's plan (src/codecs/flatbuffers/planner.ts), a
 * writer and a reader specialised to its fields, producing exactly the bytes of the interpreter's
 * Encoder and the values and errors of its checked Reader.
 *
 * Writing still goes through the official Builder, so the layout (alignment, vtable sharing, the
 * order of everything in the buffer) is the runtime's by construction. What the specialisation
 * buys is straight-line code per table: fields read by constant name (`v["id"]`: one inline cache
 * per field), the offsets of a table's strings, vectors and sub-tables kept in locals instead of on
 * a stack, constant vtable slots and builder calls chosen at compile time, with no dispatch on the
 * plan's kind. Reading computes a table's vtable once, looks each slot up inline, and builds the
 * decoded object with one object literal in the interpreter's key order.
 *
 * The common kinds are inline: the 8- to 32-bit integers, floats, booleans, strings, enums, nested
 * tables and vectors of those. Timestamps are read through the interpreter's `dateOf`, and written
 * without a bigint in seconds and milliseconds (`timestampField`). Every other kind (64-bit
 * integers, finer timestamps, decimals, bytes, json, literals, unions, maps, vectors of those)
 * calls the interpreter's own function for it (`Encoder.child`, `Encoder.scalar`, `stored`,
 * `Reader.value`, `Reader.field`, `Reader.absent`), which then handles everything beneath it, so
 * rare kinds cannot drift. Errors are the interpreter's, raised by the same helpers with the same
 * messages, offsets and paths, in the same order: a table's children are written before its inline
 * fields, as the interpreter writes them; fields are read in declaration order, each bounds-checked
 * where the Reader checks it, and limits count on the same Reader.
 */

import type { Builder } from 'flatbuffers';
import { prependPath } from '../../errors/index.js';
import type { SmallIntKind } from '../../schema/index.js';
import { smallIntRange } from '../../schema/int-ranges.js';
import { fitsFloat32, isRecord, type Rule } from '../../schema/value-rules.js';
import { cost } from '../core/budget.js';
import {
  buildObject,
  CompiledCache,
  codegenAvailable,
  functionPairs,
  keysAreSafe,
  type ObjectEntry,
  SourceBuilder,
} from '../core/codegen.js';
import { mismatch, tooDeep, truncated } from '../core/errors.js';
import { kept, type Reader, tableCost } from './decode/reader.js';
import { type Encoder, firstFailure, type RootWriter } from './encode/encoder.js';
import { createString, wellFormed, writeBare } from './encode/writer.js';
import {
  type FieldPlan,
  isInline,
  type RootPlan,
  type ScalarKind,
  type Store,
  type TablePlan,
  type ValuePlan,
} from './plan.js';
import { dateOf, keep, stored, wrong } from './values.js';

export interface CompiledFlatBuffers {
  /** Writes the root table as the Encoder does from the plan; returns its offset. */
  readonly encode: RootWriter;
  /** Reads the root value of the buffer that begins at `start`, as `reader.root(plan, start)` does. */
  decode(reader: Reader, start: number): unknown;
}

/** Null for schemas that stay on the interpreter, so that they are checked once too. */
const cache = new CompiledCache<RootPlan, CompiledFlatBuffers | null>(256);

/**
 * The compiled writer and reader of `plan`, or undefined where code cannot be generated (no
 * `new Function` here, or a field named like `constructor`). A literal root (a wrapper that stores
 * nothing) stays on the interpreter too, so that both paths treat it alike.
 */
export function compileFlatBuffers(plan: RootPlan): CompiledFlatBuffers | undefined {
  if (!codegenAvailable) return undefined;
  const compiled = cache.get(plan, () =>
    keysAreSafe(keysOf(plan.table)) && (!plan.wrapped || plan.table.fields.length > 0)
      ? new FlatBuffersCompiler().build(plan)
      : null,
  );
  return compiled ?? undefined;
}

/** The table a value compiles a call to: a field or vector element holding a user or generated table. */
function tableOf(value: ValuePlan): TablePlan | undefined {
  if (value.k === 'table') return value.table;
  return value.k === 'vector' && value.element.k === 'table' ? value.element.table : undefined;
}

/** Every member name of the tables the compiled code builds objects of. */
function keysOf(root: TablePlan): string[] {
  const keys: string[] = [];
  const seen = new Set<TablePlan>();
  const walk = (table: TablePlan): void => {
    if (seen.has(table)) return;
    seen.add(table);
    for (const member of table.members) keys.push(member.name);
    for (const field of table.fields) {
      const inner = tableOf(field.value);
      if (inner !== undefined) walk(inner);
    }
  };
  walk(root);
  return keys;
}

/** A number the compiler computed (a slot, a size, a range bound), as source text. */
function int(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`compiled flatbuffers: ${n} is not a safe integer`);
  return String(n);
}

/** What `stored` checks of an inline kind, and the bits it gives. */
interface InlineCheck {
  readonly tests: readonly { readonly bad: string; readonly expected: string }[];
  readonly bits: string;
}

/** The Builder's writers of a field (with its default) and of a bare vector element, per store. */
const fieldWriter: Record<Store, string> = {
  i8: 'addFieldInt8',
  i16: 'addFieldInt16',
  i32: 'addFieldInt32',
  i64: 'addFieldInt64',
  f32: 'addFieldFloat32',
  f64: 'addFieldFloat64',
};
const bareWriter: Record<Store, string> = {
  i8: 'writeInt8',
  i16: 'writeInt16',
  i32: 'writeInt32',
  i64: 'writeInt64',
  f32: 'writeFloat32',
  f64: 'writeFloat64',
};

/** DataView reads of the scalar kinds read inline (64-bit integers go to `Reader.value`). */
const dataRead: Partial<Record<ScalarKind, (at: string) => string>> = {
  bool: (at) => `dv.getUint8(${at}) !== 0`,
  int8: (at) => `dv.getInt8(${at})`,
  uint8: (at) => `dv.getUint8(${at})`,
  int16: (at) => `dv.getInt16(${at}, true)`,
  uint16: (at) => `dv.getUint16(${at}, true)`,
  int32: (at) => `dv.getInt32(${at}, true)`,
  uint32: (at) => `dv.getUint32(${at}, true)`,
  float32: (at) => `dv.getFloat32(${at}, true)`,
  float64: (at) => `dv.getFloat64(${at}, true)`,
};

/**
 * `Encoder.scalar` of a timestamp field in seconds or milliseconds (the two units whose count of a
 * Date is a safe integer), without the bigint that `stored` makes and the builder's writeInt64
 * splits again: the count is written as the same two 32-bit halves, aligned and slotted as
 * addFieldInt64 does, and left out at the default as there. Most records hold a timestamp (both
 * benchmark datasets do), and the bigints cost about a sixth of encoding one; anything but a
 * valid Date goes to `Encoder.scalar`, so errors stay the interpreter's.
 */
function timestampField(e: Encoder, b: Builder, field: FieldPlan, value: unknown, seconds: boolean): void {
  const millis = value instanceof Date ? value.getTime() : Number.NaN;
  if (Number.isNaN(millis)) {
    e.scalar(field, value);
    return;
  }
  // Seconds of a whole second only, and a declared range (the rule refuses the rest), as timestampCount.
  keep((field.value as { rule?: Rule<never> }).rule, value);
  const count = seconds ? millis / 1000 : millis;
  if (count === 0 && field.presence === 'required') return;
  const high = Math.floor(count / 4_294_967_296);
  b.prep(8, 0);
  b.writeInt32(high);
  b.writeInt32(count - high * 4_294_967_296);
  b.slot(field.slot);
}

const helpers = {
  timestampField,
  firstFailure,
  wrong,
  keep,
  kept,
  isRecord,
  fitsFloat32,
  prependPath,
  stored,
  createString,
  wellFormed,
  writeBare,
  dateOf,
  truncated,
  mismatch,
  tooDeep,
};

/** One compilation: a writer and a reader per table reached, all in one unit so they can call each other. */
class FlatBuffersCompiler {
  private readonly s = new SourceBuilder();
  /** A writer and a reader per table reached, named at the first call site. */
  private readonly functions = functionPairs(this.s, (table: TablePlan) =>
    table.kind === 'object' ? table.name : `wrap_${table.name}`,
  );

  /** A line of source, indented by the blocks open around it (for reading what was generated). */
  private line(text: string): void {
    this.s.indented(text);
  }

  build(root: RootPlan): CompiledFlatBuffers {
    const s = this.s;
    this.line(`const h = ${s.dep(helpers)};`);
    const names = this.namesOf(root.table);
    this.functions.drain((table) => {
      this.emitWriter(table);
      this.emitReader(table);
    });
    const decode = s.fn('decode', 'root');
    this.line(`function ${decode}(r, start) {`);
    this.line(`if (r.end - start < 4) throw h.truncated(start, 'the offset of the root table');`);
    this.line(`return ${names.decode}(r, r.table(start), 0);`);
    this.line('}');
    return s.compile<CompiledFlatBuffers>(`{ encode: ${names.encode}, decode: ${decode} }`);
  }

  private namesOf(table: TablePlan) {
    return this.functions.nameFor(table);
  }

  // --- writing ---

  /**
   * `Encoder.object` (type check, literals, depth) and `Encoder.table` for an object table;
   * `Encoder.table` alone for a generated wrapper, whose one field is the value itself.
   */
  private emitWriter(table: TablePlan): void {
    const s = this.s;
    const object = table.kind === 'object';
    this.line(`function ${this.namesOf(table).encode}(e, b, v, depth) {`);
    if (object) {
      this.line(`if (!h.isRecord(v)) throw h.wrong('an object', v);`);
      if (table.oneofs !== undefined) this.line(`h.keep(${s.dep(table.oneofs)}, v);`);
      for (const member of table.literals) {
        const key = s.key(member.name);
        const given = s.fn('given');
        this.line(`const ${given} = v[${key}];`);
        this.line(
          `if (${given} !== ${s.dep(member.literal)}) throw h.prependPath(h.wrong(${s.dep(JSON.stringify(member.literal))}, ${given}), ${key});`,
        );
      }
      this.line('const inner = e.nest(depth);');
      this.line('let at = 0;');
    } else {
      this.line('const inner = depth;');
    }
    const offsets = new Map<FieldPlan, string>();
    const types = new Map<FieldPlan, string>();
    for (const field of table.children) {
      const offset = s.fn('o');
      offsets.set(field, offset);
      this.line(`let ${offset} = 0;`);
      if (field.value.k === 'union') {
        const type = s.fn('t');
        types.set(field, type);
        this.line(`let ${type} = 0;`);
      }
    }
    if (object) this.line('try {');
    // Children first, in declaration order: a builder cannot write them inside the table.
    for (const field of table.children) {
      const x = this.readField(table, field);
      this.emitPresent(field, x, () =>
        this.emitChild(field.value, x, offsets.get(field) as string, types.get(field)),
      );
    }
    this.line(`b.startObject(${int(table.slots)});`);
    for (const write of table.writes) {
      const field = write.field;
      if (write.what === 'scalar') {
        const x = this.readField(table, field);
        this.emitPresent(field, x, () => this.emitScalar(field, x));
      } else if (write.what === 'offset') {
        const slot = field.value.k === 'union' ? field.slot + 1 : field.slot;
        this.line(`b.addFieldOffset(${int(slot)}, ${offsets.get(field)}, 0);`);
      } else {
        this.line(`b.addFieldInt8(${int(field.slot)}, ${types.get(field)}, 0);`);
      }
    }
    if (object) {
      this.line('} catch (error) {');
      this.line(`throw h.prependPath(error, ${s.dep(table.fields.map((field) => field.name))}[at]);`);
      this.line('}');
    }
    this.line('return b.endObject();');
    this.line('}');
  }

  /** Declares a local holding the field's value (`fieldValue` of the Encoder); returns its name. */
  private readField(table: TablePlan, field: FieldPlan): string {
    const x = this.s.fn('x');
    if (table.kind === 'object') {
      this.line(`at = ${int(table.fields.indexOf(field))};`);
      this.line(`const ${x} = ${this.s.field('v', field.name)};`);
    } else {
      this.line(`const ${x} = v;`);
    }
    return x;
  }

  /** Runs `body` where the value in `x` is present, as the Encoder's `absent` decides. */
  private emitPresent(field: FieldPlan, x: string, body: () => void): void {
    if (field.presence === 'optional') {
      this.line(`if (${x} !== undefined${field.nullAbsent ? ` && ${x} !== null` : ''}) {`);
    } else {
      const expected = field.presence === 'nullable' ? 'a value or null' : 'a value';
      this.line(`if (${x} === undefined) throw h.wrong(${this.s.key(expected)}, ${x});`);
      this.line(field.nullAbsent ? `if (${x} !== null) {` : '{');
    }
    body();
    this.line('}');
  }

  /** Writes what `x` points to into the offset local `o` (and a union's type into `t`), as `Encoder.child`. */
  private emitChild(plan: ValuePlan, x: string, o: string, t: string | undefined): void {
    const s = this.s;
    if (plan.k === 'string') {
      this.line(`if (typeof ${x} !== 'string') throw h.wrong('a string', ${x});`);
      this.keep(plan.rule, x);
      this.line(`${o} = h.createString(b, h.wellFormed(${x}));`);
    } else if (plan.k === 'table' && plan.table.kind !== 'entry') {
      this.line(`${o} = ${this.namesOf(plan.table).encode}(e, b, ${x}, inner);`);
    } else if (plan.k === 'vector' && this.vectorInline(plan.element)) {
      this.emitVector(plan.element, x, o, plan.rule);
    } else {
      this.line(`${o} = e.child(${s.dep(plan)}, ${x}, inner);`);
      if (t !== undefined) this.line(`${t} = e.unionType;`);
    }
  }

  /** Vectors written inline: of inline values, strings and tables; others go to `Encoder.vector`. */
  private vectorInline(element: ValuePlan): boolean {
    return (
      isInline(element) || element.k === 'string' || (element.k === 'table' && element.table.kind !== 'entry')
    );
  }

  /** A statement refusing `x` where `rule` does (the interpreter's `keep`); nothing without a rule. */
  private keep(rule: Rule<never> | undefined, x: string): void {
    if (rule !== undefined) this.line(`h.keep(${this.s.dep(rule)}, ${x});`);
  }

  /** `Encoder.vector`: inline values into reserved room from the last; offsets via the encoder's stack. */
  private emitVector(element: ValuePlan, x: string, o: string, rule: Rule<number> | undefined): void {
    const [n, i, y, nested] = [this.s.fn('n'), this.s.fn('i'), this.s.fn('y'), this.s.fn('inner')];
    this.line(`if (!Array.isArray(${x})) throw h.wrong('an array', ${x});`);
    this.keep(rule as Rule<never> | undefined, `${x}.length`);
    this.line(`const ${nested} = e.nest(inner);`);
    this.line(`const ${n} = ${x}.length;`);
    if (isInline(element)) {
      const size = int(element.size);
      this.line(`b.startVector(${size}, ${n}, ${size});`);
      this.line(`for (let ${i} = ${n} - 1; ${i} >= 0; ${i}--) {`);
      this.line(`const ${y} = ${x}[${i}];`);
      this.emitElement(element, x, y, i);
      this.line('}');
      this.line(`${o} = b.endVector();`);
      return;
    }
    const base = this.s.fn('base');
    this.line(`const ${base} = e.top;`);
    this.line(`for (let ${i} = 0; ${i} < ${n}; ${i}++) {`);
    this.line(`const ${y} = ${x}[${i}];`);
    this.line('try {');
    if (element.k === 'string') {
      this.line(`if (typeof ${y} !== 'string') throw h.wrong('a string', ${y});`);
      this.keep(element.rule, y);
      this.line(`e.push(h.createString(b, h.wellFormed(${y})), 0);`);
    } else if (element.k === 'table') {
      this.line(`e.push(${this.namesOf(element.table).encode}(e, b, ${y}, ${nested}), 0);`);
    }
    this.line(`} catch (error) { throw h.prependPath(error, ${i}); }`);
    this.line('}');
    this.line(`${o} = e.offsets(${base}, ${n});`);
  }

  /**
   * One inline vector element `y` (item `i` of `x`): `stored` and `writeBare`, the common kinds
   * inline. Items go in from the last; a bad one is reported as the Encoder does, by `firstFailure`.
   */
  private emitElement(element: ValuePlan, x: string, y: string, i: string): void {
    const s = this.s;
    const store = (element as { store: Store }).store;
    const check = this.inlineCheck(element, y);
    const plan = s.dep(element);
    if (check === undefined) {
      const bits = s.fn('bits');
      this.line(`let ${bits};`);
      this.line(
        `try { ${bits} = h.stored(${plan}, ${y}); } catch (error) { throw h.firstFailure(${plan}, ${x}, ${i}, error); }`,
      );
      this.line(`h.writeBare(b, ${s.key(store)}, ${bits});`);
      return;
    }
    for (const test of check.tests) {
      this.line(
        `if (${test.bad}) throw h.firstFailure(${plan}, ${x}, ${i}, h.wrong(${test.expected}, ${y}));`,
      );
    }
    this.line(`b.${bareWriter[store]}(${check.bits});`);
  }

  /**
   * For the kinds checked inline, what `stored` refuses (each test in its order, with the text of
   * its error) and the stored bits; undefined for the kinds left to `stored` itself (64-bit
   * integers, timestamps, literals). An enum's index is looked up into a local first.
   */
  private inlineCheck(plan: ValuePlan, x: string): InlineCheck | undefined {
    const s = this.s;
    if (plan.k === 'enum') {
      const index = s.fn('index');
      this.line(`const ${index} = typeof ${x} === 'string' ? ${s.dep(plan.index)}.get(${x}) : undefined;`);
      const expected = s.dep(`one of ${plan.members.join(', ')}`);
      return { tests: [{ bad: `${index} === undefined`, expected }], bits: index };
    }
    // A bounded float is left to `stored`, which holds it to its rule.
    if (plan.k !== 'scalar' || plan.rule !== undefined) return undefined;
    switch (plan.kind) {
      case 'bool':
        return {
          tests: [{ bad: `typeof ${x} !== 'boolean'`, expected: "'a boolean'" }],
          bits: `${x} ? 1 : 0`,
        };
      case 'float64':
        return { tests: [{ bad: `typeof ${x} !== 'number'`, expected: "'a number'" }], bits: x };
      case 'float32':
        return {
          tests: [
            { bad: `typeof ${x} !== 'number'`, expected: "'a number'" },
            { bad: `!h.fitsFloat32(${x})`, expected: "'a float32'" },
          ],
          bits: x,
        };
      case 'int64':
      case 'uint64':
        return undefined;
      default: {
        // The ranges `stored` checks.
        const [min, max] = plan.range ?? smallIntRange[plan.kind as SmallIntKind];
        const bad = `typeof ${x} !== 'number' || !Number.isInteger(${x}) || ${x} < ${int(min)} || ${x} > ${int(max)}`;
        return { tests: [{ bad, expected: s.key(`an ${plan.kind}`) }], bits: x };
      }
    }
  }

  /** `Encoder.scalar` for a present inline field: checked, then left out where it is the default. */
  private emitScalar(field: FieldPlan, x: string): void {
    const plan = field.value;
    if (plan.k === 'timestamp' && (plan.precision === 'ms' || plan.precision === 's')) {
      this.line(`h.timestampField(e, b, ${this.s.dep(field)}, ${x}, ${plan.precision === 's'});`);
      return;
    }
    const check = this.inlineCheck(plan, x);
    if (check === undefined || !('store' in plan)) {
      this.line(`e.scalar(${this.s.dep(field)}, ${x});`);
      return;
    }
    for (const test of check.tests) this.line(`if (${test.bad}) throw h.wrong(${test.expected}, ${x});`);
    // A required field at its default is left out; -0 is not the default 0 (see Encoder.scalar).
    // Booleans and enum indexes are never -0.
    const signed = plan.k === 'scalar' && plan.kind !== 'bool';
    const fallback =
      field.presence !== 'required' ? 'null' : signed ? `Object.is(${check.bits}, -0) ? null : 0` : '0';
    this.line(`b.${fieldWriter[plan.store]}(${int(field.slot)}, ${check.bits}, ${fallback});`);
  }

  // --- reading ---

  /** `Reader.object` for an object table; `Reader.wrapper` (its one field, same depth) for a wrapper. */
  private emitReader(table: TablePlan): void {
    const s = this.s;
    const object = table.kind === 'object';
    this.line(`function ${this.namesOf(table).decode}(r, pos, depth) {`);
    if (object) {
      this.line('if (depth >= r.limits.maxDepth) throw h.tooDeep(pos, r.limits);');
      // As Reader.object charges it, before its fields are read.
      this.line(`r.budget.charge(${int(tableCost(table))}, pos);`);
    }
    this.line('const dv = r.data;');
    // The vtable, checked by Reader.table before this table was entered.
    this.line('const vt = pos - dv.getInt32(pos, true);');
    this.line('const vs = dv.getUint16(vt, true);');
    this.line(`const d1 = ${object ? 'depth + 1' : 'depth'};`);
    const entries: ObjectEntry[] = [];
    for (const member of table.members) {
      const field = member.field;
      if (field === undefined) {
        entries.push({ key: member.name, value: s.dep(member.literal), optional: false });
        continue;
      }
      const local = s.fn('v');
      this.line(`let ${local};`);
      this.emitFieldRead(field, local);
      entries.push({ key: member.name, value: local, optional: field.presence === 'optional' });
    }
    if (!object) {
      this.line(`return ${entries[0]?.value ?? 'undefined'};`);
      this.line('}');
      return;
    }
    // Keys as the interpreter adds them: every member in order, but an absent optional field gets
    // none. One object literal holds every key up to the first optional field; the rest follow it.
    let literal = entries.findIndex((entry) => entry.optional);
    if (literal === -1) literal = entries.length;
    // After the fields, as Reader.object looks at them.
    this.line(`if (r.rejectUnknown) r.knownSlots(${s.dep(table)}, pos);`);
    for (const text of buildObject(s, entries, literal)) this.line(text);
    if (table.oneofs !== undefined) this.line(`h.kept(${s.dep(table.oneofs)}, pos, out);`);
    this.line('return out;');
    this.line('}');
  }

  /** `Reader.field` into the local `t`: the slot looked up inline, bounds-checked as `Reader.slot` does. */
  private emitFieldRead(field: FieldPlan, t: string): void {
    const s = this.s;
    const plan = field.value;
    if (plan.k === 'union') {
      this.line(`${t} = r.field(pos, ${s.dep(field)}, d1);`);
      return;
    }
    const [o, p] = [s.fn('o'), s.fn('p')];
    const entry = int(4 + 2 * field.slot);
    this.line(`const ${o} = ${entry} < vs ? dv.getUint16(vt + ${entry}, true) : 0;`);
    this.line(`if (${o} === 0) ${t} = ${this.absent(field)};`);
    this.line('else {');
    this.line(`const ${p} = pos + ${o};`);
    this.line(`if (${p} + ${int(plan.size)} > r.end) throw h.truncated(${p}, 'a field');`);
    if (plan.k === 'table' && plan.table.kind === 'object') this.line(`r.countTable(${p});`);
    this.emitValueRead(plan, p, 'd1', t);
    this.line('}');
  }

  /** `Reader.absent` as an expression: constants inline, the rest (and its errors) from the Reader. */
  private absent(field: FieldPlan): string {
    if (field.presence === 'optional') return 'undefined';
    if (field.presence === 'nullable') return 'null';
    const plan = field.value;
    switch (plan.k) {
      case 'scalar':
        if (plan.kind === 'bool') return 'false';
        // A bounded integer whose bounds leave out the default 0: the Reader refuses the slot.
        if (plan.range !== undefined || plan.rule !== undefined) return `r.absent(${this.s.dep(field)}, pos)`;
        return (plan.kind === 'int64' || plan.kind === 'uint64') && !plan.asNumber ? '0n' : '0';
      case 'enum':
        return this.s.dep(plan.members[0]);
      case 'string':
        // A string whose rule refuses '' (a minLength, a pattern): the Reader refuses the slot.
        return plan.rule === undefined ? "''" : `r.absent(${this.s.dep(field)}, pos)`;
      case 'vector':
        return `(r.budget.charge(${int(cost.array)}, pos), [])`;
      default:
        return `r.absent(${this.s.dep(field)}, pos)`;
    }
  }

  /** `Reader.value` into `t`: the value at `at` (checked), for a value nested at `depth`. */
  private emitValueRead(plan: ValuePlan, at: string, depth: string, t: string): void {
    const s = this.s;
    switch (plan.k) {
      case 'scalar': {
        // A bounded integer is read, and held to its bounds, by the Reader.
        const read = plan.range === undefined && plan.rule === undefined ? dataRead[plan.kind] : undefined;
        this.line(
          read === undefined ? `${t} = r.value(${s.dep(plan)}, ${at}, ${depth});` : `${t} = ${read(at)};`,
        );
        return;
      }
      case 'timestamp': {
        const date = s.fn('date');
        this.line(
          `const ${date} = h.dateOf(dv.getUint32(${at}, true), dv.getInt32(${at} + 4, true), ${s.key(plan.precision)});`,
        );
        this.line(
          `if (${date} === undefined) throw h.mismatch(${at}, 'a timestamp is beyond the range of a Date');`,
        );
        this.line(`r.budget.charge(${int(cost.date)}, ${at});`);
        this.line(`${t} = ${this.kept(plan.rule, at, date)};`);
        return;
      }
      case 'enum': {
        const [index, member] = [s.fn('index'), s.fn('member')];
        const read =
          plan.size === 1
            ? `dv.getUint8(${at})`
            : plan.size === 2
              ? `dv.getUint16(${at}, true)`
              : `dv.getUint32(${at}, true)`;
        this.line(`const ${index} = ${read};`);
        this.line(`const ${member} = ${s.dep(plan.members)}[${index}];`);
        this.line(
          `if (${member} === undefined) throw h.mismatch(${at}, 'enum index ' + ${index} + ' is past the last member');`,
        );
        this.line(`${t} = ${member};`);
        return;
      }
      case 'string':
        this.line(`${t} = ${this.kept(plan.rule, at, `r.string(${at}, true)`)};`);
        return;
      case 'table':
        if (plan.table.kind !== 'entry') {
          this.line(`${t} = ${this.namesOf(plan.table).decode}(r, r.table(${at}), ${depth});`);
          return;
        }
        break;
      case 'vector':
        this.emitListRead(plan.element, at, depth, t);
        if (plan.rule !== undefined) this.line(`h.kept(${s.dep(plan.rule)}, ${at}, ${t}.length);`);
        return;
    }
    this.line(`${t} = r.value(${s.dep(plan)}, ${at}, ${depth});`);
  }

  /** The expression `value` (found at `at`) held to `rule`, as the Reader's `kept`. */
  private kept(rule: Rule<never> | undefined, at: string, value: string): string {
    return rule === undefined ? value : `h.kept(${this.s.dep(rule)}, ${at}, ${value})`;
  }

  /** `Reader.list`: depth, the vector's length checked against the input, counted, then each item. */
  private emitListRead(element: ValuePlan, at: string, depth: string, t: string): void {
    const s = this.s;
    const [start, n, list, i, q, below] = [
      s.fn('start'),
      s.fn('n'),
      s.fn('a'),
      s.fn('i'),
      s.fn('q'),
      s.fn('d'),
    ];
    this.line(`if (${depth} >= r.limits.maxDepth) throw h.tooDeep(${at}, r.limits);`);
    this.line(`const ${start} = r.vector(${at}, ${int(element.size)});`);
    this.line(`const ${n} = r.count;`);
    this.line(`r.countElements(${n}, ${at});`);
    this.line(`r.budget.charge(${int(cost.array)} + ${n} * ${int(cost.slot)}, ${at});`);
    this.line(`const ${below} = ${depth} + 1;`);
    this.line(`const ${list} = new Array(${n});`);
    this.line(`for (let ${i} = 0; ${i} < ${n}; ${i}++) {`);
    this.line(`const ${q} = ${start} + ${i} * ${int(element.size)};`);
    const item = s.fn('item');
    this.line(`let ${item};`);
    this.emitValueRead(element, q, below, item);
    this.line(`${list}[${i}] = ${item};`);
    this.line('}');
    this.line(`${t} = ${list};`);
  }
}
