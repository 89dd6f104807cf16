/**
 * JSON values, compiled: a reader per schema that turns what `JSON.parse` returned into a value of
 * the schema, exactly as the interpreter's `fromJsonValue` does in place (src/schema/json-value.ts).
 *
 * The interpreter walks the schema for every value; the generated reader is the walk unrolled:
 * each object's fields read by constant name, the checks of common kinds inline (strings, booleans,
 * integers and their ranges, 64-bit integers as digit strings or safe numbers, floats, timestamps,
 * decimals, base64, string-keyed maps, nested objects and arrays, and the rules of their
 * constraints, from value-rules.ts as the interpreter's), the converted value stored back into the
 * parsed tree, so an object that needs no conversion is only looked at. Inlining decimals, bytes,
 * maps and int64 took `documents` decode from 45 to 24 ms (with base64 proven by Node's decoder).
 * Every other kind (integer-keyed maps, unions, free JSON), and every value an inline check
 * refuses (a timestamp with an offset, a wrong type, a string that is no enum member, another
 * value than a literal, a number for a decimal), goes to the interpreter's `read` with the same arguments: it
 * converts the value or throws, so both paths give the same values and the same errors (code,
 * message, path) and cannot drift on rare kinds.
 *
 * A JSON.parse reviver would convert during the parse instead, but it sees keys without the
 * schema's path, and on the `records` and `users` datasets an identity reviver alone made
 * JSON.parse 3-4× slower (Node 20), more than this whole pass costs.
 */

import { prependPath } from '../../../errors/index.js';
import { decimalBounds, decimalFits } from '../../../schema/decimal.js';
import type { MapSchema, ObjectSchema, Schema } from '../../../schema/index.js';
import { intRange, isSmallInt, largeIntRange } from '../../../schema/int-ranges.js';
import {
  countElements,
  keptOneofs,
  nest,
  type ReadContext,
  read,
  readMap,
  requiredField,
  unknownKeys,
  unsafeMapKey,
} from '../../../schema/json-value.js';
import { memberSet } from '../../../schema/validate.js';
import {
  bytesRule,
  fitsFloat32,
  floatRule,
  itemsRule,
  type Rule,
  stringRule,
  timestampRule,
} from '../../../schema/value-rules.js';
import { fromBase64 } from '../../../util/base64.js';
import { isUnsafeKey } from '../../../util/unsafe-keys.js';
import { CompiledCache, codegenAvailable, FunctionQueue, SourceBuilder } from '../../core/codegen.js';
import { readCanonicalTime } from '../../core/read-time.js';
import { namesAreSafe } from '../safe-names.js';

/** A 64-bit integer's digits, as the interpreter's `readInteger` accepts them. */
const integerText = /^-?(0|[1-9][0-9]*)$/;

/**
 * Converts a parsed JSON value to a value of the schema, in place (the context's `inPlace` must be
 * true: the reader owns the tree it is given). Limits and the unknown-key rule come with each call.
 */
export type JsonReader = (json: unknown, context: ReadContext) => unknown;

const cache = new CompiledCache<Schema, JsonReader>(256);

/** The compiled reader for `schema`, or undefined where code cannot be generated. */
export function compileJsonReader(schema: Schema): JsonReader | undefined {
  if (!codegenAvailable || !namesAreSafe(schema, new Set())) return undefined;
  return cache.get(schema, () => new JsonReadCompiler().build(schema));
}

/**
 * The statement that puts a converted value where it belongs: an object's field or an array slot,
 * or the result. Given the value it was read from, a field or slot is written only when the two
 * differ (`!==`), as the interpreter writes in place: an int64 -0 read as a number stays -0 there,
 * though the interpreter returns 0 for it at the root.
 */
type Store = (value: string, from?: string) => string;

/** Stores into `target`, a field or slot of the parsed tree. */
function inPlace(target: string): Store {
  return (value, from) =>
    from === undefined ? `${target} = ${value};` : `if (${value} !== ${from}) ${target} = ${value};`;
}

class JsonReadCompiler {
  private readonly s = new SourceBuilder();
  /** A function per object or array schema, made on demand. */
  private readonly functions = new FunctionQueue<Schema>((schema) =>
    schema.kind === 'object'
      ? this.s.fn('readObject', schema.name)
      : this.s.fn(schema.kind === 'map' ? 'readMap' : 'readArray'),
  );

  build(root: Schema): JsonReader {
    const s = this.s;
    s.line(
      `const h = ${s.dep({ read, readMap, nest, countElements, requiredField, unknownKeys, unsafeMapKey, isUnsafeKey, prependPath, readCanonicalTime, fitsFloat32, decimalFits, fromBase64, integerText })};`,
    );
    const rootName = s.fn('readRoot');
    s.line(`function ${rootName}(v, C) {`);
    s.line('  const depth = 0;');
    this.value(root, 'v', (value) => `v = ${value};`, '  ');
    s.line('  return v;');
    s.line('}');
    this.functions.drain((schema, name) => {
      if (schema.kind === 'object') this.object(schema, name);
      else if (schema.kind === 'array') this.array(schema, name);
      else if (schema.kind === 'map') this.map(schema, name);
    });
    return s.compile<JsonReader>(rootName);
  }

  /**
   * Statements that check `x` (parsed JSON at `depth`) as a value of `schema` and, where the value
   * changes, `store` the new one. Objects and arrays are converted where they stand.
   */
  private value(schema: Schema, x: string, store: Store, indent: string): void {
    const s = this.s;
    const line = (text: string) => s.line(indent + text);
    // The interpreter's answer for `x`: the converted value, or the error.
    const slow = (): string => `{ const r = h.read(${s.dep(schema)}, ${x}, depth, C); ${store('r', x)} }`;
    // A value the schema's rule refuses goes to the interpreter too, which throws its refusal.
    const breaks = (rule: Rule<never> | undefined, value: string) =>
      rule === undefined ? '' : ` || ${s.dep(rule)}(${value}) !== undefined`;
    if (isSmallInt(schema)) {
      const [min, max] = intRange(schema);
      line(
        `if (typeof ${x} !== 'number' || !Number.isInteger(${x}) || ${x} < ${min} || ${x} > ${max}) ${slow()}`,
      );
      return;
    }
    switch (schema.kind) {
      case 'bool':
        line(`if (typeof ${x} !== 'boolean') ${slow()}`);
        return;
      case 'string':
        // A string the text's checks could not bound, or one that may hold a lone surrogate, goes
        // to the interpreter, which measures it or looks.
        line(
          `if (typeof ${x} !== 'string' || (C.surrogates && !${x}.isWellFormed()) || (C.longStrings && ${x}.length * 3 > C.maxStringBytes)${breaks(stringRule(schema), x)}) ${slow()}`,
        );
        return;
      case 'enum':
        line(`if (typeof ${x} !== 'string' || !${s.dep(memberSet(schema))}.has(${x})) ${slow()}`);
        return;
      case 'literal':
        line(`if (${x} !== ${s.dep(schema.value)}) ${slow()}`);
        return;
      case 'float32':
        // Read as the nearest float32, as every binary format stores it.
        // A bounded one is held to its bounds once rounded, as the interpreter holds it.
        line(
          `if (typeof ${x} !== 'number' || !Number.isFinite(${x}) || !h.fitsFloat32(${x})${breaks(floatRule(schema), `Math.fround(${x})`)}) ${slow()}`,
        );
        line(`else { const f = Math.fround(${x}); ${store('f', x)} }`);
        return;
      case 'float64':
        // An infinite number is one JSON.parse read from a literal past float64 (`1e400`).
        line(
          `if (typeof ${x} !== 'number' || !Number.isFinite(${x})${breaks(floatRule(schema), x)}) ${slow()}`,
        );
        return;
      case 'timestamp': {
        // The spelling wirekit writes, read inline; any other goes to the interpreter's RFC 3339 parser.
        const date = `${x}_date`;
        line(`const ${date} = typeof ${x} === 'string' ? h.readCanonicalTime(${x}) : undefined;`);
        line(`if (${date} === undefined${breaks(timestampRule(schema), date)}) ${slow()}`);
        line(
          `else { if (C.allocation !== undefined) C.allocation.charge(C.allocation.date); ${store(date)} }`,
        );
        return;
      }
      case 'object':
        line(`${this.functions.nameFor(schema)}(${x}, depth, C);`);
        return;
      case 'array':
        line(`${this.functions.nameFor(schema)}(${x}, depth, C);`);
        return;
      case 'optional':
        // Null for an optional value that cannot hold null means absent, as in the interpreter.
        if (schema.inner.kind !== 'nullable') line(`if (${x} === null) ${store('undefined')}`);
        line(`${schema.inner.kind !== 'nullable' ? 'else ' : ''}if (${x} !== undefined) {`);
        this.value(schema.inner, x, store, `${indent}  `);
        line('}');
        return;
      case 'nullable':
        line(`if (${x} !== null) {`);
        this.value(schema.inner, x, store, `${indent}  `);
        line('}');
        return;
      case 'ref':
        this.value(schema.resolve(), x, store, indent);
        return;
      case 'decimal':
        // A decimal string within the schema's digits is read as it is; anything else (a number,
        // a string to measure, a refusal) goes to the interpreter.
        line(
          `if (typeof ${x} !== 'string' || C.longStrings || !h.decimalFits(${x}, ${decimalBounds(schema)
            .map((n) => s.dep(n))
            .join(', ')})) ${slow()}`,
        );
        return;
      case 'bytes': {
        // Base64 within maxBytesLength, decoded and charged as the interpreter does; anything
        // else, and a value the schema's rule refuses, goes to it.
        const bytes = `${x}_bytes`;
        line(
          `const ${bytes} = typeof ${x} === 'string' && Math.floor((${x}.length * 3) / 4) <= C.maxBytesLength ? h.fromBase64(${x}) : undefined;`,
        );
        line(`if (${bytes} === undefined${breaks(bytesRule(schema), bytes)}) ${slow()}`);
        line(
          `else { if (C.allocation !== undefined) C.allocation.charge(C.allocation.bytes + ${bytes}.length); ${store(bytes)} }`,
        );
        return;
      }
      case 'int64':
      case 'uint64': {
        const [min, max] = largeIntRange[schema.kind];
        if (schema.as === 'bigint') {
          // A string of digits in range, as the interpreter reads it; numbers and the rest go to it.
          const big = `${x}_big`;
          line(
            `const ${big} = typeof ${x} === 'string' && ${x}.length <= 21 && h.integerText.test(${x}) ? BigInt(${x}) : undefined;`,
          );
          line(`if (${big} === undefined || ${big} < ${s.dep(min)} || ${big} > ${s.dep(max)}) ${slow()}`);
          line(
            `else { if (C.allocation !== undefined) C.allocation.charge(C.allocation.bigint); ${store(big)} }`,
          );
          return;
        }
        // A safe integer number is read as it is (-0 goes to the interpreter, which returns 0).
        const negative = schema.kind === 'uint64' ? ` || ${x} < 0` : '';
        line(
          `if (typeof ${x} !== 'number' || !Number.isSafeInteger(${x}) || (${x} === 0 && 1 / ${x} < 0)${negative}) ${slow()}`,
        );
        return;
      }
      case 'map':
        if (schema.keys.kind !== 'string') {
          line(slow());
          return;
        }
        line(`{ const r = ${this.functions.nameFor(schema)}(${x}, h.nest(depth, C), C); ${store('r', x)} }`);
        return;
      default:
        // union, json: the interpreter's own code.
        line(slow());
    }
  }

  private object(schema: ObjectSchema, name: string): void {
    const s = this.s;
    s.line(`function ${name}(v, outer, C) {`);
    s.line('  const depth = h.nest(outer, C);');
    // Not an object: the interpreter refuses it, with its own error.
    s.line(
      `  if (typeof v !== 'object' || v === null || Array.isArray(v)) return h.read(${s.dep(schema)}, v, outer, C);`,
    );
    // Keys are counted before the fields change the object (a null optional's key deleted, defaults
    // added), as in the interpreter: more keys than fields seen means an unknown key.
    s.line('  let keys = 0;');
    s.line('  for (const k in v) if (v[k] !== undefined) keys++;');
    s.line('  C.tally.keys += keys;');
    s.line('  let seen = 0;');
    s.line('  let at = 0;');
    s.line('  try {');
    schema.fields.forEach((field, i) => {
      const x = `x${i}`;
      const key = s.key(field.name);
      s.line(`    at = ${i};`);
      s.line(`    const ${x} = ${s.field('v', field.name)};`);
      // The interpreter's order of cases, decided here from the field's own kind (a ref to an
      // optional schema is not optional, as in the interpreter).
      const optional = field.schema.kind === 'optional' ? field.schema : undefined;
      if (optional !== undefined && optional.inner.kind !== 'nullable') {
        // Null for an optional field that cannot hold null means absent: the key goes, and counts
        // as seen (it was counted among the keys before it went).
        s.line(`    if (${x} === null) {`);
        s.line('      seen++;');
        s.line(`      delete v[${key}];`);
        s.line(`    } else if (${x} !== undefined) {`);
      } else s.line(`    if (${x} !== undefined) {`);
      s.line('      seen++;');
      // Present, so an optional field reads as its inner schema.
      this.value(optional?.inner ?? field.schema, x, inPlace(`v[${key}]`), '      ');
      s.line('    }');
      if (field.default !== undefined) s.line(`    else v[${key}] = ${s.dep(field.default)};`);
      else if (field.schema.kind === 'literal') s.line(`    else v[${key}] = ${s.dep(field.schema.value)};`);
      else if (optional === undefined) s.line(`    else throw h.requiredField(C, ${s.dep(field.name)});`);
    });
    s.line('  } catch (error) {');
    s.line(`    throw h.prependPath(error, ${s.dep(schema.fields.map((field) => field.name))}[at]);`);
    s.line('  }');
    // Keys the schema does not know are handed to the interpreter's code, which refuses or deletes them.
    s.line(`  if (keys !== seen) h.unknownKeys(${s.dep(schema)}, v, v, C);`);
    if (schema.oneofs !== undefined) s.line(`  ${s.dep(keptOneofs)}(${s.dep(schema)}, v, C);`);
    s.line('  return v;');
    s.line('}');
  }

  /**
   * A string-keyed map, read as the interpreter's `readMap` reads it (a new object, keys counted,
   * charged and checked in its order), each key and value checked inline; a value that is no
   * object goes to `readMap`, which refuses it.
   */
  private map(schema: MapSchema, name: string): void {
    const s = this.s;
    s.line(`function ${name}(v, depth, C) {`);
    s.line(
      `  if (typeof v !== 'object' || v === null || Array.isArray(v)) return h.readMap(${s.dep(schema.keys)}, ${s.dep(schema.values)}, v, depth, C);`,
    );
    s.line('  const names = Object.keys(v);');
    s.line('  C.tally.keys += names.length;');
    s.line('  h.countElements(names.length, C);');
    s.line('  const A = C.allocation;');
    s.line('  if (A !== undefined) A.charge(A.object + names.length * A.slot);');
    s.line('  const out = {};');
    s.line('  for (let i = 0; i < names.length; i++) {');
    s.line('    const k = names[i];');
    s.line('    if (h.isUnsafeKey(k)) throw h.unsafeMapKey(k);');
    s.line('    let item = v[k];');
    s.line('    try {');
    // The key is a value of the key schema: checked (it stays the string it is), then the value.
    this.value(schema.keys, 'k', () => '', '      ');
    s.line('      const x = item;');
    this.value(schema.values, 'x', (value) => `item = ${value};`, '      ');
    s.line('    } catch (error) {');
    s.line('      throw h.prependPath(error, k);');
    s.line('    }');
    s.line('    out[k] = item;');
    s.line('  }');
    s.line('  return out;');
    s.line('}');
  }

  private array(schema: Extract<Schema, { kind: 'array' }>, name: string): void {
    const s = this.s;
    s.line(`function ${name}(v, outer, C) {`);
    // Not an array, or one its rule refuses: the interpreter refuses it (before nesting, as it does).
    const rule = itemsRule(schema);
    const breaks = rule === undefined ? '' : ` || ${s.dep(rule)}(v.length) !== undefined`;
    s.line(`  if (!Array.isArray(v)${breaks}) return h.read(${s.dep(schema)}, v, outer, C);`);
    s.line('  const depth = h.nest(outer, C);');
    s.line('  h.countElements(v.length, C);');
    s.line('  let i = 0;');
    s.line('  try {');
    s.line('    for (; i < v.length; i++) {');
    s.line('      const x = v[i];');
    this.value(schema.items, 'x', inPlace('v[i]'), '      ');
    s.line('    }');
    s.line('  } catch (error) {');
    s.line('    throw h.prependPath(error, i);');
    s.line('  }');
    s.line('  return v;');
    s.line('}');
  }
}
