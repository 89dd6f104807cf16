/**
 * The guard both generated JSON units (the writer's projection, decode/compiled.ts's reader) pass
 * before they are built: their objects are literals keyed by field name, so a schema with a name
 * that cannot be an own key stays on the interpreter.
 */
import type { Schema } from '../../schema/index.js';
import { keysAreSafe } from '../core/codegen.js';

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
