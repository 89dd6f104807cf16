/**
 * JSON text, compiled, the fast way: a pass per schema that checks a value exactly as the
 * interpreter (schema-writer.ts) does, in the same order with the same errors and paths, and builds
 * its *JSON-ready projection*: fresh object literals in the schema's field order holding only the
 * schema's fields, Dates as ISO strings, bytes as base64, bigints as digit strings, non-finite
 * floats as "NaN"/"Infinity" strings. A part of the value that is already its own projection is
 * passed on as it stands once checked: an array or string-keyed map whose items are, and a plain
 * object holding exactly the schema's fields in its order, each its own projection (`writesAsIs`).
 * A copy is made from the first part that differs. One `JSON.stringify` of the projection then
 * writes the text. On the statuses and catalogs of issue 35 (documents of strings, numbers and id
 * maps, nothing to convert) the copies had cost a third of JSON.stringify's time, in building and
 * in GC; a value with Dates, bytes or bigints in every object is copied as before.
 *
 * Why: a generated writer that built the text with `out += piece` made a rope of one cons string per piece,
 * which V8 must flatten before TextEncoder can encode it. On the `documents` dataset (one array of
 * 2,000 order documents) that cost 52 % of encode time in GC and 17 % in flattening;
 * JSON.stringify builds flat text natively, and the projection's small objects die young.
 *
 * The text is byte-identical to the interpreter's:
 * - JSON.stringify quotes a well-formed string exactly as `quote` does (it escapes quotes,
 *   backslashes and control characters, the same way). A lone surrogate it writes as an escape
 *   (`\udc00`), which `quote` refuses: the writer looks for one in the text, once, and has the
 *   interpreter write a value whose text holds one (it refuses the string, with its path, or writes the
 *   escape where a json value holds it). Checking each string instead (`isWellFormed`, a call
 *   into the runtime on Node 20) took ~2.6 ms of CPU for the ~40,000 strings of `documents`, a
 *   third of the projection; one native search of the text takes a fraction of a millisecond.
 * - An error is thrown by the interpreter, which runs again for it: it is the one that checks lone
 *   surrogates in the value's order, so an earlier one is refused before a later wrong value.
 * - Decimals, timestamps, base64 and digit strings hold nothing to escape, so JSON.stringify
 *   writes them as the writer's `'"' + x + '"'`.
 * - An absent optional field is an undefined property, which JSON.stringify leaves out as the
 *   writer does; undefined in an array is written `null` by both; a map value is made null here.
 * - What JSON.stringify cannot spell as wirekit does is decided at compile time (`canProject`: a
 *   bigint as a bare number in int64 mode 'number', a field named like an array index, which an
 *   object literal would move to the front) or met at run time (-0 as a float, written `-0`; an
 *   integer-keyed Map whose key order an object would change): the projection then throws
 *   `fallback`, and the interpreter writes the whole value instead (a value is read twice then,
 *   once per pass; no check is skipped on either).
 * - An array passed on as it is must not have a `toJSON` (JSON.stringify would call it); one
 *   that has is copied.
 */

import { prependPath } from '../../../errors/index.js';
import { decimalBounds, decimalFits } from '../../../schema/decimal.js';
import { branchIndex } from '../../../schema/either.js';
import type { EitherSchema, MapSchema, ObjectSchema, Schema, UnionSchema } from '../../../schema/index.js';
import { intRange, isSmallInt, largeIntRange } from '../../../schema/int-ranges.js';
import { jsonEncodeError, walkJson } from '../../../schema/json-kind.js';
import { keepOneofs } from '../../../schema/oneofs.js';
import { memberSet } from '../../../schema/validate.js';
import {
  bytesRule,
  decimalRule,
  fitsFloat32,
  floatRule,
  isRecord,
  itemsRule,
  jsonRule,
  type Rule,
  refused,
  stringRule,
  timestampRule,
  unreadableKey,
} from '../../../schema/value-rules.js';
import { toBase64 } from '../../../util/base64.js';
import { FunctionQueue, SourceBuilder } from '../../core/codegen.js';
import { type JsonWriteOptions, nest, variantFor, wrong } from './schema-writer.js';

/** Thrown by a projection for a value JSON.stringify cannot write as the interpreter does. */
export const fallback: unique symbol = Symbol('wirekit: write this value with the interpreter');

/** Builds a value's JSON-ready projection (undefined for an absent optional root), or throws `fallback`. */
export type JsonProjector = (value: unknown, options: JsonWriteOptions) => unknown;

/** The largest array index plus one (2^32 - 1): keys below it are ordered first by every object. */
const indexBound = 4_294_967_295;

/** Whether `name` is an array index, a key that an object keeps ahead of all others, in ascending order. */
function isIndexName(name: string): boolean {
  return /^(?:0|[1-9][0-9]*)$/.test(name) && Number(name) < indexBound;
}

/** Whether a projection can write every value of `schema` as the interpreter does (see the module comment). */
export function canProject(
  schema: Schema,
  int64: JsonWriteOptions['int64'],
  seen = new Set<Schema>(),
): boolean {
  if (seen.has(schema)) return true;
  seen.add(schema);
  switch (schema.kind) {
    case 'int64':
    case 'uint64':
      return schema.as !== 'bigint' || int64 === 'string';
    case 'object':
      return schema.fields.every(
        (field) => !isIndexName(field.name) && canProject(field.schema, int64, seen),
      );
    case 'union':
      return schema.variants.every((variant) => canProject(variant, int64, seen));
    case 'array':
      return canProject(schema.items, int64, seen);
    case 'map':
      return canProject(schema.keys, int64, seen) && canProject(schema.values, int64, seen);
    case 'optional':
    case 'nullable':
      return canProject(schema.inner, int64, seen);
    case 'ref':
      return canProject(schema.resolve(), int64, seen);
    default:
      return true;
  }
}

/** Whether the projection of a value of `schema` is the value itself (so an array of them is passed on). */
function isIdentity(schema: Schema): boolean {
  if (isSmallInt(schema)) return true;
  switch (schema.kind) {
    case 'bool':
    case 'decimal':
    case 'string':
    case 'enum':
    case 'literal':
    case 'json':
      return true;
    case 'int64':
    case 'uint64':
      return schema.as !== 'bigint';
    case 'optional':
    case 'nullable':
      return isIdentity(schema.inner);
    case 'ref':
      return isIdentity(schema.resolve());
    default:
      return false;
  }
}

/** An array's own copy, for one that JSON.stringify would not write by its items (it has a toJSON). */
function plainCopy(items: readonly unknown[]): unknown[] {
  const out = new Array<unknown>(items.length);
  for (let i = 0; i < items.length; i++) out[i] = items[i];
  return out;
}

/** Whether a value of `schema` may be undefined once checked: an optional one. */
function mayBeUndefined(schema: Schema): boolean {
  if (schema.kind === 'optional') return true;
  if (schema.kind === 'nullable') return mayBeUndefined(schema.inner);
  if (schema.kind === 'ref') return mayBeUndefined(schema.resolve());
  return false;
}

/** A new array of `items`' length holding its first `count` items. */
function copyItems(items: readonly unknown[], count: number): unknown[] {
  const out = new Array<unknown>(items.length);
  for (let i = 0; i < count; i++) out[i] = items[i];
  return out;
}

/**
 * Whether JSON.stringify writes `value`, an object whose fields were each found to be their own
 * projection, `defined` of them not undefined, as the projection's literal of `names` would be
 * written: a plain object (no prototype to lend it keys or a toJSON) whose enumerable keys are
 * schema names in the schema's order, as many of them holding a value as the fields that do. Any
 * other key, a key out of order, or a field read from a key JSON.stringify would not write (one not
 * enumerable), and the literal is made.
 */
function writesAsIs(value: Record<string, unknown>, names: readonly string[], defined: number): boolean {
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  let next = 0;
  let held = 0;
  for (const key in value) {
    while (next < names.length && names[next] !== key) next++;
    if (next === names.length) return false;
    next++;
    if (value[key] !== undefined) held++;
  }
  // A toJSON JSON.stringify would call, kept where for-in does not see it (not enumerable).
  return held === defined && typeof value.toJSON !== 'function';
}

/** A new object holding `source`'s first `count` keys of `keys`, each with its value. */
function copyKeys(
  source: Record<string, unknown>,
  keys: readonly string[],
  count: number,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) out[keys[i] as string] = source[keys[i] as string];
  return out;
}

type Container = ObjectSchema | Extract<Schema, { kind: 'array' }> | MapSchema;

export class JsonProjectionCompiler {
  private readonly s = new SourceBuilder();
  /** A function per object, array or map schema, made on demand. */
  private readonly functions = new FunctionQueue<Container>((schema) =>
    schema.kind === 'object'
      ? this.s.fn('projectObject', schema.name)
      : this.s.fn(schema.kind === 'array' ? 'projectArray' : 'projectMap'),
  );

  build(root: Schema): JsonProjector {
    const s = this.s;
    s.line(
      `const h = ${s.dep({ wrong, nest, prependPath, refused, isRecord, fitsFloat32, toBase64, variantFor, branchIndex, decimalFits, unreadableKey, walkJson, jsonEncodeError, plainCopy, copyItems, copyKeys, writesAsIs, fallback })};`,
    );
    const rootName = s.fn('projectRoot');
    s.line(`function ${rootName}(v, O) {`);
    s.line('  const depth = 0;');
    const p = this.value(root, 'v', '  ');
    s.line(`  return ${p};`);
    s.line('}');
    this.functions.drain((schema, name) => {
      if (schema.kind === 'object') this.object(schema, name);
      else if (schema.kind === 'array') this.array(schema, name);
      else this.map(schema, name);
    });
    return s.compile<JsonProjector>(rootName);
  }

  /**
   * Statements that check `x` (a value of `schema` at `depth`) as the interpreter does; returns the
   * expression of its projection, valid after them.
   */
  private value(schema: Schema, x: string, indent: string): string {
    const s = this.s;
    const line = (text: string) => s.line(indent + text);
    if (isSmallInt(schema)) {
      const [min, max] = intRange(schema);
      line(
        `if (typeof ${x} !== 'number' || !Number.isInteger(${x}) || ${x} < ${min} || ${x} > ${max}) throw h.wrong(${s.dep(`an ${schema.kind}`)}, ${x});`,
      );
      return x;
    }
    switch (schema.kind) {
      case 'bool':
        line(`if (typeof ${x} !== 'boolean') throw h.wrong('a boolean', ${x});`);
        return x;
      case 'int64':
      case 'uint64': {
        if (schema.as === 'bigint') {
          // int64 mode 'string' only (canProject): the digits, quoted by JSON.stringify.
          const [min, max] = largeIntRange[schema.kind];
          line(
            `if (typeof ${x} !== 'bigint' || ${x} < ${s.dep(min)} || ${x} > ${s.dep(max)}) throw h.wrong(${s.dep(`an ${schema.kind} bigint`)}, ${x});`,
          );
          return `('' + ${x})`;
        }
        const negative = schema.kind === 'uint64' ? ` || ${x} < 0` : '';
        line(
          `if (typeof ${x} !== 'number' || !Number.isSafeInteger(${x})${negative}) throw h.wrong(${s.dep(`a safe ${schema.kind} number`)}, ${x});`,
        );
        return x;
      }
      case 'float32':
      case 'float64':
        line(`if (typeof ${x} !== 'number') throw h.wrong('a number', ${x});`);
        if (schema.kind === 'float32')
          line(`if (!h.fitsFloat32(${x})) throw h.wrong('a number within float32', ${x});`);
        this.rule(floatRule(schema), x, indent);
        // -0 is written `-0`, which JSON.stringify cannot: the interpreter writes this value.
        line(`if (${x} === 0 && 1 / ${x} < 0) throw h.fallback;`);
        return `(Number.isFinite(${x}) ? ${x} : '' + ${x})`;
      case 'decimal':
        line(`if (typeof ${x} !== 'string') throw h.wrong('a decimal string', ${x});`);
        // The rule refuses exactly what decimalFits does not let through; it says why.
        line(
          `if (!h.decimalFits(${x}, ${decimalBounds(schema)
            .map((n) => s.dep(n))
            .join(', ')})) throw h.refused(${s.dep(decimalRule(schema))}(${x}));`,
        );
        return x;
      case 'string':
        line(`if (typeof ${x} !== 'string') throw h.wrong('a string', ${x});`);
        this.rule(stringRule(schema), x, indent);
        // A lone surrogate is looked for in the text, once (see compileJsonWriter).
        return x;
      case 'enum':
        line(
          `if (typeof ${x} !== 'string' || !${s.dep(memberSet(schema))}.has(${x})) throw h.wrong(${s.dep(`one of ${schema.members.join(', ')}`)}, ${x});`,
        );
        return x;
      case 'literal':
        line(
          `if (${x} !== ${s.dep(schema.value)}) throw h.wrong(${s.dep(`the literal ${JSON.stringify(schema.value)}`)}, ${x});`,
        );
        return s.dep(schema.value);
      case 'bytes': {
        line(`if (!(${x} instanceof Uint8Array)) throw h.wrong('a Uint8Array', ${x});`);
        this.rule(bytesRule(schema), x, indent);
        return `h.toBase64(${x})`;
      }
      case 'timestamp':
        line(
          `if (!(${x} instanceof Date) || Number.isNaN(${x}.getTime())) throw h.wrong('a valid Date', ${x});`,
        );
        this.rule(timestampRule(schema), x, indent);
        // toISOString's flat string: text built in JS (2x faster alone) is a rope of cons strings
        // that JSON.stringify must flatten, and was slower in the writer (24.4 vs 21.0 ms CPU).
        return `${x}.toISOString()`;
      // Containers are projected here, in the field's turn, so that an error has its path.
      case 'object':
        return this.local(`${this.functions.nameFor(schema)}(${x}, h.nest(depth, O), O)`, indent);
      case 'either':
        return this.either(schema, x, indent);
      case 'union':
        return this.local(this.union(schema, x, indent), indent);
      case 'array':
        return this.local(`${this.functions.nameFor(schema)}(${x}, depth, O)`, indent);
      case 'map':
        return this.local(`${this.functions.nameFor(schema)}(${x}, h.nest(depth, O), O)`, indent);
      case 'optional':
      case 'nullable': {
        const absent = schema.kind === 'optional' ? 'undefined' : 'null';
        const p = s.fn('p');
        line(`let ${p} = ${absent};`);
        line(`if (${x} !== ${absent}) {`);
        const inner = this.value(schema.inner, x, `${indent}  `);
        line(`  ${p} = ${inner};`);
        line('}');
        return p;
      }
      case 'ref':
        return this.value(schema.resolve(), x, indent);
      case 'json': {
        // JSON.stringify writes a json value inside the projection as it writes it alone.
        const problem = s.fn('problem');
        this.rule(jsonRule(schema), x, indent);
        line(`const ${problem} = h.walkJson(${x}, { depth, maxDepth: O.maxDepth });`);
        line(`if (${problem} !== undefined) throw h.jsonEncodeError(${problem}, O.maxDepth);`);
        return x;
      }
    }
  }

  /** A local holding `expression`, evaluated now. */
  private local(expression: string, indent: string): string {
    const p = this.s.fn('p');
    this.s.line(`${indent}const ${p} = ${expression};`);
    return p;
  }

  /** A statement that refuses `x` where the schema's rule does (value-rules.ts); nothing without one. */
  private rule(rule: Rule<never> | undefined, x: string, indent: string): void {
    if (rule === undefined) return;
    this.s.line(`${indent}{ const r = ${this.s.dep(rule)}(${x}); if (r !== undefined) throw h.refused(r); }`);
  }

  /** An either's branch found as the interpreter finds it, then projected as that branch. */
  private either(schema: EitherSchema, x: string, indent: string): string {
    const s = this.s;
    const index = s.fn('branch');
    const p = s.fn('p');
    s.line(`${indent}const ${index} = h.branchIndex(${s.dep(schema)}, ${x});`);
    s.line(`${indent}let ${p};`);
    schema.branches.forEach((branch, i) => {
      s.line(`${indent}${i === 0 ? '' : 'else '}if (${index} === ${i}) {`);
      const inner = this.value(branch, x, `${indent}  `);
      s.line(`${indent}  ${p} = ${inner};`);
      s.line(`${indent}}`);
    });
    return p;
  }

  /** A union's variant found as the interpreter finds it, then projected as that object. */
  private union(schema: UnionSchema, x: string, indent: string): string {
    const s = this.s;
    const variant = s.fn('variant');
    s.line(`${indent}const ${variant} = h.variantFor(${s.dep(schema)}, ${x});`);
    let expression = '';
    schema.variants.forEach((option, i) => {
      const call = `${this.functions.nameFor(option)}(${x}, h.nest(depth, O), O)`;
      expression =
        i === schema.variants.length - 1
          ? `${expression}${call}`
          : `${expression}${variant} === ${s.dep(option)} ? ${call} : `;
    });
    return `(${expression})`;
  }

  private object(schema: ObjectSchema, name: string): void {
    const s = this.s;
    s.line(`function ${name}(v, depth, O) {`);
    s.line("  if (!h.isRecord(v)) throw h.wrong('an object', v);");
    if (schema.oneofs !== undefined) s.line(`  ${s.dep(keepOneofs)}(${s.dep(schema)}, v);`);
    s.line('  let at = 0;');
    s.line('  try {');
    const entries: string[] = [];
    /** `projection === value` for each field whose projection may differ from its value. */
    const unchanged: string[] = [];
    /** The fields that may be undefined (optional ones), and how many never are. */
    const absentable: string[] = [];
    let alwaysDefined = 0;
    schema.fields.forEach((field, i) => {
      const x = `x${i}`;
      s.line(`    at = ${i};`);
      s.line(`    const ${x} = ${s.field('v', field.name)};`);
      // An absent optional field projects as undefined, which JSON.stringify leaves out.
      let p = this.value(field.schema, x, '    ');
      if (p !== x) {
        p = this.local(p, '    ');
        unchanged.push(`${p} === ${x}`);
      }
      if (mayBeUndefined(field.schema)) absentable.push(`(${x} !== undefined)`);
      else alwaysDefined++;
      entries.push(`${s.key(field.name)}: ${p}`);
    });
    // A plain object holding the schema's fields and nothing else, in its order, each its own
    // projection, is what the literal would copy: JSON.stringify writes it as it stands.
    if (schema.oneofs === undefined) {
      const names = s.dep(schema.fields.map((field) => field.name));
      const defined = [String(alwaysDefined), ...absentable].join(' + ');
      s.line(`    if (${[...unchanged, `h.writesAsIs(v, ${names}, ${defined})`].join(' && ')}) return v;`);
    }
    s.line(`    return { ${entries.join(', ')} };`);
    s.line('  } catch (error) {');
    s.line(`    throw h.prependPath(error, ${s.dep(schema.fields.map((field) => field.name))}[at]);`);
    s.line('  }');
    s.line('}');
  }

  private array(schema: Extract<Schema, { kind: 'array' }>, name: string): void {
    const s = this.s;
    const identity = isIdentity(schema.items);
    s.line(`function ${name}(v, outer, O) {`);
    s.line("  if (!Array.isArray(v)) throw h.wrong('an array', v);");
    this.rule(itemsRule(schema), 'v.length', '  ');
    s.line('  const depth = h.nest(outer, O);');
    // A copy is made from the first item whose projection is not the item itself, if one is.
    if (!identity) s.line('  let out;');
    s.line('  let i = 0;');
    s.line('  try {');
    s.line('    for (; i < v.length; i++) {');
    s.line('      const x = v[i];');
    const p = this.value(schema.items, 'x', '      ');
    if (!identity) {
      s.line('      if (out === undefined) {');
      s.line(`        if (${p} === x) continue;`);
      s.line('        out = h.copyItems(v, i);');
      s.line('      }');
      s.line(`      out[i] = ${p};`);
    }
    s.line('    }');
    s.line('  } catch (error) {');
    s.line('    throw h.prependPath(error, i);');
    s.line('  }');
    // Items that are their own projections: the array itself, unless JSON.stringify would call its toJSON.
    s.line(`  return ${identity ? '' : 'out ?? '}(v.toJSON === undefined ? v : h.plainCopy(v));`);
    s.line('}');
  }

  private map(schema: MapSchema, name: string): void {
    const s = this.s;
    s.line(`function ${name}(v, depth, O) {`);
    if (schema.keys.kind === 'string') {
      // A map whose every value is its own projection (strings, numbers, id lists) is written as
      // it stands: copying thousands of keys into a new object (a dictionary, and for numeric ids
      // its elements) cost more than JSON.stringify then took to write it (issue 35's catalogs).
      // The copy starts at the first value that changes; JSON.stringify writes an object's own
      // enumerable keys in Object.keys' order, so the text is the same either way.
      s.line("  if (!h.isRecord(v)) throw h.wrong('an object', v);");
      s.line('  const keys = Object.keys(v);');
      s.line('  let out;');
      s.line('  for (let k = 0; k < keys.length; k++) {');
      s.line('    const key = keys[k];');
      s.line('    const unreadable = h.unreadableKey(key);');
      s.line('    if (unreadable !== undefined) throw h.prependPath(unreadable, key);');
      s.line('    let p;');
      s.line('    let x;');
      s.line('    try {');
      // The key is a value of the key schema, checked as a string is; its projection is itself.
      this.value(schema.keys, 'key', '      ');
      s.line('      x = v[key];');
      s.line(`      p = ${this.value(schema.values, 'x', '      ')};`);
      s.line('    } catch (error) {');
      s.line('      throw h.prependPath(error, key);');
      s.line('    }');
      s.line('    if (out === undefined) {');
      s.line('      if (p === x && p !== undefined) continue;');
      s.line('      out = h.copyKeys(v, keys, k);');
      s.line('    }');
      s.line('    out[key] = p === undefined ? null : p;');
      s.line('  }');
      // JSON.stringify would call a toJSON rather than write the keys.
      s.line("  return out ?? (typeof v.toJSON === 'function' ? h.copyKeys(v, keys, keys.length) : v);");
      s.line('}');
      return;
    }
    s.line('  const out = {};');
    s.line("  if (!(v instanceof Map)) throw h.wrong('a Map', v);");
    // An object orders keys that are array indices first, ascending; the Map's order is kept
    // only where that changes nothing, else the interpreter writes the value.
    s.line('  let last = -1;');
    s.line('  let other = false;');
    s.line('  for (const [key, x] of v) {');
    s.line('    const name = String(key);');
    s.line('    let p;');
    s.line('    try {');
    this.value(schema.keys, 'key', '      ');
    s.line('    } catch (error) {');
    s.line('      throw h.prependPath(error, name);');
    s.line('    }');
    s.line(`    if (key >= 0 && key < ${indexBound}) {`);
    s.line('      if (other || Number(key) <= last) throw h.fallback;');
    s.line('      last = Number(key);');
    s.line('    } else other = true;');
    s.line('    try {');
    s.line(`      p = ${this.value(schema.values, 'x', '      ')};`);
    s.line('    } catch (error) {');
    s.line('      throw h.prependPath(error, name);');
    s.line('    }');
    s.line('    out[name] = p === undefined ? null : p;');
    s.line('  }');
    s.line('  return out;');
    s.line('}');
  }
}
