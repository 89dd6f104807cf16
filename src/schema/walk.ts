import { WirekitError } from '../errors/index.js';
import type { NamedSchema, Schema } from './types.js';

/** The schemas directly inside `schema`; a ref's target counts as its child. */
export function childrenOf(schema: Schema): readonly Schema[] {
  switch (schema.kind) {
    case 'object':
      return schema.fields.map((field) => field.schema);
    case 'union':
      return schema.variants;
    case 'either':
      return schema.branches;
    case 'array':
      return [schema.items];
    case 'map':
      return [schema.keys, schema.values];
    case 'optional':
    case 'nullable':
      return [schema.inner];
    case 'ref':
      return [schema.resolve()];
    default:
      return [];
  }
}

/** The full name of a named type: `namespace.Name`, or the bare name. */
export function fullName(type: NamedSchema): string {
  return type.namespace === undefined ? type.name : `${type.namespace}.${type.name}`;
}

/**
 * Every named type reachable from `root`, in the order a depth-first walk first meets them (the
 * order exporters declare them in). Throws when two different types share a full name, since no
 * format can tell them apart.
 */
export function namedTypes(root: Schema): Map<string, NamedSchema> {
  const found = new Map<string, NamedSchema>();
  const visit = (schema: Schema): void => {
    if (schema.kind === 'object' || schema.kind === 'enum' || schema.kind === 'union') {
      const key = fullName(schema);
      const known = found.get(key);
      if (known === schema) return;
      if (known !== undefined) {
        throw new WirekitError(
          'WK_SCHEMA_NAME_CONFLICT',
          `Two different types are named ${key}; rename one of them (or reuse one schema object for both).`,
        );
      }
      found.set(key, schema);
    }
    for (const child of childrenOf(schema)) visit(child);
  };
  visit(root);
  return found;
}

/** Follows refs until a concrete node. */
export function deref(schema: Schema): Exclude<Schema, { kind: 'ref' }> {
  return schema.kind === 'ref' ? schema.resolve() : schema;
}
