/** FlatBuffers views as plain values, for tests that compare what a view shows with what decode gives. */
import type { ObjectSchema, Schema } from '../../src/index.js';
import { selectBranch } from '../../src/schema/either.js';

/** A view read out field by field along the schema, as plain values (a view's fields are getters). */
export function plainView(schema: Schema, value: unknown): unknown {
  switch (schema.kind) {
    case 'ref':
      return plainView(schema.resolve(), value);
    case 'optional':
    case 'nullable':
      return value === undefined || value === null ? value : plainView(schema.inner, value);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const field of schema.fields) {
        const item = (value as Record<string, unknown>)[field.name];
        if (item !== undefined) out[field.name] = plainView(field.schema, item);
      }
      return out;
    }
    case 'union': {
      const tag = (value as Record<string, unknown>)[schema.tag];
      const variant = schema.variants.find((v) =>
        v.fields.some((f) => f.schema.kind === 'literal' && f.schema.value === tag),
      );
      return plainView(variant as ObjectSchema, value);
    }
    case 'either': {
      // A view is no plain object, so the branch is the one whose reading the branch rule picks
      // (and which the value itself does not rule out: an array is no map's view).
      const direct = selectBranch(schema, value);
      for (const [i, branch] of schema.branches.entries()) {
        if (direct !== undefined && direct !== i) continue;
        try {
          const plain = plainView(branch, value);
          if (selectBranch(schema, plain) === i) return plain;
        } catch {
          // Not this branch: a view of another kind of value.
        }
      }
      return value;
    }
    case 'array':
      return (value as unknown[]).map((item) => plainView(schema.items, item));
    case 'map':
      return value instanceof Map
        ? new Map([...value].map(([k, v]) => [k, plainView(schema.values, v)]))
        : Object.fromEntries(
            Object.entries(value as object).map(([k, v]) => [k, plainView(schema.values, v)]),
          );
    case 'bytes':
      return (value as Uint8Array).slice();
    default:
      return value;
  }
}
