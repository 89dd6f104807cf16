/**
 * JSON text, compiled: the writer a JSON codec with a schema uses, the schema's projection
 * (projection.ts) handed to one JSON.stringify, or the interpreter (schema-writer.ts) where the
 * projection cannot write a schema or a value as the interpreter does.
 */
import type { Schema } from '../../../schema/index.js';
import { CompiledCache, codegenAvailable } from '../../core/codegen.js';
import { namesAreSafe } from '../safe-names.js';
import { canProject, fallback, JsonProjectionCompiler } from './projection.js';
import { type JsonWriteOptions, writeJson } from './schema-writer.js';

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
    const text = (value: unknown, O: JsonWriteOptions): string => writeJson(schema, value, O);
    if (!canProject(schema, options.int64)) return text;
    const project = new JsonProjectionCompiler().build(schema);
    // The projection and one JSON.stringify (projection.ts); the interpreter for a value
    // the projection cannot write as it does.
    return (value: unknown, O: JsonWriteOptions): string => {
      let projected: unknown;
      try {
        projected = project(value, O);
      } catch (error) {
        if (error === fallback) return text(value, O);
        // The interpreter's error is the one: it refuses a lone surrogate before a later wrong value.
        text(value, O);
        throw error;
      }
      const json = projected === undefined ? 'null' : JSON.stringify(projected);
      // JSON.stringify escapes a lone surrogate, which the interpreter refuses instead.
      return json.includes('\\u') && loneSurrogateEscape.test(json) ? text(value, O) : json;
    };
  });
  return compiled;
}
