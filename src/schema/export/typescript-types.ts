/**
 * The TypeScript type of a schema's values, written out: what a generated module declares for a
 * recursive type, whose type TypeScript cannot infer from the schema (TS7022), so that the schema
 * can be annotated with it. It spells out what `Infer` and `InferInput` compute: an optional
 * field's key is optional; in the input type a field with a default is optional too; a map with
 * string keys is a Record, with integer keys a Map.
 */
import type { NamedSchema, Schema } from '../types.js';
import { propertyKey, quote } from './typescript-layout.js';

export type TypeMode = 'value' | 'input';

/** How a named type is referred to from a declaration (its identifier, or its input type's). */
export type Reference = (target: NamedSchema, mode: TypeMode) => string;

/**
 * The declared type of a named type: an interface body for an object, a union of its variants
 * for a union. Type names it needs from wirekit (JsonValue) are added to `imports`.
 */
export function typeText(
  type: NamedSchema,
  mode: TypeMode,
  reference: Reference,
  imports: Set<string>,
): string {
  if (type.kind === 'union') return type.variants.map((variant) => reference(variant, mode)).join(' | ');
  if (type.kind === 'enum') return type.members.map(quote).join(' | ');
  if (type.fields.length === 0) return '{}';
  const lines = type.fields.map((field) => {
    const optional = field.schema.kind === 'optional' || (mode === 'input' && field.default !== undefined);
    const schema = field.schema.kind === 'optional' ? field.schema.inner : field.schema;
    const [text] = typeOf(schema, mode, reference, imports);
    return `  ${propertyKey(field.name)}${optional ? '?' : ''}: ${text};`;
  });
  return `{\n${lines.join('\n')}\n}`;
}

/** A schema's type, and whether it is a union at its top (so that `[]` needs parentheses). */
function typeOf(
  schema: Schema,
  mode: TypeMode,
  reference: Reference,
  imports: Set<string>,
): [string, boolean] {
  const inner = (child: Schema): [string, boolean] => typeOf(child, mode, reference, imports);
  switch (schema.kind) {
    case 'ref':
      return [reference(schema.resolve(), mode), false];
    case 'object':
    case 'enum':
    case 'union':
      return [reference(schema, mode), false];
    case 'bool':
      return ['boolean', false];
    case 'int64':
    case 'uint64':
      return [schema.as === 'number' ? 'number' : 'bigint', false];
    case 'decimal':
    case 'string':
      return ['string', false];
    case 'bytes':
      return ['Uint8Array', false];
    case 'timestamp':
      return ['Date', false];
    case 'literal':
      return [typeof schema.value === 'string' ? quote(schema.value) : String(schema.value), false];
    case 'json':
      imports.add('type JsonValue');
      return ['JsonValue', false];
    case 'array': {
      const [items, union] = inner(schema.items);
      return [union ? `(${items})[]` : `${items}[]`, false];
    }
    case 'map': {
      const [values] = inner(schema.values);
      if (schema.keys.kind === 'string') return [`Record<string, ${values}>`, false];
      const [keys] = inner(schema.keys);
      return [`Map<${keys}, ${values}>`, false];
    }
    case 'either':
      return [schema.branches.map((branch) => inner(branch)[0]).join(' | '), true];
    case 'optional':
      return [`${inner(schema.inner)[0]} | undefined`, true];
    case 'nullable':
      return [`${inner(schema.inner)[0]} | null`, true];
    default:
      return ['number', false];
  }
}
