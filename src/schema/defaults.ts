/**
 * `withDefaults`: an input value (`InferInput`) made a full value (`Infer`) by filling in each field
 * left out that has a default, at every depth. Encoders take full values only (a field left out is
 * refused in every format, so that no format writes something the others would not), and decoders
 * fill defaults only in the formats that can tell a field is absent; filling them in before
 * encoding is what lets a value go in without them and mean the same in every format.
 *
 * The value is copied only where something is filled in; a schema without any default returns the
 * value as it is, at the cost of one lookup. Values that are not what the schema says are left for
 * the encoder's validation to report.
 */
import { branchOf } from './either.js';
import type { Infer, InferInput, ObjectSchema, Schema } from './types.js';
import { childrenOf } from './walk.js';

/** Deeper values are left as they are: the encoder's depth limit refuses them, with its own record. */
const maxDepth = 256;

const hasDefaults = new WeakMap<Schema, boolean>();

export function withDefaults<S extends Schema>(schema: S, value: InferInput<S>): Infer<S> {
  return (anyDefaults(schema) ? fill(schema, value, 0) : value) as Infer<S>;
}

/** Whether any object reachable from `schema` has a field with a default; computed once per schema. */
function anyDefaults(schema: Schema): boolean {
  let known = hasDefaults.get(schema);
  if (known === undefined) {
    known = false;
    const seen = new Set<Schema>();
    const pending: Schema[] = [schema];
    while (pending.length > 0 && !known) {
      const next = pending.pop() as Schema;
      if (seen.has(next)) continue;
      seen.add(next);
      if (next.kind === 'object' && next.fields.some((field) => field.default !== undefined)) known = true;
      pending.push(...childrenOf(next));
    }
    hasDefaults.set(schema, known);
  }
  return known;
}

function fill(schema: Schema, value: unknown, depth: number): unknown {
  if (depth > maxDepth || value === null || value === undefined || typeof value !== 'object') return value;
  switch (schema.kind) {
    case 'ref':
      return fill(schema.resolve(), value, depth);
    case 'optional':
    case 'nullable':
      return fill(schema.inner, value, depth);
    case 'object':
      return fillObject(schema, value as Record<string, unknown>, depth);
    case 'union': {
      const tag = (value as Record<string, unknown>)[schema.tag];
      const variant = schema.variants.find((item) => tagOf(item, schema.tag) === tag);
      return variant === undefined ? value : fillObject(variant, value as Record<string, unknown>, depth);
    }
    case 'either': {
      // The branch is chosen as for any value; an object lacking a defaulted field still has the
      // required keys that choose it (either.ts counts a defaulted field as not required).
      const branch = branchOf(schema, value);
      return branch === undefined ? value : fill(branch, value, depth);
    }
    case 'array':
      return Array.isArray(value) ? fillEach(value, (item) => fill(schema.items, item, depth + 1)) : value;
    case 'map':
      return fillMap(schema.values, value, depth);
    default:
      return value;
  }
}

function fillObject(schema: ObjectSchema, value: Record<string, unknown>, depth: number): unknown {
  if (Array.isArray(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const field of schema.fields) {
    const given = value[field.name];
    const filled = given === undefined ? field.default : fill(field.schema, given, depth + 1);
    if (filled !== given) {
      out ??= { ...value };
      out[field.name] = filled;
    }
  }
  return out ?? value;
}

function fillMap(values: Schema, value: object, depth: number): unknown {
  if (value instanceof Map) {
    let out: Map<unknown, unknown> | undefined;
    for (const [key, item] of value) {
      const filled = fill(values, item, depth + 1);
      if (filled !== item) {
        out ??= new Map(value);
        out.set(key, filled);
      }
    }
    return out ?? value;
  }
  if (Array.isArray(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const filled = fill(values, item, depth + 1);
    if (filled !== item) {
      out ??= { ...value };
      out[key] = filled;
    }
  }
  return out ?? value;
}

function fillEach(items: readonly unknown[], fillItem: (item: unknown) => unknown): unknown {
  let out: unknown[] | undefined;
  items.forEach((item, index) => {
    const filled = fillItem(item);
    if (filled !== item) {
      out ??= [...items];
      out[index] = filled;
    }
  });
  return out ?? items;
}

function tagOf(variant: ObjectSchema, tag: string): unknown {
  const field = variant.fields.find((item) => item.name === tag);
  return field?.schema.kind === 'literal' ? field.schema.value : undefined;
}
