/**
 * JSON text, compiled: a writer per schema that produces exactly the interpreter's text
 * (src/codecs/json/encode.ts), the JSON form of values, checked as it is written.
 *
 * The interpreter walks the schema for every value; the generated writer is the walk unrolled:
 * each object's fields read by constant name, their checks and conversions inline, keys and the
 * commas before them as string constants. On the `records` dataset that made it faster than
 * `JSON.stringify` of the same rows, which writes no checks at all (docs/benchmarks.md). Kinds
 * that need more than a line (bytes, literals, unions, maps, free JSON) call the interpreter's
 * `write`, so they cannot drift; errors come from the same helpers with the same paths. The
 * reader is compiled beside it, in compiled-read.ts.
 *
 * This text writer is now the reference and the rare path: `compileJsonWriter` writes with a
 * projection and one JSON.stringify (compiled-project.ts), which builds flat text natively where
 * `out += piece` built a rope of one cons string per piece (on `documents`, 52 % of encode time
 * went to GC and 17 % to flattening the rope: 79 -> 21 ms), and comes here for a value the
 * projection cannot write as this writer does, and for every error.
 */

import { prependPath } from '../../errors/index.js';
import type { ObjectSchema, Schema } from '../../schema/index.js';
import { isSmallInt, largeIntRange, smallIntRange } from '../../schema/int-ranges.js';
import {
  decimalRule,
  fitsFloat32,
  isRecord,
  itemsRule,
  type Rule,
  refused,
  stringRule,
  timestampRule,
} from '../../schema/value-rules.js';
import { CompiledCache, codegenAvailable, FunctionQueue, keysAreSafe, Source } from '../core/codegen.js';
import { canProject, fallback, JsonProjectionCompiler } from './compiled-project.js';
import { type JsonWriteOptions, nest, quote, write, wrong } from './encode.js';

/** Writes a value's JSON text; `options.maxDepth` is read at each call, int64 mode is compiled in. */
export type JsonWriter = (value: unknown, options: JsonWriteOptions) => string;

const caches = {
  string: new CompiledCache<Schema, JsonWriter>(256),
  number: new CompiledCache<Schema, JsonWriter>(256),
};

/** What JSON.stringify writes for a lone surrogate (and, rarely, a string that spells one: `\\ud800`). */
const loneSurrogateEscape = /\\u[dD][89a-fA-F]/;

/** The compiled writer for `schema`, or undefined where code cannot be generated. */
export function compileJsonWriter(schema: Schema, options: JsonWriteOptions): JsonWriter | undefined {
  if (!codegenAvailable || !namesAreSafe(schema, new Set())) return undefined;
  // Cached per schema and int64 mode (compiled in); maxDepth comes with each call.
  const cache = caches[options.int64];
  const compiled = cache.get(schema, () => {
    const text = new JsonCompiler(options).build(schema);
    if (!canProject(schema, options.int64)) return text;
    const project = new JsonProjectionCompiler().build(schema);
    // The projection and one JSON.stringify (compiled-project.ts); the text writer for a value
    // the projection cannot write as it does.
    return (value: unknown, O: JsonWriteOptions): string => {
      let projected: unknown;
      try {
        projected = project(value, O);
      } catch (error) {
        if (error === fallback) return text(value, O);
        // The text writer's error is the one: it refuses a lone surrogate before a later wrong value.
        text(value, O);
        throw error;
      }
      const json = projected === undefined ? 'null' : JSON.stringify(projected);
      // JSON.stringify escapes a lone surrogate, which no string the text writer writes holds.
      return json.includes('\\u') && loneSurrogateEscape.test(json) ? text(value, O) : json;
    };
  });
  return compiled;
}

/** Whether every object the compiled writer and reader handle has names that are safe as keys (see `keysAreSafe`). */
export function namesAreSafe(schema: Schema, seen: Set<Schema>): boolean {
  if (seen.has(schema)) return true;
  seen.add(schema);
  switch (schema.kind) {
    case 'object':
      return (
        keysAreSafe(schema.fields.map((field) => field.name)) &&
        schema.fields.every((field) => namesAreSafe(field.schema, seen))
      );
    case 'array':
      return namesAreSafe(schema.items, seen);
    case 'optional':
    case 'nullable':
      return namesAreSafe(schema.inner, seen);
    case 'ref':
      return namesAreSafe(schema.resolve(), seen);
    default:
      return true; // other kinds go to the interpreter, which builds no object literals
  }
}

class JsonCompiler {
  private readonly s = new Source();
  /** A function per object or array schema, made on demand. */
  private readonly functions = new FunctionQueue<Schema>((schema) =>
    schema.kind === 'object' ? this.s.fn('writeObject', schema.name) : this.s.fn('writeArray'),
  );

  constructor(private readonly options: Pick<JsonWriteOptions, 'int64'>) {}

  build(root: Schema): JsonWriter {
    const s = this.s;
    s.line(`const h = ${s.dep({ write, wrong, nest, prependPath, quote, refused, isRecord, fitsFloat32 })};`);
    const rootName = s.fn('writeRoot');
    s.line(`function ${rootName}(v, O) {`);
    s.line("  let out = '';");
    s.line('  const depth = 0;');
    this.value(root, 'v', '  ');
    s.line('  return out;');
    s.line('}');
    this.functions.drain((schema, name) => {
      if (schema.kind === 'object') this.object(schema, name);
      else if (schema.kind === 'array') this.array(schema, name);
    });
    return s.compile<JsonWriter>(rootName);
  }

  /** Statements that append the JSON text of `x` (a value of `schema`) to `out`, at `depth`. */
  private value(schema: Schema, x: string, indent: string): void {
    const s = this.s;
    const line = (text: string) => s.line(indent + text);
    if (isSmallInt(schema)) {
      const [min, max] = smallIntRange[schema.kind];
      line(
        `if (typeof ${x} !== 'number' || !Number.isInteger(${x}) || ${x} < ${min} || ${x} > ${max}) throw h.wrong(${s.dep(`an ${schema.kind}`)}, ${x});`,
      );
      line(`out += ${x};`);
      return;
    }
    switch (schema.kind) {
      case 'bool':
        line(`if (typeof ${x} !== 'boolean') throw h.wrong('a boolean', ${x});`);
        line(`out += ${x} ? 'true' : 'false';`);
        return;
      case 'int64':
      case 'uint64': {
        // The interpreter's checks: the schema's JavaScript type, in the kind's range (a safe
        // integer, not negative for uint64, with as: 'number').
        if (schema.as === 'bigint') {
          const [min, max] = largeIntRange[schema.kind];
          line(
            `if (typeof ${x} !== 'bigint' || ${x} < ${s.dep(min)} || ${x} > ${s.dep(max)}) throw h.wrong(${s.dep(`an ${schema.kind} bigint`)}, ${x});`,
          );
          line(`out += ${this.options.int64 === 'string' ? `'"' + ${x} + '"'` : `'' + ${x}`};`);
          return;
        }
        const negative = schema.kind === 'uint64' ? ` || ${x} < 0` : '';
        line(
          `if (typeof ${x} !== 'number' || !Number.isSafeInteger(${x})${negative}) throw h.wrong(${s.dep(`a safe ${schema.kind} number`)}, ${x});`,
        );
        line(`out += ${x};`);
        return;
      }
      case 'float32':
      case 'float64':
        line(`if (typeof ${x} !== 'number') throw h.wrong('a number', ${x});`);
        if (schema.kind === 'float32')
          line(`if (!h.fitsFloat32(${x})) throw h.wrong('a number within float32', ${x});`);
        line(`out += Number.isFinite(${x}) ? (Object.is(${x}, -0) ? '-0' : '' + ${x}) : '"' + ${x} + '"';`);
        return;
      case 'decimal':
        line(`if (typeof ${x} !== 'string') throw h.wrong('a decimal string', ${x});`);
        this.rule(decimalRule(schema), x, indent);
        line(`out += '"' + ${x} + '"';`);
        return;
      case 'string':
        line(`if (typeof ${x} !== 'string') throw h.wrong('a string', ${x});`);
        this.rule(stringRule(schema), x, indent);
        line(`out += h.quote(${x});`);
        return;
      case 'enum': {
        // Each member's JSON text, made once: the lookup is the membership check too.
        const texts = new Map(schema.members.map((member) => [member, JSON.stringify(member)]));
        line(`const t${x} = typeof ${x} === 'string' ? ${s.dep(texts)}.get(${x}) : undefined;`);
        line(
          `if (t${x} === undefined) throw h.wrong(${s.dep(`one of ${schema.members.join(', ')}`)}, ${x});`,
        );
        line(`out += t${x};`);
        return;
      }
      case 'timestamp':
        line(
          `if (!(${x} instanceof Date) || Number.isNaN(${x}.getTime())) throw h.wrong('a valid Date', ${x});`,
        );
        this.rule(timestampRule(schema.precision), x, indent);
        line(`out += '"' + ${x}.toISOString() + '"';`);
        return;
      case 'object':
        line(`out += ${this.functions.nameFor(schema)}(${x}, h.nest(depth, O), O);`);
        return;
      case 'array':
        line(`out += ${this.functions.nameFor(schema)}(${x}, depth, O);`);
        return;
      case 'optional':
        line(`if (${x} === undefined) out += 'null';`);
        line('else {');
        this.value(schema.inner, x, `${indent}  `);
        line('}');
        return;
      case 'nullable':
        line(`if (${x} === null) out += 'null';`);
        line('else {');
        this.value(schema.inner, x, `${indent}  `);
        line('}');
        return;
      case 'ref':
        this.value(schema.resolve(), x, indent);
        return;
      default:
        // bytes, literal, union, map, json: the interpreter's own code.
        line(`out += h.write(${s.dep(schema)}, ${x}, depth, O);`);
    }
  }

  /** A statement that refuses `x` where the schema's rule does (value-rules.ts); nothing without one. */
  private rule(rule: Rule<never> | undefined, x: string, indent: string): void {
    if (rule === undefined) return;
    this.s.line(`${indent}{ const r = ${this.s.dep(rule)}(${x}); if (r !== undefined) throw h.refused(r); }`);
  }

  private object(schema: ObjectSchema, name: string): void {
    const s = this.s;
    s.line(`function ${name}(v, depth, O) {`);
    s.line("  if (!h.isRecord(v)) throw h.wrong('an object', v);");
    s.line("  let out = '{';");
    s.line('  let at = 0;');
    s.line('  try {');
    // Until a field that is always written has been, whether a comma is due depends on the value.
    let written = false;
    schema.fields.forEach((field, i) => {
      const x = `x${i}`;
      const key = `${JSON.stringify(field.name)}:`;
      s.line(`    at = ${i};`);
      s.line(`    const ${x} = ${s.field('v', field.name)};`);
      const skippable = field.schema.kind === 'optional';
      const body = `${skippable ? '  ' : ''}    `;
      if (skippable) s.line(`    if (${x} !== undefined) {`);
      // The first field has nothing before it; after one always written, a comma is due.
      if (i === 0) s.line(`${body}out += ${JSON.stringify(key)};`);
      else if (written) s.line(`${body}out += ${JSON.stringify(`,${key}`)};`);
      else s.line(`${body}out += (out.length > 1 ? ',' : '') + ${JSON.stringify(key)};`);
      this.value(field.schema, x, body);
      if (skippable) s.line('    }');
      if (!skippable) written = true;
    });
    s.line('  } catch (error) {');
    s.line(`    throw h.prependPath(error, ${s.dep(schema.fields.map((field) => field.name))}[at]);`);
    s.line('  }');
    s.line("  return out + '}';");
    s.line('}');
  }

  private array(schema: Extract<Schema, { kind: 'array' }>, name: string): void {
    const s = this.s;
    s.line(`function ${name}(v, outer, O) {`);
    s.line("  if (!Array.isArray(v)) throw h.wrong('an array', v);");
    this.rule(itemsRule(schema), 'v.length', '  ');
    s.line('  const depth = h.nest(outer, O);');
    s.line("  let out = '[';");
    s.line('  let i = 0;');
    s.line('  try {');
    s.line('    for (; i < v.length; i++) {');
    s.line("      if (i > 0) out += ',';");
    s.line('      const x = v[i];');
    this.value(schema.items, 'x', '      ');
    s.line('    }');
    s.line('  } catch (error) {');
    s.line('    throw h.prependPath(error, i);');
    s.line('  }');
    s.line("  return out + ']';");
    s.line('}');
  }
}
