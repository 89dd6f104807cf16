/**
 * Apache Arrow, compiled: row objects to and from the record batches of a root struct.
 *
 * Reading. The interpreter (decode/columns.ts) reads a column at a time into an array of
 * values, then copies each value into objects cloned from a template: for a million rows of four
 * columns, four million-entry arrays of boxed values built only to be copied, and four keyed
 * stores per row. The generated reader walks the rows once, reads each leaf straight from its typed
 * array, and builds each row with one object literal: the only allocations are the rows and their
 * values. Leaves of the common kinds (booleans, integers, floats, timestamps, strings, enums) are
 * read inline or through the interpreter's own per-value readers; other columns (lists, maps,
 * unions, nested structs, decimals, bytes, JSON) are read by the interpreter's column reader first,
 * and the rows take its values.
 *
 * Writing. The interpreter (encode/columns.ts) gathers each field of every row into an
 * array, one column at a time, through a keyed load that sees every name; reading a double field
 * that way boxes it. The generated writer reads every field of a row by constant name and stores it
 * straight into its column's typed array, checked as the interpreter's column writer checks it;
 * other columns are gathered and written by the interpreter's writers.
 *
 * Values are therefore the interpreter's by construction, and so are errors: whatever either
 * generated function fails on (a wrong value, a null where none may be), the batch goes to the
 * interpreter, which writes it or throws its own first error. It works column by column, so with
 * two bad values its first can differ from a row-wise reader's; the message is the interpreter's.
 */
import type { Data } from 'apache-arrow';
import { smallIntRange } from '../../schema/int-ranges.js';
import { isRecord } from '../../schema/value-rules.js';
import { CompiledCache, codegenAvailable, keysAreSafe, SourceBuilder } from '../core/codegen.js';
import { newData } from './data.js';
import { readColumn } from './decode/columns.js';
import {
  enumReader,
  int64Reader,
  kept,
  misplacedNull,
  nullsOf,
  type ReadContext,
  refuseNull,
  stringReader,
  timestampReader,
} from './decode/scalars.js';
import { type EncodeColumns, encodeColumn } from './encode/columns.js';
import { intArrays, unitsPerMilli, Validity } from './encode/scalars.js';
import { ByteSink, checkOffset } from './encode/sink.js';
import type { EnumPlan, Plan, StructPlan } from './plan-types.js';

/** Fills out[at .. at + count) with the rows [start, start + count) of a struct column. */
export type CompiledRows = (
  data: Data,
  start: number,
  count: number,
  ctx: ReadContext,
  out: unknown[],
  at: number,
) => void;

export interface CompiledArrow {
  readonly rows: CompiledRows;
  readonly columns: EncodeColumns;
}

const cache = new CompiledCache<StructPlan, CompiledArrow>(256);

/**
 * The row reader and column writer of a root struct, or undefined where code generation is
 * unavailable.
 */
export function compileArrow(plan: StructPlan): CompiledArrow | undefined {
  if (!codegenAvailable || !keysAreSafe(plan.entries.map((entry) => entry.name))) return undefined;
  return cache.get(plan, () => new ArrowCompiler().build(plan));
}

/** Thrown by generated encoders where the interpreter should write the batch (and report). */
const bail = new Error('wirekit: the compiled Arrow writer leaves this batch to the interpreter');

/** The typed array an integer or enum column is written into, as the interpreter's writer picks it. */
function intArrayOf(plan: Plan): new (length: number) => ArrayBufferView {
  if (plan.k === 'int') return intArrays[plan.kind];
  const bits = (plan as EnumPlan).bits;
  return bits === 8 ? Int8Array : bits === 16 ? Int16Array : Int32Array;
}

/** How the generated writer stores one column: inline for these kinds, else the interpreter's. */
function writeLeafOf(plan: Plan): 'bool' | 'int' | 'float64' | 'timestamp' | 'string' | 'enum' | 'other' {
  switch (plan.k) {
    case 'bool':
    case 'int':
    case 'enum':
      return plan.k;
    case 'float':
      // A bounded float is held to its rule by the interpreter's writer.
      return plan.bits === 64 && plan.rule === undefined ? 'float64' : 'other';
    case 'timestamp':
      return plan.unit === 's' ? 'other' : 'timestamp';
    case 'text':
      return plan.text === 'string' ? 'string' : 'other';
    default:
      return 'other';
  }
}

/**
 * How the generated reader reads one stored column: a leaf inline ('bool', 'number') or through
 * the interpreter's per-value reader ('reader'); a list of such leaves item by item ('list'); any
 * other column through the interpreter's column reader ('column').
 */
function readLeafOf(plan: Plan): 'bool' | 'number' | 'reader' | 'list' | 'column' {
  switch (plan.k) {
    case 'bool':
      return 'bool';
    case 'int':
      // A bounded integer is read, and held to its bounds, by the interpreter's column reader.
      return plan.range === undefined ? 'number' : 'column';
    case 'float':
      // A bounded float is read, and held to its bounds, by the interpreter's column reader.
      return plan.rule === undefined ? 'number' : 'column';
    case 'int64':
      return plan.asNumber ? 'reader' : 'number';
    case 'timestamp':
    case 'enum':
      return 'reader';
    case 'text':
      return plan.text === 'string' ? 'reader' : 'column';
    case 'list': {
      const item = readLeafOf(plan.item);
      return item === 'list' || item === 'column' ? 'column' : 'list';
    }
    default:
      return 'column';
  }
}

class ArrowCompiler {
  private readonly s = new SourceBuilder();

  build(plan: StructPlan): CompiledArrow {
    const s = this.s;
    const h = {
      nullsOf,
      refuseNull,
      misplacedNull,
      readColumn,
      stringReader,
      timestampReader,
      enumReader,
      int64Reader,
      interpret,
      Validity,
      ByteSink,
      checkOffset,
      newData,
      encodeColumn,
      bail,
      isRecord,
      kept,
    };
    s.line(`const h = ${s.dep(h)};`);
    const rows = s.fn('rows', plan.typeName);
    this.emitReader(plan, rows);
    const columns = s.fn('columns', plan.typeName);
    this.emitWriter(plan, columns);
    return s.compile<CompiledArrow>(`{ rows: ${rows}, columns: ${columns} }`);
  }

  /**
   * The columns of n row objects in one pass over the rows: each field is read by constant name
   * and stored straight into its column's typed array (a double never boxed on the way), checked
   * as the interpreter's column writer checks it. Columns of other kinds are gathered into an
   * array and written by the interpreter's writer. Anything unusual (a row that is no object, a
   * wrong value, a lone surrogate) throws, and the caller lets the interpreter write the batch.
   */
  private emitWriter(plan: StructPlan, name: string): void {
    const s = this.s;
    const columns = plan.columns;
    s.line(`function ${name}(rows, start, n) {`);
    columns.forEach((column, c) => {
      const p = column.plan;
      s.line(`  const V${c} = new h.Validity(${s.dep(p)}, n);`);
      switch (writeLeafOf(p)) {
        case 'bool':
          s.line(`  const o${c} = new Uint8Array((n + 7) >> 3);`);
          break;
        case 'int':
          s.line(`  const o${c} = new ${s.dep(intArrayOf(p))}(n);`);
          break;
        case 'float64':
          s.line(`  const o${c} = new Float64Array(n);`);
          break;
        case 'timestamp':
          s.line(`  const o${c} = new BigInt64Array(n), w${c} = new Uint32Array(o${c}.buffer);`);
          break;
        case 'string':
          s.line(`  const o${c} = new Int32Array(n + 1), t${c} = new h.ByteSink(n * 8);`);
          break;
        case 'enum':
          s.line(
            `  const o${c} = new ${s.dep(intArrayOf(p))}(n), m${c} = ${s.dep((p as EnumPlan).indexOf)};`,
          );
          break;
        default:
          s.line(`  const o${c} = new Array(n);`);
      }
    });
    s.line(`  for (let i = 0; i < n; i++) {`);
    s.line(`    const v = rows[start + i];`);
    s.line(`    if (!h.isRecord(v)) throw h.bail;`);
    if (plan.oneofs !== undefined) s.line(`    if (${s.dep(plan.oneofs)}(v) !== undefined) throw h.bail;`);
    for (const entry of plan.entries) {
      if (entry.plan === undefined)
        s.line(`    if (${s.field('v', entry.name)} !== ${s.dep(entry.literal)}) throw h.bail;`);
    }
    columns.forEach((column, c) => {
      s.line(`    const x${c} = ${s.field('v', column.name)};`);
      this.emitStore(column.plan, c);
    });
    s.line(`  }`);
    const data = columns.map((column, c) => {
      const p = column.plan;
      switch (writeLeafOf(p)) {
        case 'string':
          return `h.newData(${s.dep(p.type)}, n, V${c}.props, { offsets: o${c}, values: t${c}.finish() })`;
        case 'enum':
          return `h.newData(${s.dep(p.type)}, n, V${c}.props, { values: o${c} }, [], ${s.dep((p as EnumPlan).dictionary)})`;
        case 'other':
          return `h.encodeColumn(${s.dep(p)}, o${c}, n)`;
        default:
          return `h.newData(${s.dep(p.type)}, n, V${c}.props, { values: o${c} })`;
      }
    });
    s.line(`  return [${data.join(', ')}];`);
    s.line(`}`);
  }

  /** Stores x<c> at row i of column c, as the interpreter's writer for its kind would. */
  private emitStore(plan: Plan, c: number): void {
    const s = this.s;
    const x = `x${c}`;
    // A value the column's rule refuses leaves the batch to the interpreter, which reports it.
    const refused = plan.rule === undefined ? '' : `${s.dep(plan.rule)}(${x}) !== undefined || `;
    switch (writeLeafOf(plan)) {
      case 'bool':
        s.line(`    if (${x} === true) o${c}[i >> 3] |= 1 << (i & 7);`);
        s.line(`    else if (${x} !== false) V${c}.null(i, ${x}, 'a boolean');`);
        return;
      case 'int': {
        const ints = plan as Extract<Plan, { k: 'int' }>;
        const [min, max] = ints.range ?? smallIntRange[ints.kind];
        s.line(
          `    if (typeof ${x} === 'number' && Number.isInteger(${x}) && ${x} >= ${min} && ${x} <= ${max}) o${c}[i] = ${x};`,
        );
        s.line(`    else V${c}.null(i, ${x}, ${s.dep(`an integer from ${min} to ${max}`)});`);
        return;
      }
      case 'float64':
        s.line(`    if (typeof ${x} === 'number') o${c}[i] = ${x};`);
        s.line(`    else V${c}.null(i, ${x}, 'a number');`);
        return;
      case 'timestamp': {
        // As the interpreter's encodeTimestamp: millis = high * 2^32 + low, each part times the unit.
        const perMilli = unitsPerMilli[(plan as Extract<Plan, { k: 'timestamp' }>).unit];
        s.line(`    const ms${c} = ${x} instanceof Date ? ${x}.getTime() : NaN;`);
        s.line(`    if (ms${c} !== ms${c}) V${c}.null(i, ${x}, 'a valid Date');`);
        s.line(`    else {`);
        if (refused !== '') s.line(`      if (${refused.slice(0, -4)}) throw h.bail;`);
        s.line(`      const high = Math.floor(ms${c} / 4294967296);`);
        s.line(`      const low = (ms${c} - high * 4294967296) * ${perMilli};`);
        s.line(`      const carry = Math.floor(low / 4294967296);`);
        s.line(`      const top = high * ${perMilli} + carry;`);
        s.line(`      if (top < -2147483648 || top > 2147483647) throw h.bail;`);
        s.line(`      w${c}[2 * i] = low - carry * 4294967296;`);
        s.line(`      w${c}[2 * i + 1] = top >>> 0;`);
        s.line(`    }`);
        return;
      }
      case 'string':
        s.line(`    if (typeof ${x} !== 'string') V${c}.null(i, ${x}, 'a string');`);
        s.line(`    else if (${refused}!t${c}.writeString(${x})) throw h.bail;`);
        s.line(`    o${c}[i + 1] = h.checkOffset(t${c}.size);`);
        return;
      case 'enum':
        s.line(`    const e${c} = typeof ${x} === 'string' ? m${c}.get(${x}) : undefined;`);
        s.line(`    if (e${c} !== undefined) o${c}[i] = e${c};`);
        s.line(`    else V${c}.null(i, ${x}, 'a member');`);
        return;
      default:
        s.line(`    o${c}[i] = ${x};`);
    }
  }

  private emitReader(plan: StructPlan, name: string): void {
    const s = this.s;
    const columns = plan.columns;
    const fast = s.fn('fill', plan.typeName);
    s.line(`function ${name}(data, start, count, ctx, out, at) {`);
    s.line(`  const used = ctx.budget.used;`);
    s.line(`  try { ${fast}(data, start, count, ctx, out, at); }`);
    s.line(
      `  catch (error) { ctx.budget.used = used; h.interpret(${s.dep(plan)}, data, start, count, ctx, error); }`,
    );
    s.line(`}`);

    s.line(`function ${fast}(data, start, count, ctx, out, at) {`);
    s.line(`  const rowNulls = h.nullsOf(data);`);
    // Per column: its Data, null bitmap and what the loop reads it through.
    columns.forEach((column, c) => {
      this.prepareColumn(column.plan, `${c}`, `data.children[${c}]`, 'start', 'count');
    });
    s.line(`  for (let k = 0; k < count; k++) {`);
    s.line(`    const i = start + k;`);
    // A null row: the interpreter's null value for the struct, and its children are not read
    // (Arrow lets them hold anything, nulls included).
    s.line(`    if (rowNulls !== undefined && ((rowNulls[i >> 3] >> (i & 7)) & 1) === 0) {`);
    s.line(`      out[at + k] = ${plan.nullable ? s.dep(plan.nullValue) : s.dep(misplacedNull)};`);
    s.line(`      continue;`);
    s.line(`    }`);
    columns.forEach((column, c) => {
      this.emitValue(column.plan, `${c}`, 'i', `x${c}`, '    ');
    });
    // One literal for every key the template holds (literals, always-present fields), in its
    // order; optional fields follow when present, as the interpreter adds them.
    const byName = new Map(columns.map((column, c) => [column.name, c]));
    const parts: string[] = [];
    for (const key of Object.keys(plan.template)) {
      const c = byName.get(key);
      if (c === undefined) parts.push(`${s.key(key)}: ${s.dep(plan.template[key])}`);
      // The template's null stays where the column decodes to undefined (an absent value).
      else if (mayBeUndefined((columns[c] as StructPlan['columns'][number]).plan))
        parts.push(`${s.key(key)}: x${c} === undefined ? null : x${c}`);
      else parts.push(`${s.key(key)}: x${c}`);
    }
    s.line(`    const o = { ${parts.join(', ')} };`);
    columns.forEach((column, c) => {
      if (!Object.hasOwn(plan.template, column.name))
        s.line(`    if (x${c} !== undefined) o[${s.key(column.name)}] = x${c};`);
    });
    // Two members of a oneof group: the interpreter refuses the row with its own error.
    if (plan.oneofs !== undefined) s.line(`    if (${s.dep(plan.oneofs)}(o) !== undefined) throw h.bail;`);
    s.line(`    out[at + k] = o;`);
    s.line(`  }`);
    s.line(`}`);
  }

  /**
   * Declarations before the loop for the column `id` held by the Data `data`, whose entries
   * [start, start + count) the loop reads: `d<id>` the Data, `n<id>` its null bitmap, and `v<id>`
   * its values, `r<id>` its per-value reader or the interpreter's values, or for a list the offsets
   * `o<id>` and the item column `<id>i`.
   */
  private prepareColumn(plan: Plan, id: string, data: string, start: string, count: string): void {
    const s = this.s;
    const leaf = readLeafOf(plan);
    s.line(`  const d${id} = ${data};`);
    if (leaf === 'column') {
      s.line(`  const r${id} = h.readColumn(${s.dep(plan)}, d${id}, ${start}, ${count}, ctx);`);
      return;
    }
    s.line(`  const n${id} = h.nullsOf(d${id});`);
    if (leaf === 'list') {
      // The items of rows [start, start + count): offsets are checked ascending and in bounds.
      s.line(`  const o${id} = d${id}.valueOffsets, f${id} = o${id}[${start}];`);
      const item = (plan as Extract<Plan, { k: 'list' }>).item;
      this.prepareColumn(
        item,
        `${id}i`,
        `d${id}.children[0]`,
        `f${id}`,
        `o${id}[${start} + ${count}] - f${id}`,
      );
    } else if (leaf === 'reader') {
      s.line(`  const r${id} = ${this.readerOf(plan, `d${id}`, start, count)};`);
    } else {
      s.line(`  const v${id} = d${id}.values;`);
    }
  }

  /** The per-value reader the interpreter uses for this leaf, built once per batch. */
  private readerOf(plan: Plan, data: string, start: string, count: string): string {
    const s = this.s;
    switch (plan.k) {
      case 'timestamp':
        return `h.timestampReader(${s.key(plan.unit)}, ${data}, ctx)`;
      case 'enum':
        return `h.enumReader(${s.dep(plan.members)}, ${data}, ctx)`;
      case 'int64':
        return `h.int64Reader(${s.dep(plan.signed)}, ${data}, ctx)`;
      default:
        return `h.stringReader(${data}, ${start}, ${count})`;
    }
  }

  /**
   * `const <target> =` entry `index` of column `id` as the interpreter decodes it (`k` counts the
   * loop's rows from 0, for the interpreter's values of a 'column').
   */
  private emitValue(plan: Plan, id: string, index: string, target: string, indent: string): void {
    const s = this.s;
    const leaf = readLeafOf(plan);
    const line = (text: string) => s.line(`${indent}${text}`);
    if (leaf === 'column') {
      line(`const ${target} = r${id}[k];`);
      line(`if (${target} === h.misplacedNull) h.refuseNull(0);`);
      return;
    }
    const isNull = `n${id} !== undefined && ((n${id}[${index} >> 3] >> (${index} & 7)) & 1) === 0`;
    // A null where the schema allows none is misplaced: the interpreter refuses it once it lands
    // in a row or a list, as here.
    const nullValue = plan.nullable ? s.dep(plan.nullValue) : 'h.refuseNull(0)';
    if (leaf === 'list') {
      const item = (plan as Extract<Plan, { k: 'list' }>).item;
      line(`let ${target};`);
      line(`if (${isNull}) ${target} = ${nullValue};`);
      line(`else {`);
      line(`  const from = o${id}[${index}], to = o${id}[${index} + 1];`);
      if (plan.rule !== undefined) line(`  h.kept(${s.dep(plan.rule)}, to - from, ctx);`);
      line(`  ${target} = new Array(to - from);`);
      line(`  for (let j = from; j < to; j++) {`);
      this.emitValue(item, `${id}i`, 'j', 'y', `${indent}    `);
      line(`    ${target}[j - from] = y;`);
      line(`  }`);
      line(`}`);
      return;
    }
    const value =
      leaf === 'bool'
        ? `((v${id}[${index} >> 3] >> (${index} & 7)) & 1) === 1`
        : leaf === 'number'
          ? `v${id}[${index}]`
          : `r${id}(${index})`;
    const read = plan.rule === undefined ? value : `h.kept(${s.dep(plan.rule)}, ${value}, ctx)`;
    line(`const ${target} = ${isNull} ? ${nullValue} : ${read};`);
  }
}

function mayBeUndefined(plan: Plan): boolean {
  return readLeafOf(plan) === 'column' || (plan.nullable && plan.nullValue === undefined);
}

/**
 * The interpreter's reading of a batch the compiled reader failed on: it throws the interpreter's
 * own first error. Should it not throw (it would be a bug), the compiled reader's error stands.
 */
function interpret(
  plan: StructPlan,
  data: Data,
  start: number,
  count: number,
  ctx: ReadContext,
  error: unknown,
): never {
  readColumn(plan, data, start, count, ctx);
  throw error;
}
